// SPDX-License-Identifier: GPL-2.0
/*
 * report_md.c - report.md, readable on GitHub as is: warnings first,
 * what the run says about SMAP (answer.h), headline numbers, the derived
 * tables, the plots (relative links to the PNGs in plots/), every
 * result, what the row flags mean, and the context; see report_md.h.
 */
#include "analysis/report_md.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/answer.h"
#include "analysis/compare_write.h"
#include "analysis/headline.h"
#include "analysis/plots.h"
#include "analysis/run_input.h"
#include "analysis/table.h"
#include "analysis/text_table.h"
#include "measure/runner.h"
#include "measure/stats.h"
#include "rundata/atomic_dir.h"
#include "rundata/catalogue.h"

/* What a report.md of ours starts with (atomic_file_begin). */
#define REPORT_FIRST_BYTES "# smapbench "

/* A context value's line in report.md breaks at a space past this width. */
#define CONTEXT_WRAP 72

static size_t count_char(const char *s, char c)
{
	size_t n = 0;

	while ((s = strchr(s, c)))
		n++, s++;
	return n;
}

/*
 * A context value as one Markdown cell, whole: a long one (a kernel
 * command line, whose tail may be clearcpuid=smap) broken at spaces into
 * lines of about CONTEXT_WRAP characters with <br>.
 */
static void write_context_cell(FILE *f, const char *value)
{
	size_t column = 0;

	while (*value) {
		size_t word = strcspn(value, " ");
		char *text = strndup(value, word);

		if (column && column + 1 + word > CONTEXT_WRAP) {
			fputs("<br>", f);
			column = 0;
		} else if (column) {
			fputc(' ', f);
			column++;
		}
		if (text)
			md_text(f, text);
		free(text);
		column += word;
		value += word;
		value += strspn(value, " ");
	}
}

/* "a;b" as "a; b": the warnings, joined without a space when recorded. */
static char *space_after_semicolons(const char *text)
{
	char *spaced = malloc(2 * strlen(text) + 1), *p = spaced;

	if (!spaced)
		return NULL;
	for (; *text; text++) {
		*p++ = *text;
		if (*text == ';' && text[1] != ' ')
			*p++ = ' ';
	}
	*p = '\0';
	return spaced;
}

static void write_context(FILE *f, const struct run_dir *const *runs,
			  size_t nruns)
{
	size_t width = strlen("context");

	/* the keys the catalogue shows, in its order */
	for (size_t k = 0; k < context_key_count; k++)
		if ((context_keys[k].roles & KEY_SHOWN) &&
		    strlen(context_keys[k].name) + count_char(context_keys[k].name, '_') > width)
			width = strlen(context_keys[k].name) + count_char(context_keys[k].name, '_');
	fprintf(f, "| %-*s |%s\n| %.*s- |%s\n", (int)width, "context",
		nruns == 1 ? " value |" : " A | B |", (int)width - 1,
		"------------------------------------------------",
		nruns == 1 ? " ----- |" : " - | - |");
	for (size_t k = 0; k < context_key_count; k++) {
		const char *key = context_keys[k].name;
		int any = 0;

		if (!(context_keys[k].roles & KEY_SHOWN))
			continue;
		for (size_t r = 0; r < nruns; r++)
			any |= rundir_context(runs[r], key) != NULL;
		if (!any)
			continue;
		fputs("| ", f);
		md_text(f, key);
		/* md_text() escapes a key's underscores */
		fprintf(f, "%*s |", (int)(width - strlen(key) -
					  count_char(key, '_')), "");
		for (size_t r = 0; r < nruns; r++) {
			const char *v = rundir_context_or(runs[r], key, "");
			char *spaced = NULL;

			if (!strcmp(key, "warnings") && (spaced = space_after_semicolons(v)))
				v = spaced;
			fputc(' ', f);
			write_context_cell(f, v);
			fputs(" |", f);
			free(spaced);
		}
		fputc('\n', f);
	}
}

