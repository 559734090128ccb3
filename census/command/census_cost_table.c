// SPDX-License-Identifier: GPL-2.0
/*
 * census_cost_table.c - a pair's cost from a row of a table.csv of
 * smapbench table, and this machine's core frequency from its
 * calibration chains; see census_cost.h.
 */
#include "census/command/census_cost.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/calib.h"
#include "measure/context.h"
#include "rundata/csv.h"
#include "rundata/table_csv.h"

/* Blocks of the chains timed here, as a run's context records them. */
#define CALIB_BLOCKS 200
/*
 * Times the chains are timed before they are taken to disagree: on a
 * busy machine (other work on the other core, a neighbour of a virtual
 * machine) one timing may catch the two chains at different speeds.
 */
#define CALIB_ATTEMPTS 5

static int number(const char *text, double *v)
{
	char *end;

	if (!text || !*text)
		return -1;
	errno = 0;
	*v = strtod(text, &end);
	return errno || *end || !isfinite(*v) ? -1 : 0;
}

/*
 * This machine's frequency from its two chains, timed again while they
 * disagree, CALIB_ATTEMPTS times at most; -1 when they still do.
 */
int census_cost_measure_ghz(struct census_pair_cost *c, char *err, size_t errlen)
{
	struct calib_verdict v = { 0 };
	int attempt;

	for (attempt = 1; attempt <= CALIB_ATTEMPTS && !v.consistent; attempt++) {
		struct context ctx = { 0 };
		double add_ns = 0, imul_ns = 0;

		if (calib_measure_user(CALIB_BLOCKS, &add_ns, &imul_ns))
			add_ns = imul_ns = 0;
		calib_context_record(&ctx, "calib_user_", add_ns, imul_ns, &v);
		context_free(&ctx);
	}
	if (!v.consistent) {
		snprintf(err, errlen,
			 "this machine's calibration chains disagreed %d times (the last: add r,r %.3f GHz, imul r,r %.3f GHz, %.1f%% apart; docs/methodology.md), so no core frequency: give one with --ghz",
			 CALIB_ATTEMPTS, v.add_ghz, v.imul_ghz, 100 * v.disagreement);
		return -1;
	}
	c->ghz = v.ghz;
	c->calib_add_ghz = v.add_ghz;
	c->calib_imul_ghz = v.imul_ghz;
	snprintf(c->ghz_source, sizeof(c->ghz_source),
		 "%.3f GHz, measured on this machine by the calibration chains (add r,r %.3f GHz, imul r,r %.3f GHz, %.1f%% apart, timing %d of at most %d)",
		 v.ghz, v.add_ghz, v.imul_ghz, 100 * v.disagreement, attempt - 1,
		 CALIB_ATTEMPTS);
	return 0;
}

/* The table row's lines of figure: which line of csv, or -1; -2 with err. */
static long find_row(const struct csv_table *csv, const char *path,
		     const char *spec, const char *figure, char *err,
		     size_t errlen)
{
	char host[256], kernel[256] = "", kernels[512] = "", figures[512] = "";
	const char *colon = strchr(spec, ':');
	long found = -1;
	size_t rows = 0;

	snprintf(host, sizeof(host), "%.*s",
		 (int)(colon ? (size_t)(colon - spec) : strlen(spec)), spec);
	if (colon)
		snprintf(kernel, sizeof(kernel), "%s", colon + 1);
	for (size_t i = 0; i < csv->count; i++) {
		const char *h = csv_table_get(csv, i, "host");
		const char *k = csv_table_get(csv, i, "kernel_release");
		const char *f = csv_table_get(csv, i, "figure");

		if (strcmp(h, host) || (*kernel && strcmp(k, kernel)))
			continue;
		if (!strstr(kernels, k) && strlen(kernels) + strlen(k) + 3 < sizeof(kernels))
			snprintf(kernels + strlen(kernels), sizeof(kernels) - strlen(kernels),
				 "%s%s", *kernels ? ", " : "", k);
		rows++;
		if (!strcmp(f, figure)) {
			if (found >= 0 && strcmp(k, csv_table_get(csv, (size_t)found, "kernel_release"))) {
				snprintf(err, errlen,
					 "--cpu-row %s: machine %s has rows of several kernels (%s): name one, as HOST:KERNEL",
					 spec, host, kernels);
				return -2;
			}
			found = (long)i;
		} else if (strlen(figures) + strlen(f) + 3 < sizeof(figures)) {
			snprintf(figures + strlen(figures), sizeof(figures) - strlen(figures),
				 "%s%s", *figures ? ", " : "", f);
		}
	}
	if (!rows) {
		snprintf(err, errlen, "--cpu-row %s: %s has no row of machine '%s'%s%s (the host column)",
			 spec, path, host, *kernel ? " and kernel " : "", kernel);
		return -2;
	}
	if (found < 0) {
		snprintf(err, errlen,
			 "--cpu-row %s: the row has no %s figure (it has: %s); choose one with --pair-figure, or give --pair-cycles",
			 spec, figure, *figures ? figures : "none");
		return -2;
	}
	return found;
}

