// SPDX-License-Identifier: GPL-2.0
/*
 * test_simulation.c - the statistics of a comparison against data whose
 * truth is known, in worlds the estimator does not assume, through the
 * code path of `smapbench calibrate` and `smapbench compare A1,A2 B1,B2`
 * (calibrate_runs(), compare_sides(), pair_fit_rows()) on run directories
 * built in memory. The table it prints is the one in
 * docs/interpreting.md ("What each design can promise").
 *
 * A comparison is of ROWS rows shaped as the syscall suite and the kernel
 * API are: a cost in cycles without SMAP, the windows a census counts per
 * operation, four of them negative controls (no window). Log time =
 * log(cost) + c(boot) + v(boot, row) + e(repetition) + sample noise, the
 * SMAP side paying PAIR_CYCLES a window more. The worlds (worlds[]) vary
 * c and v: a boot variance of 0.5-6% above and below the assumed 2%,
 * mostly shared or half each row's own; each row's own sd log-normal
 * across the rows; per-boot layout modes of 6-8% on 10% of the rows (a
 * boot lands in the upper mode with probability 1/2); heavy-tailed shifts
 * (15% of boots shifted +-6%). e has a sd drawn per row around 1% and
 * one-sided bursts. The designs: one boot a side without a calibration,
 * with one from CAL_BOOTS boots, 2, 3 and 6 boots a side, and two runs
 * of one boot a side (one boot a side, not two).
 *
 * Each cell draws A/A comparisons (both sides one state) and SMAP
 * comparisons (the rows at 0, below, at, 3 times and far beyond the 2%
 * margin), each on a machine of its own (row sds, modes). Counted, with a
 * comparison as the unit of the Monte Carlo standard error (rows of one
 * comparison share its boots):
 *
 *   A/A rows called faster or slower, over all rows and over the tenth
 *   of rows with the largest variance of their own (the noisiest decile);
 *   comparisons with at least one false call (A/A: any call; SMAP: faster
 *   or slower at or within the margin, same at or beyond it); at the
 *   margin, rows called slower and rows called same; the coverage of each
 *   row class's 95% interval; beta's 95% interval holding PAIR_CYCLES.
 *
 * The bars (a cell fails when its estimate is beyond the bar by more than
 * 3 Monte Carlo standard errors): A/A in the noisiest decile <= 2.5%;
 * each error at the margin <= 2.5%; coverage >= 93% in every class where
 * the interval claims it (designs that give verdicts, and the withheld
 * design where the boots differ by at most its assumed 2%); comparisons
 * with a false call <= 10%; beta's coverage >= 93% where sigma_u <= 2%.
 *
 * Seeds vary per run (SMAPBENCH_SIM_SEED fixes one, and the seed is
 * printed); SMAPBENCH_SIM_SCALE multiplies the comparisons a cell draws
 * (docs/interpreting.md's table: 3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibrate.h"
#include "analysis/compare_boots.h"
#include "analysis/compare_stats.h"
#include "analysis/pair_fit.h"
#include "measure/stats.h"
#include "rundata/rundir.h"
#include "unit.h"

#define ROWS		30
#define REPS		5
#define SAMPLES		5
#define VALUES		(REPS * SAMPLES)
#define MAX_BOOTS	6	/* runs a side */
#define CAL_BOOTS	6
#define PAIR_CYCLES	60.0
#define COMPARISONS	200	/* of each kind a cell, times the scale */
#define DECILE		(ROWS / 10)

enum row_class { CONTROL, SMALL, MARGIN, TRIPLE, LARGE, CLASSES };

static const char *const class_names[CLASSES] = {
	"control", "below margin", "at margin", "3x margin", "2-5x",
};

/*
 * The rows: a cost in cycles without SMAP and windows per operation; the
 * SMAP side costs cycles + PAIR_CYCLES x windows. Margin rows change by
 * exactly 2%, triple ones by 6%, large ones 2-5 fold as kapi rows do.
 */
