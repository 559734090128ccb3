/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_spawn.h - running a program for the census of a command: on
 * this machine, to time it natively, and in the guest, between the
 * plugin's markers, where nothing but the program may run while it is
 * counted. So waiting blocks (no polling): a timeout is an interval
 * timer, and a stop signal (SIGINT, SIGTERM, SIGHUP) interrupts the
 * wait, ends the program's process group and is then delivered to the
 * caller as if it had come afterwards.
 */
#ifndef SMAPBENCH_CENSUS_SPAWN_H
#define SMAPBENCH_CENSUS_SPAWN_H

#include <stddef.h>

struct census_program {
	const char *path;	/* what is executed (spawn_find_program) */
	char *const *argv;	/* argv[0] as the user wrote it */
	char *const *envp;	/* NULL: this process's environment */
	const char *cwd;	/* NULL: this process's directory */
	int stdin_fd;		/* -1: this process's */
	int output_fd;		/* stdout and stderr; -1: this process's */
	double timeout;		/* seconds; 0: none */
	/*
	 * Its own process group, which the timeout kills with SIGKILL and a
	 * stop signal ends with SIGTERM (then SIGKILL after 10 s); else
	 * those go to the program alone.
	 */
	int own_group;
};

struct census_outcome {
	int exec_errno;		/* execve() failed with it (or chdir did) */
	int timed_out;		/* killed at the timeout */
	int exited, status;	/* exited, with this status */
	int signal;		/* killed by this signal */
	double seconds;		/* wall time from fork to reaped */
	/* voluntary and involuntary context switches of it and its children */
	long context_switches;
};

/*
 * Run p to its end. 0 when it ran (whatever became of it: see o), -1
 * with the reason in err when it could not be started.
 */
int census_run_program(const struct census_program *p,
		       struct census_outcome *o, char *err, size_t errlen);
/* Exited with status 0, in time. */
int census_outcome_ok(const struct census_outcome *o);
/* "exited with status 2", "was killed by signal 9", ... */
void census_outcome_text(const struct census_outcome *o, double timeout,
			 char *buf, size_t len);

#endif /* SMAPBENCH_CENSUS_SPAWN_H */
