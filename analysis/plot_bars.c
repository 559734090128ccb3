// SPDX-License-Identifier: GPL-2.0
/*
 * plot_bars.c - the plots drawn as clustered bars with CI error bars
 * (plots/lib/bars.gp): ops, sigframe, syscall and the deltas of two runs.
 * Each cluster is a label, each series a variant (one run) or a run.
 */
#include "analysis/plot_select.h"

#include <limits.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare_stats.h"
#include "analysis/gnuplot.h"
#include "analysis/run_select.h"
#include "measure/stats.h"
#include "suites/kmod/catalogue.h"
#include "suites/suite.h"

#define MAX_SERIES	4

/* Bars of selected benchmarks: one cluster per label, one bar per series. */
struct bar_cluster {
	char label[96];
	const struct run_bench *bench[MAX_SERIES];
	double scale[MAX_SERIES];	/* unit conversion; 0 means 1 */
};

/*
 * Room for labels turned by 35 degrees and right-aligned at their tic:
 * below (sin 35 of the longest, in character heights of about two
 * widths) and to the left, where the first labels reach past the axis
 * (cos 35 of their length, less their distance from it). The canvas is
 * width_px wide.
 */
static void label_margins(struct plot_job *job, const char *const *labels,
			  size_t n, double width_px)
{
	double across = width_px / 7.5, bottom = 9, left = 10, column;
	size_t longest = 0;

	if (!n)
		return;
	column = (across - left - 4) / (double)n;
	for (size_t i = 0; i < n; i++) {
		double reach = 0.75 * (double)strlen(labels[i]) -
			       ((double)i + 0.5) * column;

		if (strlen(labels[i]) > longest)
			longest = strlen(labels[i]);
		if (reach + 2 > left)
			left = reach + 2;
	}
	if (2 + 0.3 * (double)longest > bottom)
		bottom = 2 + 0.3 * (double)longest;
	plot_set_number(job, "bmargin_chars", bottom);
	plot_set_number(job, "lmargin_chars", left);
}

/*
 * job->name.dat: a header naming the series, then per cluster "label v
 * lo hi ..." for each series; and the layout variables. A series with no
 * value in any cluster (inline and nopad on a CPU without SMAP) is left
 * out: gnuplot refuses an all-NaN column.
 */
static int bars_write(struct plot_job *job, const struct bar_cluster *c,
		      size_t n, const char *const *titles, size_t nseries)
{
	size_t used[MAX_SERIES], nused = 0;
	FILE *f;

	for (size_t s = 0; s < nseries; s++)
		for (size_t i = 0; i < n; i++)
			if (c[i].bench[s]) {
				used[nused++] = s;
				break;
			}
	if (!nused)
		return PLOT_EMPTY;
	f = plot_dat_open(job, job->name);
	if (!f)
		return -1;
	fputs("label", f);
	for (size_t u = 0; u < nused; u++) {
		fputc(' ', f);
		gnuplot_data_string(f, titles[used[u]], 64);
		fputs(" low high", f);
	}
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		gnuplot_data_string(f, c[i].label, sizeof(c[i].label));
		for (size_t u = 0; u < nused; u++) {
			size_t s = used[u];
			const struct run_bench *b = c[i].bench[s];
			double k = c[i].scale[s] ? c[i].scale[s] : 1;

			plot_put_value(f, b ? k * b->center : NAN);
			plot_put_value(f, b ? k * b->ci_low : NAN);
			plot_put_value(f, b ? k * b->ci_high : NAN);
		}
		fputc('\n', f);
	}
	if (plot_dat_close(job, f, job->name))
		return -1;
	plot_set_number(job, "nseries", (double)nused);
	plot_set_number(job, "rotate", n > 6);
	if (n > 6) {
		const char *labels[64];

		for (size_t i = 0; i < n && i < 64; i++)
			labels[i] = c[i].label;
		label_margins(job, labels, n < 64 ? n : 64, 1200);
	}
	return PLOT_DRAW;
}

static int cluster_index(struct bar_cluster *c, size_t *n, size_t max,
			 const char *label)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(c[i].label, label))
			return (int)i;
	if (*n == max)
		return -1;
	memset(&c[*n], 0, sizeof(c[*n]));
	snprintf(c[*n].label, sizeof(c[*n].label), "%s", label);
	return (int)(*n)++;
}

