// SPDX-License-Identifier: GPL-2.0
/* runner.c - sizing, repetitions, interleaving; see runner.h. */
#include "measure/runner.h"
#include "measure/runner_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

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

int runner_size_iterations(const struct benchmark *b, void *state,
			   const struct runner_options *o,
			   uint64_t *iterations, int *clamped, double *wall,
			   char *why, size_t whylen)
{
	double goal = o->min_time, seconds, start;
	uint64_t cap = o->max_iterations, n = 1;
	struct bench_sample s;

	if (b->max_iterations && b->max_iterations < cap)
		cap = b->max_iterations;
	if (b->max_sample_seconds > 0 && b->max_sample_seconds < goal)
		goal = b->max_sample_seconds;
	*clamped = 0;
	for (;;) {
		if (runner_stopped(o))
			return -1;
		start = runner_now();
		if (runner_sample(b, state, o, n, &s, &seconds, why, whylen))
			return -1;
		if (wall)
			*wall = runner_now() - start;
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

/* ------------------------------------------------------ schedule */

static int same_group(const struct benchmark *a, const struct benchmark *b)
{
	return a->group && b->group && !strcmp(a->group, b->group);
}

/*
 * A group's members in a balanced order: one random order for the run
 * (from its seed and the group), rotated by one place each repetition,
 * so that over m repetitions each member runs first once. A shuffle
 * each repetition leaves one member first more often than another by
 * chance, and with it whatever running first does (a cold cache, the
 * set-up's traces).
 */
static void balanced_order(uint64_t seed, size_t group, size_t repetition,
			   size_t *member, size_t m)
{
	size_t rotated[m ? m : 1];
	struct stats_rng base;

	stats_rng_seed(&base, seed ^ (0x9e3779b97f4a7c15ULL * (group + 1)));
	stats_shuffle(&base, member, m);
	for (size_t k = 0; k < m; k++)
		rotated[k] = member[(k + repetition) % m];
	memcpy(member, rotated, m * sizeof(*member));
}

size_t runner_schedule(const struct registry *r, const size_t *index,
		       size_t n, const struct runner_options *o,
		       struct stats_rng *rng, size_t repetition,
		       struct runner_segment *seg)
{
	size_t *unit = calloc(n ? n : 1, sizeof(*unit));	/* first member */
	size_t *order = calloc(n ? n : 1, sizeof(*order));
	size_t *member = calloc(n ? n : 1, sizeof(*member));
	size_t units = 0, count = 0;
	unsigned first_half = (o->samples + 1) / 2;

	if (!unit || !order || !member) {
		free(unit);
		free(order);
		free(member);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && !same_group(r->items[index[j]], r->items[index[i]]))
			j++;
		unit[i] = j < i ? unit[j] : i;
		if (unit[i] == i)
			order[units++] = i;
	}
	if (o->interleave)
		stats_shuffle(rng, order, units);
	for (size_t u = 0; u < units; u++) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++)
			if (unit[i] == order[u])
				member[m++] = index[i];
		if (m == 1) {
			seg[count++] = (struct runner_segment){
				member[0], o->warmup, o->samples, 0 };
			continue;
		}
		if (o->interleave)
			balanced_order(o->seed, index[order[u]], repetition, member, m);
		for (size_t k = 0; k < m; k++)
			seg[count++] = (struct runner_segment){
				member[k], o->warmup, first_half, 0 };
		if (o->samples == first_half)
			continue;
		/* backward: the middle one goes on, warm already */
		for (size_t k = m; k-- > 0;)
			seg[count++] = (struct runner_segment){
				member[k], k == m - 1 ? 0 : o->warmup,
				o->samples - first_half, first_half };
	}
	free(unit);
	free(order);
	free(member);
	return count;
}

/* ------------------------------------------------------ repetitions */

/*
 * One repetition in this process: each benchmark set up afresh at its
 * first stretch (in the repetition's order, so allocations differ too),
 * all torn down at the end. 0, or -1 on no memory.
 */
