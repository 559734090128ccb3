// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_selftest - checks /dev/smapbench from inside a (virtual) machine.
 *
 *   kmod_selftest --expect-smap on|clearcpuid|nosmap-ignored|cpu-off|any
 *                 [--device PATH] [--fuzz N] [--fuzz-seconds S]
 *
 * --expect-smap says what this boot is (the environment variable
 * EXPECT_SMAP works too):
 *   on              SMAP in CPUID, kernel feature and CR4 (-cpu max)
 *   nosmap-ignored  booted with "nosmap", which 6.1+ ignores: same as on
 *   clearcpuid      clearcpuid=smap: CPUID yes, feature and CR4 no
 *   cpu-off         a CPU model without SMAP: none of the three
 *   any             no expectation on the SMAP fields
 *
 * Prints flat TAP lines ("ok - ...", "not ok - ...: why"), comments with
 * '#', and exits 0 iff every check passed. Timings are printed for
 * information only and never asserted: under TCG they are not timings.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/userfaultfd.h>

#include "suites/kmod/catalogue.h"
#include "kmod/uapi/smapbench.h"

#define PAGE		4096UL
#define ARENA_BYTES	(SMAPBENCH_MAX_BUFFER + 2 * PAGE)
#define KERNEL_ADDR	0xffffffff81000000ULL

static int dev = -1;
static unsigned int passed, failed;
static struct smapbench_info info;
static bool info_ok;

static void ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One TAP line; @fmt describes the check, and on failure also why. */
static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf(cond ? "ok - " : "not ok - ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (cond)
		passed++;
	else
		failed++;
}

static void skip(const char *what, const char *why)
{
	printf("ok - %s # SKIP %s\n", what, why);
	fflush(stdout);
}

static const char *errname(int e)
{
	switch (e) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENOTTY: return "ENOTTY";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EINTR: return "EINTR";
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case E2BIG: return "E2BIG";
	case EIO: return "EIO";
	case ENOENT: return "ENOENT";
	default: return strerror(e);
	}
}

/* Returns 0 or the errno of SMAPBENCH_IOC_RUN. */
static int run(struct smapbench_run *r)
{
	return ioctl(dev, SMAPBENCH_IOC_RUN, r) ? errno : 0;
}

