// SPDX-License-Identifier: GPL-2.0
/*
 * bad_inputs.c - malformed RUN requests are refused with the errno the ABI promises.
 */

#include "tests/kmod/selftest/selftest.h"

/* ---- bad inputs --------------------------------------------------- */

struct bad_case {
	const char *what;
	int want;
	void (*mutate)(struct smapbench_run *r);
};

static unsigned char *unmapped, *guarded_end, *readonly;

static void m_null_buffer(struct smapbench_run *r) { r->buffer = 0; }
static void m_kernel_buffer(struct smapbench_run *r) { r->buffer = KERNEL_ADDR; }
static void m_unmapped(struct smapbench_run *r) { r->buffer = (uintptr_t)unmapped; }
static void m_crossing(struct smapbench_run *r)
{
	r->buffer = (uintptr_t)guarded_end - 4;
	r->buffer_len = 8;
}
static void m_crossing_copy(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_COPY_TO_USER;
	r->size = 4096;
	r->buffer = (uintptr_t)guarded_end - 100;
	r->buffer_len = 4096;
}
static void m_crossing_batched(struct smapbench_run *r)
{
	r->variant = SMAPBENCH_VARIANT_BATCHED;
	r->batch = 8;
	r->buffer = (uintptr_t)guarded_end - 32;
	r->buffer_len = 64;
}
static void m_readonly(struct smapbench_run *r) { r->buffer = (uintptr_t)readonly; }
static void m_short_len(struct smapbench_run *r) { r->buffer_len = 4; }
static void m_short_batch_len(struct smapbench_run *r)
{
	r->variant = SMAPBENCH_VARIANT_BATCHED;
	r->batch = 8;
	r->buffer_len = 63;
}
static void m_huge_len(struct smapbench_run *r) { r->buffer_len = SMAPBENCH_MAX_BUFFER + 1ULL; }
static void m_size_3(struct smapbench_run *r) { r->size = 3; }
static void m_size_16(struct smapbench_run *r) { r->size = 16; }
static void m_size_0(struct smapbench_run *r) { r->size = 0; }
static void m_copy_huge(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_COPY_FROM_USER;
	r->size = SMAPBENCH_MAX_SIZE + 1;
}
static void m_copy_4g(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_CLEAR_USER;
	r->size = 0xffffffffU;
}
static void m_iter_0(struct smapbench_run *r) { r->iterations = 0; }
static void m_iter_huge(struct smapbench_run *r) { r->iterations = SMAPBENCH_MAX_ITERATIONS + 1; }
static void m_iter_max(struct smapbench_run *r) { r->iterations = 0xffffffffU; }
static void m_samples_0(struct smapbench_run *r) { r->samples = 0; }
static void m_samples_huge(struct smapbench_run *r) { r->samples = SMAPBENCH_MAX_SAMPLES + 1; }
static void m_bad_op(struct smapbench_run *r) { r->op = SMAPBENCH_OP_COUNT; }
static void m_bad_op_max(struct smapbench_run *r) { r->op = 0xffffffffU; }
static void m_bad_variant(struct smapbench_run *r) { r->variant = SMAPBENCH_VARIANT_COUNT; }
static void m_calib_kapi(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_CALIB;
	r->size = 0;
}
static void m_get_none(struct smapbench_run *r) { r->variant = SMAPBENCH_VARIANT_NONE; }
static void m_strncpy_inline(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_STRNCPY_FROM_USER;
	r->variant = SMAPBENCH_VARIANT_INLINE;
}
static void m_batch_0(struct smapbench_run *r) { r->variant = SMAPBENCH_VARIANT_BATCHED; }
static void m_batch_huge(struct smapbench_run *r)
{
	r->variant = SMAPBENCH_VARIANT_BATCHED;
	r->batch = SMAPBENCH_MAX_BATCH + 1;
}
static void m_batch_kapi(struct smapbench_run *r) { r->batch = 1; }
static void m_futex_size(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_FUTEX;
	r->size = 8;
}
static void m_futex_misaligned(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_FUTEX;
	r->size = 4;
	r->buffer = (uintptr_t)arena + 2;
}
static void m_sigframe_size(struct smapbench_run *r)
{
	r->op = SMAPBENCH_OP_SIGFRAME;
	r->size = 8;
}
static void m_reserved0(struct smapbench_run *r) { r->reserved[0] = 1; }
static void m_reserved3(struct smapbench_run *r) { r->reserved[3] = 0x80000000U; }
static void m_samples_null(struct smapbench_run *r) { r->samples_ptr = 0; }
static void m_samples_kernel(struct smapbench_run *r) { r->samples_ptr = KERNEL_ADDR; }
static void m_samples_readonly(struct smapbench_run *r) { r->samples_ptr = (uintptr_t)readonly; }
static void m_samples_crossing(struct smapbench_run *r)
{
	r->samples = 2;
	r->samples_ptr = (uintptr_t)guarded_end - sizeof(struct smapbench_sample);
}
static void m_noncanonical(struct smapbench_run *r) { r->buffer = 0x0000800000000000ULL; }
static void m_sample_size_0(struct smapbench_run *r) { r->sample_size = 0; }
static void m_sample_size_8(struct smapbench_run *r) { r->sample_size = 8; }
static void m_sample_size_odd(struct smapbench_run *r) { r->sample_size = 20; }
static void m_sample_size_huge(struct smapbench_run *r)
{
	r->sample_size = SMAPBENCH_MAX_SAMPLE_SIZE + 8;
}
static void m_sample_flag_unknown(struct smapbench_run *r) { r->sample_flags = 1U << 31; }
static void m_sample_window_short(struct smapbench_run *r) { r->sample_size = 16; }

