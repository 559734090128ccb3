// SPDX-License-Identifier: GPL-2.0
/*
 * getppid.c - the cheapest system call: entry and exit only.
 * On x86 the entry path executes CLAC (AC must be clear in the kernel)
 * and touches no user memory, so this is the floor the other syscall
 * benchmarks sit on.
 *
 * Also a positive control for the statistics of `compare`: getppid
 * followed by a chain of ADD_CHAIN dependent adds, and that chain
 * alone. getppid_adds - getppid is a known cost, measured on its own
 * in the same run by adds, that a comparison must find (right sign,
 * CI holding it); tests/stages/15-syscall-run.sh checks it.
 */
#include <sys/syscall.h>
#include <unistd.h>

#include "suites/suite.h"

static int getppid_run(void *state, uint64_t iterations)
{
	(void)state;
	for (uint64_t i = 0; i < iterations; i++)
		syscall(SYS_getppid);
	return 0;
}

/* About 1000 core cycles: several times getppid's own noise. */
#define ADD_CHAIN 1000

/* n adds, each waiting for the one before: n cycles on any x86 core. */
static inline uint64_t add_chain(uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		__asm__ volatile("add $1, %0" : "+r"(x));
	return x;
}

static int getppid_adds_run(void *state, uint64_t iterations)
{
	uint64_t x = 0;

	(void)state;
	for (uint64_t i = 0; i < iterations; i++) {
		syscall(SYS_getppid);
		x = add_chain(x, ADD_CHAIN);
	}
	__asm__ volatile("" : : "r"(x));
	return 0;
}

static int adds_run(void *state, uint64_t iterations)
{
	uint64_t x = 0;

	(void)state;
	for (uint64_t i = 0; i < iterations; i++)
		x = add_chain(x, ADD_CHAIN);
	__asm__ volatile("" : : "r"(x));
	return 0;
}

#define STR(x) #x
#define XSTR(x) STR(x)

static const struct benchmark getppid_benchmarks[] = {
	{
		.name = "syscall/getppid", .suite = "syscall",
		.op = "getppid", .variant = "none",
		/* SYSCALL clears AC itself: no STAC/CLAC of the kernel's */
		.role = BENCH_ROLE_CONTROL,
		.summary = "getppid() through syscall(): entry and exit only",
		.run = getppid_run,
		.headline = 1,
	},
	{
		.name = "syscall/getppid_adds/" XSTR(ADD_CHAIN), .suite = "syscall",
		.op = "getppid_adds", .variant = "none",
		.role = BENCH_ROLE_CONTROL,
		.summary = "getppid() then " XSTR(ADD_CHAIN) " dependent adds: "
			   "a known extra cost (control for compare)",
		.run = getppid_adds_run,
	},
	{
		.name = "syscall/adds/" XSTR(ADD_CHAIN), .suite = "syscall",
		.op = "adds", .variant = "none",
		/* user space alone */
		.role = BENCH_ROLE_BASE,
		.summary = XSTR(ADD_CHAIN) " dependent adds alone: the extra "
			   "cost of getppid_adds",
		.run = adds_run,
	},
};

struct bench_family family_syscall_getppid =
	BENCH_FAMILY("syscall", "getppid", getppid_benchmarks);
