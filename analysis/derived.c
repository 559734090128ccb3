// SPDX-License-Identifier: GPL-2.0
/*
 * derived.c - the tables a reader of one run wants first: what one
 * STAC/CLAC pair costs (inline - nopad), what batching saves per access,
 * and from which copy size on the pair is noise (< 1% of the copy).
 * Every figure carries a bootstrap CI over the raw samples.
 */
#include "analysis/derived.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/parallel.h"
#include "analysis/run_select.h"
#include "analysis/text_table.h"
#include "measure/stats.h"
#include "suites/kmod/catalogue.h"

#define DERIVED_SEED		COMPARE_DEFAULT_SEED
#define DERIVED_LEVEL		0.95

/* ------------------------------------------------------ derived tables */

static int usable(const struct run_bench *b)
{
	return b && b->count >= COMPARE_MIN_VALUES;
}

/*
 * A bootstrap interval of scale_b * median(b) - scale_a * median(a) for
 * a row of the tables: collected first, computed in parallel at the end
 * (each has its own seed, so the order does not matter).
 */
/* The copy sizes of one op, for the crossover's interval. */
struct crossover_sweep {
	const struct run_bench *in[64], *nop[64];
	unsigned long size[64];
	size_t n;
};

enum ci_table { CI_PAIRS, CI_BATCHES, CI_CROSSOVERS };

struct ci_job {
	const struct run_bench *a, *b;
	double scale_a, scale_b;
	struct crossover_sweep *sweep;	/* CI_CROSSOVERS: instead of a, b */
	enum ci_table table;
	size_t row;		/* of that table in struct derived */
	double *low, *high;	/* set once the rows stop moving */
};

struct ci_jobs {
	struct ci_job *job;
	size_t count;
};

static int defer_ci(struct ci_jobs *jobs, const struct run_bench *a,
		    double scale_a, const struct run_bench *b, double scale_b,
		    enum ci_table table, size_t row)
{
	struct ci_job *nj;

	if (!usable(a) || !usable(b))
		return 0;
	nj = realloc(jobs->job, (jobs->count + 1) * sizeof(*nj));
	if (!nj)
		return -1;
	jobs->job = nj;
	nj[jobs->count++] = (struct ci_job){ a, b, scale_a, scale_b, NULL, table,
					     row, NULL, NULL };
	return 0;
}

static void free_jobs(struct ci_jobs *jobs)
{
	for (size_t i = 0; i < jobs->count; i++)
		free(jobs->job[i].sweep);
	free(jobs->job);
}

static int crossover_ci(const struct crossover_sweep *s, double *low,
			double *high);

static int run_ci_job(void *arg, size_t i)
{
	const struct ci_job *j = &((struct ci_jobs *)arg)->job[i];

	if (j->sweep)
		return crossover_ci(j->sweep, j->low, j->high);
	return compare_bootstrap_diff(j->a->values, j->a->count, j->scale_a,
				      j->b->values, j->b->count, j->scale_b,
				      DERIVED_RESAMPLES, DERIVED_LEVEL,
				      DERIVED_SEED, j->low, j->high);
}

static size_t ci_job_weight(void *arg, size_t i)
{
	const struct ci_job *j = &((struct ci_jobs *)arg)->job[i];
	size_t values = 0;

	if (!j->sweep)
		return j->a->count + j->b->count;
	for (size_t k = 0; k < j->sweep->n; k++)
		values += j->sweep->in[k]->count + j->sweep->nop[k]->count;
	return values * CROSSOVER_RESAMPLES / DERIVED_RESAMPLES;
}

/*
 * User accesses in one iteration of a kmod row, as the catalogue says: a
 * sigframe iteration writes all its fields, a batched or masked one a
 * block of batch items. 0 for an op or variant it does not know (a run
 * of another version): no per-access figure then.
 */
static double accesses_of(const struct run_bench *b)
{
	return (double)kmod_row_accesses(b->op, b->variant, b->batch);
}

/*
 * An op whose sizes run free up to the module's largest (copies, clear):
 * the crossover table follows it. Words (power-of-two sizes up to 8) and
 * fixed units are no size sweep.
 */
