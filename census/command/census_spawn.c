// SPDX-License-Identifier: GPL-2.0
/* census_spawn.c - running a program to its end; see census_spawn.h. */
#include "census/command/census_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

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

/* In the child: set up and execute; on failure send errno up the pipe. */
static void __attribute__((noreturn))
child(const struct census_program *p, int errfd)
{
	int e;

	if (p->own_group)
		setpgid(0, 0);
	if (p->stdin_fd >= 0 && dup2(p->stdin_fd, STDIN_FILENO) < 0)
		goto fail;
	if (p->output_fd >= 0 && (dup2(p->output_fd, STDOUT_FILENO) < 0 ||
				  dup2(p->output_fd, STDERR_FILENO) < 0))
		goto fail;
	if (p->cwd && chdir(p->cwd))
		goto fail;
	execve(p->path, p->argv, p->envp ? p->envp : environ);
fail:
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		e = 0;
	_exit(127);
}

int census_run_program(const struct census_program *p,
		       struct census_outcome *o, char *err, size_t errlen)
{
	struct sigaction sa, old_stop[NSTOP], old_alarm;
	int pipefd[2], status = 0, child_errno = 0, term_sent = 0;
	struct rusage usage;
	pid_t pid, target;
	double start;

	memset(o, 0, sizeof(*o));
	memset(&usage, 0, sizeof(usage));
	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
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

	/* what this process printed comes before what the program prints */
	fflush(NULL);
	start = now();
	pid = fork();
	if (pid == 0)
		child(p, pipefd[1]);
	close(pipefd[1]);
	if (pid < 0) {
		snprintf(err, errlen, "cannot fork: %s", strerror(errno));
		close(pipefd[0]);
		for (size_t i = 0; i < NSTOP; i++)
			sigaction(stop_signals[i], &old_stop[i], NULL);
		sigaction(SIGALRM, &old_alarm, NULL);
		return -1;
	}
	target = pid;
	if (p->own_group) {
		/* Either side may get there first. */
		setpgid(pid, pid);
		target = -pid;
	}
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
	/* Four bytes: the exec failed with that errno; none: it succeeded. */
	if (read(pipefd[0], &child_errno, sizeof(child_errno)) == sizeof(child_errno))
		o->exec_errno = child_errno;
	close(pipefd[0]);
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

static int executable_file(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EACCES;
		return -1;
	}
	return access(path, X_OK);
}

int census_find_program(const char *name, const char *path_list, char *out,
			size_t len)
{
	int seen_eacces = 0;
	const char *dir = path_list;

	if (!*name) {
		errno = ENOENT;
		return -1;
	}
	if (strchr(name, '/')) {
		if ((size_t)snprintf(out, len, "%s", name) >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		return executable_file(out);
	}
	while (dir && *dir) {
		const char *colon = strchr(dir, ':');
		size_t dlen = colon ? (size_t)(colon - dir) : strlen(dir);

		/* an empty entry is the current directory, as in execvp() */
		if ((size_t)snprintf(out, len, "%.*s%s%s", (int)dlen, dir,
				     dlen ? "/" : "./", name) < len) {
			if (!executable_file(out))
				return 0;
			seen_eacces |= errno == EACCES;
		}
		if (!colon)
			break;
		dir = colon + 1;
	}
	errno = seen_eacces ? EACCES : ENOENT;
	return -1;
}
