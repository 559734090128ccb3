// SPDX-License-Identifier: GPL-2.0
/* parallel.c - a parallel for over independent jobs; see parallel.h. */
#include "parallel.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>

struct pool {
	size_t count;
	int (*job)(void *arg, size_t i);
	void *arg;
	atomic_size_t next, done;
	atomic_int failed;
};

/* Take jobs until none is left. */
static void work(struct pool *p, parallel_progress_fn progress,
		 void *progress_arg)
{
	size_t i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->count) {
		if (p->job(p->arg, i))
			atomic_store(&p->failed, 1);
		atomic_fetch_add(&p->done, 1);
		if (progress)
			progress(progress_arg, atomic_load(&p->done), p->count);
	}
}

static void *worker(void *arg)
{
	work(arg, NULL, NULL);
	return NULL;
}

static unsigned usable_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1;
}

int parallel_for(size_t count, unsigned threads,
		 int (*job)(void *arg, size_t i), void *arg,
		 parallel_progress_fn progress, void *progress_arg)
{
	struct pool p = { .count = count, .job = job, .arg = arg };
	pthread_t tid[PARALLEL_MAX_THREADS];
	unsigned started = 0;
	sigset_t all, old;

	if (!threads)
		threads = usable_cpus();
	if (threads > PARALLEL_MAX_THREADS)
		threads = PARALLEL_MAX_THREADS;
	if (threads > count)
		threads = (unsigned)count;
	/* Signals go to the calling thread, whose handlers expect them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned t = 1; t < threads; t++)
		if (!pthread_create(&tid[started], NULL, worker, &p))
			started++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	work(&p, progress, progress_arg);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	if (progress)
		progress(progress_arg, count, count);
	return atomic_load(&p.failed) ? -1 : 0;
}
