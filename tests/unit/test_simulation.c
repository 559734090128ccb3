// SPDX-License-Identifier: GPL-2.0
/*
 * test_simulation.c - the statistics of analysis/compare_stats.c against data
 * whose truth is known, in every cell docs/interpreting.md calls
 * supported, with the threats two boots bring: a boot effect (sigma_u),
 * a shift every row of a boot shares, discrete layout modes and
 * one-sided bursts of the repetitions (two_boot_grid, described there);
 * and the paired within-run figures, whose two rows run side by side in
 * one boot (paired_grid). A fixed seed: the same numbers every time.
 *
 * A cell passes with coverage >= 93%, A/A called <= 5%, and each error
 * at the margin <= 5%. The tables it prints are the ones in the docs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/calibrate.h"
#include "analysis/compare_stats.h"
#include "analysis/pair_fit.h"
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

/* ---------------------------------------------------- two boots */

/*
 * Two boots compared as users compare them: log time = log 100 + delta
 * + u(boot, row) + e(repetition) + sample noise. Per cell:
 *
 *   r        repetitions a side, each SAMPLES samples
 *   rep sd   of e, on the log scale: normal, but a repetition lands in
 *            a second layout mode (+1.5 sd) one time in 4, and is hit
 *            by a one-sided burst (+3 to 9 sd) one time in 20
 *   sigma_u  the true boot sd: half of its variance a shift every row
 *            of a boot shares, drawn from two points (0 or 2 x its sd:
 *            a turbo bin that a boot has or not), half each row's own
 *   design   assumed: no calibration, sigma_u taken as
 *            COMPARE_DEFAULT_BOOT_SD; calibrated: sigma_u estimated
 *            by calibrate_boot_variance() from CAL_BOOTS boots of
 *            CAL_ROWS rows drawn the same way, afresh every CAL_SHARED
 *            experiments
 *
 * Each experiment compares BOOT_ROWS rows of one pair of boots (sharing
 * their boots' shift) at delta 0 (A/A), at the margin (2%) and at 3
 * times it. Counted per row: the 95% interval holds exp(delta) - 1
 * (coverage); A/A called faster or slower; at the margin called slower
 * or same (each promised at most alpha / 2); power at 3x.
 */
#define BOOT_EXPERIMENTS	300
#define BOOT_ROWS		4
#define CAL_BOOTS		6
#define CAL_ROWS		30
#define CAL_SHARED		10
#define MODE_SHARE		0.25
#define BURST_SHARE		0.05

/* A repetition's offset on the log scale: modes and one-sided bursts. */
static double repetition_offset(struct stats_rng *rng, double sd)
{
	double e = sd * normal(rng);

	if (stats_rng_double(rng) < MODE_SHARE)
		e += 1.5 * sd;
	if (stats_rng_double(rng) < BURST_SHARE)
		e += sd * (3 + 6 * stats_rng_double(rng));
	return e;
}

/* A boot's shift that every row shares: two points, sd sc. */
static double common_shift(struct stats_rng *rng, double sc)
{
	return stats_rng_double(rng) < 0.5 ? 0 : 2 * sc;
}

/* One run of a row: r repetitions of SAMPLES samples at log level mu. */
static void boot_side(struct stats_rng *rng, double *v, uint32_t *rep,
		      size_t r, double mu, double rep_sd)
{
	/* the samples' noise is small against the repetition's, as in runs */
	double sw = rep_sd / 2;

	for (size_t k = 0; k < r; k++) {
		double level = mu + repetition_offset(rng, rep_sd);

		for (size_t j = 0; j < SAMPLES; j++) {
			v[k * SAMPLES + j] = CENTER * exp(level + noise(rng, sw));
			rep[k * SAMPLES + j] = k;
		}
	}
}

/* Calibrations drawn and used (enough df) in a cell. */
static unsigned cal_drawn, cal_used;

