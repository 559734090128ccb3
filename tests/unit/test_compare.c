// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare.c - the comparison statistics (analysis/compare_stats.c), the
 * run loader (rundata/rundir.c) and the output rules of
 * rundata/atomic_dir.c on known answers.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "analysis/calibrate.h"
#include "analysis/compare_boots.h"
#include "analysis/compare_controls.h"
#include "analysis/compare_stats.h"
#include "analysis/derived.h"
#include "analysis/pair_fit.h"
#include "measure/stats.h"
#include "rundata/atomic_dir.h"
#include "rundata/catalogue.h"
#include "rundata/rundir.h"

/*
 * Welch's interval and test against values computed independently at 30
 * digits (mpmath): equal spreads (df 8, the pooled t's), unequal ones
 * (df 3.048, where pooling would borrow the quiet side's precision), and
 * a difference the test cannot tell from 0.
 */
static void test_welch(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	const double c[] = { 10, 20, 30, 40 }, d[] = { 2, 3, 5 };
	struct stats_interval iv;

	(void)state;
	assert_int_equal(stats_welch_interval(a, 5, b, 5, 0.95, &iv), 0);
	assert_float_equal(iv.estimate, 10, 1e-12);
	assert_float_equal(iv.se, 1, 1e-12);
	assert_float_equal(iv.df, 8, 1e-9);
	assert_float_equal(iv.low, 7.6939958647958, 1e-9);
	assert_float_equal(iv.high, 12.3060041352042, 1e-9);
	assert_float_equal(iv.p, 8.48818152762849e-6, 1e-12);
	assert_int_equal(stats_welch_interval(a, 3, c, 4, 0.95, &iv), 0);
	assert_float_equal(iv.df, 3.04789940165744, 1e-9);
	assert_float_equal(iv.low, 2.55754921423312, 1e-8);
	assert_float_equal(iv.high, 43.4424507857669, 1e-8);
	assert_float_equal(iv.p, 0.0371625046655282, 1e-9);
	assert_int_equal(stats_welch_interval(a, 3, d, 3, 0.95, &iv), 0);
	assert_float_equal(iv.df, 3.44827586206897, 1e-9);
	assert_float_equal(iv.low, -1.78755061856226, 1e-8);
	assert_float_equal(iv.p, 0.284627178761422, 1e-9);
	/* one value a side: an estimate, no interval */
	assert_int_equal(stats_welch_interval(a, 1, b, 5, 0.95, &iv), 0);
	assert_float_equal(iv.estimate, 12, 1e-12);
	assert_true(isnan(iv.low) && isnan(iv.p));
	assert_int_equal(stats_welch_interval(a, 0, b, 5, 0.95, &iv), -1);
}

/*
 * r repetitions of m samples: repetition k's samples are
 * base + k * step + j * 0.01 (j < m), so its median is
 * base + k * step + 0.01 * (m - 1) / 2.
 */
static void fill_repetitions(double *v, uint32_t *rep, size_t r, size_t m,
			     double base, double step)
{
	for (size_t k = 0; k < r; k++)
		for (size_t j = 0; j < m; j++) {
			v[k * m + j] = base + (double)k * step + 0.01 * (double)j;
			rep[k * m + j] = k;
		}
}

/*
 * Settings as with a calibration that found every row's own boot sd =
 * sd on df degrees of freedom and no shift the rows share: `same` can be
 * called. One model at a time.
 */
static struct compare_boot_model model;

static struct compare_settings calibrated(double sd, double df)
{
	struct compare_settings set = compare_default_settings();

	model = (struct compare_boot_model){
		.common = { 0, INFINITY }, .prior = { sd * sd, df } };
	set.model = &model;
	set.boot_df = df;
	set.boot_source = COMPARE_BOOT_CALIBRATION;
	return set;
}

/*
 * Welch with a third variance term: a = 1..5, b = 11..15 (each s^2 / n
 * = 0.5) and 1 more with 10 df: se = sqrt(2), Satterthwaite df = 2^2 /
 * (0.25 / 4 + 0.25 / 4 + 1 / 10) = 160 / 9; a term taken as known (df
 * INFINITY) adds no denominator: df = 4 / 0.125 = 32.
 */
static void test_welch_extra(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	struct stats_interval iv;
	double half;

	(void)state;
	assert_int_equal(stats_welch_extra_interval(a, 5, b, 5, 1, 10, 0.95, &iv), 0);
	assert_float_equal(iv.estimate, 10, 1e-12);
	assert_float_equal(iv.se, sqrt(2), 1e-12);
	assert_float_equal(iv.df, 160.0 / 9, 1e-9);
	half = stats_student_quantile(0.975, 160.0 / 9) * sqrt(2);
	assert_float_equal(iv.low, 10 - half, 1e-9);
	assert_float_equal(iv.high, 10 + half, 1e-9);
	assert_int_equal(stats_welch_extra_interval(a, 5, b, 5, 1, INFINITY, 0.95,
						    &iv), 0);
	assert_float_equal(iv.df, 32, 1e-9);
	/* no extra variance: Welch's own */
	assert_int_equal(stats_welch_extra_interval(a, 5, b, 5, 0, 10, 0.95, &iv), 0);
	assert_float_equal(iv.df, 8, 1e-9);
	assert_float_equal(iv.low, 7.6939958647958, 1e-9);
}

static void test_groups(void **state)
{
	/* repetitions given out of order: grouped, medians per repetition */
	const double v[] = { 5, 1, 7, 3, 2 };
	const uint32_t rep[] = { 2, 0, 2, 1, 0 };
	struct compare_groups g;

	(void)state;
	assert_int_equal(compare_group(v, rep, 5, &g), 0);
	assert_int_equal(g.count, 3);
	assert_float_equal(g.medians[0], 1.5, 1e-12);
	assert_float_equal(g.medians[1], 3, 1e-12);
	assert_float_equal(g.medians[2], 6, 1e-12);
	assert_float_equal(compare_center(&g), 3.5, 1e-12);
	compare_groups_free(&g);
	/* no repetition index (JSON): each value is one repetition */
	assert_int_equal(compare_group(v, NULL, 5, &g), 0);
	assert_int_equal(g.count, 5);
	assert_float_equal(compare_center(&g), 3.6, 1e-12);
	compare_groups_free(&g);
}

/*
 * Benjamini-Hochberg by hand: p = 0.01, 0.04, 0.03, (none), 0.5; m = 4;
 * sorted 0.01, 0.03, 0.04, 0.5 give p m / rank = 0.04, 0.06, 0.0533,
 * 0.5; the running minimum from the top makes 0.03's q 0.0533.
 */
static void test_bh(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, NAN, 0.5 };
	double q[5];

	(void)state;
	assert_int_equal(compare_bh_qvalues(p, 5, q), 0);
	assert_float_equal(q[0], 0.04, 1e-12);
	assert_float_equal(q[1], 0.04 * 4 / 3, 1e-12);
	assert_float_equal(q[2], 0.04 * 4 / 3, 1e-12);
	assert_true(isnan(q[3]));
	assert_float_equal(q[4], 0.5, 1e-12);
}

/* Values without any spread: a zero-width interval at the difference. */
static void test_welch_degenerate(void **state)
{
	double a[20], b[20];
	uint32_t ra[20], rb[20];
	struct compare_settings set = calibrated(0, INFINITY);
	struct compare_row row;

	(void)state;
	for (size_t i = 0; i < 20; i++) {
		a[i] = 10;
		b[i] = 13;
		ra[i] = rb[i] = i / 5;
	}
	assert_int_equal(compare_values(a, ra, 20, b, rb, 20, &set, &row), 0);
	assert_float_equal(row.ci_low, 3, 1e-12);
	assert_float_equal(row.ci_high, 3, 1e-12);
	assert_float_equal(row.p, 0, 0);
	assert_int_equal(row.verdict, COMPARE_SLOWER);
	/*
	 * sigma_u assumed 2%: se = sqrt(2) 0.02 on the log scale, known, so
	 * the interval is log(1.3) -+ z 0.0283 around the ratio 1.3
	 */
	set = compare_default_settings();
	assert_int_equal(compare_values(a, ra, 20, b, rb, 20, &set, &row), 0);
	assert_float_equal(row.se, sqrt(2) * 0.02, 1e-12);
	assert_float_equal(row.relative_low,
			   expm1(log(1.3) - stats_student_quantile(0.975, row.df) *
				 sqrt(2) * 0.02), 1e-12);
	assert_float_equal(row.ci_low, 10 * row.relative_low, 1e-9);
	assert_true(row.df >= 1e4);
	assert_int_equal(row.verdict, COMPARE_SLOWER);
}

