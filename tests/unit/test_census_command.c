// SPDX-License-Identifier: GPL-2.0
/*
 * test_census_command.c - the census of a command without QEMU: the
 * plugin's protocol-2 fields, the baseline's subtraction, the sites and
 * system calls, the estimate, the pair's cost from a table.csv, and the
 * running of a program with a timeout. Stage 43-census-command runs the
 * same code on real boots.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "census/census.h"
#include "census/command/census_command.h"
#include "census/command/census_cost.h"
#include "census/command/census_spawn.h"
#include "measure/spawn.h"
#include "rundata/atomic_dir.h"
#include "rundata/csv.h"

#define NOTES(state_cpuinfo)						\
	"census\t2\n"							\
	"note\tkernel_release 6.1.0-test\n"				\
	"note\tcmdline console=ttyS0\n"					\
	"note\tsmap_cpuinfo " #state_cpuinfo "\n"			\
	"note\tsmap_cpuid 1\n"						\
	"note\tkmod_smap none\n"					\
	"note\tcommand prog arg\n"

/*
 * The baseline: 300 STAC, 40 of them in execve's copies, 6 window-opening
 * openat calls' names, 4 of rseq (2 updates); 50 SYSCALLs.
 */
#define BASELINE_ROW							\
	"row\tcommand/baseline command baseline none 0 0\t1\t300\t310\t10\t0\t100000" \
	"\ts:copy_user+0=60\ts:strncpy_from_user+0x5e=6\ts:__get_user_8+0x19=234" \
	"\tu:syscall=50\ty:execve=1\ty:openat=6\ty:[rseq]=2"		\
	"\tx:copy_user+0@execve=40\tx:copy_user+0@read=20"		\
	"\tx:strncpy_from_user+0x5e@openat=6"				\
	"\tx:__get_user_8+0x19@execve=230\tx:__get_user_8+0x19@[rseq]=4\n"

/*
 * COMMAND: 1000 reads of one window each on top of the baseline's, 10
 * more openat, 9 more rseq windows (3 updates), 3 in a page fault.
 */
#define COMMAND_ROW							\
	"row\tcommand/command command command none 0 0\t1\t1322\t1345\t23\t0\t900000" \
	"\ts:copy_user+0=1060\ts:strncpy_from_user+0x5e=16\ts:__get_user_8+0x19=246" \
	"\tu:syscall=1066\ty:execve=1\ty:openat=16\ty:read=1000\ty:[rseq]=5" \
	"\tx:copy_user+0@execve=40\tx:copy_user+0@read=1020"		\
	"\tx:strncpy_from_user+0x5e@openat=16"				\
	"\tx:__get_user_8+0x19@execve=230\tx:__get_user_8+0x19@[rseq]=13" \
	"\tx:__get_user_8+0x19@-=3\n"

#define TAIL								\
	"note\tbaseline_seconds 0.010\n"				\
	"note\tbaseline_context_switches 2\n"				\
	"note\tcommand_seconds 1.500\n"					\
	"note\tcommand_context_switches 5\n"				\
	"note\tfinished 2 programs\n"					\
	"exit\t2\n"

/* SMAP off: the same calls, no STAC at all. */
#define OFF_ROWS							\
	"row\tcommand/baseline command baseline none 0 0\t1\t0\t10\t10\t0\t100000" \
	"\tu:syscall=50\ty:execve=1\n"					\
	"row\tcommand/command command command none 0 0\t1\t0\t23\t23\t0\t900000" \
	"\tu:syscall=1066\ty:execve=1\ty:read=1000\n"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		fail_msg("cannot write %s", path);
}

static void load(struct census *c, const char *state, const char *name,
		 const char *text, char *path, size_t len)
{
	char err[512] = "";

	snprintf(path, len, "%s/%s", unit_tmpdir, name);
	write_file(path, text);
	assert_int(census_load_plugin_output(c, state, path, err, sizeof(err)),
		   0, err);
}

/* Field column of the first record of file whose first field... is key. */
static const char *cell(struct csv_table *t, const char *path, size_t row,
			const char *column)
{
	char err[512] = "";
	const char *v;

	if (!t->text)
		assert_int(csv_table_load(path, t, err, sizeof(err)), 0, err);
	v = csv_table_get(t, row, column);
	if (!v)
		fail_msg("%s has no column %s or row %zu", path, column, row);
	return v;
}

