// SPDX-License-Identifier: GPL-2.0
/*
 * test_workload.c - what SMAP costs a command, measured against predicted
 * (census/command/census_workload.h): which census counts the command of
 * a row, the prediction and its verdict, and workload.csv/workload.md
 * from a published census (data/, `git status`) and a comparison's
 * command row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "census/command/census_workload.h"
#include "census/command/census_workload_read.h"
#include "measure/sha256.h"
#include "rundata/csv.h"
#include "suites/command.h"
#include "unit.h"

#define CENSUS_GIT "data/vm-20261206-051445-census-git"

/* The op of the row `run --command text` makes. */
static void op_of(const char *text, char *op, size_t len)
{
	struct command_spec c;
	char err[256];

	assert_int(command_spec_init(&c, text, err, sizeof(err)), 0, text);
	snprintf(op, len, "%s", c.op);
}

static void which_census_counts_the_command(void **state)
{
	static const struct {
		const char *census, *text;
		int same;
	} cases[] = {
		{ "git status", "git status", 1 },
		{ "sh -c 'git status'", "git status", 1 },
		{ "/bin/sh -c 'make -j2 all'", "make -j2 all", 1 },
		/* the census's quoting of a quote: 'it'\''s' */
		{ "sh -c 'echo it'\\''s'", "echo it's", 1 },
		{ "sh -c \"ls -l\"", "ls -l", 1 },
		{ "git status", "git  status", 0 },
		{ "sh -c 'git status' extra", "git status", 0 },
		{ "sh -c 'git diff'", "git status", 0 },
		{ "sh -c 'unterminated", "unterminated", 0 },
	};
	char op[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		op_of(cases[i].text, op, sizeof(op));
		assert_int(workload_same_command(cases[i].census, op), cases[i].same,
			   cases[i].census);
	}
}

static void predicted_from_pairs_and_cost(void **state)
{
	struct workload_prediction p = {
		.known = 1, .cost = 30, .cost_low = 20, .cost_high = 40,
		.unit = "cycles", .ghz = 2,
	};

	(void)state;
	workload_predict(&p, 1000, 12000, 13000);
	assert_near(p.ns, 15000, 1e-9, "1000 pairs x 30 cycles at 2 GHz");
	assert_near(p.ns_low, 10000, 1e-9, "its low end");
	assert_near(p.ns_high, 20000, 1e-9, "its high end");
	assert_str(p.verdict, "agree", "the intervals overlap");
	workload_predict(&p, 1000, 20000.5, 30000);
	assert_str(p.verdict, "disagree", "measured above the prediction");
	workload_predict(&p, 1000, 1000, 9999.5);
	assert_str(p.verdict, "disagree", "measured below it");
	workload_predict(&p, 1000, NAN, NAN);
	assert_str(p.verdict, "unknown", "no measured interval");
	assert_near(p.ns, 15000, 1e-9, "a prediction all the same");
	p.ghz = 0;
	workload_predict(&p, 1000, 12000, 13000);
	assert_true(isnan(p.ns));
	assert_str(p.verdict, "unknown", "cycles without a clock");
	snprintf(p.unit, sizeof(p.unit), "ns");
	p.cost = 5, p.cost_low = 4, p.cost_high = 6;
	workload_predict(&p, 1000, 5500, 7000);
	assert_near(p.ns_high, 6000, 1e-9, "ns need no clock");
	assert_str(p.verdict, "agree", "in ns");
	p.known = 0;
	workload_predict(&p, 1000, 5500, 7000);
	assert_str(p.verdict, "unknown", "no cost");
}

/* A comparison directory holding compare.csv with the row of text, its numbers as given. */
static void comparison_cells(const char *dir, const char *text, const char *delta,
			     const char *delta_ns, const char *low, const char *high)
{
	char path[256], op[128];
	FILE *f;

	op_of(text, op, sizeof(op));
	snprintf(path, sizeof(path), "mkdir -p %s", dir);
	assert_int(system(path), 0, "mkdir");
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "name,suite,op,variant,size,batch,unit,delta,delta_ns,ci_low,ci_high,verdict\n"
		"syscall/getppid,syscall,getppid,none,0,0,ticks,10,5,8,12,slower\n"
		"command/%s,command,%s,none,0,0,ticks,%s,%s,%s,%s,slower\n",
		op, op, delta, delta_ns, low, high);
	fclose(f);
}