/*
 * One side's center alone (the table's bpf overhead cell), and a paired
 * within-run figure: t intervals by hand. Medians 10, 12, 14: mean 12,
 * sd 2, 12 -+ t(0.975, 2) 2 / sqrt(3) = 12 -+ 4.96828. Paired
 * differences 3, 3.2, 2.8 (repetitions matched by id, one of b's left
 * out): 3 -+ 0.496828.
 */
static void test_center_and_paired_intervals(void **state)
{
	double v[15], w[20];
	uint32_t rep[15], wrep[20];
	struct compare_groups g, h;
	struct stats_interval iv;

	(void)state;
	for (size_t i = 0; i < 15; i++) {
		v[i] = 7;
		rep[i] = i / 5;
	}
	assert_int_equal(compare_group(v, rep, 15, &g), 0);
	assert_int_equal(compare_center_interval(&g, 0.95, &iv), 0);
	assert_float_equal(iv.low, 7, 1e-12);
	assert_float_equal(iv.high, 7, 1e-12);
	compare_groups_free(&g);

	for (size_t i = 0; i < 15; i++)
		v[i] = 10 + 2 * (double)(i / 5);	/* medians 10, 12, 14 */
	assert_int_equal(compare_group(v, rep, 15, &g), 0);
	assert_float_equal(compare_center(&g), 12, 1e-12);
	assert_int_equal(compare_center_interval(&g, 0.95, &iv), 0);
	assert_float_equal(iv.low, 12 - 4.96827542350066, 1e-9);
	assert_float_equal(iv.high, 12 + 4.96827542350066, 1e-9);

	/* b: repetitions 0..2 at a + 3, 3.2, 2.8, and a fourth a lacks */
	for (size_t i = 0; i < 20; i++) {
		static const double shift[] = { 3, 3.2, 2.8, 100 };

		wrep[i] = i / 5;
		w[i] = 10 + 2 * (double)(i / 5 % 3) + shift[i / 5];
	}
	assert_int_equal(compare_group(w, wrep, 20, &h), 0);
	assert_int_equal(compare_paired_interval(&g, 1, &h, 1, 0.95, &iv), 0);
	assert_int_equal(iv.n, 3);
	assert_float_equal(iv.estimate, 3, 1e-12);
	assert_float_equal(iv.low, 3 - 0.496827542350066, 1e-9);
	assert_float_equal(iv.high, 3 + 0.496827542350066, 1e-9);
	/* scales: per access of a block of 4 against single accesses */
	assert_int_equal(compare_paired_interval(&h, 0.25, &g, 1, 0.95, &iv), 0);
	assert_float_equal(iv.estimate, 12 - (12 + 3) * 0.25, 1e-12);
	compare_groups_free(&g);
	compare_groups_free(&h);

	assert_int_equal(compare_group(v, rep, 5, &g), 0);
	assert_int_equal(g.count, 1);
	assert_int_equal(compare_center_interval(&g, 0.95, &iv), 0);
	assert_true(isnan(iv.low) && isnan(iv.high));
	compare_groups_free(&g);
}

/*
 * Verdicts on designed data: 5 repetitions of 10 samples a side,
 * repetition medians 10.045 + 0.05 k (center 10.145, sd of the medians
 * 0.0791), so Welch's interval of a shift is shift -+ 2.306 x 0.05
 * (df 8) and the noise floor is 2% of 10.145 = 0.2029.
 */
static void test_verdicts(void **state)
{
	double a[50], b[50], wide[50];
	uint32_t ra[50], rb[50], rw[50];
	struct compare_settings set = calibrated(0, INFINITY);
	struct compare_settings assumed = compare_default_settings();
	struct compare_row row;

	(void)state;
	fill_repetitions(a, ra, 5, 10, 10, 0.05);
	fill_repetitions(b, rb, 5, 10, 13, 0.05);
	/* the same center, 10.145, but repetitions 1 apart */
	fill_repetitions(wide, rw, 5, 10, 8.1, 1);
	assert_int_equal(compare_values(a, ra, 50, b, rb, 50, &set, &row), 0);
	assert_int_equal(row.reps_a, 5);
	assert_float_equal(row.center_a, 10.045 + 0.1, 1e-9);
	assert_float_equal(row.delta, 3, 1e-9);
	assert_float_equal(row.relative, 3 / row.center_a, 1e-9);
	/* on the log scale: exp(d -+ t se) - 1, times A's center */
	assert_true(row.df > 4 && row.df <= 8);
	assert_float_equal(row.ci_low, row.center_a * row.relative_low, 1e-9);
	assert_float_equal(row.relative_low,
			   expm1(row.log_ratio - stats_student_quantile(0.975, row.df) *
				 row.se), 1e-12);
	assert_true(row.relative_low > 0.25 && row.relative_high < 0.35);
	assert_true(row.p < 1e-9);
	assert_int_equal(row.verdict, COMPARE_SLOWER);
	assert_int_equal(compare_values(b, rb, 50, a, ra, 50, &set, &row), 0);
	assert_int_equal(row.verdict, COMPARE_FASTER);
	/* A against itself: the CI lies within +-2% of 10.145 */
	assert_int_equal(compare_values(a, ra, 50, a, ra, 50, &set, &row), 0);
	assert_int_equal(row.verdict, COMPARE_SAME);
	assert_true(row.ci_low >= -0.2029 && row.ci_high <= 0.2029);
	assert_float_equal(row.p, 1, 1e-12);
	/* with sigma_u only assumed: never same, and +30% is still slower */
	assert_int_equal(compare_values(a, ra, 50, a, ra, 50, &assumed, &row), 0);
	assert_int_equal(row.verdict, COMPARE_INCONCLUSIVE);
	assert_int_equal(compare_values(a, ra, 50, b, rb, 50, &assumed, &row), 0);
	assert_int_equal(row.verdict, COMPARE_SLOWER);
	/* repetitions 1 apart: the CI is wider than the margin */
	assert_int_equal(compare_values(a, ra, 50, wide, rw, 50, &set, &row), 0);
	assert_int_equal(row.verdict, COMPARE_INCONCLUSIVE);
	assert_float_equal(row.delta, 0, 1e-9);
	assert_true(row.ci_low < -0.2029 || row.ci_high > 0.2029);
	/* a 50% margin holds it */
	set.margin = 0.5;
	assert_int_equal(compare_values(a, ra, 50, wide, rw, 50, &set, &row), 0);
	assert_int_equal(row.verdict, COMPARE_SAME);
	set.margin = COMPARE_DEFAULT_MARGIN;
	/*
	 * The noise floor. +0.15 (1.5%): significant (CI 0.035 .. 0.265,
	 * p < 0.05) but reaching past 2%: inconclusive, not slower.
	 */
	fill_repetitions(b, rb, 5, 10, 10.15, 0.05);
	assert_int_equal(compare_values(a, ra, 50, b, rb, 50, &set, &row), 0);
	/* p tests what slower would claim, a difference beyond 2%: no */
	assert_true(row.ci_low > 0 && row.p > 0.05);
	assert_int_equal(row.verdict, COMPARE_INCONCLUSIVE);
	/* +0.1 (1%) measured tightly: real, and within noise: same */
	fill_repetitions(a, ra, 5, 10, 10, 0.001);
	fill_repetitions(b, rb, 5, 10, 10.1, 0.001);
	assert_int_equal(compare_values(a, ra, 50, b, rb, 50, &set, &row), 0);
	assert_true(row.ci_low > 0 && row.p > 0.5);
	assert_int_equal(row.verdict, COMPARE_SAME);
	/* +0.3 (3%) measured tightly: beyond the floor: slower */
	fill_repetitions(b, rb, 5, 10, 10.3, 0.001);
	assert_int_equal(compare_values(a, ra, 50, b, rb, 50, &set, &row), 0);
	assert_int_equal(row.verdict, COMPARE_SLOWER);
	/*
	 * but not beyond two boots that may differ by 2% each: with sigma_u
	 * assumed the interval is 3% -+ 5.5%
	 */
	assert_int_equal(compare_values(a, ra, 50, b, rb, 50, &assumed, &row), 0);
	assert_int_equal(row.verdict, COMPARE_INCONCLUSIVE);
	/* sigma_u calibrated at 0.5% on 30 df: 3% -+ 1.4% reaches under 2% */
	set = calibrated(0.005, 30);
	assert_int_equal(compare_values(a, ra, 50, b, rb, 50, &set, &row), 0);
	assert_true(row.df > 25 && row.df < 40);
	assert_int_equal(row.verdict, COMPARE_INCONCLUSIVE);
	set = calibrated(0, INFINITY);
	/* Two repetitions on one side (20 samples): no test, no verdict. */
	assert_int_equal(compare_values(a, ra, 20, b, rb, 50, &set, &row), 0);
	assert_int_equal(row.reps_a, 2);
	assert_int_equal(row.verdict, COMPARE_UNKNOWN);
	assert_true(isnan(row.p) && isnan(row.ci_low));
	assert_string_equal(compare_verdict_name(COMPARE_SLOWER), "slower");
	assert_string_equal(compare_verdict_name(COMPARE_INCONCLUSIVE),
			    "inconclusive");
}

