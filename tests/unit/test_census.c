// SPDX-License-Identifier: GPL-2.0
/*
 * test_census.c - the census's host side without QEMU: reading the
 * plugin's output (census/census_protocol.h), census.csv both ways,
 * and the oracle's verdicts on right and wrong counts. Stage 42-census
 * runs the same code on real boots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "census/census.h"

/* The notes a SMAP boot of a made-up kernel sends, then its rows. */
#define SMAP_NOTES							\
	"census\t1\n"							\
	"note\tkernel_release 6.1.0-test\n"				\
	"note\tcmdline console=ttyS0\n"					\
	"note\tsmap_cpuinfo 1\n"					\
	"note\tsmap_cpuid 1\n"						\
	"note\tkmod_smap cpuid=1 feature=1 cr4=1 abi=2\n"

/* getppid: no STAC, 3 entry CLACs in 1000 calls. */
#define ROW_GETPPID							\
	"row\tsyscall/getppid syscall getppid none 0 0\t1000\t0\t3\t3\t0\t322000\n"

/* get_user inline: 1000 iterations, one pair each, and one per call of its 10. */
#define ROW_INLINE_NAMED(clac, func, head)				\
	"row\tkmod/get_user/inline/8 kmod get_user inline 8 0\t0\t1014\t"	\
	#clac "\t1\t0\t90000\tf:window=10/0/0/0/0\t"			\
	"f:" func "=10/1010/" #clac "/1/0\t"				\
	"p:" head "=1000\ts:" func "+0x40=1000\t"			\
	"s:_copy_to_user+0x2b=14\n"
#define ROW_INLINE(clac)						\
	ROW_INLINE_NAMED(clac, "smapbench_get_user_inline",		\
			 "smapbench_loop_get_user_inline_8")

#define TAIL								\
	"skip\tkmod/get_user/masked/1/1\tvariant masked is not built into this module\n" \
	"note\tfinished 3 benchmarks\n"					\
	"exit\t2\n"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		fail_msg("cannot write %s", path);
}

/* Load text as the plugin's output of a boot in state; rc of the load. */
static int load(struct census *c, const char *state, const char *text,
		char *err, size_t errlen)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/boot.tsv", unit_tmpdir);
	write_file(path, text);
	return census_load_plugin_output(c, state, path, err, errlen);
}

/* The oracle's TAP lines, and how many are not ok. */
static int check(const struct census *c, char *out, size_t len)
{
	FILE *f = fmemopen(out, len, "w");
	int failures;

	assert_non_null(f);
	failures = census_check(c, f);
	fclose(f);
	return failures;
}

static void test_rows_and_scopes(void **state)
{
	struct census c = { 0 };
	char err[512] = "", tap[8192];
	const struct census_row *r;

	(void)state;
	assert_int(load(&c, "smap", SMAP_NOTES ROW_GETPPID ROW_INLINE(1011) TAIL,
			err, sizeof(err)), 0, err);
	assert_int(c.count, 3, "rows: two counted, one skipped");

	r = &c.rows[0];
	assert_str(r->kernel, "6.1.0-test", "kernel from the guest's note");
	assert_int(r->ops, 1000, "getppid: the operations the guest sent");
	assert_int(r->total.clac, 3, "getppid CLAC");
	assert_int(r->total.entry_clac, 3, "getppid entry CLAC");
	assert_int(r->has_loop, 0, "a syscall row has no loop scope");

	r = &c.rows[1];
	assert_int(r->ops, 1000, "kmod ops are the loop head's executions");
	assert_int(r->loop_calls, 10, "calls of get_user_inline");
	assert_int(r->loop.stac, 1010, "STAC in the loop's scope");
	assert_int(r->loop.clac - r->loop.entry_clac, 1010,
		   "CLAC in the loop's scope, entry CLAC apart");
	assert_int(r->total.stac, 1014, "the whole interval, ioctl included");
	assert_int(r->nsites, 2, "two STAC sites");
	assert_str(r->sites[1].where, "_copy_to_user+0x2b", "a site's name");

	assert_str(c.rows[2].status,
		   "skipped: variant masked is not built into this module",
		   "a skip record");
	assert_int(check(&c, tap, sizeof(tap)), 0, tap);
	if (!strstr(tap, "ok - census 6.1.0-test smap: kmod inline: one STAC and one CLAC per access, and one pair per loop call: 1 rows, 1000 iterations"))
		fail_msg("no inline line with its counts in:\n%s", tap);
	census_free(&c);
}

