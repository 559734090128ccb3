// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz.c - random ioctls against /dev/smapbench.
 *
 * Each of plan->jobs processes (concurrent callers) makes up to
 * plan->calls ioctls within plan->seconds: valid and invalid ioctl
 * numbers, INFO into good and bad pointers, and RUN structs whose fields
 * are drawn from edge values (0, 1, the limits, limit + 1, garbage) with
 * buffers that are valid, NULL, kernel addresses, unmapped, or end at a
 * guard page. Sizes are kept small enough that one call takes
 * milliseconds even under TCG.
 *
 * The module must answer every call with 0 or an errno, unknown numbers
 * with ENOTTY, and still work afterwards. The verdict on the kernel side
 * (no oops, no warning) comes from the guest's kernel log, read by
 * vm/run-vm.sh.
 */
#include "tests/kmod/selftest/selftest.h"

#define FUZZ_ARENA	(1024 * 1024)
#define FUZZ_ERRNOS	160	/* per errno value; the last is "other" */

struct fuzz_result {
	unsigned long calls;
	unsigned long succeeded;
	unsigned long errnos[FUZZ_ERRNOS];
	unsigned long unknown_not_enotty;
};

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: reproducible from the seed, no libc state. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static uint64_t pick(const uint64_t *values, size_t count)
{
	/* One time in eight a random value, else an edge value. */
	if (rng() % 8 == 0)
		return rng() >> (rng() % 64);
	return values[rng() % count];
}

#define PICK(array) pick(array, sizeof(array) / sizeof(array[0]))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A user address of one of the kinds a buggy or hostile caller passes. */
static uint64_t pick_pointer(char *buf, char *guard_end)
{
	switch (rng() % 8) {
	case 0:
		return 0;
	case 1:
		return rng() % 2 ? 0xffff888000000000ULL : KERNEL_ADDR;
	case 2:
		return (uint64_t)(uintptr_t)guard_end;	/* PROT_NONE page */
	case 3:
		return (uint64_t)(uintptr_t)(guard_end - 1 - rng() % 256);
	case 4:
		return 0x0000700000000000ULL + (rng() % 4096) * PAGE;
	default:
		return (uint64_t)(uintptr_t)(buf + rng() % (FUZZ_ARENA - PAGE));
	}
}

static void fuzz_run(char *buf, char *guard_end)
{
	static const uint64_t bad_ops[] = { SMAPBENCH_OP_COUNT, 255,
		0xffffffff };
	static const uint64_t bad_variants[] = { SMAPBENCH_VARIANT_COUNT,
		0xffffffff };
	static const uint64_t sizes[] = { 0, 1, 2, 3, 4, 8, 16, 64, 4095,
		4096, SMAPBENCH_MAX_SIZE, SMAPBENCH_MAX_SIZE + 1, 0xffffffff };
	static const uint64_t batches[] = { 0, 1, 2, 8, SMAPBENCH_MAX_BATCH,
		SMAPBENCH_MAX_BATCH + 1, 0xffffffff };
	static const uint64_t iterations[] = { 0, 1, 2, 16, 100,
		SMAPBENCH_MAX_ITERATIONS + 1ULL, 0xffffffff };
	static const uint64_t nsamples[] = { 0, 1, 2, 3,
		SMAPBENCH_MAX_SAMPLES + 1ULL, 0xffffffff };
	static const uint64_t lengths[] = { 0, 1, 4096, 65536, FUZZ_ARENA,
		SMAPBENCH_MAX_BUFFER + 1ULL, ~0ULL };
	static const uint64_t sample_sizes[] = { 0, 8, 16, 20, 24, 32,
		SMAPBENCH_MAX_SAMPLE_SIZE, SMAPBENCH_MAX_SAMPLE_SIZE + 8,
		0xffffffff };
	static const uint64_t sample_flags[] = { 0, SMAPBENCH_SAMPLE_WINDOW,
		2, 0x80000000, 0xffffffff };
	struct smapbench_run r;

	memset(&r, 0, sizeof(r));
	/* Mostly real ops and variants, so that the checks past them run. */
	r.op = rng() % 4 ? rng() % SMAPBENCH_OP_COUNT : PICK(bad_ops);
	r.variant = rng() % 4 ? rng() % SMAPBENCH_VARIANT_COUNT :
		    PICK(bad_variants);
	r.size = PICK(sizes);
	r.batch = PICK(batches);
	r.iterations = PICK(iterations);
	r.samples = PICK(nsamples);
	/*
	 * Keep valid requests cheap: a large count that the module would
	 * accept costs up to 1 ms per sample (seconds under TCG).
	 */
	if (r.samples > 4 && r.samples <= SMAPBENCH_MAX_SAMPLES)
		r.samples = 4;
	if (r.iterations > 1000 && r.iterations <= SMAPBENCH_MAX_ITERATIONS)
		r.iterations = 1000;
	r.buffer = pick_pointer(buf, guard_end);
	r.buffer_len = PICK(lengths);
	r.samples_ptr = pick_pointer(buf, guard_end);
	r.sample_size = PICK(sample_sizes);
	r.sample_flags = PICK(sample_flags);
	if (rng() % 16 == 0)
		r.reserved[rng() % 5] = rng();
	if (rng() % 16 == 0)
		r.iterations_done = rng();	/* an (out) field on input */
	ioctl(dev, SMAPBENCH_IOC_RUN, &r);
}

