// SPDX-License-Identifier: GPL-2.0
/*
 * test_catalogue.c - the kmod catalogue (kmod/uapi/smapbench_ops.def with
 * suites/kmod/sweep.h) against itself, against what the kmod suite
 * registers, and the derived tables on the rows the suite really
 * produces.
 *
 * The module's side of the size and variant rules is checked in the VM
 * (tests/kmod/selftest/ refuses and runs the edges the catalogue
 * names); here the catalogue must agree with the ABI's bounds and with
 * the suite's table, and the per-access figures must be right for every
 * batch size and every op the suite registers, sigframe's whole frames
 * included.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "analysis/derived.h"
#include "analysis/headline.h"
#include "analysis/table.h"
#include "measure/registry.h"
#include "rundata/rundir.h"
#include "suites/kmod/catalogue.h"
#include "suites/suite.h"

/* The kmod suite's registered benchmarks (the real table, not a copy). */
static struct registry kmod;

static int setup_registry(void **state)
{
	(void)state;
	if (suite_register_all(&kmod))
		return -1;
	registry_keep_suite(&kmod, "kmod");
	return kmod.count ? 0 : -1;
}

static int teardown_registry(void **state)
{
	(void)state;
	registry_free(&kmod);
	return 0;
}

static int list_within(const struct kmod_list *sub, const struct kmod_list *all)
{
	for (size_t i = 0; i < sub->count; i++)
		if (!kmod_list_has(all, sub->value[i]))
			return 0;
	return 1;
}

static void test_every_op_has_an_entry(void **state)
{
	(void)state;
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];
		char what[96];

		snprintf(what, sizeof(what), "op %u", op);
		if (!o->name)
			fail_msg("%s has no catalogue entry", what);
		assert_int(kmod_op_find(o->name), op, "kmod_op_find(name) of its op");
		if (!o->variants || o->variants >> SMAPBENCH_VARIANT_COUNT)
			fail_msg("%s: variants %#x outside enum smapbench_variant",
				 o->name, o->variants);
		/* none is for ops without an access, and only for them */
		if ((o->variants & SMAPBENCH_VARIANT_BIT(NONE)) &&
		    o->variants != SMAPBENCH_VARIANT_BIT(NONE))
			fail_msg("%s: variant none with others (%#x)", o->name,
				 o->variants);
		if ((o->variants == SMAPBENCH_VARIANT_BIT(NONE)) != !o->accesses)
			fail_msg("%s: %u accesses per item with variants %#x",
				 o->name, o->accesses, o->variants);
		if (!o->align || (o->align & (o->align - 1)))
			fail_msg("%s: alignment %u is not a power of two",
				 o->name, o->align);
		if (o->headline & ~o->variants)
			fail_msg("%s: headline variants %#x not all listed (%#x)",
				 o->name, o->headline, o->variants);
		/*
		 * Brackets of the op's own loop: only ops without an access
		 * have one, and an op flagged RAW runs STAC or CLAC in it.
		 */
		if (o->accesses && (o->brackets.stac || o->brackets.clac ||
				    o->brackets.popf))
			fail_msg("%s: brackets (%u, %u, %u) for an op with accesses",
				 o->name, o->brackets.stac, o->brackets.clac,
				 o->brackets.popf);
		if (!!(o->flags & SMAPBENCH_OPF_RAW) !=
		    !!(o->brackets.stac + o->brackets.clac))
			fail_msg("%s: flag RAW %s but brackets (%u, %u, %u)",
				 o->name, o->flags & SMAPBENCH_OPF_RAW ? "set" : "clear",
				 o->brackets.stac, o->brackets.clac, o->brackets.popf);
	}
	for (unsigned v = 0; v < SMAPBENCH_VARIANT_COUNT; v++)
		assert_int(kmod_variant_find(kmod_variant_name(v)), v,
			   "kmod_variant_find(kmod_variant_name(v))");
	assert_int(kmod_op_find("no_such_op"), -1, "an unknown op");
}