static const struct bad_case bad_cases[] = {
	{ "NULL buffer", EFAULT, m_null_buffer },
	{ "kernel address buffer", EFAULT, m_kernel_buffer },
	{ "non-canonical buffer", EFAULT, m_noncanonical },
	{ "unmapped buffer", EFAULT, m_unmapped },
	{ "8-byte access crossing into a PROT_NONE page", EFAULT, m_crossing },
	{ "4 KiB copy crossing into a PROT_NONE page", EFAULT, m_crossing_copy },
	{ "batched block crossing into a PROT_NONE page", EFAULT, m_crossing_batched },
	{ "read-only buffer", EFAULT, m_readonly },
	{ "buffer_len smaller than size", EINVAL, m_short_len },
	{ "buffer_len smaller than size x batch", EINVAL, m_short_batch_len },
	{ "buffer_len above SMAPBENCH_MAX_BUFFER", EINVAL, m_huge_len },
	{ "get_user size 3", EINVAL, m_size_3 },
	{ "get_user size 16", EINVAL, m_size_16 },
	{ "get_user size 0", EINVAL, m_size_0 },
	{ "copy size above SMAPBENCH_MAX_SIZE", EINVAL, m_copy_huge },
	{ "clear_user size 4 GiB - 1", EINVAL, m_copy_4g },
	{ "iterations 0", EINVAL, m_iter_0 },
	{ "iterations above the maximum", EINVAL, m_iter_huge },
	{ "iterations 2^32 - 1", EINVAL, m_iter_max },
	{ "samples 0", EINVAL, m_samples_0 },
	{ "samples above the maximum", EINVAL, m_samples_huge },
	{ "op SMAPBENCH_OP_COUNT", EINVAL, m_bad_op },
	{ "op 2^32 - 1", EINVAL, m_bad_op_max },
	{ "variant SMAPBENCH_VARIANT_COUNT", EINVAL, m_bad_variant },
	{ "calib with variant kapi", EINVAL, m_calib_kapi },
	{ "get_user with variant none", EINVAL, m_get_none },
	{ "strncpy_from_user with variant inline", EINVAL, m_strncpy_inline },
	{ "batched with batch 0", EINVAL, m_batch_0 },
	{ "batched with batch above the maximum", EINVAL, m_batch_huge },
	{ "kapi with batch 1", EINVAL, m_batch_kapi },
	{ "futex size 8", EINVAL, m_futex_size },
	{ "futex on a misaligned word", EINVAL, m_futex_misaligned },
	{ "sigframe size 8", EINVAL, m_sigframe_size },
	{ "reserved[0] non-zero", EINVAL, m_reserved0 },
	{ "reserved[3] non-zero", EINVAL, m_reserved3 },
	{ "NULL samples_ptr", EFAULT, m_samples_null },
	{ "kernel address samples_ptr", EFAULT, m_samples_kernel },
	{ "read-only samples_ptr", EFAULT, m_samples_readonly },
	{ "samples array crossing into a PROT_NONE page", EFAULT, m_samples_crossing },
	{ "sample_size 0", EINVAL, m_sample_size_0 },
	{ "sample_size 8, below tsc and cycles", EINVAL, m_sample_size_8 },
	{ "sample_size 20, not a multiple of 8", EINVAL, m_sample_size_odd },
	{ "sample_size above SMAPBENCH_MAX_SAMPLE_SIZE", EINVAL, m_sample_size_huge },
	{ "an unknown sample flag", EINVAL, m_sample_flag_unknown },
	{ "SMAPBENCH_SAMPLE_WINDOW in 16-byte samples", EINVAL, m_sample_window_short },
};

