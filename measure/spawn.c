// SPDX-License-Identifier: GPL-2.0
/* spawn.c - starting a program in a child process; see spawn.h. */
#include "measure/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* In the child: only calls that are safe after fork(), then execve. */
static void __attribute__((noreturn))
child(const struct spawn *s, pid_t parent, int errfd)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t stop;
	int e;

	sigemptyset(&stop);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		sigaction(stop_signals[i], &dfl, NULL);
		sigaddset(&stop, stop_signals[i]);
	}
	sigprocmask(SIG_UNBLOCK, &stop, NULL);
	if (s->die_with_parent) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* the parent died before that took hold */
		if (getppid() != parent) {
			errno = ESRCH;
			goto fail;
		}
	}
	if (s->own_group)
		setpgid(0, 0);
	if (s->reset_scheduling) {
		struct sched_param other = { .sched_priority = 0 };

		if (sched_setscheduler(0, SCHED_OTHER, &other))
			goto fail;
	}
	if ((s->stdin_fd >= 0 && dup2(s->stdin_fd, STDIN_FILENO) < 0) ||
	    (s->stdout_fd >= 0 && dup2(s->stdout_fd, STDOUT_FILENO) < 0) ||
	    (s->stderr_fd >= 0 && dup2(s->stderr_fd, STDERR_FILENO) < 0))
		goto fail;
	if (s->cwd && chdir(s->cwd))
		goto fail;
	execve(s->path, s->argv, s->envp ? s->envp : environ);
fail:
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		e = 0;
	_exit(127);
}

int spawn_start(const struct spawn *s, pid_t *pid, int *exec_errno)
{
	pid_t parent = getpid();
	int pipefd[2], e = 0;
	ssize_t n;

	*exec_errno = 0;
	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	/* what this process printed comes before what the program prints */
	fflush(NULL);
	*pid = fork();
	if (*pid == 0)
		child(s, parent, pipefd[1]);
	e = errno;
	close(pipefd[1]);
	if (*pid < 0) {
		close(pipefd[0]);
		errno = e;
		return -1;
	}
	/* Either side may get there first. */
	if (s->own_group)
		setpgid(*pid, *pid);
	/* Four bytes: a step failed with that errno; none: the exec closed it. */
	while ((n = read(pipefd[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	if (n == sizeof(e))
		*exec_errno = e;
	close(pipefd[0]);
	return 0;
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

int spawn_find_program(const char *name, const char *path_list, char *out,
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
