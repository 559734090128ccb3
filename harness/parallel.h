/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parallel.h - run independent jobs on every CPU the process may use.
 *
 * The analysis tools' bootstrap intervals are independent per benchmark
 * and each seeded on its own, so they can be computed in any order, on
 * any thread, with the same result bit for bit.
 */
#ifndef SMAPBENCH_PARALLEL_H
#define SMAPBENCH_PARALLEL_H

#include <stddef.h>

/* Called from the calling thread only, after some jobs are done. */
typedef void (*parallel_progress_fn)(void *arg, size_t done, size_t total);

/*
 * job(arg, i) for every i in [0, count), on up to threads threads (0:
 * one per CPU in the affinity mask, at most PARALLEL_MAX_THREADS). Jobs
 * must not share writable state. Returns 0, or -1 when a job returned
 * non-zero (the others still run).
 */
int parallel_for(size_t count, unsigned threads,
		 int (*job)(void *arg, size_t i), void *arg,
		 parallel_progress_fn progress, void *progress_arg);

#define PARALLEL_MAX_THREADS 16

#endif /* SMAPBENCH_PARALLEL_H */