static unsigned char *map_page(int prot)
{
	unsigned char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(p, 0, PAGE);
	if (mprotect(p, PAGE, prot)) {
		perror("mprotect");
		exit(1);
	}
	return p;
}

void test_bad_inputs(void)
{
	struct smapbench_run r;
	unsigned int i;
	unsigned long bad_cmd;
	int got;

	unmapped = map_page(PROT_READ | PROT_WRITE);
	munmap(unmapped, PAGE);
	guarded_end = arena + ARENA_BYTES; /* the PROT_NONE page */
	readonly = map_page(PROT_READ);

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0,
			4, 2);
		bad_cases[i].mutate(&r);
		got = run(&r);
		ok(got == bad_cases[i].want, "RUN with %s returns %s (got %s)",
		   bad_cases[i].what, errname(bad_cases[i].want), errname(got));
	}

	/* The same bad buffers through every variant's own fault path. */
	for (i = 0; i < SMAPBENCH_VARIANT_NONE; i++) {
		int want = expected_errno(SMAPBENCH_OP_PUT_USER, i);

		if (!want)
			want = EFAULT;
		request(&r, SMAPBENCH_OP_PUT_USER, i, 8,
			i == SMAPBENCH_VARIANT_BATCHED ||
			i == SMAPBENCH_VARIANT_MASKED ? 2 : 0, 4, 2);
		r.buffer = (uintptr_t)guarded_end - 4;
		r.buffer_len = 16;
		got = run(&r);
		ok(got == want, "RUN put_user/%s crossing into PROT_NONE returns %s (got %s)",
		   kmod_variant_name(i), errname(want), errname(got));
	}

	got = ioctl(dev, SMAPBENCH_IOC_RUN, NULL) ? errno : 0;
	ok(got == EFAULT, "RUN with a NULL argument returns EFAULT (got %s)",
	   errname(got));
	got = ioctl(dev, SMAPBENCH_IOC_INFO, NULL) ? errno : 0;
	ok(got == EFAULT, "INFO with a NULL argument returns EFAULT (got %s)",
	   errname(got));
	got = ioctl(dev, SMAPBENCH_IOC_INFO, (void *)(uintptr_t)KERNEL_ADDR) ?
	      errno : 0;
	ok(got == EFAULT, "INFO into a kernel address returns EFAULT (got %s)",
	   errname(got));

	bad_cmd = _IOWR(SMAPBENCH_IOC_MAGIC, 2, struct smapbench_run);
	got = ioctl(dev, bad_cmd, &r) ? errno : 0;
	ok(got == ENOTTY, "ioctl number 2 returns ENOTTY (got %s)", errname(got));
	bad_cmd = _IOR(SMAPBENCH_IOC_MAGIC, 0, struct smapbench_run);
	got = ioctl(dev, bad_cmd, &r) ? errno : 0;
	ok(got == ENOTTY, "INFO number with the RUN size returns ENOTTY (got %s)",
	   errname(got));
	bad_cmd = _IO(SMAPBENCH_IOC_MAGIC, 1);
	got = ioctl(dev, bad_cmd, &r) ? errno : 0;
	ok(got == ENOTTY, "RUN number without size and direction returns ENOTTY (got %s)",
	   errname(got));
	bad_cmd = _IOWR('x', 1, struct smapbench_run);
	got = ioctl(dev, bad_cmd, &r) ? errno : 0;
	ok(got == ENOTTY, "foreign ioctl magic returns ENOTTY (got %s)",
	   errname(got));

	munmap(readonly, PAGE);
}

