// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare_dispersion.c - whether a calibration holds for the runs
 * compared (analysis/compare_dispersion.h): the null rows' standardised
 * dispersion against known values, the point past which it widens, the
 * widening of each row's own parts and their df, which rows are null (the
 * controls, every row of an A/A comparison), and what makes two sides A/A.
 */
#include <math.h>
#include <string.h>

#include "unit.h"

#include "analysis/compare_controls.h"
#include "analysis/compare_dispersion.h"
#include "analysis/compare_stats.h"
#include "rundata/rundir.h"

/* variances known: no t to take to a normal deviate */
static const double known[5] = { INFINITY, INFINITY, INFINITY, INFINITY, INFINITY };

/* Changes of +a, -a, ..., 0 at variance v each: X2 = (n - 1) a^2 / v. */
static void alternating(double *d, double *v, size_t n, double a, double var)
{
	for (size_t i = 0; i < n; i++) {
		d[i] = i + 1 == n ? 0 : i % 2 ? -a : a;
		v[i] = var;
	}
}

static void test_statistic_known_values(void **state)
{
	struct compare_dispersion out;
	double d[5] = { 0, 0.01, -0.01, 0.02 }, v[5] = { 1e-4, 1e-4, 1e-4, 1e-4 };

	(void)state;
	/* mean 0.005; residuals -0.005, 0.005, -0.015, 0.015: X2 = 500e-6 / 1e-4 */
	assert_int(compare_dispersion_of(d, v, known, 4, &out), 0, "four rows");
	assert_int(out.checked, 1, "checked");
	assert_int(out.rows, 4, "rows");
	assert_near(out.statistic, 5.0, 1e-12, "X2");
	assert_near(out.df, 3, 0, "df");
	assert_near(out.ratio, 5.0 / 3, 1e-12, "X2 / df");
	/* P(chi-square(3) > 5) = 2 (1 - Phi(sqrt 5)) + sqrt(10 / pi) e^-2.5 */
	assert_near(out.p, 0.171797, 2e-4, "p");
	assert_near(out.scale, 1, 0, "p 0.17: the calibration holds, no scale");
	assert_true(isinf(out.scale_df));

	/* weighted by 1 / v: X2 = sum u d^2 - (sum u d)^2 / sum u */
	d[0] = 0.03;
	d[1] = d[2] = d[3] = 0;
	v[0] = 4e-4;
	assert_int(compare_dispersion_of(d, v, known, 4, &out), 0, "weighted");
	assert_near(out.statistic, 2500 * 9e-4 - 75.0 * 75.0 / 32500, 1e-12,
		    "weighted X2");

	/* far beyond: X2 100 on 4 df, the variance 25 times the calibration's */
	alternating(d, v, 5, 0.05, 1e-4);
	assert_int(compare_dispersion_of(d, v, known, 5, &out), 0, "five rows");
	assert_near(out.statistic, 100, 1e-9, "X2 far beyond");
	assert_near(out.scale, 25, 1e-9, "scale: X2 / df");
	assert_near(out.scale_df, 4, 0, "the scale's df: rows - 1");

	/* too few rows, or a row without a variance: nothing checked */
	assert_int(compare_dispersion_of(d, v, known, 2, &out), -1, "two rows");
	assert_int(out.checked, 0, "two rows: not checked");
	assert_near(out.scale, 1, 0, "two rows: no scale");
	v[1] = 0;
	assert_int(compare_dispersion_of(d, v, known, 5, &out), -1, "a variance of 0");
}

