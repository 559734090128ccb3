// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_selftest - checks /dev/smapbench from inside a (virtual) machine.
 *
 *   kmod_selftest --expect-smap on|clearcpuid|nosmap-ignored|cpu-off|any
 *                 [--device PATH] [--fuzz-calls N] [--fuzz-seconds S]
 *                 [--fuzz-seed N]
 *   kmod_selftest fuzz [--device PATH] [--calls N] [--seconds S]
 *                 [--seed N] [--jobs 1..16]
 *
 * --expect-smap says what this boot is (the environment variable
 * EXPECT_SMAP works too):
 *   on              SMAP in CPUID, kernel feature and CR4 (-cpu max)
 *   nosmap-ignored  booted with "nosmap", which 6.1+ ignores: same as on
 *   clearcpuid      clearcpuid=smap: CPUID yes, feature and CR4 no
 *   cpu-off         a CPU model without SMAP: none of the three
 *   any             no expectation on the SMAP fields
 * The checks end with a short fuzz in this process (--fuzz-calls 0 leaves
 * it out). "fuzz" runs only the fuzzer, in --jobs concurrent processes
 * (default 2), so that a boot can read the kernel log after it alone.
 *
 * Prints flat TAP lines ("ok - ...", "not ok - ...: why"), comments with
 * '#', and exits 0 iff every check passed, 2 on bad arguments. Timings are
 * printed for information only and never asserted: under TCG they are not
 * timings.
 */
#include "tests/kmod/selftest/selftest.h"

int dev = -1;
static unsigned int passed, failed;
struct smapbench_info info;
bool info_ok;
const char *expect_mode;
unsigned char *arena;
struct smapbench_sample samples[64];

/* One TAP line; @fmt describes the check, and on failure also why. */
void ok(bool cond, const char *fmt, ...)
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

void skip(const char *what, const char *why)
{
	printf("ok - %s # SKIP %s\n", what, why);
	fflush(stdout);
}

const char *errname(int e)
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
int run(struct smapbench_run *r)
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

void request(struct smapbench_run *r, unsigned int op, unsigned int variant,
	     unsigned int size, unsigned int batch, unsigned int iterations,
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
bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: kmod_selftest --expect-smap on|clearcpuid|nosmap-ignored|cpu-off|any\n"
		"                     [--device PATH] [--fuzz-calls N] [--fuzz-seconds S]\n"
		"                     [--fuzz-seed N]\n"
		"       kmod_selftest fuzz [--device PATH] [--calls N] [--seconds S]\n"
		"                     [--seed N] [--jobs 1..16]\n");
	exit(2);
}

/* A whole decimal or 0x number within [min, max], or usage(). */
static unsigned long number(const char *option, const char *text,
			    unsigned long min, unsigned long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno || end == text || *end || text[0] == '-' || v < min ||
	    v > max) {
		fprintf(stderr, "kmod_selftest: %s: '%s' is not a number in %lu..%lu\n",
			option, text, min, max);
		exit(2);
	}
	return (unsigned long)v;
}

static bool known_mode(const char *mode)
{
	static const char *const modes[] = {
		"on", "clearcpuid", "nosmap-ignored", "cpu-off", "any",
	};
	size_t i;

	for (i = 0; mode && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(mode, modes[i]))
			return true;
	return false;
}

static int open_device(const char *device)
{
	dev = open(device, O_RDWR | O_CLOEXEC);
	ok(dev >= 0, "open %s%s%s", device, dev >= 0 ? "" : ": ",
	   dev >= 0 ? "" : strerror(errno));
	return dev;
}

static int finish(void)
{
	close(dev);
	printf("# %u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

/* The fuzzer alone: the first check is that the device speaks our ABI. */
static int fuzz_only(const char *device, const struct fuzz_plan *plan)
{
	if (open_device(device) < 0)
		return 1;
	memset(&info, 0, sizeof(info));
	if (ioctl(dev, SMAPBENCH_IOC_INFO, &info)) {
		ok(false, "INFO: %s%s", errname(errno),
		   errno == EPERM ? " (needs CAP_PERFMON or CAP_SYS_ADMIN)" : "");
		return finish();
	}
	ok(info.abi_version == SMAPBENCH_ABI_VERSION,
	   "%s speaks ABI version %u (kmod_selftest: %u)", device,
	   info.abi_version, SMAPBENCH_ABI_VERSION);
	if (info.abi_version == SMAPBENCH_ABI_VERSION) {
		arena = arena_new();
		test_fuzz(plan);
	}
	return finish();
}

int main(int argc, char **argv)
{
	const char *device = SMAPBENCH_DEVICE;
	struct fuzz_plan plan = {
		.calls = 3000, .seconds = 30, .seed = 0, .jobs = 1,
	};
	bool fuzz_mode = argc > 1 && !strcmp(argv[1], "fuzz");
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (fuzz_mode) {
		plan.seconds = 20;
		plan.jobs = 2;
	}
	expect_mode = getenv("EXPECT_SMAP");
	for (i = fuzz_mode ? 2 : 1; i < argc; i++) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (!arg)
			usage();
		if (!strcmp(opt, "--device"))
			device = arg;
		else if (!fuzz_mode && !strcmp(opt, "--expect-smap"))
			expect_mode = arg;
		else if (!strcmp(opt, fuzz_mode ? "--calls" : "--fuzz-calls"))
			plan.calls = number(opt, arg, 0, 100000000);
		else if (!strcmp(opt, fuzz_mode ? "--seconds" : "--fuzz-seconds"))
			plan.seconds = (double)number(opt, arg, 1, 86400);
		else if (!strcmp(opt, fuzz_mode ? "--seed" : "--fuzz-seed"))
			plan.seed = number(opt, arg, 1, ULONG_MAX);
		else if (fuzz_mode && !strcmp(opt, "--jobs"))
			plan.jobs = (unsigned int)number(opt, arg, 1, 16);
		else
			usage();
		i++;
	}
	/* Unseeded: a new sequence every run, printed so it can be replayed. */
	if (!plan.seed)
		plan.seed = (unsigned long)time(NULL) * 2654435761UL | 1;
	if (fuzz_mode)
		return fuzz_only(device, &plan);
	if (!known_mode(expect_mode))
		usage();
	printf("# kmod_selftest: expect-smap %s, device %s\n", expect_mode,
	       device);

	if (open_device(device) < 0)
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
	test_contention();
	test_fuzz(&plan);
	test_rmmod_busy();
	return finish();
}
