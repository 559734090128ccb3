// SPDX-License-Identifier: GPL-2.0
/* atomic_cleanup.c - the registry a stop signal cleans up; see atomic_cleanup.h. */
#include "rundata/atomic_cleanup.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/wait.h>

#include "rundata/atomic_path.h"
#include "rundata/error.h"

#define MAX_TEMPORARIES	8
#define MAX_CHILDREN	4

/* Changed only with the stop signals blocked: the handler sees them whole. */
static char temporaries[MAX_TEMPORARIES][PATH_MAX + 32];
static volatile pid_t children[MAX_CHILDREN];
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

void atomic_block_stop_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

void atomic_restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void atomic_register_temporary(const char *path)
{
	for (size_t i = 0; i < MAX_TEMPORARIES; i++)
		if (!temporaries[i][0]) {
			if (atomic_fit(temporaries[i], sizeof(temporaries[i]), "%s", path))
				temporaries[i][0] = '\0';
			return;
		}
}

void atomic_unregister_temporary(const char *path)
{
	for (size_t i = 0; i < MAX_TEMPORARIES; i++)
		if (!strcmp(temporaries[i], path)) {
			temporaries[i][0] = '\0';
			return;
		}
}

void atomic_dir_watch_child(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (!children[i]) {
			children[i] = pid;
			return;
		}
}

void atomic_dir_unwatch_child(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
}

static void on_stop_signal(int sig)
{
	int saved = errno;

	/* A child still writing would refill what we remove. */
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0) {
			kill(children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
	for (size_t i = 0; i < MAX_TEMPORARIES; i++)
		if (temporaries[i][0])
			atomic_dir_remove_tree(temporaries[i]);
	/* Die of the signal itself: the caller sees 128 + sig. */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

void atomic_dir_cleanup_on_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

int atomic_renamed(char *tmp, const char *target, int rc, char *err,
		   size_t errlen)
{
	if (!rc) {
		atomic_unregister_temporary(tmp);
		tmp[0] = '\0';
	} else {
		set_err(err, errlen, "cannot rename %s to %s: %s", tmp, target,
			strerror(errno));
	}
	return rc;
}

void atomic_forget_temporary(char *tmp)
{
	sigset_t old;

	atomic_block_stop_signals(&old);
	atomic_unregister_temporary(tmp);
	atomic_restore_signals(&old);
	tmp[0] = '\0';
}