/* One caller: its own buffer, ending at a guard page. */
static void fuzz_loop(const struct fuzz_plan *plan, struct fuzz_result *res)
{
	double deadline = now() + plan->seconds;
	char *buf, *guard_end;
	unsigned long i;

	buf = mmap(NULL, FUZZ_ARENA + PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("kmod_selftest: fuzz: mmap");
		_exit(2);
	}
	guard_end = buf + FUZZ_ARENA;
	if (mprotect(guard_end, PAGE, PROT_NONE)) {
		perror("kmod_selftest: fuzz: mprotect");
		_exit(2);
	}
	memset(buf, 0x5a, FUZZ_ARENA);

	for (i = 0; i < plan->calls && now() < deadline; i++) {
		unsigned int kind = rng() % 8;
		unsigned long cmd;
		long ret;

		errno = 0;
		if (kind < 5) {
			fuzz_run(buf, guard_end);
			ret = errno ? -1 : 0;
		} else if (kind == 5) {
			struct smapbench_info got;

			ret = ioctl(dev, SMAPBENCH_IOC_INFO,
				    rng() % 4 ? (void *)&got :
				    (void *)(uintptr_t)pick_pointer(buf, guard_end));
		} else {
			/* Our magic with a wrong number, or anything. */
			cmd = kind == 6 ?
				_IOC(rng() % 4, SMAPBENCH_IOC_MAGIC,
				     2 + rng() % 254, rng() % 512) :
				(unsigned long)(uint32_t)rng();
			if (cmd == SMAPBENCH_IOC_INFO || cmd == SMAPBENCH_IOC_RUN)
				continue;
			ret = ioctl(dev, cmd,
				    (void *)(uintptr_t)pick_pointer(buf, guard_end));
			if (ret == 0 || errno != ENOTTY)
				res->unknown_not_enotty++;
		}
		res->calls++;
		if (ret == 0)
			res->succeeded++;
		else
			res->errnos[errno > 0 && errno < FUZZ_ERRNOS - 1 ?
				    errno : FUZZ_ERRNOS - 1]++;
	}
}

/* Runs the callers in child processes; false if one died. */
static bool fuzz_processes(const struct fuzz_plan *plan,
			   struct fuzz_result *total)
{
	struct fuzz_result *results;
	bool all_exited = true;
	unsigned int j;
	int e;

	results = mmap(NULL, plan->jobs * sizeof(*results),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (results == MAP_FAILED) {
		perror("kmod_selftest: fuzz: mmap");
		exit(1);
	}
	memset(results, 0, plan->jobs * sizeof(*results));
	for (j = 0; j < plan->jobs; j++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("kmod_selftest: fuzz: fork");
			exit(1);
		}
		if (pid == 0) {
			rng_state = (plan->seed + j) * 0x9e3779b97f4a7c15ULL | 1;
			fuzz_loop(plan, &results[j]);
			_exit(0);
		}
	}
	for (j = 0; j < plan->jobs; j++) {
		int status = 0;

		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			printf("# a fuzzing process ended with status 0x%x\n",
			       status);
			all_exited = false;
		}
	}
	memset(total, 0, sizeof(*total));
	for (j = 0; j < plan->jobs; j++) {
		total->calls += results[j].calls;
		total->succeeded += results[j].succeeded;
		total->unknown_not_enotty += results[j].unknown_not_enotty;
		for (e = 0; e < FUZZ_ERRNOS; e++)
			total->errnos[e] += results[j].errnos[e];
	}
	munmap(results, plan->jobs * sizeof(*results));
	return all_exited;
}

void test_fuzz(const struct fuzz_plan *plan)
{
	struct fuzz_result total;
	struct smapbench_info after;
	struct smapbench_run r;
	bool exited;
	int e, got;

	if (!plan->calls) {
		skip("random ioctls", "--fuzz-calls 0");
		return;
	}
	printf("# fuzz: seed %lu, %u processes, up to %lu calls each in %.0f s\n",
	       plan->seed, plan->jobs, plan->calls, plan->seconds);
	exited = fuzz_processes(plan, &total);
	printf("# fuzz: %lu calls, %lu returned 0\n", total.calls,
	       total.succeeded);
	for (e = 1; e < FUZZ_ERRNOS; e++)
		if (total.errnos[e])
			printf("#   %lu x %s\n", total.errnos[e],
			       e < FUZZ_ERRNOS - 1 ? errname(e) : "other errno");

	ok(exited && total.calls,
	   "%lu random ioctls answered without crashing the caller",
	   total.calls);
	ok(!total.unknown_not_enotty,
	   "unknown ioctl numbers give ENOTTY (%lu did not)",
	   total.unknown_not_enotty);

	/* The device must still work after all that. */
	memset(&after, 0, sizeof(after));
	got = ioctl(dev, SMAPBENCH_IOC_INFO, &after) ? errno : 0;
	ok(!got && after.abi_version == SMAPBENCH_ABI_VERSION,
	   "INFO still answers after the fuzz (%s, ABI %u)", errname(got),
	   after.abi_version);
	request(&r, SMAPBENCH_OP_PUT_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 8, 2);
	got = run(&r);
	ok(!got, "RUN still works after the fuzz (%s)", errname(got));
}