static const struct row_shape {
	const char *name, *op, *variant;
	double cycles, windows;
	enum row_class class;
} shapes[ROWS] = {
	{ "syscall/getppid", "getppid", "none", 300, 0, CONTROL },
	{ "syscall/adds/1000", "adds", "none", 1000, 0, CONTROL },
	{ "syscall/futex/wake", "futex", "wake", 350, 0, CONTROL },
	{ "syscall/clock_gettime/vdso", "clock_gettime", "vdso", 60, 0, CONTROL },
	{ "syscall/row/small/1", "row", "small", 12000, 1, SMALL },
	{ "syscall/row/small/2", "row", "small", 6000, 1, SMALL },
	{ "syscall/row/small/3", "row", "small", 24000, 2, SMALL },
	{ "syscall/row/small/4", "row", "small", 30000, 4, SMALL },
	{ "syscall/row/small/5", "row", "small", 60000, 16, SMALL },
	{ "syscall/row/small/6", "row", "small", 100000, 16, SMALL },
	{ "syscall/row/margin/1", "row", "margin", 3000, 1, MARGIN },
	{ "syscall/row/margin/2", "row", "margin", 3000, 1, MARGIN },
	{ "syscall/row/margin/3", "row", "margin", 6000, 2, MARGIN },
	{ "syscall/row/margin/4", "row", "margin", 6000, 2, MARGIN },
	{ "syscall/row/margin/5", "row", "margin", 12000, 4, MARGIN },
	{ "syscall/row/margin/6", "row", "margin", 12000, 4, MARGIN },
	{ "syscall/row/margin/7", "row", "margin", 48000, 16, MARGIN },
	{ "syscall/row/margin/8", "row", "margin", 48000, 16, MARGIN },
	{ "syscall/row/triple/1", "row", "triple", 1000, 1, TRIPLE },
	{ "syscall/row/triple/2", "row", "triple", 1000, 1, TRIPLE },
	{ "syscall/row/triple/3", "row", "triple", 2000, 2, TRIPLE },
	{ "syscall/row/triple/4", "row", "triple", 2000, 2, TRIPLE },
	{ "syscall/row/triple/5", "row", "triple", 17000, 17, TRIPLE },
	{ "syscall/row/triple/6", "row", "triple", 17000, 17, TRIPLE },
	{ "kmod/get_user/kapi/8", "get_user", "kapi", 30, 1, LARGE },
	{ "kmod/put_user/kapi/8", "put_user", "kapi", 40, 1, LARGE },
	{ "kmod/copy_to_user/kapi/64", "copy_to_user", "kapi", 60, 4, LARGE },
	{ "kmod/clear_user/kapi/8", "clear_user", "kapi", 15, 1, LARGE },
	{ "syscall/row/large/1", "row", "large", 600, 16, LARGE },
	{ "syscall/row/large/2", "row", "large", 2000, 32, LARGE },
};

/* A world: how boots and rows vary, on the log scale. */
struct world {
	const char *name;
	double common_sd;	/* of the shift every row of a boot shares */
	double own_sd;		/* of each row's own boot effect */
	double own_spread;	/* sd of log own_sd across rows; 0: one sd */
	double mode_share;	/* rows with per-boot layout modes */
	double tail_share;	/* boots shifted by +-tail_shift besides */
	double tail_shift;
	int beta_bar;		/* sigma_u <= 2%: beta's coverage has a bar */
	int assumption_holds;	/* every row's sigma_u <= the assumed 2% */
	/*
	 * The compared runs vary this many times what the calibration's did
	 * beyond the shared shift, each row its own way (0: as much): a
	 * calibration made in another world (the load changed). Only the
	 * calibrated design is drawn in such a world.
	 */
	double compared_k;
};

#define HALF(sd)	((sd) / M_SQRT2)
#define SHARE(sd, s)	((sd) * sqrt(s))

static const struct world worlds[] = {
	{ "sigma_u 0.5%, half shared", HALF(0.005), HALF(0.005), 0, 0, 0, 0, 1, 1, 0 },
	{ "sigma_u 1%, half shared", HALF(0.01), HALF(0.01), 0, 0, 0, 0, 1, 1, 0 },
	{ "sigma_u 2%, half shared", HALF(0.02), HALF(0.02), 0, 0, 0, 0, 1, 1, 0 },
	{ "sigma_u 3%, 80% shared", SHARE(0.03, 0.8), SHARE(0.03, 0.2), 0, 0, 0, 0, 0, 0, 0 },
	{ "sigma_u 4%, 80% shared", SHARE(0.04, 0.8), SHARE(0.04, 0.2), 0, 0, 0, 0, 0, 0, 0 },
	{ "sigma_u 6%, half shared", HALF(0.06), HALF(0.06), 0, 0, 0, 0, 0, 0, 0 },
	{ "own sd log-normal (median 1%)", 0.005, 0.01, 0.8, 0, 0, 0, 0, 0, 0 },
	{ "6-8% modes on 10% of rows", 0.007, 0.007, 0, 0.1, 0, 0, 0, 0, 0 },
	{ "15% of boots shifted +-6%", 0.005, 0.007, 0, 0, 0.15, 0.06, 0, 0, 0 },
	{ "compared runs vary 1.5x the calibration's", 0.02, 0.005, 0, 0, 0, 0, 0, 0, 1.5 },
	{ "compared runs vary 2.5x the calibration's", 0.02, 0.005, 0, 0, 0, 0, 0, 0, 2.5 },
	{ "compared runs vary 4x the calibration's", 0.02, 0.005, 0, 0, 0, 0, 0, 0, 4 },
};
#define WORLDS (sizeof(worlds) / sizeof(*worlds))

