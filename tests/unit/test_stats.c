// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - statistics against values worked out by hand (and
 * checked with awk): the classic {2,4,4,4,5,5,7,9} data set has mean 5,
 * sample standard deviation sqrt(32/7), median 4.5, MAD 0.5, type-7
 * p5 = 2.7 and p95 = 8.3, and 9 as its one outlier at z > 3.5.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "unit.h"

static const double classic[] = { 9, 4, 2, 5, 4, 7, 4, 5 };
#define NCLASSIC (sizeof(classic) / sizeof(classic[0]))

static void summary_of_classic_data(void **unused)
{
	struct stats_summary s;

	(void)unused;
	assert_int(stats_summarize(classic, NCLASSIC, 1, &s), 0, "summarize");
	assert_int(s.n, 8, "n");
	assert_near(s.mean, 5, 1e-12, "mean");
	assert_near(s.stddev, sqrt(32.0 / 7.0), 1e-12, "sample stddev");
	assert_near(s.median, 4.5, 1e-12, "median of an even count");
	assert_near(s.mad, 0.5, 1e-12, "MAD");
	assert_near(s.min, 2, 0, "min");
	assert_near(s.max, 9, 0, "max");
	assert_near(s.p5, 2.7, 1e-12, "p5 (type 7)");
	assert_near(s.p95, 8.3, 1e-12, "p95 (type 7)");
	assert_near(s.cv, sqrt(32.0 / 7.0) / 5, 1e-12, "cv");
	assert_int(s.outliers, 1, "outliers (only 9 has z > 3.5)");
	if (!(s.ci_low <= s.median && s.median <= s.ci_high))
		fail_msg("CI [%g, %g] does not contain the median %g",
			 s.ci_low, s.ci_high, s.median);
	if (s.ci_low < s.min || s.ci_high > s.max)
		fail_msg("CI [%g, %g] outside the data range", s.ci_low, s.ci_high);
}

static void quantiles_and_edges(void **unused)
{
	double one[] = { 42 };
	double odd[] = { 1, 2, 3, 4, 100 };

	(void)unused;
	assert_near(stats_median_sorted(one, 1), 42, 0, "median of one");
	assert_near(stats_quantile_sorted(one, 1, 0.95), 42, 0, "p95 of one");
	assert_true(isnan(stats_quantile_sorted(one, 0, 0.5)));
	assert_near(stats_median_sorted(odd, 5), 3, 0, "median of odd count");
	assert_near(stats_quantile_sorted(odd, 5, 0.25), 2, 1e-12, "p25");
	assert_near(stats_quantile_sorted(odd, 5, 0.9), 61.6, 1e-9,
		    "p90 interpolates 4..100 at 0.6");
	assert_near(stats_quantile_sorted(odd, 5, 0), 1, 0, "q=0 is min");
	assert_near(stats_quantile_sorted(odd, 5, 1), 100, 0, "q=1 is max");
	assert_near(stats_median(classic, NCLASSIC), 4.5, 0, "unsorted median");
	assert_near(stats_stddev(one, 1), 0, 0, "stddev of one sample");
	assert_int(stats_outliers_sorted(one, 1, 3.5), 0, "no outlier in one");
}

static void constant_data_has_zero_spread(void **unused)
{
	double v[20];
	struct stats_summary s;

	(void)unused;
	for (int i = 0; i < 20; i++)
		v[i] = 7.25;
	assert_int(stats_summarize(v, 20, 3, &s), 0, "summarize");
	assert_near(s.mad, 0, 0, "MAD");
	assert_near(s.stddev, 0, 0, "stddev");
	assert_int(s.outliers, 0, "outliers with MAD 0");
	assert_near(s.ci_low, 7.25, 0, "CI low");
	assert_near(s.ci_high, 7.25, 0, "CI high");
}

