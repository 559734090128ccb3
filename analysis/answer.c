// SPDX-License-Identifier: GPL-2.0
/*
 * answer.c - what a run says about SMAP, first; see answer.h.
 *
 * Every figure is another file's: the pair's cost is derived.c's paired
 * inline - nopad, the cells are the cross-machine table's (one size per
 * op, the bpf row at 8 B), and cycles come from the table's rule
 * (table_cycles_per_unit()), so the block says nothing that report.md's
 * tables or table.md would contradict.
 */
#include "analysis/answer.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derived.h"
#include "analysis/headline.h"
#include "analysis/run_input.h"
#include "analysis/run_select.h"
#include "analysis/smap_case.h"
#include "analysis/table.h"
#include "analysis/text_table.h"
#include "measure/runner.h"
#include "measure/stats.h"
#include "rundata/csv.h"

/* The words docs/bpf.md gives for what the bpf overhead holds. */
#define BPF_BOUND_HOLDS "access_ok, pagefault_disable, hardened usercopy " \
	"checks and return thunks besides STAC/CLAC"

/* The same path in a boot whose kernel runs no STAC/CLAC. */
#define BPF_PATH_HOLDS "access_ok, pagefault_disable, hardened usercopy " \
	"checks and return thunks"

/* Suites a run's skipped.csv may name: at most this many are listed. */
#define ANSWER_MAX_SUITES 8

struct builder {
	struct answer *a;
	int tcg;
	/* the kernel of the run's boot runs STAC/CLAC (or the run does not say) */
	int smap_used;
	int failed;
};