static void write_plots(FILE *f, const char *dir)
{
	int any = 0;

	fprintf(f, "\n## Plots\n\n");
	for (const struct plot *p = plots; p->name; p++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/plots/%s.png", dir, p->name);
		if (access(path, R_OK))
			continue;
		fprintf(f, "### %s\n\n![%s](plots/%s.png)\n\n"
			"[SVG](plots/%s.svg) · [data](plots/%s.dat)\n\n",
			p->caption, p->caption, p->name, p->name, p->name);
		any = 1;
	}
	if (!any)
		fprintf(f, "No plots yet: run `smapbench plot` on the run "
			"(needs gnuplot), then `smapbench report` again.\n\n");
}

/* A Markdown table with rows under its header, or instead a line saying none. */
static void print_or_say(FILE *f, struct text_table *t, size_t rows,
			 const char *none)
{
	if (rows)
		text_table_print(f, t, 1);
	else
		fprintf(f, "%s\n", none);
	text_table_free(t);
}

static void add_headline_row(struct text_table *t, const struct run_dir *run,
			     const struct run_bench *b)
{
	char m[32], ci[80], ns[32], cyc[32];

	text_table_add(t, (const char *const[]){ b->name,
		   format_number(m, sizeof(m), b->center),
		   format_interval(ci, sizeof(ci), b->ci_low, b->ci_high), b->unit,
		   format_number(ns, sizeof(ns), b->center *
			   rundir_ns_per_unit(run, b)),
		   format_number(cyc, sizeof(cyc), b->center *
			   table_cycles_per_unit(run, b)) });
}

/*
 * ns and, where the run's calibration gives them, cycles (answer.h); the
 * run's own headline rows (a command) first.
 */
static void write_headline_one(FILE *f, const struct run_dir *run)
{
	const struct bench_key *headline = headline_benchmarks();
	struct text_table t;
	size_t rows = 0;
	int cycles = 0;

	for (size_t i = 0; i < run->count; i++)
		cycles |= headline_run_row(run->bench[i].suite) &&
			  isfinite(table_cycles_per_unit(run, &run->bench[i]));
	for (size_t i = 0; headline[i].suite; i++) {
		const struct run_bench *b = bench_match(run, &headline[i]);

		cycles |= b && isfinite(table_cycles_per_unit(run, b));
	}
	text_table_init(&t, cycles ? 6 : 5, "lrrlrr");
	text_table_add(&t, (const char *const[]){ "benchmark", "center", "95% CI",
		   "unit", "ns", "cycles" });
	for (size_t i = 0; i < run->count; i++)
		if (headline_run_row(run->bench[i].suite)) {
			add_headline_row(&t, run, &run->bench[i]);
			rows++;
		}
	for (size_t i = 0; headline[i].suite; i++) {
		const struct run_bench *b = bench_match(run, &headline[i]);

		if (!b)
			continue;
		add_headline_row(&t, run, b);
		rows++;
	}
	print_or_say(f, &t, rows, "None of the headline benchmarks is in this run.");
}

static void add_compared_row(struct text_table *t, const struct compare_row *r,
			     const struct compare_words *words)
{
	char ma[32], mb[32], d[32], dns[32], rel[32], ci[80];

	text_table_add(t, (const char *const[]){ r->a->name,
		   format_number(ma, sizeof(ma), r->center_a),
		   format_number(mb, sizeof(mb), r->center_b), r->unit,
		   format_number(d, sizeof(d), r->delta),
		   format_number(dns, sizeof(dns), r->delta_ns),
		   format_percent(rel, sizeof(rel), r->relative),
		   format_interval(ci, sizeof(ci), r->ci_low, r->ci_high),
		   words->verdict[r->verdict] });
}

