// SPDX-License-Identifier: GPL-2.0
/*
 * test_series_plan.c - the plan of a boot series (analysis/series_plan.h)
 * against a brute-force search over boots x invocations x repetitions,
 * for several sets of (sigma_boot, sigma_inv, sigma_rep, costs); against
 * Kalibera and Jones's continuous optimum where whole numbers matter
 * little; and in simulation: nested random effects drawn with a fixed
 * seed, the planned design run many times, its interval's coverage and
 * half-width counted. No timing: the same numbers on a busy machine.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/calibrate.h"
#include "analysis/headline.h"
#include "analysis/run_select.h"
#include "analysis/series_plan.h"
#include "analysis/series_plan_runs.h"
#include "rundata/rundir.h"
#include "measure/stats.h"
#include "unit.h"

/* The brute force's repetitions: more than any plan below takes. */
#define BRUTE_MAX_REPETITIONS 400

static struct series_plan_request request(const struct series_components *rows,
					  size_t n, double boot, double inv,
					  double rep, double target)
{
	return (struct series_plan_request){
		.rows = rows, .row_count = n,
		.cost = { .boot = boot, .invocation = inv, .repetition = rep,
			  .series = 30 },
		.half_width = target, .level = 0.95, .max_boots = 64,
		.max_invocations = 1, .min_repetitions = 3,
		.max_repetitions = BRUTE_MAX_REPETITIONS,
	};
}

/*
 * The brute force's own arithmetic, from the definitions in
 * series_plan.h and not from the planner's functions: the widest row's
 * half-width t sqrt(2 V) of a design of m boots a state, and its time.
 */
static double brute_t(const struct series_plan_request *req, unsigned m)
{
	double df = req->boot_df > 0 ? req->boot_df : 2.0 * (m - 1);

	return stats_student_quantile(1 - (1 - req->level) / 2, df);
}

static double brute_half_width(const struct series_plan_request *req,
			       double t, unsigned m, unsigned k, unsigned r)
{
	double widest = 0;

	for (size_t i = 0; i < req->row_count; i++) {
		const struct series_components *c = &req->rows[i];
		double v = pow(c->boot_sd, 2) / m +
			   pow(c->invocation_sd, 2) / (m * k) +
			   pow(c->repetition_sd, 2) / ((double)m * k * r);

		widest = fmax(widest, t * sqrt(2 * v));
	}
	return widest;
}

static double brute_seconds(const struct series_costs *c, unsigned m,
			    unsigned k, unsigned r)
{
	unsigned boots = 2 * m;

	return boots * c->boot + boots * k * c->invocation +
	       boots * k * r * c->repetition + c->series;
}

/*
 * Every design of m_min..m_max boots a state, 1..max_invocations, every
 * repetition count: the least time of those that reach the target.
 */
static double brute_force(const struct series_plan_request *req,
			  unsigned m_min, unsigned m_max,
			  struct series_design *d)
{
	double best = INFINITY;

	for (unsigned m = m_min; m <= m_max; m++) {
		double t = brute_t(req, m);

		for (unsigned k = 1; k <= req->max_invocations; k++)
			for (unsigned r = req->min_repetitions;
			     r <= req->max_repetitions; r++) {
				double s = brute_seconds(&req->cost, m, k, r);

				if (s >= best ||
				    brute_half_width(req, t, m, k, r) > req->half_width)
					continue;
				best = s;
				*d = (struct series_design){ 2 * m, k, r, 0, 0, s };
			}
	}
	return best;
}

