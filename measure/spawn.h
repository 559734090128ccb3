/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawn.h - starting a program in a child process, the one way smapbench
 * does it (the runner's workers, gnuplot, the census of a command).
 *
 * In the child, before the program runs: its descriptors, directory and
 * process group are set up, and the stop signals (SIGINT, SIGTERM,
 * SIGHUP) are back to their defaults and unblocked, so that the program
 * dies of them as usual whatever the caller does with them. Whether the
 * program could be executed is known when spawn_start() returns: the
 * child sends the errno of a failed step up a pipe that a successful
 * exec closes, and exits with status 127.
 */
#ifndef SMAPBENCH_SPAWN_H
#define SMAPBENCH_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

struct spawn {
	const char *path;	/* what is executed (spawn_find_program) */
	char *const *argv;	/* NULL-ended, argv[0] as the caller wants it */
	char *const *envp;	/* NULL: this process's environment */
	const char *cwd;	/* NULL: this process's directory */
	int stdin_fd;		/* each -1: this process's */
	int stdout_fd;
	int stderr_fd;
	int own_group;		/* a process group of its own, led by it */
	int die_with_parent;	/* SIGKILL when this process dies first */
	/*
	 * The default policy (SCHED_OTHER): a real-time caller's priority
	 * is not the program's to keep.
	 */
	int reset_scheduling;
};

/*
 * Fork and execute s. 0 when a child was made, its pid in *pid and in
 * *exec_errno 0 (it runs the program) or the errno of what failed before
 * (chdir, a descriptor, the exec; the child then exits with status 127,
 * to be waited for as any). -1 with errno when no child could be made.
 */
int spawn_start(const struct spawn *s, pid_t *pid, int *exec_errno);

/*
 * The file that running name would execute: name itself when it holds
 * a '/', else the first executable regular file name in path_list
 * (PATH's syntax, an empty entry being the current directory; NULL or
 * empty: none). 0, or -1 with errno (ENOENT, EACCES, ENAMETOOLONG).
 */
int spawn_find_program(const char *name, const char *path_list, char *out,
		       size_t len);

#endif /* SMAPBENCH_SPAWN_H */