/*
 * The boot variance by hand. Three boots of one run each, no spread
 * within a run: two rows whose boots' means are 0, 0.02, 0.04 move
 * together: all of it the shift both rows share, 0.02, on boots - 1 = 2
 * df, and nothing of their own. Rows 0, 0.02, 0.04 and 0.01, 0.01, 0.04
 * (both of mean 0.02): the shifts are the mean deviations -0.015, -0.005,
 * 0.02 (variance 0.000325, less 1/2 of the rows' own 0.00005: 0.0003);
 * each row's residuals +-0.005 give it 0.00005 on (3 - 1)(2 - 1)/2 = 1
 * df, moderated toward the prior (limma: two equal variances give one,
 * exp(log 0.00005 - digamma(1/2) + log(1/2)), on the rows' 2 df). Two
 * runs a boot: the runs of one boot that differ by 0.01 (V = 0.00005)
 * add (1 - 1/2) V to a run's own.
 */
static void test_boot_variance(void **state)
{
	const double mean[] = { 0, 0.02, 0.04, 0, 0.02, 0.04 };
	const double apart[] = { 0, 0.02, 0.04, 0.01, 0.01, 0.04 };
	const double none[6] = { 0 };
	const unsigned boot[] = { 0, 1, 2 }, pairs[] = { 0, 0, 1, 1 };
	/* per row: boot 0's runs at 0, 0.01; boot 1's at 0.04, 0.05 */
	const double two[] = { 0, 0.01, 0.04, 0.05 };
	double each[2], prior, moderated;
	struct boot_variance bv = { .row_estimate = each };

	(void)state;
	assert_int_equal(calibrate_boot_variance(mean, none, 2, 3, boot, 3, &bv), 0);
	assert_float_equal(bv.sd, 0.02, 1e-9);
	assert_float_equal(bv.common_sd, 0.02, 1e-12);
	assert_float_equal(bv.common_df, 2, 1e-12);
	assert_float_equal(each[1], 0, 1e-9);
	assert_true(isnan(bv.invocation_sd));

	assert_int_equal(calibrate_boot_variance(apart, none, 2, 3, boot, 3, &bv), 0);
	assert_float_equal(bv.common_sd, sqrt(0.0003), 1e-12);
	prior = 0.00005 * exp(-stats_digamma(0.5) + log(0.5));
	moderated = (2 * prior + 0.00005) / 3;
	assert_float_equal(bv.row_sd, sqrt(prior), 1e-12);
	assert_float_equal(bv.row_df, 2, 1e-12);
	assert_float_equal(each[0], sqrt(moderated), 1e-12);
	assert_float_equal(each[1], sqrt(moderated), 1e-12);
	assert_float_equal(bv.row_estimate_df, 3, 1e-9);
	assert_float_equal(bv.sd, sqrt(0.0003 + moderated), 1e-12);
	/* a run's own sampling variance is taken off a row's own */
	{
		const double w[] = { 1e-5, 1e-5, 1e-5, 1e-5, 1e-5, 1e-5 };

		assert_int_equal(calibrate_boot_variance(apart, w, 2, 3, boot, 3,
							 &bv), 0);
		assert_float_equal(each[0], sqrt(moderated - 1e-5), 1e-12);
	}

	/* boot means 0.005, 0.045: 0.0008; V = 4 x 0.005^2 / 2 */
	assert_int_equal(calibrate_boot_variance(two, none, 1, 4, pairs, 2, &bv), 0);
	assert_float_equal(each[0], sqrt(0.0008 + 0.5 * 0.00005), 1e-12);
	assert_float_equal(bv.invocation_sd, sqrt(0.00005), 1e-12);
	/* one boot: nothing to estimate */
	assert_int_equal(calibrate_boot_variance(two, none, 1, 4, (const unsigned[]){ 0, 0, 0, 0 },
						 1, &bv), -1);
}

/*
 * Negative controls by hand: two controls at log ratios 0.01 and 0.03
 * (mean 0.02), each with repetitions of 0.0001 (0.00005 a side) and the
 * assumed sigma_u 1%, one boot a side. Their mean against 0: their
 * repetitions 0.0001 / 2, and the boot term 2 (0.0001) counted once,
 * shared by every row, not divided among the controls: 0.00025. A row at
 * 0.12 with the same parts is 0.10 net, its own boot part taken as its
 * own, and the controls' mean's own parts added: se^2 = 0.0003 +
 * 0.0003 / 2 = 0.00045. Two controls are too few to net the rows.
 */
static void test_controls(void **state)
{
	struct run_bench benches[4] = {
		{ .name = "syscall/getppid", .suite = "syscall", .op = "getppid", .variant = "none" },
		{ .name = "syscall/futex/wake", .suite = "syscall", .op = "futex", .variant = "wake" },
		{ .name = "syscall/read/tmpfs/1", .suite = "syscall", .op = "read", .variant = "tmpfs" },
		{ .name = "syscall/adds/1000", .suite = "syscall", .op = "adds", .variant = "none" },
	};
	struct compare_row rows[4];
	struct compare_result res = { .rows = rows, .count = 3 };
	struct compare_settings set = compare_default_settings();
	struct compare_controls c;
	const double d[] = { 0.01, 0.03, 0.12, 0.02 };
	double t;

	(void)state;
	set.boot_sd = 0.01;
	for (size_t i = 0; i < 4; i++) {
		rows[i] = (struct compare_row){ .a = &benches[i], .b = &benches[i],
			.raw_log_ratio = d[i], .within_a = 0.00005, .within_b = 0.00005,
			.within_a_df = 1e4, .within_b_df = 1e4, .boot_scale = 2,
			.boot_share_a = 0.5, .boot_own = NAN, .boot_common = NAN,
			.boot_own_df = INFINITY, .boot_common_df = INFINITY,
			.relative = expm1(d[i]) };
		compare_row_raw(&rows[i], &set);
	}
	assert_float_equal(rows[0].se, sqrt(0.0003), 1e-12);
	assert_true(rows[0].boot_assumed);
	assert_true(compare_is_control(&benches[0]) && compare_is_control(&benches[1]));
	assert_false(compare_is_control(&benches[2]));
	assert_int_equal(compare_controls_compute(&res, &set, &c), 0);
	assert_int_equal(c.count, 2);
	assert_float_equal(c.shift, expm1(0.02), 1e-12);
	assert_float_equal(c.se, sqrt(0.00025), 1e-12);
	assert_false(c.moved);
	assert_false(c.sound);
	assert_true(isnan(c.net[0].relative));
	assert_float_equal(c.net[2].relative, expm1(0.10), 1e-12);
	t = stats_student_quantile(0.975, 1e4);
	assert_float_equal(c.net[2].low, expm1(0.10 - t * sqrt(0.00045)), 1e-6);
	compare_controls_free(&c);
	/* too few controls: the rows keep their raw figures */
	assert_int_equal(compare_controls_net(&res, &set), 0);
	assert_false(rows[2].net);
	assert_float_equal(rows[2].log_ratio, 0.12, 1e-12);
	/* a third control that agrees: sound, and the row is netted */
	rows[2] = rows[3];
	rows[3] = (struct compare_row){ 0 };
	{
		struct compare_row row = rows[0];

		row.a = row.b = &benches[2];
		row.raw_log_ratio = 0.12;
		compare_row_raw(&row, &set);
		rows[3] = row;
	}
	res.count = 4;
	assert_int_equal(compare_controls_compute(&res, &set, &c), 0);
	assert_int_equal(c.count, 3);
	assert_true(c.sound);
	compare_controls_free(&c);
	assert_int_equal(compare_controls_net(&res, &set), 0);
	assert_true(rows[3].net);
	assert_string_equal(compare_row_basis(&rows[3]), "net");
	assert_float_equal(rows[3].log_ratio, 0.10, 1e-12);
	assert_float_equal(rows[3].raw_log_ratio, 0.12, 1e-12);
	assert_float_equal(rows[3].se, sqrt(0.0003 + 0.0003 / 3), 1e-12);
	/* a control that moved on its own (0.3): not sound, raw again */
	rows[2].raw_log_ratio = 0.3;
	compare_row_raw(&rows[2], &set);
	compare_row_raw(&rows[3], &set);
	assert_int_equal(compare_controls_compute(&res, &set, &c), 0);
	assert_false(c.sound);
	compare_controls_free(&c);
}

/*
 * A row of one boot (no boot parts) with log ratio d and se, on
 * effectively infinite df, 5 repetitions a side: what the verdict rules
 * see.
 */