/* The sweep's sizes are ones the module accepts, within the ABI's bounds. */
static void test_sizes_within_the_rules(void **state)
{
	(void)state;
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];

		if (o->min_size > o->max_size || o->max_size > SMAPBENCH_MAX_SIZE)
			fail_msg("%s: sizes %u..%u outside 0..SMAPBENCH_MAX_SIZE",
				 o->name, o->min_size, o->max_size);
		if (!o->sizes.count)
			fail_msg("%s: an empty sweep", o->name);
		for (size_t i = 0; i < o->sizes.count; i++)
			if (!kmod_size_accepted(op, o->sizes.value[i]))
				fail_msg("%s: sweep size %u is not one the module accepts (%u..%u%s)",
					 o->name, o->sizes.value[i], o->min_size,
					 o->max_size,
					 o->flags & SMAPBENCH_OPF_POW2 ? ", powers of two" : "");
		if (!o->quick_sizes.count || !list_within(&o->quick_sizes, &o->sizes))
			fail_msg("%s: the quick sizes are not a non-empty part of the sweep",
				 o->name);
		if (o->headline && !kmod_list_has(&o->quick_sizes, o->headline_size))
			fail_msg("%s: headline size %u is not in a quick run",
				 o->name, o->headline_size);
	}
	/* the rule itself, on get_user (1..8, powers of two) and futex (4) */
	assert_int(kmod_size_accepted(SMAPBENCH_OP_GET_USER, 3), 0, "get_user 3 B");
	assert_int(kmod_size_accepted(SMAPBENCH_OP_GET_USER, 8), 1, "get_user 8 B");
	assert_int(kmod_size_accepted(SMAPBENCH_OP_GET_USER, 16), 0, "get_user 16 B");
	assert_int(kmod_size_accepted(SMAPBENCH_OP_FUTEX, 0), 1, "futex size 0 (the unit)");
	assert_int(kmod_size_accepted(SMAPBENCH_OP_FUTEX, 8), 0, "futex 8 B");
	assert_int(kmod_size_accepted(SMAPBENCH_OP_CALIB, 1), 0, "calib 1 B");
}

/* Batch sizes within the ABI, the buffer a block needs within its bound. */
static void test_batches_within_the_rules(void **state)
{
	(void)state;
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];
		int blocks = !!(o->variants & SMAPBENCH_VARIANTS_BLOCK);

		if (!blocks) {
			if (o->batches.count != 1 || o->batches.value[0] ||
			    o->quick_batches.count != 1 || o->quick_batches.value[0])
				fail_msg("%s: batch sizes without batched or masked (write (0))",
					 o->name);
			continue;
		}
		for (size_t i = 0; i < o->batches.count; i++) {
			unsigned k = o->batches.value[i];
			unsigned long unit = o->sizes.value[o->sizes.count - 1];

			if (k < 1 || k > SMAPBENCH_MAX_BATCH)
				fail_msg("%s: batch %u outside 1..SMAPBENCH_MAX_BATCH",
					 o->name, k);
			if (!unit)
				unit = o->max_size;
			if (unit * k > SMAPBENCH_MAX_BUFFER)
				fail_msg("%s: a block of %u x %lu B exceeds SMAPBENCH_MAX_BUFFER",
					 o->name, k, unit);
		}
		if (!o->quick_batches.count ||
		    !list_within(&o->quick_batches, &o->batches))
			fail_msg("%s: the quick batches are not a non-empty part of the batches",
				 o->name);
	}
}

/*
 * The suite registers exactly the catalogue's combinations: each row's op,
 * variant, size and batch listed there, as many rows as it implies, the
 * quick ones where it says, and the headline among the quick ones.
 */
static void test_suite_follows_the_catalogue(void **state)
{
	size_t want = 0, headline = 0;

	(void)state;
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++)
		for (unsigned v = 0; v < SMAPBENCH_VARIANT_COUNT; v++)
			if (kmod_ops[op].variants & (1U << v))
				want += kmod_ops[op].sizes.count *
					(kmod_variant_is_block(v) ?
					 kmod_ops[op].batches.count : 1);
	assert_int(kmod.count, want, "kmod benchmarks registered");

	for (size_t i = 0; i < kmod.count; i++) {
		const struct benchmark *b = kmod.items[i];
		int op = kmod_op_find(b->op), v = kmod_variant_find(b->variant);
		const struct kmod_op *o;
		int quick;

		if (op < 0 || v < 0)
			fail_msg("%s: op or variant not in the catalogue", b->name);
		o = &kmod_ops[op];
		if (!(o->variants & (1U << v)) || !kmod_list_has(&o->sizes, b->size))
			fail_msg("%s: a variant or size the catalogue does not list",
				 b->name);
		if (kmod_variant_is_block((unsigned)v) ?
		    !kmod_list_has(&o->batches, b->batch) : b->batch != 0)
			fail_msg("%s: batch %u is not one of the catalogue's", b->name,
				 b->batch);
		quick = kmod_list_has(&o->quick_sizes, b->size) &&
			(!b->batch || kmod_list_has(&o->quick_batches, b->batch));
		if (quick == b->extended)
			fail_msg("%s: %s a --quick run, the catalogue says otherwise",
				 b->name, b->extended ? "left out of" : "kept in");
		if (b->headline && b->extended)
			fail_msg("%s: a headline row a --quick run leaves out", b->name);
		headline += !!b->headline;
	}
	if (!headline)
		fail_msg("no kmod headline row registered");
}