/* Units differ between suites (ticks, ns): every row says its own. */
static void write_headline_two(FILE *f, const struct compare_result *res,
			       const struct compare_words *words)
{
	const struct bench_key *headline = headline_benchmarks();
	struct text_table t;
	size_t rows = 0;

	/*
	 * A and B are what B-A is the difference of: the centers, not the
	 * medians of all samples (compare.csv has both).
	 */
	fprintf(f, "A and B: each run's center, the mean of its repetition "
		"medians; B-A: their difference, with its interval over the "
		"repetitions and 2 sigma_u^2 for the two boots.\n\n");
	text_table_init(&t, 9, "lrrlrrrrl");
	text_table_add(&t, (const char *const[]){ "benchmark", "A", "B", "unit",
		   "B-A", "B-A ns", "B-A %", "95% CI of B-A", "verdict" });
	/* the compared rows' own headline rows (a command) first */
	for (size_t k = 0; k < res->count; k++)
		if (headline_run_row(res->rows[k].a->suite)) {
			add_compared_row(&t, &res->rows[k], words);
			rows++;
		}
	for (size_t i = 0; headline[i].suite; i++)
		for (size_t k = 0; k < res->count; k++) {
			if (!bench_is(res->rows[k].a, &headline[i]))
				continue;
			add_compared_row(&t, &res->rows[k], words);
			rows++;
		}
	print_or_say(f, &t, rows, "None of the headline benchmarks is in both runs.");
}

static void write_results(FILE *f, const struct run_dir *run)
{
	struct text_table t;

	text_table_init(&t, 9, "lrrlrrrrl");
	text_table_add(&t, (const char *const[]){ "benchmark", "center", "95% CI",
		   "unit", "cv", "repetitions", "samples", "outliers", "flags" });
	for (size_t i = 0; i < run->count; i++) {
		const struct run_bench *b = &run->bench[i];
		char m[32], ci[80], cv[32], n[32], r[32], out[32];

		if (isnan(b->cv))
			snprintf(cv, sizeof(cv), "-");
		else
			snprintf(cv, sizeof(cv), "%.1f%%", 100 * b->cv);
		snprintf(n, sizeof(n), "%zu", b->count);
		snprintf(r, sizeof(r), "%zu", b->repetitions);
		snprintf(out, sizeof(out), "%zu", answer_outliers(b));
		text_table_add(&t, (const char *const[]){ b->name,
			   format_number(m, sizeof(m), b->center),
			   format_interval(ci, sizeof(ci), b->ci_low, b->ci_high), b->unit,
			   cv, r, n, out, b->flags });
	}
	text_table_print(f, &t, 1);
	text_table_free(&t);
}

/* Whether a ';'-separated flags field holds flag. */
static int has_flag(const char *flags, const char *flag)
{
	size_t len = strlen(flag);

	for (const char *p = flags; (p = strstr(p, flag)); p += len)
		if ((p == flags || p[-1] == ';') && (p[len] == ';' || !p[len]))
			return 1;
	return 0;
}

/*
 * The flags of results.csv (docs/schema.md), explained once, with how
 * many rows of each run carry them.
 */
static void write_flags(FILE *f, const struct run_dir *const *runs,
			size_t nruns)
{
	static const struct {
		const char *flag, *meaning;
	} flags[] = {
		{ "noisy", NULL },	/* noisy_meaning, from the code's threshold */
		{ "preempted", "more than 10% of the samples saw an involuntary "
		  "context switch (getrusage around each sample): another task "
		  "ran on the CPU; such samples are kept" },
		{ "clamped", "a sample could not reach --min-time (the module "
		  "caps its loops at about 1 ms), so samples are shorter than "
		  "asked" },
		{ "unpinned", "the run could not pin itself to one CPU" },
		{ "tcg", "the run was emulated by QEMU TCG: functional only" },
	};
	char noisy_meaning[320];
	int any = 0;

	/* as result_noisy() decides it (measure/runner.h) */
	snprintf(noisy_meaning, sizeof(noisy_meaning),
		 "the median absolute deviation of the samples is above %.0f%% "
		 "of their median (MAD/median > %.2f): half of the samples lie "
		 "more than %.0f%% from it, so the bulk is wide and the center "
		 "may move between runs; outliers alone do not set it, they are "
		 "counted apart (the outliers column)",
		 RESULT_NOISY_MAD_SHARE * 100, RESULT_NOISY_MAD_SHARE,
		 RESULT_NOISY_MAD_SHARE * 100);
	for (size_t k = 0; k < sizeof(flags) / sizeof(*flags); k++) {
		size_t count[2] = { 0, 0 };

		for (size_t r = 0; r < nruns; r++)
			for (size_t i = 0; i < runs[r]->count; i++)
				count[r] += has_flag(runs[r]->bench[i].flags,
						     flags[k].flag);
		if (!count[0] && !count[1])
			continue;
		if (!any++)
			fprintf(f, "\n## Row flags\n\nresults.csv marks rows "
				"(`flags` column); in this report:\n\n");
		fprintf(f, "- **%s** (", flags[k].flag);
		for (size_t r = 0; r < nruns; r++)
			fprintf(f, "%s%s%zu of %zu rows", r ? ", " : "",
				nruns == 1 ? "" : r ? "B " : "A ", count[r],
				runs[r]->count);
		fprintf(f, "): %s.\n", flags[k].meaning ? flags[k].meaning :
			noisy_meaning);
	}
}