static void test_protocol_2_fields(void **state)
{
	struct census c = { 0 };
	char path[256];
	const struct census_row *r;

	(void)state;
	load(&c, "smap", "smap.tsv", NOTES(1) BASELINE_ROW COMMAND_ROW TAIL,
	     path, sizeof(path));
	assert_int(c.count, 2, "two rows");
	r = &c.rows[1];
	assert_str(r->name, "command/command", "the row's name");
	assert_int(r->has_syscalls, 1, "u:syscall read");
	assert_int(r->user_syscalls, 1066, "SYSCALLs in user mode");
	assert_int(r->nsyscalls, 4, "y: fields");
	assert_str(r->syscalls[3].name, "[rseq]", "a bracketed name");
	assert_int(r->nvias, 6, "x: fields");
	assert_str(r->vias[2].where, "strncpy_from_user+0x5e", "site before the @");
	assert_str(r->vias[2].syscall, "openat", "system call after the @");
	assert_str(r->vias[5].syscall, "-", "no system call");
	census_free(&c);
}

static void test_a_site_function(void **state)
{
	char name[64];

	(void)state;
	census_site_function("copy_user_enhanced_fast_string+0", name, sizeof(name));
	assert_str(name, "copy_user_enhanced_fast_string", "offset cut");
	census_site_function("p9_client_read[9pnet]+0x40", name, sizeof(name));
	assert_str(name, "p9_client_read[9pnet]", "a module's function");
	census_site_function("ffffffffc0001234", name, sizeof(name));
	assert_str(name, "ffffffffc0001234", "an address stays");
}

