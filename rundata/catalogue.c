// SPDX-License-Identifier: GPL-2.0
/*
 * catalogue.c - the context keys and the columns of run data, with
 * their roles; see catalogue.h. The order of context_keys is the order
 * report.md shows the KEY_SHOWN ones in; the order of a file's columns
 * is the order they are written in.
 */
#include "rundata/catalogue.h"

#include <stdio.h>
#include <string.h>

#include "rundata/csv.h"
#include "rundata/rundir.h"

#define MACHINE		(KEY_MACHINE | KEY_COMPARISON)

const struct context_key context_keys[] = {
	/* the machine and the boot: run_context_collect() */
	{ .name = "date", .roles = KEY_DIFFERS | KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_MACHINE },
	{ .name = "host", .roles = KEY_COMPARISON | KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_MACHINE },
	{ .name = "kernel_release", .roles = MACHINE | KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_MACHINE },
	{ .name = "kernel_version", .written = KEY_BY_MACHINE },
	{ .name = "machine", .written = KEY_BY_MACHINE },
	{ .name = "machine_id_hash", .roles = MACHINE, .written = KEY_BY_MACHINE },
	{ .name = "cpu_model", .roles = MACHINE | KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_MACHINE },
	{ .name = "cpu_family", .roles = MACHINE, .written = KEY_BY_MACHINE },
	{ .name = "cpu_model_number", .roles = MACHINE, .written = KEY_BY_MACHINE },
	{ .name = "cpu_stepping", .roles = MACHINE, .written = KEY_BY_MACHINE },
	{ .name = "microcode", .roles = MACHINE | KEY_SHOWN,
	  .written = KEY_BY_MACHINE },
	/* re-measured each boot */
	{ .name = "cpu_mhz", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE,
	  .unit = "MHz" },
	/* clearcpuid=smap drops the smap flag */
	{ .name = "cpu_flags", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE },
	{ .name = "pti", .written = KEY_BY_MACHINE },
	{ .name = "cpus_online", .written = KEY_BY_MACHINE },
	{ .name = "cmdline", .roles = KEY_DIFFERS | KEY_SHOWN,
	  .written = KEY_BY_MACHINE },
	{ .name = "vulnerability_*", .written = KEY_BY_MACHINE },
	{ .name = "governor", .roles = KEY_SHOWN, .written = KEY_BY_MACHINE },
	{ .name = "turbo", .roles = KEY_SHOWN, .written = KEY_BY_MACHINE },
	{ .name = "smt", .roles = KEY_SHOWN, .written = KEY_BY_MACHINE },
	{ .name = "virt", .roles = MACHINE | KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_MACHINE },
	{ .name = "virt_hint", .written = KEY_BY_MACHINE },
	{ .name = "virt_accel_why", .written = KEY_BY_MACHINE },
	{ .name = "virt_vendor", .written = KEY_BY_MACHINE },
	{ .name = "dmi_sys_vendor", .roles = MACHINE, .written = KEY_BY_MACHINE },
	{ .name = "warnings", .roles = KEY_DIFFERS | KEY_SHOWN,
	  .written = KEY_BY_MACHINE },
	{ .name = "load_avg", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE },
	{ .name = "boot_id", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE },
	{ .name = "uptime_s", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE,
	  .unit = "s" },
	{ .name = "smap_cpuinfo", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE },
	{ .name = "smap_cpuid", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE },
	{ .name = "smap_requested_off", .roles = KEY_DIFFERS,
	  .written = KEY_BY_MACHINE },
	{ .name = "smap_state", .roles = KEY_DIFFERS | KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_MACHINE },
	{ .name = "smap_off_method", .roles = KEY_DIFFERS | KEY_SHOWN,
	  .written = KEY_BY_MACHINE },
	{ .name = "smep_cpuinfo", .written = KEY_BY_MACHINE },
	{ .name = "smapbench_version", .roles = KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_MACHINE },
	{ .name = "git_revision", .roles = KEY_DIFFERS | KEY_SHOWN,
	  .written = KEY_BY_MACHINE },
	{ .name = "build_features", .written = KEY_BY_MACHINE },
	{ .name = "tsc_hz", .roles = KEY_DIFFERS | KEY_SHOWN,
	  .written = KEY_BY_MACHINE, .unit = "Hz" },
	{ .name = "tsc_hz_hint", .roles = KEY_DIFFERS, .written = KEY_BY_MACHINE,
	  .unit = "Hz" },
	{ .name = "tsc_hz_hint_source", .written = KEY_BY_MACHINE },

	/* the run: smapbench run */
	{ .name = "schema_version", .written = KEY_BY_RUN },
	{ .name = "status", .written = KEY_BY_RUN },
	{ .name = "counter", .roles = KEY_COMPARISON | KEY_SHOWN | KEY_REQUIRED,
	  .written = KEY_BY_RUN },
	{ .name = "counter_unit", .roles = KEY_COMPARISON | KEY_SHOWN,
	  .written = KEY_BY_RUN },
	{ .name = "counter_hz", .roles = KEY_DIFFERS, .written = KEY_BY_RUN,
	  .unit = "Hz" },
	{ .name = "counter_note", .written = KEY_BY_RUN },
	{ .name = "counter_fallback", .written = KEY_BY_RUN },
	{ .name = "pinning", .written = KEY_BY_RUN },
	{ .name = "topology", .written = KEY_BY_RUN },
	{ .name = "sched_policy", .written = KEY_BY_RUN },
	{ .name = "cpu_pinned", .roles = KEY_SHOWN, .written = KEY_BY_RUN },
	{ .name = "cpu_siblings", .written = KEY_BY_RUN },
	{ .name = "suite", .written = KEY_BY_RUN },
	{ .name = "filter", .written = KEY_BY_RUN },
	{ .name = "min_time", .written = KEY_BY_RUN, .unit = "s" },
	{ .name = "repetitions", .written = KEY_BY_RUN },
	{ .name = "samples_per_repetition", .written = KEY_BY_RUN },
	{ .name = "seed", .roles = KEY_DIFFERS, .written = KEY_BY_RUN },
	{ .name = "quick", .written = KEY_BY_RUN },
	{ .name = "sweep", .roles = KEY_SHOWN, .written = KEY_BY_RUN },
	{ .name = "calib_user_add_ns", .written = KEY_BY_RUN, .unit = "ns" },
	{ .name = "calib_user_imul_ns", .written = KEY_BY_RUN, .unit = "ns" },
	{ .name = "calib_user_add_ghz", .written = KEY_BY_RUN, .unit = "GHz" },
	{ .name = "calib_user_imul_ghz", .written = KEY_BY_RUN, .unit = "GHz" },
	{ .name = "calib_user_disagreement", .written = KEY_BY_RUN,
	  .unit = "fraction" },
	{ .name = "calib_user_consistent", .written = KEY_BY_RUN },
	{ .name = "calib_method", .roles = KEY_SHOWN, .written = KEY_BY_RUN },
	{ .name = "calib_kmod_vs_user", .written = KEY_BY_RUN },
	{ .name = "calib_consistent", .written = KEY_BY_RUN },
	{ .name = "calib_note", .roles = KEY_SHOWN, .written = KEY_BY_RUN },
	{ .name = "calib_ghz", .roles = KEY_SHOWN, .written = KEY_BY_RUN,
	  .unit = "GHz" },

	/* the kmod suite */
	{ .name = "kmod_status", .written = KEY_BY_KMOD },
	{ .name = "kmod_abi", .written = KEY_BY_KMOD },
	{ .name = "kmod_smap_cpuid", .roles = KEY_DIFFERS, .written = KEY_BY_KMOD },
	{ .name = "kmod_smap_feature", .roles = KEY_DIFFERS,
	  .written = KEY_BY_KMOD },
	{ .name = "kmod_smap_cr4", .roles = KEY_DIFFERS, .written = KEY_BY_KMOD },
	{ .name = "kmod_smep_cr4", .written = KEY_BY_KMOD },
	{ .name = "kmod_pmu_cycles", .written = KEY_BY_KMOD },
	{ .name = "kmod_masked_uaccess", .written = KEY_BY_KMOD },
	{ .name = "kmod_futex_blocks", .written = KEY_BY_KMOD },
	{ .name = "kmod_preempt_rt", .written = KEY_BY_KMOD },
	{ .name = "kmod_sample_budget_ns", .written = KEY_BY_KMOD, .unit = "ns" },
	{ .name = "kmod_sees_nmi", .written = KEY_BY_KMOD },
	{ .name = "kmod_sees_smi", .written = KEY_BY_KMOD },
	{ .name = "kmod_buffer_thp", .written = KEY_BY_KMOD },
	{ .name = "kmod_tsc_khz", .roles = KEY_DIFFERS, .written = KEY_BY_KMOD,
	  .unit = "kHz" },
	{ .name = "kmod_release", .written = KEY_BY_KMOD },
	{ .name = "kmod_cycles_per_tick", .written = KEY_BY_KMOD,
	  .unit = "cycles/tick" },
	{ .name = "kmod_cycles_per_tick_pmu", .written = KEY_BY_KMOD,
	  .unit = "cycles/tick" },
	{ .name = "kmod_pmu_check", .written = KEY_BY_KMOD },
	{ .name = "kmod_timer_overhead_tsc", .written = KEY_BY_KMOD,
	  .unit = "ticks" },
	{ .name = "kmod_timer_overhead_cycles", .written = KEY_BY_KMOD,
	  .unit = "cycles" },
	{ .name = "kmod_calib_add_ns", .written = KEY_BY_KMOD, .unit = "ns" },
	{ .name = "kmod_calib_imul_ns", .written = KEY_BY_KMOD, .unit = "ns" },
	{ .name = "kmod_calib_add_ghz", .written = KEY_BY_KMOD, .unit = "GHz" },
	{ .name = "kmod_calib_imul_ghz", .written = KEY_BY_KMOD, .unit = "GHz" },
	{ .name = "kmod_calib_disagreement", .written = KEY_BY_KMOD,
	  .unit = "fraction" },
	{ .name = "kmod_calib_consistent", .written = KEY_BY_KMOD },
	{ .name = "kmod_calib_pmu_ratio", .written = KEY_BY_KMOD },
	{ .name = "kmod_windows_disturbed", .written = KEY_BY_KMOD },

	/* the bpf suite (docs/bpf.md) */
	{ .name = "bpf_jit_enable", .written = KEY_BY_BPF },
	{ .name = "bpf_jit_harden", .written = KEY_BY_BPF },
	{ .name = "bpf_unprivileged_disabled", .written = KEY_BY_BPF },
	{ .name = "bpf_lockdown", .written = KEY_BY_BPF },
	{ .name = "bpf_hardened_usercopy", .written = KEY_BY_BPF },
	{ .name = "bpf_return_mitigations", .written = KEY_BY_BPF },
	{ .name = "bpf_copy_features", .written = KEY_BY_BPF },
	{ .name = "bpf_status", .written = KEY_BY_BPF },
	{ .name = "bpf_reason", .written = KEY_BY_BPF },
	{ .name = "bpf_run_budget_ns", .written = KEY_BY_BPF, .unit = "ns" },
	{ .name = "bpf_ipi_runs_repeated", .written = KEY_BY_BPF },
	{ .name = "bpf_overhead_samples_negative", .written = KEY_BY_BPF },

	/* a run with --command (suites/command.h) */
	{ .name = "command", .roles = KEY_COMPARISON | KEY_SHOWN,
	  .written = KEY_BY_COMMAND },
	{ .name = "command_sha256", .roles = KEY_COMPARISON,
	  .written = KEY_BY_COMMAND },
	{ .name = "command_row", .written = KEY_BY_COMMAND },
	{ .name = "command_log", .written = KEY_BY_COMMAND },
	{ .name = "command_shell", .written = KEY_BY_COMMAND },
	{ .name = "command_status", .roles = KEY_SHOWN,
	  .written = KEY_BY_COMMAND },

	/* some runs only */
	{ .name = "interrupted_by", .written = KEY_BY_INTERRUPTION },
	{ .name = "bootstrap_resamples", .written = KEY_BY_OLDER },
};