static int repetition_in_process(const struct runner_repetition *rep)
{
	const struct registry *r = rep->r;
	const struct runner_options *o = rep->o;
	void **state = calloc(r->count ? r->count : 1, sizeof(*state));
	unsigned char *set_up = calloc(r->count ? r->count : 1, 1);
	struct bench_sample *s = NULL;
	char why[256];
	int rc = 0;

	if (!state || !set_up)
		goto fail;
	for (size_t k = 0; k < rep->nseg && !runner_stopped(o); k++) {
		const struct runner_segment *seg = &rep->seg[k];
		const struct benchmark *b = r->items[seg->bench];
		struct result *res = &rep->res[seg->bench];
		struct bench_sample *grown;

		if (res->skipped)
			continue;
		why[0] = '\0';
		if (!set_up[seg->bench]) {
			if (b->setup && b->setup(b, &state[seg->bench], why,
						 sizeof(why))) {
				runner_skip(res, why);
				continue;
			}
			set_up[seg->bench] = 1;
		}
		grown = realloc(s, (seg->warmup + seg->count) * sizeof(*s));
		if (!grown)
			goto fail;
		s = grown;
		runner_show_progress(rep, seg);
		if (runner_collect(b, state[seg->bench], o, res->iterations,
			    seg->warmup + seg->count, s, why, sizeof(why))) {
			if (!runner_stopped(o))
				runner_skip(res, why);
			continue;
		}
		runner_store(res, seg, rep->index, s);
	}
	goto out;
fail:
	rc = -1;
out:
	for (size_t i = 0; set_up && i < r->count; i++)
		if (set_up[i] && r->items[i]->teardown)
			r->items[i]->teardown(r->items[i], state[i]);
	free(s);
	free(set_up);
	free(state);
	return rc;
}

/* ------------------------------------------------------ estimate */

/*
 * Before sizing, the estimate has only the arithmetic: samples of
 * min_time (a sized sample lasts min_time to 1.4 times it), about 2.5
 * samples' worth of sizing (x10 steps up to the last), and the costs of
 * a set-up, a stretch and a worker process, measured natively on a
 * 2-core KVM guest (Xeon, family 6 model 207) and under QEMU TCG for
 * the kmod suite (docs/harness.md, "The time budget"). Self-timed
 * benchmarks may take longer than the time they measure (the bpf rows
 * time only the program's loop): after sizing, the repetitions' time is
 * known from the sizing's own samples and set-ups instead.
 */
#define RUNNER_SIZING_SAMPLES	2.5
#define RUNNER_OVERSHOOT	1.2
#define RUNNER_SETUP_SECONDS	0.002
#define RUNNER_WORKER_SECONDS	0.15

/* What one sample of b lasts by the arithmetic: min_time, or its cap. */
static double sample_seconds(const struct benchmark *b,
			     const struct runner_options *o)
{
	if (b->max_sample_seconds > 0 && b->max_sample_seconds < o->min_time)
		return b->max_sample_seconds * RUNNER_OVERSHOOT;
	return o->min_time * RUNNER_OVERSHOOT;
}

/* A repetition's cost beyond its stretches: the worker, the set-ups. */
static double repetition_overhead(const struct runner_options *o,
				  const struct result *res, const size_t *index,
				  size_t n)
{
	double seconds = o->worker_argv ? RUNNER_WORKER_SECONDS : 0;

	for (size_t i = 0; i < n; i++)
		seconds += res[index[i]].setup_wall;
	return seconds;
}

double runner_estimate(const struct registry *r, const struct runner_options *o,
		       size_t *rows)
{
	size_t n = 0, nseg;
	size_t *index = calloc(r->count ? r->count : 1, sizeof(*index));
	struct runner_segment *seg = calloc(2 * (r->count ? r->count : 1),
					    sizeof(*seg));
	struct runner_options plain = *o;
	struct stats_rng rng;
	double seconds = 0;
	char why[256];

	*rows = 0;
	if (!index || !seg) {
		free(index);
		free(seg);
		return NAN;
	}
	for (size_t i = 0; i < r->count; i++) {
		const struct benchmark *b = r->items[i];

		if (b->valid && b->valid(b, why, sizeof(why)))
			continue;
		index[n++] = i;
		seconds += RUNNER_SIZING_SAMPLES * sample_seconds(b, o) +
			   RUNNER_SETUP_SECONDS;
	}
	/* the order does not change the sum */
	plain.interleave = 0;
	stats_rng_seed(&rng, 1);
	nseg = runner_schedule(r, index, n, &plain, &rng, 0, seg);
	for (size_t k = 0; k < nseg; k++)
		seconds += o->repetitions *
			   ((seg[k].warmup + seg[k].count) *
			    sample_seconds(r->items[seg[k].bench], o) +
			    RUNNER_STRETCH_SECONDS);
	seconds += o->repetitions *
		   ((o->worker_argv ? RUNNER_WORKER_SECONDS : 0) +
		    (double)n * RUNNER_SETUP_SECONDS);
	free(index);
	free(seg);
	*rows = n;
	return seconds;
}

