// SPDX-License-Identifier: GPL-2.0
/*
 * derived.c - the tables a reader of one run wants first: what one
 * STAC/CLAC pair costs (inline - nopad), what batching saves per access,
 * and from which copy size on the pair is noise (< 1% of the copy).
 *
 * Every figure has one definition, here, which the cross-machine table
 * uses too: the two rows it subtracts ran next to each other in every
 * repetition (a group, measure/registry.h), so the figure is the mean
 * over the repetitions of their paired difference, with its t interval
 * (compare_within_run()).
 */
#include "analysis/derived.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_stats.h"
#include "analysis/run_select.h"
#include "analysis/text_table.h"
#include "measure/stats.h"
#include "suites/kmod/catalogue.h"

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

/* scale_b * b - scale_a * a, paired by repetition; NAN when it cannot be. */
static void within_run(const struct run_bench *a, double scale_a,
		       const struct run_bench *b, double scale_b,
		       double *value, double *low, double *high)
{
	struct stats_interval iv;

	*value = *low = *high = NAN;
	if (!a->count || !b->count ||
	    compare_within_run(a, scale_a, b, scale_b, &iv))
		return;
	*value = iv.estimate;
	*low = iv.low;
	*high = iv.high;
}

static int add_pair(struct derived *d, const struct run_bench *in,
		    const struct run_bench *nop)
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
	p->inline_center = in->center / per;
	p->nopad_center = nop->center / per;
	within_run(nop, 1 / per, in, 1 / per, &p->cost, &p->low, &p->high);
	return 0;
}

static int add_batch(struct derived *d, const struct run_bench *batched,
		     const struct run_bench *single)
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
	b->single = single->center / per_single;
	b->batched = batched->center / per_block;
	within_run(batched, 1 / per_block, single, 1 / per_single, &b->saving,
		   &b->low, &b->high);
	return 0;
}

/*
 * Size at which share(size) = pair cost / nopad falls for good under
 * CROSSOVER_SHARE: the smallest measured size from which on every share
 * is under it, interpolated in log(size) and log(share) with the size
 * before. min size when the first share is already under it, INFINITY
 * when the last is not.
 *
 * A share at or below 0 (a lower bound whose interval reaches zero) has
 * no log: the crossing is then the size before, as early as the measured
 * sizes allow. That is log(share) taken as -infinity there, so the point
 * and both bounds go through one increasing scale and keep their order:
 * the interval always holds its point (a linear scale for one curve and
 * a log scale for another would not).
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
	if (!(share[j] > 0))
		return (double)size[j - 1];
	t = (log(share[j - 1]) - log(CROSSOVER_SHARE)) /
	    (log(share[j - 1]) - log(share[j]));
	x0 = log2((double)size[j - 1]);
	x1 = log2((double)size[j]);
	return exp2(x0 + t * (x1 - x0));
}

/*
 * The crossover from the pair table's figures of one op, size by size:
 * its interval is the set of sizes whose share interval holds the
 * threshold, i.e. the crossovers of the lower and of the upper share
 * curve (the share falls with the size).
 */
static int add_crossover(struct derived *d, const struct run_dir *run,
			 const char *op)
{
	double share[64], low[64], high[64];
	unsigned long size[64];
	const struct run_bench *inl[64];
	size_t n = bench_sweep(run, "kmod", op, "inline", inl, 64), m = 0;
	struct derived_crossover *c, *nc;
	int with_ci = 1;

	/* the sizes with a nopad twin to compare with, ascending */
	for (size_t k = 0; k < n; k++) {
		const struct run_bench *nop = bench_sibling(run, inl[k], "nopad", 0);
		double cost, lo, hi;

		if (!nop || !(nop->center > 0))
			continue;
		within_run(nop, 1, inl[k], 1, &cost, &lo, &hi);
		if (isnan(cost))
			continue;
		share[m] = cost / nop->center;
		low[m] = lo / nop->center;
		high[m] = hi / nop->center;
		with_ci &= !isnan(lo);
		size[m++] = inl[k]->size;
	}
	if (m < 2)
		return 0;
	nc = realloc(d->crossovers, (d->crossover_count + 1) * sizeof(*nc));
	if (!nc)
		return -1;
	d->crossovers = nc;
	c = &d->crossovers[d->crossover_count++];
	c->op = inl[0]->op;
	c->min_size = size[0];
	c->max_size = size[m - 1];
	c->share_at_max = share[m - 1];
	c->size = crossover_of(share, size, m);
	c->low = with_ci ? crossover_of(low, size, m) : NAN;
	c->high = with_ci ? crossover_of(high, size, m) : NAN;
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
	size_t ncross = 0;

	memset(d, 0, sizeof(*d));
	d->unit = "";
	d->pair_center = d->pair_low = d->pair_high = NAN;
	if (pair) {
		/* a row of its own: its center and interval, as the run reads */
		d->unit = pair->unit;
		d->pair_center = pair->center;
		d->pair_low = pair->ci_low;
		d->pair_high = pair->ci_high;
	}
	for (size_t i = 0; i < run->count; i++) {
		const struct run_bench *b = &run->bench[i];
		const struct run_bench *s;

		if (strcmp(b->suite, "kmod"))
			continue;
		if (!*d->unit)
			d->unit = b->unit;
		if (!strcmp(b->variant, "inline") && !b->batch &&
		    (s = bench_sibling(run, b, "nopad", 0)) && add_pair(d, b, s))
			goto fail;
		if ((!strcmp(b->variant, "batched") || !strcmp(b->variant, "masked")) &&
		    b->batch &&
		    (s = bench_sibling(run, b, "kapi", 0)) && add_batch(d, b, s))
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
		if (add_crossover(d, run, crossover_ops[k]))
			goto fail;
	group_by_op(d->pairs, d->pair_count, sizeof(*d->pairs),
		    offsetof(struct derived_pair, op));
	group_by_op(d->batches, d->batch_count, sizeof(*d->batches),
		    offsetof(struct derived_batch, op));
	return 0;
fail:
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
	    isnan(d->pair_center))
		return;
	if (!markdown)
		fprintf(f, "\nSTAC/CLAC cost within %s (%s boot), %s, center [95%% CI over the repetitions]\n",
			run->label, state, unit);
	if (!isnan(d->pair_center))
		fprintf(f, "%sOne STAC;CLAC pair measured alone (kmod/pair): %s %s, CI %s.\n",
			markdown ? "\n" : "", format_number(a, sizeof(a), d->pair_center), unit,
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
				   format_number(a, sizeof(a), p->inline_center),
				   format_number(b, sizeof(b), p->nopad_center),
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
