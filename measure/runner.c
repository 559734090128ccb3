// SPDX-License-Identifier: GPL-2.0
/* runner.c - sizing, repetitions, interleaving; see runner.h. */
#include "measure/runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

void runner_defaults(struct runner_options *o)
{
	memset(o, 0, sizeof(*o));
	o->min_time = 0.01;
	o->repetitions = 5;
	o->samples = 10;
	o->warmup = 1;
	o->interleave = 1;
	o->seed = STATS_DEFAULT_SEED;
	o->max_iterations = 1ULL << 32;
}

static int stopped(const struct runner_options *o)
{
	return o->stop && *o->stop;
}

static void unit_of(const struct benchmark *b, void *state,
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
		unit_of(b, state, o, &t);
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
		snprintf(why, whylen, "failed: %s", strerror(-rc));
		return -1;
	}
	sample->value = t1 - t0;
	sample->iterations = iterations;
	*seconds = counter_seconds(o->counter, sample->value);
	return 0;
}

int runner_size_iterations(const struct benchmark *b, void *state,
			   const struct runner_options *o,
			   uint64_t *iterations, int *clamped,
			   char *why, size_t whylen)
{
	double goal = o->min_time, seconds;
	uint64_t cap = o->max_iterations, n = 1;
	struct bench_sample s;

	if (b->max_iterations && b->max_iterations < cap)
		cap = b->max_iterations;
	if (b->max_sample_seconds > 0 && b->max_sample_seconds < goal)
		goal = b->max_sample_seconds;
	*clamped = 0;
	for (;;) {
		if (stopped(o))
			return -1;
		if (runner_sample(b, state, o, n, &s, &seconds, why, whylen))
			return -1;
		if (s.flags & BENCH_SAMPLE_CLAMPED) {
			/* The benchmark cut the sample: it cannot grow. */
			*clamped = 1;
			n = s.iterations ? s.iterations : n;
			break;
		}
		if (seconds >= goal)
			break;
		if (n >= cap) {
			*clamped = 1;
			break;
		}
		double mult = seconds > goal / 10 ? 1.4 * goal / seconds : 10;
		double next = ceil((double)n * mult);

		n = next > (double)cap ? cap : (uint64_t)next;
	}
	*iterations = n;
	return 0;
}

static int take_samples(const struct benchmark *b, void *state,
			const struct runner_options *o, struct result *res,
			unsigned repetition, char *why, size_t whylen)
{
	unsigned total = o->warmup + o->samples;
	struct bench_sample *s = calloc(total, sizeof(*s));
	double seconds;

	if (!s)
		return -1;
	if (b->measure) {
		if (b->measure(state, res->iterations, total, s, why, whylen))
			goto fail;
	} else {
		for (unsigned i = 0; i < total; i++) {
			if (stopped(o))
				goto fail;
			if (runner_sample(b, state, o, res->iterations, &s[i],
					  &seconds, why, whylen))
				goto fail;
		}
	}
	for (unsigned i = o->warmup; i < total; i++) {
		struct result_sample *rs = &res->samples[res->nsamples++];

		rs->repetition = repetition;
		rs->index = i - o->warmup;
		rs->iterations = s[i].iterations ? s[i].iterations : 1;
		rs->value = (double)s[i].value / (double)rs->iterations;
		if (s[i].flags & BENCH_SAMPLE_NEGATIVE)
			rs->value = -rs->value;
		if (s[i].flags & BENCH_SAMPLE_CLAMPED)
			res->flags |= RESULT_CLAMPED;
		if (s[i].flags & BENCH_SAMPLE_PREEMPTED)
			res->preempted++;
	}
	free(s);
	return 0;
fail:
	free(s);
	return -1;
}

static void finish(struct result *res, uint64_t seed)
{
	double *v;

	if (res->skipped || !res->nsamples)
		return;
	v = malloc(res->nsamples * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < res->nsamples; i++)
		v[i] = res->samples[i].value;
	stats_summarize(v, res->nsamples, seed, &res->stats);
	free(v);
	res->median_ns = res->hz > 0 ? res->stats.median * 1e9 / res->hz : NAN;
	if (fabs(res->stats.cv) > RESULT_NOISY_CV)
		res->flags |= RESULT_NOISY;
	if ((double)res->preempted > RESULT_PREEMPTED_SHARE * (double)res->nsamples)
		res->flags |= RESULT_PREEMPTED;
}

