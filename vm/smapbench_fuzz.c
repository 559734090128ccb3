// SPDX-License-Identifier: GPL-2.0
/*
 * smapbench_fuzz - random ioctls against /dev/smapbench, for QEMU guests.
 *
 *   smapbench_fuzz [--calls N] [--seconds S] [--seed N] [--jobs N]
 *
 * Each of --jobs processes (default 2: concurrent callers) makes up to
 * --calls ioctls within --seconds: valid and invalid ioctl numbers, and
 * SMAPBENCH_IOC_RUN structs whose fields are drawn from edge values (0,
 * 1, the limits, limit + 1, garbage) with buffers that are valid, NULL,
 * kernel addresses, unmapped, or end at a guard page. Sizes are kept
 * small enough that one call takes milliseconds even under TCG.
 *
 * The module must answer every call with 0 or an errno; the verdict on
 * the kernel side (no oops, no warning) comes from the guest's kernel log,
 * read by vm/run-vm.sh. Output is TAP-style "ok - ..." lines; exit status
 * 0 iff all are ok.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kmod/uapi/smapbench.h"

#define ARENA_SIZE	(1024 * 1024)
#define PAGE		4096

struct fuzz_result {
	unsigned long calls;
	unsigned long succeeded;
	unsigned long errnos[160];	/* per errno value, 159 = other */
	unsigned long unknown_not_enotty;
};

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: reproducible from --seed, no libc state. */
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
static uint64_t pick_pointer(char *arena, char *guard_end)
{
	switch (rng() % 8) {
	case 0:
		return 0;
	case 1:
		return 0xffff888000000000ULL;	/* kernel direct map */
	case 2:
		return (uint64_t)(guard_end);	/* PROT_NONE page */
	case 3:
		return (uint64_t)(guard_end - 1 - rng() % 64); /* straddles */
	case 4:
		return 0x0000700000000000ULL + (rng() % 4096) * PAGE;
	default:
		return (uint64_t)(arena + rng() % (ARENA_SIZE - PAGE));
	}
}

static void fuzz_run(int fd, char *arena, char *guard_end)
{
	static const uint64_t ops[] = { 0, 1, 5, 6, 7, 8, 9, 10, 11, 12,
		SMAPBENCH_OP_COUNT, 255, 0xffffffff };
	static const uint64_t variants[] = { 0, 1, 2, 3, 4, 5,
		SMAPBENCH_VARIANT_COUNT, 0xffffffff };
	static const uint64_t sizes[] = { 0, 1, 2, 3, 4, 8, 16, 64, 4095,
		4096, SMAPBENCH_MAX_SIZE, SMAPBENCH_MAX_SIZE + 1, 0xffffffff };
	static const uint64_t batches[] = { 0, 1, 2, 8, SMAPBENCH_MAX_BATCH,
		SMAPBENCH_MAX_BATCH + 1, 0xffffffff };
	static const uint64_t iterations[] = { 0, 1, 2, 16, 100,
		SMAPBENCH_MAX_ITERATIONS + 1ULL, 0xffffffff };
	static const uint64_t samples[] = { 0, 1, 2, 3,
		SMAPBENCH_MAX_SAMPLES + 1ULL, 0xffffffff };
	static const uint64_t lengths[] = { 0, 1, 4096, 65536, ARENA_SIZE,
		SMAPBENCH_MAX_BUFFER + 1ULL, ~0ULL };
	static const uint64_t sample_sizes[] = { 0, 8, 16, 20, 24, 32,
		SMAPBENCH_MAX_SAMPLE_SIZE, SMAPBENCH_MAX_SAMPLE_SIZE + 8,
		0xffffffff };
	static const uint64_t sample_flags[] = { 0, SMAPBENCH_SAMPLE_WINDOW,
		2, 0x80000000, 0xffffffff };
	struct smapbench_run run;

	memset(&run, 0, sizeof(run));
	run.op = PICK(ops);
	run.variant = PICK(variants);
	run.size = PICK(sizes);
	run.batch = PICK(batches);
	run.iterations = PICK(iterations);
	run.samples = PICK(samples);
	/*
	 * Keep valid requests cheap: a large count that the module would
	 * accept costs up to 1 ms per sample (seconds under TCG).
	 */
	if (run.samples > 4 && run.samples <= SMAPBENCH_MAX_SAMPLES)
		run.samples = 4;
	if (run.iterations > 1000 &&
	    run.iterations <= SMAPBENCH_MAX_ITERATIONS)
		run.iterations = 1000;
	run.buffer = pick_pointer(arena, guard_end);
	run.buffer_len = PICK(lengths);
	run.samples_ptr = pick_pointer(arena, guard_end);
	run.sample_size = PICK(sample_sizes);
	run.sample_flags = PICK(sample_flags);
	if (rng() % 16 == 0)
		run.reserved[rng() % 5] = rng();
	if (rng() % 16 == 0)
		run.iterations_done = rng();	/* an (out) field on input */
	ioctl(fd, SMAPBENCH_IOC_RUN, &run);
}

static void fuzz_loop(int fd, unsigned long calls, double seconds,
		      struct fuzz_result *result)
{
	char *arena, *guard_end;
	double deadline = now() + seconds;
	unsigned long i;