const size_t context_key_count = sizeof(context_keys) / sizeof(context_keys[0]);

static int key_matches(const struct context_key *k, const char *key)
{
	size_t len = strlen(k->name);

	if (len && k->name[len - 1] == '*')
		return !strncmp(key, k->name, len - 1) && key[len - 1];
	return !strcmp(key, k->name);
}

const struct context_key *context_key_find(const char *key)
{
	for (size_t i = 0; i < context_key_count; i++)
		if (key_matches(&context_keys[i], key))
			return &context_keys[i];
	return NULL;
}

int context_key_is(const char *key, unsigned roles)
{
	const struct context_key *k = context_key_find(key);

	return k && (k->roles & roles) == roles;
}

const char *context_key_role_name(unsigned role)
{
	switch (role) {
	case KEY_MACHINE:
		return "machine";
	case KEY_COMPARISON:
		return "comparison";
	case KEY_DIFFERS:
		return "differs";
	case KEY_SHOWN:
		return "shown";
	case KEY_REQUIRED:
		return "required";
	}
	return "?";
}

const char *context_key_writer_name(enum key_writer w)
{
	switch (w) {
	case KEY_BY_MACHINE:
		return "machine";
	case KEY_BY_RUN:
		return "run";
	case KEY_BY_KMOD:
		return "kmod";
	case KEY_BY_BPF:
		return "bpf";
	case KEY_BY_COMMAND:
		return "command";
	case KEY_BY_INTERRUPTION:
		return "interrupted";
	case KEY_BY_OLDER:
		return "older";
	case KEY_BY_NONE:
	case KEY_BY_COUNT:
		break;
	}
	return "?";
}

