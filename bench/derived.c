// SPDX-License-Identifier: GPL-2.0
/*
 * derived.c - the tables a reader of one run wants first: what one
 * STAC/CLAC pair costs (inline - nopad), what batching saves per access,
 * and from which copy size on the pair is noise (< 1% of the copy).
 * Every figure carries a bootstrap CI over the raw samples.
 * Also the small text helpers compare, plot and report share.
 */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kmod_catalogue.h"
#include "parallel.h"
#include "registry.h"
#include "stats.h"
#include "suite.h"

#define DERIVED_SEED		COMPARE_DEFAULT_SEED
#define DERIVED_LEVEL		0.95
#define CROSSOVER_RESAMPLES	1000

/* ------------------------------------------------------------ tables */

void atable_init(struct atable *t, unsigned columns, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->columns = columns;
	t->align = align;
}

int atable_add(struct atable *t, const char *const *cells)
{
	if (t->rows == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		char **nc = realloc(t->cells, ncap * t->columns * sizeof(*nc));

		if (!nc)
			return -1;
		t->cells = nc;
		t->cap = ncap;
	}
	for (unsigned c = 0; c < t->columns; c++) {
		t->cells[t->rows * t->columns + c] = strdup(cells[c] ? cells[c] : "");
		if (!t->cells[t->rows * t->columns + c])
			return -1;
	}
	t->rows++;
	return 0;
}

static char column_align(const struct atable *t, unsigned c)
{
	if (t->align && c < strlen(t->align))
		return t->align[c];
	return c == 0 ? 'l' : 'r';
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t text_width(const char *s, int markdown)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w += 1 + (markdown && *s == '|');
	return w;
}

/* A Markdown cell: '|' escaped, line breaks as spaces, or a row breaks. */
static void put_cell(FILE *f, const char *cell, int markdown)
{
	if (!markdown) {
		fputs(cell, f);
		return;
	}
	for (; *cell; cell++) {
		if (*cell == '|')
			fputc('\\', f);
		fputc(*cell == '\n' || *cell == '\r' ? ' ' : *cell, f);
	}
}

void atable_print(FILE *f, const struct atable *t, int markdown)
{
	size_t *width = calloc(t->columns, sizeof(*width));

	if (!width || !t->rows) {
		free(width);
		return;
	}
	for (size_t r = 0; r < t->rows; r++)
		for (unsigned c = 0; c < t->columns; c++) {
			size_t w = text_width(t->cells[r * t->columns + c], markdown);

			if (w > width[c])
				width[c] = w;
		}
	for (size_t r = 0; r < t->rows; r++) {
		for (unsigned c = 0; c < t->columns; c++) {
			const char *cell = t->cells[r * t->columns + c];
			int pad = (int)(width[c] - text_width(cell, markdown));
			int right = column_align(t, c) == 'r';

			if (markdown)
				fputs("| ", f);
			else if (c)
				fputs("  ", f);
			if (right)
				fprintf(f, "%*s", pad, "");
			put_cell(f, cell, markdown);
			if (!right && (markdown || c + 1 < t->columns))
				fprintf(f, "%*s", pad, "");
			if (markdown)
				fputc(' ', f);
		}
		fputs(markdown ? "|\n" : "\n", f);
		if (r == 0 && markdown) {
			for (unsigned c = 0; c < t->columns; c++) {
				fputs("| ", f);
				for (size_t i = 1; i < width[c]; i++)
					fputc('-', f);
				fputs(column_align(t, c) == 'r' ? ": " : "- ", f);
			}
			fputs("|\n", f);
		}
	}
	free(width);
}

void atable_free(struct atable *t)
{
	for (size_t i = 0; i < t->rows * t->columns; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

const char *fmt_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, v > 0 ? "inf" : "-inf");
	else if (a >= 1e6 || (a > 0 && a < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
	return buf;
}

const char *fmt_ci(char *buf, size_t len, double low, double high)
{
	char lo[32], hi[32];

	if (isnan(low) || isnan(high))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%s, %s]", fmt_num(lo, sizeof(lo), low),
			 fmt_num(hi, sizeof(hi), high));
	return buf;
}

