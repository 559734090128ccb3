// SPDX-License-Identifier: GPL-2.0
/*
 * test_census_cost.c - the pair's cost a command's census takes when none
 * is given (census/command/census_cost.h): this machine's module figure,
 * its boot series' beta, the table's figure for its CPU model, a range,
 * or none; each on runs of tests/fixtures and data/, "this machine"
 * being the context of one of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare_dir.h"
#include "analysis/table.h"
#include "census/command/census_cost.h"
#include "measure/stats.h"
#include "rundata/atomic_dir.h"
#include "rundata/csv.h"
#include "rundata/rundir.h"
#include "unit.h"

#define FIXTURE_SMAP "tests/fixtures/run-smap"
#define FIXTURE_OFF "tests/fixtures/run-nosmap"
/* a KVM run with the bpf suite and no module (AMD EPYC 25/17/1) */
#define DATA_KVM "data/vm-20261204-185142-smap"
/* a run of the module under QEMU's emulator */
#define DATA_TCG "data/vm-6.1.0-57-amd64-20261203-173441-smap"
#define DATA_TABLE "data/table/table.csv"
#define DATA_CENSUS "data/vm-20261206-144854-census"

/* A directory under unit_tmpdir, made empty: its path in buf. */
static const char *fresh(char *buf, size_t len, const char *name)
{
	char cmd[PATH_MAX + 32];

	snprintf(buf, len, "%s/%s", unit_tmpdir, name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", buf);
	if (system(cmd) || mkdir(buf, 0700))
		fail_msg("cannot make %s: %s", buf, strerror(errno));
	return buf;
}

/* dir/name, a symbolic link to the checkout's path. */
static void link_into(const char *dir, const char *name, const char *path)
{
	char target[PATH_MAX], link[PATH_MAX + 64];

	if (!realpath(path, target))
		fail_msg("%s: %s", path, strerror(errno));
	snprintf(link, sizeof(link), "%s/%s", dir, name);
	if (symlink(target, link))
		fail_msg("symlink %s: %s", link, strerror(errno));
}

/*
 * The fixture's SMAP run with a core clock, as a run whose two
 * calibration chains agreed at 2.4 GHz records it: its figures then
 * convert to cycles. Its path in buf.
 */
static const char *clocked_fixture(char *buf, size_t len)
{
	char cmd[3 * PATH_MAX + 512], dir[PATH_MAX - 64];

	fresh(dir, sizeof(dir), "clocked");
	snprintf(buf, len, "%s/run-smap", dir);
	snprintf(cmd, sizeof(cmd),
		 "cp -r %s '%s' && printf '%%s\\n' calib_consistent,1 calib_ghz,2.4 calib_user_add_ghz,2.4 calib_user_imul_ghz,2.4 calib_user_disagreement,0 >>'%s/context.csv'",
		 FIXTURE_SMAP, buf, buf);
	assert_int(system(cmd), 0, cmd);
	return buf;
}

/* "This machine": the context of the run at path, key by key. */
static void machine_of(const char *path, struct context *m)
{
	struct run_dir run;
	char err[512];

	memset(m, 0, sizeof(*m));
	if (rundir_load_context(path, &run, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	for (size_t i = 0; i < run.context_count; i++)
		context_set(m, run.keys[i], "%s", run.values[i]);
	rundir_free(&run);
}

/* The cost of this machine, from one source alone (only) or the first. */
static void resolve_only(const char *runs, const char *table,
			 const struct context *m, int only,
			 struct census_pair_cost *c)
{
	struct census_cost_options o = {
		.table = table, .figure = table_cells()[0].id, .runs = runs,
		.machine = m, .only = only,
	};
	char err[2048] = "";

	if (census_cost_resolve(&o, c, err, sizeof(err)))
		fail_msg("census_cost_resolve: %s", err);
}

static void resolve(const char *runs, const char *table,
		    const struct context *m, struct census_pair_cost *c)
{
	resolve_only(runs, table, m, CENSUS_COST_NONE, c);
}

static void assert_has(const char *text, const char *part, const char *what)
{
	if (!strstr(text, part))
		fail_msg("%s: expected \"%s\" in \"%s\"", what, part, text);
}

/* The medians of b's repetitions, in order, into m; how many. */
static size_t medians(const struct run_bench *b, double *m, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < b->count && n < max;) {
		size_t j = i;

		while (j < b->count && b->repetition[j] == b->repetition[i])
			j++;
		m[n++] = stats_median_sorted(b->values + i, j - i);
		i = j;
	}
	return n;
}

/*
 * 1. A run of this machine with the module: inline - nopad of get_user
 * at 8 B, computed here from the repetitions' medians (their paired
 * difference, mean and t interval), in ns as the fixture has no clock.
 */
static void module_figure(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	struct run_dir run;
	const struct run_bench *in, *nop;
	double a[64], b[64], d[64], mean, half, ns;
	char dir[PATH_MAX], err[512];
	size_t n;

	(void)unused;
	fresh(dir, sizeof(dir), "module");
	link_into(dir, "run-smap", FIXTURE_SMAP);
	link_into(dir, "run-nosmap", FIXTURE_OFF);
	machine_of(FIXTURE_SMAP, &m);
	resolve(dir, "/nonexistent/table.csv", &m, &c);

	if (rundir_load(FIXTURE_SMAP, &run, err, sizeof(err)))
		fail_msg("%s", err);
	in = rundir_find(&run, "kmod/get_user/inline/8");
	nop = rundir_find(&run, "kmod/get_user/nopad/8");
	assert_non_null(in);
	assert_non_null(nop);
	n = medians(in, a, 64);
	assert_int(medians(nop, b, 64), n, "repetitions of nopad");
	for (size_t i = 0; i < n; i++)
		d[i] = a[i] - b[i];
	mean = stats_mean(d, n);
	half = stats_student_quantile(0.975, (double)(n - 1)) *
	       stats_stddev(d, n) / sqrt((double)n);
	ns = rundir_ns_per_unit(&run, in);
	rundir_free(&run);

	assert_int(c.known, 1, "known");
	assert_int(c.kind, CENSUS_COST_MODULE, "kind");
	assert_str(c.unit, "ns", "unit: the fixture has no core clock");
	assert_near(c.value, mean * ns, 1e-9 * mean * ns, "inline - nopad");
	assert_near(c.low, (mean - half) * ns, 1e-9 * mean * ns, "its low end");
	assert_near(c.high, (mean + half) * ns, 1e-9 * mean * ns, "its high end");
	assert_has(c.source, "measured on this machine by the module", "source");
	/* of the machine's two runs, the SMAP boot's */
	assert_has(c.source, "run-smap", "the SMAP run");
	context_free(&m);
}

/* The same with a core clock: in cycles, at the run's clock. */
static void module_figure_in_cycles(void **unused)
{
	struct census_pair_cost ns, cycles;
	struct context m;
	char dir[PATH_MAX], run[PATH_MAX];

	(void)unused;
	fresh(dir, sizeof(dir), "module-ns");
	link_into(dir, "run-smap", FIXTURE_SMAP);
	machine_of(FIXTURE_SMAP, &m);
	resolve(dir, "/nonexistent/table.csv", &m, &ns);
	clocked_fixture(run, sizeof(run));
	fresh(dir, sizeof(dir), "module-cycles");
	link_into(dir, "run-smap", run);
	resolve(dir, "/nonexistent/table.csv", &m, &cycles);
	assert_int(cycles.kind, CENSUS_COST_MODULE, "kind");
	assert_str(cycles.unit, "cycles", "unit");
	assert_near(cycles.ghz, 2.4, 0, "the run's clock");
	assert_near(cycles.value, 2.4 * ns.value, 1e-9 * cycles.value, "cycles = ns x GHz");
	assert_near(cycles.high, 2.4 * ns.high, 1e-9 * cycles.value, "high end");
	assert_near(census_cost_seconds(&cycles, cycles.value),
		    census_cost_seconds(&ns, ns.value), 1e-18, "the same time");
	context_free(&m);
}

/* The same run is not this machine's when the host or microcode differ. */
static void another_machine(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	char dir[PATH_MAX];

	(void)unused;
	fresh(dir, sizeof(dir), "other");
	link_into(dir, "run-smap", FIXTURE_SMAP);
	machine_of(FIXTURE_SMAP, &m);
	context_set(&m, "microcode", "0xf5");
	resolve(dir, "/nonexistent/table.csv", &m, &c);
	assert_int(c.known, 0, "known with another microcode");
	assert_int(c.kind, CENSUS_COST_NONE, "kind");
	assert_has(c.source, "no run of this machine", "why none");
	assert_has(c.source, "--pair-cycles", "what to do");

	context_set(&m, "microcode", "0xf4");
	context_set(&m, "host", "another-host");
	resolve(dir, "/nonexistent/table.csv", &m, &c);
	assert_int(c.kind, CENSUS_COST_NONE, "kind with another host");
	context_free(&m);
}

/*
 * A hypervisor may hide the microcode (cpuinfo has none: "unknown"):
 * the run and this machine agree on it still. The host must be known.
 */
static void microcode_unknown(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	char dir[PATH_MAX], run[PATH_MAX], cmd[2 * PATH_MAX];

	(void)unused;
	clocked_fixture(run, sizeof(run));
	snprintf(cmd, sizeof(cmd), "sed -i 's/^microcode,.*/microcode,unknown/' '%s/context.csv'",
		 run);
	assert_int(system(cmd), 0, cmd);
	fresh(dir, sizeof(dir), "hidden-microcode");
	link_into(dir, "run-smap", run);
	machine_of(run, &m);
	resolve(dir, "/nonexistent/table.csv", &m, &c);
	assert_int(c.kind, CENSUS_COST_MODULE, "kind with the microcode unknown on both");
	snprintf(cmd, sizeof(cmd), "sed -i 's/^host,.*/host,unknown/' '%s/context.csv'", run);
	assert_int(system(cmd), 0, cmd);
	context_set(&m, "host", "unknown");
	resolve(dir, "/nonexistent/table.csv", &m, &c);
	assert_int(c.kind, CENSUS_COST_NONE, "kind with the host unknown");
	context_free(&m);
}

/* 1 refused under TCG: emulated timings are no CPU's; said so. */
static void emulated_run(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	char dir[PATH_MAX];

	(void)unused;
	fresh(dir, sizeof(dir), "tcg");
	link_into(dir, "run", DATA_TCG);
	machine_of(DATA_TCG, &m);
	resolve(dir, "/nonexistent/table.csv", &m, &c);
	assert_true(c.kind != CENSUS_COST_MODULE);
	assert_has(c.source, "emulator (TCG)", "why the run was passed over");
	context_free(&m);
}

/* The table of the fixture runs, clocked, written to unit_tmpdir/table.csv. */
static const char *fixture_table(char *path, size_t len)
{
	char clocked[PATH_MAX];
	char *paths[] = { clocked, FIXTURE_OFF };
	struct table_options o = { 0 };
	struct table t;
	FILE *f;

	clocked_fixture(clocked, sizeof(clocked));
	assert_int(table_build(paths, 2, &o, &t), 0, "table_build");
	snprintf(path, len, "%s/table.csv", unit_tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int(table_write_csv(&t, f), 0, "table_write_csv");
	assert_int(fclose(f), 0, "fclose");
	table_free(&t);
	return path;
}

/* A cell of the row of figure in a table.csv, as a number. */
static double table_cell(const char *path, const char *figure, const char *col)
{
	struct csv_table t;
	char err[512];
	double v = NAN;

	if (csv_table_load(path, &t, err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < t.count; i++)
		if (!strcmp(csv_table_get(&t, i, "figure"), figure))
			v = strtod(csv_table_get(&t, i, col), NULL);
	csv_table_free(&t);
	return v;
}

/* 3. No run of this machine: the table's row of its CPU model. */
static void cpu_model_row(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	char dir[PATH_MAX], table[PATH_MAX];
	const char *figure = table_cells()[0].id;

	(void)unused;
	fresh(dir, sizeof(dir), "cpu-model");
	fixture_table(table, sizeof(table));
	machine_of(FIXTURE_SMAP, &m);
	context_set(&m, "host", "another-machine");
	context_set(&m, "cpu_stepping", "11");
	resolve(dir, table, &m, &c);
	assert_int(c.known, 1, "known");
	assert_int(c.kind, CENSUS_COST_CPU_MODEL, "kind");
	assert_near(c.value, table_cell(table, figure, "value"), 1e-9, "the row's value");
	assert_near(c.low, table_cell(table, figure, "ci_low"), 1e-9, "the row's low end");
	assert_near(c.high, table_cell(table, figure, "ci_high"), 1e-9, "the row's high end");
	assert_has(c.source, "another machine of this CPU model", "source");
	/* another model of the family: not this CPU's */
	context_set(&m, "cpu_model_number", "143");
	resolve(dir, table, &m, &c);
	assert_true(c.kind != CENSUS_COST_CPU_MODEL);
	context_free(&m);
}

/*
 * 4. A run of this machine without the module, the published table
 * without a pair figure of its CPU: from 0 to its bpf overhead's upper
 * end, the very figure the published table has for that run.
 */
static void range_to_bpf_bound(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	char dir[PATH_MAX];
	double high = table_cell(DATA_TABLE, "bpf_overhead_8", "ci_high");

	(void)unused;
	fresh(dir, sizeof(dir), "bound");
	link_into(dir, "run", DATA_KVM);
	machine_of(DATA_KVM, &m);
	resolve(dir, DATA_TABLE, &m, &c);
	assert_int(c.known, 1, "known");
	assert_int(c.kind, CENSUS_COST_RANGE, "kind");
	assert_true(isnan(c.value));
	assert_near(c.low, 0, 0, "low end");
	assert_near(c.high, high, 1e-3, "high end: the run's bpf upper bound");
	assert_str(c.unit, "cycles", "unit");
	assert_has(c.source, "NOT MEASURED, a range", "source");
	assert_has(c.source, "this machine's run", "where the bound is from");

	/* another machine of this CPU model: the table's bpf row */
	context_set(&m, "host", "another-machine");
	resolve(dir, DATA_TABLE, &m, &c);
	assert_int(c.kind, CENSUS_COST_RANGE, "kind, from the table");
	assert_near(c.high, high, 1e-9, "the table's bpf upper bound");
	assert_has(c.source, "bpf overhead of this CPU model", "source");
	context_free(&m);
}

/*
 * 4. Nothing of this CPU: the range of every CPU's pair figure in cycles
 * (here the one of the clocked fixture), not a figure of this CPU.
 */
static void range_of_other_cpus(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	char dir[PATH_MAX], table[PATH_MAX];
	const char *figure = table_cells()[0].id;

	(void)unused;
	fresh(dir, sizeof(dir), "others");
	fixture_table(table, sizeof(table));
	machine_of(DATA_KVM, &m);
	context_set(&m, "cpu_family", "99");
	resolve(dir, table, &m, &c);
	assert_int(c.kind, CENSUS_COST_RANGE, "kind");
	assert_true(isnan(c.value));
	assert_str(c.unit, "cycles", "unit");
	assert_near(c.low, table_cell(table, figure, "ci_low"), 1e-9, "low end");
	assert_near(c.high, table_cell(table, figure, "ci_high"), 1e-9, "high end");
	assert_has(c.source, "not this CPU's", "source");
	/* without the table: nothing at all, and how to get a figure */
	resolve(dir, "/nonexistent/table.csv", &m, &c);
	assert_int(c.known, 0, "known without a table");
	assert_has(c.source, "no table at", "why none");
	assert_has(c.source, "run-bench.sh", "what to do");
	context_free(&m);
}

/*
 * 2. A comparison of this machine's boots with beta (pair-fit.csv), and
 * no run of it with the module beside it: beta, with its interval. The
 * fixture's boots are given the kernel of the published census so that
 * compare can fit beta: what is checked here is what the census takes
 * from a comparison, not the fit. Then the order of 1, 2 and 3 with all
 * of them there.
 */
static void choice_order(void **unused)
{
	struct census_pair_cost c;
	struct context m;
	char runs[PATH_MAX], dir[PATH_MAX], a[PATH_MAX + 16], b[PATH_MAX + 16];
	char out[PATH_MAX + 16], cmd[8 * PATH_MAX], fit[PATH_MAX + 32];
	char table[PATH_MAX];
	struct compare_request req = { 0 };
	int saved, saved_err, quiet, rc;
	double beta, low, high;
	FILE *f;
	char line[256];

	(void)unused;
	fresh(runs, sizeof(runs), "boots");
	fresh(dir, sizeof(dir), "series");
	snprintf(a, sizeof(a), "%s/off", runs);
	snprintf(b, sizeof(b), "%s/on", runs);
	snprintf(cmd, sizeof(cmd),
		 "cp -r %s '%s' && cp -r %s '%s' && sed -i 's/^kernel_release,.*/kernel_release,6.1.0-57-amd64/' '%s/context.csv' '%s/context.csv'",
		 FIXTURE_OFF, a, FIXTURE_SMAP, b, a, b);
	assert_int(system(cmd), 0, cmd);
	snprintf(out, sizeof(out), "%s/compare-all", dir);
	req.who = "compare";
	req.runs_a[0] = a;
	req.runs_b[0] = b;
	req.na = req.nb = 1;
	req.out = out;
	req.census = DATA_CENSUS;
	req.no_calibration = 1;
	req.settings = compare_default_settings();
	/* what compare prints is not this test's */
	fflush(stdout);
	fflush(stderr);
	saved = dup(1);
	saved_err = dup(2);
	quiet = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && saved_err >= 0 && quiet >= 0);
	dup2(quiet, 1);
	dup2(quiet, 2);
	rc = compare_dir_write(&req);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, 1);
	dup2(saved_err, 2);
	close(saved);
	close(saved_err);
	close(quiet);
	assert_int(rc, 0, "compare");
	snprintf(fit, sizeof(fit), "%s/pair-fit.csv", out);
	f = fopen(fit, "r");
	assert_non_null(f);
	beta = low = high = NAN;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "beta,%lf", &beta);
		sscanf(line, "beta_low,%lf", &low);
		sscanf(line, "beta_high,%lf", &high);
	}
	fclose(f);
	assert_true(isfinite(beta) && low < beta && beta < high);

	machine_of(b, &m);
	resolve(dir, "/nonexistent/table.csv", &m, &c);
	assert_int(c.kind, CENSUS_COST_SERIES, "kind");
	assert_near(c.value, beta, 1e-9 * beta, "beta");
	assert_near(c.low, low, 1e-9 * beta, "its low end");
	assert_near(c.high, high, 1e-9 * beta, "its high end");
	assert_has(c.source, "by its boots", "source");
	assert_has(c.source, "compare-all/pair-fit.csv", "the file");

	/*
	 * The order, each figure there at once: beta before the table's
	 * figure for this CPU model, the module's before beta; and the
	 * table's when the comparison goes.
	 */
	fixture_table(table, sizeof(table));
	resolve(dir, table, &m, &c);
	assert_int(c.kind, CENSUS_COST_SERIES, "beta before the table's CPU model row");
	link_into(dir, "on", b);
	resolve(dir, table, &m, &c);
	assert_int(c.kind, CENSUS_COST_MODULE, "the module's before beta and the table");
	/* each alone, for predictions side by side */
	resolve_only(dir, table, &m, CENSUS_COST_SERIES, &c);
	assert_int(c.kind, CENSUS_COST_SERIES, "beta alone, the module's there too");
	assert_near(c.value, beta, 1e-9 * beta, "beta alone");
	resolve_only(dir, table, &m, CENSUS_COST_MODULE, &c);
	assert_int(c.kind, CENSUS_COST_MODULE, "the module's alone");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s/on'", out, dir);
	assert_int(system(cmd), 0, cmd);
	resolve(dir, table, &m, &c);
	assert_int(c.kind, CENSUS_COST_CPU_MODEL, "the table's without a run or beta");
	resolve_only(dir, table, &m, CENSUS_COST_SERIES, &c);
	assert_false(c.known);
	assert_int(c.kind, CENSUS_COST_NONE, "no beta: none, never the table's");
	resolve_only(dir, table, &m, CENSUS_COST_MODULE, &c);
	assert_int(c.kind, CENSUS_COST_NONE, "no module run: none, never a range");
	context_free(&m);
}