int context_same_machine(const struct run_dir *a, const struct run_dir *b,
			 char *why, size_t len)
{
	/* a value that differs says most: looked for first */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < context_key_count; i++) {
			const char *key = context_keys[i].name, *va, *vb;

			if (!(context_keys[i].roles & KEY_MACHINE))
				continue;
			va = rundir_context(a, key);
			vb = rundir_context(b, key);
			if (pass == 0 && va && *va && vb && *vb && strcmp(va, vb)) {
				snprintf(why, len, "%s %.100s against %.100s", key,
					 va, vb);
				return 0;
			}
			/* one run cannot tell: no machine is proven the same */
			if (pass == 1 && (!va || !*va || !vb || !*vb)) {
				snprintf(why, len, "%s does not record %s, so it "
					 "cannot tell", !va || !*va ? "the first run" :
					 "the second run", key);
				return 0;
			}
		}
	}
	snprintf(why, len, "the same machine");
	return 1;
}

/* ---------------------------------------------------------- columns */

/* results.csv: one row per benchmark (rundata/report_csv.c). */
static const struct file_column results_columns[] = {
	{ .name = "name", .roles = COLUMN_REQUIRED | COLUMN_ROW_KEY },
	{ .name = "suite" },
	{ .name = "op" },
	{ .name = "variant" },
	{ .name = "size", .unit = "bytes" },
	{ .name = "batch", .unit = "count" },
	{ .name = "unit" },
	{ .name = "iterations", .unit = "count" },
	{ .name = "samples", .unit = "count" },
	{ .name = "median", .roles = COLUMN_REQUIRED, .unit = "unit" },
	{ .name = "min", .unit = "unit" },
	{ .name = "mean", .unit = "unit" },
	{ .name = "stddev", .unit = "unit" },
	{ .name = "mad", .unit = "unit" },
	{ .name = "p5", .unit = "unit" },
	{ .name = "p95", .unit = "unit" },
	{ .name = "cv", .unit = "fraction" },
	{ .name = "center", .unit = "unit" },
	{ .name = "ci_low", .unit = "unit" },
	{ .name = "ci_high", .unit = "unit" },
	{ .name = "repetitions", .unit = "count" },
	{ .name = "outliers", .unit = "count" },
	{ .name = "median_ns", .unit = "ns" },
	{ .name = "counter" },
	{ .name = "flags" },
};

