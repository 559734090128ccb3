// SPDX-License-Identifier: GPL-2.0
/*
 * test_calib.c - the calibration check (measure/calib.h): two chains that
 * agree give a core frequency, a chain the core shortcuts gives none.
 * Figures measured on a Golden Cove-class Xeon (family 6, model 167) and
 * a Zen 4 EPYC (family 25, model 17), in ns per 1024 dependent operations.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/calib.h"
#include "measure/context.h"
#include "unit.h"

/* Golden Cove: add $1 is folded at rename; add r,r and imul r,r are not. */
#define GOLDEN_COVE_ADD_IMMEDIATE_NS	41.0
#define GOLDEN_COVE_ADD_NS		245.9
#define GOLDEN_COVE_IMUL_NS		738.7
/* Zen 4, the native row of data/. */
#define ZEN4_ADD_NS			276.969
#define ZEN4_IMUL_NS			831.562

static void folded_chain_refused(void **unused)
{
	struct calib_verdict v;

	(void)unused;
	calib_judge(GOLDEN_COVE_ADD_IMMEDIATE_NS, GOLDEN_COVE_IMUL_NS, &v);
	assert_near(v.add_ghz, 24.976, 0.001, "the folded chain's frequency");
	assert_near(v.imul_ghz, 4.1587, 0.0001, "imul's frequency");
	assert_int(v.consistent, 0, "a folded chain is inconsistent");
	assert_near(v.ghz, 0, 0, "and gives no frequency");
	assert_near(v.disagreement, 24.976 / 4.1587 - 1, 0.001, "6x apart");
}

static void register_chains_agree(void **unused)
{
	struct calib_verdict v;

	(void)unused;
	calib_judge(GOLDEN_COVE_ADD_NS, GOLDEN_COVE_IMUL_NS, &v);
	assert_int(v.consistent, 1, "Golden Cove: add r,r and imul r,r agree");
	assert_near(v.ghz, (1024 / GOLDEN_COVE_ADD_NS + 3072 / GOLDEN_COVE_IMUL_NS) / 2,
		    1e-9, "their mean");
	assert_near(v.ghz, 4.161, 0.001, "4.16 GHz");
	calib_judge(ZEN4_ADD_NS, ZEN4_IMUL_NS, &v);
	assert_int(v.consistent, 1, "Zen 4: they agree");
	assert_near(v.ghz, 3.6957, 0.0001, "3.70 GHz");
}

static void tolerance_edges(void **unused)
{
	struct calib_verdict v;

	(void)unused;
	/* imul at 3 GHz: 1024 ns; add 2% faster is 3.06 GHz */
	calib_judge(1024.0 / 3.06 * 1.0001, 1024.0, &v);
	assert_int(v.consistent, 1, "just inside 2%");
	calib_judge(1024.0 / 3.07, 1024.0, &v);
	assert_int(v.consistent, 0, "2.3% apart");
	calib_judge(0, 1024.0, &v);
	assert_int(v.consistent, 0, "a chain that did not run");
	calib_judge(NAN, 1024.0, &v);
	assert_int(v.consistent, 0, "a chain that is not a number");
	assert_near(v.ghz, 0, 0, "no frequency");
}

/*
 * A PMU is trusted only when it reads the chains at their latencies:
 * 1024 and 3072 cycles per block, within 0.5%.
 */
static void counter_check(void **unused)
{
	struct calib_counter_verdict v;

	(void)unused;
	calib_judge_counter(1024, 3072, &v);
	assert_int(v.trusted, 1, "exact latencies");
	assert_near(v.add_ratio, 1, 1e-12, "add ratio");
	calib_judge_counter(1024 * 1.0049, 3072 * 0.9951, &v);
	assert_int(v.trusted, 1, "both just inside 0.5%");
	calib_judge_counter(1024 * 1.006, 3072, &v);
	assert_int(v.trusted, 0, "add 0.6% high");
	assert_true(strstr(v.why, "1030.1") != NULL);
	calib_judge_counter(1024, 3072 * 0.99, &v);
	assert_int(v.trusted, 0, "imul 1% low");
	/* A virtual PMU that counts at the TSC's rate, not the core's. */
	calib_judge_counter(1024 * 0.75, 3072 * 0.75, &v);
	assert_int(v.trusted, 0, "both scaled: another clock");
	calib_judge_counter(0, 3072, &v);
	assert_int(v.trusted, 0, "a chain that did not run");
	assert_true(strstr(v.why, "did not run") != NULL);
	calib_judge_counter(1024, NAN, &v);
	assert_int(v.trusted, 0, "a chain that is not a number");
}