static void skip(struct result *res, const char *why)
{
	res->skipped = 1;
	snprintf(res->reason, sizeof(res->reason), "%s",
		 why[0] ? why : "cannot run here");
}

int runner_run(const struct registry *r, const struct runner_options *o,
	       struct run_results *out)
{
	struct result *res = calloc(r->count ? r->count : 1, sizeof(*res));
	void **state = calloc(r->count ? r->count : 1, sizeof(*state));
	size_t *order = calloc(r->count ? r->count : 1, sizeof(*order));
	unsigned char *set_up = calloc(r->count ? r->count : 1, 1);
	size_t runnable = 0, done = 0;
	struct stats_rng rng;
	char why[256];
	int rc = 0;

	out->items = res;
	out->count = r->count;
	if (!res || !state || !order || !set_up) {
		free(set_up);
		free(state);
		free(order);
		return -1;
	}
	stats_rng_seed(&rng, o->seed);

	/* Validity, setup and iteration sizing (which warms up too). */
	for (size_t i = 0; i < r->count; i++) {
		const struct benchmark *b = r->items[i];
		struct bench_timer t;
		int clamped;

		res[i].bench = b;
		why[0] = '\0';
		if (b->valid && b->valid(b, why, sizeof(why))) {
			skip(&res[i], why);
			continue;
		}
		if (b->setup && b->setup(b, &state[i], why, sizeof(why))) {
			skip(&res[i], why);
			continue;
		}
		set_up[i] = 1;
		if (stopped(o)) {
			skip(&res[i], "interrupted");
			continue;
		}
		if (o->progress)
			o->progress(o->progress_arg, 0, r->count, b->name, 0);
		if (runner_size_iterations(b, state[i], o, &res[i].iterations,
					   &clamped, why, sizeof(why))) {
			skip(&res[i], stopped(o) ? "interrupted" : why);
			continue;
		}
		if (clamped)
			res[i].flags |= RESULT_CLAMPED;
		unit_of(b, state[i], o, &t);
		res[i].counter = t.counter;
		res[i].unit = t.unit;
		res[i].hz = t.hz;
		res[i].samples = calloc((size_t)o->repetitions * o->samples,
					sizeof(*res[i].samples));
		if (!res[i].samples) {
			rc = -1;
			goto out;
		}
		order[runnable++] = i;
	}

	for (unsigned rep = 0; rep < o->repetitions && !stopped(o); rep++) {
		if (o->interleave)
			stats_shuffle(&rng, order, runnable);
		for (size_t k = 0; k < runnable && !stopped(o); k++) {
			size_t i = order[k];

			if (res[i].skipped)
				continue;
			if (o->progress)
				o->progress(o->progress_arg, ++done,
					    runnable * o->repetitions,
					    res[i].bench->name, rep);
			why[0] = '\0';
			if (take_samples(res[i].bench, state[i], o, &res[i],
					 rep, why, sizeof(why)) && !stopped(o))
				skip(&res[i], why);
		}
	}
	if (stopped(o))
		rc = 1;
out:
	for (size_t i = 0; i < r->count; i++) {
		if (set_up[i] && r->items[i]->teardown)
			r->items[i]->teardown(r->items[i], state[i]);
		finish(&res[i], o->seed + i);
	}
	free(set_up);
	free(state);
	free(order);
	return rc;
}

void run_results_free(struct run_results *results)
{
	for (size_t i = 0; i < results->count; i++)
		free(results->items[i].samples);
	free(results->items);
	results->items = NULL;
	results->count = 0;
}

void runner_format_value(char *buf, size_t len, double value,
			 const char *unit)
{
	static const char *const time_units[] = { "ns", "us", "ms", "s" };
	int k = 0;

	if (!isfinite(value)) {
		snprintf(buf, len, "-");
		return;
	}
	if (unit && !strcmp(unit, "ns")) {
		while (k < 3 && fabs(value) >= 1000) {
			value /= 1000;
			k++;
		}
		unit = time_units[k];
	}
	if (fabs(value) >= 100)
		snprintf(buf, len, "%.0f %s", value, unit);
	else if (fabs(value) >= 10)
		snprintf(buf, len, "%.1f %s", value, unit);
	else
		snprintf(buf, len, "%.2f %s", value, unit);
}
