// SPDX-License-Identifier: GPL-2.0
/* compare_boots.c - a comparison of sides of runs; see compare_boots.h. */
#include "analysis/compare_boots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibrate.h"
#include "analysis/compare_controls.h"
#include "analysis/compare_dispersion.h"
#include "measure/stats.h"

/*
 * Each run's unit into unit[] (room for n): its boot, by boot_id, runs
 * without one together; or, when runs_are_units, itself. The units.
 */
static size_t side_units(const struct run_dir *const *runs, size_t n,
			 int runs_are_units, unsigned *unit)
{
	size_t units = 0;

	for (size_t j = 0; j < n; j++) {
		const char *id = rundir_context_or(runs[j], "boot_id", "");
		size_t k;

		for (k = 0; !runs_are_units && k < j; k++)
			if (!strcmp(id, rundir_context_or(runs[k], "boot_id", "")))
				break;
		unit[j] = runs_are_units || k == j ? (unsigned)units++ : unit[k];
	}
	return units;
}

/* Whether every run of both sides has one and the same boot_id. */
static int one_boot(const struct run_dir *const *a, size_t na,
		    const struct run_dir *const *b, size_t nb)
{
	const char *id = rundir_context_or(a[0], "boot_id", "");

	if (!*id)
		return 0;
	for (size_t j = 0; j < na + nb; j++)
		if (strcmp(id, rundir_context_or(j < na ? a[j] : b[j - na],
						 "boot_id", "")))
			return 0;
	return 1;
}

void compare_design(const struct run_dir *const *a, size_t na,
		    const struct run_dir *const *b, size_t nb,
		    struct compare_settings *set)
{
	unsigned *unit = calloc(na + nb + 1, sizeof(*unit));
	size_t units;

	set->same_boot = one_boot(a, na, b, nb);
	set->same_record = compare_same_record(a, na, b, nb);
	set->runs_a = (unsigned)na;
	set->runs_b = (unsigned)nb;
	set->boots_a = unit ? (unsigned)side_units(a, na, 0, unit) : 1;
	set->boots_b = unit ? (unsigned)side_units(b, nb, 0, unit) : 1;
	free(unit);
	/* in one boot the runs are the units; else the boots */
	units = set->same_boot ? na + nb : set->boots_a + set->boots_b;
	set->withheld = NULL;
	set->boots_needed = 0;
	/* a calibration of the other level says nothing of this design */
	if (set->model && set->model->invocation != set->same_boot) {
		printf("not using calibration %s: it is of %s, and these runs "
		       "are %s\n", set->calibration ? set->calibration : "(given)",
		       set->model->invocation ? "runs of one boot" : "boots",
		       set->same_boot ? "of one boot" : "of two or more boots");
		set->model = NULL;
		set->calibration = NULL;
		set->boot_source = COMPARE_BOOT_ASSUMED;
		set->boot_estimate_sd = NAN;
	}
	if (units >= COMPARE_MIN_DESIGN_DF + 2) {
		set->boot_source = set->same_boot ? COMPARE_BOOT_NONE : COMPARE_BOOT_RUNS;
	} else if (set->model) {
		set->boot_source = COMPARE_BOOT_CALIBRATION;
	} else if (units > 2) {
		/*
		 * Fewer than 3 units a side: a row with a boot-level mode of
		 * its own whose boots fell into one mode on each side looks
		 * quiet and shifted (2 boots a side: false calls in 4.5% of such
		 * rows in tests/unit/test_simulation.c). The intervals come
		 * from the runs; the verdicts cannot keep their promise.
		 */
		set->boot_source = set->same_boot ? COMPARE_BOOT_NONE : COMPARE_BOOT_RUNS;
		set->withheld = set->same_boot ?
				"fewer than 3 runs a side in one boot and no "
				"calibration of its invocations: a row with a mode "
				"of its own cannot be told from a difference" :
				"fewer than 3 boots a side and no calibration: a "
				"row with a boot-level mode of its own cannot be "
				"told from a difference";
		set->boots_needed = set->same_boot ? COMPARE_RUNS_NEEDED
						   : COMPARE_BOOTS_NEEDED;
	} else if (set->same_boot) {
		/*
		 * One run a side in one boot: what moves a whole invocation
		 * (the machine's load, the host's clock) is in neither run's
		 * repetitions, and on some hosts it moves every row by several
		 * percent.
		 */
		set->boot_source = COMPARE_BOOT_NONE;
		set->withheld = "one run a side in one boot and no calibration "
				"of its invocations: how much separate runs of "
				"this machine differ is not known";
		set->boots_needed = COMPARE_RUNS_NEEDED;
	} else {
		/*
		 * One boot a side and nothing known of how boots differ: the
		 * assumed 2% is exceeded on real hosts (4-6% measured), and a
		 * row with a boot-level mode of its own cannot be told from
		 * SMAP's cost. No verdict can keep its promise.
		 */
		set->boot_source = COMPARE_BOOT_ASSUMED;
		set->withheld = "one boot a side and no calibration: how much "
				"two boots of this machine differ is not known";
		set->boots_needed = COMPARE_BOOTS_NEEDED;
	}
}

