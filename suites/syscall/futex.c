// SPDX-License-Identifier: GPL-2.0
/*
 * futex.c - futex() paths that touch user memory once:
 * FUTEX_WAKE with no waiters (hashes the address, no user access on
 * recent kernels beyond the key lookup) and FUTEX_WAIT with a value
 * that does not match, which reads the futex word with get_user() under
 * STAC/CLAC and returns EAGAIN at once.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "suites/suite.h"

static uint32_t futex_word = 1;

static long futex(uint32_t *word, int op, uint32_t value)
{
	return syscall(SYS_futex, word, op, value, NULL, NULL, 0);
}

static int wake_run(void *state, uint64_t iterations)
{
	(void)state;
	for (uint64_t i = 0; i < iterations; i++)
		if (futex(&futex_word, FUTEX_WAKE_PRIVATE, 1) < 0)
			return -errno;
	return 0;
}

static int wait_valid(const struct benchmark *b, char *why, size_t whylen)
{
	(void)b;
	if (futex(&futex_word, FUTEX_WAIT_PRIVATE, 0) == -1 && errno == EAGAIN)
		return 0;
	snprintf(why, whylen, "FUTEX_WAIT with a wrong value did not fail with EAGAIN");
	return -1;
}

static int wait_run(void *state, uint64_t iterations)
{
	(void)state;
	/* The word is 1, we claim 0: the kernel reads it and says EAGAIN. */
	for (uint64_t i = 0; i < iterations; i++)
		if (futex(&futex_word, FUTEX_WAIT_PRIVATE, 0) != -1 ||
		    errno != EAGAIN)
			return errno ? -errno : -EIO;
	return 0;
}

static const struct benchmark futex_benchmarks[] = {
	{
		.name = "syscall/futex/wake", .suite = "syscall",
		.op = "futex", .variant = "wake",
		/* a private futex without waiters touches no user memory */
		.role = BENCH_ROLE_CONTROL,
		.summary = "FUTEX_WAKE_PRIVATE with no waiters",
		.run = wake_run,
		.headline = 1,
	},
	{
		.name = "syscall/futex/wait_eagain", .suite = "syscall",
		.op = "futex", .variant = "wait_eagain",
		.role = BENCH_ROLE_EFFECT,
		.summary = "FUTEX_WAIT_PRIVATE with a wrong value: get_user, EAGAIN",
		.valid = wait_valid, .run = wait_run,
	},
};

struct bench_family family_syscall_futex =
	BENCH_FAMILY("syscall", "futex", futex_benchmarks);