/* census.csv of the benchmarks (census/census.c). */
static const struct file_column census_columns[] = {
	{ .name = "kernel", .roles = COLUMN_REQUIRED | COLUMN_ROW_KEY },
	{ .name = "smap_state", .roles = COLUMN_REQUIRED | COLUMN_ROW_KEY },
	{ .name = "name", .roles = COLUMN_REQUIRED | COLUMN_ROW_KEY },
	{ .name = "suite", .roles = COLUMN_REQUIRED },
	{ .name = "op", .roles = COLUMN_REQUIRED },
	{ .name = "variant", .roles = COLUMN_REQUIRED },
	{ .name = "size", .roles = COLUMN_REQUIRED, .unit = "bytes" },
	{ .name = "batch", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "ops", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "stac", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "clac", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "entry_clac", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "popf", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "kinsn", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "stac_per_op", .roles = COLUMN_REQUIRED, .unit = "per op" },
	{ .name = "clac_per_op", .roles = COLUMN_REQUIRED, .unit = "per op" },
	{ .name = "entry_clac_per_op", .roles = COLUMN_REQUIRED,
	  .unit = "per op" },
	{ .name = "popf_per_op", .roles = COLUMN_REQUIRED, .unit = "per op" },
	{ .name = "kinsn_per_op", .roles = COLUMN_REQUIRED, .unit = "per op" },
	{ .name = "loop_calls", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "loop_stac", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "loop_clac", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "loop_entry_clac", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "loop_popf", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "status", .roles = COLUMN_REQUIRED },
};