static struct compare_row designed_row(double d, double se,
				       const struct compare_settings *set)
{
	struct compare_row r = {
		.reps_a = 5, .reps_b = 5, .center_a = 100, .raw_log_ratio = d,
		.within_a = se * se, .within_a_df = 1e4, .within_b = 0,
		.within_b_df = 1e4, .boot_own = NAN, .boot_common = NAN,
	};

	compare_row_raw(&r, set);
	return r;
}

/*
 * What faster, slower and same claim, and the tests that back them. M =
 * log 1.02. A row at d = M + 2.054 se has p = 0.04 for |d| > M: alone,
 * slower; beside a row at 0 (p = 1), Benjamini-Hochberg makes its q
 * 0.08, and it is not called. A row at d = M - 1.8 se is within the
 * margin by a one-sided test at 5% (1.645 se) but not at 2.5% (1.96 se):
 * same needs the latter, each of its two tests at alpha / 2.
 */
static void test_claims_and_their_tests(void **state)
{
	struct compare_settings set = compare_default_settings();
	double m = log1p(COMPARE_DEFAULT_MARGIN), se = 0.005;
	struct compare_row rows[2];

	(void)state;
	set.same_boot = 1;
	rows[0] = designed_row(m + 2.054 * se, se, &set);
	assert_float_equal(rows[0].p, 0.04, 2e-4);
	assert_int_equal(compare_assign_verdicts(rows, 1, &set), 0);
	assert_int_equal(rows[0].verdict, COMPARE_SLOWER);
	rows[1] = designed_row(0, se, &set);
	assert_float_equal(rows[1].p, 1, 1e-12);
	assert_int_equal(compare_assign_verdicts(rows, 2, &set), 0);
	assert_float_equal(rows[0].q, 0.08, 4e-4);
	assert_int_equal(rows[0].verdict, COMPARE_INCONCLUSIVE);
	/* the same row faster the other way */
	rows[0] = designed_row(-m - 2.5 * se, se, &set);
	assert_int_equal(compare_assign_verdicts(rows, 1, &set), 0);
	assert_int_equal(rows[0].verdict, COMPARE_FASTER);

	rows[0] = designed_row(m - 1.8 * se, se, &set);
	assert_int_equal(compare_assign_verdicts(rows, 1, &set), 0);
	assert_int_equal(rows[0].verdict, COMPARE_INCONCLUSIVE);
	rows[0] = designed_row(m - 2.1 * se, se, &set);
	assert_int_equal(compare_assign_verdicts(rows, 1, &set), 0);
	assert_int_equal(rows[0].verdict, COMPARE_SAME);
	/* withheld: the same rows, no verdict */
	set.withheld = "designed";
	assert_int_equal(compare_assign_verdicts(rows, 1, &set), 0);
	assert_int_equal(rows[0].verdict, COMPARE_INCONCLUSIVE);
}

/*
 * Never below the assumption on little data, never below the data: a
 * boot part estimated at 1% on 4 df is replaced by the assumed 2%, taken
 * as known; at 3% on 4 df it is used, with its df; at 1% on 40 df, used.
 */
static void test_boot_part_floor(void **state)
{
	struct compare_settings set = compare_default_settings();
	struct compare_row r = {
		.reps_a = 5, .reps_b = 5, .center_a = 100, .raw_log_ratio = 0,
		.within_a = 1e-6, .within_a_df = 4, .within_b = 1e-6,
		.within_b_df = 4, .boot_scale = 2, .boot_share_a = 0.5,
	};

	(void)state;
	r.boot_own = 2 * 0.01 * 0.01;
	r.boot_own_df = 4;
	r.boot_common = 0;
	r.boot_common_df = 4;
	compare_row_raw(&r, &set);
	assert_true(r.boot_assumed);
	assert_float_equal(r.se, sqrt(2e-6 + 2 * 0.02 * 0.02), 1e-12);
	assert_float_equal(r.boot_sd, 0.02, 1e-12);
	r.boot_own = 2 * 0.03 * 0.03;
	compare_row_raw(&r, &set);
	assert_false(r.boot_assumed);
	assert_float_equal(r.se, sqrt(2e-6 + 2 * 0.03 * 0.03), 1e-12);
	assert_true(r.df > 3.9 && r.df < 4.1);
	r.boot_own = 2 * 0.01 * 0.01;
	r.boot_own_df = 40;
	r.boot_common_df = 40;
	compare_row_raw(&r, &set);
	assert_false(r.boot_assumed);
	assert_float_equal(r.se, sqrt(2e-6 + 2 * 0.01 * 0.01), 1e-12);
}

/*
 * Residuals that spread more than their se say widen beta's interval:
 * four points of se 1, base 10 each, windows 0..3, off the line by
 * sqrt(2) (1, -1, -1, 1), a pattern neither column explains: rss 8 on 2
 * df, a factor 4 on beta's variance 400 / 2000.
 */
static void test_fit_widened_by_residuals(void **state)
{
	struct pair_fit_point p[4];
	struct pair_fit fit = { .point = p, .count = 4, .smap_shift_var = NAN };
	const double off[] = { 1, -1, -1, 1 };

	(void)state;
	for (int i = 0; i < 4; i++)
		p[i] = (struct pair_fit_point){ "row", 10, i,
			0.1 * 10 + 50 * i + sqrt(2) * off[i], 1, NAN };
	assert_int_equal(pair_fit_points(&fit), 0);
	assert_float_equal(fit.beta, 50, 1e-9);
	assert_float_equal(fit.alpha, 0.1, 1e-9);
	assert_float_equal(fit.scale, 4, 1e-9);
	assert_float_equal(fit.beta_se, 2 * sqrt(400.0 / 2000), 1e-9);
	/* the SMAP boot's shift: beta^2 var(c) more */
	fit.smap_shift_var = 0.01 * 0.01;
	fit.smap_shift_df = INFINITY;
	assert_int_equal(pair_fit_points(&fit), 0);
	assert_float_equal(fit.beta_se, sqrt(4 * 400.0 / 2000 + 2500 * 1e-4), 1e-9);
}

/*
 * The pair's fit takes the SMAP side from the orientation it is given:
 * rows costing 100 (k + 1) without SMAP and 1.01 times that plus 50 k
 * with it, k windows, give beta 50 and alpha 1% whether the SMAP run is
 * B or A. Windows in proportion to the cost (within 3%) cannot be told
 * from a shift of the cost: the variance inflation factor says so.
 */
static void test_fit_orientation_and_collinearity(void **state)
{
	struct run_bench bench = { .name = "syscall/row", .suite = "syscall" };
	struct compare_row rows[5];
	struct compare_result res = { .rows = rows, .count = 5 };
	struct compare_settings set = compare_default_settings();
	double windows[5], scale[5] = { 1, 1, 1, 1, 1 };
	struct pair_fit fit;

	(void)state;
	set.same_boot = 1;
	for (int reversed = 0; reversed < 2; reversed++) {
		for (int k = 0; k < 5; k++) {
			double off = 100.0 * (k + 1), on = 1.01 * off + 50 * k;

			windows[k] = k;
			rows[k] = (struct compare_row){ .a = &bench, .b = &bench,
				.center_a = reversed ? on : off,
				.center_b = reversed ? off : on,
				.raw_log_ratio = reversed ? log(off / on) : log(on / off),
				.raw_se = 0.001, .raw_df = 1e4,
				.within_a = 1e-6, .within_b = 1e-6, .within_a_df = 4,
				.within_b_df = 4, .boot_share_a = 0.5,
				.boot_own = NAN, .boot_common = NAN };
		}
		memset(&fit, 0, sizeof(fit));
		assert_int_equal(pair_fit_rows(&res, windows, scale, reversed, &set,
					       &fit), 0);
		assert_true(fit.fitted);
		assert_int_equal(fit.reversed, reversed);
		assert_float_equal(fit.beta, 50, 1e-6);
		assert_float_equal(fit.alpha, 0.01, 1e-9);
		assert_true(fit.vif < 10);
		pair_fit_free(&fit);
	}
	/* windows a cost's hundredth, within 3% */
	for (int k = 0; k < 5; k++) {
		double off = 100.0 * (k + 1);

		windows[k] = off / 100 * (k % 2 ? 1.03 : 0.97);
		rows[k].center_a = off;
		rows[k].center_b = 1.01 * off + 50 * windows[k];
		rows[k].raw_log_ratio = log(rows[k].center_b / off);
	}
	memset(&fit, 0, sizeof(fit));
	assert_int_equal(pair_fit_rows(&res, windows, scale, 0, &set, &fit), 0);
	assert_true(fit.fitted);
	assert_true(fit.vif > PAIR_FIT_MAX_VIF);
	pair_fit_free(&fit);
}

/* ------------------------------------------------------------ files */