static void set_user(struct context *c, double add, double imul)
{
	context_set(c, "calib_user_add_ns", "%.6g", add);
	context_set(c, "calib_user_imul_ns", "%.6g", imul);
}

static void run_verdict(void **unused)
{
	struct context c = { 0 };

	(void)unused;
	set_user(&c, GOLDEN_COVE_ADD_IMMEDIATE_NS, GOLDEN_COVE_IMUL_NS);
	calib_context_judge(&c);
	assert_str(context_get(&c, "calib_consistent"), "0", "folded: refused");
	assert_str(context_get(&c, "calib_ghz"), "", "no frequency to convert with");
	assert_int(strstr(context_get(&c, "warnings"), "times only, no cycle figures") != NULL,
		   1, "the run says why");
	assert_int(strstr(context_get(&c, "calib_note"), "disagree") != NULL, 1,
		   "calib_note names the disagreement");
	context_free(&c);

	memset(&c, 0, sizeof(c));
	set_user(&c, GOLDEN_COVE_ADD_NS, GOLDEN_COVE_IMUL_NS);
	calib_context_judge(&c);
	assert_str(context_get(&c, "calib_consistent"), "1", "agreeing chains");
	assert_near(strtod(context_get(&c, "calib_ghz"), NULL), 4.161, 0.001,
		    "calib_ghz");
	assert_str(context_get(&c, "calib_note"), "", "no note");
	context_free(&c);

	/* the module's chains agree with each other, 5% off user space */
	memset(&c, 0, sizeof(c));
	set_user(&c, ZEN4_ADD_NS, ZEN4_IMUL_NS);
	context_set(&c, "kmod_calib_consistent", "1");
	context_set(&c, "kmod_calib_add_ns", "%.6g", ZEN4_ADD_NS * 1.05);
	context_set(&c, "kmod_calib_imul_ns", "%.6g", ZEN4_IMUL_NS * 1.05);
	calib_context_judge(&c);
	assert_str(context_get(&c, "calib_consistent"), "0",
		   "module and user space 5% apart");
	assert_near(strtod(context_get(&c, "calib_kmod_vs_user"), NULL),
		    1 / 1.05, 0.0001, "their ratio is recorded");
	context_free(&c);

	memset(&c, 0, sizeof(c));
	set_user(&c, ZEN4_ADD_NS, ZEN4_IMUL_NS);
	context_set(&c, "kmod_calib_consistent", "1");
	context_set(&c, "kmod_calib_add_ns", "%.6g", ZEN4_ADD_NS * 1.003);
	context_set(&c, "kmod_calib_imul_ns", "%.6g", ZEN4_IMUL_NS);
	calib_context_judge(&c);
	assert_str(context_get(&c, "calib_consistent"), "1",
		   "module and user space agree");
	context_free(&c);
}

static void chains_run_here(void **unused)
{
	double add = 0, imul = 0;

	(void)unused;
	/* Whatever the core and its load: both chains give a time. */
	assert_int(calib_measure_user(20, &add, &imul), 0, "the chains ran");
	assert_int(add > 0 && imul > 0, 1, "positive times");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(folded_chain_refused),
		cmocka_unit_test(register_chains_agree),
		cmocka_unit_test(tolerance_edges),
		cmocka_unit_test(counter_check),
		cmocka_unit_test(run_verdict),
		cmocka_unit_test(chains_run_here),
	};

	return cmocka_run_group_tests_name("calib", tests, NULL, NULL);
}