/* table.csv of smapbench table (analysis/table_write.c). */
#define ROW_TEXT	(COLUMN_REQUIRED | COLUMN_ROW_KEY | COLUMN_TEXT)
static const struct file_column table_columns[] = {
	{ .name = "host", .roles = ROW_TEXT, .context_key = "host" },
	{ .name = "cpu_model", .roles = ROW_TEXT, .context_key = "cpu_model" },
	{ .name = "cpu_family", .roles = ROW_TEXT, .context_key = "cpu_family" },
	{ .name = "cpu_model_number", .roles = ROW_TEXT,
	  .context_key = "cpu_model_number" },
	{ .name = "cpu_stepping", .roles = ROW_TEXT,
	  .context_key = "cpu_stepping" },
	{ .name = "microcode", .roles = ROW_TEXT, .context_key = "microcode" },
	{ .name = "kernel_release", .roles = ROW_TEXT,
	  .context_key = "kernel_release" },
	{ .name = "virt", .roles = ROW_TEXT, .context_key = "virt" },
	{ .name = "counter", .roles = ROW_TEXT, .context_key = "counter" },
	{ .name = "figure", .roles = COLUMN_REQUIRED | COLUMN_ROW_KEY },
	{ .name = "benchmark", .roles = COLUMN_REQUIRED | COLUMN_TEXT },
	{ .name = "value", .roles = COLUMN_REQUIRED, .unit = "unit" },
	{ .name = "ci_low", .roles = COLUMN_REQUIRED, .unit = "unit" },
	{ .name = "ci_high", .roles = COLUMN_REQUIRED, .unit = "unit" },
	{ .name = "unit", .roles = COLUMN_REQUIRED },
	{ .name = "repetitions", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "relative", .unit = "fraction" },
	{ .name = "pairs_per_op", .unit = "per op" },
	{ .name = "run_smap", .roles = COLUMN_TEXT },
	{ .name = "run_off", .roles = COLUMN_TEXT },
	{ .name = "calibration", .roles = COLUMN_REQUIRED | COLUMN_TEXT },
};

/*
 * pair-fit.csv of a comparison (analysis/pair_fit_file.c): key,value
 * rows, so its entries are its keys, in the order they are written.
 * After them come the SMAP run's context keys of role comparison: the
 * machine beta holds for.
 */
static const struct file_column pair_fit_keys[] = {
	{ .name = "format", .roles = COLUMN_REQUIRED },
	{ .name = "beta", .roles = COLUMN_REQUIRED, .unit = "unit" },
	{ .name = "beta_low", .roles = COLUMN_REQUIRED, .unit = "unit" },
	{ .name = "beta_high", .roles = COLUMN_REQUIRED, .unit = "unit" },
	{ .name = "beta_se", .unit = "unit" },
	{ .name = "unit", .roles = COLUMN_REQUIRED },
	{ .name = "df", .roles = COLUMN_REQUIRED, .unit = "count" },
	{ .name = "rows", .unit = "count" },
	{ .name = "scale", .unit = "fraction" },
	{ .name = "alpha", .unit = "fraction" },
	{ .name = "alpha_se", .unit = "fraction" },
	{ .name = "vif" },
	{ .name = "smap_side" },
	{ .name = "smap_shift_var" },
	{ .name = "smap_shift_df", .unit = "count" },
	{ .name = "census", .roles = COLUMN_TEXT },
	{ .name = "smap_run", .roles = COLUMN_TEXT },
	{ .name = "date", .roles = COLUMN_TEXT },
	{ .name = "calib_ghz", .unit = "GHz" },
	{ .name = "within", .unit = "unit" },
	{ .name = "within_low", .unit = "unit" },
	{ .name = "within_high", .unit = "unit" },
	{ .name = "within_name", .roles = COLUMN_TEXT },
};