/* The same, in ticks at 2 per ns: delta_ns is half of delta. */
static void comparison(const char *dir, const char *text, double delta,
		       double low, double high)
{
	char cells[4][32];

	snprintf(cells[0], sizeof(cells[0]), "%.17g", delta);
	snprintf(cells[1], sizeof(cells[1]), "%.17g", delta / 2);
	snprintf(cells[2], sizeof(cells[2]), "%.17g", low);
	snprintf(cells[3], sizeof(cells[3]), "%.17g", high);
	comparison_cells(dir, text, cells[0], cells[1], cells[2], cells[3]);
}

/* Of the census's first row: 6.1's SMAP-on boot. */
static double census_number(const char *column)
{
	struct csv_table t;
	char err[256];
	double v;

	assert_int(csv_table_load(CENSUS_GIT "/census.csv", &t, err, sizeof(err)), 0, err);
	assert_str(csv_table_get(&t, 0, "kernel"), "6.1.0-57-amd64", "the first row");
	v = csv_number(csv_table_get(&t, 0, column));
	csv_table_free(&t);
	return v;
}

static void from_a_census_and_a_comparison(void **state)
{
	char dir[128], err[512], path[256];
	struct workload_options o = { .census = CENSUS_GIT, .no_plots = 1,
				       .kernel = "6.1.0-57-amd64" };
	struct workload w;
	double pairs = census_number("model_pairs"), ghz = census_number("ghz");
	double low = census_number("pair_cost_low"), high = census_number("pair_cost_high");
	struct csv_table t;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/agree", unit_tmpdir);
	/* measured in ticks, twice the ns: the middle of the prediction */
	comparison(dir, "git status", 2 * pairs * 30 / ghz, 2 * pairs * low / ghz,
		   2 * pairs * high / ghz);
	o.compare = dir;
	assert_int(workload_build(&o, &w, err, sizeof(err)), 0, err);
	assert_near(w.pairs, pairs, 0, "the census's model_pairs");
	assert_str(w.kernel, "6.1.0-57-amd64", "the SMAP-on boot of that kernel");
	assert_near(w.measured_ns, pairs * 30 / ghz, 1e-6, "B - A in ns");
	assert_near(w.measured_low_ns, pairs * low / ghz, 1e-6, "its interval, converted as B - A");
	assert_true(w.p[WORKLOAD_CENSUS].known);
	assert_near(w.p[WORKLOAD_CENSUS].ns_low, pairs * low / ghz, 1e-6,
		    "the census's cost, its interval");
	assert_str(w.p[WORKLOAD_CENSUS].verdict, "agree", "same interval");
	assert_false(w.p[WORKLOAD_SERIES].known);
	assert_non_null(strstr(w.p[WORKLOAD_SERIES].source, "not fitted"));
	assert_false(w.p[WORKLOAD_MODULE].known);
	assert_str(w.p[WORKLOAD_MODULE].verdict, "unknown", "no runs");
	assert_int(workload_write(&o, &w, err, sizeof(err)), 0, err);
	snprintf(path, sizeof(path), "%s/workload.csv", dir);
	assert_int(csv_table_load(path, &t, err, sizeof(err)), 0, err);
	assert_int(t.count, WORKLOAD_SOURCES, "a row per pair cost");
	assert_str(csv_table_get(&t, 2, "source"), "census", "the third");
	assert_str(csv_table_get(&t, 2, "verdict"), "agree", "its verdict");
	assert_str(csv_table_get(&t, 0, "verdict"), "unknown", "the module's");
	csv_table_free(&t);
	snprintf(path, sizeof(path), "grep -q 'copy_user_enhanced_fast_string' %s/workload.md", dir);
	assert_int(system(path), 0, "workload.md names the census's call sites");

	/* ten times what the census predicts: a finding */
	snprintf(dir, sizeof(dir), "%s/disagree", unit_tmpdir);
	comparison(dir, "git status", 20 * pairs * 30 / ghz, 20 * pairs * low / ghz * 1.01,
		   20 * pairs * high / ghz);
	o.compare = dir;
	assert_int(workload_build(&o, &w, err, sizeof(err)), 0, err);
	assert_str(w.p[WORKLOAD_CENSUS].verdict, "disagree", "ten times more");

	/* a census of another command: refused unless --force */
	snprintf(dir, sizeof(dir), "%s/other", unit_tmpdir);
	comparison(dir, "git diff", 1, 0, 2);
	o.compare = dir;
	assert_int(workload_build(&o, &w, err, sizeof(err)), -2, "another command");
	assert_non_null(strstr(err, "not the command of"));
	o.force = 1;
	assert_int(workload_build(&o, &w, err, sizeof(err)), 0, err);
	o.force = 0;

	/* a comparison without a command row, a kernel the census has not */
	snprintf(dir, sizeof(dir), "%s/agree", unit_tmpdir);
	o.compare = dir;
	o.kernel = "6.12.1";
	assert_int(workload_build(&o, &w, err, sizeof(err)), -2, "another kernel");
	assert_non_null(strstr(err, "6.1.0-57-amd64"));
	o.kernel = NULL;
	assert_int(workload_build(&o, &w, err, sizeof(err)), -2, "two kernels, none named");
	assert_non_null(strstr(err, "--kernel"));
	o.compare = "tests/fixtures/run-smap";
	assert_int(workload_build(&o, &w, err, sizeof(err)), -2, "no compare.csv");
}