static void bootstrap_is_reproducible(void **unused)
{
	double v[101], lo1, hi1, lo2, hi2, lo3, hi3;

	(void)unused;
	for (int i = 0; i <= 100; i++)
		v[i] = 1000 + (i * 37 % 101);	/* 1000..1100, shuffled */
	assert_int(stats_bootstrap_median_ci(v, 101, 2000, 0.95, 11, &lo1, &hi1),
		   0, "bootstrap");
	stats_bootstrap_median_ci(v, 101, 2000, 0.95, 11, &lo2, &hi2);
	stats_bootstrap_median_ci(v, 101, 2000, 0.95, 12, &lo3, &hi3);
	assert_near(lo1, lo2, 0, "same seed, same low bound");
	assert_near(hi1, hi2, 0, "same seed, same high bound");
	/* Median 1050; its standard error here is about 12.5 * sqrt(pi/2)/... ~ 6. */
	if (!(lo1 < 1050 && hi1 > 1050 && lo1 > 1025 && hi1 < 1075))
		fail_msg("95%% CI [%g, %g] should contain 1050, within +-25", lo1, hi1);
	if (!(lo3 < 1050 && hi3 > 1050))
		fail_msg("other seed: CI [%g, %g] should contain 1050", lo3, hi3);
	assert_int(stats_bootstrap_median_ci(v, 0, 10, 0.95, 1, &lo1, &hi1), -1,
		   "no data");
}

static void rng_is_seeded_and_bounded(void **unused)
{
	struct stats_rng a, b;
	size_t idx[50], seen[50] = { 0 };

	(void)unused;
	stats_rng_seed(&a, 99);
	stats_rng_seed(&b, 99);
	for (int i = 0; i < 100; i++)
		assert_true(stats_rng_next(&a) == stats_rng_next(&b));
	for (int i = 0; i < 10000; i++) {
		assert_true(stats_rng_below(&a, 7) < 7);
		double d = stats_rng_double(&a);

		assert_true(d >= 0 && d < 1);
	}
	for (size_t i = 0; i < 50; i++)
		idx[i] = i;
	stats_shuffle(&a, idx, 50);
	for (size_t i = 0; i < 50; i++)
		seen[idx[i]]++;
	for (size_t i = 0; i < 50; i++)
		assert_int(seen[i], 1, "shuffle is a permutation");
}

/* x % bound by division, as stats_rng_below() computes it. */
static void bound_draws_match_division(void **unused)
{
	static const uint64_t bounds[] = {
		1, 2, 3, 7, 10, 1000, 4097, 65537, 1000003, 0xffffffffULL,
		0x100000001ULL, 0x8000000000000000ULL, 0x8000000000000001ULL,
		0xfffffffffffffffeULL, UINT64_MAX,
	};
	struct stats_rng a, b;

	(void)unused;
	for (size_t i = 0; i < sizeof(bounds) / sizeof(*bounds); i++) {
		struct stats_bound bound;

		stats_bound_init(&bound, bounds[i]);
		stats_rng_seed(&a, 7 + i);
		stats_rng_seed(&b, 7 + i);
		for (int k = 0; k < 20000; k++) {
			uint64_t x = stats_rng_below(&a, bounds[i]);
			uint64_t y = stats_rng_below_bound(&b, &bound);

			if (x != y)
				fail_msg("bound %llu, draw %d: division %llu, multiply %llu",
					 (unsigned long long)bounds[i], k,
					 (unsigned long long)x, (unsigned long long)y);
		}
		assert_true(!memcmp(&a, &b, sizeof(a)));
	}
}

/*
 * A resample's median without sorting must be the sorted draw's median
 * bit for bit, and leave the generator where sorting would: for odd and
 * even sizes, smooth data and heavy ties, through the band and (with a
 * band of width 0) through the full redraw.
 */