/* A run's figures of one row; 0 when it lacks them. */
static int run_figure(const struct run_dir *run, const char *name,
		      struct compare_log_figure *f)
{
	return compare_log_figure_of(rundir_find(run, name),
				     COMPARE_MIN_REPETITIONS, f);
}

/* What one side of one row gives: its units' figures and the rest. */
struct side_row {
	double *figure;		/* per unit: mean of its runs' ybar */
	double sampling;	/* mean over units of w / runs in the unit */
	double sampling_df;	/* sum of r - 1 */
	double center;		/* mean of the units' centers */
	size_t reps;
};

/*
 * The figures of row name over a side's runs, grouped into units; 0 when
 * a run lacks them. count, center and var are scratch: room for units,
 * units and n.
 */
static int side_row_of(const struct run_dir *const *runs, size_t n,
		       const unsigned *unit, size_t units, const char *name,
		       size_t *count, double *center, double *var,
		       struct side_row *out)
{
	memset(count, 0, units * sizeof(*count));
	for (size_t u = 0; u < units; u++)
		out->figure[u] = center[u] = 0;
	out->sampling = out->sampling_df = out->center = 0;
	out->reps = 0;
	for (size_t j = 0; j < n; j++) {
		struct compare_log_figure f;

		if (!run_figure(runs[j], name, &f))
			return 0;
		count[unit[j]]++;
		out->figure[unit[j]] += f.mean;
		center[unit[j]] += f.center;
		var[j] = f.var;
		out->sampling_df += f.reps - 1;
		out->reps += (size_t)f.reps;
	}
	for (size_t u = 0; u < units; u++) {
		out->figure[u] /= (double)count[u];
		out->center += center[u] / (double)count[u] / (double)units;
	}
	/* a unit's figure is the mean of its runs: its sampling variance */
	for (size_t j = 0; j < n; j++)
		out->sampling += var[j] / (double)count[unit[j]] /
				 (double)count[unit[j]] / (double)units;
	return 1;
}

struct boots_work {
	unsigned *unit_a, *unit_b;
	size_t units_a, units_b;
	size_t *count;
	double *center, *var;
	struct side_row sa, sb;
	double *y;		/* usable row k, unit u: y[k * units + u] */
	size_t *row;		/* usable row k: its index in the result */
	double *sampling;	/* per usable row: mean sampling of a unit */
};

static void work_free(struct boots_work *w)
{
	free(w->unit_a);
	free(w->unit_b);
	free(w->count);
	free(w->center);
	free(w->var);
	free(w->sa.figure);
	free(w->sb.figure);
	free(w->y);
	free(w->row);
	free(w->sampling);
}

/* The row's side figures into r: centers, delta, reps, d. */
static void set_centers(struct compare_row *r, const struct side_row *sa,
			const struct side_row *sb, size_t units_a, size_t units_b)
{
	double ns_per_unit = r->delta != 0 ? r->delta_ns / r->delta : NAN;
	double ma = 0, mb = 0;

	for (size_t u = 0; u < units_a; u++)
		ma += sa->figure[u] / (double)units_a;
	for (size_t u = 0; u < units_b; u++)
		mb += sb->figure[u] / (double)units_b;
	r->center_a = sa->center;
	r->center_b = sb->center;
	r->delta = sb->center - sa->center;
	r->relative = sa->center != 0 ? r->delta / sa->center : NAN;
	if (isfinite(ns_per_unit))
		r->delta_ns = r->delta * ns_per_unit;
	r->reps_a = sa->reps;
	r->reps_b = sb->reps;
	r->raw_log_ratio = mb - ma;
}

int compare_boots_rows(struct compare_result *res,
		       const struct run_dir *const *a, size_t na,
		       const struct run_dir *const *b, size_t nb,
		       struct compare_settings *set, size_t *kept)
{
	struct boots_work w = { 0 };
	struct boot_split split = { 0 };
	size_t units, usable = 0;
	unsigned *group = NULL;
	int rc = -1, split_path;
	double c;