static char tmpdir[] = "/tmp/test_compare.XXXXXX";

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void make_run(const char *name, const char *kernel, const char *cmdline,
		     const char *results, double shift)
{
	char dir[512], context[1024], samples[16384];
	size_t used;
	const char *names[] = { "kmod/get_user/kapi/8", "kmod/pair/none/0",
				"syscall/getppid/none/0" };

	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(context, sizeof(context),
		 "key,value\nhost,box\ncpu_model,\"Some CPU, 4 cores\"\n"
		 "kernel_release,%s\ncmdline,%s\ncounter,kmod-tsc\nvirt,bare\n"
		 "tsc_hz,2000000000\n", kernel, cmdline);
	write_file(dir, "context.csv", context);
	write_file(dir, "results.csv", results);
	used = (size_t)snprintf(samples, sizeof(samples),
				"name,repetition,sample,iterations,value,unit\n");
	/* 5 repetitions of 4 samples */
	for (size_t k = 0; k < 3; k++)
		for (int i = 0; i < 20; i++)
			used += (size_t)snprintf(samples + used, sizeof(samples) - used,
						 "%s,%d,%d,100,%.6g,%s\n", names[k],
						 i / 4, i % 4,
						 (k == 2 ? 50 : 10) + shift * (k == 0) + 0.01 * i,
						 k == 2 ? "ns" : "cycles");
	write_file(dir, "samples.csv", samples);
}

static int setup_runs(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	make_run("a", "6.1.0-28-amd64", "ro quiet",
		 "name,suite,op,variant,size,batch,unit,median,median_ns\n"
		 "kmod/get_user/kapi/8,kmod,get_user,kapi,8,0,cycles,10.1,5.05\n"
		 "kmod/pair/none/0,kmod,pair,none,0,0,cycles,10.1,5.05\n"
		 "syscall/getppid/none/0,syscall,getppid,none,0,0,ns,50.1,50.1\n"
		 "kmod/only_in_a/none/0,kmod,only_in_a,none,0,0,cycles,1,0.5\n",
		 0);
	make_run("b", "6.1.0-28-amd64", "ro quiet clearcpuid=smap",
		 /* a different row order: pairing is by name */
		 "name,suite,op,variant,size,batch,unit,median,median_ns\n"
		 "syscall/getppid/none/0,syscall,getppid,none,0,0,ns,50.1,50.1\n"
		 "kmod/pair/none/0,kmod,pair,none,0,0,cycles,10.1,5.05\n"
		 "kmod/get_user/kapi/8,kmod,get_user,kapi,8,0,cycles,30.1,15.05\n",
		 20);
	make_run("c", "6.12.9-amd64", "ro quiet",
		 "name,suite,op,variant,size,batch,unit,median\n"
		 "kmod/pair/none/0,kmod,pair,none,0,0,cycles,10.1\n", 0);
	return 0;
}

