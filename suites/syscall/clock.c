// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - clock_gettime() forced through the system call
 * (syscall(SYS_clock_gettime)): the kernel writes a struct timespec to
 * user memory with put_user/copy_to_user. The vDSO variant, which never
 * enters the kernel, is the reference without STAC/CLAC.
 */
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "suites/suite.h"

static int clock_syscall_run(void *state, uint64_t iterations)
{
	struct timespec ts;

	(void)state;
	for (uint64_t i = 0; i < iterations; i++)
		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
			return -errno;
	return 0;
}

static int clock_vdso_run(void *state, uint64_t iterations)
{
	struct timespec ts;

	(void)state;
	for (uint64_t i = 0; i < iterations; i++)
		if (clock_gettime(CLOCK_MONOTONIC, &ts))
			return -errno;
	return 0;
}

static const struct benchmark clock_benchmarks[] = {
	{
		.name = "syscall/clock_gettime/syscall", .suite = "syscall",
		.op = "clock_gettime", .variant = "syscall", .size = 16,
		.role = BENCH_ROLE_EFFECT,
		.summary = "clock_gettime(CLOCK_MONOTONIC) as a real system call",
		.run = clock_syscall_run,
	},
	{
		.name = "syscall/clock_gettime/vdso", .suite = "syscall",
		.op = "clock_gettime", .variant = "vdso", .size = 16,
		/* never enters the kernel */
		.role = BENCH_ROLE_BASE,
		.summary = "clock_gettime(CLOCK_MONOTONIC) through the vDSO (no kernel entry)",
		.run = clock_vdso_run,
	},
};

struct bench_family family_syscall_clock =
	BENCH_FAMILY("syscall", "clock", clock_benchmarks);