static int is_bulk(const char *name)
{
	int op = kmod_op_find(name);

	return op >= 0 && kmod_ops[op].min_size < kmod_ops[op].max_size &&
	       !(kmod_ops[op].flags & SMAPBENCH_OPF_POW2);
}

static int add_pair(struct derived *d, const struct run_bench *in,
		    const struct run_bench *nop, struct ci_jobs *jobs)
{
	double per = accesses_of(in);
	struct derived_pair *p, *np;

	if (!(per > 0) || accesses_of(nop) != per)
		return 0;
	np = realloc(d->pairs, (d->pair_count + 1) * sizeof(*np));
	if (!np)
		return -1;
	d->pairs = np;
	p = &d->pairs[d->pair_count++];

	p->op = in->op;
	p->size = in->size;
	p->inline_median = in->median / per;
	p->nopad_median = nop->median / per;
	p->cost = p->inline_median - p->nopad_median;
	p->low = p->high = NAN;
	return defer_ci(jobs, nop, 1 / per, in, 1 / per, CI_PAIRS, d->pair_count - 1);
}

static int add_batch(struct derived *d, const struct run_bench *batched,
		     const struct run_bench *single, struct ci_jobs *jobs)
{
	double per_single = accesses_of(single), per_block = accesses_of(batched);
	struct derived_batch *b, *nb;

	if (!(per_single > 0) || !(per_block > 0))
		return 0;
	nb = realloc(d->batches, (d->batch_count + 1) * sizeof(*nb));
	if (!nb)
		return -1;
	d->batches = nb;
	b = &d->batches[d->batch_count++];
	b->op = batched->op;
	b->variant = batched->variant;
	b->size = batched->size;
	b->batch = batched->batch;
	b->per_pair = (unsigned long)per_block;
	b->single = single->median / per_single;
	b->batched = batched->median / per_block;
	b->saving = b->single - b->batched;
	b->low = b->high = NAN;
	return defer_ci(jobs, batched, 1 / per_block, single,
			1.0 / per_single, CI_BATCHES, d->batch_count - 1);
}

/*
 * Size at which share(size) = (inline - nopad) / nopad falls for good
 * under CROSSOVER_SHARE: the smallest measured size from which on every
 * share is under it, interpolated in log(size) and log(share) with the
 * size before. min size when the first share is already under it,
 * INFINITY when the last is not.
 */
static double crossover_of(const double *share, const unsigned long *size,
			   size_t n)
{
	size_t j = n;
	double t, x0, x1;

	while (j > 0 && share[j - 1] < CROSSOVER_SHARE)
		j--;
	if (j == n)
		return INFINITY;
	if (j == 0)
		return (double)size[0];
	/* share[j - 1] >= threshold > share[j] */
	if (share[j] > 0)
		t = (log(share[j - 1]) - log(CROSSOVER_SHARE)) /
		    (log(share[j - 1]) - log(share[j]));
	else
		t = (share[j - 1] - CROSSOVER_SHARE) / (share[j - 1] - share[j]);
	x0 = log2((double)size[j - 1]);
	x1 = log2((double)size[j]);
	return exp2(x0 + t * (x1 - x0));
}

/* Type 7 quantile that keeps infinities infinite. */
static double quantile_inf(const double *sorted, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h), hi = lo + 1 < n ? lo + 1 : lo;

	if (isinf(sorted[lo]) || isinf(sorted[hi]))
		return h - (double)lo > 0 || isinf(sorted[lo]) ? INFINITY
							       : sorted[lo];
	return sorted[lo] + (h - (double)lo) * (sorted[hi] - sorted[lo]);
}