static void check_against_brute_force(const struct series_plan_request *req,
				      const char *what)
{
	struct series_plan p;
	struct series_design d = { 0 };
	unsigned m_min = req->boot_df > 0 ? 1 : 2;
	double best;

	assert_int(series_plan_make(req, &p), 0, what);
	best = brute_force(req, m_min, req->max_boots / 2, &d);
	if (!isfinite(best)) {
		assert_int(p.feasible, 0, what);
		return;
	}
	if (!p.feasible)
		fail_msg("%s: brute force found %u boots x %u x %u in %.0f s, the plan none",
			 what, d.boots, d.invocations, d.repetitions, best);
	if (fabs(p.plan.seconds - best) > 1e-9 * best)
		fail_msg("%s: plan %u boots x %u x %u in %.1f s, brute force %u x %u x %u in %.1f s",
			 what, p.plan.boots, p.plan.invocations, p.plan.repetitions,
			 p.plan.seconds, d.boots, d.invocations, d.repetitions, best);
	if (!(p.plan.half_width <= req->half_width) ||
	    !(brute_half_width(req, brute_t(req, p.plan.boots / 2), p.plan.boots / 2,
			       p.plan.invocations, p.plan.repetitions) <= req->half_width))
		fail_msg("%s: the plan's half-width %.5f is above the target %.5f",
			 what, p.plan.half_width, req->half_width);
	if (!(p.lower_bound_seconds <= p.plan.seconds))
		fail_msg("%s: the continuous optimum %.1f s is above the plan's %.1f s",
			 what, p.lower_bound_seconds, p.plan.seconds);
	printf("result: %s: %u boots x %u invocations x %u repetitions, %.2f%%, %.0f s (continuous bound %.0f s)\n",
	       what, p.plan.boots, p.plan.invocations, p.plan.repetitions,
	       100 * p.plan.half_width, p.plan.seconds, p.lower_bound_seconds);
}

/* The half-width of one design, worked by hand. */
static void half_width_by_hand(void **unused)
{
	struct series_components row = { "row", 0.01, 0, 0.02 };
	struct series_plan_request req = request(&row, 1, 60, 10, 1, 0.01);

	(void)unused;
	/*
	 * 2 boots a state, 1 x 5: 2 V = 2 (1e-4 / 2 + 4e-4 / 10) = 1.8e-4,
	 * t(0.975, 2 df) = 4.302653
	 */
	assert_near(series_plan_half_width(&req, 2, 1, 5, NULL),
		    4.302652730 * sqrt(1.8e-4), 1e-8, "half-width");
	/* with a calibration of 30 df: t(0.975, 30) = 2.042272 */
	req.boot_df = 30;
	assert_near(series_plan_half_width(&req, 2, 1, 5, NULL),
		    2.042272456 * sqrt(1.8e-4), 1e-8, "calibrated");
	/* 4 boots of 60 + 10 + 5 s, and the comparisons' 30 s */
	assert_near(series_plan_seconds(&req.cost, 2, 1, 5), 4 * 75 + 30, 1e-9,
		    "seconds");
}

static void boot_dominated(void **unused)
{
	struct series_components row = { "boots", 0.006, 0, 0.004 };
	struct series_plan_request req = request(&row, 1, 90, 20, 2, 0.01);

	(void)unused;
	check_against_brute_force(&req, "sigma_boot 0.6%, sigma_rep 0.4%, a boot 90 s");
	{
		struct series_plan p;

		/* no invocation level: r* = (0.4 / 0.6) sqrt((90 + 20) / 2) */
		assert_int(series_plan_make(&req, &p), 0, "plan");
		assert_near(p.ideal_invocations, 1, 0, "k*");
		assert_near(p.ideal_repetitions, 0.004 / 0.006 * sqrt(55.0), 1e-9, "r*");
	}
}

static void repetition_dominated(void **unused)
{
	struct series_components row = { "reps", 0.001, 0, 0.05 };
	struct series_plan_request req = request(&row, 1, 60, 10, 0.5, 0.01);

	(void)unused;
	check_against_brute_force(&req, "sigma_boot 0.1%, sigma_rep 5%, a repetition 0.5 s");
}

static void invocation_level(void **unused)
{
	struct series_components row = { "inv", 0.002, 0.01, 0.02 };
	struct series_plan_request req = request(&row, 1, 120, 5, 1, 0.01);

	(void)unused;
	req.max_invocations = 8;
	check_against_brute_force(&req, "sigma_inv 1% over sigma_boot 0.2%, 8 invocations at most");
}

static void several_rows(void **unused)
{
	struct series_components rows[] = {
		{ "boot-heavy", 0.004, 0, 0.005 },
		{ "rep-heavy", 0.001, 0.002, 0.04 },
		{ "quiet", 0.0005, 0, 0.002 },
	};
	struct series_plan_request req = request(rows, 3, 60, 15, 1.5, 0.01);

	(void)unused;
	req.max_invocations = 4;
	check_against_brute_force(&req, "three rows, each its own components");
}