/* The label of b's cluster into buf; 0 when b is not in the plot. */
typedef int (*cluster_label_fn)(const struct run_bench *b, char *buf,
				size_t len);

/*
 * Bars of every run side by side: the rows label() names, a cluster per
 * label in order of first appearance, series r the row of run r; the
 * runs' short names into titles. Returns the clusters (at most max).
 */
static size_t cluster_runs(const struct plot_job *job, struct bar_cluster *c,
			   size_t max, cluster_label_fn label,
			   const char **titles)
{
	size_t n = 0;

	for (size_t r = 0; r < job->nruns; r++) {
		titles[r] = run_title(job->runs, job->nruns, r);
		for (size_t i = 0; i < job->runs[r]->count; i++) {
			const struct run_bench *b = &job->runs[r]->bench[i];
			char buf[sizeof(c->label)];
			int k;

			if (!label(b, buf, sizeof(buf)))
				continue;
			k = cluster_index(c, &n, max, buf);
			if (k >= 0)
				c[k].bench[r] = b;
		}
	}
	return n;
}

/* Label for a bar: op, then size and batch when not 0. */
static void short_label(char *buf, size_t len, const struct run_bench *b)
{
	snprintf(buf, len, "%s", b->op);
	if (b->size)
		snprintf(buf + strlen(buf), len - strlen(buf), "/%lu", b->size);
	if (b->batch)
		snprintf(buf + strlen(buf), len - strlen(buf), "/%lu", b->batch);
}

/*
 * The ops plot: the catalogue's ops whose iteration is one access or none
 * (not those it marks KMOD_OP_NOT_PLOTTED, the calibration chains), one
 * per access (no block), up to 64 B.
 */
static int in_ops_plot(const struct run_bench *b)
{
	int op = kmod_op_find(b->op), variant = kmod_variant_find(b->variant);

	return !strcmp(b->suite, "kmod") && op >= 0 && variant >= 0 &&
	       !(kmod_ops[op].kind & KMOD_OP_NOT_PLOTTED) &&
	       kmod_ops[op].accesses <= 1 &&
	       !kmod_variant_is_block((unsigned)variant) && b->size <= 64;
}

/* Two runs: the kernel API of each (and the ops without a variant). */
static int ops_label(const struct run_bench *b, char *buf, size_t len)
{
	if (!in_ops_plot(b) || !strcmp(b->variant, "inline") ||
	    !strcmp(b->variant, "nopad"))
		return 0;
	short_label(buf, len, b);
	return 1;
}

/* One run: kapi (or none), inline and nopad; two runs: kapi of each. */
int plot_select_ops(struct plot_job *job)
{
	static const char *const variants[] = { "kapi", "inline", "nopad" };
	static const char *const titles_one[] = {
		"kapi (or the op alone)", "inline", "nopad",
	};
	const struct run_dir *run = job->runs[0];
	struct bar_cluster c[64];
	const char *titles[MAX_SERIES];
	size_t n = 0;

	if (job->nruns > 1) {
		n = cluster_runs(job, c, 64, ops_label, titles);
	} else {
		for (size_t i = 0; i < run->count; i++) {
			const struct run_bench *b = &run->bench[i];
			char label[sizeof(c->label)];
			int k;

			if (!in_ops_plot(b))
				continue;
			short_label(label, sizeof(label), b);
			k = cluster_index(c, &n, 64, label);
			if (k < 0)
				break;
			for (size_t s = 0; s < 3; s++)
				if (!strcmp(b->variant, variants[s]) ||
				    (s == 0 && !strcmp(b->variant, "none")))
					c[k].bench[s] = b;
		}
		memcpy(titles, titles_one, sizeof(titles_one));
	}
	if (!n)
		return PLOT_EMPTY;
	plot_set_string(job, "unit", suite_unit(job->runs, job->nruns, "kmod"));
	return bars_write(job, c, n, titles, job->nruns > 1 ? job->nruns : 3);
}