static void test_t_scores(void **state)
{
	/* t(4)'s 99.5% point, and the t(4) quantile of Phi(1) (closed form) */
	const double t995 = 4.604094871349985, t_of_phi1 = 1.141626629090954;
	double d[3] = { t995, -t995, 0 }, v[3] = { 1, 1, 1 }, df[3] = { 4, 4, 4 };
	struct compare_dispersion out;

	(void)state;
	/*
	 * Each row's variance estimated on 4 df: its change over its se is a
	 * t(4), taken to the normal deviate of the same tail, 2.575829;
	 * X2 = 2 x 2.575829^2, not 2 x 4.604^2.
	 */
	assert_int(compare_dispersion_of(d, v, df, 3, &out), 0, "t rows");
	assert_near(out.statistic, 2 * 2.5758293035489 * 2.5758293035489, 1e-6,
		    "X2 of normal scores");
	assert_near(out.p, exp(-out.statistic / 2), 2e-4, "p on 2 df");
	/* the factor that brings X2 to 2: each t to t(4)'s quantile of Phi(1) */
	assert_near(out.ratio, t995 * t995 / (t_of_phi1 * t_of_phi1), 1e-6, "phi");
	assert_near(out.scale, out.ratio, 0, "p 0.0013: widened");
	assert_near(out.scale_df, 2, 0, "its df");
}

static void test_widening_point(void **state)
{
	struct compare_dispersion out;
	double d[5], v[5];

	(void)state;
	/* chi-square(4)'s 99% point is 13.2767: just below it, then above */
	alternating(d, v, 5, sqrt(13.0 * 1e-4 / 4), 1e-4);
	assert_int(compare_dispersion_of(d, v, known, 5, &out), 0, "below");
	assert_near(out.statistic, 13.0, 1e-9, "X2 below");
	assert_near(out.p, exp(-13.0 / 2) * (1 + 13.0 / 2), 2e-4, "p below");
	assert_near(out.scale, 1, 0, "below the 99% point: kept");
	alternating(d, v, 5, sqrt(13.5 * 1e-4 / 4), 1e-4);
	assert_int(compare_dispersion_of(d, v, known, 5, &out), 0, "above");
	assert_near(out.p, exp(-13.5 / 2) * (1 + 13.5 / 2), 2e-4, "p above");
	assert_near(out.scale, 13.5 / 4, 1e-9, "above the 99% point: X2 / df");
}

/* ------------------------------------------------- through the rows */

#define ROWS	8
/* each side's repetitions, on enough df to be known: X2 of the changes */
#define WITHIN		0.5e-4
#define WITHIN_DF	COMPARE_DF_CAP
#define COMMON	(0.036 * 0.036)	/* the shift every row shares, on 2 df */

/* Four controls that did not move, four rows that moved each its own way. */
static const struct { const char *op, *variant; } ops[ROWS] = {
	{ "getppid", "none" }, { "adds", "none" }, { "futex", "wake" },
	{ "clock_gettime", "vdso" }, { "row", "one" }, { "row", "two" },
	{ "row", "three" }, { "row", "four" },
};

struct rows {
	struct run_bench bench[ROWS];
	struct compare_row row[ROWS];
	struct compare_result res;
	struct compare_boot_model model;
	struct compare_settings set;
};

/*
 * A comparison of one run a side in one boot with a calibration of its
 * invocations whose own part came out 0 (on 56 df): the rows' raw
 * figures, the moved ones +-a.
 */
static void rows_init(struct rows *t, double a, int same_record)
{
	memset(t, 0, sizeof(*t));
	t->model = (struct compare_boot_model){
		.invocation = 1,
		.common = { COMMON, 2 },
		.prior = { 0, 56 },
	};
	t->set = compare_default_settings();
	t->set.model = &t->model;
	t->set.boot_source = COMPARE_BOOT_CALIBRATION;
	t->set.same_boot = 1;
	t->set.same_record = same_record;
	for (size_t i = 0; i < ROWS; i++) {
		struct compare_row *r = &t->row[i];

		t->bench[i] = (struct run_bench){ .name = (char *)ops[i].op,
			.suite = "syscall", .op = (char *)ops[i].op,
			.variant = (char *)ops[i].variant };
		r->a = r->b = &t->bench[i];
		r->center_a = 1000;
		r->reps_a = r->reps_b = 5;
		r->within_a = r->within_b = WITHIN;
		r->within_a_df = r->within_b_df = WITHIN_DF;
		r->boot_scale = 2;
		r->boot_share_a = 0.5;
		r->boot_own = 0;
		r->boot_own_df = 56;
		r->boot_common = 2 * COMMON;
		r->boot_common_df = 2;
		r->raw_log_ratio = i < 4 ? 0 : i % 2 ? -a : a;
		compare_row_raw(r, &t->set);
	}
	t->res.rows = t->row;
	t->res.count = ROWS;
}

