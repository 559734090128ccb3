// SPDX-License-Identifier: GPL-2.0
/*
 * test_simulation.c - the statistics of analysis/compare_stats.c against data
 * whose truth is known, in every cell docs/interpreting.md calls
 * supported.
 *
 * A side is r repetitions of SAMPLES samples, as a run gives them:
 * sample = 100 + b_k + w_kj, with b_k the repetition's own offset
 * (between-repetition sd sb) and w_kj the sample's noise (within sd sw),
 * sb^2 / (sb^2 + sw^2) being the intraclass correlation (ICC). The noise
 * is skewed as timings are: one sample in 20 lands 3 to 9 sd high. The
 * grid: r = 3, 5, 8 a side; ICC 0.3, 0.5, 0.8; B's spread 1 or 10 times
 * A's. Per cell, with a fixed seed (the test gives the same numbers
 * every time):
 *
 *   coverage   the 95% CI of B - A holds the true difference
 *   A/A        B = A, called faster or slower (a false verdict)
 *   at floor   B - A exactly at the noise floor (2% of 100): called
 *              slower, or same (each must stay near alpha / 2)
 *   power      B - A at 3 times the floor, called slower (reported)
 *
 * The within-run figures pair two rows of one repetition whose offsets
 * correlate (rho 0, 0.5, 0.9): the paired t interval's coverage.
 *
 * A cell passes with coverage >= 93% and A/A <= 5%; the floor errors must
 * stay under 5% too. The table it prints is the one in the docs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/compare_stats.h"
#include "measure/stats.h"
#include "unit.h"

#define SAMPLES		10
#define EXPERIMENTS	4000
#define MAX_REPS	8
#define CENTER		100.0
#define FLOOR		(COMPARE_DEFAULT_MARGIN * CENTER)

static double normal(struct stats_rng *rng)
{
	double u = stats_rng_double(rng), v = stats_rng_double(rng);

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/* Within-repetition noise: normal, but one sample in 20 far out, high. */
static double noise(struct stats_rng *rng, double sw)
{
	if (stats_rng_double(rng) < 0.05)
		return sw * (3 + 6 * stats_rng_double(rng));
	return sw * normal(rng);
}

/* r repetitions of one side, offsets given, at mean + offset. */
static void side(struct stats_rng *rng, double *v, uint32_t *rep,
		 size_t r, double mean, const double *offset, double sw)
{
	for (size_t k = 0; k < r; k++)
		for (size_t j = 0; j < SAMPLES; j++) {
			v[k * SAMPLES + j] = mean + offset[k] + noise(rng, sw);
			rep[k * SAMPLES + j] = k;
		}
}

static void offsets(struct stats_rng *rng, double *b, size_t r, double sb)
{
	for (size_t k = 0; k < r; k++)
		b[k] = sb * normal(rng);
}

struct cell {
	double coverage, aa, slower_at_floor, same_at_floor, power;
};

/*
 * What a repetition's median estimates is not the mean: the skewed noise
 * lifts it by beta x sw. The comparison's truth is the difference of
 * expected medians, so a side with ten times the noise is lifted ten
 * times as much. beta is estimated once, from 200 000 noise-only
 * repetitions (its standard error is about 0.001).
 */
static double median_lift(void)
{
	static double beta = NAN;
	struct stats_rng rng;
	double sum = 0, v[SAMPLES];

	if (!isnan(beta))
		return beta;
	stats_rng_seed(&rng, 1);
	for (int k = 0; k < 200000; k++) {
		for (int j = 0; j < SAMPLES; j++)
			v[j] = noise(&rng, 1);
		sum += stats_median(v, SAMPLES);
	}
	beta = sum / 200000;
	return beta;
}

/* The two-sample comparison in one cell. */
static struct cell two_sample(struct stats_rng *rng, size_t r, double icc,
			      double ratio)
{
	double a[MAX_REPS * SAMPLES], b[MAX_REPS * SAMPLES];
	uint32_t ra[MAX_REPS * SAMPLES], rb[MAX_REPS * SAMPLES];
	double oa[MAX_REPS], ob[MAX_REPS];
	/* total sd 1 on A: the floor is 2 of them */
	double sb = sqrt(icc), sw = sqrt(1 - icc);
	struct compare_settings set = compare_default_settings();
	struct cell c = { 0 };
	static const double shift[] = { 0, FLOOR, 3 * FLOOR };
	double lift = median_lift() * sw * (ratio - 1);

	for (unsigned e = 0; e < EXPERIMENTS; e++)
		for (size_t s = 0; s < 3; s++) {
			double truth;
			struct compare_row row;

			offsets(rng, oa, r, sb);
			offsets(rng, ob, r, sb * ratio);
			/* B's mean is set so that its expected median is */
			truth = shift[s];
			side(rng, a, ra, r, CENTER, oa, sw);
			side(rng, b, rb, r, CENTER + truth - lift, ob,
			     sw * ratio);
			assert_int(compare_values(a, ra, r * SAMPLES, b, rb,
						  r * SAMPLES, &set, &row), 0,
				   "compare_values");
			c.coverage += row.ci_low <= truth && truth <= row.ci_high;
			if (s == 0)
				c.aa += row.verdict == COMPARE_FASTER ||
					row.verdict == COMPARE_SLOWER;
			if (s == 1) {
				c.slower_at_floor += row.verdict == COMPARE_SLOWER;
				c.same_at_floor += row.verdict == COMPARE_SAME;
			}
			if (s == 2)
				c.power += row.verdict == COMPARE_SLOWER;
		}
	c.coverage /= 3.0 * EXPERIMENTS;
	c.aa /= EXPERIMENTS;
	c.slower_at_floor /= EXPERIMENTS;
	c.same_at_floor /= EXPERIMENTS;
	c.power /= EXPERIMENTS;
	return c;
}