/* The crossover's bootstrap interval: every size resampled together. */
static int crossover_ci(const struct crossover_sweep *s, double *low,
			double *high)
{
	struct stats_resampler *draws = calloc(2 * s->n, sizeof(*draws));
	double *reps = malloc(CROSSOVER_RESAMPLES * sizeof(*reps));
	struct stats_rng rng;
	int rc = -1;

	for (size_t k = 0; draws && k < s->n; k++)
		if (stats_resampler_init(&draws[2 * k], s->in[k]->values,
					 s->in[k]->count) ||
		    stats_resampler_init(&draws[2 * k + 1], s->nop[k]->values,
					 s->nop[k]->count))
			goto fail;
	if (!reps || !draws)
		goto fail;
	stats_rng_seed(&rng, DERIVED_SEED);
	for (unsigned r = 0; r < CROSSOVER_RESAMPLES; r++) {
		double rs[64];

		for (size_t k = 0; k < s->n; k++) {
			double mi = stats_resampler_median(&draws[2 * k], &rng);
			double mn = stats_resampler_median(&draws[2 * k + 1], &rng);

			rs[k] = (mi - mn) / mn;
		}
		reps[r] = crossover_of(rs, s->size, s->n);
	}
	stats_sort(reps, CROSSOVER_RESAMPLES);
	*low = quantile_inf(reps, CROSSOVER_RESAMPLES, (1 - DERIVED_LEVEL) / 2);
	*high = quantile_inf(reps, CROSSOVER_RESAMPLES,
			     1 - (1 - DERIVED_LEVEL) / 2);
	rc = 0;
fail:
	for (size_t k = 0; draws && k < 2 * s->n; k++)
		stats_resampler_free(&draws[k]);
	free(draws);
	free(reps);
	return rc;
}

static int add_crossover(struct derived *d, const struct run_dir *run,
			 const char *op, struct ci_jobs *jobs)
{
	struct crossover_sweep s = { .n = 0 }, *kept;
	double share[64];
	struct derived_crossover *c, *nc;
	int with_ci = 1;

	const struct run_bench *inl[64];
	size_t n = bench_sweep(run, "kmod", op, "inline", inl, 64);

	/* the sizes with a nopad twin to compare with, ascending */
	for (size_t k = 0; k < n; k++) {
		const struct run_bench *nop = bench_sibling(run, inl[k], "nopad", 0);

		if (!nop || !(nop->median > 0))
			continue;
		s.in[s.n] = inl[k];
		s.nop[s.n] = nop;
		s.size[s.n++] = inl[k]->size;
	}
	if (s.n < 2)
		return 0;
	nc = realloc(d->crossovers, (d->crossover_count + 1) * sizeof(*nc));
	if (!nc)
		return -1;
	d->crossovers = nc;
	c = &d->crossovers[d->crossover_count++];
	c->op = s.in[0]->op;
	c->min_size = s.size[0];
	c->max_size = s.size[s.n - 1];
	for (size_t k = 0; k < s.n; k++) {
		share[k] = (s.in[k]->median - s.nop[k]->median) / s.nop[k]->median;
		with_ci &= usable(s.in[k]) && usable(s.nop[k]);
	}
	c->share_at_max = share[s.n - 1];
	c->size = crossover_of(share, s.size, s.n);
	c->low = c->high = NAN;
	if (!with_ci)
		return 0;
	/* the interval is computed with the others, in parallel */
	kept = malloc(sizeof(*kept));
	if (!kept || defer_ci(jobs, s.in[0], 1, s.nop[0], 1, CI_CROSSOVERS,
			      d->crossover_count - 1)) {
		free(kept);
		return -1;
	}
	*kept = s;
	jobs->job[jobs->count - 1].sweep = kept;
	return 0;
}

/*
 * Rows come in the run's order, which may interleave ops (sizes of
 * copy_to_user and copy_from_user alternate): group them by op, in order
 * of first appearance, keeping the order within an op (stable). rows
 * holds n rows of size bytes, each with its op name at op_offset.
 */
static void group_by_op(void *rows, size_t n, size_t size, size_t op_offset)
{
	char *row = rows, *held = malloc(size);
	size_t *rank = malloc((n ? n : 1) * sizeof(*rank));

	if (!held || !rank)
		goto out;
#define OP_OF(i) (*(const char *const *)(row + (i) * size + op_offset))
	for (size_t i = 0; i < n; i++)
		for (rank[i] = 0; strcmp(OP_OF(rank[i]), OP_OF(i)); rank[i]++)
			;
#undef OP_OF
	/* insertion by rank: rank[] moves with its row */
	for (size_t i = 1; i < n; i++) {
		size_t r = rank[i], j = i;

		memcpy(held, row + i * size, size);
		while (j > 0 && rank[j - 1] > r) {
			memcpy(row + j * size, row + (j - 1) * size, size);
			rank[j] = rank[j - 1];
			j--;
		}
		memcpy(row + j * size, held, size);
		rank[j] = r;
	}
out:
	free(held);
	free(rank);
}

