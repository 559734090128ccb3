/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - what `smapbench compare`, `plot` and `report` share:
 * the SMAP-specific tables derived from one run, text/Markdown tables,
 * rendering of the plots, and the comparison output.
 */
#ifndef SMAPBENCH_ANALYSIS_H
#define SMAPBENCH_ANALYSIS_H

#include <stdio.h>

#include "compare.h"
#include "rundir.h"

/* A pair "costs under 1%" of a copy below this share. */
#define CROSSOVER_SHARE 0.01

/* ------------------------------------------------------------ tables */

/* A table of text cells, printed aligned for a console or as Markdown. */
struct atable {
	unsigned columns;
	char **cells;		/* row-major, header row first */
	size_t rows;		/* including the header */
	size_t cap;
	const char *align;	/* per column 'l' or 'r'; NULL: first l, rest r */
};

void atable_init(struct atable *t, unsigned columns, const char *align);
/* Append one row of columns cells (printf-less: pass strings). */
int atable_add(struct atable *t, const char *const *cells);
void atable_print(FILE *f, const struct atable *t, int markdown);
void atable_free(struct atable *t);

/* "%.4g" style with sensible digits; "-" for NAN. */
const char *fmt_num(char *buf, size_t len, double v);
/* "[low, high]" or "-". */
const char *fmt_ci(char *buf, size_t len, double low, double high);
/* A fraction as a signed percent, "+12.3%"; "%.3g" style when huge; "-" for NAN. */
const char *fmt_pct(char *buf, size_t len, double fraction);

/* ------------------------------------------------------ derived tables */

/* A benchmark by its fields (names differ in what they leave out). */
struct bench_key {
	const char *suite, *op, *variant;
	unsigned long size, batch;
};

/*
 * The headline: the benchmarks a reader looks at first, as the suites
 * mark them (kmod: the catalogue); ends with a NULL suite.
 */
const struct bench_key *headline_benchmarks(void);
/* One line per headline row of run: median in ns, 95% CI, flags. */
void headline_print(FILE *f, const struct run_dir *run);
int bench_is(const struct run_bench *b, const struct bench_key *k);
const struct run_bench *bench_match(const struct run_dir *run,
				    const struct bench_key *k);

/* inline - nopad: one STAC/CLAC pair per access, within one boot. */
struct derived_pair {
	const char *op;
	unsigned long size;
	double inline_median, nopad_median;
	double cost, low, high;
};

/* One pair per access (kapi) against one pair per block of batch. */
struct derived_batch {
	const char *op, *variant;	/* batched or masked */
	unsigned long size, batch;
	unsigned long per_pair;	/* accesses per STAC/CLAC pair (batch x item) */
	double single;		/* kapi cost per access (per field: sigframe) */
	double batched;		/* batched cost per access */
	double saving, low, high;	/* single - batched, per access */
};

/* Copy size above which the pair costs under CROSSOVER_SHARE of the copy. */
struct derived_crossover {
	const char *op;
	unsigned long min_size, max_size;	/* the sweep measured */
	double size, low, high;	/* INFINITY: beyond max_size */
	double share_at_max;	/* pair / copy at max_size */
};

struct derived {
	const char *unit;
	double pair_median, pair_low, pair_high;	/* kmod/pair/none/0 */
	struct derived_pair *pairs;
	size_t pair_count;
	struct derived_batch *batches;
	size_t batch_count;
	struct derived_crossover *crossovers;
	size_t crossover_count;
};

int derived_compute(const struct run_dir *run, struct derived *d);
void derived_free(struct derived *d);
/* The three tables, with headings; Markdown headings when markdown. */
void derived_print(FILE *f, const struct run_dir *run,
		   const struct derived *d, int markdown);
/* Share of the copy (pair / nopad) at each size of op, for the plot. */

/* ------------------------------------------------------------ plots */

/*
 * Render every plot the runs have data for into dir/plots/ (PNG and SVG
 * plus the .dat inputs), replacing an old plots/ only when all rendered
 * and only when smapbench wrote it (atomic_dir.h). One run: variants
 * side by side; two runs: A and B side by side. Returns 0; PLOTS_NONE
 * when the runs have nothing to plot (nothing written); or 1 after
 * saying why on stderr, as "smapbench WHO: ...", leaving no partial
 * plots/ directory.
 */
#define PLOTS_NONE 2
int plots_render(const char *who, const struct run_dir *const *runs,
		 size_t nruns, const char *dir);
/* Plot names plots_render() may write, NULL-terminated. */
extern const char *const plot_names[];
/* One-line description of a plot, for report captions. */
const char *plot_caption(const char *name);

/* Title context line: "CPU · kernel · counter · virt". */
void context_line(char *buf, size_t len, const struct run_dir *run);
/* Short name of a run for legends: its smap_state, else "A"/"B". */
const char *run_title(const struct run_dir *const *runs, size_t nruns,
		      size_t index);

/* ------------------------------------------------------------ compare */

/* Print the comparison table (all rows) to f. */
void compare_print(FILE *f, const struct run_dir *a, const struct run_dir *b,
		   const struct compare_result *res, double alpha,
		   int markdown);
/*
 * compare and report A B: argv[0] is the command name. Writes the
 * comparison directory; with_report adds report.md to it.
 */
int compare_pipeline(int argc, char **argv, int with_report);
/*
 * Write dir/report.md (temp file + rename) for one run or a comparison;
 * an existing report.md is replaced only if smapbench wrote it. tables:
 * the derived tables of the SMAP run when already computed, else NULL.
 * 0, or -1 with the reason in err.
 */
int report_write(const char *dir, const struct run_dir *const *runs,
		 size_t nruns, const struct compare_result *res,
		 const struct derived *tables, double alpha, char *err,
		 size_t errlen);
/* What is wrong with comparing a and b as two runs (the same run), or NULL. */
const char *same_run_warning(const struct run_dir *a, const struct run_dir *b);
/* Default output directory for comparing a and b (malloc'ed). */
char *compare_default_dir(const struct run_dir *a, const struct run_dir *b);

#endif /* SMAPBENCH_ANALYSIS_H */