	arena = mmap(NULL, ARENA_SIZE + PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED) {
		perror("smapbench_fuzz: mmap");
		exit(2);
	}
	guard_end = arena + ARENA_SIZE;
	mprotect(guard_end, PAGE, PROT_NONE);
	memset(arena, 0x5a, ARENA_SIZE);

	for (i = 0; i < calls && now() < deadline; i++) {
		unsigned int kind = rng() % 8;
		unsigned long cmd;
		long ret;

		errno = 0;
		if (kind < 5) {
			fuzz_run(fd, arena, guard_end);
			ret = errno ? -1 : 0;
		} else if (kind == 5) {
			struct smapbench_info info;

			ret = ioctl(fd, SMAPBENCH_IOC_INFO,
				    rng() % 4 ? (void *)&info :
				    (void *)pick_pointer(arena, guard_end));
		} else {
			/* Our magic with a wrong number, or anything. */
			cmd = kind == 6 ?
				_IOC(rng() % 4, SMAPBENCH_IOC_MAGIC,
				     2 + rng() % 254, rng() % 512) :
				(unsigned long)(uint32_t)rng();
			if (cmd == SMAPBENCH_IOC_INFO ||
			    cmd == SMAPBENCH_IOC_RUN)
				continue;
			ret = ioctl(fd, cmd, (void *)pick_pointer(arena,
								   guard_end));
			if (ret == 0 || errno != ENOTTY)
				result->unknown_not_enotty++;
		}
		result->calls++;
		if (ret == 0)
			result->succeeded++;
		else
			result->errnos[errno > 0 && errno < 159 ? errno : 159]++;
	}
}

int main(int argc, char **argv)
{
	unsigned long calls = 3000, jobs = 2, seed = 1, j;
	double seconds = 20;
	struct fuzz_result *results, total;
	struct smapbench_info info;
	int fd, i, failed = 0;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--calls"))
			calls = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--jobs"))
			jobs = strtoul(argv[i + 1], NULL, 0);
		else
			break;
	}
	if (i != argc || jobs < 1 || jobs > 16) {
		fprintf(stderr, "usage: %s [--calls N] [--seconds S] "
			"[--seed N] [--jobs 1..16]\n", argv[0]);
		return 2;
	}

	fd = open(SMAPBENCH_DEVICE, O_RDWR);
	if (fd < 0) {
		printf("not ok - open %s: %s\n", SMAPBENCH_DEVICE,
		       strerror(errno));
		return 1;
	}
	/* Only INFO keeps its layout across ABI versions: check it first. */
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, SMAPBENCH_IOC_INFO, &info)) {
		printf("not ok - INFO: %s%s\n", strerror(errno),
		       errno == EPERM ? " (needs CAP_PERFMON or CAP_SYS_ADMIN)" : "");
		return 1;
	}
	if (info.abi_version != SMAPBENCH_ABI_VERSION) {
		printf("not ok - %s speaks ABI version %u, smapbench_fuzz only version %u\n",
		       SMAPBENCH_DEVICE, info.abi_version,
		       SMAPBENCH_ABI_VERSION);
		return 1;
	}
	results = mmap(NULL, jobs * sizeof(*results), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (results == MAP_FAILED) {
		perror("smapbench_fuzz: mmap");
		return 2;
	}
	memset(results, 0, jobs * sizeof(*results));

	for (j = 0; j < jobs; j++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("smapbench_fuzz: fork");
			return 2;
		}
		if (pid == 0) {
			rng_state = (seed + j) * 0x9e3779b97f4a7c15ULL | 1;
			fuzz_loop(fd, calls, seconds, &results[j]);
			_exit(0);
		}
	}
	for (j = 0; j < jobs; j++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			printf("not ok - a fuzzing process died "
			       "(status 0x%x)\n", status);
			failed = 1;
		}
	}

	memset(&total, 0, sizeof(total));
	for (j = 0; j < jobs; j++) {
		total.calls += results[j].calls;
		total.succeeded += results[j].succeeded;
		total.unknown_not_enotty += results[j].unknown_not_enotty;
		for (i = 0; i < 160; i++)
			total.errnos[i] += results[j].errnos[i];
	}
	printf("# seed %lu, %lu processes, %lu calls, %lu returned 0\n",
	       seed, jobs, total.calls, total.succeeded);
	for (i = 1; i < 160; i++)
		if (total.errnos[i])
			printf("#   %lu x %s\n", total.errnos[i],
			       i < 159 ? strerror(i) : "other errno");

	printf("%s - %lu random ioctls answered without crashing "
	       "the caller\n", total.calls && !failed ? "ok" : "not ok",
	       total.calls);
	printf("%s - unknown ioctl numbers give ENOTTY (%lu did not)\n",
	       total.unknown_not_enotty ? "not ok" : "ok",
	       total.unknown_not_enotty);
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, SMAPBENCH_IOC_INFO, &info) == 0 &&
	    info.abi_version == SMAPBENCH_ABI_VERSION) {
		printf("ok - module still answers INFO afterwards\n");
	} else {
		printf("not ok - INFO after fuzzing: %s, abi %u\n",
		       strerror(errno), info.abi_version);
		failed = 1;
	}
	close(fd);
	return failed || !total.calls || total.unknown_not_enotty;
}