int derived_compute(const struct run_dir *run, struct derived *d)
{
	/* the bare STAC;CLAC pair, timed alone */
	const struct bench_key pair_key = {
		"kmod", kmod_ops[SMAPBENCH_OP_PAIR].name,
		kmod_variant_name(SMAPBENCH_VARIANT_NONE), 0, 0
	};
	const struct run_bench *pair = bench_match(run, &pair_key);
	const char *crossover_ops[16];
	struct ci_jobs jobs = { NULL, 0 };
	size_t ncross = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	d->unit = "";
	d->pair_median = d->pair_low = d->pair_high = NAN;
	if (pair) {
		d->unit = pair->unit;
		d->pair_median = pair->median;
		d->pair_low = pair->ci_low;
		d->pair_high = pair->ci_high;
		/* the run's own CI when it has one, so a report agrees with itself */
		if (usable(pair) && (isnan(d->pair_low) || isnan(d->pair_high)))
			stats_bootstrap_median_ci(pair->values, pair->count,
						  DERIVED_RESAMPLES,
						  DERIVED_LEVEL, DERIVED_SEED,
						  &d->pair_low, &d->pair_high);
	}
	for (size_t i = 0; i < run->count; i++) {
		const struct run_bench *b = &run->bench[i];
		const struct run_bench *s;

		if (strcmp(b->suite, "kmod"))
			continue;
		if (!*d->unit)
			d->unit = b->unit;
		if (!strcmp(b->variant, "inline") && !b->batch &&
		    (s = bench_sibling(run, b, "nopad", 0)) && add_pair(d, b, s, &jobs))
			goto fail;
		if ((!strcmp(b->variant, "batched") || !strcmp(b->variant, "masked")) &&
		    b->batch &&
		    (s = bench_sibling(run, b, "kapi", 0)) && add_batch(d, b, s, &jobs))
			goto fail;
		if (!strcmp(b->variant, "inline") && !b->batch && b->size &&
		    is_bulk(b->op)) {
			size_t k;

			for (k = 0; k < ncross; k++)
				if (!strcmp(crossover_ops[k], b->op))
					break;
			if (k == ncross && ncross < 16)
				crossover_ops[ncross++] = b->op;
		}
	}
	for (size_t k = 0; k < ncross; k++)
		if (add_crossover(d, run, crossover_ops[k], &jobs))
			goto fail;
	for (size_t i = 0; i < jobs.count; i++) {
		struct ci_job *j = &jobs.job[i];

		if (j->table == CI_PAIRS) {
			j->low = &d->pairs[j->row].low;
			j->high = &d->pairs[j->row].high;
		} else if (j->table == CI_BATCHES) {
			j->low = &d->batches[j->row].low;
			j->high = &d->batches[j->row].high;
		} else {
			j->low = &d->crossovers[j->row].low;
			j->high = &d->crossovers[j->row].high;
		}
	}
	rc = parallel_for(&(struct parallel_jobs){
			  .count = jobs.count, .run = run_ci_job,
			  .weight = ci_job_weight, .arg = &jobs }, 0);
	if (rc)
		goto fail;
	free_jobs(&jobs);
	group_by_op(d->pairs, d->pair_count, sizeof(*d->pairs),
		    offsetof(struct derived_pair, op));
	group_by_op(d->batches, d->batch_count, sizeof(*d->batches),
		    offsetof(struct derived_batch, op));
	return 0;
fail:
	free_jobs(&jobs);
	derived_free(d);
	return -1;
}

void derived_free(struct derived *d)
{
	free(d->pairs);
	free(d->batches);
	free(d->crossovers);
	memset(d, 0, sizeof(*d));
}

static const char *fmt_size(char *buf, size_t len, double size,
			    unsigned long min_size, unsigned long max_size)
{
	if (isnan(size))
		snprintf(buf, len, "-");
	else if (isinf(size))
		snprintf(buf, len, "> %lu", max_size);
	else if (size <= (double)min_size)
		snprintf(buf, len, "<= %lu", min_size);
	else
		snprintf(buf, len, "%.0f", size);
	return buf;
}

