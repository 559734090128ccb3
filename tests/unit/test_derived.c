// SPDX-License-Identifier: GPL-2.0
/*
 * test_derived.c - the SMAP tables derived from the fixture runs
 * (tests/fixtures/): every interval holds its point, and a lower share
 * bound that reaches zero puts the crossover's bound at the size before.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/derived.h"
#include "rundata/rundir.h"
#include "unit.h"

static const char *const fixtures[] = {
	"tests/fixtures/run-smap", "tests/fixtures/run-nosmap",
};

static void load(const char *path, struct run_dir *run, struct derived *d)
{
	char err[512];

	if (rundir_load(path, run, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	assert_int(derived_compute(run, d), 0, "derived_compute");
}

/* low <= point <= high, INFINITY (beyond the sweep) included */
static void assert_holds(double low, double point, double high,
			 const char *what)
{
	if (!(low <= point && point <= high))
		fail_msg("%s: %g outside its interval [%g, %g]", what, point,
			 low, high);
}

static void intervals_hold_their_points(void **unused)
{
	(void)unused;
	for (size_t f = 0; f < sizeof(fixtures) / sizeof(*fixtures); f++) {
		struct run_dir run;
		struct derived d;
		char what[256];

		load(fixtures[f], &run, &d);
		assert_true(d.crossover_count > 0);
		for (size_t i = 0; i < d.crossover_count; i++) {
			const struct derived_crossover *c = &d.crossovers[i];

			snprintf(what, sizeof(what), "%s crossover of %s",
				 fixtures[f], c->op);
			assert_holds(c->low, c->size, c->high, what);
		}
		for (size_t i = 0; i < d.pair_count; i++) {
			snprintf(what, sizeof(what), "%s pair of %s/%lu",
				 fixtures[f], d.pairs[i].op, d.pairs[i].size);
			assert_holds(d.pairs[i].low, d.pairs[i].cost,
				     d.pairs[i].high, what);
		}
		for (size_t i = 0; i < d.batch_count; i++) {
			snprintf(what, sizeof(what), "%s batch of %s/%lu",
				 fixtures[f], d.batches[i].op,
				 d.batches[i].batch);
			assert_holds(d.batches[i].low, d.batches[i].saving,
				     d.batches[i].high, what);
		}
		derived_free(&d);
		rundir_free(&run);
	}
}

/*
 * run-smap's copy_to_user: the pair is 8.9% of the copy at 4096 bytes
 * (7.5% at its lower bound) and 0.59% at 65536, where the lower bound is
 * negative (the interval of the pair reaches below zero). The point is
 * interpolated on the log scales, at about 38400 bytes; the lower bound
 * is 4096, the last size whose lower share is still at or above 1%.
 */
static void a_share_bound_below_zero_stops_at_the_size_before(void **unused)
{
	struct run_dir run;
	struct derived d;
	const struct derived_crossover *c = NULL;

	(void)unused;
	load("tests/fixtures/run-smap", &run, &d);
	for (size_t i = 0; i < d.crossover_count; i++)
		if (!strcmp(d.crossovers[i].op, "copy_to_user"))
			c = &d.crossovers[i];
	assert_non_null(c);
	assert_int(c->max_size, 65536, "the sweep ends at 65536");
	assert_near(c->size, 38421, 1, "the point, log-log between 4096 and 65536");
	assert_near(c->low, 4096, 0, "the lower bound");
	assert_true(isinf(c->high));
	derived_free(&d);
	rundir_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intervals_hold_their_points),
		cmocka_unit_test(a_share_bound_below_zero_stops_at_the_size_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
