// SPDX-License-Identifier: GPL-2.0
/* compare_dir.c - two runs compared and written out; see compare_dir.h. */
#include "analysis/compare_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/calibrate.h"
#include "analysis/calibrate_dir.h"
#include "analysis/compare_boots.h"
#include "analysis/compare_controls.h"
#include "analysis/compare_json.h"
#include "analysis/compare_stats.h"
#include "analysis/compare_write.h"
#include "analysis/derived.h"
#include "analysis/pair_fit.h"
#include "analysis/pair_fit_file.h"
#include "analysis/plots.h"
#include "analysis/report_md.h"
#include "analysis/run_input.h"
#include "rundata/atomic_dir.h"

/* What cli/commands.h calls EXIT_USAGE: an output that is not ours. */
#define STATUS_NOT_OURS 2

/* Where a run is: its directory, also for DIR/results.json. */
static char *run_location(const struct run_dir *run)
{
	char *path = strdup(run->path);
	size_t len;

	if (!path)
		return NULL;
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	if (len > 13 && !strcmp(path + len - 13, "/results.json"))
		path[len - 13] = '\0';
	return path;
}

/* Default output directory for comparing a and b (malloc'ed). */
static char *default_dir(const struct run_dir *a, const struct run_dir *b)
{
	char *parent = run_location(a), *slash, *dir;
	size_t len;

	if (!parent)
		return NULL;
	slash = strrchr(parent, '/');
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	len = strlen(parent) + strlen(a->label) + strlen(b->label) + 32;
	dir = malloc(len);
	if (dir)
		snprintf(dir, len, "%s/compare-%s-vs-%s", parent, a->label,
			 b->label);
	free(parent);
	return dir;
}

/* The run whose within-boot tables to show: the SMAP one, else B. */
static const struct run_dir *smap_run(const struct run_dir *a,
				      const struct run_dir *b)
{
	if (!strcmp(rundir_context_or(b, "smap_state", ""), "smap"))
		return b;
	if (!strcmp(rundir_context_or(a, "smap_state", ""), "smap"))
		return a;
	return b;
}

