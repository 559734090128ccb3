// SPDX-License-Identifier: GPL-2.0
/*
 * compare_output.c - everything a comparison says and writes, from its
 * plan and outcome; see compare_output.h.
 */
#include "analysis/compare_output.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare_json.h"
#include "analysis/compare_write.h"
#include "analysis/pair_fit_file.h"
#include "analysis/plots.h"
#include "analysis/progress.h"
#include "analysis/report_md.h"
#include "analysis/run_input.h"
#include "rundata/atomic_dir.h"
#include "rundata/catalogue.h"

/* Notes on what of the runs cannot be compared in full. */
static void note_partial_runs(const char *name, const struct run_dir *const *runs)
{
	for (int r = 0; r < 2; r++)
		if (runs[r]->orphan_samples)
			fprintf(stderr, "smapbench %s: note: %s's samples.csv has "
				"%zu samples of benchmarks its results.csv does "
				"not list: not used\n", name, r ? "B" : "A",
				runs[r]->orphan_samples);
	for (int r = 0; r < 2; r++)
		if (runs[r]->aggregates_only)
			fprintf(stderr, "smapbench %s: note: %s has %zu benchmarks "
				"with a median only (Google Benchmark's "
				"--benchmark_report_aggregates_only): no CI or test "
				"for them, verdict \"unknown\"\n", name,
				r ? "B" : "A", runs[r]->aggregates_only);
}

/* A and B, their states, and what is wrong with comparing them. */
static void say_pair(const struct compare_plan *plan)
{
	const struct run_dir *a = plan->pair[0], *b = plan->pair[1];

	printf("A: %s (%s)\nB: %s (%s)\n", a->path,
	       rundir_context_or(a, "smap_state", "state unknown"), b->path,
	       rundir_context_or(b, "smap_state", "state unknown"));
	if (plan->same)
		fprintf(stderr, "smapbench %s: WARNING: %s.\n", plan->who,
			plan->same);
	note_partial_runs(plan->who, plan->pair);
}

/*
 * How two runs' contexts differ: on stderr a run not complete, what
 * blocks and what was not checked; on stdout what differs as expected
 * or for the user to judge.
 */
static void say_context(const char *who, const struct compare_context_check *c)
{
	const struct run_dir *runs[2] = { c->a, c->b };
	const struct context_diff *d = c->diffs;

	run_input_check_complete(who, "A", c->a, c->force);
	run_input_check_complete(who, "B", c->b, c->force);
	/* What could not be checked is said, never passed over. */
	for (int r = 0; r < 2; r++)
		if (!runs[r]->from_json && !runs[r]->has_context_file)
			fprintf(stderr, "smapbench %s: warning: %s (%s) has no "
				"context.csv: whether both runs come from one "
				"machine, kernel and counter was not checked\n",
				who, r ? "B" : "A", runs[r]->path);
	if (*c->unchecked)
		fprintf(stderr, "smapbench %s: warning: not checked, as not "
			"recorded by both runs: %s\n", who, c->unchecked);
	if (c->blocking) {
		fprintf(stderr, "smapbench %s: %s the two runs differ in "
			"what makes numbers comparable:\n", who,
			c->force ? "warning (--force):" : "refusing:");
		for (size_t i = 0; i < c->count; i++)
			if (d[i].kind == CONTEXT_DIFF_BLOCKING)
				fprintf(stderr, "  %-16s A: %s\n  %-16s B: %s\n",
					d[i].key, d[i].a, "", d[i].b);
		if (!c->force)
			fprintf(stderr, "A comparison across machines, CPUs, "
				"microcode, kernels, counters or virtualisation "
				"measures those differences too; rerun with "
				"--force to compare anyway.\n");
	}
	for (int kind = CONTEXT_DIFF_EXPECTED; kind <= CONTEXT_DIFF_INFO; kind++) {
		size_t shown = 0;

		for (size_t i = 0; i < c->count; i++) {
			if ((int)d[i].kind != kind)
				continue;
			if (!shown++)
				printf(kind == CONTEXT_DIFF_EXPECTED
				       ? "context differs as expected between boots:"
				       : "context also differs (check it does not matter):");
			printf(" %s", d[i].key);
		}
		if (shown)
			printf("\n");
	}
}

static void say_pairing(const struct compare_plan *plan)
{
	printf("%s\n", plan->sides.sentence);
}

static void say_calibration_left(const char *path, const char *why)
{
	printf("not using %s: of another machine or kernel (%s)\n", path, why);
}

const struct compare_plan_voice compare_console_voice = {
	.pair = say_pair,
	.context = say_context,
	.pairing = say_pairing,
	.calibration_left = say_calibration_left,
};

/* How the rows of several runs a side were computed, on stdout. */
static void print_sides(const struct compare_plan *plan,
			const struct compare_outcome *out)
{
	const struct compare_settings *set = &out->settings;
	size_t na = plan->sides.na, nb = plan->sides.nb;

	if (na > 1 || nb > 1)
		printf("%zu runs of A in %u boots, %zu of B in %u%s: every row over "
		       "all of them%s\n", na, set->boots_a, nb, set->boots_b,
		       set->same_boot ? " (all of one boot)" : "",
		       out->kept ? "" : ".");
	if (out->kept)
		printf("  but %zu rows that a run lacks (or with under %d repetitions "
		       "or a value <= 0 in one) from the first run a side only\n",
		       out->kept, COMPARE_MIN_REPETITIONS);
}