/* A calibration drawn as the comparison's boots are: sigma_u, df. */
static void simulated_calibration(struct stats_rng *rng, size_t r,
				  double rep_sd, double sigma_u,
				  struct compare_settings *set)
{
	double mean[CAL_ROWS * CAL_BOOTS], var[CAL_ROWS * CAL_BOOTS];
	double shift[CAL_BOOTS], v[MAX_REPS * SAMPLES], logs[MAX_REPS];
	double sc = sigma_u / sqrt(2), sv = sigma_u / sqrt(2);
	unsigned boot[CAL_BOOTS];
	uint32_t rep[MAX_REPS * SAMPLES];
	struct boot_variance bv = { 0 };

	for (size_t i = 0; i < CAL_BOOTS; i++) {
		shift[i] = common_shift(rng, sc);
		boot[i] = (unsigned)i;
	}
	for (size_t k = 0; k < CAL_ROWS; k++)
		for (size_t i = 0; i < CAL_BOOTS; i++) {
			struct compare_groups g;
			double s;

			boot_side(rng, v, rep, r, shift[i] + sv * normal(rng), rep_sd);
			assert_int(compare_group(v, rep, r * SAMPLES, &g), 0, "group");
			for (size_t j = 0; j < g.count; j++)
				logs[j] = log(g.medians[j]);
			s = stats_stddev(logs, g.count);
			mean[k * CAL_BOOTS + i] = stats_mean(logs, g.count);
			var[k * CAL_BOOTS + i] = s * s / (double)g.count;
			compare_groups_free(&g);
		}
	assert_int(calibrate_boot_variance(mean, var, CAL_ROWS, CAL_BOOTS, boot,
					   CAL_BOOTS, &bv), 0, "calibration");
	{
		static struct compare_boot_model m;

		m.common = (struct compare_variance){ bv.common_sd * bv.common_sd, bv.common_df };
		m.prior = (struct compare_variance){ bv.row_sd * bv.row_sd, bv.row_df };
		set->model = &m;
		set->boot_source = COMPARE_BOOT_CALIBRATION;
		set->boot_estimate_sd = bv.sd;
		cal_used++;
	}
	cal_drawn++;
}

struct boot_cell {
	double coverage, aa, slower_at_margin, same_at_margin, power;
	double sd_estimate;	/* mean sigma_u of the calibrations */
};

static struct boot_cell two_boots(struct stats_rng *rng, size_t r,
				  double rep_sd, double sigma_u, int calibrated)
{
	double a[MAX_REPS * SAMPLES], b[MAX_REPS * SAMPLES];
	uint32_t ra[MAX_REPS * SAMPLES], rb[MAX_REPS * SAMPLES];
	double sc = sigma_u / sqrt(2), sv = sigma_u / sqrt(2);
	const double margin = COMPARE_DEFAULT_MARGIN;
	const double delta[] = { 0, log1p(margin), log1p(3 * margin) };
	struct compare_settings cal = compare_default_settings();
	struct boot_cell c = { 0 };
	size_t n = 0;

	cal_drawn = cal_used = 0;

	for (unsigned e = 0; e < BOOT_EXPERIMENTS; e++) {
		struct compare_settings set = compare_default_settings();
		double shift_a = common_shift(rng, sc), shift_b = common_shift(rng, sc);

		/* a calibration serves CAL_SHARED experiments, as one serves many comparisons */
		if (calibrated && e % CAL_SHARED == 0) {
			cal = compare_default_settings();
			simulated_calibration(rng, r, rep_sd, sigma_u, &cal);
			c.sd_estimate += cal.boot_sd * CAL_SHARED / BOOT_EXPERIMENTS;
		}
		if (calibrated)
			set = cal;
		for (size_t k = 0; k < BOOT_ROWS; k++)
			for (size_t s = 0; s < 3; s++) {
				struct compare_row row;
				double truth = expm1(delta[s]);

				boot_side(rng, a, ra, r, shift_a + sv * normal(rng), rep_sd);
				boot_side(rng, b, rb, r, delta[s] + shift_b +
					  sv * normal(rng), rep_sd);
				assert_int(compare_values(a, ra, r * SAMPLES, b, rb,
							  r * SAMPLES, &set, &row), 0,
					   "compare_values");
				c.coverage += row.relative_low <= truth &&
					      truth <= row.relative_high;
				if (s == 0)
					c.aa += row.verdict == COMPARE_FASTER ||
						row.verdict == COMPARE_SLOWER;
				if (s == 1) {
					c.slower_at_margin += row.verdict == COMPARE_SLOWER;
					c.same_at_margin += row.verdict == COMPARE_SAME;
				}
				if (s == 2)
					c.power += row.verdict == COMPARE_SLOWER;
			}
		n += BOOT_ROWS;
	}
	c.coverage /= 3.0 * (double)n;
	c.aa /= (double)n;
	c.slower_at_margin /= (double)n;
	c.same_at_margin /= (double)n;
	c.power /= (double)n;
	return c;
}

