// SPDX-License-Identifier: GPL-2.0
/*
 * runner_sample.c - taking samples and keeping them, the steps a
 * repetition takes in this process and in a worker alike (runner.h,
 * runner_internal.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "measure/runner.h"
#include "measure/runner_internal.h"

int runner_stopped(const struct runner_options *o)
{
	return o->stop && *o->stop;
}

void runner_unit_of(const struct benchmark *b, void *state,
		    const struct runner_options *o, struct bench_timer *t)
{
	if (b->measure) {
		memset(t, 0, sizeof(*t));
		b->timer(state, t);
		return;
	}
	t->counter = o->counter->name;
	t->unit = o->counter->unit;
	t->hz = o->counter->hz;
}

int runner_sample(const struct benchmark *b, void *state,
		  const struct runner_options *o, uint64_t iterations,
		  struct bench_sample *sample, double *seconds,
		  char *why, size_t whylen)
{
	memset(sample, 0, sizeof(*sample));
	if (b->measure) {
		struct bench_timer t;

		if (b->measure(state, iterations, 1, sample, why, whylen))
			return -1;
		runner_unit_of(b, state, o, &t);
		*seconds = t.hz > 0 ? (double)sample->value / t.hz : 0;
		return 0;
	}
	/*
	 * Involuntary context switches around the sample (outside the
	 * timed region) tell a preempted sample from a slow one.
	 */
	struct rusage before, after;

	getrusage(RUSAGE_THREAD, &before);
	uint64_t t0 = o->counter->begin();
	int rc = b->run(state, iterations);
	uint64_t t1 = o->counter->end();

	getrusage(RUSAGE_THREAD, &after);
	if (after.ru_nivcsw != before.ru_nivcsw)
		sample->flags |= BENCH_SAMPLE_PREEMPTED;

	if (rc) {
		const char *words = b->failure ? b->failure(state) : NULL;

		snprintf(why, whylen, "failed: %s", words ? words : strerror(-rc));
		return -1;
	}
	sample->value = t1 - t0;
	sample->iterations = iterations;
	*seconds = counter_seconds(o->counter, sample->value);
	return 0;
}

int runner_collect(const struct benchmark *b, void *state,
		   const struct runner_options *o, uint64_t iterations,
		   unsigned total, struct bench_sample *s, char *why,
		   size_t whylen)
{
	double seconds;

	if (b->measure) {
		memset(s, 0, total * sizeof(*s));
		return b->measure(state, iterations, total, s, why, whylen);
	}
	for (unsigned i = 0; i < total; i++) {
		if (runner_stopped(o))
			return -1;
		if (runner_sample(b, state, o, iterations, &s[i], &seconds, why,
				  whylen))
			return -1;
	}
	return 0;
}

void runner_store(struct result *res, const struct runner_segment *seg,
		  unsigned repetition, const struct bench_sample *s)
{
	for (unsigned i = 0; i < seg->warmup + seg->count; i++) {
		struct result_sample *rs;

		res->negative += !!(s[i].flags & BENCH_SAMPLE_NEGATIVE);
		res->repeats += s[i].repeats;
		if (i < seg->warmup)
			continue;
		rs = &res->samples[res->nsamples++];
		rs->repetition = repetition;
		rs->index = seg->first + (i - seg->warmup);
		rs->iterations = s[i].iterations ? s[i].iterations : 1;
		rs->value = (double)s[i].value / (double)rs->iterations;
		if (s[i].flags & BENCH_SAMPLE_NEGATIVE)
			rs->value = -rs->value;
		if (s[i].flags & BENCH_SAMPLE_CLAMPED)
			res->flags |= RESULT_CLAMPED;
		if (s[i].flags & BENCH_SAMPLE_PREEMPTED)
			res->preempted++;
	}
}

void runner_skip(struct result *res, const char *why)
{
	res->skipped = 1;
	snprintf(res->reason, sizeof(res->reason), "%s",
		 why[0] ? why : "cannot run here");
}

double runner_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double runner_stretch_seconds(const struct result *res,
			      const struct runner_segment *seg)
{
	return (seg->warmup + seg->count) * res->sample_wall +
	       RUNNER_STRETCH_SECONDS;
}

void runner_show_progress(const struct runner_repetition *rep,
			  const struct runner_segment *seg)
{
	struct runner_eta *eta = rep->eta;
	const struct benchmark *b = rep->r->items[seg->bench];
	double elapsed = runner_now() - eta->start;
	struct runner_progress p = {
		.event = RUNNER_STRETCH, .name = b->name,
		.repetition = rep->index,
		.done = ++eta->done, .total = eta->total,
		.seconds_left = eta->expected_total - eta->expected_done,
	};

	/* the rest at the pace the run has kept, once there is some */
	if (eta->expected_done > 0 && elapsed > 1)
		p.seconds_left *= elapsed / eta->expected_done;
	eta->expected_done += runner_stretch_seconds(&rep->res[seg->bench], seg);
	if (rep->o->progress)
		rep->o->progress(rep->o->progress_arg, &p);
}