const char *fmt_pct(char *buf, size_t len, double fraction)
{
	double pct = 100 * fraction;

	if (isnan(pct))
		snprintf(buf, len, "-");
	else if (fabs(pct) >= 1e5)	/* a near-zero A: no 300-digit number */
		snprintf(buf, len, "%+.3g%%", pct);
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}

/* ------------------------------------------------------ derived tables */

/*
 * The headline: the rows the families mark (struct benchmark's headline;
 * kmod's from the catalogue), kmod first, then syscall, then bpf, each
 * in its registration order. Built once.
 */
static int suite_rank(const char *suite)
{
	static const char *const order[] = { "kmod", "syscall", "bpf" };
	int i;

	for (i = 0; i < 3 && strcmp(suite, order[i]); i++)
		;
	return i;
}

const struct bench_key *headline_benchmarks(void)
{
	static struct bench_key *keys;
	static const struct bench_key none = { NULL, NULL, NULL, 0, 0 };
	struct registry reg = { 0 };
	size_t n = 0;

	if (keys)
		return keys;
	if (suite_register_all(&reg) ||
	    !(keys = calloc(reg.count + 1, sizeof(*keys)))) {
		registry_free(&reg);
		return &none;
	}
	for (int rank = 0; rank <= 3; rank++)
		for (size_t i = 0; i < reg.count; i++) {
			const struct benchmark *b = reg.items[i];

			if (b->headline && suite_rank(b->suite) == rank)
				keys[n++] = (struct bench_key){ b->suite, b->op,
								b->variant, b->size,
								b->batch };
		}
	registry_free(&reg);
	return keys;
}

/* The headline rows of run, as run-bench.sh shows them after a run. */
void headline_print(FILE *f, const struct run_dir *run)
{
	const struct bench_key *k = headline_benchmarks();

	for (; k->suite; k++) {
		const struct run_bench *b = bench_match(run, k);
		double per_ns;

		if (!b)
			continue;
		/* the median's ns/unit factor converts the interval too */
		per_ns = b->median > 0 ? b->median_ns / b->median : NAN;
		fprintf(f, "  %-36s %9.1f ns  [%.1f .. %.1f]  %s\n", b->name,
			b->median_ns, b->ci_low * per_ns, b->ci_high * per_ns,
			b->flags);
	}
}

int bench_is(const struct run_bench *b, const struct bench_key *k)
{
	return !strcmp(b->suite, k->suite) && !strcmp(b->op, k->op) &&
	       !strcmp(b->variant, k->variant) && b->size == k->size &&
	       b->batch == k->batch;
}

const struct run_bench *bench_match(const struct run_dir *run,
				    const struct bench_key *k)
{
	for (size_t i = 0; i < run->count; i++)
		if (bench_is(&run->bench[i], k))
			return &run->bench[i];
	return NULL;
}

/* The benchmark of the same op and size in another variant. */
static const struct run_bench *sibling(const struct run_dir *run,
				       const struct run_bench *b,
				       const char *variant, unsigned long batch)
{
	const struct bench_key k = { b->suite, b->op, variant, b->size, batch };

	return bench_match(run, &k);
}

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
				      STATS_BOOTSTRAP_RESAMPLES, DERIVED_LEVEL,
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
	return values * CROSSOVER_RESAMPLES / STATS_BOOTSTRAP_RESAMPLES;
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

	for (size_t i = 0; i < run->count && s.n < 64; i++) {
		const struct run_bench *b = &run->bench[i];
		const struct run_bench *nop;

		if (strcmp(b->op, op) || strcmp(b->variant, "inline") || b->batch)
			continue;
		nop = sibling(run, b, "nopad", 0);
		if (!nop || !(nop->median > 0))
			continue;
		/* keep sizes ascending (results are usually in order) */
		size_t k = s.n++;

		while (k > 0 && s.size[k - 1] > b->size) {
			s.in[k] = s.in[k - 1];
			s.nop[k] = s.nop[k - 1];
			s.size[k] = s.size[k - 1];
			k--;
		}
		s.in[k] = b;
		s.nop[k] = nop;
		s.size[k] = b->size;
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
 * of first appearance, keeping the order within an op (stable).
 */
static size_t first_of(const char *const *ops, size_t n, const char *op)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ops[i], op))
			return i;
	return n;
}