/* The directory's files, from a SMAP and a SMAP-off boot. */
static void test_command_directory(void **state)
{
	struct census c = { 0 };
	struct census_boot_file files[2];
	char smap[256], off[256], err[1024] = "", written[4096], path[4300],
	     marker[64];
	char *argv[] = { "prog", "arg with space", NULL };
	struct census_native native = {
		.runs = 3, .seconds = { 0.9, 1.0, 1.2 }, .median = 1.0,
		.min = 0.9, .max = 1.2, .context_switches = 4,
	};
	struct census_pair_cost cost = {
		.known = 1, .value = 100, .low = 80, .high = 120,
		.has_interval = 1, .unit = "ns", .source = "test",
		.ghz_source = "none needed",
	};
	struct census_command_inputs in = {
		.argv = argv, .cwd = "/somewhere", .native = &native,
		.cost = &cost, .top = 10, .timeout = 60,
	};
	struct csv_table census = { 0 }, sites = { 0 }, calls = { 0 };
	FILE *report;
	char text[16384];
	size_t n;

	(void)state;
	load(&c, "smap", "smap.tsv", NOTES(1) BASELINE_ROW COMMAND_ROW TAIL,
	     smap, sizeof(smap));
	load(&c, "clearcpuid", "off.tsv", NOTES(0) OFF_ROWS TAIL, off, sizeof(off));
	files[0] = (struct census_boot_file){ .path = smap, .seconds = 20 };
	files[1] = (struct census_boot_file){ .path = off, .seconds = 18 };
	/* no gnuplot needed: the plot is the only part left out without it */
	setenv("SMAPBENCH_GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int(census_command_write_dir(&c, files, 2, &in, unit_tmpdir, written,
					    sizeof(written), NULL, err,
					    sizeof(err)), 0, err);
	if (!strstr(written, "-census-prog"))
		fail_msg("the directory's name ends with the program's: %s", written);
	atomic_dir_marker(written, marker, sizeof(marker));
	assert_str(marker, "census-command", "its kind");

	snprintf(path, sizeof(path), "%s/census.csv", written);
	assert_str(cell(&census, path, 0, "command"), "prog 'arg with space'",
		   "the command, quoted for a shell");
	assert_str(cell(&census, path, 0, "pairs"), "1022", "STAC above the baseline");
	assert_str(cell(&census, path, 0, "rseq_pairs"), "9", "rseq's share");
	assert_str(cell(&census, path, 0, "clac"), "1022", "CLAC above, no entry CLAC");
	assert_str(cell(&census, path, 0, "system_calls"), "1016", "SYSCALLs above");
	assert_str(cell(&census, path, 0, "context_switches"), "3",
		   "the guest's context switches above the baseline's");
	assert_str(cell(&census, path, 0, "native_context_switches"), "4",
		   "the native ones");
	/*
	 * rseq as natively: 13 windows in 5 updates in the guest, 4 context
	 * switches natively: 1022 - 9 + 2.6 * 4 = 1023.4 pairs
	 */
	assert_near(atof(cell(&census, path, 0, "native_rseq_pairs")), 10.4, 1e-9,
		    "windows per update times the native context switches");
	assert_near(atof(cell(&census, path, 0, "model_pairs")), 1023.4, 1e-9,
		    "the pairs the estimate takes");
	/* 1023.4 pairs of 100 ns in 1 s; 80 ns over 1.2 s, 120 ns over 0.9 s */
	assert_near(atof(cell(&census, path, 0, "estimate_fraction")),
		    1023.4 * 100e-9 / 1.0, 1e-9, "the estimate");
	assert_near(atof(cell(&census, path, 0, "estimate_fraction_low")),
		    1023.4 * 80e-9 / 1.2, 1e-9, "its low end");
	assert_near(atof(cell(&census, path, 0, "estimate_fraction_high")),
		    1023.4 * 120e-9 / 0.9, 1e-9, "its high end");
	assert_str(cell(&census, path, 1, "smap_state"), "clearcpuid", "second boot");
	assert_str(cell(&census, path, 1, "pairs"), "0", "SMAP off: none");
	assert_str(cell(&census, path, 1, "estimate_fraction"), "0", "nor a cost");

	snprintf(path, sizeof(path), "%s/sites.csv", written);
	assert_str(cell(&sites, path, 0, "function"), "copy_user", "first by pairs");
	assert_str(cell(&sites, path, 0, "pairs"), "1000", "its pairs");
	assert_str(cell(&sites, path, 0, "via_1"), "read", "reached from read");
	assert_str(cell(&sites, path, 0, "via_1_pairs"), "1000",
		   "COMMAND's reads minus the baseline's");
	assert_str(cell(&sites, path, 0, "via_2"), "", "execve cancels out");
	assert_str(cell(&sites, path, 1, "function"), "__get_user_8", "second");
	assert_str(cell(&sites, path, 1, "via_1"), "[rseq]", "rseq first");
	assert_str(cell(&sites, path, 1, "via_1_pairs"), "9", "its pairs");
	assert_str(cell(&sites, path, 1, "via_2"), "-", "then a fault");

	snprintf(path, sizeof(path), "%s/syscalls.csv", written);
	assert_str(cell(&calls, path, 0, "system_call"), "read", "first by pairs");
	assert_str(cell(&calls, path, 0, "calls"), "1000", "its calls");
	assert_str(cell(&calls, path, 0, "pairs"), "1000", "its pairs");

	snprintf(path, sizeof(path), "%s/report.md", written);
	report = fopen(path, "r");
	assert_non_null(report);
	n = fread(text, 1, sizeof(text) - 1, report);
	text[n] = '\0';
	fclose(report);
	if (!strstr(text, "**This is a model, not a measurement.**"))
		fail_msg("report.md does not say the estimate is a model:\n%s", text);
	if (!strstr(text, "| 1 | <code>copy\\_user</code> | 1000 | 97.8% | read: 1000 |"))
		fail_msg("report.md lacks the top site with its system call:\n%s", text);
	snprintf(path, sizeof(path), "%s/raw/6.1.0-test-smap.tsv", written);
	assert_int(access(path, R_OK), 0, "the plugin's output is kept");
	csv_table_free(&census);
	csv_table_free(&sites);
	csv_table_free(&calls);
	census_free(&c);
}

/* Output of a protocol-1 plugin cannot make a command's census. */
static void test_protocol_1_refused(void **state)
{
	struct census c = { 0 };
	struct census_boot_file file;
	struct census_native native = { .median = 1, .min = 1, .max = 1 };
	struct census_pair_cost cost = { 0 };
	char *argv[] = { "prog", NULL };
	struct census_command_inputs in = {
		.argv = argv, .cwd = "/", .native = &native, .cost = &cost,
		.top = 10,
	};
	char path[256], err[1024] = "", written[4096];

	(void)state;
	load(&c, "smap", "old.tsv", NOTES(1)
	     "row\tcommand/baseline command baseline none 0 0\t1\t3\t3\t0\t0\t9\n"
	     "row\tcommand/command command command none 0 0\t1\t5\t5\t0\t0\t9\n"
	     TAIL, path, sizeof(path));
	file = (struct census_boot_file){ .path = path };
	assert_int(census_command_write_dir(&c, &file, 1, &in, unit_tmpdir, written,
					    sizeof(written), NULL, err,
					    sizeof(err)), -1, "refused");
	if (!strstr(err, "protocol 2"))
		fail_msg("the reason names the protocol: %s", err);
	census_free(&c);
}

