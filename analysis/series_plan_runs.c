// SPDX-License-Identifier: GPL-2.0
/* series_plan_runs.c - a plan's inputs from runs; see series_plan_runs.h. */
#include "analysis/series_plan_runs.h"

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibrate.h"
#include "analysis/compare_stats.h"
#include "analysis/headline.h"
#include "analysis/run_select.h"
#include "rundata/rundir.h"

/*
 * One repetition of every row of run, timed samples and their warm-up,
 * in s: samples / repetitions + 1 samples of iterations operations of
 * median_ns each, as results.csv records them; into *whole, the run's
 * repetitions of them all.
 */
static double repetition_seconds(const struct run_dir *run, double *whole)
{
	/* schema 1 has the run's repetitions only, in its context */
	int per_row = strtod(rundir_context_or(run, "schema_version", "1"), NULL) >= 2;
	double run_reps = strtod(rundir_context_or(run, "repetitions", "0"), NULL);
	double ns = 0, all = 0;

	for (size_t i = 0; i < run->count; i++) {
		const struct run_bench *b = &run->bench[i];
		double reps = per_row ? (double)b->repetitions : run_reps;

		if (reps > 0 && isfinite(b->median_ns) && b->median_ns > 0) {
			ns += ((double)b->samples / reps + 1) *
			      (double)b->iterations * b->median_ns;
			all += ((double)b->samples + reps) *
			       (double)b->iterations * b->median_ns;
		}
	}
	*whole = all * 1e-9;
	return ns * 1e-9;
}

/* Whether name is a headline row. */
static int headline(const struct run_dir *run, const char *name)
{
	for (const struct bench_key *k = headline_benchmarks(); k->suite; k++) {
		const struct run_bench *b = bench_match(run, k);

		if (b && !strcmp(b->name, name))
			return 1;
	}
	return 0;
}

/* The pooled variance of name's log repetition medians over the runs. */
static double repetition_variance(const struct run_dir *const *runs,
				  size_t count, const char *name)
{
	double sum = 0, df = 0;

	for (size_t j = 0; j < count; j++) {
		struct compare_log_figure f;

		if (!compare_log_figure_of(rundir_find(runs[j], name),
					   COMPARE_MIN_REPETITIONS, &f))
			return NAN;
		/* f.var is s^2 / r */
		sum += f.var * f.reps * (f.reps - 1);
		df += f.reps - 1;
	}
	return df > 0 ? sum / df : NAN;
}

static int take(struct series_plan_inputs *in, const struct run_dir *const *runs,
		size_t count, const char *name)
{
	double v = repetition_variance(runs, count, name);

	if (!isfinite(v))
		return 0;
	in->names[in->count] = strdup(name);
	if (!in->names[in->count])
		return -1;
	in->rows[in->count] = (struct series_components){
		in->names[in->count], in->boot_sd, 0, sqrt(v) };
	in->count++;
	return 0;
}

int series_plan_from_runs(const struct run_dir *const *runs, size_t count,
			  const char *rows, struct series_plan_inputs *out,
			  char *err, size_t errlen)
{
	struct calibration c;
	regex_t re;
	int have_re = 0, rc = -1;

	memset(out, 0, sizeof(*out));
	if (calibrate_runs(runs, count, &c, err, errlen))
		return -1;
	if (c.invocation) {
		/* calibrate takes them for invocations; a plan needs boots */
		snprintf(err, errlen, "the %zu runs are all of one boot (boot_id): no variance between boots to plan a series from; give runs of two or more boots",
			 c.runs);
		calibration_free(&c);
		return -1;
	}
	if (rows) {
		int e = regcomp(&re, rows, REG_EXTENDED | REG_NOSUB);

		if (e) {
			char why[256];

			regerror(e, &re, why, sizeof(why));
			snprintf(err, errlen, "--rows '%s': %s", rows, why);
			goto out;
		}
		have_re = 1;
	}
	out->boot_sd = c.bv.sd;
	out->boot_df = c.bv.df;
	out->runs = c.runs;
	out->boots = c.boots;
	out->rows = calloc(c.rows + 1, sizeof(*out->rows));
	out->names = calloc(c.rows + 1, sizeof(*out->names));
	if (!out->rows || !out->names) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	out->headline = !rows;
	for (size_t k = 0; k < c.rows; k++) {
		const char *name = c.row_names[k];

		if (have_re ? regexec(&re, name, 0, NULL, 0) != 0 :
			      !headline(runs[0], name))
			continue;
		if (take(out, runs, count, name))
			goto nomem;
	}
	/* no headline row among them: every row */
	if (!rows && !out->count) {
		out->headline = 0;
		for (size_t k = 0; k < c.rows; k++)
			if (take(out, runs, count, c.row_names[k]))
				goto nomem;
	}
	if (!out->count) {
		snprintf(err, errlen, "no row %s%s%s among the %zu the calibration used, with %d or more repetitions in every run",
			 rows ? "matches --rows '" : "", rows ? rows : "", rows ? "'" : "",
			 c.rows, COMPARE_MIN_REPETITIONS);
		goto out;
	}
	{
		size_t timed = 0;

		for (size_t j = 0; j < count; j++) {
			double whole, s = repetition_seconds(runs[j], &whole);

			if (s > 0) {
				out->repetition_seconds += s;
				out->run_timed_seconds += whole;
				timed++;
			}
		}
		out->repetition_seconds = timed ? out->repetition_seconds / (double)timed : NAN;
		out->run_timed_seconds = timed ? out->run_timed_seconds / (double)timed : NAN;
	}
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	if (have_re)
		regfree(&re);
	calibration_free(&c);
	if (rc)
		series_plan_inputs_free(out);
	return rc;
}