/*
 * The word of `sh -c "...\` ends at the command's end: a backslash last
 * in the text escapes nothing, so the quote is unterminated. Bytes after
 * the terminator that would close it (as a heap block's neighbour might)
 * are not read.
 */
static void sh_c_text_ends_at_the_command(void **state)
{
	static const char command[] = "sh -c \"x\\\0\"";
	char text[64], small[4];

	(void)state;
	assert_int(workload_sh_c_text(command, text, sizeof(text)), 0,
		   "a backslash last in an unterminated \"...\"");
	assert_int(workload_sh_c_text("sh -c 'abcdef'", small, sizeof(small)), 1,
		   "a word longer than the buffer");
	assert_str(small, "abc", "cut to it");
	assert_int(workload_sh_c_text("sh -c", text, sizeof(text)), 0, "no word");
}

/* In "...", a backslash before \, $, ` or " is that byte; $ and ` alone expand. */
static void sh_c_text_escapes_in_double_quotes(void **state)
{
	char text[64];

	(void)state;
	assert_int(workload_sh_c_text("sh -c \"a\\\\b\\$c\\`d\"", text, sizeof(text)), 1,
		   "\\\\, \\$ and \\` in \"...\"");
	assert_str(text, "a\\b$c`d", "the bytes they escape");
	assert_int(workload_sh_c_text("sh -c \"$HOME\"", text, sizeof(text)), 0,
		   "an expansion");
}

/*
 * compare.csv's numbers read as the run reader reads a run's
 * (csv_number): an end below the smallest double is 0 and one above the
 * largest infinite, as "inf" is, not unknown; a conversion to ns that
 * such a delta makes 0 converts nothing.
 */