static int teardown_runs(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

static void load(const char *name, struct run_dir *run)
{
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	if (rundir_load(path, run, err, sizeof(err)))
		fail_msg("loading %s: %s", path, err);
}

static void test_pairing_by_name(void **state)
{
	struct run_dir a, b;
	struct compare_result res;
	const struct compare_row *gu = NULL;
	struct compare_settings set = calibrated(0, INFINITY);

	(void)state;
	load("a", &a);
	load("b", &b);
	assert_int_equal(a.count, 4);
	assert_non_null(rundir_find(&a, "kmod/pair/none/0"));
	assert_int_equal(rundir_find(&a, "kmod/pair/none/0")->count, 20);
	assert_string_equal(rundir_context(&a, "cpu_model"), "Some CPU, 4 cores");
	assert_int_equal(compare_runs(&a, &b, &set, &res), 0);
	assert_int_equal(res.count, 3);
	assert_int_equal(res.only_a_count, 1);
	assert_string_equal(res.only_a[0], "kmod/only_in_a/none/0");
	assert_int_equal(res.only_b_count, 0);
	for (size_t i = 0; i < res.count; i++) {
		/* every row pairs equal names */
		assert_string_equal(res.rows[i].a->name, res.rows[i].b->name);
		if (!strcmp(res.rows[i].a->name, "kmod/get_user/kapi/8"))
			gu = &res.rows[i];
	}
	assert_non_null(gu);
	assert_string_equal(gu->method, "samples");
	assert_float_equal(gu->delta, 20, 1e-9);
	assert_float_equal(gu->delta_ns, 10, 1e-9);	/* 0.5 ns per cycle */
	assert_int_equal(gu->reps_a, 5);
	/*
	 * Welch over the logs of 5 + 5 repetition medians 0.04 apart within a
	 * side, 20 between: p about 5e-12 on 4.9 df. The other two rows
	 * are equal (p = 1), so of 3 rows tested this p is first and q = 3 p.
	 */
	assert_true(gu->df >= 4 && gu->df <= 8);
	assert_true(gu->p > 0 && gu->p < 1e-10);
	assert_true(fabs(gu->q / gu->p - 3) < 1e-9);
	assert_int_equal(gu->verdict, COMPARE_SLOWER);
	assert_int_equal(res.rows[1].verdict, COMPARE_SAME);	/* pair */
	/* one run a side over the runs' path: the same interval */
	{
		const struct run_dir *sa[1] = { &a }, *sb[1] = { &b };
		double low = gu->ci_low, high = gu->ci_high, df = gu->df;
		size_t kept;

		assert_int_equal(compare_boots_rows(&res, sa, 1, sb, 1, &set, &kept), 0);
		assert_int_equal(kept, 0);
		assert_float_equal(gu->ci_low, low, 1e-9);
		assert_float_equal(gu->ci_high, high, 1e-9);
		assert_float_equal(gu->df, df, 1e-6);
		assert_int_equal(gu->verdict, COMPARE_SLOWER);
	}
	compare_result_free(&res);
	rundir_free(&a);
	rundir_free(&b);
}

/*
 * A run of the three rows of make_run() in boot boot_id (smap_state
 * state), each row at base x exp(level[k]), its repetitions 0.1% apart.
 */
static void make_boot_run(const char *name, const char *boot_id,
			  const char *state, const double *level)
{
	char dir[512], context[1024], samples[16384];
	const char *names[] = { "kmod/get_user/kapi/8", "kmod/pair/none/0",
				"syscall/getppid/none/0" };
	const double base[] = { 10, 12, 50 };
	size_t used;

	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(context, sizeof(context),
		 "key,value\nhost,box\ncpu_model,cpu\nkernel_release,6.1\n"
		 "counter,kmod-tsc\nvirt,bare\nsmap_state,%s\nboot_id,%s\n",
		 state, boot_id);
	write_file(dir, "context.csv", context);
	write_file(dir, "results.csv",
		   "name,suite,op,variant,size,batch,unit,median\n"
		   "kmod/get_user/kapi/8,kmod,get_user,kapi,8,0,cycles,10\n"
		   "kmod/pair/none/0,kmod,pair,none,0,0,cycles,12\n"
		   "syscall/getppid/none/0,syscall,getppid,none,0,0,cycles,50\n");
	used = (size_t)snprintf(samples, sizeof(samples),
				"name,repetition,sample,iterations,value,unit\n");
	for (size_t k = 0; k < 3; k++)
		for (int i = 0; i < 20; i++)
			used += (size_t)snprintf(samples + used, sizeof(samples) - used,
						 "%s,%d,%d,100,%.9g,cycles\n", names[k],
						 i / 4, i % 4, base[k] * exp(level[k]) *
						 (1 + 0.001 * (i / 4 - 2)));
	write_file(dir, "samples.csv", samples);
}

/*
 * Several boots a side. Three boots of A, three of B, the boots' shifts
 * and the rows' own effects a few percent: each row's se^2 is its boot
 * figures' variance split into the shift the rows share and its own,
 * moderated (boot_split() on the figures the test reads itself), times
 * 1/3 + 1/3: a side's mean of 3 boots. Boots are counted by boot_id: two
 * runs of one boot are one. Fewer than 3 boots a side: withheld.
 */
static void test_boots_a_side(void **state)
{
	static const double level[6][3] = {
		{ 0.00, 0.03, -0.01 }, { 0.05, 0.02, 0.08 }, { -0.04, -0.02, -0.07 },
		{ 0.03, 0.07, 0.01 }, { -0.02, 0.01, -0.05 }, { 0.06, 0.02, 0.09 },
	};
	const char *names[6] = { "ba1", "ba2", "ba3", "bb1", "bb2", "bb3" };
	const char *rows[3] = { "kmod/get_user/kapi/8", "kmod/pair/none/0",
				"syscall/getppid/none/0" };
	struct run_dir runs[7];
	const struct run_dir *a[3], *b[3];
	const unsigned group[6] = { 0, 0, 0, 1, 1, 1 };
	struct compare_settings set = compare_default_settings();
	struct compare_result res;
	struct boot_split split;
	double y[18];
	size_t kept;

	(void)state;
	for (int j = 0; j < 6; j++) {
		char id[16];

		snprintf(id, sizeof(id), "boot-%d", j);
		make_boot_run(names[j], id, j < 3 ? "nosmap" : "smap", level[j]);
		load(names[j], &runs[j]);
		(j < 3 ? a : b)[j % 3] = &runs[j];
	}
	for (size_t k = 0; k < 3; k++)
		for (size_t j = 0; j < 6; j++) {
			struct compare_log_figure f;

			assert_true(compare_log_figure_of(rundir_find(&runs[j], rows[k]),
							  3, &f));
			y[k * 6 + j] = f.mean;
		}
	assert_int_equal(boot_split(y, 3, 6, group, 2, &split), 0);
	assert_int_equal(compare_sides(a, 3, b, 3, &set, 1, NULL, NULL, &res, &kept), 0);
	assert_int_equal(set.boots_a, 3);
	assert_int_equal(set.boots_b, 3);
	assert_null(set.withheld);
	assert_int_equal(set.boot_source, COMPARE_BOOT_RUNS);
	for (size_t k = 0; k < 3; k++) {
		const struct compare_row *r = &res.rows[k];

		assert_string_equal(r->a->name, rows[k]);
		assert_false(r->boot_assumed);
		assert_float_equal(r->se * r->se,
				   (split.common + split.moderated[k]) * (1.0 / 3 + 1.0 / 3),
				   1e-12);
		assert_float_equal(r->boot_common_df, 4, 1e-12);
	}
	compare_result_free(&res);
	boot_split_free(&split);

	/* a fourth run of A's first boot: still 3 boots a side */
	make_boot_run("ba1-again", "boot-0", "nosmap", level[0]);
	load("ba1-again", &runs[6]);
	{
		const struct run_dir *a4[4] = { a[0], a[1], a[2], &runs[6] };

		set = compare_default_settings();
		compare_design(a4, 4, b, 3, &set);
		assert_int_equal(set.boots_a, 3);
		assert_int_equal(set.runs_a, 4);
	}
	/* two boots a side, no calibration: intervals, no verdicts */
	set = compare_default_settings();
	assert_int_equal(compare_sides(a, 2, b, 2, &set, 1, NULL, NULL, &res, &kept), 0);
	assert_non_null(set.withheld);
	assert_int_equal(set.boots_needed, COMPARE_BOOTS_NEEDED);
	for (size_t k = 0; k < res.count; k++)
		assert_int_not_equal(res.rows[k].verdict, COMPARE_SLOWER);
	compare_result_free(&res);
	for (int j = 0; j < 7; j++)
		rundir_free(&runs[j]);
}

/*
 * Runs all of one boot: the runs are the units, and what they differ by
 * is what moves a whole invocation. One run a side: withheld, unless a
 * calibration of runs of one boot says it; a calibration of boots is
 * not used for them. calibrate over runs of one boot writes level
 * invocation, read back the same; a file of format 1 is refused.
 */
static void test_one_boot(void **state)
{
	static const double level[6][3] = {
		{ 0.00, 0.03, -0.01 }, { 0.05, 0.02, 0.08 }, { -0.04, -0.02, -0.07 },
		{ 0.03, 0.07, 0.01 }, { -0.02, 0.01, -0.05 }, { 0.06, 0.02, 0.09 },
	};
	const char *names[6] = { "oa1", "oa2", "oa3", "ob1", "ob2", "ob3" };
	struct run_dir runs[6];
	const struct run_dir *a[3], *b[3];
	struct compare_settings set = compare_default_settings();
	struct compare_result res;
	struct calibration cal, back;
	char path[600], err[512];
	size_t kept;

	(void)state;
	for (int j = 0; j < 6; j++) {
		make_boot_run(names[j], "the-boot", "smap", level[j]);
		load(names[j], &runs[j]);
		(j < 3 ? a : b)[j % 3] = &runs[j];
	}
	assert_int_equal(compare_sides(a, 3, b, 3, &set, 1, NULL, NULL, &res, &kept), 0);
	assert_true(set.same_boot);
	assert_null(set.withheld);
	assert_int_equal(set.boot_source, COMPARE_BOOT_NONE);
	assert_true(res.rows[0].boot_scale > 0);
	compare_result_free(&res);
	set = compare_default_settings();
	assert_int_equal(compare_sides(a, 1, b, 1, &set, 1, NULL, NULL, &res, &kept), 0);
	assert_non_null(set.withheld);
	assert_int_equal(set.boots_needed, COMPARE_RUNS_NEEDED);
	compare_result_free(&res);

	assert_int_equal(calibrate_runs(a, 3, &cal, err, sizeof(err)), 0);
	assert_true(cal.invocation);
	assert_true(cal.model.invocation);
	snprintf(path, sizeof(path), "%s/invocations.csv", tmpdir);
	assert_int_equal(calibration_write(path, &cal), 0);
	assert_int_equal(calibration_read(path, &back, err, sizeof(err)), 0);
	assert_true(back.invocation);
	assert_int_equal(back.rows, cal.rows);
	/* the file keeps 6 digits */
	assert_float_equal(back.model.common.var, cal.model.common.var,
			   1e-5 * cal.model.common.var);
	for (size_t r = 0; r < cal.rows; r++)
		assert_float_equal(back.model.own[r].var, cal.model.own[r].var,
				   1e-5 * cal.model.own[r].var + 1e-15);
	set = compare_default_settings();
	set.model = &back.model;
	assert_int_equal(compare_sides(a, 1, b, 1, &set, 1, NULL, NULL, &res, &kept), 0);
	assert_null(set.withheld);
	assert_int_equal(set.boot_source, COMPARE_BOOT_CALIBRATION);
	compare_result_free(&res);
	/* a calibration of boots says nothing of runs of one boot */
	back.model.invocation = 0;
	set = compare_default_settings();
	set.model = &back.model;
	assert_int_equal(compare_sides(a, 1, b, 1, &set, 1, NULL, NULL, &res, &kept), 0);
	assert_null(set.model);
	assert_non_null(set.withheld);
	compare_result_free(&res);
	calibration_free(&cal);
	calibration_free(&back);
	write_file(tmpdir, "format1.csv", "key,value\nformat,1\nboot_sd,0.01\nboot_df,12\n");
	snprintf(path, sizeof(path), "%s/format1.csv", tmpdir);
	assert_int_equal(calibration_read(path, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pooled every row"));
	for (int j = 0; j < 6; j++)
		rundir_free(&runs[j]);
}

static void test_context_refusal(void **state)
{
	struct run_dir a, b, c;
	struct context_diff *d;
	size_t n;
	int blocking_kernel = 0, expected_cmdline = 0;
	char unrecorded[4096], path[600];
	FILE *f;
	struct run_dir e;

	(void)state;
	load("a", &a);
	load("b", &b);
	load("c", &c);
	/* smap vs nosmap boot: cmdline differs by design, no refusal */
	assert_int_equal(context_diffs(&a, &b, &d, &n), 0);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].key, "cmdline"))
			expected_cmdline = d[i].kind == CONTEXT_DIFF_EXPECTED;
	assert_true(expected_cmdline);
	free(d);
	/* another kernel: refused, and the field is named */
	assert_int_equal(context_diffs(&a, &c, &d, &n), 1);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].key, "kernel_release") &&
		    d[i].kind == CONTEXT_DIFF_BLOCKING) {
			blocking_kernel = 1;
			assert_string_equal(d[i].a, "6.1.0-28-amd64");
			assert_string_equal(d[i].b, "6.12.9-amd64");
		}
	assert_true(blocking_kernel);
	free(d);
	assert_int_equal(context_diff_kind("host"), CONTEXT_DIFF_BLOCKING);
	assert_int_equal(context_diff_kind("microcode"), CONTEXT_DIFF_BLOCKING);
	assert_int_equal(context_diff_kind("counter"), CONTEXT_DIFF_BLOCKING);
	assert_int_equal(context_diff_kind("smap_state"), CONTEXT_DIFF_EXPECTED);
	assert_int_equal(context_diff_kind("governor"), CONTEXT_DIFF_INFO);
	/* neither run has a command: not a check left undone */
	context_comparison_unrecorded(&a, &b, unrecorded, sizeof(unrecorded));
	assert_null(strstr(unrecorded, "command"));
	/* a key every run writes is still named when neither has it */
	assert_non_null(strstr(unrecorded, "counter_unit (neither run)"));
	/* one has a command: the other's is unchecked */
	make_run("with-command", "6.1.0-28-amd64", "ro quiet",
		 "name,suite,op,variant,size,batch,unit,median\n"
		 "kmod/pair/none/0,kmod,pair,none,0,0,cycles,10.1\n", 0);
	snprintf(path, sizeof(path), "%s/with-command/context.csv", tmpdir);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("command,true\n", f);
	assert_int_equal(fclose(f), 0);
	load("with-command", &e);
	context_comparison_unrecorded(&e, &b, unrecorded, sizeof(unrecorded));
	assert_non_null(strstr(unrecorded, "command (not B)"));
	rundir_free(&e);
	rundir_free(&a);
	rundir_free(&b);
	rundir_free(&c);
}