/*
 * A grid of components and costs over boots x repetitions: sigma_boot
 * from 0.1% to 2%, sigma_rep from 0.2% to 10%, a boot dear against a
 * repetition and the other way round, two targets. Some need more than
 * 64 boots: the plan must then say none, as the brute force finds none.
 */
static void grid_of_components(void **unused)
{
	static const double boot_sd[] = { 0.001, 0.005, 0.02 };
	static const double repetition_sd[] = { 0.002, 0.02, 0.1 };
	static const struct series_costs costs[] = {
		{ .boot = 90, .invocation = 20, .repetition = 0.2, .series = 60 },
		{ .boot = 30, .invocation = 5, .repetition = 5, .series = 60 },
	};
	static const double target[] = { 0.01, 0.02 };
	unsigned feasible = 0, cases = 0;

	(void)unused;
	for (size_t b = 0; b < 3; b++)
		for (size_t e = 0; e < 3; e++)
			for (size_t c = 0; c < 2; c++)
				for (size_t h = 0; h < 2; h++) {
					struct series_components row = {
						"grid", boot_sd[b], 0, repetition_sd[e]
					};
					struct series_plan_request req =
						request(&row, 1, 0, 0, 1, target[h]);
					struct series_plan p;
					char what[160];

					req.cost = costs[c];
					snprintf(what, sizeof(what),
						 "sigma_boot %g, sigma_rep %g, costs %zu, target %g",
						 boot_sd[b], repetition_sd[e], c, target[h]);
					check_against_brute_force(&req, what);
					assert_int(series_plan_make(&req, &p), 0, what);
					feasible += p.feasible;
					cases++;
				}
	/* the grid reaches both sides of the limit */
	if (!feasible || feasible == cases)
		fail_msg("%u of %u cases feasible: the grid misses a side", feasible, cases);
}

static void calibrated(void **unused)
{
	struct series_components row = { "cal", 0.003, 0, 0.01 };
	struct series_plan_request req = request(&row, 1, 90, 20, 2, 0.01);
	struct series_plan p;

	(void)unused;
	req.boot_df = 40;
	check_against_brute_force(&req, "sigma_boot from a calibration of 40 df");
	/* its df do not grow with the boots: fewer boots than from the series' own */
	assert_int(series_plan_make(&req, &p), 0, "calibrated");
	{
		struct series_plan own;

		req.boot_df = 0;
		assert_int(series_plan_make(&req, &own), 0, "own");
		if (!(p.plan.seconds <= own.plan.seconds))
			fail_msg("a calibration's df (%.0f s) should cost no more than the series' own (%.0f s)",
				 p.plan.seconds, own.plan.seconds);
	}
}

/*
 * A precision the boots allowed cannot give: said, with the boots it
 * needs (the cheapest, checked by brute force beyond the limit) and the
 * best the limit gives.
 */
static void more_boots_than_allowed(void **unused)
{
	struct series_components row = { "wide", 0.02, 0, 0.01 };
	struct series_plan_request req = request(&row, 1, 90, 20, 2, 0.005);
	struct series_design d = { 0 };
	struct series_plan p;
	double best;

	(void)unused;
	req.max_repetitions = 50;
	assert_int(series_plan_make(&req, &p), 0, "plan");
	assert_int(p.feasible, 0, "feasible");
	assert_true(p.needed.boots > req.max_boots);
	assert_true(p.needed.half_width <= req.half_width);
	best = brute_force(&req, req.max_boots / 2 + 1, p.needed.boots / 2 + 2, &d);
	assert_near(p.needed.seconds, best, 1e-9 * best, "the cheapest with more boots");
	assert_int(p.best.boots, req.max_boots, "the best the limit gives: all boots");
	assert_int(p.best.repetitions, req.max_repetitions, "and all repetitions");
	assert_true(p.best.half_width > req.half_width);
	printf("result: 0.5%% at sigma_boot 2%%: %u boots needed, %.2f%% with 64\n",
	       p.needed.boots, 100 * p.best.half_width);
}