static void two_boot_grid(void **unused)
{
	static const size_t reps[] = { 3, 5, 8 };
	static const double rep_sds[] = { 0.003, 0.01, 0.02 };
	static const double sigmas[] = { 0, 0.005, 0.01, 0.02 };
	struct stats_rng rng;
	unsigned failed = 0;

	(void)unused;
	stats_rng_seed(&rng, 2032);
	print_message("# two boots, log ratio with 2 sigma_u^2, %d experiments of %d rows a cell\n"
		      "# design | r a side | rep sd | sigma_u | coverage | A/A called | slower at margin | same at margin | power at 3x margin | sigma_u used (mean) | calibrations with >= 10 df\n",
		      BOOT_EXPERIMENTS, BOOT_ROWS);
	for (int cal = 0; cal < 2; cal++)
		for (size_t i = 0; i < 3; i++)
			for (size_t j = 0; j < 3; j++)
				for (size_t k = 0; k < 4; k++) {
					struct boot_cell c = two_boots(&rng, reps[i],
								       rep_sds[j], sigmas[k], cal);
					char used[32] = "-";
					int bad = c.coverage < 0.93 || c.aa > 0.05 ||
						  c.slower_at_margin > 0.05 ||
						  c.same_at_margin > 0.05;

					if (cal)
						snprintf(used, sizeof(used), "%u of %u",
							 cal_used, cal_drawn);
					print_message("# %s | %zu | %.1f%% | %.1f%% | %.1f%% | %.2f%% | %.2f%% | %.2f%% | %.1f%% | %s%.2f%%%s | %s%s\n",
						      cal ? "calibrated" : "assumed 2%",
						      reps[i], 100 * rep_sds[j],
						      100 * sigmas[k], 100 * c.coverage,
						      100 * c.aa, 100 * c.slower_at_margin,
						      100 * c.same_at_margin, 100 * c.power,
						      cal ? "" : "(", cal ? 100 * c.sd_estimate : 2.0,
						      cal ? "" : ")", used,
						      bad ? "  <- FAILS" : "");
					failed += bad;
				}
	if (failed)
		fail_msg("%u two-boot cells miss coverage >= 93%%, A/A <= 5%% or the margin errors <= 5%%",
			 failed);
}

/* ------------------------------------------- the pair's cost, fitted */

/*
 * The pair's cost from two boots (analysis/pair_fit.h) against a known
 * one: rows shaped as the syscall suite and the kernel API are (a cost
 * in cycles without SMAP, windows per operation as a census counts
 * them), the SMAP boot paying PAIR_CYCLES per window on top; both boots
 * drawn as two_boots() draws them (sigma_u half common, layout modes,
 * bursts), 5 repetitions a side, rep sd 1%. Counted: beta's 95%
 * interval holds PAIR_CYCLES.
 */
#define PAIR_CYCLES		60.0
#define BETA_EXPERIMENTS	300