static const char gbench_json[] =
	"{\n"
	"  \"context\": {\"date\": \"2026-01-01T00:00:00Z\", \"host_name\": \"box\",\n"
	"               \"num_cpus\": 4, \"cpu_scaling_enabled\": false,\n"
	"               \"note\": \"tab\\there \\u00e9\"},\n"
	"  \"benchmarks\": [\n"
	"    {\"name\": \"BM_copy/64\", \"run_name\": \"BM_copy/64\", \"run_type\": \"iteration\",\n"
	"     \"repetitions\": 3, \"repetition_index\": 0, \"iterations\": 1000,\n"
	"     \"real_time\": 0.010, \"cpu_time\": 0.010, \"time_unit\": \"us\"},\n"
	"    {\"name\": \"BM_copy/64\", \"run_name\": \"BM_copy/64\", \"run_type\": \"iteration\",\n"
	"     \"repetitions\": 3, \"repetition_index\": 1, \"iterations\": 1000,\n"
	"     \"real_time\": 0.012, \"cpu_time\": 0.012, \"time_unit\": \"us\"},\n"
	"    {\"name\": \"BM_copy/64\", \"run_name\": \"BM_copy/64\", \"run_type\": \"iteration\",\n"
	"     \"repetitions\": 3, \"repetition_index\": 2, \"iterations\": 1000,\n"
	"     \"real_time\": 0.011, \"cpu_time\": 0.011, \"time_unit\": \"us\"},\n"
	"    {\"name\": \"BM_copy/64_median\", \"run_name\": \"BM_copy/64\",\n"
	"     \"run_type\": \"aggregate\", \"aggregate_name\": \"median\",\n"
	"     \"real_time\": 0.011, \"cpu_time\": 0.011, \"time_unit\": \"us\"},\n"
	"    {\"name\": \"BM_copy/64_mean\", \"run_name\": \"BM_copy/64\",\n"
	"     \"run_type\": \"aggregate\", \"aggregate_name\": \"mean\",\n"
	"     \"real_time\": 99, \"cpu_time\": 99, \"time_unit\": \"us\"},\n"
	"    {\"name\": \"BM_broken\", \"run_type\": \"iteration\", \"error_occurred\": true,\n"
	"     \"error_message\": \"no device\", \"real_time\": 0, \"time_unit\": \"ns\"},\n"
	"    {\"name\": \"BM_once\", \"iterations\": 10, \"real_time\": 42,\n"
	"     \"cpu_time\": 41, \"time_unit\": \"ns\"},\n"
	/* smapbench's JSON: the fields say what the name leaves out */
	"    {\"name\": \"kmod/sigframe/batched/25\", \"run_type\": \"iteration\",\n"
	"     \"real_time\": 50, \"time_unit\": \"ns\", \"suite\": \"kmod\",\n"
	"     \"op\": \"sigframe\", \"variant\": \"batched\", \"size\": 0, \"batch\": 25}\n"
	"  ]\n"
	"}\n";

