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
	assert_int(stats_summarize(classic, NCLASSIC, &s), 0, "summarize");
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
	assert_int(stats_summarize(v, 20, &s), 0, "summarize");
	assert_near(s.mad, 0, 0, "MAD");
	assert_near(s.stddev, 0, 0, "stddev");
	assert_int(s.outliers, 0, "outliers with MAD 0");
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

/*
 * Student's t quantiles for df 1..30 at the levels intervals use, to 15
 * significant digits: the regularized incomplete beta function inverted
 * at 40 digits by an arbitrary-precision library (mpmath 1.3's betainc
 * and findroot), a method independent of the closed form under test.
 * They agree with the three or four decimals of printed t tables.
 */
/*
 * Repetition medians, grouped whatever the order of the values, and the
 * t interval of their mean by hand: medians 1.5, 3, 6 (mean 3.5, sd
 * 2.2913) give 3.5 -+ 4.302653 x 2.2913 / sqrt(3).
 */
static void repetition_medians_and_their_interval(void **unused)
{
	const double v[] = { 5, 1, 7, 3, 2 };
	const uint32_t rep[] = { 2, 0, 2, 1, 0 };
	double medians[5];
	uint32_t ids[5];
	struct stats_interval iv;

	(void)unused;
	assert_int(stats_repetition_medians(v, rep, 5, medians, ids), 3,
		   "three repetitions");
	assert_near(medians[0], 1.5, 0, "repetition 0: 1 and 2");
	assert_near(medians[1], 3, 0, "repetition 1: 3");
	assert_near(medians[2], 6, 0, "repetition 2: 5 and 7");
	assert_int(ids[2], 2, "ids ascend");
	assert_int(stats_mean_interval(medians, 3, 0.95, &iv), 0, "interval");
	assert_near(iv.estimate, 3.5, 1e-12, "mean");
	assert_near(iv.df, 2, 0, "df");
	assert_near(iv.high - iv.estimate,
		    4.30265272974946 * sqrt(5.25) / sqrt(3), 1e-9, "half width");
	assert_int(stats_repetition_medians(v, NULL, 5, medians, NULL), 5,
		   "no repetition index: each value its own");
	assert_int(stats_repetition_medians(v, rep, 0, medians, ids), 0,
		   "no values");
	assert_int(stats_mean_interval(v, 1, 0.95, &iv), 0, "one value");
	assert_true(isnan(iv.low) && iv.estimate == 5);
}

/*
 * The in-place sort by repetition, then value, keeps every pair and
 * orders them; sorted input gives the medians of unsorted input, read
 * where it is.
 */
static void sort_by_repetition_in_place(void **unused)
{
	enum { N = 1000 };
	double v[N], copy[N], medians[N], again[N];
	uint32_t rep[N], ids[N], ids_again[N];
	double sum = 0, sorted_sum = 0;
	struct stats_rng rng;
	size_t reps;

	(void)unused;
	stats_rng_seed(&rng, 7);
	for (size_t i = 0; i < N; i++) {
		v[i] = (double)stats_rng_below(&rng, 50);	/* ties too */
		rep[i] = (uint32_t)stats_rng_below(&rng, 13);
		sum += v[i] * 100 + rep[i];
	}
	memcpy(copy, v, sizeof(v));
	reps = stats_repetition_medians(v, rep, N, medians, ids);
	assert_false(stats_sorted_by_repetition(v, rep, N));
	stats_sort_by_repetition(v, rep, N);
	assert_true(stats_sorted_by_repetition(v, rep, N));
	for (size_t i = 0; i < N; i++)
		sorted_sum += v[i] * 100 + rep[i];
	assert_near(sorted_sum, sum, 0, "the same pairs");
	assert_int(stats_repetition_medians(v, rep, N, again, ids_again), reps,
		   "repetitions, sorted");
	for (size_t i = 0; i < reps; i++) {
		assert_near(again[i], medians[i], 0, "a median, sorted");
		assert_int(ids_again[i], ids[i], "its repetition");
	}
	stats_sort_by_repetition(copy, NULL, N);
	assert_true(stats_sorted_by_repetition(copy, NULL, N));
	assert_near(stats_median(copy, N), stats_median(v, N), 0, "by value alone");
	stats_sort_by_repetition(copy, NULL, 0);
	stats_sort_by_repetition(copy, NULL, 1);
}

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
	/*
	 * Tails, fractional df and the far tail that a p-value of a clear
	 * difference lands in, to 1e-9 relative (the same 40-digit reference).
	 */
	static const struct {
		double df, t, p;
	} tails[] = {
		{ 8, -500, 1.4334348613903331e-19 },
		{ 8, -10, 4.244090763814246e-6 },
		{ 1, -1e6, 3.1830988618368457e-7 },
		{ 30, -40, 6.8630225972032014e-28 },
		{ 3, -0.5, 0.3257239824240755 },
		{ 2.5, -3, 0.036288047774515922 },
	};
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		double got = stats_student_cdf(tails[i].t, tails[i].df);

		if (fabs(got / tails[i].p - 1) > 1e-9)
			fail_msg("cdf(%g, %g) = %.17g, reference %.17g", tails[i].t,
				 tails[i].df, got, tails[i].p);
		assert_true(stats_student_cdf(-tails[i].t, tails[i].df) ==
			    1 - got);
	}
	/* a fractional df lies between its whole neighbours */
	assert_true(stats_student_quantile(0.975, 3.5) < t_table[2].t[1] &&
		    stats_student_quantile(0.975, 3.5) > t_table[3].t[1]);
	assert_true(fabs(stats_student_quantile(0.975, 1e9) - 1.959964) < 1e-6);
	assert_true(isnan(stats_student_quantile(1, 3)));
	assert_true(isnan(stats_student_quantile(0.5, 0)));
}

