// SPDX-License-Identifier: GPL-2.0
/*
 * signal.c - signal delivery round trip: tgkill() to ourselves,
 * the kernel writes the signal frame to the user stack (the ~25 fields
 * of ucontext and siginfo, under STAC/CLAC), the handler runs, and
 * rt_sigreturn reads the frame back. tgkill() is called directly: raise()
 * in glibc adds two rt_sigprocmask() calls around it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "suites/suite.h"

/* Written only by the handler, on this thread: a plain aligned word. */
static volatile unsigned long delivered;
static struct sigaction previous;

static void on_signal(int sig)
{
	(void)sig;
	delivered = delivered + 1;
}

static int signal_setup(const struct benchmark *b, void **state, char *why,
			size_t whylen)
{
	struct sigaction sa;

	(void)b;
	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR1, &sa, &previous)) {
		snprintf(why, whylen, "sigaction(SIGUSR1): %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void signal_teardown(const struct benchmark *b, void *state)
{
	(void)b;
	(void)state;
	sigaction(SIGUSR1, &previous, NULL);
}

static int signal_run(void *state, uint64_t iterations)
{
	pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);

	(void)state;
	delivered = 0;
	for (uint64_t i = 0; i < iterations; i++)
		if (syscall(SYS_tgkill, pid, tid, SIGUSR1))
			return -errno;
	/* Delivery is synchronous for a signal to ourselves. */
	return delivered == iterations ? 0 : -EIO;
}

static const struct benchmark signal_benchmarks[] = {
	{
		.name = "syscall/signal/roundtrip", .suite = "syscall",
		.op = "signal", .variant = "roundtrip",
		.role = BENCH_ROLE_EFFECT,
		.summary = "tgkill(self, SIGUSR1): frame setup, handler, rt_sigreturn",
		.setup = signal_setup, .teardown = signal_teardown,
		.run = signal_run,
		.headline = 1,
	},
};

struct bench_family family_syscall_signal =
	BENCH_FAMILY("syscall", "signal", signal_benchmarks);
