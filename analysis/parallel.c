// SPDX-License-Identifier: GPL-2.0
/* parallel.c - a parallel for over independent jobs; see parallel.h. */
#include "analysis/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>

struct pool {
	const struct parallel_jobs *jobs;
	size_t *order;		/* heaviest first; NULL: 0, 1, ... */
	atomic_size_t next, done;
	atomic_int failed;
};

/* Take jobs until none is left; only the calling thread reports. */
static void work(struct pool *p, int reporter)
{
	const struct parallel_jobs *j = p->jobs;
	size_t k;

	while ((k = atomic_fetch_add(&p->next, 1)) < j->count) {
		if (j->run(j->arg, p->order ? p->order[k] : k))
			atomic_store(&p->failed, 1);
		atomic_fetch_add(&p->done, 1);
		if (reporter && j->progress)
			j->progress(j->progress_arg, atomic_load(&p->done), j->count);
	}
}

static void *worker(void *arg)
{
	work(arg, 0);
	return NULL;
}

/* The CPUs of the affinity mask, or $SMAPBENCH_THREADS when set. */
static unsigned usable_cpus(void)
{
	const char *env = getenv("SMAPBENCH_THREADS");
	cpu_set_t set;
	int n;

	if (env && (n = atoi(env)) > 0)
		return (unsigned)n;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned)n : 1;
}

struct weighed {
	size_t weight, index;
};

static int heavier_first(const void *a, const void *b)
{
	const struct weighed *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

int parallel_for(const struct parallel_jobs *jobs, unsigned threads)
{
	struct pool p = { .jobs = jobs };
	pthread_t tid[PARALLEL_MAX_THREADS];
	unsigned started = 0;
	sigset_t all, old;

	if (!threads)
		threads = usable_cpus();
	if (threads > PARALLEL_MAX_THREADS)
		threads = PARALLEL_MAX_THREADS;
	if (threads > jobs->count)
		threads = (unsigned)jobs->count;
	if (jobs->weight && threads > 1) {
		struct weighed *w = malloc(jobs->count * sizeof(*w));

		p.order = malloc(jobs->count * sizeof(*p.order));
		if (!w || !p.order) {
			free(w);
			free(p.order);
			return -1;
		}
		for (size_t i = 0; i < jobs->count; i++)
			w[i] = (struct weighed){ jobs->weight(jobs->arg, i), i };
		qsort(w, jobs->count, sizeof(*w), heavier_first);
		for (size_t i = 0; i < jobs->count; i++)
			p.order[i] = w[i].index;
		free(w);
	}
	/* Signals go to the calling thread, whose handlers expect them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned t = 1; t < threads; t++)
		if (!pthread_create(&tid[started], NULL, worker, &p))
			started++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	work(&p, 1);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	if (jobs->progress)
		jobs->progress(jobs->progress_arg, jobs->count, jobs->count);
	free(p.order);
	return atomic_load(&p.failed) ? -1 : 0;
}
