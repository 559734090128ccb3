// SPDX-License-Identifier: GPL-2.0
/*
 * plot_sweeps.c - the plots of a cost against a swept parameter, one
 * panel per op (plots/lib/sweep.gp): kmod ops against size with the
 * pair's share below (copy), batch (against K) and bpf (against size,
 * per mode).
 * Their .dat files are blocks of "x center low high" rows, one block per
 * series of each panel, separated by two blank lines.
 */
#include "analysis/plot_select.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "analysis/compare_stats.h"
#include "analysis/run_select.h"
#include "measure/stats.h"
#include "suites/kmod/catalogue.h"

#define MAX_SWEEP	64

static void sweep_block(FILE *f, const struct run_bench *const *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "%lu", s[k]->size);
		plot_put_value(f, s[k]->center);
		plot_put_value(f, s[k]->ci_low);
		plot_put_value(f, s[k]->ci_high);
		fputc('\n', f);
	}
	/* keep block numbering: one invisible point, where no axis sees it */
	if (!n)
		fputs("NaN NaN NaN NaN\n", f);
	fputs("\n\n", f);
}

/*
 * Percent share: 100 * (x - base) / base with its CI, rows or -1. Within
 * one run (paired) the interval is the pair table's (derived.c), across
 * two runs compare.csv's (with the boot variance).
 */
static int share_block(FILE *f, const struct run_bench *const *x,
		       const struct run_bench *const *base, size_t n,
		       int paired, int *all_positive, double *min_share)
{
	size_t rows = 0;

	for (size_t k = 0; k < n; k++) {
		double v, lo = NAN, hi = NAN;

		if (!x[k] || !base[k] || !(base[k]->center > 0))
			continue;
		v = 100 * (x[k]->center - base[k]->center) / base[k]->center;
		if (x[k]->count && base[k]->count && paired) {
			struct stats_interval iv;

			if (!compare_within_run(base[k], 1, x[k], 1, &iv)) {
				v = 100 * iv.estimate / base[k]->center;
				lo = 100 * iv.low / base[k]->center;
				hi = 100 * iv.high / base[k]->center;
			}
		} else if (x[k]->count && base[k]->count) {
			struct compare_settings set = compare_default_settings();
			struct compare_row row;

			if (compare_values(base[k]->values, base[k]->repetition,
					   base[k]->count, x[k]->values,
					   x[k]->repetition, x[k]->count, &set,
					   &row))
				return -1;
			lo = 100 * row.ci_low / base[k]->center;
			hi = 100 * row.ci_high / base[k]->center;
		}
		if (!(v > 0))
			*all_positive = 0;
		else if (v < *min_share)
			*min_share = v;
		fprintf(f, "%lu", x[k]->size);
		plot_put_value(f, v);
		plot_put_value(f, lo);
		plot_put_value(f, hi);
		fputc('\n', f);
		rows++;
	}
	if (!rows)
		fputs("1 NaN NaN NaN\n", f);
	fputs("\n\n", f);
	return (int)rows;
}

/* The row of a list at a size, or NULL. */
static const struct run_bench *at_size(const struct run_bench *const *s,
				       size_t n, unsigned long size)
{
	for (size_t k = 0; k < n; k++)
		if (s[k]->size == size)
			return s[k];
	return NULL;
}

/*
 * The kmod ops of job->arg against size, a panel each. One run: kapi,
 * inline and nopad, below the pair's share (inline - nopad) / nopad. Two
 * runs: kapi of each, below (B - A) / A. The shares go to name-share.dat.
 */