/* Every variant of the signal frame, a cluster each. */
static int sigframe_label(const struct run_bench *b, char *buf, size_t len)
{
	if (strcmp(b->suite, "kmod") ||
	    strcmp(b->op, kmod_ops[SMAPBENCH_OP_SIGFRAME].name))
		return 0;
	if (b->batch)
		snprintf(buf, len, "%s (K=%lu)", b->variant, b->batch);
	else if (!strcmp(b->variant, "kapi"))
		snprintf(buf, len, "kapi (per field)");
	else if (!strcmp(b->variant, "inline"))
		snprintf(buf, len, "inline (per field)");
	else if (!strcmp(b->variant, "nopad"))
		snprintf(buf, len, "nopad (NOPs per field)");
	else
		snprintf(buf, len, "%s", b->variant);
	return 1;
}

int plot_select_sigframe(struct plot_job *job)
{
	struct bar_cluster c[8];
	const char *titles[MAX_SERIES];
	size_t n = cluster_runs(job, c, 8, sigframe_label, titles);

	if (!n)
		return PLOT_EMPTY;
	plot_set_string(job, "unit", suite_unit(job->runs, job->nruns, "kmod"));
	plot_set_number(job, "fields", kmod_ops[SMAPBENCH_OP_SIGFRAME].accesses);
	return bars_write(job, c, n, titles, job->nruns);
}

/*
 * The syscall suite: the name without "syscall/", sizes as the run named
 * them. The rows that open no STAC/CLAC window, as the suite marks them
 * (a base never enters the kernel, a control enters it and opens none),
 * are labelled so, so that no one reads them as a SMAP cost.
 */
static int syscall_label(const struct run_bench *b, char *buf, size_t len)
{
	enum bench_role role;

	if (strcmp(b->suite, "syscall"))
		return 0;
	role = suite_row_role(b->suite, b->op, b->variant);
	snprintf(buf, len, "%s%s", b->name + strlen(b->suite) + 1,
		 role == BENCH_ROLE_BASE ? " (base)" :
		 role == BENCH_ROLE_CONTROL ? " (control)" : "");
	return 1;
}

/* In ns when every run says how to convert, else in the suite's unit. */
int plot_select_syscall(struct plot_job *job)
{
	struct bar_cluster c[64];
	const char *titles[MAX_SERIES];
	size_t n = cluster_runs(job, c, 64, syscall_label, titles);
	int in_ns = 1;

	for (size_t i = 0; i < n; i++)
		for (size_t r = 0; r < job->nruns; r++)
			if (c[i].bench[r]) {
				double ns = rundir_ns_per_unit(job->runs[r],
							       c[i].bench[r]);

				c[i].scale[r] = isfinite(ns) ? ns : 1;
				in_ns &= isfinite(ns);
			}
	if (!in_ns)	/* one unit for all bars */
		for (size_t i = 0; i < n; i++)
			for (size_t r = 0; r < MAX_SERIES; r++)
				c[i].scale[r] = 1;
	if (!n)
		return PLOT_EMPTY;
	plot_set_string(job, "unit", in_ns ? "ns" :
			suite_unit(job->runs, job->nruns, "syscall"));
	return bars_write(job, c, n, titles, job->nruns);
}

/*
 * Two runs: (B - A) / A in percent with its CI, as compare.csv has them
 * (centers, the interval over the repetitions and the boots), per benchmark of one
 * suite: what changes between boots (kmod: the kernel API and
 * the bare instructions; bpf: the derived user - kernel rows).
 */
static int in_delta(const struct run_bench *x, const char *suite)
{
	if (strcmp(x->suite, suite))
		return 0;
	if (!strcmp(suite, "kmod"))
		return !x->batch && !kmod_op_is(x->op, KMOD_OP_NOT_PLOTTED) &&
		       (!strcmp(x->variant, "kapi") || !strcmp(x->variant, "none"));
	if (!strcmp(suite, "bpf"))
		return strstr(x->op, "overhead") != NULL;
	return 1;
}

/* compare's row of x in res, or NULL. */
static const struct compare_row *compare_row_of(const struct compare_result *res,
						const struct run_bench *x)
{
	for (size_t i = 0; res && i < res->count; i++)
		if (!strcmp(res->rows[i].a->name, x->name))
			return &res->rows[i];
	return NULL;
}