/* A run's context warnings, one bullet each. */
static void write_run_warnings(FILE *f, const char *who,
			       const struct run_dir *run)
{
	char *copy = strdup(rundir_context_or(run, "warnings", "")), *save = NULL;

	if (!copy)
		return;
	for (char *w = strtok_r(copy, ";", &save); w; w = strtok_r(NULL, ";", &save)) {
		while (*w == ' ')
			w++;
		if (*w) {
			fprintf(f, "- %s", who);
			md_text(f, w);
			fputc('\n', f);
		}
	}
	free(copy);
}

/* Before anything else: what limits every number below. */
static void write_warnings(FILE *f, const struct run_dir *const *runs,
			   size_t nruns, const char *same)
{
	int any = 0;

	if (same)
		fprintf(f, "> **Not a comparison:** %s.\n\n", same);
	for (size_t r = 0; r < nruns; r++) {
		const char *virt = rundir_context_or(runs[r], "virt", "");

		if (!strcmp(virt, "tcg")) {
			fputs("> **Functional only:** ", f);
			md_text(f, runs[r]->label);
			fputs(" ran under QEMU TCG (emulation); its timings say "
			      "nothing about real hardware.\n\n", f);
		}
		if (!strcmp(rundir_context_or(runs[r], "host", ""), "fixture")) {
			fputs("> **Synthetic data:** ", f);
			md_text(f, runs[r]->label);
			fputs(" is a test fixture with made-up numbers, not a "
			      "measurement.\n\n", f);
		}
		any |= *rundir_context_or(runs[r], "warnings", "") != '\0';
	}
	if (!any)
		return;
	fprintf(f, "## Warnings recorded by the run%s\n\n", nruns == 1 ? "" : "s");
	for (size_t r = 0; r < nruns; r++)
		write_run_warnings(f, nruns == 1 ? "" : r ? "B: " : "A: ", runs[r]);
	fputc('\n', f);
}

/*
 * Which run is which, and what B - A means from their SMAP states (the
 * plan's sentence: SMAP's cost, minus it, or no SMAP at all). A side of
 * several runs is of one state (compare refuses a mix), so its first
 * run's state is the side's.
 */
static void write_comparison_intro(FILE *f, const struct run_dir *const *runs,
				   const char *pairing)
{
	const char *state_a = rundir_context_or(runs[0], "smap_state", "");
	const char *state_b = rundir_context_or(runs[1], "smap_state", "");

	fprintf(f, "A = `%s` (%s), B = `%s` (%s). %s\n\n", runs[0]->path,
		*state_a ? state_a : "state unknown", runs[1]->path,
		*state_b ? state_b : "state unknown", pairing);
}