/* An mmap'ed arena: ARENA_BYTES read-write, then one PROT_NONE page. */
static unsigned char *arena_new(void)
{
	unsigned char *p = mmap(NULL, ARENA_BYTES + PAGE,
				PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	if (mprotect(p + ARENA_BYTES, PAGE, PROT_NONE)) {
		perror("mprotect");
		exit(1);
	}
	return p;
}

static unsigned char *arena;
static struct smapbench_sample samples[64];

static void request(struct smapbench_run *r, unsigned int op,
		    unsigned int variant, unsigned int size,
		    unsigned int batch, unsigned int iterations,
		    unsigned int nsamples)
{
	memset(r, 0, sizeof(*r));
	r->op = op;
	r->variant = variant;
	r->size = size;
	r->batch = batch;
	r->iterations = iterations;
	r->samples = nsamples;
	r->buffer = (uintptr_t)arena;
	r->buffer_len = SMAPBENCH_MAX_BUFFER;
	r->samples_ptr = (uintptr_t)samples;
	/* Every sample reports its window: the bound is checked everywhere. */
	r->sample_size = sizeof(struct smapbench_sample);
	r->sample_flags = SMAPBENCH_SAMPLE_WINDOW;
}

static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

/* ---- INFO --------------------------------------------------------- */

static const char *expect_mode;

static void check_bit(const char *name, uint32_t flag, int want)
{
	int got = !!(info.flags & flag);

	if (want < 0)
		ok(true, "INFO %s = %d (no expectation)", name, got);
	else
		ok(got == want, "INFO %s = %d (expected %d for %s)", name, got,
		   want, expect_mode);
}

static void test_info(void)
{
	int cpuid = -1, feature = -1, cr4 = -1;
	struct utsname u;
	bool masked;
	int smep[3];

	info_ok = ioctl(dev, SMAPBENCH_IOC_INFO, &info) == 0;
	ok(info_ok, "INFO ioctl succeeds%s%s", info_ok ? "" : ": ",
	   info_ok ? "" : strerror(errno));
	if (!info_ok)
		return;

	/* Nothing but INFO is known to work with another version. */
	if (info.abi_version != SMAPBENCH_ABI_VERSION) {
		ok(false, "INFO: the module speaks ABI version %u, this kmod_selftest only version %u",
		   info.abi_version, SMAPBENCH_ABI_VERSION);
		info_ok = false;
		return;
	}
	ok(true, "INFO abi_version %u", info.abi_version);

	if (!strcmp(expect_mode, "on") || !strcmp(expect_mode, "nosmap-ignored")) {
		cpuid = 1;
		feature = 1;
		cr4 = 1;
	} else if (!strcmp(expect_mode, "clearcpuid")) {
		cpuid = 1;
		feature = 0;
		cr4 = 0;
	} else if (!strcmp(expect_mode, "cpu-off")) {
		cpuid = 0;
		feature = 0;
		cr4 = 0;
	}
	check_bit("SMAP cpuid", SMAPBENCH_INFO_SMAP_CPUID, cpuid);
	check_bit("SMAP feature", SMAPBENCH_INFO_SMAP_FEATURE, feature);
	check_bit("SMAP cr4", SMAPBENCH_INFO_SMAP_CR4, cr4);

	/* Every SMAP state here keeps SMEP: it must be on all three ways. */
	smep[0] = !!(info.flags & SMAPBENCH_INFO_SMEP_CPUID);
	smep[1] = !!(info.flags & SMAPBENCH_INFO_SMEP_FEATURE);
	smep[2] = !!(info.flags & SMAPBENCH_INFO_SMEP_CR4);
	if (!strcmp(expect_mode, "any"))
		ok(smep[0] == smep[1] && smep[1] == smep[2],
		   "INFO SMEP cpuid=%d feature=%d cr4=%d agree", smep[0],
		   smep[1], smep[2]);
	else
		ok(smep[0] && smep[1] && smep[2],
		   "INFO SMEP cpuid=%d feature=%d cr4=%d (expected 1 1 1)",
		   smep[0], smep[1], smep[2]);

	ok(uname(&u) == 0 && info.release[0] &&
	   !strncmp(info.release, u.release, sizeof(info.release)),
	   "INFO release \"%.72s\" equals uname -r \"%s\"", info.release,
	   u.release);
	ok(info.tsc_khz > 0, "INFO tsc_khz %llu > 0",
	   (unsigned long long)info.tsc_khz);
	ok(info.max_samples == SMAPBENCH_MAX_SAMPLES &&
	   info.max_iterations == SMAPBENCH_MAX_ITERATIONS &&
	   info.max_size == SMAPBENCH_MAX_SIZE &&
	   info.max_batch == SMAPBENCH_MAX_BATCH &&
	   info.sample_budget_ns == SMAPBENCH_SAMPLE_BUDGET_NS,
	   "INFO bounds match the header (%u %u %u %u %u)", info.max_samples,
	   info.max_iterations, info.max_size, info.max_batch,
	   info.sample_budget_ns);
	ok(info.ops_mask == (1ULL << SMAPBENCH_OP_COUNT) - 1,
	   "INFO ops_mask %#llx has all %d ops",
	   (unsigned long long)info.ops_mask, SMAPBENCH_OP_COUNT);

	masked = kernel_at_least(6, 12);
	ok(!!(info.flags & SMAPBENCH_INFO_MASKED_UACCESS) == masked &&
	   !!(info.variants_mask & (1U << SMAPBENCH_VARIANT_MASKED)) == masked,
	   "INFO masked variant %s on this kernel (flags %#x variants %#x)",
	   masked ? "built" : "absent", info.flags, info.variants_mask);
	ok(info.sample_size == sizeof(struct smapbench_sample) &&
	   info.sample_flags == SMAPBENCH_SAMPLE_WINDOW,
	   "INFO sample_size %u and sample_flags %#x match the header",
	   info.sample_size, info.sample_flags);
	ok(!info.reserved[0] && !info.reserved[1] && !info.reserved[2],
	   "INFO reserved fields are zero");
	printf("# INFO flags %#x tsc_khz %llu pmu_cycles %d hypervisor %d\n",
	       info.flags, (unsigned long long)info.tsc_khz,
	       !!(info.flags & SMAPBENCH_INFO_PMU_CYCLES),
	       !!(info.flags & SMAPBENCH_INFO_HYPERVISOR));
}

/* ---- every op x variant x size ----------------------------------- */

static bool needs_raw(unsigned int op, unsigned int variant)
{
	return op == SMAPBENCH_OP_PAIR || op == SMAPBENCH_OP_STAC ||
	       op == SMAPBENCH_OP_CLAC || variant == SMAPBENCH_VARIANT_INLINE ||
	       variant == SMAPBENCH_VARIANT_NOPAD;
}

static int expected_errno(unsigned int op, unsigned int variant)
{
	if (needs_raw(op, variant) && !(info.flags & SMAPBENCH_INFO_SMAP_CPUID))
		return EOPNOTSUPP;
	if (variant == SMAPBENCH_VARIANT_MASKED &&
	    !(info.flags & SMAPBENCH_INFO_MASKED_UACCESS))
		return EOPNOTSUPP;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The budget in TSC ticks, as the module must compute it. */
static uint64_t budget_ticks(void)
{
	return (uint64_t)SMAPBENCH_SAMPLE_BUDGET_NS * info.tsc_khz / 1000000;
}

/* What a successful run must look like; NULL if it does. */
static const char *insane(const struct smapbench_run *r)
{
	uint64_t limit = info.tsc_khz * 1000 * 10; /* 10 s of TSC */
	unsigned int i;

	if (r->iterations_done < 1 || r->iterations_done > r->iterations)
		return "iterations_done out of range";
	if (!!(r->result_flags & SMAPBENCH_RUN_CLAMPED) !=
	    (r->iterations_done < r->iterations))
		return "CLAMPED flag disagrees with iterations_done";
	if (r->result_flags & ~(SMAPBENCH_RUN_CLAMPED | SMAPBENCH_RUN_CYCLES))
		return "unknown result_flags";
	if (r->cpu >= (unsigned int)sysconf(_SC_NPROCESSORS_CONF))
		return "cpu out of range";
	if (r->reserved[0] || r->reserved[1] || r->reserved[2] ||
	    r->reserved[3] || r->reserved[4])
		return "reserved field set on output";
	if (r->timer_overhead_tsc > limit)
		return "timer overhead beyond 10 s";
	if (r->budget_tsc != budget_ticks())
		return "budget_tsc is not SMAPBENCH_SAMPLE_BUDGET_NS at tsc_khz";
	if (!r->iteration_tsc)
		return "iteration_tsc zero";
	if (!r->window_max_tsc ||
	    (r->window_max_tsc > r->budget_tsc && !r->over_budget))
		return "window_max_tsc zero, or over the budget with over_budget 0";
	for (i = 0; i < r->samples; i++) {
		if (!samples[i].tsc || samples[i].tsc > limit)
			return "sample tsc zero or beyond 10 s";
		if (!samples[i].window_tsc ||
		    samples[i].window_tsc > r->budget_tsc ||
		    samples[i].window_tsc < samples[i].tsc)
			return "a sample's window is zero, shorter than the sample or over the budget";
		if (!(r->result_flags & SMAPBENCH_RUN_CYCLES) &&
		    samples[i].cycles)
			return "cycles set without SMAPBENCH_RUN_CYCLES";
		if ((r->result_flags & SMAPBENCH_RUN_CYCLES) &&
		    !samples[i].cycles)
			return "cycles zero with SMAPBENCH_RUN_CYCLES";
	}
	return NULL;
}

/*
 * A refusal must be what the ABI says: one iteration, measured with
 * interrupts on, longer than half the budget, and no window opened (or
 * windows of one iteration that ran over it). NULL if it is.
 */
static const char *bad_refusal(const struct smapbench_run *r)
{
	if (r->budget_tsc != budget_ticks())
		return "budget_tsc not filled in";
	if (r->iterations_done)
		return "iterations_done set";
	if (r->window_max_tsc == 0)
		return r->iteration_tsc > r->budget_tsc / 2 ? NULL :
		       "iteration_tsc within half the budget";
	return r->over_budget && r->window_max_tsc > r->budget_tsc ? NULL :
	       "windows opened but none over the budget";
}

/* Checks what an op left in the buffer, where it is observable. */
static const char *content(const struct smapbench_run *r)
{
	const unsigned char *b = arena;
	uint64_t v;
	unsigned int i;

	switch (r->op) {
	case SMAPBENCH_OP_PUT_USER:
		if (r->size != 8)
			return NULL;
		memcpy(&v, b, 8);
		return v == r->iterations_done - 1 ?
		       NULL : "put_user did not leave the last iteration's value";
	case SMAPBENCH_OP_SIGFRAME: {
		/*
		 * Field k (from 1) holds k, cs 0x33, the padding stays 0:
		 * the frame of every variant, byte for byte.
		 */
		unsigned char want[SMAPBENCH_SIGFRAME_BYTES] = { 0 };
		uint64_t field;
		unsigned int off = 0, k;

		for (k = 1; k <= 24; k++) {
			field = k;
			memcpy(want + off, &field, k == 5 ? 4 : 8);
			off += 8;
		}
		want[192] = 0x33;
		return memcmp(b, want, sizeof(want)) ?
		       "sigframe frame differs from the 25 stores' values" : NULL;
	}
	case SMAPBENCH_OP_STRNCPY_FROM_USER:
		for (i = 0; i + 1 < r->size; i++)
			if (b[i] != 'x')
				return "strncpy source string not written";
		return b[r->size - 1] ? "strncpy string not terminated" : NULL;
	case SMAPBENCH_OP_CLEAR_USER:
		for (i = 0; i < r->size; i++)
			if (b[i])
				return "clear_user left a non-zero byte";
		return NULL;
	default:
		return NULL;
	}
}

static void run_case(unsigned int op, unsigned int variant, unsigned int size,
		     unsigned int batch)
{
	struct smapbench_run r;
	uint64_t tsc[64];
	const char *why;
	char name[96];
	int want, got;
	unsigned int i;

	snprintf(name, sizeof(name), "RUN %s/%s size %u batch %u",
		 kmod_ops[op].name, kmod_variant_name(variant), size, batch);
	request(&r, op, variant, size, batch, 16, 8);
	/* Dirty the buffer so clear_user and the module's writes show. */
	memset(arena, 0xa5, 65536 * 2);
	want = expected_errno(op, variant);
	got = run(&r);
	if (!want && got == E2BIG) {
		why = bad_refusal(&r);
		ok(!why, "%s refused with E2BIG: one iteration %llu ticks, budget %llu%s%s",
		   name, (unsigned long long)r.iteration_tsc,
		   (unsigned long long)r.budget_tsc, why ? ": " : "",
		   why ? why : "");
		return;
	}
	if (want || got) {
		ok(got == want, "%s returns %s (expected %s)", name,
		   errname(got), errname(want));
		return;
	}
	why = insane(&r);
	if (!why)
		why = content(&r);
	ok(!why, "%s returns sane samples%s%s", name, why ? ": " : "",
	   why ? why : "");
	for (i = 0; i < r.samples; i++)
		tsc[i] = samples[i].tsc;
	qsort(tsc, r.samples, sizeof(tsc[0]), cmp_u64);
	printf("#   iterations %u/%u cpu %u median %llu tsc/sample = %.1f tsc/iteration, timer overhead %llu, flags %#x, longest window %llu of %llu\n",
	       r.iterations_done, r.iterations, r.cpu,
	       (unsigned long long)tsc[r.samples / 2],
	       (double)tsc[r.samples / 2] / r.iterations_done,
	       (unsigned long long)r.timer_overhead_tsc, r.result_flags,
	       (unsigned long long)r.window_max_tsc,
	       (unsigned long long)r.budget_tsc);
}

/* A combination the module must refuse with EINVAL, on every machine. */
static void run_refused(unsigned int op, unsigned int variant,
			unsigned int size, unsigned int batch, const char *why)
{
	struct smapbench_run r;
	int got;

	request(&r, op, variant, size, batch, 16, 8);
	got = run(&r);
	ok(got == EINVAL, "RUN %s/%s size %u batch %u, %s, returns EINVAL (got %s)",
	   kmod_ops[op].name, kmod_variant_name(variant), size, batch, why,
	   errname(got));
}

/* Whether value is among the first n of v. */
static bool memchr_u32(const unsigned int *v, unsigned int n, unsigned int value)
{
	while (n--)
		if (*v++ == value)
			return true;
	return false;
}

/*
 * Every op in every variant the catalogue lists, at the sizes of a quick
 * run's sweep; batched and masked with blocks of 4 items. The variants it
 * does not list must be refused.
 */
static void test_matrix(void)
{
	unsigned int op, v, i;

	for (op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];

		for (v = 0; v < SMAPBENCH_VARIANT_COUNT; v++) {
			unsigned int batch = kmod_variant_is_block(v) ? 4 : 0;

			if (!(o->variants & (1U << v))) {
				run_refused(op, v, o->quick_sizes.value[0], batch,
					    "a variant the catalogue does not list");
				continue;
			}
			for (i = 0; i < o->quick_sizes.count; i++)
				run_case(op, v, o->quick_sizes.value[i], batch);
		}
	}
	/* The largest block the ABI allows: 64 x 64 KiB = the whole buffer. */
	run_case(SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_BATCHED, 65536,
		 SMAPBENCH_MAX_BATCH);
	run_case(SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_BATCHED, 8,
		 SMAPBENCH_MAX_BATCH);
}

/* ---- the interrupts-off bound ----------------------------------- */

/*
 * The requests whose single iteration is longest: each either runs with
 * every returned window within the budget, or is refused with E2BIG
 * before any window opened. The ticks are printed: under TCG the big
 * ones are refused, on hardware they run.
 */
static void test_bound(void)
{
	static const struct {
		unsigned int op, variant, size, batch;
	} big[] = {
		{ SMAPBENCH_OP_COPY_FROM_USER, SMAPBENCH_VARIANT_BATCHED, 65536, 64 },
		{ SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_BATCHED, 65536, 64 },
		{ SMAPBENCH_OP_CLEAR_USER, SMAPBENCH_VARIANT_BATCHED, 65536, 64 },
		{ SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_KAPI, 65536, 0 },
		{ SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_NOPAD, 65536, 0 },
		{ SMAPBENCH_OP_COPY_FROM_USER, SMAPBENCH_VARIANT_INLINE, 65536, 0 },
	};
	unsigned int k, i;

	for (k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
		struct smapbench_run r;
		uint64_t longest = 0;
		const char *why;
		char name[96];
		int got, want;

		snprintf(name, sizeof(name), "%s/%s %u x %u",
			 kmod_ops[big[k].op].name,
			 kmod_variant_name(big[k].variant), big[k].size,
			 big[k].batch ? big[k].batch : 1);
		want = expected_errno(big[k].op, big[k].variant);
		request(&r, big[k].op, big[k].variant, big[k].size,
			big[k].batch, 1, 8);
		got = run(&r);
		if (want) {
			ok(got == want, "bound: %s returns %s (expected %s)", name,
			   errname(got), errname(want));
			continue;
		}
		if (got == E2BIG) {
			why = bad_refusal(&r);
			ok(!why, "bound: %s refused with E2BIG before any window: one iteration %llu ticks with interrupts on, budget %llu ticks, windows opened: longest %llu%s%s",
			   name, (unsigned long long)r.iteration_tsc,
			   (unsigned long long)r.budget_tsc,
			   (unsigned long long)r.window_max_tsc,
			   why ? ": " : "", why ? why : "");
			continue;
		}
		why = got ? errname(got) : insane(&r);
		for (i = 0; !got && i < r.samples; i++)
			if (samples[i].window_tsc > longest)
				longest = samples[i].window_tsc;
		ok(!why, "bound: %s runs within the budget: samples' longest window %llu ticks of %llu, %u discarded over it%s%s",
		   name, (unsigned long long)longest,
		   (unsigned long long)r.budget_tsc, r.over_budget,
		   why ? ": " : "", why ? why : "");
	}
}

/* ---- the sample's size and flags ---------------------------------- */

static void test_sample_layout(void)
{
	static struct {
		struct smapbench_sample s;
		uint64_t beyond;
	} wide[4];
	struct smapbench_run r;
	unsigned int i;
	bool good;
	int got;

	/* A caller of 16-byte samples: tsc and cycles only. */
	memset(wide, 0xff, sizeof(wide));
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 4);
	r.sample_size = 16;
	r.sample_flags = 0;
	r.samples_ptr = (uintptr_t)wide;
	got = run(&r);
	good = !got;
	for (i = 0; good && i < 4; i++) {
		uint64_t *u = (uint64_t *)((char *)wide + 16 * i);

		good = u[0] && u[0] != ~0ULL;
	}
	good = good && ((uint64_t *)wide)[8] == ~0ULL;
	ok(good, "RUN with 16-byte samples fills 4 x 16 bytes and nothing beyond (%s)",
	   errname(got));

	/* A caller of bigger samples than the module knows: zeroed tail. */
	memset(wide, 0xff, sizeof(wide));
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 4);
	r.sample_size = sizeof(wide[0]);
	r.samples_ptr = (uintptr_t)wide;
	got = run(&r);
	good = !got;
	for (i = 0; good && i < 4; i++)
		good = wide[i].s.tsc && wide[i].s.window_tsc >= wide[i].s.tsc &&
		       wide[i].s.window_tsc <= r.budget_tsc && !wide[i].beyond;
	ok(good, "RUN with %zu-byte samples and SMAPBENCH_SAMPLE_WINDOW fills the window and zeroes the rest (%s)",
	   sizeof(wide[0]), errname(got));

	/* Without the flag the window field stays zero. */
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	r.sample_flags = 0;
	got = run(&r);
	ok(!got && samples[0].tsc && !samples[0].window_tsc && !samples[1].window_tsc,
	   "RUN without SMAPBENCH_SAMPLE_WINDOW leaves window_tsc zero (%s)",
	   errname(got));
}