/*
 * Many boots, so whole numbers and t matter little: the plan's
 * invocations and repetitions near the continuous optimum,
 * k* = (1% / 0.5%) sqrt(100 / 4) = 10 and r* = (4% / 1%) sqrt(4 / 0.25)
 * = 16, and its time near the continuous bound.
 */
static void near_the_continuous_optimum(void **unused)
{
	struct series_components row = { "kj", 0.005, 0.01, 0.04 };
	struct series_plan_request req = request(&row, 1, 100, 4, 0.25, 0.002);
	struct series_plan p;

	(void)unused;
	req.max_boots = 1000;
	req.max_invocations = 40;
	req.max_repetitions = 200;
	assert_int(series_plan_make(&req, &p), 0, "plan");
	assert_int(p.feasible, 1, "feasible");
	assert_near(p.ideal_invocations, 10, 1e-9, "k*");
	assert_near(p.ideal_repetitions, 16, 1e-9, "r*");
	if (fabs(p.plan.invocations - 10.0) > 3 || fabs(p.plan.repetitions - 16.0) > 5)
		fail_msg("plan %u x %u, far from the optimum 10 x 16", p.plan.invocations,
			 p.plan.repetitions);
	if (!(p.plan.seconds <= 1.05 * p.lower_bound_seconds))
		fail_msg("plan %.0f s, more than 5%% above the continuous bound %.0f s",
			 p.plan.seconds, p.lower_bound_seconds);
	printf("result: %u boots x %u x %u, %.0f s; continuous optimum 10 x 16, %.0f s\n",
	       p.plan.boots, p.plan.invocations, p.plan.repetitions, p.plan.seconds,
	       p.lower_bound_seconds);
}

static void refused(void **unused)
{
	struct series_components row = { "x", 0.01, 0, 0.01 };
	struct series_plan_request req = request(&row, 1, 60, 10, 1, 0.01);
	struct series_plan p;

	(void)unused;
	req.cost.repetition = 0;
	assert_int(series_plan_make(&req, &p), -1, "a repetition costing nothing");
	req = request(&row, 1, 60, 10, 1, 0);
	assert_int(series_plan_make(&req, &p), -1, "no target");
	req = request(&row, 0, 60, 10, 1, 0.01);
	assert_int(series_plan_make(&req, &p), -1, "no row");
	req = request(&row, 1, 60, 10, 1, 0.01);
	req.max_boots = 3;
	assert_int(series_plan_make(&req, &p), -1, "fewer than 2 boots a state");
	row.boot_sd = NAN;
	req = request(&row, 1, 60, 10, 1, 0.01);
	assert_int(series_plan_make(&req, &p), -1, "an sd that is no number");
}

/* ------------------------------------------------------- simulation */

#define EXPERIMENTS 4000