static void test_rows_widened(void **state)
{
	/* X2 = 4 a^2 / (2 WITHIN) = 70 on 7 df: ten times the calibration's */
	double a = sqrt(70 * 2 * WITHIN / 4), df = 1 / (1 / WITHIN_DF + 1.0 / 7);
	struct rows *t = malloc(sizeof(*t));

	(void)state;
	assert_non_null(t);
	rows_init(t, a, 1);
	assert_int(compare_dispersion_check(&t->res, &t->set), 0, "check");
	assert_int(t->set.dispersion.checked, 1, "checked");
	assert_int(t->set.dispersion.all_rows, 1, "A/A: every row null");
	assert_int(t->set.dispersion.rows, ROWS, "rows used");
	assert_near(t->set.dispersion.statistic, 70, 1e-9, "X2");
	assert_near(t->set.dispersion.scale, 10, 1e-9, "scale");
	for (size_t i = 0; i < ROWS; i++) {
		const struct compare_row *r = &t->row[i];

		/* the row's own parts ten times, the shared shift as it was */
		assert_near(r->within_a, 10 * WITHIN, 1e-15, "within_a scaled");
		assert_near(r->within_b, 10 * WITHIN, 1e-15, "within_b scaled");
		assert_near(r->within_a_df, df, 1e-12, "within_a df with the scale's");
		assert_near(r->boot_common, 2 * COMMON, 1e-15, "common kept");
		assert_near(r->raw_se, sqrt(20 * WITHIN + 2 * COMMON), 1e-12,
			    "se from the scaled parts");
		assert_near(r->se, r->raw_se, 0, "raw figure recomputed");
	}
	free(t);
}

static void test_rows_null_by_record(void **state)
{
	double a = sqrt(70 * 2 * WITHIN / 4);
	struct rows *t = malloc(sizeof(*t));

	(void)state;
	assert_non_null(t);
	/*
	 * Sides that differ in a recorded key: the moved rows may be what
	 * the comparison is of; the controls alone are null, and did not move.
	 */
	rows_init(t, a, 0);
	assert_int(compare_dispersion_check(&t->res, &t->set), 0, "check");
	assert_int(t->set.dispersion.all_rows, 0, "controls only");
	assert_int(t->set.dispersion.rows, 4, "the four controls");
	assert_near(t->set.dispersion.statistic, 0, 1e-12, "controls' X2");
	assert_near(t->set.dispersion.scale, 1, 0, "no scale");
	assert_near(t->row[5].within_a, WITHIN, 0, "a moved row's parts kept");

	/* no calibration in use: nothing checked, nothing scaled */
	rows_init(t, a, 1);
	t->set.boot_source = COMPARE_BOOT_NONE;
	assert_int(compare_dispersion_check(&t->res, &t->set), 0, "check");
	assert_int(t->set.dispersion.checked, 0, "no calibration: not checked");
	assert_near(t->row[5].within_a, WITHIN, 0, "no calibration: kept");
	free(t);
}

/* The controls moved +a, -a, +a, -a; the other rows did not. */
static void controls_apart(struct rows *t, double x2)
{
	double a = sqrt(x2 * 2 * WITHIN / 4);

	rows_init(t, 0, 0);
	for (size_t i = 0; i < 4; i++) {
		t->row[i].raw_log_ratio = i % 2 ? -a : a;
		compare_row_raw(&t->row[i], &t->set);
	}
}