/* ---- EFLAGS.AC left set -------------------------------------------- */

#define INJECT_PARAM "/sys/module/smapbench/parameters/inject_ac_leak"

/*
 * The module's own check after every loop: the parameter makes the next
 * window end with AC set. RUN must fail with EIO, and the log line the
 * module writes after clearing AC must show EFLAGS with AC before and
 * without it after, cleared with CLAC where CPUID has SMAP, else POPF.
 */
static void test_ac_recovery(void)
{
	const char *insn = info.flags & SMAPBENCH_INFO_SMAP_CPUID ? "CLAC" : "POPF";
	unsigned long before = 0, after = ~0UL;
	char used[8] = "", line[160] = "";
	struct smapbench_run r;
	char *log, *p, *last = NULL;
	FILE *f;
	int got, len;

	f = fopen(INJECT_PARAM, "w");
	if (!f) {
		skip("RUN with EFLAGS.AC left set fails with EIO and AC is cleared",
		     INJECT_PARAM " not writable");
		return;
	}
	fputs("1\n", f);
	fclose(f);
	request(&r, SMAPBENCH_OP_PUT_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	got = run(&r);
	ok(got == EIO, "RUN with an injected EFLAGS.AC leak returns EIO (got %s)",
	   errname(got));

	f = fopen(INJECT_PARAM, "r");
	if (f && fgets(line, sizeof(line), f))
		line[strcspn(line, "\n")] = '\0';
	ok(f && line[0] && atoi(line) == 0,
	   "the injection was used once (inject_ac_leak now %s)", line);
	if (f)
		fclose(f);

	len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	log = len > 0 ? calloc(1, (size_t)len + 1) : NULL;
	if (log && klogctl(3, log, len) > 0) {	/* SYSLOG_ACTION_READ_ALL */
		for (p = log; (p = strstr(p, "injected EFLAGS.AC leak")); p++)
			last = p;
	}
	if (last)
		sscanf(last, "injected EFLAGS.AC leak: cleared with %7s EFLAGS %lx -> %lx",
		       used, &before, &after);
	if (used[0] && used[strlen(used) - 1] == ',')
		used[strlen(used) - 1] = '\0';
	ok(last && (before & (1UL << 18)) && !(after & (1UL << 18)) &&
	   !strcmp(used, insn),
	   "the module cleared AC with %s: EFLAGS %#lx -> %#lx (expected %s, AC bit 18 set before and clear after)",
	   used[0] ? used : "?", before, after, insn);
	free(log);

	request(&r, SMAPBENCH_OP_PUT_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	got = run(&r);
	ok(!got, "RUN works again after the recovery (%s)", errname(got));
}

/* ---- capabilities -------------------------------------------------- */

/*
 * In a child: drop the given capabilities from the effective set, then
 * INFO and RUN on the already open device. Exit status: bit 0 set when
 * INFO failed with EPERM, bit 1 for RUN, bit 2 when an unknown command
 * did not give ENOTTY, 8 when capset itself failed.
 */
static int without_caps(unsigned long long drop)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	struct smapbench_run r;
	pid_t pid = fork();
	int status, result = 0;

	if (pid < 0)
		return -1;
	if (pid > 0)
		return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ?
		       WEXITSTATUS(status) : -1;

	if (syscall(SYS_capget, &hdr, data))
		_exit(8);
	data[0].effective &= ~(uint32_t)drop;
	data[1].effective &= ~(uint32_t)(drop >> 32);
	if (syscall(SYS_capset, &hdr, data))
		_exit(8);
	if (ioctl(dev, SMAPBENCH_IOC_INFO, &info) && errno == EPERM)
		result |= 1;
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	if (run(&r) == EPERM)
		result |= 2;
	if (ioctl(dev, _IO(SMAPBENCH_IOC_MAGIC, 7), NULL) == 0 || errno != ENOTTY)
		result |= 4;
	_exit(result);
}

static void test_permission(void)
{
	const unsigned long long perfmon = 1ULL << CAP_PERFMON;
	const unsigned long long sys_admin = 1ULL << CAP_SYS_ADMIN;
	int got;

	if (geteuid() != 0) {
		skip("INFO and RUN need CAP_PERFMON or CAP_SYS_ADMIN",
		     "not running as root");
		return;
	}
	got = without_caps(perfmon | sys_admin);
	ok(got == 3, "without CAP_PERFMON and CAP_SYS_ADMIN, INFO and RUN on an open device return EPERM, unknown commands still ENOTTY (child status %d, want 3)",
	   got);
	got = without_caps(sys_admin);
	ok(got == 0, "with CAP_PERFMON alone INFO and RUN work (child status %d)",
	   got);
	got = without_caps(perfmon);
	ok(got == 0, "with CAP_SYS_ADMIN alone INFO and RUN work (child status %d)",
	   got);
}

/*
 * The catalogue's size rule of every op against the module's, at the
 * edges: each size it calls invalid is -EINVAL, each valid one runs (one
 * iteration, one sample, in the op's first variant; EOPNOTSUPP where
 * this machine cannot run that variant).
 */
static void test_catalogue_sizes(void)
{
	unsigned int op, v, i;

	for (op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];
		const unsigned int probes[] = {
			0, 1, 2, 3, 4, 5, 8, 9, 16, o->min_size - 1, o->min_size,
			o->min_size + 1, o->max_size - 1, o->max_size,
			o->max_size + 1, SMAPBENCH_MAX_SIZE + 1,
		};
		unsigned int bad = 0, good = 0, wrong = 0;
		char what[160] = "";

		for (v = 0; !(o->variants & (1U << v)); v++)
			;
		for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			unsigned int size = probes[i];
			int want = kmod_size_accepted(op, size) ?
				   expected_errno(op, v) : EINVAL;
			struct smapbench_run r;
			int got;

			if (memchr_u32(probes, i, size))
				continue;
			request(&r, op, v, size, kmod_variant_is_block(v) ? 1 : 0,
				1, 1);
			got = run(&r);
			want == EINVAL ? bad++ : good++;
			/* Valid, but one iteration too slow here: still accepted. */
			if (!want && got == E2BIG && !bad_refusal(&r))
				got = 0;
			if (got != want) {
				wrong++;
				snprintf(what + strlen(what), sizeof(what) - strlen(what),
					 " size %u: %s not %s;", size, errname(got),
					 errname(want));
			}
		}
		ok(!wrong, "RUN %s/%s at the edges of the catalogue's sizes: %u refused with EINVAL and %u accepted, as it says%s",
		   o->name, kmod_variant_name(v), bad, good, what);
	}
}