static void test_gbench_json(void **state)
{
	char path[512], err[512] = "";
	struct run_dir run, other;
	const struct run_bench *b;
	struct compare_result res;
	struct compare_settings set = compare_default_settings();

	(void)state;
	write_file(tmpdir, "gb.json", gbench_json);
	snprintf(path, sizeof(path), "%s/gb.json", tmpdir);
	if (rundir_load(path, &run, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(run.from_json);
	assert_int_equal(run.count, 3);	/* the failed one is skipped */
	assert_string_equal(rundir_context(&run, "host"), "box");
	assert_string_equal(rundir_context(&run, "note"), "tab\there \xc3\xa9");
	assert_string_equal(rundir_context(&run, "cpu_scaling_enabled"), "false");
	b = rundir_find(&run, "BM_copy/64");
	assert_non_null(b);
	assert_int_equal(b->count, 3);
	assert_int_equal(b->source, RUN_VALUES_REPETITIONS);
	assert_string_equal(b->unit, "ns");
	assert_float_equal(b->median, 11, 1e-9);	/* us -> ns */
	assert_float_equal(b->values[1], 12, 1e-9);
	b = rundir_find(&run, "BM_once");
	assert_non_null(b);
	assert_int_equal(b->count, 1);
	assert_float_equal(b->median, 42, 1e-9);
	b = rundir_find(&run, "kmod/sigframe/batched/25");
	assert_non_null(b);
	assert_string_equal(b->suite, "kmod");
	assert_string_equal(b->variant, "batched");
	assert_int_equal(b->size, 0);
	assert_int_equal(b->batch, 25);

	/*
	 * Against itself: repetitions are the values. Three of them, 10 to
	 * 12 ns, cannot show the two within 2% of each other:
	 * inconclusive, p = 1. One value: unknown.
	 */
	if (rundir_load(path, &other, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(compare_runs(&run, &other, &set, &res), 0);
	assert_int_equal(res.count, 3);
	assert_string_equal(res.rows[0].method, "repetitions");
	assert_int_equal(res.rows[0].reps_a, 3);
	assert_int_equal(res.rows[0].verdict, COMPARE_INCONCLUSIVE);
	assert_float_equal(res.rows[0].p, 1, 1e-12);
	assert_int_equal(res.rows[1].verdict, COMPARE_UNKNOWN);
	compare_result_free(&res);
	rundir_free(&other);
	rundir_free(&run);

	/* A directory holding only results.json loads the same way. */
	write_file(tmpdir, "results.json", gbench_json);
	if (rundir_load(tmpdir, &run, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(run.count, 3);
	rundir_free(&run);
	unlink(path);
	snprintf(path, sizeof(path), "%s/results.json", tmpdir);
	unlink(path);

	/* Broken JSON: an error naming the file, not a crash. */
	write_file(tmpdir, "bad.json", "{\"benchmarks\": [ {\"name\": \"x\", }");
	snprintf(path, sizeof(path), "%s/bad.json", tmpdir);
	assert_int_equal(rundir_load(path, &run, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad.json"));
	unlink(path);
}

/*
 * The within-boot tables on constructed values: nopad(size) = size
 * ticks and inline = nopad + 10, so the pair costs 10 and its share of a
 * copy, 10 / size, is a power law that the log-log interpolation follows
 * exactly: under 1% from 1000 bytes on. get_user: kapi 30 per access,
 * a block of 4 costs 40, so batching saves 30 - 40/4 = 20 per access.
 * Three repetitions of two samples each, every one alike: each paired
 * figure's interval has zero width.
 */
static void test_derived_tables(void **state)
{
	static const unsigned long sizes[] = { 256, 512, 1024, 2048 };
	char dir[512], results[4096], samples[32768];
	size_t r = 0, s = 0;
	struct run_dir run;
	struct derived d;
	char err[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/derived", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	r += (size_t)snprintf(results + r, sizeof(results) - r,
			      "name,suite,op,variant,size,batch,unit,median\n");
	s += (size_t)snprintf(samples + s, sizeof(samples) - s,
			      "name,repetition,sample,iterations,value,unit\n");
	for (size_t i = 0; i < 4; i++)
		for (int inl = 0; inl < 2; inl++) {
			double v = (double)sizes[i] + (inl ? 10 : 0);
			const char *variant = inl ? "inline" : "nopad";

			r += (size_t)snprintf(results + r, sizeof(results) - r,
					      "kmod/copy_to_user/%s/%lu,kmod,copy_to_user,%s,%lu,0,ticks,%g\n",
					      variant, sizes[i], variant, sizes[i], v);
			for (int k = 0; k < 6; k++)
				s += (size_t)snprintf(samples + s, sizeof(samples) - s,
						      "kmod/copy_to_user/%s/%lu,%d,%d,1,%g,ticks\n",
						      variant, sizes[i], k / 2, k % 2, v);
		}
	r += (size_t)snprintf(results + r, sizeof(results) - r,
			      "kmod/get_user/kapi/8,kmod,get_user,kapi,8,0,ticks,30\n"
			      "kmod/get_user/batched/8/4,kmod,get_user,batched,8,4,ticks,40\n");
	for (int k = 0; k < 6; k++)
		s += (size_t)snprintf(samples + s, sizeof(samples) - s,
				      "kmod/get_user/kapi/8,%d,%d,1,30,ticks\n"
				      "kmod/get_user/batched/8/4,%d,%d,1,40,ticks\n",
				      k / 2, k % 2, k / 2, k % 2);
	write_file(dir, "results.csv", results);
	write_file(dir, "samples.csv", samples);
	if (rundir_load(dir, &run, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(derived_compute(&run, &d), 0);

	assert_int_equal(d.pair_count, 4);
	for (size_t i = 0; i < d.pair_count; i++) {
		assert_float_equal(d.pairs[i].cost, 10, 1e-9);
		assert_float_equal(d.pairs[i].low, 10, 1e-9);
		assert_float_equal(d.pairs[i].high, 10, 1e-9);
	}
	assert_int_equal(d.batch_count, 1);
	assert_int_equal(d.batches[0].batch, 4);
	assert_float_equal(d.batches[0].single, 30, 1e-9);
	assert_float_equal(d.batches[0].batched, 10, 1e-9);
	assert_float_equal(d.batches[0].saving, 20, 1e-9);
	assert_float_equal(d.batches[0].low, 20, 1e-9);
	assert_int_equal(d.crossover_count, 1);
	assert_string_equal(d.crossovers[0].op, "copy_to_user");
	assert_float_equal(d.crossovers[0].size, 1000, 1e-6);
	assert_float_equal(d.crossovers[0].low, 1000, 1e-6);
	assert_float_equal(d.crossovers[0].high, 1000, 1e-6);
	assert_float_equal(d.crossovers[0].share_at_max, 10.0 / 2048, 1e-12);
	derived_free(&d);
	rundir_free(&run);
}

/* Threads change nothing: each pair is computed on its own. */
static void test_threads_change_nothing(void **state)
{
	struct run_dir a, b;
	struct compare_result one, many;
	struct compare_settings set = compare_default_settings();

	(void)state;
	load("a", &a);
	load("b", &b);
	assert_int_equal(compare_runs_with(&a, &b, &set, 1, NULL, NULL, &one), 0);
	assert_int_equal(compare_runs_with(&a, &b, &set, 4, NULL, NULL, &many), 0);
	assert_int_equal(one.count, many.count);
	for (size_t i = 0; i < one.count; i++) {
		assert_ptr_equal(one.rows[i].a, many.rows[i].a);
		assert_memory_equal(&one.rows[i].ci_low, &many.rows[i].ci_low,
				    sizeof(double));
		assert_memory_equal(&one.rows[i].ci_high, &many.rows[i].ci_high,
				    sizeof(double));
		assert_memory_equal(&one.rows[i].p, &many.rows[i].p,
				    sizeof(double));
		assert_memory_equal(&one.rows[i].q, &many.rows[i].q,
				    sizeof(double));
	}
	compare_result_free(&one);
	compare_result_free(&many);
	rundir_free(&a);
	rundir_free(&b);
}

/* ------------------------------------------------------------ atomic_dir */

static int exists(const char *dir, const char *name)
{
	char path[8192];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return 0;
	return lstat(path, &st) == 0;
}

/* No .NAME.tmp-XXXXXX or .tmp-XXXXXX of ours left in dir. */
static int no_temporaries(const char *dir)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "test -z \"$(find '%s' -maxdepth 1 -name '.*tmp-*')\"",
		 dir);
	return system(cmd) == 0;
}

static void test_remove_tree_keeps_link_targets(void **state)
{
	char tree[512], outside[512], path[600];

	(void)state;
	snprintf(outside, sizeof(outside), "%s/outside", tmpdir);
	snprintf(tree, sizeof(tree), "%s/tree", tmpdir);
	assert_int_equal(mkdir(outside, 0755), 0);
	write_file(outside, "keep.txt", "mine\n");
	snprintf(path, sizeof(path), "%s/sub", tree);
	assert_int_equal(atomic_dir_make_parents(path), 0);
	write_file(path, "file", "x\n");
	snprintf(path, sizeof(path), "%s/link", tree);
	assert_int_equal(symlink(outside, path), 0);
	snprintf(path, sizeof(path), "%s/sub/link2", tree);
	assert_int_equal(symlink("../../outside/keep.txt", path), 0);

	assert_int_equal(atomic_dir_remove_tree(tree), 0);
	assert_false(exists(tmpdir, "tree"));
	assert_true(exists(outside, "keep.txt"));
}

static void test_atomic_dir_rules(void **state)
{
	char target[512], err[1024] = "", path[600];
	struct atomic_dir d;
	FILE *f;

	(void)state;
	snprintf(target, sizeof(target), "%s/out/cmp", tmpdir);
	/* absent, and its parent too: made */
	assert_int_equal(atomic_dir_begin(&d, target, &atomic_dir_compare, err,
					  sizeof(err)), 0);
	write_file(d.tmp, "compare.csv", "first\n");
	assert_int_equal(atomic_dir_commit(&d, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/" ATOMIC_DIR_MARKER, target);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(path, sizeof(path), f));
	fclose(f);
	assert_string_equal(path, "smapbench compare\n");

	/* ours: replaced, the old content gone */
	assert_int_equal(atomic_dir_begin(&d, target, &atomic_dir_compare, err,
					  sizeof(err)), 0);
	write_file(d.tmp, "report.md", "# smapbench comparison\n");
	assert_int_equal(atomic_dir_commit(&d, err, sizeof(err)), 0);
	assert_false(exists(target, "compare.csv"));
	assert_true(exists(target, "report.md"));

	/* a file of the user's in it: refused, naming it, nothing touched */
	write_file(target, "notes.txt", "mine\n");
	assert_int_equal(atomic_dir_begin(&d, target, &atomic_dir_compare, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "notes.txt"));
	assert_true(exists(target, "notes.txt") && exists(target, "report.md"));

	/* another kind's output, a run directory, a file: refused */
	snprintf(path, sizeof(path), "%s/out", tmpdir);
	assert_int_equal(atomic_dir_check(target, &atomic_dir_plots, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "smapbench compare directory"));
	snprintf(path, sizeof(path), "%s/a", tmpdir);
	assert_int_equal(atomic_dir_check(path, &atomic_dir_compare, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "run directory"));
	snprintf(path, sizeof(path), "%s/a/results.csv", tmpdir);
	assert_int_equal(atomic_dir_check(path, &atomic_dir_compare, err,
					  sizeof(err)), -1);
	assert_non_null(strstr(err, "not a directory"));

	/* abandoned: nothing left beside the target */
	snprintf(target, sizeof(target), "%s/out/fresh", tmpdir);
	assert_int_equal(atomic_dir_begin(&d, target, &atomic_dir_compare, err,
					  sizeof(err)), 0);
	write_file(d.tmp, "compare.csv", "x\n");
	atomic_dir_abort(&d);
	snprintf(path, sizeof(path), "%s/out", tmpdir);
	assert_true(no_temporaries(path));
	assert_false(exists(path, "fresh"));
}

static void test_atomic_dir_commit_new(void **state)
{
	char parent[512], err[1024] = "";
	struct atomic_dir d;

	(void)state;
	snprintf(parent, sizeof(parent), "%s/runs", tmpdir);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(atomic_dir_begin_in(&d, parent, &atomic_dir_run,
						     err, sizeof(err)), 0);
		assert_int_equal(atomic_dir_commit_new(&d, parent, "host-smap", err,
						       sizeof(err)), 0);
	}
	assert_true(exists(parent, "host-smap") && exists(parent, "host-smap-2"));
	assert_true(no_temporaries(parent));
}

static void test_atomic_file_rules(void **state)
{
	char path[512], err[1024] = "";
	struct atomic_file out;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/report.md", tmpdir);
	write_file(tmpdir, "report.md", "my own notes\n");
	assert_null(atomic_file_begin(&out, path, "# smapbench ", err, sizeof(err)));
	assert_non_null(strstr(err, "not written by smapbench"));
	write_file(tmpdir, "report.md", "# smapbench report: old\n");
	f = atomic_file_begin(&out, path, "# smapbench ", err, sizeof(err));
	assert_non_null(f);
	fputs("# smapbench report: new\n", f);
	assert_int_equal(atomic_file_commit(&out, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(path, sizeof(path), f));
	fclose(f);
	assert_string_equal(path, "# smapbench report: new\n");
	assert_true(no_temporaries(tmpdir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_extra),
		cmocka_unit_test(test_boot_variance),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_welch_degenerate),
		cmocka_unit_test(test_center_and_paired_intervals),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_claims_and_their_tests),
		cmocka_unit_test(test_boot_part_floor),
		cmocka_unit_test(test_fit_widened_by_residuals),
		cmocka_unit_test(test_fit_orientation_and_collinearity),
		cmocka_unit_test(test_pairing_by_name),
		cmocka_unit_test(test_boots_a_side),
		cmocka_unit_test(test_one_boot),
		cmocka_unit_test(test_context_refusal),
		cmocka_unit_test(test_gbench_json),
		cmocka_unit_test(test_derived_tables),
		cmocka_unit_test(test_threads_change_nothing),
		cmocka_unit_test(test_remove_tree_keeps_link_targets),
		cmocka_unit_test(test_atomic_dir_rules),
		cmocka_unit_test(test_atomic_dir_commit_new),
		cmocka_unit_test(test_atomic_file_rules),
	};

	return cmocka_run_group_tests(tests, setup_runs, teardown_runs);
}