/*
 * The designs: boots a side, runs of each boot (1: a boot a run), and a
 * calibration from CAL_BOOTS boots. Two runs of one boot a side are one
 * boot a side, whatever their count says.
 */
static const struct design {
	const char *name;
	size_t boots;
	size_t runs;
	int calibrated;
} designs[] = {
	{ "1x1", 1, 1, 0 },
	{ "1x1 + calibration", 1, 1, 1 },
	{ "2x2", 2, 1, 0 },
	{ "3x3", 3, 1, 0 },
	{ "6x6", 6, 1, 0 },
	{ "2 runs of 1 boot a side", 1, 2, 0 },
};
#define DESIGNS (sizeof(designs) / sizeof(*designs))

static double normal(struct stats_rng *rng)
{
	double u = stats_rng_double(rng), v = stats_rng_double(rng);

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/* ------------------------------------------------ runs in memory */

struct sim_run {
	struct run_dir run;
	struct run_bench bench[ROWS];
	struct run_bench *sorted[ROWS];
	char *keys[3], *values[3];
	char boot_id[32], state[8];
	double value[ROWS][VALUES];
	uint32_t repetition[ROWS][VALUES];
};

static int by_name(const void *x, const void *y)
{
	return strcmp((*(struct run_bench *const *)x)->name,
		      (*(struct run_bench *const *)y)->name);
}

static void sim_run_init(struct sim_run *s)
{
	memset(s, 0, sizeof(*s));
	s->run.path = "simulated";
	s->run.label = "simulated";
	s->run.has_context_file = 1;
	s->run.bench = s->bench;
	s->run.count = ROWS;
	s->run.keys = s->keys;
	s->run.values = s->values;
	s->run.context_count = 3;
	s->keys[0] = "boot_id";
	s->values[0] = s->boot_id;
	s->keys[1] = "smap_state";
	s->values[1] = s->state;
	s->keys[2] = "host";
	s->values[2] = "simulated";
	for (size_t k = 0; k < ROWS; k++) {
		struct run_bench *b = &s->bench[k];

		b->name = (char *)shapes[k].name;
		b->suite = (char *)(strncmp(shapes[k].name, "kmod/", 5) ? "syscall" : "kmod");
		b->op = (char *)shapes[k].op;
		b->variant = (char *)shapes[k].variant;
		b->unit = "cycles";
		b->counter = "simulated";
		b->flags = "";
		b->median = b->median_ns = NAN;
		b->values = s->value[k];
		b->repetition = s->repetition[k];
		b->count = VALUES;
		b->source = RUN_VALUES_SAMPLES;
		for (size_t i = 0; i < VALUES; i++)
			s->repetition[k][i] = (uint32_t)(i / SAMPLES);
	}
	s->run.sorted = s->sorted;
	for (size_t k = 0; k < ROWS; k++)
		s->sorted[k] = &s->bench[k];
	qsort(s->sorted, ROWS, sizeof(*s->sorted), by_name);
}

/* Samples: normal on the log scale, but one in 20 far out, high. */
static double sample_noise(struct stats_rng *rng, double sd)
{
	if (stats_rng_double(rng) < 0.05)
		return sd * (3 + 6 * stats_rng_double(rng));
	return sd * normal(rng);
}

/*
 * What the skewed noise lifts a center (the mean of repetition medians)
 * by, as a factor: E exp(e) of the repetitions with their bursts, times
 * the lift of a median of SAMPLES samples (its mean shift for sd 1 is
 * estimated once, from 200 000 medians: its se is about 0.001). The
 * runs are drawn at cost / lift, so that a center's truth is the cost
 * and beta's is PAIR_CYCLES; on the log scale the lift cancels.
 */
static double center_lift(double rep_sd)
{
	static double shift = NAN;
	double bursts = (exp(9 * rep_sd) - exp(3 * rep_sd)) / (6 * rep_sd);

	if (isnan(shift)) {
		struct stats_rng rng;
		double sum = 0, v[SAMPLES];

		stats_rng_seed(&rng, 1);
		for (int k = 0; k < 200000; k++) {
			for (int j = 0; j < SAMPLES; j++)
				v[j] = sample_noise(&rng, 1);
			sum += stats_median(v, SAMPLES);
		}
		shift = sum / 200000;
	}
	return exp(rep_sd * rep_sd / 2) * (0.95 + 0.05 * bursts) *
	       exp(shift * rep_sd / 2);
}

/* A machine: what each row's boots and repetitions do on it. */
struct machine {
	double own_sd[ROWS];	/* of the row's own boot effect */
	double mode[ROWS];	/* size of its upper layout mode; 0 */
	double rep_sd[ROWS];	/* of its repetitions */
	double own_var[ROWS];	/* what it varies by of its own between boots */
	double lift[ROWS];	/* center_lift() of its repetitions */
	/*
	 * what a run's figure (mean log repetition median) varies by from
	 * its repetitions, bursts and medians included: about 2.9 rep_sd^2
	 * a repetition
	 */
	double run_var[ROWS];
};

static void machine_draw(struct stats_rng *rng, const struct world *w,
			 struct machine *m)
{
	size_t modes = (size_t)(w->mode_share * ROWS + 0.5);

	for (size_t k = 0; k < ROWS; k++) {
		m->own_sd[k] = w->own_sd * exp(w->own_spread * normal(rng));
		m->mode[k] = 0;
		/* repetition sd around 1%, 0.45-2.2% for most rows */
		m->rep_sd[k] = 0.01 * exp(0.4 * normal(rng));
		m->lift[k] = center_lift(m->rep_sd[k]);
		m->run_var[k] = 2.9 * m->rep_sd[k] * m->rep_sd[k] / REPS;
	}
	/* the rows with modes: any rows, controls too */
	for (size_t i = 0; i < modes; i++) {
		size_t k = stats_rng_below(rng, ROWS);

		if (m->mode[k] > 0) {
			i--;
			continue;
		}
		m->mode[k] = 0.06 + 0.02 * stats_rng_double(rng);
	}
	for (size_t k = 0; k < ROWS; k++)
		m->own_var[k] = m->own_sd[k] * m->own_sd[k] +
				m->mode[k] * m->mode[k] / 4;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* What a boot does to each row: its shift, the row's own effect, mode. */
struct boot_effect {
	double effect[ROWS];
};

/*
 * One run: in a boot of its own (again 0: the boot's shift, each row's
 * own effect and mode drawn into b), or in b's boot again (again 1);
 * repetitions with bursts, samples. smap: the SMAP side's windows cost
 * pair cycles each. k > 1: each row's figure varies k times what it
 * does of its own (own effect, mode and repetitions) beyond the shift.
 */
static void run_draw(struct stats_rng *rng, const struct world *w,
		     const struct machine *m, int smap, double pair,
		     unsigned boot, struct boot_effect *b, int again, double k,
		     struct sim_run *s)
{
	double shift = 0;

	if (!again)
		shift = w->common_sd * normal(rng);
	snprintf(s->boot_id, sizeof(s->boot_id), "boot-%u", boot);
	snprintf(s->state, sizeof(s->state), "%s", smap ? "smap" : "nosmap");
	if (!again && stats_rng_double(rng) < w->tail_share)
		shift += stats_rng_double(rng) < 0.5 ? -w->tail_shift : w->tail_shift;
	for (size_t i = 0; i < ROWS; i++) {
		double cost = shapes[i].cycles + (smap ? pair * shapes[i].windows : 0);
		double level;

		if (!again) {
			b->effect[i] = shift + m->own_sd[i] * normal(rng);
			if (m->mode[i] > 0 && stats_rng_double(rng) < 0.5)
				b->effect[i] += m->mode[i];
			/* the rest of k times the row's own, beyond the shift */
			if (k > 1)
				b->effect[i] += sqrt((k - 1) * (m->own_var[i] + m->run_var[i])) *
						normal(rng);
		}
		level = log(cost / m->lift[i]) + b->effect[i];
		for (size_t r = 0; r < REPS; r++) {
			double e = m->rep_sd[i] * normal(rng);
			double *v = &s->value[i][r * SAMPLES];

			if (stats_rng_double(rng) < 0.05)
				e += m->rep_sd[i] * (3 + 6 * stats_rng_double(rng));
			for (size_t j = 0; j < SAMPLES; j++)
				v[j] = exp(level + e + sample_noise(rng, m->rep_sd[i] / 2));
			/* as the loader leaves them: ascending within a repetition */
			qsort(v, SAMPLES, sizeof(*v), by_value);
		}
	}
}

/* ------------------------------------------------------- counting */

/* A rate per comparison, summed for its mean and Monte Carlo SE. */
struct tally {
	double sum, sumsq;
	size_t n;
};

static void tally_add(struct tally *t, double x)
{
	t->sum += x;
	t->sumsq += x * x;
	t->n++;
}

static double tally_mean(const struct tally *t)
{
	return t->n ? t->sum / (double)t->n : NAN;
}

static double tally_se(const struct tally *t)
{
	double m = tally_mean(t);

	if (t->n < 2)
		return NAN;
	return sqrt(fmax(0, t->sumsq / (double)t->n - m * m) / (double)(t->n - 1));
}

struct cell {
	struct tally aa_row, aa_decile, aa_comparison, aa_coverage, aa_same;
	struct tally margin_slower, margin_same, smap_comparison;
	struct tally coverage[CLASSES], power_triple, power_large;
	struct tally beta_coverage, beta, withheld, netted;
	struct tally widened_aa, widened_smap;	/* the calibration widened */
};

static int called(enum compare_verdict v)
{
	return v == COMPARE_FASTER || v == COMPARE_SLOWER;
}

static int covers(const struct compare_row *r, double truth)
{
	return r->relative_low <= truth && truth <= r->relative_high;
}

/* The rows of an A/A comparison. */
static void count_aa(const struct compare_result *res, const struct machine *m,
		     struct cell *c)
{
	size_t order[ROWS], calls = 0, decile = 0, covered = 0, same = 0;

	for (size_t k = 0; k < ROWS; k++)
		order[k] = k;
	/* the noisiest decile: the rows with the most variance of their own */
	for (size_t i = 0; i < DECILE; i++)
		for (size_t j = i + 1; j < ROWS; j++)
			if (m->own_var[order[j]] > m->own_var[order[i]]) {
				size_t t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
	for (size_t k = 0; k < ROWS; k++) {
		calls += called(res->rows[k].verdict);
		covered += covers(&res->rows[k], 0);
		same += res->rows[k].verdict == COMPARE_SAME;
	}
	for (size_t i = 0; i < DECILE; i++)
		decile += called(res->rows[order[i]].verdict);
	tally_add(&c->aa_row, (double)calls / ROWS);
	tally_add(&c->aa_decile, (double)decile / DECILE);
	tally_add(&c->aa_comparison, calls > 0);
	tally_add(&c->aa_coverage, (double)covered / ROWS);
	tally_add(&c->aa_same, (double)same / ROWS);
}

/* The rows of a SMAP comparison, and the pair's cost fitted from them. */
static void count_smap(const struct compare_result *res,
		       const struct compare_settings *set, struct cell *c)
{
	size_t n[CLASSES] = { 0 }, covered[CLASSES] = { 0 }, false_calls = 0;
	size_t slower = 0, same = 0, triple = 0, large = 0;
	double windows[ROWS], scale[ROWS];
	struct pair_fit fit = { 0 };

	for (size_t k = 0; k < ROWS; k++) {
		const struct compare_row *r = &res->rows[k];
		double truth = PAIR_CYCLES * shapes[k].windows / shapes[k].cycles;
		enum row_class cls = shapes[k].class;
		/*
		 * within or beyond the margin, not at it: a row exactly at the
		 * margin has its own bars (slower, same at the margin)
		 */
		int within = truth < set->margin - 1e-9;
		int beyond = truth > set->margin + 1e-9;

		n[cls]++;
		covered[cls] += covers(r, truth);
		false_calls += r->verdict == COMPARE_FASTER ||
			       (r->verdict == COMPARE_SLOWER && within) ||
			       (r->verdict == COMPARE_SAME && beyond);
		slower += cls == MARGIN && r->verdict == COMPARE_SLOWER;
		same += cls == MARGIN && r->verdict == COMPARE_SAME;
		triple += cls == TRIPLE && r->verdict == COMPARE_SLOWER;
		large += cls == LARGE && r->verdict == COMPARE_SLOWER;
		windows[k] = shapes[k].windows;
		scale[k] = 1;
	}
	for (int cls = 0; cls < CLASSES; cls++)
		tally_add(&c->coverage[cls], (double)covered[cls] / (double)n[cls]);
	tally_add(&c->margin_slower, (double)slower / (double)n[MARGIN]);
	tally_add(&c->margin_same, (double)same / (double)n[MARGIN]);
	tally_add(&c->smap_comparison, false_calls > 0);
	tally_add(&c->power_triple, (double)triple / (double)n[TRIPLE]);
	tally_add(&c->power_large, (double)large / (double)n[LARGE]);
	assert_int(pair_fit_rows(res, windows, scale, 0, set, &fit), 0, "pair fit");
	if (fit.fitted) {
		tally_add(&c->beta_coverage, fit.beta_low <= PAIR_CYCLES &&
					     PAIR_CYCLES <= fit.beta_high);
		tally_add(&c->beta, fit.beta);
	}
	pair_fit_free(&fit);
}

/* ------------------------------------------------- one comparison */

struct sim {
	struct stats_rng rng;
	struct sim_run runs[2 * MAX_BOOTS + CAL_BOOTS];
	unsigned boot;		/* boot_ids handed out */
};

/*
 * One comparison of a design in a world: a machine, its calibration if
 * the design has one, the sides' boots, compare_sides() as compare does,
 * and the counting. smap: B is the SMAP side, else an A/A comparison.
 */
static void comparison(struct sim *s, const struct world *w,
		       const struct design *d, int smap, struct cell *c)
{
	const struct run_dir *side_a[MAX_BOOTS], *side_b[MAX_BOOTS];
	const struct run_dir *cal_runs[CAL_BOOTS];
	struct compare_settings set = compare_default_settings();
	struct calibration cal = { 0 };
	struct compare_result res;
	struct boot_effect effect_a, effect_b;
	struct machine m;
	size_t kept, runs = d->boots * d->runs;
	unsigned boot_a = 0, boot_b = 0;
	char err[256];

	machine_draw(&s->rng, w, &m);
	if (d->calibrated) {
		for (size_t i = 0; i < CAL_BOOTS; i++) {
			struct sim_run *r = &s->runs[2 * MAX_BOOTS + i];

			run_draw(&s->rng, w, &m, 1, PAIR_CYCLES, s->boot++,
				 &effect_a, 0, 1, r);
			cal_runs[i] = &r->run;
		}
		if (calibrate_runs(cal_runs, CAL_BOOTS, &cal, err, sizeof(err)))
			fail_msg("calibrate: %s", err);
		set.model = &cal.model;
		set.calibration = "simulated";
		set.boot_estimate_sd = cal.bv.sd;
		set.boot_common_sd = cal.bv.common_sd;
		set.boot_df = cal.bv.common_df;
	}
	/* a side's runs: runs of each boot in turn, A's and B's alternating */
	for (size_t i = 0; i < runs; i++) {
		int again = i % d->runs != 0;

		if (!again) {
			boot_a = s->boot++;
			boot_b = s->boot++;
		}
		run_draw(&s->rng, w, &m, 0, 0, boot_a, &effect_a, again,
			 w->compared_k, &s->runs[i]);
		run_draw(&s->rng, w, &m, smap, PAIR_CYCLES, boot_b, &effect_b,
			 again, w->compared_k, &s->runs[MAX_BOOTS + i]);
		side_a[i] = &s->runs[i].run;
		side_b[i] = &s->runs[MAX_BOOTS + i].run;
	}
	assert_int(compare_sides(side_a, runs, side_b, runs, &set, 1,
				 NULL, NULL, &res, &kept), 0, "compare_sides");
	assert_int(res.count, ROWS, "rows compared");
	assert_int(kept, 0, "rows kept from the first run");
	tally_add(&c->withheld, set.withheld != NULL);
	tally_add(&c->netted, res.rows[ROWS - 1].net);
	tally_add(smap ? &c->widened_smap : &c->widened_aa, set.dispersion.scale > 1);
	if (smap)
		count_smap(&res, &set, c);
	else
		count_aa(&res, &m, c);
	compare_result_free(&res);
	calibration_free(&cal);
}

/* ------------------------------------------------------- the bars */

#define SE_BARS 3

/* Beyond the bar by more than SE_BARS Monte Carlo SE: 1, and why. */
static int over(const struct tally *t, double bar, char *why, size_t len,
		const char *what)
{
	double m = tally_mean(t), se = tally_se(t);

	if (!t->n || !(m > bar + SE_BARS * (isfinite(se) ? se : 0)))
		return 0;
	snprintf(why + strlen(why), len - strlen(why), " %s %.2f%% > %.1f%% + %d SE (%.2f%%);",
		 what, 100 * m, 100 * bar, SE_BARS, 100 * se);
	return 1;
}

static int under(const struct tally *t, double bar, char *why, size_t len,
		 const char *what)
{
	double m = tally_mean(t), se = tally_se(t);

	if (!t->n || !(m < bar - SE_BARS * (isfinite(se) ? se : 0)))
		return 0;
	snprintf(why + strlen(why), len - strlen(why), " %s %.2f%% < %.1f%% - %d SE (%.2f%%);",
		 what, 100 * m, 100 * bar, SE_BARS, 100 * se);
	return 1;
}

/* The cell against every bar that holds for it; 0 when it passes. */
static int judge(const struct world *w, const struct design *d,
		 const struct cell *c, char *why, size_t len)
{
	/*
	 * The interval claims coverage where it is estimated (a calibration,
	 * two or more boots a side), or where the assumption it rests on
	 * holds.
	 */
	int claims = d->boots > 1 || d->calibrated || w->assumption_holds;
	/*
	 * A calibration from another world is found out by the rows that
	 * should not move: every row of an A/A comparison, but only the
	 * controls of a SMAP comparison, too few to tell reliably (what
	 * they achieve is in docs/interpreting.md, not promised).
	 */
	int smap_claims = !(w->compared_k > 0);
	int bad = 0;

	why[0] = '\0';
	bad += over(&c->aa_decile, 0.025, why, len, "A/A in the noisiest decile");
	if (smap_claims) {
		bad += over(&c->margin_slower, 0.025, why, len, "slower at the margin");
		bad += over(&c->margin_same, 0.025, why, len, "same at the margin");
	}
	bad += over(&c->aa_comparison, 0.10, why, len, "A/A comparisons with a call");
	if (smap_claims)
		bad += over(&c->smap_comparison, 0.10, why, len,
			    "comparisons with a false call");
	if (claims) {
		bad += under(&c->aa_coverage, 0.93, why, len, "A/A coverage");
		for (int cls = 0; smap_claims && cls < CLASSES; cls++)
			bad += under(&c->coverage[cls], 0.93, why, len, class_names[cls]);
	}
	if (w->beta_bar)
		bad += under(&c->beta_coverage, 0.93, why, len, "beta's coverage");
	return bad;
}

/* The least coverage over the classes, and which. */
static double least_coverage(const struct cell *c, const char **which)
{
	double least = tally_mean(&c->aa_coverage);

	*which = "A/A";
	for (int cls = 0; cls < CLASSES; cls++)
		if (tally_mean(&c->coverage[cls]) < least) {
			least = tally_mean(&c->coverage[cls]);
			*which = class_names[cls];
		}
	return least;
}

static void worlds_and_designs(void **unused)
{
	const char *env = getenv("SMAPBENCH_SIM_SEED");
	const char *scale_env = getenv("SMAPBENCH_SIM_SCALE");
	uint64_t seed = env && *env ? strtoull(env, NULL, 0) : stats_random_seed();
	double scale = scale_env && *scale_env ? atof(scale_env) : 1;
	size_t n = (size_t)(COMPARISONS * (scale > 0 ? scale : 1));
	struct sim *s = calloc(1, sizeof(*s));
	unsigned failed = 0;

	(void)unused;
	assert_non_null(s);
	for (size_t i = 0; i < sizeof(s->runs) / sizeof(*s->runs); i++)
		sim_run_init(&s->runs[i]);
	stats_rng_seed(&s->rng, seed);
	print_message("# seed %llu (SMAPBENCH_SIM_SEED=%llu repeats it), %zu A/A and %zu SMAP comparisons of %d rows a cell\n",
		      (unsigned long long)seed, (unsigned long long)seed, n, n, ROWS);
	print_message("# | world | design | withheld | netted | widened A/A, SMAP | A/A rows called | A/A noisiest decile | A/A comparisons with a call | A/A coverage | slower at margin | same at margin | SMAP comparisons with a false call | least coverage (class) | power at 3x | power 2-5x | beta's coverage | mean beta |\n");
	for (size_t wi = 0; wi < WORLDS; wi++)
		for (size_t di = 0; di < DESIGNS; di++) {
			struct cell *c;
			const char *which;
			char why[1024];
			double least;
			int bad;

			/* a calibration from another world: only the design with one */
			if (worlds[wi].compared_k > 0 && !designs[di].calibrated)
				continue;
			c = calloc(1, sizeof(*c));
			assert_non_null(c);
			for (size_t e = 0; e < n; e++) {
				comparison(s, &worlds[wi], &designs[di], 0, c);
				comparison(s, &worlds[wi], &designs[di], 1, c);
			}
			least = least_coverage(c, &which);
			bad = judge(&worlds[wi], &designs[di], c, why, sizeof(why));
			print_message("# | %s | %s | %.0f%% | %.0f%% | %.0f%%, %.0f%% | %.2f%% | %.2f%% (%.2f) | %.1f%% (%.1f) | %.1f%% | %.2f%% (%.2f) | %.2f%% (%.2f) | %.1f%% (%.1f) | %.1f%% %s | %.1f%% | %.1f%% | %.1f%% | %.1f |%s%s\n",
				      worlds[wi].name, designs[di].name,
				      100 * tally_mean(&c->withheld), 100 * tally_mean(&c->netted),
				      100 * tally_mean(&c->widened_aa), 100 * tally_mean(&c->widened_smap),
				      100 * tally_mean(&c->aa_row),
				      100 * tally_mean(&c->aa_decile), 100 * tally_se(&c->aa_decile),
				      100 * tally_mean(&c->aa_comparison), 100 * tally_se(&c->aa_comparison),
				      100 * tally_mean(&c->aa_coverage),
				      100 * tally_mean(&c->margin_slower), 100 * tally_se(&c->margin_slower),
				      100 * tally_mean(&c->margin_same), 100 * tally_se(&c->margin_same),
				      100 * tally_mean(&c->smap_comparison), 100 * tally_se(&c->smap_comparison),
				      100 * least, which,
				      100 * tally_mean(&c->power_triple),
				      100 * tally_mean(&c->power_large),
				      100 * tally_mean(&c->beta_coverage), tally_mean(&c->beta),
				      bad ? "  <- FAILS:" : "", bad ? why : "");
			failed += bad > 0;
			free(c);
		}
	free(s);
	if (failed)
		fail_msg("%u cells miss a bar (seed %llu)", failed,
			 (unsigned long long)seed);
}

/* ---------------------------------------------- within one run */

/*
 * The paired within-run figure (inline - nopad): both rows ran side by
 * side in every repetition, their offsets correlated, one side's spread
 * up to 10 times the other's. No boot enters.
 */
#define EXPERIMENTS	2000

static double paired(struct stats_rng *rng, size_t r, double icc,
		     double ratio, double rho)
{
	double a[8 * 10], b[8 * 10];
	uint32_t ra[8 * 10], rb[8 * 10];
	double sb = sqrt(icc), sw = sqrt(1 - icc), covered = 0;

	for (unsigned e = 0; e < EXPERIMENTS; e++) {
		struct compare_groups ga, gb;
		struct stats_interval iv;

		for (size_t k = 0; k < r; k++) {
			double oa = sb * normal(rng);
			double ob = ratio * (rho * oa + sqrt(1 - rho * rho) * sb * normal(rng));

			for (size_t j = 0; j < 10; j++) {
				a[k * 10 + j] = 100 + oa + sw * normal(rng);
				b[k * 10 + j] = 102 + ob + ratio * sw * normal(rng);
				ra[k * 10 + j] = rb[k * 10 + j] = (uint32_t)k;
			}
		}
		assert_int(compare_group(a, ra, r * 10, &ga), 0, "group a");
		assert_int(compare_group(b, rb, r * 10, &gb), 0, "group b");
		assert_int(compare_paired_interval(&ga, 1, &gb, 1, 0.95, &iv), 0,
			   "paired interval");
		covered += iv.low <= 2 && 2 <= iv.high;
		compare_groups_free(&ga);
		compare_groups_free(&gb);
	}
	return covered / EXPERIMENTS;
}

static void paired_grid(void **unused)
{
	static const size_t reps[] = { 3, 5, 8 };
	static const double iccs[] = { 0.3, 0.8 }, rhos[] = { 0, 0.9 };
	static const double ratios[] = { 1, 10 };
	struct stats_rng rng;
	unsigned failed = 0;
	/* 93% less 3 SE of a 95% coverage over EXPERIMENTS */
	double bar = 0.93 - SE_BARS * sqrt(0.95 * 0.05 / EXPERIMENTS);

	(void)unused;
	stats_rng_seed(&rng, stats_random_seed());
	print_message("# within a run, paired t over repetitions, %d experiments a cell\n"
		      "# r | ICC | rho | spread | coverage\n", EXPERIMENTS);
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 2; j++)
			for (size_t k = 0; k < 2; k++)
				for (size_t l = 0; l < 2; l++) {
					double c = paired(&rng, reps[i], iccs[j],
							  ratios[l], rhos[k]);

					print_message("# %zu | %.1f | %.1f | 1:%g | %.1f%%%s\n",
						      reps[i], iccs[j], rhos[k],
						      ratios[l], 100 * c,
						      c < bar ? "  <- FAILS" : "");
					failed += c < bar;
				}
	if (failed)
		fail_msg("%u paired cells cover under 93%%", failed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(worlds_and_designs),
		cmocka_unit_test(paired_grid),
	};

	return cmocka_run_group_tests_name("simulation", tests, NULL, NULL);
}