int plot_select_size_sweep(struct plot_job *job)
{
	static const char *const variants[] = { "kapi", "inline", "nopad" };
	const char *ops[4];
	size_t nops = 0;
	char wanted[128], *save = NULL, words[128] = "", share[128];
	char path[PATH_MAX + 64];
	int positive = 1, rows, share_rows = 0;
	double min_share = INFINITY;
	FILE *f, *g;

	/* the ops asked for that a run has at least two sizes of */
	snprintf(wanted, sizeof(wanted), "%s", job->arg ? job->arg : "");
	for (char *op = strtok_r(wanted, " ", &save); op && nops < 4;
	     op = strtok_r(NULL, " ", &save)) {
		const struct run_bench *s[MAX_SWEEP];

		for (size_t r = 0; r < job->nruns; r++)
			if (bench_sweep(job->runs[r], "kmod", op, "kapi", s, MAX_SWEEP) +
			    bench_sweep(job->runs[r], "kmod", op, "inline", s, MAX_SWEEP) >= 2) {
				ops[nops++] = op;
				break;
			}
	}
	if (!nops)
		return PLOT_EMPTY;
	snprintf(share, sizeof(share), "%s-share", job->name);
	f = plot_dat_open(job, job->name);
	g = plot_dat_open(job, share);
	if (!f || !g) {
		if (f)
			fclose(f);
		if (g)
			fclose(g);
		return -1;
	}
	for (size_t j = 0; j < nops; j++) {
		const struct run_bench *s[PLOT_MAX_RUNS][3][MAX_SWEEP];
		size_t n[PLOT_MAX_RUNS][3];
		const struct run_bench *x[MAX_SWEEP], *base[MAX_SWEEP];
		size_t nx;

		plot_word_add(words, sizeof(words), ops[j]);
		for (size_t r = 0; r < job->nruns; r++)
			for (size_t v = 0; v < 3; v++)
				n[r][v] = bench_sweep(job->runs[r], "kmod", ops[j],
						      variants[v], s[r][v], MAX_SWEEP);
		if (job->nruns == 1) {
			for (size_t v = 0; v < 3; v++)
				sweep_block(f, s[0][v], n[0][v]);
			/* inline against nopad at each size */
			nx = n[0][1];
			for (size_t k = 0; k < nx; k++) {
				x[k] = s[0][1][k];
				base[k] = at_size(s[0][2], n[0][2], x[k]->size);
			}
		} else {
			for (size_t r = 0; r < job->nruns; r++)
				sweep_block(f, s[r][0], n[r][0]);
			/* B's kapi against A's */
			nx = n[1][0];
			for (size_t k = 0; k < nx; k++) {
				x[k] = s[1][0][k];
				base[k] = at_size(s[0][0], n[0][0], x[k]->size);
			}
		}
		rows = share_block(g, x, base, nx, job->nruns == 1, &positive,
				   &min_share);
		if (rows < 0) {
			fclose(f);
			fclose(g);
			return -1;
		}
		share_rows += rows;
	}
	if (plot_dat_close(job, f, job->name) | plot_dat_close(job, g, share))
		return -1;
	plot_set_string(job, "ops", words);
	plot_set_string(job, "unit", suite_unit(job->runs, job->nruns, "kmod"));
	plot_set_number(job, "nseries", job->nruns == 1 ? 3.0 : (double)job->nruns);
	/* no share anywhere (no inline or nopad rows, e.g. -cpu max,-smap): no row */
	plot_set_number(job, "npct", share_rows ? 1 : 0);
	plot_set_number(job, "pctlog", positive);
	if (positive && isfinite(min_share))
		plot_set_number(job, "pctmin", min_share / 4);
	plot_dat_path(job, share, path, sizeof(path));
	plot_set_string(job, "pctfile", path);
	return PLOT_DRAW;
}

/* Batched rows of op at size, ascending in batch (K >= 1). */
static size_t batch_sweep(const struct run_dir *run, const char *op,
			  unsigned long size, const struct run_bench **out,
			  size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < run->count && n < max; i++) {
		const struct run_bench *b = &run->bench[i];
		size_t k;

		if (strcmp(b->suite, "kmod") || strcmp(b->op, op) ||
		    strcmp(b->variant, "batched") || !b->batch || b->size != size)
			continue;
		for (k = n++; k > 0 && out[k - 1]->batch > b->batch; k--)
			out[k] = out[k - 1];
		out[k] = b;
	}
	return n;
}

/*
 * Cost per access against K, the accesses per STAC/CLAC pair: the batched
 * block divided by its accesses, and the kernel API (a pair per access)
 * as a reference level. One panel per op with at least two K in the
 * first run, at the largest size that still has two; per panel the
 * batched series of every run, then their kapi references.
 */
