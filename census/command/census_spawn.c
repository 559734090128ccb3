// SPDX-License-Identifier: GPL-2.0
/* census_spawn.c - running a program to its end; see census_spawn.h. */
#include "census/command/census_spawn.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/spawn.h"

/* After SIGTERM, how long a stopped program has before SIGKILL. */
#define STOP_GRACE_SECONDS 10

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

static volatile sig_atomic_t stop_signal, alarm_fired;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * SIGALRM after seconds, then every second: a signal that lands just
 * before wait4() blocks is followed by another.
 */
static void arm(double seconds)
{
	struct itimerval t = { .it_interval = { .tv_sec = 1 } };

	t.it_value.tv_sec = (time_t)seconds;
	t.it_value.tv_usec = (suseconds_t)((seconds - (double)t.it_value.tv_sec) * 1e6);
	if (!t.it_value.tv_sec && !t.it_value.tv_usec)
		t.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &t, NULL);
}

static void disarm(void)
{
	struct itimerval t = { 0 };

	setitimer(ITIMER_REAL, &t, NULL);
}

int census_run_program(const struct census_program *p,
		       struct census_outcome *o, char *err, size_t errlen)
{
	struct spawn s = {
		.path = p->path, .argv = p->argv, .envp = p->envp, .cwd = p->cwd,
		.stdin_fd = p->stdin_fd, .stdout_fd = p->output_fd,
		.stderr_fd = p->output_fd, .own_group = p->own_group,
	};
	struct sigaction sa, old_stop[NSTOP], old_alarm;
	int status = 0, term_sent = 0;
	struct rusage usage;
	pid_t pid, target;
	double start;

	memset(o, 0, sizeof(*o));
	memset(&usage, 0, sizeof(usage));
	/* No SA_RESTART: the signal must interrupt wait4(). */
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	alarm_fired = 0;
	sa.sa_handler = on_stop;
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sa, &old_stop[i]);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, &old_alarm);

	start = now();
	if (spawn_start(&s, &pid, &o->exec_errno)) {
		snprintf(err, errlen, "cannot start %s: %s", p->path, strerror(errno));
		for (size_t i = 0; i < NSTOP; i++)
			sigaction(stop_signals[i], &old_stop[i], NULL);
		sigaction(SIGALRM, &old_alarm, NULL);
		return -1;
	}
	target = p->own_group ? -pid : pid;
	if (p->timeout > 0)
		arm(p->timeout);
	for (;;) {
		pid_t w = wait4(pid, &status, 0, &usage);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			snprintf(err, errlen, "waiting for the program failed: %s",
				 strerror(errno));
			break;
		}
		if (stop_signal && !term_sent) {
			kill(target, SIGTERM);
			term_sent = 1;
			arm(STOP_GRACE_SECONDS);
		} else if (alarm_fired) {
			alarm_fired = 0;
			o->timed_out |= !term_sent;
			kill(target, SIGKILL);
		}
	}
	o->seconds = now() - start;
	o->context_switches = usage.ru_nvcsw + usage.ru_nivcsw;
	disarm();
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &old_stop[i], NULL);
	sigaction(SIGALRM, &old_alarm, NULL);
	if (WIFEXITED(status)) {
		o->exited = 1;
		o->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		o->signal = WTERMSIG(status);
	}
	/* What stopped the wait reaches the caller now, as if it came late. */
	if (stop_signal)
		raise(stop_signal);
	return 0;
}

int census_outcome_ok(const struct census_outcome *o)
{
	return !o->exec_errno && !o->timed_out && o->exited && !o->status;
}

void census_outcome_text(const struct census_outcome *o, double timeout,
			 char *buf, size_t len)
{
	if (o->exec_errno)
		snprintf(buf, len, "could not be executed: %s",
			 strerror(o->exec_errno));
	else if (o->timed_out)
		snprintf(buf, len, "took longer than the timeout of %g s and was killed",
			 timeout);
	else if (o->signal)
		snprintf(buf, len, "was killed by signal %d (%s)", o->signal,
			 strsignal(o->signal));
	else
		snprintf(buf, len, "exited with status %d", o->status);
}