/*
 * Digamma, trigamma and its inverse against mpmath at 30 digits, and the
 * moderation's prior (limma's fitFDist) on three sets of variances
 * worked out with mpmath the same way: five rows on 4 df that differ by
 * more than chance (a prior of 4.51 df), six that differ by less (one
 * variance: infinite df, capped at the rows' 36), and six of unequal df.
 */
static void moderated_variances(void **unused)
{
	const double spread[] = { 1, 2, 4, 8, 0.5 }, four[] = { 4, 4, 4, 4, 4 };
	const double alike[] = { 1, 1.1, 0.9, 1.05, 0.95, 1.2 };
	const double six[] = { 6, 6, 6, 6, 6, 6 };
	const double mixed[] = { 1, 3, 0.2, 0.3, 10, 0.05 };
	const double mixed_df[] = { 2, 2, 2, 3, 3, 3 };
	struct stats_prior p;

	(void)unused;
	assert_near(stats_digamma(1), -0.577215664901532861, 1e-12, "digamma(1)");
	assert_near(stats_digamma(0.3), -3.50252422220013299, 1e-11, "digamma(0.3)");
	assert_near(stats_trigamma(1), 1.64493406684822644, 1e-12, "trigamma(1)");
	assert_near(stats_trigamma(0.3), 12.2453645461077305, 1e-10, "trigamma(0.3)");
	assert_near(stats_trigamma(20), 0.0512708229352031198, 1e-13, "trigamma(20)");
	assert_near(stats_trigamma_inverse(0.7), 1.87419478520566572, 1e-7,
		    "trigamma inverse");
	assert_true(isnan(stats_digamma(0)) && isnan(stats_trigamma_inverse(-1)));

	assert_int(stats_variance_prior(spread, four, 5, &p), 0, "prior");
	assert_near(p.var, 2.06585998030553991, 1e-6, "prior variance");
	assert_near(p.df, 4.50745993293405083, 1e-5, "prior df");
	/* a row moderated: (4.507 x 2.066 + 4 x 8) / 8.507 */
	assert_near(stats_moderated_variance(8, 4, &p),
		    (p.df * p.var + 32) / (p.df + 4), 1e-12, "moderated");
	assert_int(stats_variance_prior(alike, six, 6, &p), 0, "prior, alike");
	assert_near(p.var, 1.22644855018946825, 1e-9, "one variance");
	assert_near(p.df, 36, 0, "df capped at the rows' sum");
	assert_int(stats_variance_prior(mixed, mixed_df, 6, &p), 0, "prior, mixed");
	assert_near(p.var, 0.489169028029489071, 1e-6, "prior variance, mixed df");
	assert_near(p.df, 1.51906164603378631, 1e-5, "prior df, mixed df");
	/* one row is no prior; a row without df is the prior */
	assert_int(stats_variance_prior(mixed, mixed_df, 1, &p), 1, "one row");
	assert_true(isnan(p.var));
	p = (struct stats_prior){ 2, 10 };
	assert_near(stats_moderated_variance(NAN, 0, &p), 2, 0, "no own df");
	p = (struct stats_prior){ NAN, 0 };
	assert_near(stats_moderated_variance(3, 4, &p), 3, 0, "no prior");
	/* F's upper tail (mpmath), and a row too far above the prior */
	assert_near(stats_f_upper(4.1028, 2, 10), 0.0500005771638241662, 1e-12, "F(2, 10)");
	assert_near(stats_f_upper(5.0503, 5, 5), 0.0500005524423315758, 1e-12, "F(5, 5)");
	assert_near(stats_f_upper(3, 4, 56), 0.0258754345958761294, 1e-12, "F(4, 56)");
	p = (struct stats_prior){ 1, 56 };
	assert_false(stats_variance_outlier(3, 4, &p));
	assert_true(stats_variance_outlier(5, 4, &p));
	assert_false(stats_variance_outlier(0.1, 4, &p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(summary_of_classic_data),
		cmocka_unit_test(quantiles_and_edges),
		cmocka_unit_test(constant_data_has_zero_spread),
		cmocka_unit_test(rng_is_seeded_and_bounded),
		cmocka_unit_test(repetition_medians_and_their_interval),
		cmocka_unit_test(sort_by_repetition_in_place),
		cmocka_unit_test(student_quantile_is_exact),
		cmocka_unit_test(moderated_variances),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