/*
 * workload.csv of `smapbench workload` (census/command/census_workload.c):
 * one row per pair cost. No reader of ours loads it: its roles say what
 * a program reading it may count on.
 */
static const struct file_column workload_columns[] = {
	{ .name = "row", .roles = COLUMN_ROW_KEY | COLUMN_TEXT },
	{ .name = "census_command", .roles = COLUMN_TEXT },
	{ .name = "kernel", .roles = COLUMN_TEXT },
	{ .name = "pairs", .unit = "per execution" },
	{ .name = "source", .roles = COLUMN_ROW_KEY },
	{ .name = "pair_cost", .unit = "pair_cost_unit" },
	{ .name = "pair_cost_low", .unit = "pair_cost_unit" },
	{ .name = "pair_cost_high", .unit = "pair_cost_unit" },
	{ .name = "pair_cost_unit" },
	{ .name = "ghz", .unit = "GHz" },
	{ .name = "predicted_ns", .unit = "ns" },
	{ .name = "predicted_low_ns", .unit = "ns" },
	{ .name = "predicted_high_ns", .unit = "ns" },
	{ .name = "measured_ns", .unit = "ns" },
	{ .name = "measured_low_ns", .unit = "ns" },
	{ .name = "measured_high_ns", .unit = "ns" },
	{ .name = "measured_verdict", .roles = COLUMN_TEXT },
	{ .name = "verdict" },
	{ .name = "flags" },
	{ .name = "cost_source", .roles = COLUMN_TEXT },
};

/*
 * phases.csv of a boot series (scripts/boot-series.sh): a row a phase of a
 * step, in the order they ran. Its reader is rundata/phases_csv.c.
 */
static const struct file_column phases_columns[] = {
	{ .name = "step", .roles = COLUMN_REQUIRED | COLUMN_ROW_KEY },
	{ .name = "phase", .roles = COLUMN_REQUIRED | COLUMN_ROW_KEY },
	{ .name = "started", .roles = COLUMN_REQUIRED, .unit = "s" },
	{ .name = "seconds", .roles = COLUMN_REQUIRED, .unit = "s" },
	{ .name = "clock", .roles = COLUMN_REQUIRED },
};

#define KIND(f, cols) { f, cols, sizeof(cols) / sizeof(cols[0]) }
const struct file_kind file_results = KIND("results.csv", results_columns);
const struct file_kind file_census = KIND("census.csv", census_columns);
const struct file_kind file_table = KIND("table.csv", table_columns);
const struct file_kind file_pair_fit = KIND("pair-fit.csv", pair_fit_keys);
const struct file_kind file_workload = KIND("workload.csv", workload_columns);
const struct file_kind file_phases = KIND("phases.csv", phases_columns);

const struct file_kind *const file_kinds[FILE_KIND_COUNT + 1] = {
	&file_results, &file_census, &file_table, &file_pair_fit,
	&file_workload, &file_phases, NULL,
};

const struct file_kind *file_kind_find(const char *file)
{
	for (size_t i = 0; file_kinds[i]; i++)
		if (!strcmp(file_kinds[i]->file, file))
			return file_kinds[i];
	return NULL;
}

int file_column_index(const struct file_kind *kind, const char *name)
{
	for (size_t i = 0; i < kind->count; i++)
		if (!strcmp(kind->columns[i].name, name))
			return (int)i;
	return -1;
}

void file_header_write(struct csv_writer *w, const struct file_kind *kind)
{
	for (size_t i = 0; i < kind->count; i++)
		csv_field(w, kind->columns[i].name);
	csv_end_row(w);
}