/* ---- limits ------------------------------------------------------- */

static void test_limits(void)
{
	struct smapbench_sample *many;
	struct smapbench_run r;
	struct timespec t0, t1;
	double secs;
	int got;

	request(&r, SMAPBENCH_OP_CALIB, SMAPBENCH_VARIANT_NONE, 0, 0,
		SMAPBENCH_MAX_ITERATIONS, 2);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = run(&r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ok(!got && !insane(&r) && (r.result_flags & SMAPBENCH_RUN_CLAMPED) &&
	   r.iterations_done < r.iterations,
	   "RUN calib with %u iterations is clamped to the sample budget (%s, %u done, flags %#x, longest window %llu of %llu ticks, %.2f s)",
	   SMAPBENCH_MAX_ITERATIONS, errname(got), r.iterations_done,
	   r.result_flags, (unsigned long long)r.window_max_tsc,
	   (unsigned long long)r.budget_tsc, secs);
	if (!got)
		printf("# calib clamp: %llu tsc for %u iterations; budget %u ns at %llu kHz\n",
		       (unsigned long long)samples[0].tsc, r.iterations_done,
		       SMAPBENCH_SAMPLE_BUDGET_NS,
		       (unsigned long long)info.tsc_khz);

	many = calloc(SMAPBENCH_MAX_SAMPLES, sizeof(*many));
	if (!many) {
		ok(false, "calloc for %u samples", SMAPBENCH_MAX_SAMPLES);
		return;
	}
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 1,
		SMAPBENCH_MAX_SAMPLES);
	r.samples_ptr = (uintptr_t)many;
	got = run(&r);
	ok(!got && many[SMAPBENCH_MAX_SAMPLES - 1].tsc > 0,
	   "RUN with the maximum of %u samples fills them all (%s)",
	   SMAPBENCH_MAX_SAMPLES, errname(got));
	free(many);

	/* Unaligned accesses are allowed for everything but futex. */
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	r.buffer = (uintptr_t)arena + 1;
	r.buffer_len = 64;
	got = run(&r);
	ok(!got, "RUN get_user/kapi size 8 at an odd address succeeds (%s)",
	   errname(got));
}

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
static void m_reserved4(struct smapbench_run *r) { r->reserved[4] = 0x80000000U; }
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
	{ "reserved[4] non-zero", EINVAL, m_reserved4 },
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