static void two_sample_grid(void **unused)
{
	static const size_t reps[] = { 3, 5, 8 };
	static const double iccs[] = { 0.3, 0.5, 0.8 }, ratios[] = { 1, 10 };
	struct stats_rng rng;
	unsigned failed = 0;

	(void)unused;
	stats_rng_seed(&rng, 2026);
	print_message("# B - A, Welch t over repetition medians, %d experiments a cell\n"
		      "# r a side | ICC | spread B:A | coverage | A/A called | slower at floor | same at floor | power at 3x floor\n",
		      EXPERIMENTS);
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++)
			for (size_t k = 0; k < 2; k++) {
				struct cell c = two_sample(&rng, reps[i], iccs[j],
							   ratios[k]);
				int bad = c.coverage < 0.93 || c.aa > 0.05 ||
					  c.slower_at_floor > 0.05 ||
					  c.same_at_floor > 0.05;

				print_message("# %zu | %.1f | 1:%g | %.1f%% | %.2f%% | %.2f%% | %.2f%% | %.1f%%%s\n",
					      reps[i], iccs[j], ratios[k],
					      100 * c.coverage, 100 * c.aa,
					      100 * c.slower_at_floor,
					      100 * c.same_at_floor, 100 * c.power,
					      bad ? "  <- FAILS" : "");
				failed += bad;
			}
	if (failed)
		fail_msg("%u cells miss coverage >= 93%%, A/A <= 5%% or the floor errors <= 5%%",
			 failed);
}

/* The paired within-run figure (inline - nopad) in one cell. */
static double paired(struct stats_rng *rng, size_t r, double icc,
		     double ratio, double rho)
{
	double a[MAX_REPS * SAMPLES], b[MAX_REPS * SAMPLES];
	uint32_t ra[MAX_REPS * SAMPLES], rb[MAX_REPS * SAMPLES];
	double oa[MAX_REPS], ob[MAX_REPS];
	double sb = sqrt(icc), sw = sqrt(1 - icc), covered = 0;
	double lift = median_lift() * sw * (ratio - 1);

	for (unsigned e = 0; e < EXPERIMENTS; e++) {
		struct compare_groups ga, gb;
		struct stats_interval iv;

		/* the repetition's state moves both rows: correlated offsets */
		offsets(rng, oa, r, sb);
		for (size_t k = 0; k < r; k++)
			ob[k] = ratio * (rho * oa[k] +
					 sqrt(1 - rho * rho) * sb * normal(rng));
		side(rng, a, ra, r, CENTER, oa, sw);
		side(rng, b, rb, r, CENTER + FLOOR - lift, ob, sw * ratio);
		assert_int(compare_group(a, ra, r * SAMPLES, &ga), 0, "group a");
		assert_int(compare_group(b, rb, r * SAMPLES, &gb), 0, "group b");
		assert_int(compare_paired_interval(&ga, 1, &gb, 1, 0.95, &iv), 0,
			   "paired interval");
		covered += iv.low <= FLOOR && FLOOR <= iv.high;
		compare_groups_free(&ga);
		compare_groups_free(&gb);
	}
	return covered / EXPERIMENTS;
}

static void paired_grid(void **unused)
{
	static const size_t reps[] = { 3, 5, 8 };
	static const double iccs[] = { 0.3, 0.5, 0.8 }, rhos[] = { 0, 0.5, 0.9 };
	static const double ratios[] = { 1, 10 };
	struct stats_rng rng;
	unsigned failed = 0;

	(void)unused;
	stats_rng_seed(&rng, 2027);
	print_message("# within a run, paired t over repetitions, %d experiments a cell\n"
		      "# r | ICC | rho | spread | coverage\n", EXPERIMENTS);
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++)
			for (size_t k = 0; k < 3; k++)
				for (size_t l = 0; l < 2; l++) {
					double c = paired(&rng, reps[i], iccs[j],
							  ratios[l], rhos[k]);

					print_message("# %zu | %.1f | %.1f | 1:%g | %.1f%%%s\n",
						      reps[i], iccs[j], rhos[k],
						      ratios[l], 100 * c,
						      c < 0.93 ? "  <- FAILS" : "");
					failed += c < 0.93;
				}
	if (failed)
		fail_msg("%u paired cells cover under 93%%", failed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_sample_grid),
		cmocka_unit_test(paired_grid),
	};

	return cmocka_run_group_tests_name("simulation", tests, NULL, NULL);
}