int plot_select_batch(struct plot_job *job)
{
	const char *ops[4];
	unsigned long sizes[4];
	size_t nops = 0;
	char words[128] = "";
	FILE *f;

	for (size_t i = 0; i < job->runs[0]->count && nops < 4; i++) {
		const struct run_bench *b = &job->runs[0]->bench[i], *s[MAX_SWEEP];
		size_t k;

		if (strcmp(b->suite, "kmod") || strcmp(b->variant, "batched"))
			continue;
		for (k = 0; k < nops && strcmp(ops[k], b->op); k++)
			;
		/* a larger size only if it still has a sweep (some K skipped) */
		if (k < nops) {
			if (b->size > sizes[k] &&
			    batch_sweep(job->runs[0], b->op, b->size, s,
					MAX_SWEEP) >= 2)
				sizes[k] = b->size;
			continue;
		}
		if (batch_sweep(job->runs[0], b->op, b->size, s, MAX_SWEEP) < 2)
			continue;
		ops[nops] = b->op;
		sizes[nops++] = b->size;
	}
	if (!nops)
		return PLOT_EMPTY;
	f = plot_dat_open(job, job->name);
	if (!f)
		return -1;
	for (size_t j = 0; j < nops; j++) {
		char panel[96];

		snprintf(panel, sizeof(panel), "%s/%lu", ops[j], sizes[j]);
		plot_word_add(words, sizeof(words), panel);
		for (int ref = 0; ref < 2; ref++)
			for (size_t r = 0; r < job->nruns; r++) {
				const struct run_bench *s[MAX_SWEEP];
				const struct bench_key key = { "kmod", ops[j], "kapi",
							       sizes[j], 0 };
				const struct run_bench *kapi = bench_match(job->runs[r], &key);
				size_t n = batch_sweep(job->runs[r], ops[j], sizes[j],
						       s, MAX_SWEEP);
				size_t rows = 0;

				for (size_t k = 0; k < n; k++) {
					const struct run_bench *b = ref ? kapi : s[k];
					/* per access: a block is K items */
					double per = b ? (double)kmod_row_accesses(b->op,
							b->variant, b->batch) : 0;

					if (!(per > 0))
						continue;
					fprintf(f, "%lu", s[k]->batch);
					plot_put_value(f, b->center / per);
					plot_put_value(f, b->ci_low / per);
					plot_put_value(f, b->ci_high / per);
					fputc('\n', f);
					rows++;
				}
				if (!rows)
					fputs("1 NaN NaN NaN\n", f);
				fputs("\n\n", f);
			}
	}
	if (plot_dat_close(job, f, job->name))
		return -1;
	plot_set_string(job, "ops", words);
	plot_set_string(job, "unit", suite_unit(job->runs, job->nruns, "kmod"));
	plot_set_number(job, "nseries", 2.0 * (double)job->nruns);
	return PLOT_DRAW;
}

/* Whether any run has a benchmark of this suite and op. */
static int has_op(const struct plot_job *job, const char *suite, const char *op)
{
	for (size_t r = 0; r < job->nruns; r++)
		for (size_t i = 0; i < job->runs[r]->count; i++)
			if (!strcmp(job->runs[r]->bench[i].suite, suite) &&
			    !strcmp(job->runs[r]->bench[i].op, op))
				return 1;
	return 0;
}

/*
 * bpf suite: ns per access against size, one panel per mode (syscall,
 * raw_tp, raw_tp_ipi). One run: every op and the derived overhead
 * (user_read - kernel_memmove). Two runs: overhead and user_read of each
 * run. The script is told the ops shown (bpfops), in series order, and
 * per panel which series have points (present: 0 or 1 per series, panel
 * by panel), so that a panel's key lists only its lines: copy_from_user
 * runs in the syscall mode only.
 */
int plot_select_bpf(struct plot_job *job)
{
	static const char *const ops_one[] = {
		"user_read", "kernel_memmove", "kernel_read", "user_read_str",
		"kernel_read_str", "copy_from_user", "overhead",
	};
	static const char *const ops_two[] = { "overhead", "user_read" };
	const char *const *ops = job->nruns == 1 ? ops_one : ops_two;
	size_t nops = job->nruns == 1 ? 7 : 2;
	const char *modes[4];
	size_t nmodes = 0, nseries = 0;
	char modes_words[64] = "", ops_words[128] = "", present[256] = "";
	FILE *f;

	for (size_t i = 0; i < job->runs[0]->count && nmodes < 4; i++) {
		const struct run_bench *b = &job->runs[0]->bench[i];
		size_t k;

		if (strcmp(b->suite, "bpf") || !b->size)
			continue;
		for (k = 0; k < nmodes && strcmp(modes[k], b->variant); k++)
			;
		if (k == nmodes)
			modes[nmodes++] = b->variant;
	}
	if (!nmodes)
		return PLOT_EMPTY;
	f = plot_dat_open(job, job->name);
	if (!f)
		return -1;
	for (size_t j = 0; j < nmodes; j++) {
		plot_word_add(modes_words, sizeof(modes_words), modes[j]);
		for (size_t o = 0; o < nops; o++) {
			if (!has_op(job, "bpf", ops[o]))
				continue;
			for (size_t r = 0; r < job->nruns; r++) {
				const struct run_bench *s[MAX_SWEEP];
				size_t n = bench_sweep(job->runs[r], "bpf", ops[o],
						       modes[j], s, MAX_SWEEP);

				sweep_block(f, s, n);
				plot_word_add(present, sizeof(present), n ? "1" : "0");
			}
			if (j)
				continue;
			plot_word_add(ops_words, sizeof(ops_words), ops[o]);
			nseries += job->nruns;
		}
	}
	if (plot_dat_close(job, f, job->name))
		return -1;
	plot_set_string(job, "ops", modes_words);
	plot_set_string(job, "bpfops", ops_words);
	plot_set_string(job, "present", present);
	plot_set_number(job, "nseries", (double)nseries);
	return PLOT_DRAW;
}