int report_write(const char *dir, const struct run_dir *const *runs,
		 size_t nruns, const struct report_comparison *cmp, char *err,
		 size_t errlen)
{
	char path[PATH_MAX + 16];
	const struct run_dir *smap = runs[nruns - 1];
	const struct compare_result *res = cmp ? cmp->res : NULL;
	const struct compare_settings *set = cmp ? cmp->set : NULL;
	const struct pair_fit *fit = cmp ? cmp->fit : NULL;
	struct atomic_file out;
	struct derived computed;
	const struct derived *d = cmp ? cmp->tables : NULL;
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/report.md", dir) >= sizeof(path)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -1;
	}
	f = atomic_file_begin(&out, path, REPORT_FIRST_BYTES, err, errlen);
	if (!f)
		return -1;
	for (size_t r = 0; r < nruns; r++)
		if (!strcmp(rundir_context_or(runs[r], "smap_state", ""), "smap"))
			smap = runs[r];

	if (nruns == 1) {
		fputs(REPORT_FIRST_BYTES "report: ", f);
		md_text(f, runs[0]->label);
		fputs("\n\n", f);
	} else {
		fputs(REPORT_FIRST_BYTES "comparison: ", f);
		md_text(f, runs[0]->label);
		fputs(" vs ", f);
		md_text(f, runs[1]->label);
		fputs("\n\n", f);
	}
	if (cmp)
		write_comparison_intro(f, runs, cmp->pairing);
	write_warnings(f, runs, nruns, cmp ? cmp->same : NULL);
	if (nruns == 1) {
		struct answer a;

		if (!answer_build(runs[0], &a)) {
			answer_print(f, &a, 1);
			answer_free(&a);
		}
	}

	fprintf(f, "## Headline\n\n");
	if (nruns == 1) {
		write_headline_one(f, runs[0]);
	} else {
		write_headline_two(f, res, cmp->words);
		fputc('\n', f);
		compare_fdr_sentence(f, res, set);
		fputc('\n', f);
		compare_boot_sentence(f, set);
		fputs(".\n", f);
		if (set->withheld) {
			fputc('\n', f);
			compare_withheld_sentence(f, set);
		}
	}

	/* a comparison computed its tables, if the SMAP run has them */
	if (!cmp && !derived_compute(smap, &computed))
		d = &computed;
	if (d) {
		if (d->pair_count || d->batch_count || d->crossover_count) {
			fprintf(f, "\n## STAC/CLAC within one boot (%s, %s)\n\n"
				"Centers in %s; each figure the mean over the "
				"repetitions of a paired difference of two rows "
				"that ran side by side, with its 95%% t interval. "
				"*inline* brackets every access with raw "
				"STAC/CLAC, *nopad* has NOPs in their place, so "
				"inline - nopad is one pair's cost; *batched* puts "
				"one pair around K accesses.\n",
				smap->label,
				rundir_context_or(smap, "smap_state", "state unknown"),
				d->unit);
			derived_print(f, smap, d, 1);
		}
		if (d == &computed)
			derived_free(&computed);
	}
	if (fit)
		pair_fit_print(f, fit, 1);

	write_plots(f, dir);

	if (nruns == 2) {
		fprintf(f, "## All benchmarks, B against A\n\n");
		compare_print(f, res, set, cmp->words, cmp->controls, 1);
		fprintf(f, "\n### How the comparison was computed\n\n"
			"Also in compare-settings.csv; docs/interpreting.md "
			"explains each.\n\n");
		compare_settings_print(f, set);
	} else {
		fprintf(f, "## All results\n\n"
			"center: the mean of the repetitions' medians (each "
			"repetition a process of its own); 95%% CI: Student's t "
			"over those repetitions, which holds what differs between "
			"processes, not what moves a whole invocation or boot "
			"(the machine's load, the host's clock: `smapbench "
			"calibrate` over runs of one boot measures it); cv: of "
			"all samples; outliers: "
			"samples with a modified Z-score above %.1f "
			"(0.6745 |x - median| / MAD), kept in every statistic, "
			"raising no flag.\n\n", STATS_OUTLIER_Z);
		write_results(f, runs[0]);
	}
	write_flags(f, runs, nruns);
	fprintf(f, "\n## Context\n\n");
	write_context(f, runs, nruns);
	fprintf(f, "\nHow to read these numbers: docs/interpreting.md.\n");
	return atomic_file_commit(&out, err, errlen);
}

int report_write_run(const char *who, const char *path)
{
	struct run_dir run;
	const struct run_dir *runs[1] = { &run };
	char err[PATH_MAX + 256];

	atomic_dir_cleanup_on_signals();
	if (run_input_load(who, path, "a report needs a run directory", &run))
		return 1;
	if (report_write(run.path, runs, 1, NULL, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: no report written: %s\n", who, err);
		rundir_free(&run);
		return 1;
	}
	printf("report: %s/report.md\n", run.path);
	rundir_free(&run);
	return 0;
}