static void resample_median_matches_sorting(void **unused)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 8, 17, 64, 101, 1000, 4097 };
	double *v = malloc(4097 * sizeof(*v)), *draw = malloc(4097 * sizeof(*draw));
	size_t fallbacks = 0;

	(void)unused;
	assert_non_null(v);
	assert_non_null(draw);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
		for (int data = 0; data < 3; data++)
			for (int band = 0; band < 2; band++) {
				size_t n = sizes[s];
				struct stats_resampler r;
				struct stats_rng a, b;

				for (size_t i = 0; i < n; i++)
					v[i] = data == 0 ? 100 + (double)((i * 7919) % 1009) / 7.0
					     : data == 1 ? (double)(i * 31 % 5)
							 : 42.5;
				assert_int(band ? stats_resampler_init_band(&r, v, n, 0)
						: stats_resampler_init(&r, v, n), 0, "init");
				stats_rng_seed(&a, 1000 + s);
				stats_rng_seed(&b, 1000 + s);
				for (int k = 0; k < 60; k++) {
					double fast = stats_resampler_median(&r, &b), slow;

					stats_resample(&a, v, n, draw);
					stats_sort(draw, n);
					slow = stats_median_sorted(draw, n);
					if (memcmp(&fast, &slow, sizeof(fast)))
						fail_msg("n %zu, data %d, band %d, resample %d: "
							 "sorted %.17g, selected %.17g",
							 n, data, band, k, slow, fast);
					if (memcmp(&a, &b, sizeof(a)))
						fail_msg("n %zu: generators drifted apart", n);
				}
				if (band && n > 8 && data == 0)
					fallbacks += r.redraws;
				if (!band && n > 100 && r.redraws)
					fail_msg("n %zu: %zu full redraws with the default band",
						 n, r.redraws);
				stats_resampler_free(&r);
			}
	assert_true(fallbacks > 0);
	assert_int(stats_resampler_init(&(struct stats_resampler){ 0 }, v, 0), -1,
		   "no data");
	free(v);
	free(draw);
}

/*
 * Student's t quantiles for df 1..30 at the levels intervals use, to 15
 * significant digits: the regularized incomplete beta function inverted
 * at 40 digits by an arbitrary-precision library (mpmath 1.3's betainc
 * and findroot), a method independent of the closed form under test.
 * They agree with the three or four decimals of printed t tables.
 */
static const double t_levels[] = { 0.95, 0.975, 0.995, 0.9995 };
static const struct {
	int df;
	double t[4];
} t_table[] = {
	{ 1, { 6.31375151467504, 12.7062047361747, 63.6567411628716, 636.61924876872 } },
	{ 2, { 2.91998558035373, 4.30265272974946, 9.92484320091829, 31.5990545764436 } },
	{ 3, { 2.35336343480182, 3.18244630528371, 5.84090930973336, 12.9239786366875 } },
	{ 4, { 2.13184678632665, 2.77644510519779, 4.60409487134999, 8.61030158137928 } },
	{ 5, { 2.01504837333302, 2.57058183563632, 4.03214298355523, 6.86882662588111 } },
	{ 6, { 1.9431802805153, 2.44691185114497, 3.70742802132478, 5.95881617881876 } },
	{ 7, { 1.89457860509001, 2.36462425159279, 3.49948329735049, 5.40788252086173 } },
	{ 8, { 1.8595480375309, 2.30600413520417, 3.3553873313334, 5.04130543337337 } },
	{ 9, { 1.83311293265624, 2.26215716279821, 3.24983554159213, 4.78091258593114 } },
	{ 10, { 1.81246112281168, 2.22813885198627, 3.16927267261695, 4.58689385870264 } },
	{ 11, { 1.79588481870404, 2.20098516009164, 3.10580651553928, 4.43697933823445 } },
	{ 12, { 1.78228755564932, 2.17881282966723, 3.0545395893929, 4.31779128360618 } },
	{ 13, { 1.77093339598687, 2.16036865646279, 3.01227583871658, 4.22083172770712 } },
	{ 14, { 1.76131013577489, 2.1447866879178, 2.97684273437083, 4.1404541127382 } },
	{ 15, { 1.75305035569257, 2.13144954555978, 2.94671288347524, 4.07276519590379 } },
	{ 16, { 1.74588367627625, 2.11990529922125, 2.9207816224251, 4.01499632718406 } },
	{ 17, { 1.73960672607507, 2.10981557783332, 2.89823051967742, 3.96512627211903 } },
	{ 18, { 1.73406360661754, 2.10092204024104, 2.87844047273861, 3.92164582508516 } },
	{ 19, { 1.72913281152137, 2.09302405440831, 2.86093460646498, 3.88340585259208 } },
	{ 20, { 1.72471824292079, 2.08596344726586, 2.84533970978611, 3.84951627493083 } },
	{ 21, { 1.72074290281188, 2.07961384472768, 2.83135955802305, 3.81927716427446 } },
	{ 22, { 1.71714437438024, 2.07387306790403, 2.81875606060014, 3.79213067169839 } },
	{ 23, { 1.71387152774705, 2.06865761041905, 2.80733568377, 3.76762680431178 } },
	{ 24, { 1.71088207990943, 2.06389856162803, 2.79693950477446, 3.74539861929005 } },
	{ 25, { 1.7081407612519, 2.0595385527533, 2.78743581367697, 3.72514394972865 } },
	{ 26, { 1.70561791975927, 2.05552943864287, 2.77871453332968, 3.70661174348091 } },
	{ 27, { 1.70328844572213, 2.05183051648029, 2.77068295712221, 3.68959171345924 } },
	{ 28, { 1.70113093426593, 2.04840714179525, 2.76326245546144, 3.67390640070128 } },
	{ 29, { 1.6991270265335, 2.0452296421327, 2.75638590367061, 3.65940501946633 } },
	{ 30, { 1.69726088659396, 2.04227245630124, 2.74999565356723, 3.64595863504202 } },
};