/* Raw counts of census runs whose module numbered its loop heads. */
static void test_numbered_loop_heads(void **state)
{
	struct census c = { 0 };
	char err[512] = "";

	(void)state;
	assert_int(load(&c, "smap", SMAP_NOTES
			ROW_INLINE_NAMED(1011, "get_user_inline",
					 "smapbench_loop_5_1_8") TAIL,
			err, sizeof(err)), 0, err);
	assert_str(c.rows[0].status, "ok", "the numbered head is the loop's");
	assert_int(c.rows[0].ops, 1000, "its executions are the operations");
	census_free(&c);
}

/*
 * Raw counts of census runs whose module named its loop functions without
 * the smapbench_ prefix (get_user_inline), and one that counted some
 * other function: that row has no loop scope, and says which name it
 * looked for.
 */
static void test_loop_function_names(void **state)
{
	struct census c = { 0 };
	char err[512] = "";

	(void)state;
	assert_int(load(&c, "smap", SMAP_NOTES
			ROW_INLINE_NAMED(1011, "get_user_inline",
					 "smapbench_loop_get_user_inline_8") TAIL,
			err, sizeof(err)), 0, err);
	assert_str(c.rows[0].status, "ok", "the unprefixed function is the loop's");
	assert_int(c.rows[0].loop_calls, 10, "its calls are the loop's");
	census_free(&c);

	memset(&c, 0, sizeof(c));
	assert_int(load(&c, "smap", SMAP_NOTES
			ROW_INLINE_NAMED(1011, "smapbench_get_user_nopad",
					 "smapbench_loop_get_user_inline_8") TAIL,
			err, sizeof(err)), 0, err);
	if (!strstr(c.rows[0].status, "failed: smapbench_get_user_inline was not counted"))
		fail_msg("another loop's function was taken for get_user_inline's: %s",
			 c.rows[0].status);
	census_free(&c);
}

/* A loop one CLAC short in 10 iterations is not what it claims. */
static void test_oracle_catches_a_missing_clac(void **state)
{
	struct census c = { 0 };
	char err[512] = "", tap[8192];

	(void)state;
	assert_int(load(&c, "smap", SMAP_NOTES ROW_INLINE(1001) TAIL, err,
			sizeof(err)), 0, err);
	assert_int(check(&c, tap, sizeof(tap)), 1, tap);
	if (!strstr(tap, "not ok - census 6.1.0-test smap: kmod inline") ||
	    !strstr(tap, "kmod/get_user/inline/8: 1010 STAC and 1000 CLAC in 1000 iterations"))
		fail_msg("the not ok line does not name the row and counts:\n%s", tap);
	census_free(&c);
}

/* On a SMAP-off boot a syscall row with one STAC fails the off rule. */
static void test_smap_off_boot_executes_none(void **state)
{
	static const char off[] =
		"census\t1\n"
		"note\tkernel_release 6.1.0-test\n"
		"note\tsmap_cpuinfo 0\n"
		"note\tsmap_cpuid 1\n"
		"note\tkmod_smap cpuid=1 feature=0 cr4=0 abi=2\n"
		"row\tsyscall/read/tmpfs/1 syscall read tmpfs 1 0\t500\t0\t0\t0\t0\t700000\n"
		"row\tsyscall/getppid syscall getppid none 0 0\t500\t1\t1\t0\t0\t161000\n"
		"note\tfinished 2 benchmarks\n"
		"exit\t2\n";
	struct census c = { 0 };
	char err[512] = "", tap[8192];

	(void)state;
	assert_int(load(&c, "clearcpuid", off, err, sizeof(err)), 0, err);
	assert_int(check(&c, tap, sizeof(tap)), 1, tap);
	if (!strstr(tap, "not ok - census 6.1.0-test clearcpuid: syscall and bpf benchmarks: no STAC and no CLAC at all: 1 of 2 rows wrong: syscall/getppid: 1 STAC"))
		fail_msg("the off rule did not name getppid:\n%s", tap);
	census_free(&c);
}