int census_cost_from_row(const struct census_cost_options *o,
			 const struct csv_table *csv, size_t row,
			 const char *spec, struct census_pair_cost *c,
			 char *err, size_t errlen)
{
	const char *unit = csv_table_get(csv, row, "unit");
	const char *figure = csv_table_get(csv, row, "figure");
	const char *calibration;
	double add = 0, imul = 0;

	if (strcmp(unit, "cycles") && strcmp(unit, "ns")) {
		snprintf(err, errlen, "%s: its %s is in %s, neither cycles nor ns: no time can be made of it",
			 spec, figure, unit);
		return -2;
	}
	if (number(csv_table_get(csv, row, "value"), &c->value) ||
	    !(c->value > 0)) {
		snprintf(err, errlen, "%s: its %s is '%s', not a positive number",
			 spec, figure, csv_table_get(csv, row, "value"));
		return -2;
	}
	c->has_interval = !number(csv_table_get(csv, row, "ci_low"), &c->low) &&
			  !number(csv_table_get(csv, row, "ci_high"), &c->high);
	if (!c->has_interval)
		c->low = c->high = c->value;
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	snprintf(c->source, sizeof(c->source),
		 "%s, row %s (%s, kernel %s): %s = %s, %s %s per pair%s (%s repetitions)",
		 o->table, csv_table_get(csv, row, "host"),
		 csv_table_get(csv, row, "cpu_model"),
		 csv_table_get(csv, row, "kernel_release"), figure,
		 csv_table_get(csv, row, "benchmark"),
		 csv_table_get(csv, row, "value"), unit,
		 c->has_interval ? "" : ", no interval",
		 csv_table_get(csv, row, "repetitions"));
	calibration = csv_table_get(csv, row, "calibration");
	if (!strcmp(unit, "ns")) {
		snprintf(c->ghz_source, sizeof(c->ghz_source),
			 "none needed: the figure is in ns");
	} else if (o->ghz > 0) {
		c->ghz = o->ghz;
		snprintf(c->ghz_source, sizeof(c->ghz_source), "%g GHz, given (--ghz)",
			 o->ghz);
	} else if (sscanf(calibration, "add r,r %lf GHz, imul r,r %lf GHz", &add,
			  &imul) == 2 && add > 0 && imul > 0) {
		/* what calib_judge() agrees on: the two chains' mean */
		c->ghz = (add + imul) / 2;
		snprintf(c->ghz_source, sizeof(c->ghz_source),
			 "%.3f GHz, the row's calibration (%s)", c->ghz, calibration);
	} else {
		snprintf(err, errlen,
			 "%s: its cycles come with no frequency (calibration: '%s'): give the frequency of its CPU with --ghz",
			 spec, calibration);
		return -2;
	}
	return 0;
}

int census_cost_load_table(const char *path, struct csv_table *csv, char *err,
			   size_t errlen)
{
	if (table_csv_load(path, csv, err, errlen)) {
		/* err says which file and why */
		size_t len = strlen(err);

		snprintf(err + len, errlen - len, " (--table: a table.csv of smapbench table)");
		return -2;
	}
	return 0;
}

int census_cost_from_cpu_row(const struct census_cost_options *o,
			     struct census_pair_cost *c, char *err, size_t errlen)
{
	struct csv_table csv;
	char spec[300];
	long row;
	int rc;

	if (census_cost_load_table(o->table, &csv, err, errlen))
		return -2;
	row = find_row(&csv, o->table, o->cpu_row, o->figure, err, errlen);
	snprintf(spec, sizeof(spec), "--cpu-row %s", o->cpu_row);
	rc = row < 0 ? -2 : census_cost_from_row(o, &csv, (size_t)row, spec, c,
						  err, errlen);
	csv_table_free(&csv);
	return rc;
}