static void test_bad_inputs(void)
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

/* ---- page faults inside the timed loops --------------------------- */

static volatile bool zapping;

/* Drops the buffer's pages over and over: the loops then fault. */
static void *zapper(void *arg)
{
	(void)arg;
	while (zapping)
		madvise(arena, 2 * PAGE, MADV_DONTNEED);
	return NULL;
}

/*
 * While another thread drops the buffer's pages, a run re-faults them
 * between windows; a window that keeps finding them gone ends the run
 * with EAGAIN. Never EFAULT: the buffer is valid all along.
 */
static void test_fault_paths(void)
{
	unsigned int v, k, eagain_total = 0;
	pthread_t t;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("RUN while another thread drops the buffer's pages",
		     "needs 2 CPUs");
		return;
	}
	zapping = true;
	if (pthread_create(&t, NULL, zapper, NULL)) {
		ok(false, "pthread_create for the page zapper");
		return;
	}
	for (v = 0; v < SMAPBENCH_VARIANT_NONE; v++) {
		unsigned int ok_runs = 0, eagain = 0, faults = 0, other = 0;
		unsigned long refaults = 0;
		int want = expected_errno(SMAPBENCH_OP_GET_USER, v);

		if (want) {
			struct smapbench_run r;
			int got;

			request(&r, SMAPBENCH_OP_GET_USER, v, 8,
				v == SMAPBENCH_VARIANT_MASKED ? 2 : 0, 64, 32);
			got = run(&r);
			ok(got == want, "RUN %s while pages are dropped returns %s (got %s)",
			   kmod_variant_name(v), errname(want), errname(got));
			continue;
		}

		for (k = 0; k < 20; k++) {
			struct smapbench_run r;
			int got;

			request(&r, k & 1 ? SMAPBENCH_OP_COPY_FROM_USER :
				SMAPBENCH_OP_GET_USER, v, k & 1 ? 4096 : 8,
				v == SMAPBENCH_VARIANT_BATCHED ||
				v == SMAPBENCH_VARIANT_MASKED ? 2 : 0, 64, 32);
			got = run(&r);
			if (!got || got == EAGAIN)
				refaults += r.refaults;
			if (!got)
				ok_runs++;
			else if (got == EAGAIN)
				eagain++;
			else if (got == EFAULT)
				faults++;
			else
				other++;
		}
		eagain_total += eagain;
		ok(!faults && !other,
		   "RUN %s while pages are dropped: %u ok, %u EAGAIN, %u EFAULT, %u other; %lu re-faults",
		   kmod_variant_name(v), ok_runs, eagain, faults, other,
		   refaults);
	}
	zapping = false;
	pthread_join(t, NULL);
	printf("# EAGAIN from the dropper on the other CPU: %u runs\n",
	       eagain_total);
}