/*
 * compare.csv, compare.json and compare-settings.csv into dir; 0, or 1
 * after saying what could not be written.
 */
static int write_tables(const struct compare_plan *plan,
			const struct compare_outcome *out, const char *dir)
{
	if (!compare_csv_write(dir, &out->res, &out->settings, &out->words) &&
	    !compare_json_write(dir, &out->res, &out->settings, &out->words,
				&plan->sides) &&
	    !compare_settings_write(dir, &out->settings))
		return 0;
	fprintf(stderr, "smapbench %s: cannot write %s/compare.csv, "
		"compare.json or compare-settings.csv: %s\n", plan->who, dir,
		strerror(errno));
	return 1;
}

/*
 * What the comparison shows besides compare.csv: the tables on stdout,
 * and into dir the pair's fit, the plots and report.md the request asks
 * for. 0, or 1 when a part could not be written (said on stderr);
 * *plotted tells whether there are plots.
 */
static int write_views(const struct compare_plan *plan,
		       const struct compare_outcome *out, const char *dir,
		       int *plotted)
{
	const char *name = plan->who;
	const struct compare_settings *set = &out->settings;
	const struct pair_fit *fit = out->have_fit ? &out->fit : NULL;
	char err[2 * PATH_MAX + 512];
	int rc = 0;

	compare_print(stdout, &out->res, set, &out->words,
		      out->have_controls ? &out->controls : NULL, 0);
	if (fit)
		pair_fit_print(stdout, fit, 0);
	/* the run the fit took as the SMAP side */
	if (fit && fit->fitted &&
	    pair_fit_file_write(dir, fit, plan->pair[fit->reversed ? 0 : 1])) {
		fprintf(stderr, "smapbench %s: cannot write %s: %s\n", name,
			PAIR_FIT_FILE, strerror(errno));
		rc = 1;
	}
	if (out->have_controls && out->controls.moved)
		fprintf(stderr, "smapbench %s: WARNING: the negative controls "
			"moved beyond their interval (%+.1f%%): something "
			"besides SMAP differs between the boots\n", name,
			100 * out->controls.shift);
	if (out->have_tables)
		derived_print(stdout, plan->smap, &out->tables, 0);
	if (plan->req.plots) {
		int p;

		progress_line(plan->tty, "plots");
		p = plots_render_compare(name, plan->pair, &out->res, set, dir);
		progress_line(plan->tty, "%s", "");
		if (p == PLOTS_NONE) {
			printf("\nno plots: the runs have no kmod, syscall or bpf results\n");
		} else if (p) {
			fprintf(stderr, "smapbench %s: plots not rendered (see "
				"above); compare.csv is complete\n", name);
			rc = 1;
		} else {
			*plotted = 1;
		}
	}
	if (plan->req.report &&
	    report_write(dir, plan->pair, 2, &(struct report_comparison){
				 .res = &out->res, .set = set,
				 .words = &out->words,
				 .tables = out->have_tables ? &out->tables : NULL,
				 .fit = fit,
				 .controls = out->have_controls ? &out->controls : NULL,
				 .pairing = plan->sides.sentence, .same = plan->same },
			 err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: cannot write report.md: %s\n", name,
			err);
		rc = 1;
	}
	return rc;
}

/* Say that rows have a --fail-on verdict; the exit status. */
static int fail_on_status(const char *who, const struct compare_outcome *out)
{
	if (!out->fail_on_rows)
		return 0;
	fprintf(stderr, "smapbench %s: --fail-on: %zu of %zu rows have a verdict "
		"asked for (first: %s, %s): exit status %d\n", who,
		out->fail_on_rows, out->res.count, out->fail_on_first->a->name,
		out->words.verdict[out->fail_on_first->verdict],
		COMPARE_EXIT_FAIL_ON);
	return COMPARE_EXIT_FAIL_ON;
}

int compare_output_write(const struct compare_plan *plan,
			 const struct compare_outcome *out)
{
	const char *name = plan->who;
	struct atomic_dir target;
	char err[2 * PATH_MAX + 512];
	int rc, plotted = 0;

	print_sides(plan, out);
	if (atomic_dir_begin(&target, plan->dir, &atomic_dir_compare, err,
			     sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		return 1;
	}
	if (write_tables(plan, out, target.tmp)) {
		atomic_dir_abort(&target);
		return 1;
	}
	rc = write_views(plan, out, target.tmp, &plotted);
	if (atomic_dir_commit(&target, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		return 1;
	}
	printf("\nwritten: %s/compare.csv, compare.json%s%s\n", plan->dir,
	       plotted ? ", plots/" : "", plan->req.report ? ", report.md" : "");
	if (plan->same)
		fprintf(stderr, "smapbench %s: WARNING: %s.\n", name, plan->same);
	return rc ? rc : fail_on_status(name, out);
}