/* Append a line; under TCG every line starts with the tag. */
static void add_line(struct builder *bld, int level, const char *quoted,
		     const char *fmt, ...)
{
	struct answer_line *n;
	char body[1024];
	char *text;
	va_list ap;
	size_t len;

	if (bld->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	len = strlen(body) + sizeof(ANSWER_TCG_TAG);
	n = realloc(bld->a->lines, (bld->a->count + 1) * sizeof(*n));
	text = malloc(len);
	if (!n || !text) {
		free(text);
		if (n)
			bld->a->lines = n;
		bld->failed = 1;
		return;
	}
	bld->a->lines = n;
	snprintf(text, len, "%s%s", bld->tcg ? ANSWER_TCG_TAG : "", body);
	n[bld->a->count] = (struct answer_line){ text, NULL, level };
	if (quoted && !(n[bld->a->count].quoted = strdup(quoted))) {
		free(text);
		bld->failed = 1;
		return;
	}
	bld->a->count++;
}

/*
 * "X cycles [lo, hi], Y ns" where the run's calibration gives cycles;
 * else "X ticks [lo, hi], Y ns" in the run's unit, or "Y ns [lo, hi]".
 */
static const char *figure(char *buf, size_t len, const struct run_dir *run,
			  const struct run_bench *b, double v, double lo,
			  double hi)
{
	double cyc = table_cycles_per_unit(run, b);
	double ns = rundir_ns_per_unit(run, b);
	char x[32], iv[80], y[32];

	if (isfinite(cyc)) {
		snprintf(buf, len, "%s cycles %s, %s ns",
			 format_number(x, sizeof(x), v * cyc),
			 format_interval(iv, sizeof(iv), lo * cyc, hi * cyc),
			 format_number(y, sizeof(y), v * ns));
	} else if (!strcmp(b->unit, "ns") || !isfinite(ns)) {
		snprintf(buf, len, "%s %s %s", format_number(x, sizeof(x), v),
			 b->unit, format_interval(iv, sizeof(iv), lo, hi));
	} else {
		snprintf(buf, len, "%s %s %s, %s ns",
			 format_number(x, sizeof(x), v), b->unit,
			 format_interval(iv, sizeof(iv), lo, hi),
			 format_number(y, sizeof(y), v * ns));
	}
	return buf;
}

/* The derived pair of the table's cell def, or NULL. */
static const struct derived_pair *cell_pair(const struct derived *d,
					    const struct table_cell_def *def)
{
	for (size_t i = 0; i < d->pair_count; i++)
		if (!strcmp(d->pairs[i].op, def->op) &&
		    d->pairs[i].size == def->size)
			return &d->pairs[i];
	return NULL;
}

/* inline - nopad at the table's size of each op: 1 if any was there. */
static int add_pairs(struct builder *bld, const struct run_dir *run)
{
	const struct table_cell_def *cells = table_cells();
	size_t ncells = table_cell_count();
	struct derived d;
	int any = 0;

	if (derived_compute(run, &d)) {
		bld->failed = 1;
		return 0;
	}
	for (size_t c = 0; c < ncells; c++) {
		const struct table_cell_def *def = &cells[c];
		const struct derived_pair *p;
		const struct bench_key key = { "kmod", def->op, "inline",
					       def->size, 0 };
		const struct run_bench *b;
		char fig[256];

		if (def->kind != TABLE_PAIR || !(p = cell_pair(&d, def)) ||
		    !(b = bench_match(run, &key)) || isnan(p->cost))
			continue;
		if (!any++)
			add_line(bld, 0, NULL, bld->tcg ?
				 "STAC/CLAC pair per user access (inline - nopad), emulated: not a cost:" :
				 bld->smap_used ?
				 "one STAC/CLAC pair costs, per user access, in this boot (inline - nopad, 95%% CI):" :
				 "the raw STAC/CLAC pair per user access, timed in a boot whose kernel does not use SMAP (inline - nopad, 95%% CI); whether the CPU charges the same with SMAP on, a SMAP boot tells:");
		add_line(bld, 1, NULL, "%s: %s", def->title,
			 figure(fig, sizeof(fig), run, b, p->cost, p->low,
				p->high));
	}
	derived_free(&d);
	return any;
}

/* The bpf overhead at 8 B, named for what it is: 1 if it was there. */
static int add_bpf_bound(struct builder *bld, const struct run_dir *run)
{
	const struct table_cell_def *cells = table_cells();
	size_t ncells = table_cell_count();

	for (size_t c = 0; c < ncells; c++) {
		const struct table_cell_def *def = &cells[c];
		const struct bench_key key = { def->suite, def->op,
					       def->variant, def->size, 0 };
		const struct run_bench *b;
		char fig[256];

		if (def->kind != TABLE_ROW || !(b = bench_match(run, &key)))
			continue;
		if (bld->smap_used)
			add_line(bld, 0, NULL, "UPPER BOUND of the STAC/CLAC pair per access, %s: %s %s; it includes %s (docs/bpf.md)",
				 bld->tcg ? "emulated" : "not its cost", b->name,
				 figure(fig, sizeof(fig), run, b, b->center,
					b->ci_low, b->ci_high),
				 BPF_BOUND_HOLDS);
		else
			add_line(bld, 0, NULL, "the user-access path WITHOUT the pair%s: %s %s; this kernel runs no STAC/CLAC, so the figure is the rest of the path alone (%s, docs/bpf.md), no bound of the pair",
				 bld->tcg ? ", emulated" : "", b->name,
				 figure(fig, sizeof(fig), run, b, b->center,
					b->ci_low, b->ci_high),
				 BPF_PATH_HOLDS);
		return 1;
	}
	return 0;
}

/* Where the cycles come from, or why there are none. */
static void add_calibration(struct builder *bld, const struct run_dir *run)
{
	const char *consistent = rundir_context(run, "calib_consistent");
	const char *ghz = rundir_context(run, "calib_ghz");
	const char *note = rundir_context(run, "calib_note");

	if (bld->tcg)
		add_line(bld, 0, NULL, "no cycles, ns only: under TCG the clock the calibration measures is the emulator's, not a CPU's");
	else if (consistent && !strcmp(consistent, "1") && ghz && *ghz)
		add_line(bld, 0, NULL, "cycles: ns x %s GHz, the core clock the run measured (calib_ghz; its two chains agree)",
			 ghz);
	else if (consistent)
		add_line(bld, 0, note && *note ? note : NULL,
			 "no cycles, ns only: the calibration chains disagree%s",
			 note && *note ? ": " : "");
	else
		add_line(bld, 0, NULL, "no cycles, ns only: the run has no core-clock calibration (calib_ghz)");
}

/* One suite of skipped.csv: its rows, and the reason most of them give. */
struct skipped_suite {
	const char *suite, *top;
	size_t rows, top_rows;
};

/*
 * skipped.csv, one line per suite: how many rows, and the reason most of
 * them give (a reason may be worded per row: "one iteration takes N
 * ticks", so the others are only counted).
 */
static void add_skipped(struct builder *bld, const struct run_dir *run)
{
	struct skipped_suite suites[ANSWER_MAX_SUITES];
	size_t nsuites = 0;
	struct csv_table t;
	char path[PATH_MAX + 16], err[PATH_MAX + 256];
	int sc, rc;

	snprintf(path, sizeof(path), "%s/skipped.csv", run->path);
	if (run->from_json || csv_table_load(path, &t, err, sizeof(err))) {
		add_line(bld, 0, NULL, "skipped: not recorded (no skipped.csv)");
		return;
	}
	sc = csv_table_column(&t, "suite");
	rc = csv_table_column(&t, "reason");
	for (size_t i = 0; sc >= 0 && rc >= 0 && i < t.count; i++) {
		const char *suite = csv_table_cell(&t, i, (unsigned)sc);
		const char *reason = csv_table_cell(&t, i, (unsigned)rc);
		size_t s, same = 0;

		for (s = 0; s < nsuites && strcmp(suites[s].suite, suite); s++)
			;
		if (s == nsuites) {
			if (nsuites == ANSWER_MAX_SUITES)
				continue;
			suites[nsuites++] = (struct skipped_suite){ suite, reason, 0, 0 };
		}
		suites[s].rows++;
		/* the rows so far with this suite and reason */
		for (size_t j = 0; j <= i; j++)
			same += !strcmp(csv_table_cell(&t, j, (unsigned)sc), suite) &&
				!strcmp(csv_table_cell(&t, j, (unsigned)rc), reason);
		if (same > suites[s].top_rows) {
			suites[s].top_rows = same;
			suites[s].top = reason;
		}
	}
	if (!nsuites)
		add_line(bld, 0, NULL, "skipped: none");
	for (size_t s = 0; s < nsuites; s++) {
		if (suites[s].top_rows < suites[s].rows)
			add_line(bld, 0, suites[s].top,
				 "skipped: %s suite, %zu rows (skipped.csv); %zu of them: ",
				 suites[s].suite, suites[s].rows,
				 suites[s].top_rows);
		else
			add_line(bld, 0, suites[s].top,
				 "skipped: %s suite, %zu row%s (skipped.csv): ",
				 suites[s].suite, suites[s].rows,
				 suites[s].rows == 1 ? "" : "s");
	}
	csv_table_free(&t);
}

/* What this machine can give next, from what the run could do. */
static void add_next(struct builder *bld, const struct run_dir *run,
		     int module_ran)
{
	if (bld->tcg)
		add_line(bld, 0, NULL, "next: timings need hardware or KVM: `sudo ./run-bench.sh` on a machine that loads modules");
	else if (!bld->smap_used) {
		/* where SMAP is on is said above; what else it takes, here */
		if (!module_ran) {
			add_line(bld, 0, NULL, "next: the pair's own cost (inline - nopad) needs the module as well: a machine that loads modules");
			add_line(bld, 0, NULL, "next: `./run-bench.sh --vm` boots guests with SMAP on, a functional check under emulation, not a measurement, unless KVM runs Linux guests on this machine (docs/vm.md)");
		}
	} else if (module_ran && !strcmp(rundir_context_or(run, "smap_state", ""), "smap"))
		add_line(bld, 0, NULL, "next: the SMAP-off boot, for what the kernel as shipped pays: `sudo ./run-bench.sh --boots 4` (docs/boot-series.md)");
	else if (module_ran)
		add_line(bld, 0, NULL, "next: a SMAP boot to compare this one with, for what the kernel as shipped pays: `sudo ./run-bench.sh --boots 4` (docs/boot-series.md)");
	else {
		/* the system calls pay SMAP whether or not a module loads */
		if (!strcmp(rundir_context_or(run, "smap_state", ""), "smap"))
			add_line(bld, 0, NULL, "next: what SMAP costs the system calls here: the SMAP-off boot, `sudo ./run-bench.sh --boots 4` (docs/boot-series.md)");
		add_line(bld, 0, NULL, "next: the pair's own cost needs the module: a machine that loads modules (`sudo ./run-bench.sh` there)");
		/* run-bench.sh's banner says which of the two this machine is */
		add_line(bld, 0, NULL, "next: `./run-bench.sh --vm` is a functional check under emulation, not a measurement, unless KVM runs Linux guests on this machine (docs/vm.md)");
	}
	add_line(bld, 0, NULL, "next: how many pairs each operation executes: `make census` (docs/census.md)");
}

int answer_build(const struct run_dir *run, struct answer *a)
{
	enum smap_case sc = smap_case_of_run(run);
	const char *method = rundir_context(run, "smap_off_method");
	struct builder bld = { a, 0, 1, 0 };
	char sentence[512];
	int module_ran;

	memset(a, 0, sizeof(*a));
	bld.tcg = !strcmp(rundir_context_or(run, "virt", ""), "tcg");
	bld.smap_used = smap_case_kernel_uses_smap(sc) || sc == SMAP_CASE_UNRECORDED;
	/* what every figure below means hangs on it: first */
	add_line(&bld, 0, NULL, "%s", smap_case_sentence(sc, method, sentence,
							  sizeof(sentence)));
	module_ran = add_pairs(&bld, run);
	if (!module_ran && !add_bpf_bound(&bld, run))
		add_line(&bld, 0, rundir_context_or(run, "suite", "not recorded"),
			 "no figure for the pair: the run has neither the module's inline and nopad rows nor the bpf overhead; suites asked for: ");
	if (!bld.smap_used && !bld.tcg)
		add_line(&bld, 0, NULL, "the pair's cost as the kernel pays it needs a boot where the kernel uses SMAP: %s",
			 smap_case_where_smap_is_used(sc, method));
	add_calibration(&bld, run);
	add_skipped(&bld, run);
	add_next(&bld, run, module_ran ||
		 !strcmp(rundir_context_or(run, "kmod_status", ""), "ok"));
	if (bld.failed) {
		answer_free(a);
		return -1;
	}
	return 0;
}

void answer_free(struct answer *a)
{
	for (size_t i = 0; i < a->count; i++) {
		free(a->lines[i].text);
		free(a->lines[i].quoted);
	}
	free(a->lines);
	memset(a, 0, sizeof(*a));
}

void answer_print(FILE *f, const struct answer *a, int markdown)
{
	if (markdown)
		fputs("## What this run says about SMAP\n\n", f);
	else
		fputs("What this run says about SMAP:\n", f);
	for (size_t i = 0; i < a->count; i++) {
		const struct answer_line *l = &a->lines[i];

		if (markdown) {
			fputs(l->level ? "  - " : "- ", f);
			/*
			 * our own words: no markup but `commands`, and
			 * intraword _ and [low, high] render as they are
			 */
			fputs(l->text, f);
			if (l->quoted)
				md_text(f, l->quoted);
		} else {
			fprintf(f, "%*s%s%s", l->level ? 4 : 2, "", l->text,
				l->quoted ? l->quoted : "");
		}
		fputc('\n', f);
	}
	if (markdown)
		fputc('\n', f);
}

size_t answer_outliers(const struct run_bench *b)
{
	double *sorted;
	size_t n;

	if (!b->count || !(sorted = malloc(b->count * sizeof(*sorted))))
		return 0;
	memcpy(sorted, b->values, b->count * sizeof(*sorted));
	stats_sort(sorted, b->count);
	n = stats_outliers_sorted(sorted, b->count, STATS_OUTLIER_Z);
	free(sorted);
	return n;
}

/* One headline row; *noisy and *outliers say whether it had them. */
static void print_headline_row(FILE *f, const struct run_dir *run,
			       const struct run_bench *b, int *noisy,
			       int *outliers)
{
	/* the median's ns/unit factor converts the center too */
	double per_ns = b->median > 0 ? b->median_ns / b->median : NAN;
	double cyc = table_cycles_per_unit(run, b);
	char cycles[48] = "", out[32] = "";
	size_t n;

	if (isfinite(cyc))
		snprintf(cycles, sizeof(cycles), "  %.1f cycles", b->center * cyc);
	n = answer_outliers(b);
	if (n)
		snprintf(out, sizeof(out), "  %zu outlier%s", n,
			 n == 1 ? "" : "s");
	*outliers |= n > 0;
	fprintf(f, "  %-36s %9.1f ns  [%.1f .. %.1f]%s%s%s%s\n", b->name,
		b->center * per_ns, b->ci_low * per_ns,
		b->ci_high * per_ns, cycles, out, *b->flags ? "  " : "",
		b->flags);
	*noisy |= strstr(b->flags, "noisy") != NULL;
}

/* The headline rows of run, as run-bench.sh shows them after a run. */
static void print_headline_rows(FILE *f, const struct run_dir *run)
{
	const struct bench_key *k = headline_benchmarks();
	int noisy = 0, outliers = 0;

	fputs("Headline (center, 95% CI over the repetitions):\n", f);
	for (size_t i = 0; i < run->count; i++)
		if (headline_run_row(run->bench[i].suite))
			print_headline_row(f, run, &run->bench[i], &noisy,
					   &outliers);
	for (; k->suite; k++) {
		const struct run_bench *b = bench_match(run, k);

		if (b)
			print_headline_row(f, run, b, &noisy, &outliers);
	}
	/* the flag is read here, so it is said here what it means */
	if (noisy)
		fprintf(f, "  noisy: half of the samples lie more than %.0f%% from the median (MAD/median above %.0f%%, docs/schema.md); outliers alone do not set it\n",
			RESULT_NOISY_MAD_SHARE * 100, RESULT_NOISY_MAD_SHARE * 100);
	if (outliers)
		fprintf(f, "  outliers: samples with a modified Z-score above %.1f (0.6745 |x - median| / MAD); kept, and they raise no flag\n",
			STATS_OUTLIER_Z);
}

int answer_print_run(const char *who, const char *path)
{
	struct run_dir run;
	struct answer a;

	if (run_input_load(who, path, NULL, &run))
		return 1;
	if (answer_build(&run, &a)) {
		fprintf(stderr, "smapbench %s: out of memory\n", who);
		rundir_free(&run);
		return 1;
	}
	answer_print(stdout, &a, 0);
	putchar('\n');
	print_headline_rows(stdout, &run);
	answer_free(&a);
	rundir_free(&run);
	return 0;
}
