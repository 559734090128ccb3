// SPDX-License-Identifier: GPL-2.0
/*
 * test_run_preference.c - which of several runs of one machine, kernel
 * and SMAP state the table uses (analysis/run_select.h): complete over
 * interrupted, default or --full over --quick, more repetitions, newer;
 * and the weights read from a run's context.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"

#include "analysis/run_select.h"

static void test_rule_order(void **state)
{
	const struct run_weight full5_old = { 1, 0, 5, "2026-01-01T00:00:00Z" };
	const struct run_weight quick3_new = { 1, 1, 3, "2026-06-01T00:00:00Z" };
	const struct run_weight full3_new = { 1, 0, 3, "2026-06-01T00:00:00Z" };
	const struct run_weight cut10 = { 0, 0, 10, "2026-07-01T00:00:00Z" };
	const struct run_weight full5_new = { 1, 0, 5, "2026-02-01T00:00:00Z" };
	char why[128];

	(void)state;
	/* the case that was silent: a newer 6-second --quick run */
	assert_true(run_weight_compare(&full5_old, &quick3_new, why, sizeof(why)) > 0);
	assert_string_equal(why, "a default or --full run, not a --quick one");
	assert_true(run_weight_compare(&quick3_new, &full5_old, NULL, 0) < 0);
	/* more repetitions before newer */
	assert_true(run_weight_compare(&full5_old, &full3_new, why, sizeof(why)) > 0);
	assert_string_equal(why, "more repetitions (5, not 3)");
	assert_true(run_weight_compare(&full3_new, &full5_old, why, sizeof(why)) < 0);
	assert_string_equal(why, "more repetitions (5, not 3)");
	/* complete before everything else */
	assert_true(run_weight_compare(&quick3_new, &cut10, why, sizeof(why)) > 0);
	assert_string_equal(why, "a complete run, not an interrupted one");
	/* all else equal: the newer */
	assert_true(run_weight_compare(&full5_new, &full5_old, why, sizeof(why)) > 0);
	assert_string_equal(why, "a newer run");
	assert_int_equal(run_weight_compare(&full5_old, &full5_old, NULL, 0), 0);
}

static void test_weight_from_context(void **state)
{
	char *keys[] = { "status", "quick", "repetitions", "date" };
	char *quick[] = { "complete", "1", "3", "2026-06-01" };
	char *cut[] = { "interrupted", "0", "5x", "" };
	struct run_dir run = { .keys = keys, .values = quick, .context_count = 4 };
	struct run_weight w;

	(void)state;
	run_weight_of(&run, &w);
	assert_int_equal(w.complete, 1);
	assert_int_equal(w.quick, 1);
	assert_int_equal(w.repetitions, 3);
	assert_string_equal(w.date, "2026-06-01");
	run.values = cut;
	run_weight_of(&run, &w);
	assert_int_equal(w.complete, 0);
	assert_int_equal(w.quick, 0);
	assert_int_equal(w.repetitions, 0);	/* not a number: unrecorded */
	assert_string_equal(w.date, "");
	run.context_count = 0;	/* an old run records none of them */
	run_weight_of(&run, &w);
	assert_int_equal(w.complete, 1);
	assert_int_equal(w.quick, 0);
	assert_int_equal(w.repetitions, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_order),
		cmocka_unit_test(test_weight_from_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