/*
 * A dropper that never misses: the buffer is registered with userfaultfd,
 * so this thread serves every fault the module takes while it faults the
 * buffer in again, from the first page to the last. Serving the first
 * page it drops the last, serving the last it drops the first, which the
 * module wrote a moment before: every window then finds the first page
 * gone, and the run must end with EAGAIN after the 4 re-faults a window
 * allows, never with EFAULT.
 */
#define DROPPED_SPAN	16384

static unsigned char *dropped;
static int uffd = -1;

static void *refault_dropper(void *arg)
{
	static unsigned char zeroes[PAGE] __attribute__((aligned(4096)));
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	(void)arg;
	while (zapping) {
		struct uffdio_copy copy = { .len = PAGE, .src = (uintptr_t)zeroes,
					    .mode = UFFDIO_COPY_MODE_DONTWAKE };
		struct uffdio_range wake = { .len = PAGE };
		unsigned char *page;

		if (poll(&pfd, 1, 100) <= 0 ||
		    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		page = (unsigned char *)(uintptr_t)
		       (msg.arg.pagefault.address & ~(PAGE - 1));
		copy.dst = (uintptr_t)page;
		ioctl(uffd, UFFDIO_COPY, &copy);
		madvise(page == dropped ? dropped + DROPPED_SPAN - PAGE : dropped,
			PAGE, MADV_DONTNEED);
		wake.start = (uintptr_t)page;
		ioctl(uffd, UFFDIO_WAKE, &wake);
	}
	return NULL;
}

static void test_eagain(void)
{
	unsigned int k, eagain = 0, efault = 0, other = 0, done = 0;
	const char *what = "RUN ends with EAGAIN while a thread keeps dropping the page it just faulted in";
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	unsigned long refaults = 0;
	pthread_t t;
	int got = 0;

	dropped = mmap(NULL, DROPPED_SPAN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (dropped == MAP_FAILED || uffd < 0 || ioctl(uffd, UFFDIO_API, &api)) {
		skip(what, "no userfaultfd here");
		goto out;
	}
	reg.range.start = (uintptr_t)dropped;
	reg.range.len = DROPPED_SPAN;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		skip(what, "cannot register the buffer with userfaultfd");
		goto out;
	}
	zapping = true;
	if (pthread_create(&t, NULL, refault_dropper, NULL)) {
		zapping = false;
		ok(false, "pthread_create for the re-fault dropper");
		goto out;
	}
	for (k = 0; k < 5 && !eagain; k++) {
		struct smapbench_run r;

		request(&r, SMAPBENCH_OP_COPY_FROM_USER, SMAPBENCH_VARIANT_KAPI,
			DROPPED_SPAN, 0, 16, 16);
		r.buffer = (uintptr_t)dropped;
		r.buffer_len = DROPPED_SPAN;
		got = run(&r);
		if (!got || got == EAGAIN)
			refaults += r.refaults;
		if (got == EAGAIN)
			eagain++;
		else if (got == EFAULT)
			efault++;
		else if (!got)
			done++;
		else
			other++;
	}
	zapping = false;
	pthread_join(t, NULL);
	ok(eagain && !efault && !other,
	   "%s: %u EAGAIN after %u ok, %u EFAULT, %u other (last %s); %lu re-faults",
	   what, eagain, done, efault, other, errname(got), refaults);
out:
	if (uffd >= 0)
		close(uffd);
	if (dropped != MAP_FAILED)
		munmap(dropped, DROPPED_SPAN);
}

/* ---- two CPUs at once --------------------------------------------- */

struct worker {
	int cpu;
	int failures;
	int wrong_cpu;
	char why[96];
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct smapbench_sample s[4];
	unsigned char *buf = malloc(65536);
	cpu_set_t set;
	int k;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (!buf || pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		w->failures = 1;
		snprintf(w->why, sizeof(w->why), "setup failed");
		free(buf);
		return NULL;
	}
	for (k = 0; k < 40; k++) {
		static const unsigned int ops[] = {
			SMAPBENCH_OP_GET_USER, SMAPBENCH_OP_COPY_TO_USER,
			SMAPBENCH_OP_FUTEX, SMAPBENCH_OP_SIGFRAME,
		};
		struct smapbench_run r;
		unsigned int op = ops[k % 4];
		int got;

		memset(&r, 0, sizeof(r));
		r.op = op;
		r.variant = k & 4 ? SMAPBENCH_VARIANT_BATCHED : SMAPBENCH_VARIANT_KAPI;
		r.batch = r.variant == SMAPBENCH_VARIANT_BATCHED ? 4 : 0;
		r.size = op == SMAPBENCH_OP_GET_USER ? 8 :
			 op == SMAPBENCH_OP_COPY_TO_USER ? 1024 :
			 op == SMAPBENCH_OP_FUTEX ? 4 : 0;
		r.iterations = 32;
		r.samples = 4;
		r.buffer = (uintptr_t)buf;
		r.buffer_len = 65536;
		r.samples_ptr = (uintptr_t)s;
		r.sample_size = sizeof(s[0]);
		got = ioctl(dev, SMAPBENCH_IOC_RUN, &r) ? errno : 0;
		if (got) {
			w->failures++;
			snprintf(w->why, sizeof(w->why), "%s/%s: %s",
				 kmod_ops[op].name, kmod_variant_name(r.variant),
				 errname(got));
		} else if ((int)r.cpu != w->cpu) {
			w->wrong_cpu++;
		}
	}
	free(buf);
	return NULL;
}

static void test_concurrent(void)
{
	struct worker w[2] = { { .cpu = 0 }, { .cpu = 1 } };
	pthread_t t[2];
	int i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("two RUNs at once on two CPUs", "needs 2 CPUs");
		return;
	}
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker_main, &w[i])) {
			ok(false, "pthread_create for the concurrent test");
			return;
		}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++)
		ok(!w[i].failures && !w[i].wrong_cpu,
		   "concurrent RUNs pinned to CPU %d: %d failures%s%s, %d on another CPU",
		   w[i].cpu, w[i].failures, w[i].failures ? " last " : "",
		   w[i].why, w[i].wrong_cpu);
}

