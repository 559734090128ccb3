// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_getppid.c - the cheapest system call: entry and exit only.
 * On x86 the entry path executes CLAC (AC must be clear in the kernel)
 * and touches no user memory, so this is the floor the other syscall
 * benchmarks sit on.
 */
#include <sys/syscall.h>
#include <unistd.h>

#include "suite.h"

static int getppid_run(void *state, uint64_t iterations)
{
	(void)state;
	for (uint64_t i = 0; i < iterations; i++)
		syscall(SYS_getppid);
	return 0;
}

static const struct benchmark getppid_benchmarks[] = {
	{
		.name = "syscall/getppid", .suite = "syscall",
		.op = "getppid", .variant = "none",
		.summary = "getppid() through syscall(): entry and exit only",
		.run = getppid_run,
		.headline = 1,
	},
};

struct bench_family family_syscall_getppid =
	BENCH_FAMILY("syscall", "getppid", getppid_benchmarks);