/* What a boot that went wrong looks like, and the message for each. */
static void test_refused_outputs(void **state)
{
	static const struct {
		const char *state, *text, *says;
	} cases[] = {
		{ "clearcpuid", SMAP_NOTES ROW_GETPPID TAIL,
		  "a clearcpuid boot has 0, 1, 0" },
		{ "smap", SMAP_NOTES ROW_GETPPID "exit\t1\n",
		  "did not finish the census" },
		{ "smap", SMAP_NOTES ROW_GETPPID "note\tfinished 1\n",
		  "did not power off cleanly" },
		{ "smap", SMAP_NOTES "error\tbegin inside an interval\n" TAIL,
		  "the plugin reports: begin inside an interval" },
		{ "smap", "", "QEMU did not load the census plugin" },
		{ "smap", "key,value\n", "is not the output of the census plugin" },
		{ "smap", "census\t7\n", "census protocol 7" },
		{ "smap", SMAP_NOTES "row\tsyscall/getppid\t1\n" TAIL,
		  "fields after its kind" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct census c = { 0 };
		char err[512] = "";

		if (load(&c, cases[i].state, cases[i].text, err, sizeof(err)) != -1)
			fail_msg("case %zu loaded, expected a refusal saying '%s'",
				 i, cases[i].says);
		if (!strstr(err, cases[i].says))
			fail_msg("case %zu: expected '%s' in: %s", i,
				 cases[i].says, err);
		census_free(&c);
	}
}

/* census.csv written and read back judges the same. */
static void test_csv_round_trip(void **state)
{
	struct census c = { 0 }, back = { 0 };
	char err[512] = "", path[128], tap[8192], tap_back[8192];
	FILE *f;

	(void)state;
	assert_int(load(&c, "smap", SMAP_NOTES ROW_GETPPID ROW_INLINE(1011) TAIL,
			err, sizeof(err)), 0, err);
	snprintf(path, sizeof(path), "%s/census.csv", unit_tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int(census_write_csv(&c, f), 0, "census_write_csv");
	fclose(f);
	assert_int(census_load_csv(&back, path, err, sizeof(err)), 0, err);
	assert_int(back.count, c.count, "rows read back");
	for (size_t i = 0; i < c.count; i++) {
		assert_str(back.rows[i].name, c.rows[i].name, "name");
		assert_str(back.rows[i].status, c.rows[i].status, "status");
		assert_int(back.rows[i].ops, c.rows[i].ops, "ops");
		assert_int(back.rows[i].kinsn, c.rows[i].kinsn, "kinsn");
		assert_int(back.rows[i].loop.clac, c.rows[i].loop.clac, "loop_clac");
		assert_int(back.rows[i].has_loop, c.rows[i].has_loop, "loop columns present");
	}
	check(&c, tap, sizeof(tap));
	check(&back, tap_back, sizeof(tap_back));
	assert_str(tap_back, tap, "the oracle on census.csv");
	census_free(&c);
	census_free(&back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_scopes),
		cmocka_unit_test(test_numbered_loop_heads),
		cmocka_unit_test(test_loop_function_names),
		cmocka_unit_test(test_oracle_catches_a_missing_clac),
		cmocka_unit_test(test_smap_off_boot_executes_none),
		cmocka_unit_test(test_refused_outputs),
		cmocka_unit_test(test_csv_round_trip),
	};

	return cmocka_run_group_tests(tests, unit_make_tmpdir, unit_remove_tmpdir);
}