/* A stage of the work, on a terminal only: "\r" overwrites it. */
static void stage(int tty, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void stage(int tty, const char *fmt, ...)
{
	va_list ap;

	if (!tty)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

static void show_compared(void *arg, size_t done, size_t total)
{
	stage(*(int *)arg, "comparing: %zu/%zu benchmarks", done, total);
}

/* Refuse an output directory we may not replace, before any work. */
static int check_out(const char *name, const char *dir, int given)
{
	char err[PATH_MAX + 256];

	if (!atomic_dir_check(dir, &atomic_dir_compare, err, sizeof(err)))
		return 0;
	fprintf(stderr, "smapbench %s: will not write %s%s: %s.\n"
		"Nothing was changed. Give --out a new directory, or one "
		"smapbench compare wrote.\n", name, dir,
		given ? "" : " (the default output directory)", err);
	return STATUS_NOT_OURS;
}

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

/*
 * What the comparison shows besides compare.csv: the tables on stdout,
 * and into dir the plots and report.md the request asks for. 0, or 1
 * when a part could not be written (said on stderr); *plotted tells
 * whether there are plots.
 */
static int write_views(const struct compare_request *req,
		       const struct run_dir *const *runs,
		       const struct compare_result *res, const char *dir,
		       int tty, int *plotted)
{
	const char *name = req->who;
	const struct run_dir *smap = smap_run(runs[0], runs[1]);
	char err[2 * PATH_MAX + 512];
	struct derived d;
	struct pair_fit fit;
	struct compare_controls controls;
	int rc = 0, have_tables, have_fit;

	compare_print(stdout, res, &req->settings, 0);
	stage(tty, "the pair's cost from the two boots");
	have_fit = !pair_fit_compute(res, runs[0], runs[1], req->census,
				     &req->settings, &fit);
	stage(tty, "%s", "");
	if (have_fit)
		pair_fit_print(stdout, &fit, 0);
	/* the run the fit took as the SMAP side */
	if (have_fit && fit.fitted &&
	    pair_fit_file_write(dir, &fit, fit.reversed ? runs[0] : runs[1])) {
		fprintf(stderr, "smapbench %s: cannot write %s: %s\n", name,
			PAIR_FIT_FILE, strerror(errno));
		rc = 1;
	}
	if (!compare_controls_compute(res, &req->settings, &controls)) {
		if (controls.moved)
			fprintf(stderr, "smapbench %s: WARNING: the negative controls "
				"moved beyond their interval (%+.1f%%): something "
				"besides SMAP differs between the boots\n", name,
				100 * controls.shift);
		compare_controls_free(&controls);
	}
	stage(tty, "within-boot tables of %s", smap->label);
	have_tables = !derived_compute(smap, &d);
	stage(tty, "%s", "");
	if (have_tables)
		derived_print(stdout, smap, &d, 0);
	if (req->plots) {
		int p;

		stage(tty, "plots");
		p = plots_render_compare(name, runs, res, &req->settings, dir);
		stage(tty, "%s", "");
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
	if (req->report && report_write(dir, runs, 2, res,
					have_tables ? &d : NULL,
					have_fit ? &fit : NULL, &req->settings,
					err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: cannot write report.md: %s\n", name,
			err);
		rc = 1;
	}
	if (have_fit)
		pair_fit_free(&fit);
	if (have_tables)
		derived_free(&d);
	return rc;
}

/*
 * The boot variance of this comparison's rows into set, from the
 * calibration asked for, else from calibration.csv beside run A when it
 * is of both runs' machine, kernel and counter; else none. cal gets the
 * calibration (set->model points into it; calibration_free() it after
 * the comparison), *path the file used (malloc'ed). 0, or 1 after saying
 * why a file asked for cannot be used.
 */
static int use_calibration(const struct compare_request *req,
			   const struct run_dir *a, const struct run_dir *b,
			   struct compare_settings *set, struct calibration *cal,
			   char **path)
{
	const char *name = req->who;
	char err[PATH_MAX + 512];
	int given = req->calibration != NULL;

	*path = NULL;
	memset(cal, 0, sizeof(*cal));
	if (req->no_calibration)
		return 0;
	*path = given ? strdup(req->calibration) : calibration_default_path(a);
	if (!*path) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		return 1;
	}
	if (!given && access(*path, F_OK)) {
		free(*path);
		*path = NULL;
		return 0;
	}
	if (calibration_read(*path, cal, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s%s\n", name, err,
			given ? "" : " (the default calibration; --no-calibration "
			"leaves it)");
		return 1;
	}
	if (calibration_mismatch(cal, a, err, sizeof(err)) ||
	    calibration_mismatch(cal, b, err, sizeof(err))) {
		if (given && !req->force) {
			calibration_free(cal);
			fprintf(stderr, "smapbench %s: refusing calibration %s: "
				"it is of another machine or kernel (%s); --force "
				"uses it anyway\n", name, *path, err);
			return 1;
		}
		if (!given) {
			calibration_free(cal);
			printf("not using %s: of another machine or kernel (%s)\n",
			       *path, err);
			free(*path);
			*path = NULL;
			return 0;
		}
	}
	set->model = &cal->model;
	set->boot_source = COMPARE_BOOT_CALIBRATION;
	set->boot_estimate_sd = cal->bv.sd;
	set->boot_df = cal->bv.common_df;
	set->boot_common_sd = cal->bv.common_sd;
	set->calibration = *path;
	return 0;
}

/*
 * Load the runs after the first of a side into extra (from *used on),
 * each checked against the side's first; 0, or 1 after saying why.
 */
static int load_more_runs(const struct compare_request *req,
			  const char *const *paths, size_t n, const struct run_dir *first,
			  struct run_dir *extra, size_t *used,
			  const struct run_dir **side)
{
	side[0] = first;
	for (size_t k = 1; k < n; k++) {
		if (run_input_load(req->who, paths[k], NULL, &extra[*used]))
			return 1;
		side[k] = &extra[(*used)++];
		if (compare_check_contexts(req->who, first, side[k], req->force))
			return 1;
	}
	return 0;
}

/*
 * The smap_state of the n runs of side ("A" or "B") into *state: 0, or 1
 * after saying that they mix states, whose deltas would mean nothing.
 */
static int side_state(const char *who, const char *side,
		      const struct run_dir *const *runs, size_t n,
		      const char **state)
{
	const char *states[COMPARE_MAX_RUNS_A_SIDE] = { NULL };

	for (size_t k = 0; k < n; k++)
		states[k] = rundir_context_or(runs[k], "smap_state", "");
	*state = compare_side_state(states, n);
	if (*state)
		return 0;
	fprintf(stderr, "smapbench %s: refusing: side %s mixes SMAP states:\n",
		who, side);
	for (size_t k = 0; k < n; k++)
		fprintf(stderr, "  %s (%s)\n", runs[k]->path,
			*states[k] ? states[k] : "state unknown");
	fprintf(stderr, "The runs of a side are boots of one SMAP state; give "
		"the others as the other side.\n");
	return 1;
}

/* Say that rows have a --fail-on verdict; the exit status. */
static int fail_on_status(const char *who, const struct compare_result *res,
			  unsigned mask)
{
	const struct compare_row *first;
	size_t n = compare_rows_with(res, mask, &first);

	if (!n)
		return 0;
	fprintf(stderr, "smapbench %s: --fail-on: %zu of %zu rows have a verdict "
		"asked for (first: %s, %s): exit status %d\n", who, n,
		res->count, first->a->name, compare_verdict_name(first->verdict),
		COMPARE_EXIT_FAIL_ON);
	return COMPARE_EXIT_FAIL_ON;
}

int compare_dir_write(const struct compare_request *request)
{
	/* a copy: the calibration sets its settings' sigma_u */
	struct compare_request r = *request;
	const struct compare_request *req = &r;
	char *calibration = NULL;
	struct calibration cal = { 0 };
	struct run_dir extra[2 * COMPARE_MAX_RUNS_A_SIDE];
	const struct run_dir *side_a[COMPARE_MAX_RUNS_A_SIDE];
	const struct run_dir *side_b[COMPARE_MAX_RUNS_A_SIDE];
	size_t na = req->na, nb = req->nb, extras = 0, kept = 0;
	const char *name = req->who, *same;
	int rc, tty = isatty(STDERR_FILENO), plotted = 0;
	struct run_dir a = { 0 }, b = { 0 };
	const struct run_dir *runs[2] = { &a, &b };
	struct compare_result res = { 0 };
	struct atomic_dir target;
	char err[2 * PATH_MAX + 512], *dir = NULL, pairing[256];
	struct compare_sides sides = { .a = side_a, .b = side_b };

	if (req->out && (rc = check_out(name, req->out, 1)))
		return rc;
	atomic_dir_cleanup_on_signals();
	stage(tty, "reading %s and %s", req->runs_a[0], req->runs_b[0]);
	rc = run_input_load_two(name, req->runs_a[0], req->runs_b[0], &a, &b,
				err, sizeof(err));
	stage(tty, "%s", "");
	if (rc) {
		fputs(err, stderr);
		return 1;
	}
	rc = 1;
	printf("A: %s (%s)\nB: %s (%s)\n", a.path,
	       rundir_context_or(&a, "smap_state", "state unknown"), b.path,
	       rundir_context_or(&b, "smap_state", "state unknown"));
	same = same_run_warning(&a, &b);
	if (same)
		fprintf(stderr, "smapbench %s: WARNING: %s.\n", name, same);
	note_partial_runs(name, runs);
	if (compare_check_contexts(name, &a, &b, req->force) ||
	    load_more_runs(req, req->runs_a, na, &a, extra, &extras, side_a) ||
	    load_more_runs(req, req->runs_b, nb, &b, extra, &extras, side_b) ||
	    side_state(name, "A", side_a, na, &sides.state_a) ||
	    side_state(name, "B", side_b, nb, &sides.state_b))
		goto out;
	sides.na = na;
	sides.nb = nb;
	compare_pairing_sentence(pairing, sizeof(pairing), sides.state_a,
				 sides.state_b);
	printf("%s\n", pairing);
	if (use_calibration(req, &a, &b, &r.settings, &cal, &calibration))
		goto out;
	dir = req->out ? strdup(req->out) : default_dir(&a, &b);
	if (!dir) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		goto out;
	}
	if (!req->out && (rc = check_out(name, dir, 0)))
		goto out;
	rc = 1;
	if (compare_sides(side_a, na, side_b, nb, &r.settings, 0, show_compared,
			  &tty, &res, &kept)) {
		stage(tty, "%s", "");
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		goto out;
	}
	stage(tty, "%s", "");
	if (!res.count) {
		fprintf(stderr, "smapbench %s: no benchmark is in both runs (A "
			"has %zu, B has %zu): names must match exactly, in "
			"units that convert to each other\n", name, a.count,
			b.count);
		goto out;
	}
	if (na > 1 || nb > 1)
		printf("%zu runs of A in %u boots, %zu of B in %u%s: every row over "
		       "all of them%s\n", na, req->settings.boots_a, nb,
		       req->settings.boots_b, req->settings.same_boot ?
		       " (all of one boot)" : "", kept ? "" : ".");
	if (kept)
		printf("  but %zu rows that a run lacks (or with under %d repetitions "
		       "or a value <= 0 in one) from the first run a side only\n",
		       kept, COMPARE_MIN_REPETITIONS);

	/* Build everything beside DIR, then swap it in. */
	if (atomic_dir_begin(&target, dir, &atomic_dir_compare, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		goto out;
	}
	if (compare_csv_write(target.tmp, &res, &req->settings) ||
	    compare_json_write(target.tmp, &res, &req->settings, &sides) ||
	    compare_settings_write(target.tmp, &req->settings)) {
		fprintf(stderr, "smapbench %s: cannot write %s/compare.csv, "
			"compare.json or compare-settings.csv: %s\n", name, target.tmp,
			strerror(errno));
		atomic_dir_abort(&target);
		goto out;
	}

	rc = write_views(req, runs, &res, target.tmp, tty, &plotted);
	if (atomic_dir_commit(&target, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		rc = 1;
		goto out;
	}
	printf("\nwritten: %s/compare.csv, compare.json%s%s\n", dir,
	       plotted ? ", plots/" : "", req->report ? ", report.md" : "");
	if (same)
		fprintf(stderr, "smapbench %s: WARNING: %s.\n", name, same);
	if (!rc)
		rc = fail_on_status(name, &res, req->fail_on);
out:
	compare_result_free(&res);
	free(dir);
	free(calibration);
	calibration_free(&cal);
	for (size_t k = 0; k < extras; k++)
		rundir_free(&extra[k]);
	rundir_free(&a);
	rundir_free(&b);
	return rc;
}