static void heading(FILE *f, int markdown, const char *text)
{
	if (markdown)
		fprintf(f, "\n### %s\n\n", text);
	else
		fprintf(f, "\n%s\n", text);
}

void derived_print(FILE *f, const struct run_dir *run,
		   const struct derived *d, int markdown)
{
	char a[48], b[48], c[48], e[64], g[48], h[48];
	struct text_table t;
	const char *state = rundir_context_or(run, "smap_state", "unknown");
	const char *unit = d->unit && *d->unit ? d->unit : "?";

	if (!d->pair_count && !d->batch_count && !d->crossover_count &&
	    isnan(d->pair_median))
		return;
	if (!markdown)
		fprintf(f, "\nSTAC/CLAC cost within %s (%s boot), %s, median [95%% CI]\n",
			run->label, state, unit);
	if (!isnan(d->pair_median))
		fprintf(f, "%sOne STAC;CLAC pair measured alone (kmod/pair): %s %s, CI %s.\n",
			markdown ? "\n" : "", format_number(a, sizeof(a), d->pair_median), unit,
			format_interval(e, sizeof(e), d->pair_low, d->pair_high));

	if (d->pair_count) {
		heading(f, markdown, "Cost of one STAC/CLAC pair per access "
			"(inline - nopad; sigframe: per field)");
		text_table_init(&t, 6, "lrrrrr");
		text_table_add(&t, (const char *const[]){ "op", "size", "inline",
			   "nopad", "pair cost", "95% CI" });
		for (size_t i = 0; i < d->pair_count; i++) {
			const struct derived_pair *p = &d->pairs[i];
			char sz[24];

			snprintf(sz, sizeof(sz), "%lu", p->size);
			text_table_add(&t, (const char *const[]){ p->op, sz,
				   format_number(a, sizeof(a), p->inline_median),
				   format_number(b, sizeof(b), p->nopad_median),
				   format_number(c, sizeof(c), p->cost),
				   format_interval(e, sizeof(e), p->low, p->high) });
		}
		text_table_print(f, &t, markdown);
		text_table_free(&t);
	}
	if (d->batch_count) {
		heading(f, markdown, "Per-access pair (kapi) against one pair per "
			"batch of K accesses (sigframe: K counts fields, one frame "
			"per block), cost per access");
		text_table_init(&t, 8, "llrrrrrr");
		text_table_add(&t, (const char *const[]){ "op", "variant", "size", "K",
			   "per access", "batched", "saving", "95% CI" });
		for (size_t i = 0; i < d->batch_count; i++) {
			const struct derived_batch *x = &d->batches[i];
			char sz[24], k[24];

			snprintf(sz, sizeof(sz), "%lu", x->size);
			snprintf(k, sizeof(k), "%lu", x->per_pair);
			text_table_add(&t, (const char *const[]){ x->op, x->variant, sz, k,
				   format_number(a, sizeof(a), x->single),
				   format_number(b, sizeof(b), x->batched),
				   format_number(c, sizeof(c), x->saving),
				   format_interval(e, sizeof(e), x->low, x->high) });
		}
		text_table_print(f, &t, markdown);
		text_table_free(&t);
	}
	if (d->crossover_count) {
		heading(f, markdown, "Copy size above which the pair costs under 1% of the copy");
		text_table_init(&t, 5, "lrrrr");
		text_table_add(&t, (const char *const[]){ "op", "sizes measured",
			   "bytes", "95% CI", "share at largest" });
		for (size_t i = 0; i < d->crossover_count; i++) {
			const struct derived_crossover *x = &d->crossovers[i];
			char range[48], ci[96], share[32];

			snprintf(range, sizeof(range), "%lu..%lu", x->min_size,
				 x->max_size);
			if (isnan(x->low))
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "[%s, %s]",
					 fmt_size(g, sizeof(g), x->low, x->min_size, x->max_size),
					 fmt_size(h, sizeof(h), x->high, x->min_size, x->max_size));
			snprintf(share, sizeof(share), "%.2f%%", 100 * x->share_at_max);
			text_table_add(&t, (const char *const[]){ x->op, range,
				   fmt_size(a, sizeof(a), x->size, x->min_size, x->max_size),
				   ci, share });
		}
		text_table_print(f, &t, markdown);
		text_table_free(&t);
	}
}