/* The headline: one list, every row a registered, quick benchmark. */
static void test_headline(void **state)
{
	struct registry all = { 0 };
	const struct bench_key *k = headline_benchmarks();
	size_t n = 0;
	int sigframe_batched = 0, syscall = 0;

	(void)state;
	assert_int(suite_register_all(&all), 0, "registering every family");
	for (; k->suite; k++, n++) {
		const struct benchmark *found = NULL;

		for (size_t i = 0; i < all.count && !found; i++) {
			const struct benchmark *b = all.items[i];

			if (!strcmp(b->suite, k->suite) && !strcmp(b->op, k->op) &&
			    !strcmp(b->variant, k->variant) && b->size == k->size &&
			    b->batch == k->batch)
				found = b;
		}
		if (!found)
			fail_msg("headline %s/%s/%s/%lu/%lu is not a registered benchmark",
				 k->suite, k->op, k->variant, k->size, k->batch);
		if (!found->headline || found->extended)
			fail_msg("headline %s: not marked, or not in a --quick run",
				 found->name);
		sigframe_batched |= !strcmp(k->op, kmod_ops[SMAPBENCH_OP_SIGFRAME].name) &&
				    !strcmp(k->variant, "batched");
		syscall |= !strcmp(k->suite, "syscall");
	}
	registry_free(&all);
	if (!n || !sigframe_batched || !syscall)
		fail_msg("headline of %zu rows without sigframe/batched or syscall rows", n);
}

/* ------------------------------------------- derived tables, real rows */

/*
 * Known costs, per access: a pair 24, the access itself 4 (nopad), so
 * inline 28 and kapi (a pair per access) 28 as well; a block pays one
 * pair for all its accesses: 24 + 4 per access.
 */
#define PAIR	24.0
#define ACCESS	4.0

static double model(const struct benchmark *b, double accesses)
{
	switch (kmod_variant_find(b->variant)) {
	case SMAPBENCH_VARIANT_NOPAD:
		return accesses * ACCESS;
	case SMAPBENCH_VARIANT_BATCHED:
	case SMAPBENCH_VARIANT_MASKED:
		return PAIR + accesses * ACCESS;
	default:
		return accesses * (PAIR + ACCESS);
	}
}

/*
 * Writes a run directory with one row per kmod benchmark the suite
 * registers, valued by the model, and computes its derived tables.
 */
static void derive_registered(struct run_dir *run, struct derived *d)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[512];
	FILE *results, *samples;

	snprintf(dir, sizeof(dir), "%s/registered", unit_tmpdir);
	assert_int(mkdir(dir, 0755), 0, "mkdir of the run directory");
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	results = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	samples = fopen(path, "w");
	assert_non_null(results);
	assert_non_null(samples);
	fputs("name,suite,op,variant,size,batch,unit,median\n", results);
	fputs("name,repetition,sample,iterations,value,unit\n", samples);
	for (size_t i = 0; i < kmod.count; i++) {
		const struct benchmark *b = kmod.items[i];
		const struct kmod_op *o = &kmod_ops[kmod_op_find(b->op)];
		/* one iteration: an item, or a block of batch items */
		double accesses = (double)o->accesses * (b->batch ? b->batch : 1);
		double v = model(b, accesses);

		if (!o->accesses)
			continue;
		fprintf(results, "%s,kmod,%s,%s,%u,%u,ticks,%.9g\n", b->name, b->op,
			b->variant, b->size, b->batch, v);
		/* three repetitions of two samples: the pairs need three */
		for (int k = 0; k < 6; k++)
			fprintf(samples, "%s,%d,%d,1,%.9g,ticks\n", b->name, k / 2,
				k % 2, v);
	}
	assert_int(fclose(results) | fclose(samples), 0, "writing the run");
	if (rundir_load(dir, run, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int(derived_compute(run, d), 0, "derived_compute");
}

static void test_derived_on_registered_rows(void **state)
{
	struct run_dir run;
	struct derived d;
	size_t sigframe_rows = 0, want_batches = 0;

	(void)state;
	derive_registered(&run, &d);

	/* inline - nopad is one pair per access, sigframe per field too */
	if (!d.pair_count)
		fail_msg("no pair rows from the registered inline/nopad benchmarks");
	for (size_t i = 0; i < d.pair_count; i++) {
		char what[96];

		snprintf(what, sizeof(what), "pair cost of %s/%lu", d.pairs[i].op,
			 d.pairs[i].size);
		assert_near(d.pairs[i].cost, PAIR, 1e-9, what);
		assert_near(d.pairs[i].low, PAIR, 1e-9, what);
	}

	/* every batched and masked row the suite registers has its figure */
	for (size_t i = 0; i < kmod.count; i++)
		want_batches += kmod.items[i]->batch &&
				kmod_ops[kmod_op_find(kmod.items[i]->op)].accesses;
	assert_int(d.batch_count, want_batches, "batch rows");
	for (size_t i = 0; i < d.batch_count; i++) {
		const struct derived_batch *x = &d.batches[i];
		double per_pair = (double)x->batch *
				  kmod_ops[kmod_op_find(x->op)].accesses;
		char what[128];

		snprintf(what, sizeof(what), "%s/%s/%lu/%lu per access", x->op,
			 x->variant, x->size, x->batch);
		assert_int(x->per_pair, per_pair, "accesses per pair (the K column)");
		assert_near(x->single, PAIR + ACCESS, 1e-9, what);
		assert_near(x->batched, ACCESS + PAIR / per_pair, 1e-9, what);
		assert_near(x->saving, PAIR - PAIR / per_pair, 1e-9, what);
		assert_near(x->low, x->saving, 1e-9, what);
		if (!strcmp(x->op, kmod_ops[SMAPBENCH_OP_SIGFRAME].name)) {
			/* a block is whole frames: K frames of 25 fields each */
			assert_int(per_pair, x->batch * SMAPBENCH_SIGFRAME_FIELDS,
				   "sigframe accesses per pair");
			sigframe_rows++;
		}
	}
	if (!sigframe_rows)
		fail_msg("the registered sigframe batched rows gave no batch figure");
	derived_free(&d);
	rundir_free(&run);
}

/* The committed fixture runs name only benchmarks the suite registers. */
static void test_fixture_rows_are_registered(void **state)
{
	static const char *const fixtures[] = {
		"tests/fixtures/run-smap", "tests/fixtures/run-nosmap",
	};

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		struct run_dir run;
		char err[512];

		if (rundir_load(fixtures[f], &run, err, sizeof(err)))
			fail_msg("%s (run from the top of the tree)", err);
		for (size_t i = 0; i < run.count; i++)
			if (!strcmp(run.bench[i].suite, "kmod") &&
			    !registry_find(&kmod, run.bench[i].name))
				fail_msg("%s: %s is not a benchmark the kmod suite registers",
					 fixtures[f], run.bench[i].name);
		rundir_free(&run);
	}
}