static void student_quantile_is_exact(void **unused)
{
	double worst = 0;

	(void)unused;
	for (size_t i = 0; i < sizeof(t_table) / sizeof(t_table[0]); i++)
		for (size_t l = 0; l < 4; l++) {
			int df = t_table[i].df;
			double want = t_table[i].t[l];
			double got = stats_student_quantile(t_levels[l], df);

			if (fabs(got - want) > 1e-6)
				fail_msg("t(%g, %d) = %.9f, reference %.9f",
					 t_levels[l], df, got, want);
			if (fabs(got - want) > worst)
				worst = fabs(got - want);
			/* and the other tail, exactly */
			assert_true(stats_student_quantile(1 - t_levels[l], df) ==
				    -got);
		}
	print_message("# t quantiles, df 1..30: at most %.2g from the reference\n",
		      worst);
	/* Welch's df are fractions: the incomplete beta must agree at whole df */
	for (int df = 1; df <= 30; df++)
		for (double t = -6; t <= 6; t += 0.37) {
			double whole = stats_student_cdf(t, df);
			double near = stats_student_cdf(t, df + 1e-9);

			if (fabs(whole - near) > 1e-8)
				fail_msg("cdf(%g, %d) = %.12f, at df + 1e-9 %.12f",
					 t, df, whole, near);
		}
	/* a fractional df lies between its whole neighbours */
	assert_true(stats_student_quantile(0.975, 3.5) < t_table[2].t[1] &&
		    stats_student_quantile(0.975, 3.5) > t_table[3].t[1]);
	assert_true(fabs(stats_student_quantile(0.975, 1e9) - 1.959964) < 1e-6);
	assert_true(isnan(stats_student_quantile(1, 3)));
	assert_true(isnan(stats_student_quantile(0.5, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(summary_of_classic_data),
		cmocka_unit_test(quantiles_and_edges),
		cmocka_unit_test(constant_data_has_zero_spread),
		cmocka_unit_test(bootstrap_is_reproducible),
		cmocka_unit_test(rng_is_seeded_and_bounded),
		cmocka_unit_test(bound_draws_match_division),
		cmocka_unit_test(resample_median_matches_sorting),
		cmocka_unit_test(student_quantile_is_exact),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
