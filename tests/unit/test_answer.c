// SPDX-License-Identifier: GPL-2.0
/*
 * test_answer.c - the lines that say first what a run tells about SMAP
 * (analysis/answer.h), on the fixture run (tests/fixtures/run-smap) and
 * on variants of it made in memory: calibrated, bpf only (the module's
 * rows taken out), emulated by TCG, with a skipped.csv, and in each SMAP
 * state a boot can be in.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/answer.h"
#include "analysis/derived.h"
#include "analysis/run_select.h"
#include "analysis/smap_case.h"
#include "analysis/table.h"
#include "analysis/text_table.h"
#include "rundata/csv.h"
#include "rundata/rundir.h"
#include "unit.h"

#define FIXTURE "tests/fixtures/run-smap"

static void load(struct run_dir *run)
{
	char err[512];

	if (rundir_load(FIXTURE, run, err, sizeof(err)))
		fail_msg("%s: %s", FIXTURE, err);
}

/* Set (or add) a context key of the loaded run. */
static void set_context(struct run_dir *run, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < run->context_count && strcmp(run->keys[i], key); i++)
		;
	if (i == run->context_count) {
		run->keys = realloc(run->keys, (i + 1) * sizeof(*run->keys));
		run->values = realloc(run->values, (i + 1) * sizeof(*run->values));
		assert_non_null(run->keys);
		assert_non_null(run->values);
		run->keys[i] = strdup(key);
		run->values[i] = NULL;
		run->context_count++;
	}
	free(run->values[i]);
	run->values[i] = strdup(value);
}

