/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parallel.h - run independent jobs on every CPU the process may use.
 *
 * The rows of a comparison are independent of each other, so they can
 * be computed in any order, on any thread, with the same result bit for
 * bit.
 */
#ifndef SMAPBENCH_PARALLEL_H
#define SMAPBENCH_PARALLEL_H

#include <stddef.h>

/* Called from the calling thread only, after some jobs are done. */
typedef void (*parallel_progress_fn)(void *arg, size_t done, size_t total);

struct parallel_jobs {
	size_t count;
	int (*run)(void *arg, size_t i);	/* non-zero: failed */
	/*
	 * Optional: the work of job i (e.g. values resampled). The
	 * heaviest are started first, so no thread is left with a big one
	 * at the end while the others wait.
	 */
	size_t (*weight)(void *arg, size_t i);
	void *arg;
	parallel_progress_fn progress;		/* optional */
	void *progress_arg;
};

/*
 * Every job, on up to threads threads (0: one per CPU in the affinity
 * mask, or $SMAPBENCH_THREADS; at most PARALLEL_MAX_THREADS). Jobs must not share writable
 * state. Returns 0, or -1 when a job failed or memory ran out (the
 * other jobs still run).
 */
int parallel_for(const struct parallel_jobs *jobs, unsigned threads);

#define PARALLEL_MAX_THREADS 16

#endif /* SMAPBENCH_PARALLEL_H */