	*kept = 0;
	w.unit_a = calloc(na, sizeof(*w.unit_a));
	w.unit_b = calloc(nb, sizeof(*w.unit_b));
	if (!w.unit_a || !w.unit_b)
		goto out;
	w.units_a = side_units(a, na, set->same_boot, w.unit_a);
	w.units_b = side_units(b, nb, set->same_boot, w.unit_b);
	units = w.units_a + w.units_b;
	w.count = calloc(units, sizeof(*w.count));
	w.center = calloc(units, sizeof(*w.center));
	w.var = calloc(na > nb ? na : nb, sizeof(*w.var));
	w.sa.figure = calloc(w.units_a, sizeof(double));
	w.sb.figure = calloc(w.units_b, sizeof(double));
	w.y = calloc(units * (res->count ? res->count : 1), sizeof(*w.y));
	w.row = calloc(res->count ? res->count : 1, sizeof(*w.row));
	w.sampling = calloc(res->count ? res->count : 1, sizeof(*w.sampling));
	group = calloc(units, sizeof(*group));
	if (!w.count || !w.center || !w.var || !w.sa.figure || !w.sb.figure || !w.y ||
	    !w.row || !w.sampling || !group)
		goto out;
	for (size_t u = 0; u < units; u++)
		group[u] = u >= w.units_a;
	c = 1 / (double)w.units_a + 1 / (double)w.units_b;
	/* the units' own estimate where they have enough df, or no calibration */
	split_path = units >= COMPARE_MIN_DESIGN_DF + 2 || (units > 2 && !set->model);
	for (size_t i = 0; i < res->count; i++) {
		struct compare_row *r = &res->rows[i];

		if (r->linear || !isfinite(r->se) ||
		    !side_row_of(a, na, w.unit_a, w.units_a, r->a->name, w.count,
				 w.center, w.var, &w.sa) ||
		    !side_row_of(b, nb, w.unit_b, w.units_b, r->b->name, w.count,
				 w.center, w.var, &w.sb)) {
			++*kept;
			continue;
		}
		set_centers(r, &w.sa, &w.sb, w.units_a, w.units_b);
		memcpy(w.y + usable * units, w.sa.figure, w.units_a * sizeof(double));
		memcpy(w.y + usable * units + w.units_a, w.sb.figure,
		       w.units_b * sizeof(double));
		w.sampling[usable] = (w.sa.sampling * (double)w.units_a +
				      w.sb.sampling * (double)w.units_b) / (double)units;
		w.row[usable++] = i;
		if (split_path)
			continue;
		/*
		 * The calibration's boot variance (or the assumption) over the
		 * units of each side: each side's mean of u units varies by
		 * (C + O_k) / u beyond its runs' own sampling.
		 */
		r->within_a = w.sa.sampling / (double)w.units_a;
		r->within_a_df = w.sa.sampling_df;
		r->within_b = w.sb.sampling / (double)w.units_b;
		r->within_b_df = w.sb.sampling_df;
		r->boot_scale = set->same_boot && !set->model ? 0 : c;
		r->boot_share_a = 1 / (double)w.units_a / c;
		r->boot_sampling = 0;
		r->boot_own = r->boot_common = NAN;
		r->boot_own_df = r->boot_common_df = INFINITY;
		if (set->model) {
			struct compare_variance own = compare_model_own(set->model,
									r->a->name);

			r->boot_own = c * own.var;
			r->boot_own_df = own.df;
			r->boot_common = c * set->model->common.var;
			r->boot_common_df = set->model->common.df;
		}
		compare_row_raw(r, set);
	}
	if (split_path && usable) {
		double own = 0;

		if (boot_split(w.y, usable, units, group, 2, &split))
			goto out;
		for (size_t k = 0; k < usable; k++) {
			struct compare_row *r = &res->rows[w.row[k]];

			r->within_a = r->within_b = 0;
			r->within_a_df = r->within_b_df = INFINITY;
			r->boot_scale = c;
			r->boot_share_a = 1 / (double)w.units_a / c;
			r->boot_sampling = c * w.sampling[k];
			r->boot_own = c * split.moderated[k];
			r->boot_own_df = split.moderated_df[k];
			r->boot_common = c * split.common;
			r->boot_common_df = split.common_df;
			compare_row_raw(r, set);
			own += split.moderated[k] / (double)usable;
		}
		set->boot_estimate_sd = sqrt(split.common + own);
		set->boot_common_sd = sqrt(split.common);
		set->boot_df = split.common_df;
	}
	rc = compare_assign_verdicts(res->rows, res->count, set);
out:
	boot_split_free(&split);
	work_free(&w);
	free(group);
	return rc;
}

int compare_sides_rows(const struct run_dir *const *a, size_t na,
		       const struct run_dir *const *b, size_t nb,
		       struct compare_settings *set, unsigned threads,
		       parallel_progress_fn progress, void *progress_arg,
		       struct compare_result *out, size_t *kept)
{
	*kept = 0;
	if (compare_runs_with(a[0], b[0], set, threads, progress, progress_arg, out))
		return -1;
	if ((na > 1 || nb > 1) &&
	    compare_boots_rows(out, a, na, b, nb, set, kept)) {
		compare_result_free(out);
		return -1;
	}
	/* the calibration against the runs, before the rows are netted */
	if (compare_dispersion_check(out, set) || compare_controls_net(out, set)) {
		compare_result_free(out);
		return -1;
	}
	return 0;
}

int compare_sides(const struct run_dir *const *a, size_t na,
		  const struct run_dir *const *b, size_t nb,
		  struct compare_settings *set, unsigned threads,
		  parallel_progress_fn progress, void *progress_arg,
		  struct compare_result *out, size_t *kept)
{
	compare_design(a, na, b, nb, set);
	return compare_sides_rows(a, na, b, nb, set, threads, progress,
				  progress_arg, out, kept);
}