/* The run as if read from a directory whose skipped.csv holds text. */
static void with_skipped(struct run_dir *run, const char *text)
{
	char path[sizeof(unit_tmpdir) + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/skipped.csv", unit_tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(run->path);
	run->path = strdup(unit_tmpdir);
}

/* The index of the first line holding needle (text and quoted), or -1. */
static long find_line(const struct answer *a, const char *needle)
{
	for (size_t i = 0; i < a->count; i++) {
		char line[2048];

		snprintf(line, sizeof(line), "%s%s", a->lines[i].text,
			 a->lines[i].quoted ? a->lines[i].quoted : "");
		if (strstr(line, needle))
			return (long)i;
	}
	return -1;
}

static void assert_has(const struct answer *a, const char *needle)
{
	if (find_line(a, needle) < 0) {
		for (size_t i = 0; i < a->count; i++)
			print_message("  %s%s\n", a->lines[i].text,
				      a->lines[i].quoted ? a->lines[i].quoted : "");
		fail_msg("no line holds \"%s\"", needle);
	}
}

static void assert_lacks(const struct answer *a, const char *needle)
{
	long i = find_line(a, needle);

	if (i >= 0)
		fail_msg("line %ld holds \"%s\": %s", i, needle, a->lines[i].text);
}

/* The module's rows out of the run: kmod becomes a suite nobody asks for. */
static void drop_kmod(struct run_dir *run)
{
	for (size_t i = 0; i < run->count; i++)
		if (!strcmp(run->bench[i].suite, "kmod"))
			strcpy(run->bench[i].suite, "gone");
}

/*
 * The fixture has the bpf overhead at 1, 64 and 4096 B: its 64 B row
 * stands in for the 8 B one the answer reads.
 */
static void bpf_row_at_8(struct run_dir *run)
{
	struct run_bench *b = rundir_find(run, "bpf/overhead/raw_tp/64");

	assert_non_null(b);
	b->size = 8;
}

/*
 * With a consistent calibration, each op's pair is inline - nopad from
 * derived.c at the table's size, times the table's cycles per unit, with
 * its interval; and the next step is the SMAP-off boot.
 */
static void pair_cost_in_cycles_is_inline_minus_nopad(void **unused)
{
	static const struct { const char *op, *label; unsigned long size; } ops[] = {
		{ "get_user", "get_user 8 B", 8 },
		{ "copy_from_user", "copy_from_user 64 B", 64 },
	};
	struct run_dir run;
	struct derived d;
	struct answer a;

	(void)unused;
	load(&run);
	set_context(&run, "calib_consistent", "1");
	set_context(&run, "calib_ghz", "3");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_int(derived_compute(&run, &d), 0, "derived_compute");
	for (size_t k = 0; k < sizeof(ops) / sizeof(*ops); k++) {
		const struct bench_key key = { "kmod", ops[k].op, "inline",
					       ops[k].size, 0 };
		const struct run_bench *b = bench_match(&run, &key);
		const struct derived_pair *p = NULL;
		char expect[256], x[32], iv[80];
		double cyc;

		assert_non_null(b);
		for (size_t i = 0; i < d.pair_count; i++)
			if (!strcmp(d.pairs[i].op, ops[k].op) &&
			    d.pairs[i].size == ops[k].size)
				p = &d.pairs[i];
		assert_non_null(p);
		cyc = table_cycles_per_unit(&run, b);
		/* ticks at 2.4 GHz, a core at 3 GHz: 1.25 cycles a tick */
		assert_near(cyc, 1.25, 1e-3, "cycles per tick");
		snprintf(expect, sizeof(expect), "%s: %s cycles %s", ops[k].label,
			 format_number(x, sizeof(x), p->cost * cyc),
			 format_interval(iv, sizeof(iv), p->low * cyc,
					 p->high * cyc));
		assert_has(&a, expect);
	}
	assert_has(&a, "one STAC/CLAC pair costs, per user access, in this boot (inline - nopad");
	assert_has(&a, "cycles: ns x 3 GHz");
	assert_has(&a, "`sudo ./run-bench.sh --boots 4`");
	assert_has(&a, "`make census`");
	assert_lacks(&a, "UPPER BOUND");
	assert_lacks(&a, ANSWER_TCG_TAG);
	derived_free(&d);
	answer_free(&a);

	/* a clearcpuid=smap boot: the SMAP boot is what it lacks */
	set_context(&run, "smap_state", "nosmap");
	set_context(&run, "smap_cpuinfo", "0");
	set_context(&run, "smap_requested_off", "1");
	set_context(&run, "smap_off_method", "clearcpuid");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_has(&a, "needs a boot where the kernel uses SMAP: a boot without clearcpuid=smap (`sudo ./run-bench.sh --boots 4`");
	assert_lacks(&a, "the SMAP-off boot");
	answer_free(&a);
	rundir_free(&run);
}

/* Without a calibration: the run's unit and ns, and it says why. */
static void without_calibration_ticks_and_ns(void **unused)
{
	struct run_dir run;
	struct answer a;

	(void)unused;
	load(&run);
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_has(&a, "get_user 8 B: 24.41 ticks [24.19, 24.63], 10.17 ns");
	assert_has(&a, "no cycles, ns only");
	assert_lacks(&a, " cycles [");
	answer_free(&a);
	rundir_free(&run);
}

/* No module rows: the bpf overhead, an upper bound, with what it holds. */
static void bpf_only_is_an_upper_bound(void **unused)
{
	struct run_dir run;
	struct answer a;

	(void)unused;
	load(&run);
	drop_kmod(&run);
	bpf_row_at_8(&run);
	set_context(&run, "kmod_status", "/dev/smapbench is absent");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_has(&a, "UPPER BOUND of the STAC/CLAC pair per access, not its cost: bpf/overhead/raw_tp/64 ");
	assert_has(&a, "access_ok, pagefault_disable, hardened usercopy checks and return thunks besides STAC/CLAC (docs/bpf.md)");
	assert_lacks(&a, "inline - nopad");
	assert_has(&a, "a machine that loads modules");
	/* the context cannot say whether KVM runs Linux guests here */
	assert_has(&a, "`./run-bench.sh --vm` is a functional check under emulation");
	/* the system calls pay SMAP with or without the module */
	assert_has(&a, "what SMAP costs the system calls here: the SMAP-off boot, `sudo ./run-bench.sh --boots 4`");
	answer_free(&a);
	rundir_free(&run);
}

/* One line per suite: its rows, and the reason most of them give. */
static void skipped_suites_with_their_reasons(void **unused)
{
	struct run_dir run;
	struct answer a;
	long i;

	(void)unused;
	load(&run);
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_has(&a, "skipped: not recorded (no skipped.csv)");
	answer_free(&a);

	with_skipped(&run, "name,suite,reason\n"
		     "kmod/pair,kmod,STAC/CLAC need SMAP in CPUID\n"
		     "kmod/stac,kmod,STAC/CLAC need SMAP in CPUID\n"
		     "kmod/sigframe/kapi,kmod,\"one iteration takes 9 ticks, too long\"\n"
		     "bpf/user_read/syscall/8,bpf,=cmd|' /C calc'!A0\n");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_has(&a, "skipped: kmod suite, 3 rows (skipped.csv); 2 of them: STAC/CLAC need SMAP in CPUID");
	i = find_line(&a, "skipped: bpf suite, 1 row (skipped.csv): ");
	assert_true(i >= 0);
	/* a reason is the run's text, kept apart to be escaped */
	assert_str(a.lines[i].quoted, "=cmd|' /C calc'!A0", "bpf's reason");
	answer_free(&a);

	with_skipped(&run, "name,suite,reason\n");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_has(&a, "skipped: none");
	answer_free(&a);
	rundir_free(&run);
}

/* Under TCG every line says so, and no figure is called a cost. */
static void tcg_tags_every_line(void **unused)
{
	for (int bpf_only = 0; bpf_only <= 1; bpf_only++) {
		struct run_dir run;
		struct answer a;

		load(&run);
		set_context(&run, "virt", "tcg");
		set_context(&run, "calib_consistent", "1");
		set_context(&run, "calib_ghz", "3");
		if (bpf_only) {
			drop_kmod(&run);
			bpf_row_at_8(&run);
		}
		assert_int(answer_build(&run, &a), 0, "answer_build");
		assert_true(a.count >= 4);
		for (size_t i = 0; i < a.count; i++) {
			const char *t = a.lines[i].text, *c;

			if (strncmp(t, ANSWER_TCG_TAG, strlen(ANSWER_TCG_TAG)))
				fail_msg("line %zu lacks the TCG tag: %s", i, t);
			for (c = strstr(t, "cost"); c; c = strstr(c + 1, "cost"))
				if (c - t < 6 || strncmp(c - 6, "not a ", 6))
					fail_msg("line %zu calls a figure a cost: %s", i, t);
		}
		assert_has(&a, "timings need hardware or KVM");
		/* the fixture's calibration agrees, but no CPU ran at it */
		assert_has(&a, "no cycles, ns only: under TCG");
		assert_lacks(&a, " cycles [");
		(void)unused;
		answer_free(&a);
		rundir_free(&run);
	}
}

/* Markdown: the run's own text escaped, ours with its `commands`. */
static void markdown_escapes_the_runs_text(void **unused)
{
	struct run_dir run;
	struct answer a;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)unused;
	load(&run);
	with_skipped(&run, "name,suite,reason\nkmod/pair,kmod,a|b *c*\n");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	f = open_memstream(&text, &len);
	assert_non_null(f);
	answer_print(f, &a, 1);
	fclose(f);
	assert_non_null(strstr(text, "## What this run says about SMAP\n\n- "));
	assert_non_null(strstr(text, ": a\\|b \\*c\\*\n"));
	assert_non_null(strstr(text, "`sudo ./run-bench.sh --boots 4`"));
	assert_non_null(strstr(text, "\n  - get_user 8 B: "));
	free(text);
	answer_free(&a);
	rundir_free(&run);
}