static const struct {
	double cycles, windows;
} fit_rows[] = {
	{ 300, 0 }, { 350, 0 }, { 60, 0 }, { 1000, 0 },	/* the controls */
	{ 1500, 1 }, { 2500, 1 }, { 20000, 16 }, { 1800, 1 }, { 25000, 32 },
	{ 1400, 1 }, { 4000, 2 }, { 40000, 32 }, { 5000, 17 }, { 800, 1 },
	{ 6000, 64 }, { 8000, 4 }, { 200, 1 }, { 260, 1 }, { 900, 2 },
};

static double beta_coverage(struct stats_rng *rng, double sigma_u, double *mean_beta)
{
	const size_t rows = sizeof(fit_rows) / sizeof(*fit_rows), r = 5;
	double a[MAX_REPS * SAMPLES], b[MAX_REPS * SAMPLES];
	uint32_t ra[MAX_REPS * SAMPLES], rb[MAX_REPS * SAMPLES];
	struct pair_fit_point points[sizeof(fit_rows) / sizeof(*fit_rows)];
	double sc = sigma_u / sqrt(2), sv = sigma_u / sqrt(2), covered = 0;
	struct compare_settings set = compare_default_settings();

	*mean_beta = 0;
	for (unsigned e = 0; e < BETA_EXPERIMENTS; e++) {
		double shift_a = common_shift(rng, sc), shift_b = common_shift(rng, sc);
		struct pair_fit fit = { .point = points, .count = rows };

		for (size_t k = 0; k < rows; k++) {
			double base = log(fit_rows[k].cycles / CENTER);
			double smap = log((fit_rows[k].cycles + PAIR_CYCLES *
					   fit_rows[k].windows) / CENTER);
			struct compare_row row;

			boot_side(rng, a, ra, r, base + shift_a + sv * normal(rng), 0.01);
			boot_side(rng, b, rb, r, smap + shift_b + sv * normal(rng), 0.01);
			assert_int(compare_values(a, ra, r * SAMPLES, b, rb, r * SAMPLES,
						  &set, &row), 0, "compare_values");
			points[k] = (struct pair_fit_point){ "row", row.center_a,
				fit_rows[k].windows,
				row.delta, row.se * row.center_a, NAN };
		}
		assert_int(pair_fit_points(&fit), 0, "pair_fit_points");
		covered += fit.beta_low <= PAIR_CYCLES && PAIR_CYCLES <= fit.beta_high;
		*mean_beta += fit.beta / BETA_EXPERIMENTS;
	}
	return covered / BETA_EXPERIMENTS;
}

static void pair_fit_grid(void **unused)
{
	static const double sigmas[] = { 0, 0.005, 0.01, 0.02 };
	struct stats_rng rng;
	unsigned failed = 0;

	(void)unused;
	stats_rng_seed(&rng, 2033);
	print_message("# the pair's cost fitted over %zu rows of two boots, %.0f cycles a pair, %d experiments a cell, sigma_u assumed 2%%\n"
		      "# true sigma_u | beta's coverage | mean beta\n",
		      sizeof(fit_rows) / sizeof(*fit_rows), PAIR_CYCLES,
		      BETA_EXPERIMENTS);
	for (size_t k = 0; k < sizeof(sigmas) / sizeof(*sigmas); k++) {
		double mean, c = beta_coverage(&rng, sigmas[k], &mean);

		print_message("# %.1f%% | %.1f%% | %.1f%s\n", 100 * sigmas[k],
			      100 * c, mean, c < 0.93 ? "  <- FAILS" : "");
		failed += c < 0.93;
	}
	if (failed)
		fail_msg("%u cells: beta's interval holds the pair's cost under 93%%",
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
		cmocka_unit_test(two_boot_grid),
		cmocka_unit_test(pair_fit_grid),
		cmocka_unit_test(paired_grid),
	};

	return cmocka_run_group_tests_name("simulation", tests, NULL, NULL);
}