static void test_cost_from_a_table(void **state)
{
	struct census_cost_options o = { .figure = "pair_get_user_8" };
	struct census_pair_cost c;
	char path[256], err[1024] = "";

	(void)state;
	snprintf(path, sizeof(path), "%s/table.csv", unit_tmpdir);
	write_file(path,
		   "host,cpu_model,cpu_family,cpu_model_number,cpu_stepping,microcode,kernel_release,virt,counter,figure,benchmark,value,ci_low,ci_high,unit,repetitions,relative,pairs_per_op,run_smap,run_off,calibration\n"
		   "a,CPU A,6,1,1,0x1,6.1,bare,rdtscp,pair_get_user_8,kmod/get_user/inline/8 - nopad,30,28,33,cycles,5,,,r,,\"add r,r 3.000 GHz, imul r,r 3.100 GHz (3.2% apart)\"\n"
		   "a,CPU A,6,1,1,0x1,6.1,bare,rdtscp,bpf_overhead_8,bpf/overhead/raw_tp/8,200,190,210,cycles,5,,,r,,\"add r,r 3.000 GHz, imul r,r 3.100 GHz (3.2% apart)\"\n"
		   "b,CPU B,6,2,1,0x1,6.1,bare,rdtscp,pair_get_user_8,kmod/get_user/inline/8 - nopad,12,,,ns,2,,,r,,ns only: the calibration chains disagree\n"
		   "c,CPU C,6,2,1,0x1,6.1,bare,rdtscp,pair_get_user_8,x,12,,,ns,5,,,r,,x\n"
		   "c,CPU C,6,2,1,0x1,6.12,bare,rdtscp,pair_get_user_8,x,11,,,ns,5,,,r,,x\n");
	o.table = path;

	o.cpu_row = "a";
	assert_int(census_cost_resolve(&o, &c, err, sizeof(err)), 0, err);
	assert_near(c.value, 30, 0, "the figure");
	assert_near(c.low, 28, 0, "its interval");
	assert_near(c.ghz, 3.05, 1e-12, "the mean of the row's two chains");
	assert_near(census_cost_seconds(&c, 30), 30 / 3.05e9, 1e-20, "cycles in seconds");

	o.cpu_row = "b";
	assert_int(census_cost_resolve(&o, &c, err, sizeof(err)), 0, err);
	assert_str(c.unit, "ns", "a row in ns");
	assert_int(c.has_interval, 0, "without an interval");
	assert_near(census_cost_seconds(&c, 12), 12e-9, 1e-20, "ns in seconds");

	o.cpu_row = "c";
	assert_int(census_cost_resolve(&o, &c, err, sizeof(err)), -2, "two kernels");
	if (!strstr(err, "HOST:KERNEL"))
		fail_msg("the message says how to name one: %s", err);
	o.cpu_row = "c:6.12";
	assert_int(census_cost_resolve(&o, &c, err, sizeof(err)), 0, err);
	assert_near(c.value, 11, 0, "the named kernel's");

	o.cpu_row = "nobody";
	assert_int(census_cost_resolve(&o, &c, err, sizeof(err)), -2, "no such host");
	if (!strstr(err, "no row of machine 'nobody'"))
		fail_msg("the message names the machine: %s", err);
	o.cpu_row = "a";
	o.figure = "pair_sigframe_field";
	assert_int(census_cost_resolve(&o, &c, err, sizeof(err)), -2, "no such figure");
	if (!strstr(err, "it has: pair_get_user_8, bpf_overhead_8"))
		fail_msg("the message lists the row's figures: %s", err);
}