static void group_pairs(struct derived_pair *p, size_t n)
{
	const char **ops = malloc((n ? n : 1) * sizeof(*ops));

	if (!ops)
		return;
	for (size_t i = 0; i < n; i++)
		ops[i] = p[i].op;
	for (size_t i = 1; i < n; i++) {
		struct derived_pair x = p[i];
		size_t rank = first_of(ops, n, x.op), j = i;

		while (j > 0 && first_of(ops, n, p[j - 1].op) > rank) {
			p[j] = p[j - 1];
			j--;
		}
		p[j] = x;
	}
	free(ops);
}

static void group_batches(struct derived_batch *b, size_t n)
{
	const char **ops = malloc((n ? n : 1) * sizeof(*ops));

	if (!ops)
		return;
	for (size_t i = 0; i < n; i++)
		ops[i] = b[i].op;
	for (size_t i = 1; i < n; i++) {
		struct derived_batch x = b[i];
		size_t rank = first_of(ops, n, x.op), j = i;

		while (j > 0 && first_of(ops, n, b[j - 1].op) > rank) {
			b[j] = b[j - 1];
			j--;
		}
		b[j] = x;
	}
	free(ops);
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
						  STATS_BOOTSTRAP_RESAMPLES,
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
		    (s = sibling(run, b, "nopad", 0)) && add_pair(d, b, s, &jobs))
			goto fail;
		if ((!strcmp(b->variant, "batched") || !strcmp(b->variant, "masked")) &&
		    b->batch &&
		    (s = sibling(run, b, "kapi", 0)) && add_batch(d, b, s, &jobs))
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
	group_pairs(d->pairs, d->pair_count);
	group_batches(d->batches, d->batch_count);
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
	struct atable t;
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
			markdown ? "\n" : "", fmt_num(a, sizeof(a), d->pair_median), unit,
			fmt_ci(e, sizeof(e), d->pair_low, d->pair_high));

	if (d->pair_count) {
		heading(f, markdown, "Cost of one STAC/CLAC pair per access "
			"(inline - nopad; sigframe: per field)");
		atable_init(&t, 6, "lrrrrr");
		atable_add(&t, (const char *const[]){ "op", "size", "inline",
			   "nopad", "pair cost", "95% CI" });
		for (size_t i = 0; i < d->pair_count; i++) {
			const struct derived_pair *p = &d->pairs[i];
			char sz[24];

			snprintf(sz, sizeof(sz), "%lu", p->size);
			atable_add(&t, (const char *const[]){ p->op, sz,
				   fmt_num(a, sizeof(a), p->inline_median),
				   fmt_num(b, sizeof(b), p->nopad_median),
				   fmt_num(c, sizeof(c), p->cost),
				   fmt_ci(e, sizeof(e), p->low, p->high) });
		}
		atable_print(f, &t, markdown);
		atable_free(&t);
	}
	if (d->batch_count) {
		heading(f, markdown, "Per-access pair (kapi) against one pair per "
			"batch of K accesses (sigframe: K counts fields, one frame "
			"per block), cost per access");
		atable_init(&t, 8, "llrrrrrr");
		atable_add(&t, (const char *const[]){ "op", "variant", "size", "K",
			   "per access", "batched", "saving", "95% CI" });
		for (size_t i = 0; i < d->batch_count; i++) {
			const struct derived_batch *x = &d->batches[i];
			char sz[24], k[24];

			snprintf(sz, sizeof(sz), "%lu", x->size);
			snprintf(k, sizeof(k), "%lu", x->per_pair);
			atable_add(&t, (const char *const[]){ x->op, x->variant, sz, k,
				   fmt_num(a, sizeof(a), x->single),
				   fmt_num(b, sizeof(b), x->batched),
				   fmt_num(c, sizeof(c), x->saving),
				   fmt_ci(e, sizeof(e), x->low, x->high) });
		}
		atable_print(f, &t, markdown);
		atable_free(&t);
	}
	if (d->crossover_count) {
		heading(f, markdown, "Copy size above which the pair costs under 1% of the copy");
		atable_init(&t, 5, "lrrrr");
		atable_add(&t, (const char *const[]){ "op", "sizes measured",
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
			atable_add(&t, (const char *const[]){ x->op, range,
				   fmt_size(a, sizeof(a), x->size, x->min_size, x->max_size),
				   ci, share });
		}
		atable_print(f, &t, markdown);
		atable_free(&t);
	}
}