/* ---- fuzz --------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint64_t pick_pointer(void)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return KERNEL_ADDR;
	case 2: return (uintptr_t)unmapped;
	case 3: return (uintptr_t)guarded_end - (rnd() % 256);
	case 4: return rnd();
	default: return (uintptr_t)arena + (rnd() % 8192);
	}
}

static void test_fuzz(unsigned int count, unsigned int seconds)
{
	unsigned int n, good = 0, counts[4] = { 0 };
	struct timespec start, now;

	rng_state = (uint64_t)time(NULL) * 2654435761ULL | 1;
	printf("# fuzz seed %llu\n", (unsigned long long)rng_state);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (n = 0; n < count; n++) {
		/* INFO writes more than a RUN struct holds: give it room. */
		union {
			struct smapbench_run run;
			struct smapbench_info info;
			unsigned char raw[512];
		} arg;
		struct smapbench_run r;
		unsigned long cmd;
		int got;

		memset(&arg, 0, sizeof(arg));
		memset(&r, 0, sizeof(r));
		r.op = rnd() % 16 < 14 ? rnd() % SMAPBENCH_OP_COUNT : (uint32_t)rnd();
		r.variant = rnd() % 8 ? rnd() % SMAPBENCH_VARIANT_COUNT : (uint32_t)rnd();
		r.size = rnd() % 4 ? 1U << (rnd() % 13) : (uint32_t)rnd() % 70000;
		r.batch = rnd() % 2 ? rnd() % 70 : 0;
		r.iterations = rnd() % 8 ? 1 + rnd() % 64 : (uint32_t)rnd();
		r.samples = rnd() % 8 ? 1 + rnd() % 4 : (uint32_t)rnd() % 70000;
		r.buffer = pick_pointer();
		r.buffer_len = rnd() % 4 ? 1 + rnd() % 65536 : rnd();
		r.samples_ptr = rnd() % 4 ? (uintptr_t)samples : pick_pointer();
		r.sample_size = rnd() % 8 ? sizeof(struct smapbench_sample) :
				(uint32_t)rnd() % 300;
		r.sample_flags = rnd() % 2 ? SMAPBENCH_SAMPLE_WINDOW :
				 rnd() % 4 ? 0 : (uint32_t)rnd();
		if (r.samples_ptr == (uintptr_t)samples && r.sample_size &&
		    (uint64_t)r.samples * r.sample_size > sizeof(samples))
			r.samples = sizeof(samples) / r.sample_size ?
				    sizeof(samples) / r.sample_size : 1;
		if (rnd() % 16 == 0)
			r.reserved[rnd() % 5] = (uint32_t)rnd();

		switch (rnd() % 8) {
		case 0:
			cmd = _IOC(rnd() % 4, SMAPBENCH_IOC_MAGIC, rnd() % 4,
				   rnd() % 512);
			break;
		case 1:
			cmd = SMAPBENCH_IOC_INFO;
			break;
		default:
			cmd = SMAPBENCH_IOC_RUN;
			break;
		}
		arg.run = r;
		got = ioctl(dev, cmd, &arg) ? errno : 0;
		if (!got)
			good++;
		else if (got == EINVAL)
			counts[0]++;
		else if (got == EFAULT)
			counts[1]++;
		else if (got == ENOTTY)
			counts[2]++;
		else
			counts[3]++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= (time_t)seconds)
			break;
	}
	ok(true, "fuzz: %u ioctls survived (%u ok, %u EINVAL, %u EFAULT, %u ENOTTY, %u other)",
	   n == count ? n : n + 1, good, counts[0], counts[1], counts[2],
	   counts[3]);
	/* The device must still work after all that. */
	{
		struct smapbench_run r;
		int got;

		request(&r, SMAPBENCH_OP_PUT_USER, SMAPBENCH_VARIANT_KAPI, 8, 0,
			8, 2);
		got = run(&r);
		ok(!got, "RUN still works after the fuzz (%s)", errname(got));
	}
}