static void test_running_a_program(void **state)
{
	char *fail_argv[] = { "sh", "-c", "exit 3", NULL };
	char *sleep_argv[] = { "sleep", "5", NULL };
	char sh[4096], sleep_path[4096], why[256], text[256];
	struct census_program p = { .stdin_fd = -1, .output_fd = -1 };
	struct census_outcome o;

	(void)state;
	assert_int(spawn_find_program("sh", "/nonexistent:/bin:/usr/bin", sh,
				       sizeof(sh)), 0, "sh in PATH");
	assert_int(spawn_find_program("no-such-program-here", "/bin:/usr/bin",
				       why, sizeof(why)), -1, "a missing one");
	assert_int(errno, ENOENT, "not found");
	p.path = sh;
	p.argv = fail_argv;
	assert_int(census_run_program(&p, &o, why, sizeof(why)), 0, why);
	assert_int(census_outcome_ok(&o), 0, "exit 3 is a failure");
	census_outcome_text(&o, 0, text, sizeof(text));
	assert_str(text, "exited with status 3", "said so");

	assert_int(spawn_find_program("sleep", "/bin:/usr/bin", sleep_path,
				       sizeof(sleep_path)), 0, "sleep in PATH");
	p.path = sleep_path;
	p.argv = sleep_argv;
	p.timeout = 0.3;
	p.own_group = 1;
	assert_int(census_run_program(&p, &o, why, sizeof(why)), 0, why);
	assert_int(o.timed_out, 1, "killed at the timeout");
	if (o.seconds > 3)
		fail_msg("the timeout of 0.3 s took %.1f s", o.seconds);

	p.path = "/nonexistent/program";
	p.timeout = 0;
	assert_int(census_run_program(&p, &o, why, sizeof(why)), 0, why);
	assert_int(o.exec_errno, ENOENT, "execve's error comes back");
}

/* Two files with the same bytes. */
static void assert_same_file(const char *a, const char *b)
{
	char ta[32768], tb[32768];
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	size_t na, nb;

	if (!fa || !fb)
		fail_msg("cannot read %s or %s", a, b);
	na = fread(ta, 1, sizeof(ta), fa);
	nb = fread(tb, 1, sizeof(tb), fb);
	fclose(fa);
	fclose(fb);
	if (na != nb || memcmp(ta, tb, na))
		fail_msg("%s and %s differ", a, b);
}

/* The directory drawn again from its raw/ and context.csv is the same. */
static void test_redraw(void **state)
{
	static const char *const files[] = {
		"census.csv", "sites.csv", "syscalls.csv", "context.csv",
		"report.md", "plots/census-sites.dat", "raw/6.1.0-test-smap.tsv",
	};
	struct census c = { 0 };
	struct census_boot_file file;
	char smap[256], err[1024] = "", first[4096], again[4096], out[512],
	     a[8192], b[8192];
	char *argv[] = { "prog", "a'b", NULL };
	struct census_native native = {
		.runs = 2, .seconds = { 0.123456789012, 0.2 },
		.context_switches = 3,
	};
	struct census_pair_cost cost = {
		.known = 1, .value = 31.123456789, .low = 30, .high = 33,
		.has_interval = 1, .unit = "cycles", .ghz = 2.792345678,
		.source = "a row", .ghz_source = "its calibration",
	};
	struct census_command_inputs in = {
		.argv = argv, .cwd = "/x", .native = &native, .cost = &cost,
		.top = 5, .timeout = 60,
	};

	(void)state;
	census_native_summarise(&native);
	load(&c, "smap", "redraw.tsv", NOTES(1) BASELINE_ROW COMMAND_ROW TAIL,
	     smap, sizeof(smap));
	file = (struct census_boot_file){ .path = smap, .seconds = 21.5 };
	setenv("SMAPBENCH_GNUPLOT", "/nonexistent/gnuplot", 1);
	snprintf(out, sizeof(out), "%s/first", unit_tmpdir);
	assert_int(census_command_write_dir(&c, &file, 1, &in, out, first,
					    sizeof(first), NULL, err,
					    sizeof(err)), 0, err);
	snprintf(out, sizeof(out), "%s/again", unit_tmpdir);
	assert_int(census_command_redraw(first, out, again, sizeof(again), err,
					 sizeof(err)), 0, err);
	if (strcmp(strrchr(first, '/'), strrchr(again, '/')))
		fail_msg("the redrawn directory keeps its name: %s, %s", first, again);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(a, sizeof(a), "%s/%s", first, files[i]);
		snprintf(b, sizeof(b), "%s/%s", again, files[i]);
		assert_same_file(a, b);
	}
	assert_int(census_command_redraw(unit_tmpdir, out, again, sizeof(again), err,
					 sizeof(err)), -1, "not a census of a command");
	census_free(&c);
}