/* Given costs are taken as they are, and say so. */
static void given_cost(void **unused)
{
	struct census_cost_options o = {
		.table = DATA_TABLE, .figure = table_cells()[0].id,
		.pair_cycles = 30, .pair_low = 10, .pair_high = 60, .ghz = 3,
	};
	struct census_pair_cost c;
	char err[512];

	(void)unused;
	assert_int(census_cost_resolve(&o, &c, err, sizeof(err)), 0, "resolve");
	assert_int(c.kind, CENSUS_COST_GIVEN, "kind");
	assert_near(c.value, 30, 0, "value");
	assert_near(census_cost_seconds(&c, c.value), 10e-9, 1e-18, "30 cycles at 3 GHz");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(module_figure),
		cmocka_unit_test(module_figure_in_cycles),
		cmocka_unit_test(another_machine),
		cmocka_unit_test(microcode_unknown),
		cmocka_unit_test(emulated_run),
		cmocka_unit_test(cpu_model_row),
		cmocka_unit_test(range_to_bpf_bound),
		cmocka_unit_test(range_of_other_cpus),
		cmocka_unit_test(choice_order),
		cmocka_unit_test(given_cost),
	};

	return cmocka_run_group_tests(tests, unit_make_tmpdir, unit_remove_tmpdir);
}