void series_plan_inputs_free(struct series_plan_inputs *in)
{
	for (size_t i = 0; in->names && i < in->count; i++)
		free(in->names[i]);
	free(in->names);
	free(in->rows);
	memset(in, 0, sizeof(*in));
}

/* "1 h 05 min", "12 min 30 s", "45 s" */
static const char *duration(char *buf, size_t len, double s)
{
	long t = lround(s);

	if (t >= 3600)
		snprintf(buf, len, "%ld h %02ld min", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%ld s", t);
	return buf;
}

/* a cost: tenths below a minute, where measured costs of a few s fall */
static const char *cost(char *buf, size_t len, double s)
{
	if (s < 59.95) {
		snprintf(buf, len, "%.1f s", s);
		return buf;
	}
	return duration(buf, len, s);
}

static void print_design(FILE *f, const struct series_plan_request *req,
			 const struct series_design *d)
{
	char a[48];

	fprintf(f, "%u boots (%u a state), %u invocation%s a boot, %u repetitions an invocation: %.2f%% (widest: %s), about %s",
		d->boots, d->boots / 2, d->invocations, d->invocations == 1 ? "" : "s",
		d->repetitions, 100 * d->half_width, req->rows[d->worst].name,
		duration(a, sizeof(a), d->seconds));
}

void series_plan_print(FILE *f, const struct series_plan_inputs *in,
		       const struct series_plan_request *req,
		       const struct series_plan *p,
		       const char *const sources[4])
{
	const struct series_costs *c = &req->cost;
	char a[48], b[48];

	fprintf(f, "variance components from %zu runs of %zu boots (as calibrate takes them):\n"
		"  sigma_boot %.2f%% (%.1f df), every row: the calibration's, as compare uses it;\n"
		"  invocations of a boot are not told apart from the boot: sigma_inv 0, in sigma_boot\n",
		in->runs, in->boots, 100 * in->boot_sd, in->boot_df);
	fprintf(f, "  sigma_rep of the %zu %s rows:\n", in->count,
		in->headline ? "headline" : "chosen");
	for (size_t i = 0; i < in->count; i++)
		fprintf(f, "    %-44s %6.2f%%\n", in->rows[i].name,
			100 * in->rows[i].repetition_sd);
	fprintf(f, "costs:\n  a boot         %-10s %s\n  an invocation  %-10s %s\n",
		cost(a, sizeof(a), c->boot), sources[0],
		cost(b, sizeof(b), c->invocation), sources[1]);
	snprintf(b, sizeof(b), "%.3g s", c->repetition);
	fprintf(f, "  a repetition   %-10s %s\n  the end        %-10s %s\n", b,
		sources[2], cost(a, sizeof(a), c->series), sources[3]);
	fprintf(f, "target: the %.0f%% interval of SMAP on - off within +-%.2f%% (log scale) on each row,\n"
		"  t with the series' own boot-level degrees of freedom, 2 (boots a state - 1)\n",
		100 * req->level, 100 * req->half_width);
	if (p->feasible) {
		fprintf(f, "plan: ");
		print_design(f, req, &p->plan);
		fputc('\n', f);
	} else {
		fprintf(f, "NO PLAN within %u boots: the narrowest they give is ", req->max_boots);
		print_design(f, req, &p->best);
		fputc('\n', f);
		if (p->needed.boots) {
			fprintf(f, "  +-%.2f%% needs ", 100 * req->half_width);
			print_design(f, req, &p->needed);
			fprintf(f, "\n  (--max-boots %u), or a wider --precision\n", p->needed.boots);
		} else {
			fprintf(f, "  not even %u boots reach +-%.2f%% with at most %u repetitions: a wider --precision\n",
				2 * SERIES_PLAN_BOOT_CAP, 100 * req->half_width,
				req->max_repetitions);
		}
	}
	fprintf(f, "Kalibera and Jones's continuous optimum for the widest row: %.3g invocation(s) a boot,\n"
		"  %.3g repetitions an invocation, at least %s at the normal quantile (what\n"
		"  the plan takes beyond it is whole numbers and t with few boots)\n",
		p->ideal_invocations, p->ideal_repetitions,
		duration(a, sizeof(a), p->lower_bound_seconds));
}