/*
 * A pair cost that is a range only (no figure of this machine): the
 * estimate is a range too, said as one, and drawn again the same; and
 * no cost at all: why, in report.md, drawn again the same.
 */
static void test_range_and_none(void **state)
{
	static const char *const files[] = { "census.csv", "context.csv", "report.md" };
	struct census c = { 0 };
	struct census_boot_file file;
	char smap[256], err[1024] = "", first[4096], again[4096], out[512],
	     a[8192], b[8192], path[4200], text[16384];
	char *argv[] = { "prog", NULL };
	struct census_native native = {
		.runs = 3, .seconds = { 0.9, 1.0, 1.2 }, .context_switches = 4,
	};
	struct census_pair_cost cost = {
		.known = 1, .kind = CENSUS_COST_RANGE, .value = NAN, .low = 0,
		.high = 120, .has_interval = 1, .unit = "ns",
		.source = "NOT MEASURED, a range: from a bound",
		.ghz_source = "none needed",
	};
	struct census_command_inputs in = {
		.argv = argv, .cwd = "/x", .native = &native, .cost = &cost,
		.top = 5, .timeout = 60,
	};
	struct csv_table census = { 0 };
	FILE *report;
	size_t n;

	(void)state;
	census_native_summarise(&native);
	load(&c, "smap", "range.tsv", NOTES(1) BASELINE_ROW COMMAND_ROW TAIL,
	     smap, sizeof(smap));
	file = (struct census_boot_file){ .path = smap, .seconds = 20 };
	setenv("SMAPBENCH_GNUPLOT", "/nonexistent/gnuplot", 1);
	for (int none = 0; none < 2; none++) {
		if (none) {
			memset(&cost, 0, sizeof(cost));
			snprintf(cost.source, sizeof(cost.source),
				 "no pair cost of this machine: nothing found");
		}
		snprintf(out, sizeof(out), "%s/range-first-%d", unit_tmpdir, none);
		assert_int(census_command_write_dir(&c, &file, 1, &in, out, first,
						    sizeof(first), NULL, err,
						    sizeof(err)), 0, err);
		snprintf(path, sizeof(path), "%s/census.csv", first);
		assert_str(cell(&census, path, 0, "estimate_fraction"), "",
			   "no estimate as one number");
		csv_table_free(&census);
		snprintf(path, sizeof(path), "%s/report.md", first);
		report = fopen(path, "r");
		assert_non_null(report);
		n = fread(text, 1, sizeof(text) - 1, report);
		text[n] = '\0';
		fclose(report);
		if (!none) {
			/* 1023.4 pairs of 0 to 120 ns over 1.2 s and 0.9 s */
			snprintf(path, sizeof(path), "%s/census.csv", first);
			assert_near(atof(cell(&census, path, 0, "estimate_fraction_high")),
				    1023.4 * 120e-9 / 0.9, 1e-9, "the range's high end");
			csv_table_free(&census);
			if (!strstr(text, "range [0%, 0.0136%]") ||
			    !strstr(text, "no measured figure for this machine"))
				fail_msg("report.md does not give the range as one:\n%s", text);
		} else if (!strstr(text, "No estimate: no pair cost of this machine: nothing found.")) {
			fail_msg("report.md does not say why there is no estimate:\n%s", text);
		}
		snprintf(out, sizeof(out), "%s/range-again-%d", unit_tmpdir, none);
		assert_int(census_command_redraw(first, out, again, sizeof(again), err,
						 sizeof(err)), 0, err);
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(a, sizeof(a), "%s/%s", first, files[i]);
			snprintf(b, sizeof(b), "%s/%s", again, files[i]);
			assert_same_file(a, b);
		}
	}
	census_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_protocol_2_fields),
		cmocka_unit_test(test_a_site_function),
		cmocka_unit_test(test_command_directory),
		cmocka_unit_test(test_protocol_1_refused),
		cmocka_unit_test(test_redraw),
		cmocka_unit_test(test_range_and_none),
		cmocka_unit_test(test_cost_from_a_table),
		cmocka_unit_test(test_running_a_program),
	};

	return cmocka_run_group_tests(tests, unit_make_tmpdir, unit_remove_tmpdir);
}