/* ------------------------------------------------------ results */

int result_noisy(const struct stats_summary *s)
{
	/* MAD 0 (most samples equal) is never noisy, whatever the median */
	return s->n > 0 && s->mad > RESULT_NOISY_MAD_SHARE * fabs(s->median);
}

static void finish(struct result *res)
{
	double *v, *medians;
	size_t reps = 0;

	if (res->skipped || !res->nsamples)
		return;
	v = malloc(res->nsamples * sizeof(*v));
	medians = malloc(res->nsamples * sizeof(*medians));
	if (!v || !medians) {
		free(v);
		free(medians);
		return;
	}
	for (size_t i = 0; i < res->nsamples; i++)
		v[i] = res->samples[i].value;
	stats_summarize(v, res->nsamples, &res->stats);
	/* the samples are stored repetition by repetition */
	for (size_t i = 0, start = 0; i <= res->nsamples; i++) {
		if (i < res->nsamples && (i == start ||
		    res->samples[i].repetition == res->samples[start].repetition))
			continue;
		medians[reps++] = stats_median(v + start, i - start);
		start = i;
	}
	res->repetitions = (unsigned)reps;
	stats_mean_interval(medians, reps, STATS_CI_LEVEL, &res->center);
	free(v);
	free(medians);
	res->median_ns = res->hz > 0 ? res->stats.median * 1e9 / res->hz : NAN;
	if (result_noisy(&res->stats))
		res->flags |= RESULT_NOISY;
	if ((double)res->preempted > RESULT_PREEMPTED_SHARE * (double)res->nsamples)
		res->flags |= RESULT_PREEMPTED;
}

size_t runner_keep_whole_repetitions(struct run_results *results,
				     unsigned samples)
{
	size_t kept_rows = 0;

	for (size_t i = 0; i < results->count; i++) {
		struct result *res = &results->items[i];
		size_t kept = 0;

		if (res->skipped)
			continue;
		/* stored repetition by repetition: runs of one index */
		for (size_t start = 0, end; start < res->nsamples; start = end) {
			end = start;
			while (end < res->nsamples &&
			       res->samples[end].repetition ==
			       res->samples[start].repetition)
				end++;
			if (end - start != samples)
				continue;
			memmove(&res->samples[kept], &res->samples[start],
				(end - start) * sizeof(*res->samples));
			kept += end - start;
		}
		res->nsamples = kept;
		/* the dropped ones may have counted; no more than are kept */
		if (res->preempted > kept)
			res->preempted = kept;
		if (!kept)
			runner_skip(res, "interrupted");
		else
			kept_rows++;
	}
	return kept_rows;
}

/*
 * Validity, setup and iteration sizing (which warms up too), each
 * benchmark torn down again: the repetitions set up their own. Fills
 * index with the runnable ones. Returns their count, or -1 on no memory.
 */