static double normal(struct stats_rng *rng)
{
	double u = stats_rng_double(rng), v = stats_rng_double(rng);

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/*
 * One state's mean over m boots of k invocations of r repetitions, and
 * the variance of its boots' means (m - 1 df): the nested design's
 * estimate of the variance of the mean is that over m.
 */
static void state(struct stats_rng *rng, const struct series_components *c,
		  unsigned m, unsigned k, unsigned r, double *mean, double *var)
{
	double boot_mean[256], s = 0, ss = 0;

	for (unsigned j = 0; j < m; j++) {
		double b = c->boot_sd * normal(rng), sum = 0;

		for (unsigned i = 0; i < k; i++) {
			double inv = c->invocation_sd * normal(rng);

			for (unsigned e = 0; e < r; e++)
				sum += b + inv + c->repetition_sd * normal(rng);
		}
		boot_mean[j] = sum / ((double)k * r);
		s += boot_mean[j];
	}
	*mean = s / m;
	for (unsigned j = 0; j < m; j++)
		ss += (boot_mean[j] - *mean) * (boot_mean[j] - *mean);
	*var = ss / (m - 1);
}

/*
 * The planned design run EXPERIMENTS times at a true difference of 3%:
 * the 95% t interval (2 (m - 1) df) of the difference holds it in 93 to
 * 97% of them (the binomial sd is 0.34%, so that is 6 sd), and the root
 * mean square of the half-widths is the plan's within 3% (E[s^2] is
 * sigma^2: the plan's half-width is what the design gives, at the
 * level of the variance).
 */
static void simulate(const struct series_plan_request *req, const char *what,
		     uint64_t seed)
{
	const struct series_components *c = &req->rows[0];
	struct series_plan p;
	struct stats_rng rng;
	unsigned m, k, r, covered = 0;
	double t, sum_h2 = 0, rms, delta = 0.03;

	assert_int(series_plan_make(req, &p), 0, what);
	assert_int(p.feasible, 1, what);
	m = p.plan.boots / 2;
	k = p.plan.invocations;
	r = p.plan.repetitions;
	assert_true(m >= 2 && m <= 256);
	t = stats_student_quantile(0.975, 2.0 * (m - 1));
	stats_rng_seed(&rng, seed);
	for (int x = 0; x < EXPERIMENTS; x++) {
		double on, off, v_on, v_off, h;

		state(&rng, c, m, k, r, &off, &v_off);
		state(&rng, c, m, k, r, &on, &v_on);
		on += delta;
		h = t * sqrt((v_on + v_off) / 2 * 2 / m);
		sum_h2 += h * h;
		covered += fabs(on - off - delta) <= h;
	}
	rms = sqrt(sum_h2 / EXPERIMENTS);
	printf("result: %s: %u boots x %u x %u, coverage %.1f%%, rms half-width %.3f%% (plan %.3f%%, target %.3f%%)\n",
	       what, 2 * m, k, r, 100.0 * covered / EXPERIMENTS, 100 * rms,
	       100 * p.plan.half_width, 100 * req->half_width);
	if (covered < 0.93 * EXPERIMENTS || covered > 0.97 * EXPERIMENTS)
		fail_msg("%s: coverage %.1f%%, outside 93..97%%", what,
			 100.0 * covered / EXPERIMENTS);
	if (fabs(rms / p.plan.half_width - 1) > 0.03)
		fail_msg("%s: rms half-width %.4f, the plan's %.4f", what, rms,
			 p.plan.half_width);
	if (!(rms <= req->half_width * 1.03))
		fail_msg("%s: rms half-width %.4f above the target %.4f", what, rms,
			 req->half_width);
}

static void simulated_boot_dominated(void **unused)
{
	struct series_components row = { "boots", 0.006, 0, 0.004 };
	struct series_plan_request req = request(&row, 1, 90, 20, 2, 0.01);

	(void)unused;
	simulate(&req, "boot-dominated", 11);
}

static void simulated_invocation_level(void **unused)
{
	struct series_components row = { "inv", 0.002, 0.01, 0.02 };
	struct series_plan_request req = request(&row, 1, 120, 5, 1, 0.01);

	(void)unused;
	req.max_invocations = 8;
	simulate(&req, "three levels", 12);
}

static void simulated_repetition_dominated(void **unused)
{
	struct series_components row = { "reps", 0.001, 0, 0.05 };
	struct series_plan_request req = request(&row, 1, 60, 10, 0.5, 0.01);

	(void)unused;
	simulate(&req, "repetition-dominated", 13);
}

/* ------------------------------------------------ from runs (adapter) */

/* Two real boots of one state (QEMU TCG, 2026-12-03), recorded before runs had a boot_id. */
#define BOOT_1 "data/vm-6.1.0-57-amd64-20261203-173441-clearcpuid-nosmap"
#define BOOT_2 "data/vm-6.1.0-57-amd64-20261203-173441-cpu-model-nosmap"

static void load_boot(const char *path, const char *boot_id, struct run_dir *run)
{
	char err[512];
	char **keys, **values;

	if (rundir_load(path, run, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	keys = realloc(run->keys, (run->context_count + 1) * sizeof(*keys));
	values = realloc(run->values, (run->context_count + 1) * sizeof(*values));
	assert_non_null(keys);
	assert_non_null(values);
	run->keys = keys;
	run->values = values;
	keys[run->context_count] = strdup("boot_id");
	values[run->context_count] = strdup(boot_id);
	run->context_count++;
}

/* The pooled variance of a row's log repetition medians, worked here. */
static double pooled_log_variance(const struct run_bench *const *rows, size_t n)
{
	double sum = 0, df = 0;

	for (size_t j = 0; j < n; j++) {
		const struct run_bench *b = rows[j];
		double m[64], mean = 0, ss = 0;
		size_t reps = 0;

		for (size_t i = 0; i < b->count && reps < 64;) {
			size_t e = i;

			while (e < b->count && b->repetition[e] == b->repetition[i])
				e++;
			m[reps++] = log(stats_median_sorted(b->values + i, e - i));
			i = e;
		}
		for (size_t i = 0; i < reps; i++)
			mean += m[i] / (double)reps;
		for (size_t i = 0; i < reps; i++)
			ss += (m[i] - mean) * (m[i] - mean);
		sum += ss;
		df += (double)reps - 1;
	}
	return sum / df;
}

static void components_from_runs(void **unused)
{
	struct run_dir a, b;
	const struct run_dir *runs[2] = { &a, &b };
	const struct run_bench *rows[2];
	struct series_plan_inputs in;
	struct calibration c;
	char err[1024];

	(void)unused;
	load_boot(BOOT_1, "boot-1", &a);
	load_boot(BOOT_2, "boot-2", &b);
	assert_int(calibrate_runs(runs, 2, &c, err, sizeof(err)), 0, err);
	assert_int(series_plan_from_runs(runs, 2, "^syscall/getppid$", &in, err,
					 sizeof(err)), 0, err);
	assert_int(in.count, 1, "rows");
	assert_str(in.rows[0].name, "syscall/getppid", "the row");
	assert_near(in.boot_sd, c.bv.sd, 0, "sigma_boot: the calibration's");
	assert_near(in.rows[0].boot_sd, c.bv.sd, 0, "for the row too");
	assert_near(in.boot_df, c.bv.df, 0, "its df");
	assert_near(in.rows[0].invocation_sd, 0, 0, "no invocation level");
	rows[0] = rundir_find(&a, "syscall/getppid");
	rows[1] = rundir_find(&b, "syscall/getppid");
	assert_near(in.rows[0].repetition_sd, sqrt(pooled_log_variance(rows, 2)),
		    1e-12, "sigma_rep: the pooled sd of the log repetition medians");
	assert_true(in.repetition_seconds > 0 && isfinite(in.repetition_seconds));
	assert_int(in.boots, 2, "boots");
	series_plan_inputs_free(&in);

	/* by default the headline rows */
	assert_int(series_plan_from_runs(runs, 2, NULL, &in, err, sizeof(err)), 0, err);
	assert_int(in.headline, 1, "headline");
	assert_true(in.count >= 1);
	for (size_t i = 0; i < in.count; i++) {
		int found = 0;

		for (const struct bench_key *k = headline_benchmarks(); k->suite; k++) {
			const struct run_bench *x = bench_match(&a, k);

			found |= x && !strcmp(x->name, in.rows[i].name);
		}
		if (!found)
			fail_msg("%s is no headline row", in.rows[i].name);
	}
	series_plan_inputs_free(&in);

	assert_int(series_plan_from_runs(runs, 2, "(", &in, err, sizeof(err)), -1,
		   "a bad expression");
	assert_int(series_plan_from_runs(runs, 2, "^no-such-row$", &in, err,
					 sizeof(err)), -1, "no such row");
	if (!strstr(err, "no row matches"))
		fail_msg("why: %s", err);
	/* one boot only: no boot variance, no plan */
	free(b.values[b.context_count - 1]);
	b.values[b.context_count - 1] = strdup("boot-1");
	assert_int(series_plan_from_runs(runs, 2, NULL, &in, err, sizeof(err)), -1,
		   "one boot");
	calibration_free(&c);
	rundir_free(&a);
	rundir_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(half_width_by_hand),
		cmocka_unit_test(boot_dominated),
		cmocka_unit_test(repetition_dominated),
		cmocka_unit_test(invocation_level),
		cmocka_unit_test(several_rows),
		cmocka_unit_test(grid_of_components),
		cmocka_unit_test(calibrated),
		cmocka_unit_test(more_boots_than_allowed),
		cmocka_unit_test(near_the_continuous_optimum),
		cmocka_unit_test(refused),
		cmocka_unit_test(simulated_boot_dominated),
		cmocka_unit_test(simulated_invocation_level),
		cmocka_unit_test(simulated_repetition_dominated),
		cmocka_unit_test(components_from_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