static void test_controls_judged_unscaled(void **state)
{
	struct rows *t = malloc(sizeof(*t));
	struct compare_controls c;

	(void)state;
	assert_non_null(t);
	/* X2 9 on 3 df, within the 99% point (11.34): kept, and they agree */
	controls_apart(t, 9);
	assert_int(compare_dispersion_check(&t->res, &t->set), 0, "check");
	assert_near(t->set.dispersion.scale, 1, 0, "X2 9: no scale");
	assert_int(compare_controls_compute(&t->res, &t->set, &c), 0, "controls");
	assert_int(c.sound, 1, "X2 9: the controls agree");
	compare_controls_free(&c);
	/*
	 * X2 20: a control that moved on its own, as before. Against the
	 * scale they gave, their spread would be its df, 3, and always agree.
	 */
	controls_apart(t, 20);
	assert_int(compare_dispersion_check(&t->res, &t->set), 0, "check");
	assert_near(t->set.dispersion.scale, 20.0 / 3, 1e-9, "scale");
	assert_int(compare_controls_compute(&t->res, &t->set, &c), 0, "controls");
	assert_int(c.sound, 0, "X2 20: beyond the controls' 99% point");
	compare_controls_free(&c);
	free(t);
}

/* ------------------------------------------------- same record */

struct record {
	struct run_dir run;
	char *keys[5], *values[5];
};

static void record_init(struct record *r, const char *smap, const char *host,
			const char *cmdline, const char *boot_id)
{
	memset(r, 0, sizeof(*r));
	r->keys[0] = "smap_state";
	r->values[0] = (char *)smap;
	r->keys[1] = "host";
	r->values[1] = (char *)host;
	r->keys[2] = "cmdline";
	r->values[2] = (char *)cmdline;
	r->keys[3] = "boot_id";
	r->values[3] = (char *)boot_id;
	r->keys[4] = "kernel_release";
	r->values[4] = "6.1.0";
	r->run.keys = r->keys;
	r->run.values = r->values;
	r->run.context_count = 5;
}

static void test_same_record(void **state)
{
	struct record x, y, z;
	const struct run_dir *a[1] = { &x.run }, *b[2] = { &y.run, &z.run };

	(void)state;
	record_init(&x, "smap", "h", "quiet", "boot-1");
	record_init(&y, "smap", "h", "quiet", "boot-2");
	record_init(&z, "smap", "h", "quiet", "boot-3");
	assert_int(compare_same_record(a, 1, b, 2), 1, "boots differ only");
	z.values[2] = "quiet clearcpuid=smap";
	assert_int(compare_same_record(a, 1, b, 2), 0, "a command line differs");
	record_init(&z, "nosmap", "h", "quiet", "boot-3");
	assert_int(compare_same_record(a, 1, b, 2), 0, "a SMAP state differs");
	record_init(&z, "smap", "other", "quiet", "boot-3");
	assert_int(compare_same_record(a, 1, b, 2), 0, "a comparison key differs");
	record_init(&x, "", "h", "quiet", "boot-1");
	record_init(&y, "", "h", "quiet", "boot-2");
	record_init(&z, "", "h", "quiet", "boot-3");
	assert_int(compare_same_record(a, 1, b, 2), 0, "no SMAP state recorded");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statistic_known_values),
		cmocka_unit_test(test_t_scores),
		cmocka_unit_test(test_widening_point),
		cmocka_unit_test(test_rows_widened),
		cmocka_unit_test(test_rows_null_by_record),
		cmocka_unit_test(test_controls_judged_unscaled),
		cmocka_unit_test(test_same_record),
	};

	return cmocka_run_group_tests_name("compare dispersion", tests, NULL, NULL);
}