/* ---- rmmod while open ---------------------------------------------- */

static void test_rmmod_busy(void)
{
	int got = syscall(SYS_delete_module, "smapbench", O_NONBLOCK) ?
		  errno : 0;

	if (got == EPERM || got == ENOENT) {
		skip("rmmod while /dev/smapbench is open is refused",
		     got == EPERM ? "not permitted here" : "module not loaded by name");
		return;
	}
	ok(got == EAGAIN || got == EBUSY,
	   "rmmod while /dev/smapbench is open is refused (got %s)",
	   errname(got));
}

static void usage(void)
{
	fprintf(stderr,
		"usage: kmod_selftest --expect-smap on|clearcpuid|nosmap-ignored|cpu-off|any\n"
		"                     [--device PATH] [--fuzz N] [--fuzz-seconds S]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *device = SMAPBENCH_DEVICE;
	unsigned int fuzz = 3000, fuzz_seconds = 30;
	int i;

	expect_mode = getenv("EXPECT_SMAP");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--expect-smap") && i + 1 < argc)
			expect_mode = argv[++i];
		else if (!strcmp(argv[i], "--device") && i + 1 < argc)
			device = argv[++i];
		else if (!strcmp(argv[i], "--fuzz") && i + 1 < argc)
			fuzz = (unsigned int)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--fuzz-seconds") && i + 1 < argc)
			fuzz_seconds = (unsigned int)strtoul(argv[++i], NULL, 0);
		else
			usage();
	}
	if (!expect_mode || (strcmp(expect_mode, "on") &&
			     strcmp(expect_mode, "clearcpuid") &&
			     strcmp(expect_mode, "nosmap-ignored") &&
			     strcmp(expect_mode, "cpu-off") &&
			     strcmp(expect_mode, "any")))
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# kmod_selftest: expect-smap %s, device %s\n", expect_mode,
	       device);

	dev = open(device, O_RDWR | O_CLOEXEC);
	ok(dev >= 0, "open %s%s%s", device, dev >= 0 ? "" : ": ",
	   dev >= 0 ? "" : strerror(errno));
	if (dev < 0)
		return 1;
	arena = arena_new();

	test_info();
	if (!info_ok)
		return 1;
	test_permission();
	test_matrix();
	test_bound();
	test_catalogue_sizes();
	test_limits();
	test_sample_layout();
	test_bad_inputs();
	test_ac_recovery();
	test_fault_paths();
	test_eagain();
	test_concurrent();
	test_fuzz(fuzz, fuzz_seconds);
	test_rmmod_busy();

	close(dev);
	printf("# %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