static ssize_t size_all(const struct registry *r,
			const struct runner_options *o, struct result *res,
			size_t *index)
{
	size_t runnable = 0;
	char why[256];

	for (size_t i = 0; i < r->count; i++) {
		const struct benchmark *b = r->items[i];
		struct bench_timer t;
		void *state = NULL;
		int clamped, failed;
		double start = runner_now(), sizing;

		res[i].bench = b;
		res[i].index = i;
		why[0] = '\0';
		if (b->valid && b->valid(b, why, sizeof(why))) {
			runner_skip(&res[i], why);
			continue;
		}
		if (runner_stopped(o)) {
			runner_skip(&res[i], "interrupted");
			continue;
		}
		if (b->setup && b->setup(b, &state, why, sizeof(why))) {
			runner_skip(&res[i], why);
			continue;
		}
		if (o->progress) {
			struct runner_progress p = {
				.event = RUNNER_SIZING, .name = b->name,
				.done = i, .total = r->count, .seconds_left = NAN,
			};

			o->progress(o->progress_arg, &p);
		}
		sizing = runner_now();
		failed = runner_size_iterations(b, state, o, &res[i].iterations,
						&clamped, &res[i].sample_wall,
						why, sizeof(why));
		sizing = runner_now() - sizing;
		if (!failed)
			runner_unit_of(b, state, o, &t);
		if (b->teardown)
			b->teardown(b, state);
		res[i].setup_wall = runner_now() - start - sizing;
		if (failed) {
			runner_skip(&res[i], runner_stopped(o) ? "interrupted" : why);
			continue;
		}
		if (clamped)
			res[i].flags |= RESULT_CLAMPED;
		res[i].counter = t.counter;
		res[i].unit = t.unit;
		res[i].hz = t.hz;
		res[i].samples = calloc((size_t)o->repetitions * o->samples,
					sizeof(*res[i].samples));
		if (!res[i].samples)
			return -1;
		index[runnable++] = i;
	}
	return (ssize_t)runnable;
}

int runner_run(const struct registry *r, const struct runner_options *o,
	       struct run_results *out)
{
	size_t cap = r->count ? r->count : 1;
	struct result *res = calloc(cap, sizeof(*res));
	size_t *all = calloc(cap, sizeof(*all));
	size_t *index = calloc(cap, sizeof(*index));
	struct runner_segment *seg = calloc(2 * cap, sizeof(*seg));
	struct runner_eta eta = { 0 };
	ssize_t runnable;
	struct stats_rng rng;
	int rc = 0;

	out->items = res;
	out->count = r->count;
	if (!res || !all || !index || !seg) {
		rc = -1;
		goto out;
	}
	stats_rng_seed(&rng, o->seed);
	runnable = size_all(r, o, res, all);
	if (runnable < 0) {
		rc = -1;
		goto out;
	}
	/* progress counts stretches: a group's members run twice */
	eta.total = runner_schedule(r, all, (size_t)runnable, o, &rng, 0, seg);
	for (size_t k = 0; k < eta.total; k++)
		eta.expected_total += runner_stretch_seconds(&res[seg[k].bench],
							     &seg[k]);
	eta.expected_total = o->repetitions *
			     (eta.expected_total +
			      repetition_overhead(o, res, all, (size_t)runnable));
	eta.total *= o->repetitions;
	eta.start = runner_now();
	if (o->progress) {
		struct runner_progress p = {
			.event = RUNNER_SIZED, .name = "",
			.total = eta.total, .seconds_left = eta.expected_total,
		};

		o->progress(o->progress_arg, &p);
	}
	stats_rng_seed(&rng, o->seed);
	for (unsigned k = 0; k < o->repetitions && !runner_stopped(o); k++) {
		size_t n = 0;

		for (ssize_t i = 0; i < runnable; i++)
			if (!res[all[i]].skipped)
				index[n++] = all[i];
		struct runner_repetition rep = {
			.r = r, .o = o, .res = res, .seg = seg, .index = k,
			.eta = &eta,
			.nseg = runner_schedule(r, index, n, o, &rng, k, seg),
		};

		if (n && !rep.nseg) {
			rc = -1;
			break;
		}
		rc = o->worker_argv ? runner_repetition_in_worker(&rep)
				    : repetition_in_process(&rep);
		if (rc)
			break;
		eta.expected_done += repetition_overhead(o, res, index, n);
	}
	if (!rc && runner_stopped(o)) {
		runner_keep_whole_repetitions(out, o->samples);
		rc = 1;
	}
out:
	for (size_t i = 0; res && i < r->count; i++)
		finish(&res[i]);
	free(all);
	free(index);
	free(seg);
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