static void numbers_out_of_range(void **state)
{
	char dir[128], err[512], high[32];
	struct workload_options o = { .census = CENSUS_GIT, .no_plots = 1,
				       .kernel = "6.1.0-57-amd64" };
	struct workload w;
	double pairs = census_number("model_pairs"), ghz = census_number("ghz");

	(void)state;
	/* from 0 to twice the census's high end, in ticks at 2 per ns */
	snprintf(high, sizeof(high), "%.17g", 4 * pairs * census_number("pair_cost_high") / ghz);
	snprintf(dir, sizeof(dir), "%s/underflow", unit_tmpdir);
	comparison_cells(dir, "git status", "10", "5", "1e-400", high);
	o.compare = dir;
	assert_int(workload_build(&o, &w, err, sizeof(err)), 0, err);
	assert_near(w.measured_low_ns, 0, 0, "1e-400 ticks");
	assert_str(w.p[WORKLOAD_CENSUS].verdict, "agree", "an interval from 0");

	snprintf(dir, sizeof(dir), "%s/overflow", unit_tmpdir);
	comparison_cells(dir, "git status", "10", "5", "8", "1e999");
	o.compare = dir;
	assert_int(workload_build(&o, &w, err, sizeof(err)), 0, err);
	assert_true(isinf(w.measured_high_ns) && w.measured_high_ns > 0);
	assert_near(w.measured_low_ns, 4, 0, "the other end converted");

	snprintf(dir, sizeof(dir), "%s/no-scale", unit_tmpdir);
	comparison_cells(dir, "git status", "1e999", "5", "8", "12");
	o.compare = dir;
	assert_int(workload_build(&o, &w, err, sizeof(err)), 0, err);
	assert_true(isnan(w.measured_ns) && isnan(w.measured_low_ns) &&
		    isnan(w.measured_high_ns));
	assert_str(w.p[WORKLOAD_CENSUS].verdict, "unknown", "no ns per tick");
}

/* A census.csv or sites.csv without the columns it reads: refused, not a crash. */
static void census_without_its_columns(void **state)
{
	char dir[128], census[128], path[256], err[512];
	struct workload_options o = { .census = census, .no_plots = 1, .force = 1 };
	struct workload w;
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/columns", unit_tmpdir);
	comparison(dir, "git status", 10, 8, 12);
	o.compare = dir;
	snprintf(census, sizeof(census), "%s/columns-census", unit_tmpdir);
	snprintf(path, sizeof(path), "mkdir -p %s", census);
	assert_int(system(path), 0, "mkdir");
	snprintf(path, sizeof(path), "%s/census.csv", census);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("command,model_pairs\ngit status,5\n", f);
	fclose(f);
	assert_int(workload_build(&o, &w, err, sizeof(err)), -2, "no kernel, no smap_state");
	assert_non_null(strstr(err, "no census of a command"));

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("command,model_pairs,kernel,smap_state\ngit status,5,6.1,smap\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/sites.csv", census);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("function\ncopy_user_generic\n", f);
	fclose(f);
	assert_int(workload_build(&o, &w, err, sizeof(err)), 0, err);
	assert_int(workload_write(&o, &w, err, sizeof(err)), 0, err);
	snprintf(path, sizeof(path), "grep -q 'no call sites to name.*lacks' %s/workload.md", dir);
	assert_int(system(path), 0, "workload.md says the sites cannot be named");
}

/* A comparison of two command rows and no name column: said, not "(null)". */
static void two_command_rows_without_names(void **state)
{
	char dir[128], path[256], err[512] = "";
	struct workload w;
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/unnamed", unit_tmpdir);
	snprintf(path, sizeof(path), "mkdir -p %s", dir);
	assert_int(system(path), 0, "mkdir");
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("suite,delta\ncommand,1\nsyscall,2\ncommand,3\n", f);
	fclose(f);
	memset(&w, 0, sizeof(w));
	assert_int(workload_read_measured(dir, &w, err, sizeof(err)), -2, err);
	assert_non_null(strstr(err, "two command rows, lines 2 and 4 (unnamed, unnamed)"));
	assert_null(strstr(err, "(null)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(which_census_counts_the_command),
		cmocka_unit_test(predicted_from_pairs_and_cost),
		cmocka_unit_test(from_a_census_and_a_comparison),
		cmocka_unit_test(numbers_out_of_range),
		cmocka_unit_test(census_without_its_columns),
		cmocka_unit_test(sh_c_text_ends_at_the_command),
		cmocka_unit_test(sh_c_text_escapes_in_double_quotes),
		cmocka_unit_test(two_command_rows_without_names),
	};

	return cmocka_run_group_tests(tests, unit_make_tmpdir, unit_remove_tmpdir);
}
