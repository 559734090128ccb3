/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_cleanup.h - what a stop signal leaves behind: the temporary
 * paths of atomic writing in use are registered, and
 * atomic_dir_cleanup_on_signals() makes SIGINT, SIGTERM and SIGHUP stop
 * registered child processes (gnuplot), remove those paths and end the
 * process with the signal's own status. Writers that poll for a stop flag
 * (smapbench run) keep their own handlers and abort on their own.
 */
#ifndef SMAPBENCH_ATOMIC_CLEANUP_H
#define SMAPBENCH_ATOMIC_CLEANUP_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* SIGINT, SIGTERM, SIGHUP: stop children, remove temporaries, die. */
void atomic_dir_cleanup_on_signals(void);
/* A child that writes into a temporary directory: killed on a signal. */
void atomic_dir_watch_child(pid_t pid);
void atomic_dir_unwatch_child(pid_t pid);

/*
 * For the atomic writers: the registry is changed only with the stop
 * signals blocked, so that the handler sees it whole.
 */
void atomic_block_stop_signals(sigset_t *old);
void atomic_restore_signals(const sigset_t *old);
void atomic_register_temporary(const char *path);
void atomic_unregister_temporary(const char *path);
/* A temporary removed: the stop handler has nothing left to remove. */
void atomic_forget_temporary(char *tmp);
/*
 * After renaming tmp to target (rc: the rename's), with the stop signals
 * blocked: tmp is no longer a temporary of ours; or err says why not.
 */
int atomic_renamed(char *tmp, const char *target, int rc, char *err,
		   size_t errlen);

#endif /* SMAPBENCH_ATOMIC_CLEANUP_H */