/* The verdicts in the order the legend lists them. */
static const enum compare_verdict delta_verdicts[] = {
	COMPARE_SLOWER, COMPARE_FASTER, COMPARE_SAME, COMPARE_INCONCLUSIVE,
	COMPARE_UNKNOWN,
};

int plot_select_delta(struct plot_job *job)
{
	const char *suite = job->arg;
	const struct compare_settings defaults = compare_default_settings();
	const struct compare_settings *set = job->compare_settings ?
					     job->compare_settings : &defaults;
	const struct run_dir *a, *b;
	const char *labels[256];
	char present[96] = "", band[96];
	int seen[COMPARE_VERDICTS] = { 0 };
	size_t n = 0;
	FILE *f;

	if (job->nruns != 2)
		return PLOT_EMPTY;
	a = job->runs[0];
	b = job->runs[1];
	f = plot_dat_open(job, job->name);
	if (!f)
		return -1;
	fprintf(f, "label \"%s vs %s\" low high verdict\n", run_title(job->runs, 2, 1),
		run_title(job->runs, 2, 0));
	for (size_t i = 0; i < a->count; i++) {
		const struct run_bench *x = &a->bench[i], *y;
		const struct compare_row *found;
		struct compare_row row;
		enum compare_verdict verdict = COMPARE_UNKNOWN;
		double rel, lo = NAN, hi = NAN;

		if (!in_delta(x, suite))
			continue;
		y = rundir_find(b, x->name);
		if (!y || strcmp(x->unit, y->unit) || !(x->center > 0))
			continue;
		rel = 100 * (y->center - x->center) / x->center;
		found = compare_row_of(job->compare, x);
		/* without compare's result (one row alone): its own verdict */
		if (!found && x->count && y->count) {
			if (compare_values(x->values, x->repetition, x->count,
					   y->values, y->repetition, y->count,
					   set, &row)) {
				fclose(f);
				return -1;
			}
			found = &row;
		}
		if (found) {
			lo = 100 * found->relative_low;
			hi = 100 * found->relative_high;
			verdict = found->verdict;
			/* the bar is what the interval is of: net of the controls */
			if (found->net)
				rel = 100 * expm1(found->log_ratio);
		}
		seen[verdict] = 1;
		fprintf(f, "\"%s\"", x->name + strlen(x->suite) + 1);
		if (n < 256)
			labels[n] = x->name + strlen(x->suite) + 1;
		plot_put_value(f, rel);
		plot_put_value(f, lo);
		plot_put_value(f, hi);
		fprintf(f, " %d\n", (int)verdict);
		n++;
	}
	if (plot_dat_close(job, f, job->name))
		return -1;
	if (!n) {	/* nothing of this suite: no plot, no empty input */
		char path[PATH_MAX + 64];

		plot_dat_path(job, job->name, path, sizeof(path));
		unlink(path);
		return PLOT_EMPTY;
	}
	/* one legend entry per verdict that has a bar, none empty */
	for (size_t v = 0; v < sizeof(delta_verdicts) / sizeof(*delta_verdicts); v++)
		if (seen[delta_verdicts[v]])
			snprintf(present + strlen(present),
				 sizeof(present) - strlen(present), "%s%d",
				 *present ? " " : "", (int)delta_verdicts[v]);
	plot_set_string(job, "verdicts", present);
	/*
	 * The relevance threshold compare's verdicts use: on the log scale
	 * +-log(1 + margin), so -m / (1 + m) .. +m relative to A.
	 */
	plot_set_number(job, "band_low", -100 * set->margin / (1 + set->margin));
	plot_set_number(job, "band_high", 100 * set->margin);
	snprintf(band, sizeof(band), "within ±%g%% (compare --margin): never "
		 "faster or slower", 100 * set->margin);
	plot_set_string(job, "band_title", band);
	plot_set_number(job, "nrows", (double)n);
	plot_set_number(job, "nseries", 1);
	plot_set_number(job, "rotate", 1);
	plot_set_number(job, "width", n > 30 ? 1600 : 1200);
	label_margins(job, labels, n < 256 ? n : 256, n > 30 ? 1600 : 1200);
	return PLOT_DRAW;
}
