// SPDX-License-Identifier: GPL-2.0
/*
 * census_command_csv.c - the CSV files of a command's census directory:
 * census.csv (a row per kernel and SMAP state), sites.csv (the kernel
 * functions by pairs) and syscalls.csv (docs/schema.md). Each is a
 * header and the rows of each boot in turn.
 */
#include <math.h>

#include "census/command/census_command_data.h"
#include "rundata/csv.h"

#define COLUMNS(header) (sizeof(header) / sizeof((header)[0]))

static void field_signed(struct csv_writer *w, int64_t v)
{
	csv_field_int(w, (long long)v);
}

static void field_ratio(struct csv_writer *w, double a, double b)
{
	csv_field_double(w, b > 0 ? a / b : NAN);
}

/* A CSV file: its header, then what rows() writes of each boot. */
static int write_per_boot(FILE *f, const struct outputs *o,
			  const char *const *header, size_t columns,
			  void (*rows)(struct csv_writer *w,
				       const struct outputs *o,
				       const struct command_boot *b))
{
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, columns);
	for (size_t i = 0; i < o->cc->nboots; i++)
		rows(&w, o, &o->cc->boots[i]);
	return csv_writer_error(&w) ? -1 : 0;
}

static const char *const census_header[] = {
	"kernel", "smap_state", "command", "pairs", "rseq_pairs", "clac",
	"entry_clac", "popf", "kinsn", "system_calls",
	"pairs_per_system_call", "rseq_updates", "context_switches",
	"native_seconds", "native_seconds_min", "native_seconds_max",
	"native_context_switches", "native_rseq_pairs", "model_pairs",
	"pairs_per_native_second", "pair_cost",
	"pair_cost_low", "pair_cost_high", "pair_cost_unit", "ghz",
	"estimate_seconds", "estimate_fraction", "estimate_fraction_low",
	"estimate_fraction_high", "boot_seconds", "guest_seconds",
	"command_stac", "command_clac", "command_entry_clac",
	"command_popf", "command_kinsn", "command_system_calls",
	"baseline_stac", "baseline_clac", "baseline_entry_clac",
	"baseline_popf", "baseline_kinsn", "baseline_system_calls",
};

static void census_rows(struct csv_writer *w, const struct outputs *o,
			const struct command_boot *b)
{
	const struct census_command_inputs *in = o->in;
	const struct census_pair_cost *cost = in->cost;
	const struct census_row *rows[] = { b->command, b->baseline };
	/* COMMAND minus the baseline */
	const int64_t above[] = {
		b->pairs, b->rseq_pairs, b->clac, b->entry_clac, b->popf,
		b->kinsn, b->system_calls,
	};
	/* the native times, and the pairs the estimate takes */
	const double native[] = {
		in->native->median, in->native->min, in->native->max,
		in->native->context_switches, b->native_rseq_pairs,
		b->model_pairs,
	};
	/* the estimate, and the boot's times */
	const double estimate[] = {
		b->estimate_seconds, b->fraction, b->fraction_low,
		b->fraction_high, b->boot_seconds, b->guest_seconds,
	};

	csv_field(w, b->command->kernel);
	csv_field(w, b->command->state);
	csv_field(w, o->command);
	for (size_t i = 0; i < COLUMNS(above); i++)
		field_signed(w, above[i]);
	field_ratio(w, (double)b->pairs, (double)b->system_calls);
	field_signed(w, b->rseq_updates);
	csv_field_double(w, b->context_switches);
	for (size_t i = 0; i < COLUMNS(native); i++)
		csv_field_double(w, native[i]);
	field_ratio(w, b->model_pairs, in->native->median);
	csv_field_double(w, cost->known ? cost->value : NAN);
	csv_field_double(w, cost->known ? cost->low : NAN);
	csv_field_double(w, cost->known ? cost->high : NAN);
	csv_field(w, cost->known ? cost->unit : "");
	csv_field_double(w, cost->ghz > 0 ? cost->ghz : NAN);
	for (size_t i = 0; i < COLUMNS(estimate); i++)
		csv_field_double(w, estimate[i]);
	for (size_t k = 0; k < 2; k++) {
		csv_field_uint(w, rows[k]->total.stac);
		csv_field_uint(w, rows[k]->total.clac - rows[k]->total.entry_clac);
		csv_field_uint(w, rows[k]->total.entry_clac);
		csv_field_uint(w, rows[k]->total.popf);
		csv_field_uint(w, rows[k]->kinsn);
		csv_field_uint(w, rows[k]->user_syscalls);
	}
	csv_end_row(w);
}

static const char *const sites_header[] = {
	"kernel", "smap_state", "rank", "function", "pairs", "share",
	"command_stac", "baseline_stac", "via_1", "via_1_pairs", "via_2",
	"via_2_pairs", "via_3", "via_3_pairs",
};

static void sites_rows(struct csv_writer *w, const struct outputs *o,
		       const struct command_boot *b)
{
	int64_t all = total_pairs(b);

	(void)o;
	for (size_t k = 0; k < b->nfunctions; k++) {
		const struct function_count *fn = &b->functions[k];

		csv_field(w, b->command->kernel);
		csv_field(w, b->command->state);
		csv_field_uint(w, k + 1);
		csv_field(w, fn->name);
		field_signed(w, function_pairs(fn));
		field_ratio(w, (double)function_pairs(fn), (double)all);
		csv_field_uint(w, fn->stac);
		csv_field_uint(w, fn->baseline_stac);
		for (size_t v = 0; v < VIA_SHOWN; v++) {
			int shown = v < fn->nvia && fn->via[v].pairs > 0;

			csv_field(w, shown ? fn->via[v].syscall : "");
			if (shown)
				field_signed(w, fn->via[v].pairs);
			else
				csv_field(w, "");
		}
		csv_end_row(w);
	}
}

static const char *const syscalls_header[] = {
	"kernel", "smap_state", "system_call", "calls", "pairs",
	"pairs_per_call", "command_calls", "command_stac",
	"baseline_calls", "baseline_stac",
};

static void syscalls_rows(struct csv_writer *w, const struct outputs *o,
			  const struct command_boot *b)
{
	(void)o;
	for (size_t k = 0; k < b->nsyscalls; k++) {
		const struct syscall_count *s = &b->syscalls[k];
		int64_t calls = difference(s->calls, s->baseline_calls);

		csv_field(w, b->command->kernel);
		csv_field(w, b->command->state);
		csv_field(w, s->name);
		field_signed(w, calls);
		field_signed(w, syscall_pairs(s));
		field_ratio(w, (double)syscall_pairs(s), (double)calls);
		csv_field_uint(w, s->calls);
		csv_field_uint(w, s->stac);
		csv_field_uint(w, s->baseline_calls);
		csv_field_uint(w, s->baseline_stac);
		csv_end_row(w);
	}
}

int census_command_write_census_csv(FILE *f, const void *outputs)
{
	return write_per_boot(f, outputs, census_header, COLUMNS(census_header),
			      census_rows);
}

int census_command_write_sites_csv(FILE *f, const void *outputs)
{
	return write_per_boot(f, outputs, sites_header, COLUMNS(sites_header),
			      sites_rows);
}

int census_command_write_syscalls_csv(FILE *f, const void *outputs)
{
	return write_per_boot(f, outputs, syscalls_header,
			      COLUMNS(syscalls_header), syscalls_rows);
}