/* The outliers counted from the samples are results.csv's. */
static void outliers_as_results_csv_counts_them(void **unused)
{
	struct run_dir run;
	struct csv_table t;
	char err[512];
	size_t checked = 0, some = 0;

	(void)unused;
	load(&run);
	if (csv_table_load(FIXTURE "/results.csv", &t, err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < t.count; i++) {
		const struct run_bench *b = rundir_find(&run, csv_table_get(&t, i, "name"));
		size_t want = strtoul(csv_table_get(&t, i, "outliers"), NULL, 10);

		assert_non_null(b);
		assert_int(answer_outliers(b), want, b->name);
		checked++;
		some += want > 0;
	}
	assert_true(checked == run.count && some > 0);
	csv_table_free(&t);
	rundir_free(&run);
}

/* The run's SMAP keys as each kind of boot records them. */
static void set_smap(struct run_dir *run, const char *cpuinfo,
		     const char *cpuid, const char *requested,
		     const char *method)
{
	set_context(run, "smap_cpuinfo", cpuinfo);
	set_context(run, "smap_state", !strcmp(cpuinfo, "1") ? "smap" : "nosmap");
	set_context(run, "smap_cpuid", cpuid);
	set_context(run, "smap_requested_off", requested);
	set_context(run, "smap_off_method", method);
}

/* The keys of each kind of boot, read as what they are. */
static void smap_cases_from_the_keys(void **unused)
{
	static const struct {
		const char *state, *requested, *method, *cpuid;
		enum smap_case want;
	} cases[] = {
		{ "smap", "0", "none", "1", SMAP_CASE_ON },
		{ "smap", "1", "none", "1", SMAP_CASE_ON_IGNORED },
		{ "nosmap", "1", "clearcpuid", "1", SMAP_CASE_OFF_ASKED },
		{ "nosmap", "1", "nosmap", "1", SMAP_CASE_OFF_ASKED },
		{ "nosmap", "0", "cpu-model", "0", SMAP_CASE_OFF_NO_CPU },
		{ "nosmap", "0", "unknown", "1", SMAP_CASE_OFF_BY_KERNEL },
		{ "nosmap", "0", "unknown", NULL, SMAP_CASE_OFF_UNTOLD },
		{ NULL, NULL, NULL, NULL, SMAP_CASE_UNRECORDED },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char what[64];

		snprintf(what, sizeof(what), "case %zu", i);
		assert_int(smap_case_read(cases[i].state, cases[i].requested,
					  cases[i].method, cases[i].cpuid),
			   cases[i].want, what);
	}
}

/*
 * The CPU has SMAP, the kernel does not use it and nothing asked it to:
 * a paravirtual kernel (this is what a cloud VM of AMD EPYC family 26
 * records). The answer says so first, calls the bpf figure the path
 * without the pair, and says where the pair can be had.
 */
static void smap_off_in_this_boot_is_said_first(void **unused)
{
	struct run_dir run;
	struct answer a;

	(void)unused;
	load(&run);
	drop_kmod(&run);
	bpf_row_at_8(&run);
	set_context(&run, "kmod_status", "/dev/smapbench is absent");
	set_smap(&run, "0", "1", "0", "unknown");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_true(a.count > 0);
	if (strncmp(a.lines[0].text, "SMAP is off in this boot: the CPU has SMAP (smap_cpuid=1) but this kernel does not use it (smap_cpuinfo=0), and no parameter on the command line turned it off: a paravirtual or hypervisor-provided kernel", 180))
		fail_msg("the first line does not name the case: %s", a.lines[0].text);
	assert_true(find_line(&a, "the user-access path WITHOUT the pair: bpf/overhead/raw_tp/64 ") == 1);
	assert_has(&a, "this kernel runs no STAC/CLAC, so the figure is the rest of the path alone");
	assert_has(&a, "the pair's cost as the kernel pays it needs a boot where the kernel uses SMAP: another kernel on this CPU, or another machine");
	assert_lacks(&a, "UPPER BOUND");
	/* a SMAP-off boot of this kernel is all there is: no --boots advice */
	assert_lacks(&a, "--boots");
	answer_free(&a);

	/* the same boot with the module: raw STAC/CLAC, named for what they are */
	rundir_free(&run);
	load(&run);
	set_smap(&run, "0", "1", "0", "unknown");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_true(find_line(&a, "SMAP is off in this boot: the CPU has SMAP") == 0);
	assert_has(&a, "the raw STAC/CLAC pair per user access, timed in a boot whose kernel does not use SMAP (inline - nopad, 95% CI)");
	assert_has(&a, "get_user 8 B: ");
	assert_lacks(&a, "one STAC/CLAC pair costs");
	assert_has(&a, "needs a boot where the kernel uses SMAP: another kernel");
	answer_free(&a);

	/* a CPU without SMAP: no raw pair either, said why */
	set_smap(&run, "0", "0", "0", "cpu-model");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_true(find_line(&a, "SMAP is off in this boot: the CPU (or the virtual machine's CPU model) has no SMAP (smap_cpuid=0)") == 0);
	assert_has(&a, "needs a boot where the kernel uses SMAP: a CPU with SMAP");
	answer_free(&a);

	/* SMAP on: said first too, and the figures are the pair's cost */
	set_smap(&run, "1", "1", "0", "none");
	assert_int(answer_build(&run, &a), 0, "answer_build");
	assert_true(find_line(&a, "SMAP is on in this boot: the kernel uses it") == 0);
	assert_has(&a, "one STAC/CLAC pair costs, per user access, in this boot");
	assert_lacks(&a, "needs a boot where the kernel uses SMAP");
	answer_free(&a);
	rundir_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pair_cost_in_cycles_is_inline_minus_nopad),
		cmocka_unit_test(without_calibration_ticks_and_ns),
		cmocka_unit_test(bpf_only_is_an_upper_bound),
		cmocka_unit_test(skipped_suites_with_their_reasons),
		cmocka_unit_test(tcg_tags_every_line),
		cmocka_unit_test(markdown_escapes_the_runs_text),
		cmocka_unit_test(outliers_as_results_csv_counts_them),
		cmocka_unit_test(smap_cases_from_the_keys),
		cmocka_unit_test(smap_off_in_this_boot_is_said_first),
	};

	return cmocka_run_group_tests(tests, unit_make_tmpdir, unit_remove_tmpdir);
}