static int setup_all(void **state)
{
	if (unit_make_tmpdir(state))
		return -1;
	return setup_registry(state);
}

static int teardown_all(void **state)
{
	teardown_registry(state);
	return unit_remove_tmpdir(state);
}

/*
 * The kinds plots, census and table read instead of op names hold what
 * they promise, and every table cell names a row the suite registers.
 */
static void test_kinds_and_table_cells(void **state)
{
	const unsigned pair_variants = SMAPBENCH_VARIANT_BIT(INLINE) |
				       SMAPBENCH_VARIANT_BIT(NOPAD);
	size_t cells = 0;

	(void)state;
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];
		const char *per = o->table_cell;

		/* a calibration chain is no cost of SMAP: never an op's bar */
		if ((o->kind & KMOD_OP_CALIBRATION) &&
		    (o->accesses || !(o->kind & KMOD_OP_NOT_PLOTTED)))
			fail_msg("%s: a calibration op with user accesses or a bar",
				 o->name);
		/* a loop per width: register widths, sizes powers of two */
		if ((o->kind & KMOD_OP_PER_WIDTH) &&
		    (!(o->flags & SMAPBENCH_OPF_POW2) || o->max_size > 8))
			fail_msg("%s: per-width loops for sizes other than 1, 2, 4, 8",
				 o->name);
		if (!per)
			continue;
		cells++;
		if ((o->variants & pair_variants) != pair_variants)
			fail_msg("%s: a table cell without inline and nopad", o->name);
		if (strspn(per, "0123456789") == strlen(per) ?
		    !kmod_list_has(&o->quick_sizes, (unsigned)atoi(per)) :
		    o->min_size != o->max_size)
			fail_msg("%s: table cell \"%s\" is neither a quick size nor a fixed unit's",
				 o->name, per);
	}
	assert_int(table_cell_count(), cells + 1, "the catalogue's cells and bpf's");
	for (size_t i = 0; i < table_cell_count(); i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(table_cells()[i].id, table_cells()[j].id))
				fail_msg("table cell %s twice", table_cells()[i].id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_op_has_an_entry),
		cmocka_unit_test(test_sizes_within_the_rules),
		cmocka_unit_test(test_batches_within_the_rules),
		cmocka_unit_test(test_kinds_and_table_cells),
		cmocka_unit_test(test_suite_follows_the_catalogue),
		cmocka_unit_test(test_headline),
		cmocka_unit_test(test_derived_on_registered_rows),
		cmocka_unit_test(test_fixture_rows_are_registered),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
