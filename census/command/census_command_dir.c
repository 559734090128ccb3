// SPDX-License-Identifier: GPL-2.0
/*
 * census_command_dir.c - the census directory of a command: what the
 * plugin counted while `true` (the baseline) and COMMAND ran in each
 * boot, the difference, where the windows were opened, which system
 * calls opened them, and what they would cost (census_command.h).
 *
 * Everything here is made from the plugin's rows (census_load_plugin_output)
 * and the inputs, so a directory's files follow from its raw/ and
 * context.csv.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/gnuplot.h"
#include "analysis/text_table.h"
#include "census/census.h"
#include "census/command/census_command.h"
#include "census/command/census_cost.h"
#include "rundata/atomic_dir.h"
#include "rundata/csv.h"
#include "rundata/report.h"
#include "measure/context.h"
#include "measure/stats.h"
#include "rundata/rundir.h"
#include "system/version.h"

#define NAME_LEN 160
/* System calls named beside each function. */
#define VIA_SHOWN 3
/* The label of windows opened in no system call (census_protocol.h). */
#define NO_SYSCALL "-"
/* rseq's update on the way back to user space (census_guest.c) */
#define RSEQ "[rseq]"
/* Kernels and functions the plot shows at most. */
#define PLOT_SERIES 8
#define PLOT_ROWS 64

/* What a function of the kernel opened, in both intervals. */
struct function_count {
	char name[NAME_LEN];
	uint64_t stac, baseline_stac;
	/* its pairs (COMMAND minus the baseline) by the system call they ran in */
	struct via_count {
		char syscall[NAME_LEN];
		int64_t pairs;
	} *via;
	size_t nvia;
};

/* One system call: how often each program made it, and what it opened. */
struct syscall_count {
	char name[NAME_LEN];
	uint64_t calls, baseline_calls, stac, baseline_stac;
};

/* One kernel and SMAP state. */
struct command_boot {
	const struct census_row *baseline, *command;
	double boot_seconds, guest_seconds;
	/* COMMAND minus the baseline */
	int64_t pairs, clac, entry_clac, popf, kinsn, system_calls;
	/* of pairs, rseq's on the way back to user space, and its updates */
	int64_t rseq_pairs, rseq_updates;
	double context_switches;
	/* rseq as natively, and the pairs the estimate takes (model_pairs()) */
	double rseq_pairs_per_update, native_rseq_pairs, model_pairs;
	struct function_count *functions;	/* by pairs, most first */
	size_t nfunctions;
	struct syscall_count *syscalls;		/* by pairs, then calls */
	size_t nsyscalls;
	/* the estimate: share of the native time, and its interval */
	double estimate_seconds, fraction, fraction_low, fraction_high;
};

struct command_census {
	struct command_boot *boots;
	size_t nboots;
};

/* What the files of the directory are written from. */
struct outputs {
	const struct census *census;
	const struct command_census *cc;
	const struct census_command_inputs *in;
	const char *command;	/* the command line, quoted for a shell */
	const char *date, *host;	/* when and where it was counted */
	int has_plot;
};

/* The SMAP boots, at most max: the plot's series. */
static size_t smap_boots(const struct command_census *cc,
			 const struct command_boot **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cc->nboots && n < max; i++)
		if (!strcmp(cc->boots[i].command->state, "smap"))
			out[n++] = &cc->boots[i];
	return n;
}

static int64_t difference(uint64_t a, uint64_t b)
{
	return (int64_t)a - (int64_t)b;
}

static int64_t function_pairs(const struct function_count *f)
{
	return difference(f->stac, f->baseline_stac);
}

static int64_t syscall_pairs(const struct syscall_count *s)
{
	return difference(s->stac, s->baseline_stac);
}

/* ---- deriving ------------------------------------------------------ */

static struct function_count *function_of(struct command_boot *b,
					  const char *site)
{
	char name[NAME_LEN];
	struct function_count *f;

	census_site_function(site, name, sizeof(name));
	for (size_t i = 0; i < b->nfunctions; i++)
		if (!strcmp(b->functions[i].name, name))
			return &b->functions[i];
	f = realloc(b->functions, (b->nfunctions + 1) * sizeof(*f));
	if (!f)
		return NULL;
	b->functions = f;
	f += b->nfunctions++;
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

static struct syscall_count *syscall_of(struct command_boot *b,
					const char *name)
{
	struct syscall_count *s;

	for (size_t i = 0; i < b->nsyscalls; i++)
		if (!strcmp(b->syscalls[i].name, name))
			return &b->syscalls[i];
	s = realloc(b->syscalls, (b->nsyscalls + 1) * sizeof(*s));
	if (!s)
		return NULL;
	b->syscalls = s;
	s += b->nsyscalls++;
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

static int add_via(struct function_count *f, const char *syscall,
		   int64_t pairs)
{
	struct via_count *v;

	for (size_t i = 0; i < f->nvia; i++)
		if (!strcmp(f->via[i].syscall, syscall)) {
			f->via[i].pairs += pairs;
			return 0;
		}
	v = realloc(f->via, (f->nvia + 1) * sizeof(*v));
	if (!v)
		return -1;
	f->via = v;
	v += f->nvia++;
	snprintf(v->syscall, sizeof(v->syscall), "%s", syscall);
	v->pairs = pairs;
	return 0;
}

/* Functions and system calls of one row; is_command picks the columns. */
static int add_row(struct command_boot *b, const struct census_row *r,
		   int is_command)
{
	for (size_t i = 0; i < r->nsites; i++) {
		struct function_count *f = function_of(b, r->sites[i].where);

		if (!f)
			return -1;
		*(is_command ? &f->stac : &f->baseline_stac) += r->sites[i].stac;
	}
	for (size_t i = 0; i < r->nsyscalls; i++) {
		struct syscall_count *s = syscall_of(b, r->syscalls[i].name);

		if (!s)
			return -1;
		*(is_command ? &s->calls : &s->baseline_calls) += r->syscalls[i].calls;
	}
	for (size_t i = 0; i < r->nvias; i++) {
		struct syscall_count *s = syscall_of(b, r->vias[i].syscall);
		struct function_count *f = function_of(b, r->vias[i].where);

		if (!s || !f)
			return -1;
		*(is_command ? &s->stac : &s->baseline_stac) += r->vias[i].stac;
		if (add_via(f, r->vias[i].syscall, is_command ?
			    (int64_t)r->vias[i].stac : -(int64_t)r->vias[i].stac))
			return -1;
	}
	return 0;
}

static int by_pairs(const void *a, const void *b)
{
	const struct function_count *x = a, *y = b;
	int64_t px = function_pairs(x), py = function_pairs(y);

	if (px != py)
		return px > py ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_syscall_pairs(const void *a, const void *b)
{
	const struct syscall_count *x = a, *y = b;
	int64_t px = syscall_pairs(x), py = syscall_pairs(y);
	int64_t cx = difference(x->calls, x->baseline_calls);
	int64_t cy = difference(y->calls, y->baseline_calls);

	if (px != py)
		return px > py ? -1 : 1;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_via(const void *a, const void *b)
{
	const struct via_count *x = a, *y = b;

	if (x->pairs != y->pairs)
		return x->pairs > y->pairs ? -1 : 1;
	return strcmp(x->syscall, y->syscall);
}

/* The number of a "note\t<key> <number>" line of a plugin output, or NAN. */
static double note_number(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	size_t len = strlen(key);
	char line[256];
	double v = NAN;

	if (!f)
		return NAN;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "note\t", 5) && !strncmp(line + 5, key, len) &&
		    line[5 + len] == ' ' && sscanf(line + 6 + len, "%lf", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * The pairs the estimate takes: those counted, with rseq's as many as
 * natively. rseq updates user memory once after each context switch of
 * the task; in the guest 9p makes COMMAND wait for the host at every
 * open and close, so there rseq's windows follow the guest's switches,
 * not the machine's. They are replaced by the windows of one update, as
 * counted, times the context switches of a native run. Without a native
 * run (--native-seconds): the counted pairs.
 */
static void model_pairs(struct command_boot *b, const struct census_native *n)
{
	const struct census_row *cmd = b->command;
	double updates = 0, windows = 0;

	for (size_t i = 0; i < cmd->nsyscalls; i++)
		if (!strcmp(cmd->syscalls[i].name, RSEQ))
			updates += (double)cmd->syscalls[i].calls;
	for (size_t i = 0; i < cmd->nvias; i++)
		if (!strcmp(cmd->vias[i].syscall, RSEQ))
			windows += (double)cmd->vias[i].stac;
	b->rseq_pairs_per_update = updates > 0 ? windows / updates : 0;
	b->native_rseq_pairs = NAN;
	b->model_pairs = (double)b->pairs;
	if (isnan(n->context_switches))
		return;
	b->native_rseq_pairs = b->rseq_pairs_per_update * n->context_switches;
	b->model_pairs = (double)(b->pairs - b->rseq_pairs) + b->native_rseq_pairs;
}

static void estimate(struct command_boot *b, const struct census_command_inputs *in)
{
	const struct census_pair_cost *cost = in->cost;
	const struct census_native *n = in->native;

	model_pairs(b, n);
	b->estimate_seconds = b->fraction = b->fraction_low = b->fraction_high = NAN;
	if (!cost->known || !(n->median > 0))
		return;
	b->estimate_seconds = b->model_pairs * census_cost_seconds(cost, cost->value);
	b->fraction = b->estimate_seconds / n->median;
	b->fraction_low = b->model_pairs * census_cost_seconds(cost, cost->low) / n->max;
	b->fraction_high = b->model_pairs * census_cost_seconds(cost, cost->high) / n->min;
}

static void free_command_census(struct command_census *cc)
{
	for (size_t i = 0; i < cc->nboots; i++) {
		for (size_t k = 0; k < cc->boots[i].nfunctions; k++)
			free(cc->boots[i].functions[k].via);
		free(cc->boots[i].functions);
		free(cc->boots[i].syscalls);
	}
	free(cc->boots);
	memset(cc, 0, sizeof(*cc));
}

static int derive(const struct census *c, const struct census_boot_file *files,
		  const struct census_command_inputs *in,
		  struct command_census *cc, char *err, size_t errlen)
{
	memset(cc, 0, sizeof(*cc));
	cc->boots = calloc(c->nboots ? c->nboots : 1, sizeof(*cc->boots));
	if (!cc->boots)
		goto nomem;
	for (size_t i = 0; i < c->nboots; i++) {
		char kernel[256] = "", state[32] = "";
		struct command_boot *b = &cc->boots[cc->nboots];
		const struct census_row *base, *cmd;

		sscanf(c->boots[i], "%255s %31s", kernel, state);
		base = census_find_row(c, kernel, state, "command/baseline");
		cmd = census_find_row(c, kernel, state, "command/command");
		if (!base || !cmd) {
			snprintf(err, errlen, "%s: no %s row: not the output of a command's census",
				 files[i].path, base ? "command/command" : "command/baseline");
			goto fail;
		}
		if (!cmd->has_syscalls || !base->has_syscalls) {
			snprintf(err, errlen, "%s: no count of system calls: the plugin is older than protocol 2",
				 files[i].path);
			goto fail;
		}
		cc->nboots++;
		b->baseline = base;
		b->command = cmd;
		b->boot_seconds = files[i].seconds;
		b->guest_seconds = note_number(files[i].path, "command_seconds");
		b->context_switches =
			note_number(files[i].path, "command_context_switches") -
			note_number(files[i].path, "baseline_context_switches");
		b->pairs = difference(cmd->total.stac, base->total.stac);
		b->clac = difference(cmd->total.clac - cmd->total.entry_clac,
				     base->total.clac - base->total.entry_clac);
		b->entry_clac = difference(cmd->total.entry_clac, base->total.entry_clac);
		b->popf = difference(cmd->total.popf, base->total.popf);
		b->kinsn = difference(cmd->kinsn, base->kinsn);
		b->system_calls = difference(cmd->user_syscalls, base->user_syscalls);
		if (add_row(b, cmd, 1) || add_row(b, base, 0))
			goto nomem;
		qsort(b->functions, b->nfunctions, sizeof(*b->functions), by_pairs);
		for (size_t k = 0; k < b->nfunctions; k++)
			qsort(b->functions[k].via, b->functions[k].nvia,
			      sizeof(*b->functions[k].via), by_via);
		qsort(b->syscalls, b->nsyscalls, sizeof(*b->syscalls),
		      by_syscall_pairs);
		for (size_t k = 0; k < b->nsyscalls; k++)
			if (!strcmp(b->syscalls[k].name, RSEQ)) {
				b->rseq_pairs = syscall_pairs(&b->syscalls[k]);
				b->rseq_updates = difference(b->syscalls[k].calls,
							     b->syscalls[k].baseline_calls);
			}
		estimate(b, in);
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	free_command_census(cc);
	return -1;
}

/* ---- CSV files ----------------------------------------------------- */

/* The command as one line: arguments quoted for a shell where needed. */
static void command_text(char *const *argv, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (char *const *a = argv; *a && used + 4 < len; a++) {
		int plain = **a != '\0';

		for (const char *p = *a; *p; p++)
			plain &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%^", *p);
		if (used)
			out[used++] = ' ';
		if (plain) {
			used += (size_t)snprintf(out + used, len - used, "%s", *a);
		} else {
			out[used++] = '\'';
			for (const char *p = *a; *p && used + 6 < len; p++) {
				if (*p == '\'') {
					memcpy(out + used, "'\\''", 4);
					used += 4;
				} else {
					out[used++] = *p;
				}
			}
			out[used++] = '\'';
		}
		if (used >= len)
			used = len - 1;
		out[used] = '\0';
	}
}

static void field_signed(struct csv_writer *w, int64_t v)
{
	csv_field_int(w, (long long)v);
}

static void field_ratio(struct csv_writer *w, double a, double b)
{
	csv_field_double(w, b > 0 ? a / b : NAN);
}

static int write_census_csv(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct command_census *cc = o->cc;
	const struct census_command_inputs *in = o->in;

	static const char *const header[] = {
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
	const struct census_pair_cost *cost = in->cost;
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, sizeof(header) / sizeof(header[0]));
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *b = &cc->boots[i];
		const struct census_row *rows[] = { b->command, b->baseline };

		csv_field(&w, b->command->kernel);
		csv_field(&w, b->command->state);
		csv_field(&w, o->command);
		field_signed(&w, b->pairs);
		field_signed(&w, b->rseq_pairs);
		field_signed(&w, b->clac);
		field_signed(&w, b->entry_clac);
		field_signed(&w, b->popf);
		field_signed(&w, b->kinsn);
		field_signed(&w, b->system_calls);
		field_ratio(&w, (double)b->pairs, (double)b->system_calls);
		field_signed(&w, b->rseq_updates);
		csv_field_double(&w, b->context_switches);
		csv_field_double(&w, in->native->median);
		csv_field_double(&w, in->native->min);
		csv_field_double(&w, in->native->max);
		csv_field_double(&w, in->native->context_switches);
		csv_field_double(&w, b->native_rseq_pairs);
		csv_field_double(&w, b->model_pairs);
		field_ratio(&w, b->model_pairs, in->native->median);
		csv_field_double(&w, cost->known ? cost->value : NAN);
		csv_field_double(&w, cost->known ? cost->low : NAN);
		csv_field_double(&w, cost->known ? cost->high : NAN);
		csv_field(&w, cost->known ? cost->unit : "");
		csv_field_double(&w, cost->ghz > 0 ? cost->ghz : NAN);
		csv_field_double(&w, b->estimate_seconds);
		csv_field_double(&w, b->fraction);
		csv_field_double(&w, b->fraction_low);
		csv_field_double(&w, b->fraction_high);
		csv_field_double(&w, b->boot_seconds);
		csv_field_double(&w, b->guest_seconds);
		for (size_t k = 0; k < 2; k++) {
			csv_field_uint(&w, rows[k]->total.stac);
			csv_field_uint(&w, rows[k]->total.clac - rows[k]->total.entry_clac);
			csv_field_uint(&w, rows[k]->total.entry_clac);
			csv_field_uint(&w, rows[k]->total.popf);
			csv_field_uint(&w, rows[k]->kinsn);
			csv_field_uint(&w, rows[k]->user_syscalls);
		}
		csv_end_row(&w);
	}
	return csv_writer_error(&w) ? -1 : 0;
}

static int64_t total_pairs(const struct command_boot *b)
{
	int64_t sum = 0;

	for (size_t i = 0; i < b->nfunctions; i++)
		sum += function_pairs(&b->functions[i]);
	return sum;
}

static int write_sites_csv(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct command_census *cc = o->cc;
	static const char *const header[] = {
		"kernel", "smap_state", "rank", "function", "pairs", "share",
		"command_stac", "baseline_stac", "via_1", "via_1_pairs", "via_2",
		"via_2_pairs", "via_3", "via_3_pairs",
	};
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, sizeof(header) / sizeof(header[0]));
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *b = &cc->boots[i];
		int64_t all = total_pairs(b);

		for (size_t k = 0; k < b->nfunctions; k++) {
			const struct function_count *fn = &b->functions[k];

			csv_field(&w, b->command->kernel);
			csv_field(&w, b->command->state);
			csv_field_uint(&w, k + 1);
			csv_field(&w, fn->name);
			field_signed(&w, function_pairs(fn));
			field_ratio(&w, (double)function_pairs(fn), (double)all);
			csv_field_uint(&w, fn->stac);
			csv_field_uint(&w, fn->baseline_stac);
			for (size_t v = 0; v < VIA_SHOWN; v++) {
				int shown = v < fn->nvia && fn->via[v].pairs > 0;

				csv_field(&w, shown ? fn->via[v].syscall : "");
				if (shown)
					field_signed(&w, fn->via[v].pairs);
				else
					csv_field(&w, "");
			}
			csv_end_row(&w);
		}
	}
	return csv_writer_error(&w) ? -1 : 0;
}

static int write_syscalls_csv(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct command_census *cc = o->cc;
	static const char *const header[] = {
		"kernel", "smap_state", "system_call", "calls", "pairs",
		"pairs_per_call", "command_calls", "command_stac",
		"baseline_calls", "baseline_stac",
	};
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, sizeof(header) / sizeof(header[0]));
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *b = &cc->boots[i];

		for (size_t k = 0; k < b->nsyscalls; k++) {
			const struct syscall_count *s = &b->syscalls[k];
			int64_t calls = difference(s->calls, s->baseline_calls);

			csv_field(&w, b->command->kernel);
			csv_field(&w, b->command->state);
			csv_field(&w, s->name);
			field_signed(&w, calls);
			field_signed(&w, syscall_pairs(s));
			field_ratio(&w, (double)syscall_pairs(s), (double)calls);
			csv_field_uint(&w, s->calls);
			csv_field_uint(&w, s->stac);
			csv_field_uint(&w, s->baseline_calls);
			csv_field_uint(&w, s->baseline_stac);
			csv_end_row(&w);
		}
	}
	return csv_writer_error(&w) ? -1 : 0;
}

static int write_context(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct census *c = o->census;
	const struct census_command_inputs *in = o->in;
	const struct census_pair_cost *cost = in->cost;
	const struct census_native *n = in->native;
	char runs[CENSUS_NATIVE_MAX_RUNS * 32] = "", key[48];
	struct context ctx = { 0 };
	size_t argc = 0;
	int failed = 0, rc;

	/* numbers as %.17g: census redraw reads back the very same doubles */
	failed |= context_set(&ctx, "date", "%s", o->date);
	failed |= context_set(&ctx, "host", "%s", o->host);
	failed |= context_set(&ctx, "kind", "census-command");
	failed |= context_set(&ctx, "smapbench_version", "%s",
			      in->version ? in->version : SMAPBENCH_VERSION);
	failed |= context_set(&ctx, "git_revision", "%s",
			      in->revision ? in->revision : SMAPBENCH_GIT_REVISION);
	failed |= context_set(&ctx, "virt", "tcg");
	failed |= context_set(&ctx, "command", "%s", o->command);
	for (char *const *a = in->argv; *a; a++)
		argc++;
	failed |= context_set(&ctx, "argc", "%zu", argc);
	for (size_t i = 0; i < argc; i++) {
		snprintf(key, sizeof(key), "argv_%zu", i);
		failed |= context_set(&ctx, key, "%s", in->argv[i]);
	}
	failed |= context_set(&ctx, "cwd", "%s", in->cwd);
	failed |= context_set(&ctx, "timeout_seconds", "%.17g", in->timeout);
	for (size_t i = 0; i < n->runs; i++)
		snprintf(runs + strlen(runs), sizeof(runs) - strlen(runs), "%s%.17g",
			 i ? " " : "", n->seconds[i]);
	failed |= context_set(&ctx, "native_seconds_given", "%d", n->given);
	failed |= context_set(&ctx, "native_seconds_runs", "%s", runs);
	failed |= context_set(&ctx, "native_seconds", "%.17g", n->median);
	failed |= context_set(&ctx, "native_context_switches", "%.17g",
			      n->context_switches);
	failed |= context_set(&ctx, "pair_cost_known", "%d", cost->known);
	if (cost->known) {
		failed |= context_set(&ctx, "pair_cost", "%.17g", cost->value);
		failed |= context_set(&ctx, "pair_cost_low", "%.17g", cost->low);
		failed |= context_set(&ctx, "pair_cost_high", "%.17g", cost->high);
		failed |= context_set(&ctx, "pair_cost_unit", "%s", cost->unit);
		failed |= context_set(&ctx, "pair_cost_source", "%s", cost->source);
		failed |= context_set(&ctx, "ghz", "%.17g", cost->ghz);
		failed |= context_set(&ctx, "ghz_source", "%s", cost->ghz_source);
	}
	failed |= context_set(&ctx, "top", "%u", in->top);
	for (size_t i = 0; i < c->nboots; i++) {
		snprintf(key, sizeof(key), "boot_%zu", i + 1);
		failed |= context_set(&ctx, key, "%s", c->boots[i]);
		snprintf(key, sizeof(key), "boot_%zu_seconds", i + 1);
		failed |= context_set(&ctx, key, "%.17g",
				      o->cc->boots[i].boot_seconds);
	}
	rc = failed ? -1 : report_context_pairs_csv(f, &ctx);
	context_free(&ctx);
	return rc;
}

/* ---- report.md ----------------------------------------------------- */

static const char *state_text(const char *state)
{
	return !strcmp(state, "smap") ? "SMAP on" :
	       !strcmp(state, "clearcpuid") ? "`clearcpuid=smap`" :
	       !strcmp(state, "cpu-off") ? "CPU without SMAP" : state;
}

static void md_code(FILE *f, const char *s)
{
	/* a code span that no backtick in s can end */
	fputs("<code>", f);
	md_text(f, s);
	fputs("</code>", f);
}

/* A ratio in at most 3 digits ("7.9", "0", "1.01"); "-" for none. */
static const char *ratio_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, isnan(v) ? "-" : "%.3g", v);
	return buf;
}

/* A count, or a median of counts ("260", "12.5"); "-" for none. */
static const char *count_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, isnan(v) ? "-" : v == round(v) ? "%.0f" : "%.1f", v);
	return buf;
}

static void report_counts(FILE *f, const struct command_census *cc,
			  const struct census_command_inputs *in)
{
	char a[64], b[64], d[64];
	double per_update = NAN;

	fprintf(f, "## Windows opened\n\n"
		"COMMAND's counts minus those of `true` run the same way in the same boot.\n\n"
		"| kernel | SMAP | pairs (STAC) | of which rseq | pairs, rseq as natively | CLAC | POPF | system calls | pairs per system call | pairs per second of native time | estimate: share of native time [interval] | census boot |\n"
		"| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *x = &cc->boots[i];

		fprintf(f, "| ");
		md_text(f, x->command->kernel);
		fprintf(f, " | %s | %" PRId64 " | %" PRId64 " | %.0f | %" PRId64 " | %" PRId64 " | %" PRId64 " | %s | %s | ",
			state_text(x->command->state), x->pairs, x->rseq_pairs,
			x->model_pairs, x->clac, x->popf, x->system_calls,
			ratio_text(a, sizeof(a), x->system_calls > 0 ?
				   (double)x->pairs / (double)x->system_calls : NAN),
			count_text(b, sizeof(b), in->native->median > 0 ?
				   round(x->model_pairs / in->native->median) : NAN));
		if (isnan(x->fraction))
			fprintf(f, "- |");
		else
			fprintf(f, "%.3g%% [%.3g%%, %.3g%%] |", 100 * x->fraction,
				100 * x->fraction_low, 100 * x->fraction_high);
		fprintf(f, " %.0f s |\n", x->boot_seconds);
	}
	for (size_t i = 0; i < cc->nboots; i++)
		if (cc->boots[i].rseq_pairs_per_update > 0) {
			per_update = cc->boots[i].rseq_pairs_per_update;
			break;
		}
	fprintf(f, "\n**rseq.** After every context switch of a task, rseq's update writes its\n"
		"CPU number to user memory on the way back to user space: %s windows per\n"
		"update here with SMAP. How often COMMAND switches is not the same in the\n"
		"guest, one quiet vCPU where 9p makes every open and close wait for the host,\n"
		"as on this machine, where other work preempts it: in the guest",
		ratio_text(d, sizeof(d), per_update));
	for (size_t i = 0, n = 0; i < cc->nboots; i++) {
		const struct command_boot *x = &cc->boots[i];

		if (strcmp(x->command->state, "smap"))
			continue;
		fprintf(f, "%s %s times on ", n++ ? "," : "",
			count_text(d, sizeof(d), x->context_switches));
		md_text(f, x->command->kernel);
	}
	if (isnan(in->native->context_switches))
		fprintf(f, "; natively not measured (`--native-seconds`), so the estimate takes the\n"
			"pairs as counted.\n\n");
	else
		fprintf(f, "; natively %s times (the median of the timed runs). So \"pairs, rseq as\n"
			"natively\" replaces the counted rseq windows by the windows of one update times\n"
			"the native context switches, and the pairs per second and the estimate take\n"
			"that figure.\n\n",
			count_text(d, sizeof(d), in->native->context_switches));
}

static void report_model(FILE *f, const struct census_command_inputs *in)
{
	const struct census_pair_cost *cost = in->cost;
	const struct census_native *n = in->native;

	fprintf(f, "## What it would cost: a model\n\n");
	if (n->given)
		fprintf(f, "Native wall time: %.4g s, given (`--native-seconds`).\n\n",
			n->median);
	else
		fprintf(f, "Native wall time on this machine, outside the guest: median %.4g s of %zu runs after one warm-up (%.4g to %.4g s).\n\n",
			n->median, n->runs, n->min, n->max);
	if (!cost->known) {
		fprintf(f, "No pair cost was given (`--cpu-row` or `--pair-cycles`): no estimate.\n\n");
		return;
	}
	fprintf(f, "**This is a model, not a measurement.** The estimate is pairs × the cost of one\n"
		"STAC/CLAC pair measured in isolation ÷ the native time: it ignores what the\n"
		"pairs do to the pipeline around them (serialisation of the flags, lost\n"
		"overlap with the copies they bracket), and it assumes the native time of this\n"
		"machine. Check it with two boots of the real machine, SMAP on and\n"
		"`clearcpuid=smap` (docs/census.md, \"Checking the model\").\n\n");
	fprintf(f, "- pair cost: ");
	md_text(f, cost->source);
	fprintf(f, "\n- core frequency: ");
	md_text(f, cost->ghz_source);
	fprintf(f, "\n- interval: the pair cost's interval over the native time's range\n\n");
}

static void report_sites(FILE *f, const struct command_census *cc,
			 unsigned top)
{
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *b = &cc->boots[i];
		int64_t all = total_pairs(b);

		if (strcmp(b->command->state, "smap"))
			continue;
		fprintf(f, "## Where, ");
		md_text(f, b->command->kernel);
		fprintf(f, " (SMAP on)\n\n");
		if (!b->nfunctions || all <= 0) {
			fprintf(f, "No window above the baseline.\n\n");
			continue;
		}
		fprintf(f, "| # | kernel function | pairs | share | reached from (system call: pairs) |\n"
			"| ---: | --- | ---: | ---: | --- |\n");
		for (size_t k = 0; k < b->nfunctions && k < top; k++) {
			const struct function_count *fn = &b->functions[k];

			if (function_pairs(fn) <= 0)
				break;
			fprintf(f, "| %zu | ", k + 1);
			md_code(f, fn->name);
			fprintf(f, " | %" PRId64 " | %.1f%% | ", function_pairs(fn),
				100.0 * (double)function_pairs(fn) / (double)all);
			for (size_t v = 0; v < fn->nvia && v < VIA_SHOWN &&
			     fn->via[v].pairs > 0; v++) {
				fprintf(f, "%s", v ? ", " : "");
				md_text(f, !strcmp(fn->via[v].syscall, NO_SYSCALL) ?
					"(none)" : fn->via[v].syscall);
				fprintf(f, ": %" PRId64, fn->via[v].pairs);
			}
			fprintf(f, " |\n");
		}
		fprintf(f, "\nSystem calls by the windows they opened (COMMAND minus the baseline):\n\n"
			"| system call | calls | pairs | pairs per call |\n"
			"| --- | ---: | ---: | ---: |\n");
		for (size_t k = 0; k < b->nsyscalls && k < top; k++) {
			const struct syscall_count *s = &b->syscalls[k];
			int64_t calls = difference(s->calls, s->baseline_calls);
			char per[32];

			if (syscall_pairs(s) <= 0)
				break;
			fprintf(f, "| ");
			md_text(f, !strcmp(s->name, NO_SYSCALL) ? "(none: faults, interrupts)" :
				s->name);
			fprintf(f, " | %" PRId64 " | %" PRId64 " | %s |\n", calls,
				syscall_pairs(s),
				ratio_text(per, sizeof(per), calls > 0 ?
					   (double)syscall_pairs(s) / (double)calls : NAN));
		}
		fputc('\n', f);
	}
}

static int write_report(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct command_census *cc = o->cc;
	const struct census_command_inputs *in = o->in;

	fprintf(f, "# User-access windows of ");
	md_code(f, o->command);
	fprintf(f, "\n\nWritten by `smapbench census`: COMMAND ran from this machine's userland in a\n"
		"QEMU TCG guest (`-cpu max`, one vCPU) under the census plugin, once per kernel\n"
		"and SMAP state; the plugin counted the STAC, CLAC and POPF the guest kernel\n"
		"executed and the SYSCALL instructions run in user mode (docs/census.md, \"A\n"
		"census of any command\"). Working directory: ");
	md_code(f, in->cwd);
	fprintf(f, ".\n\n");
	report_counts(f, cc, in);
	report_model(f, in);
	if (o->has_plot)
		fprintf(f, "![pairs per kernel function, SMAP boots](plots/census-sites.png)\n\n");
	report_sites(f, cc, in->top);
	fprintf(f, "## Limits\n\n"
		"- The guest's root is this machine's, over 9p under an overlay: file system\n"
		"  paths (9p, overlayfs) differ from a native ext4 or xfs, so the windows of\n"
		"  file I/O are those of that stack.\n"
		"- One vCPU, no devices beyond 9p: what other CPUs and real devices would do is\n"
		"  not in the counts. Interrupts and kernel threads that ran meanwhile are, in\n"
		"  both intervals, and mostly cancel.\n"
		"- A window is attributed to the system call whose function ran last while no\n"
		"  user code ran since; \"(none)\" is a page fault or interrupt from user mode.\n");
	return ferror(f) ? -1 : 0;
}

/* ---- the plot ------------------------------------------------------ */

/*
 * plots/census-sites.dat: the top functions of the SMAP boots, one
 * column of pairs per kernel. 0, or -1 when there is nothing to plot.
 */
static int write_plot_data(FILE *f, const void *arg)
{
	const struct outputs *o = arg;
	const struct command_census *cc = o->cc;
	unsigned top = o->in->top;
	const struct command_boot *smap[PLOT_SERIES];
	size_t n = smap_boots(cc, smap, PLOT_SERIES), rows = 0;
	char shown[PLOT_ROWS][NAME_LEN];

	if (!n)
		return -1;
	fprintf(f, "function");
	for (size_t k = 0; k < n; k++) {
		fputc(',', f);
		gnuplot_data_string(f, smap[k]->command->kernel, 64);
	}
	fputc('\n', f);
	/* the union of each kernel's top functions, in rank order */
	for (size_t rank = 0; rank < top && rows < PLOT_ROWS; rank++) {
		for (size_t k = 0; k < n && rows < PLOT_ROWS; k++) {
			const struct command_boot *b = smap[k];
			const struct function_count *fn;
			int dup = 0;

			if (rank >= b->nfunctions)
				continue;
			fn = &b->functions[rank];
			if (function_pairs(fn) <= 0)
				continue;
			for (size_t r = 0; r < rows; r++)
				dup |= !strcmp(shown[r], fn->name);
			if (dup)
				continue;
			snprintf(shown[rows++], NAME_LEN, "%s", fn->name);
		}
	}
	for (size_t r = 0; r < rows; r++) {
		gnuplot_data_string(f, shown[r], NAME_LEN);
		for (size_t k = 0; k < n; k++) {
			const struct command_boot *b = smap[k];
			int found = 0;

			for (size_t i = 0; i < b->nfunctions && !found; i++)
				if (!strcmp(b->functions[i].name, shown[r])) {
					fprintf(f, ",%" PRId64, function_pairs(&b->functions[i]));
					found = 1;
				}
			if (!found)
				fprintf(f, ",NaN");
		}
		fputc('\n', f);
	}
	return ferror(f) || !rows ? -1 : 0;
}

static int render_plot(const char *dir, size_t series, const char *command)
{
	struct gnuplot gp;
	char settings[4096] = "", plots[PATH_MAX + 64], title[600];
	int rc;

	if (gnuplot_find(&gp, "census"))
		return -1;
	snprintf(title, sizeof(title), "STAC/CLAC pairs above the baseline per kernel function: %.500s",
		 command);
	gnuplot_set_string(settings, sizeof(settings), "title", title);
	gnuplot_set_string(settings, sizeof(settings), "context",
			   "counted by the census plugin in QEMU TCG, -cpu max, SMAP boots (docs/census.md)");
	gnuplot_set_number(settings, sizeof(settings), "nseries", (double)series);
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	rc = gnuplot_draw(&gp, "census", "census-sites.gp", plots, "census-sites",
			  settings);
	gnuplot_free(&gp);
	return rc;
}

/* ---- the console --------------------------------------------------- */

/* What a reader of the terminal needs: the counts, the estimate, the warning. */
static void print_summary(const struct outputs *o, FILE *f)
{
	const struct command_census *cc = o->cc;
	char per[32];

	fprintf(f, "census: %s\n", o->command);
	for (size_t i = 0; i < cc->nboots; i++) {
		const struct command_boot *b = &cc->boots[i];

		fprintf(f, "  %-24s %-10s %10" PRId64 " pairs above the baseline (%" PRId64 " of rseq; %.0f with rseq as natively), %" PRId64 " system calls, %s pairs per native second",
			b->command->kernel, b->command->state, b->pairs,
			b->rseq_pairs, b->model_pairs, b->system_calls,
			count_text(per, sizeof(per), o->in->native->median > 0 ?
				   round(b->model_pairs / o->in->native->median) : NAN));
		if (!isnan(b->fraction))
			fprintf(f, "; estimate %.3g%% of the native time [%.3g%%, %.3g%%]",
				100 * b->fraction, 100 * b->fraction_low,
				100 * b->fraction_high);
		fputc('\n', f);
		if (!strcmp(b->command->state, "smap"))
			for (size_t k = 0; k < b->nfunctions && k < 3; k++)
				if (function_pairs(&b->functions[k]) > 0)
					fprintf(f, "      %-40s %10" PRId64 "\n",
						b->functions[k].name,
						function_pairs(&b->functions[k]));
	}
	if (o->in->cost->known)
		fprintf(f, "census: THE ESTIMATE IS A MODEL: pairs x the isolated cost of one pair / the native time.\n"
			"        It ignores what the pairs do to the pipeline around them; check it with a\n"
			"        SMAP and a clearcpuid=smap boot of the real machine (docs/census.md).\n");
}

/* ---- the directory ------------------------------------------------- */

static const struct atomic_dir_kind census_command_dir = { .name = "census-command" };

/* The command's program, as a directory name's last part. */
static void name_part(char *const *argv, char *out, size_t len)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	size_t n = 0;

	for (const char *p = base; *p && n + 1 < len && n < 32; p++)
		out[n++] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p) ?
			   *p : '_';
	out[n] = '\0';
	if (!n || out[0] == '.' || out[0] == '-')
		snprintf(out, len, "command");
}

int census_command_write_dir(const struct census *census,
			     const struct census_boot_file *files, size_t nfiles,
			     const struct census_command_inputs *in,
			     const char *out, char *written, size_t writtenlen,
			     FILE *summary, char *err, size_t errlen)
{
	const struct command_boot *smap[PLOT_SERIES];
	struct command_census cc;
	struct atomic_dir dir;
	char command[4096], name[512], host[256] = "", date[64], part[40],
	     state[64], path[PATH_MAX + 64];
	struct outputs o = {
		.census = census, .cc = &cc, .in = in, .command = command,
		.date = in->date, .host = in->host,
	};
	time_t now = time(NULL);

	if (!o.date) {
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		o.date = date;
	}
	if (!o.host) {
		gethostname(host, sizeof(host) - 1);
		o.host = host;
	}

	if (nfiles != census->nboots) {
		snprintf(err, errlen, "%zu plugin outputs for %zu boots", nfiles,
			 census->nboots);
		return -1;
	}
	if (derive(census, files, in, &cc, err, errlen))
		return -1;
	command_text(in->argv, command, sizeof(command));
	if (atomic_dir_begin_in(&dir, out, &census_command_dir, err, errlen))
		goto fail_early;
	if (atomic_dir_write(&dir, "census.csv", write_census_csv, &o, err, errlen) ||
	    atomic_dir_write(&dir, "sites.csv", write_sites_csv, &o, err, errlen) ||
	    atomic_dir_write(&dir, "syscalls.csv", write_syscalls_csv, &o, err, errlen) ||
	    atomic_dir_write(&dir, "context.csv", write_context, &o, err, errlen))
		goto fail;
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir.tmp, i ? "plots" : "raw");
		if (mkdir(path, 0777)) {
			snprintf(err, errlen, "cannot create %.900s: %s", path,
				 strerror(errno));
			goto fail;
		}
	}
	for (size_t i = 0; i < nfiles; i++) {
		char raw[600], kernel[256] = "";

		sscanf(census->boots[i], "%255s %63s", kernel, state);
		snprintf(raw, sizeof(raw), "raw/%s-%s.tsv", kernel, state);
		if (atomic_dir_copy_in(&dir, files[i].path, raw, err, errlen))
			goto fail;
	}
	if (!atomic_dir_write(&dir, "plots/census-sites.dat", write_plot_data, &o,
			err, errlen))
		o.has_plot = !render_plot(dir.tmp, smap_boots(&cc, smap, PLOT_SERIES),
					  command);
	else
		fprintf(stderr, "smapbench census: no window above the baseline in a SMAP boot: no plot\n");
	if (atomic_dir_write(&dir, "report.md", write_report, &o, err, errlen))
		goto fail;
	name_part(in->argv, part, sizeof(part));
	snprintf(state, sizeof(state), "census-%s", part);
	if (run_dir_name_dated(name, sizeof(name), o.host, o.date, state)) {
		snprintf(err, errlen, "the date '%s' is not YYYY-mm-ddTHH:MM:SSZ", o.date);
		goto fail;
	}
	if (atomic_dir_commit_new(&dir, out, name, err, errlen))
		goto fail_early;
	snprintf(written, writtenlen, "%s", dir.target);
	if (summary)
		print_summary(&o, summary);
	free_command_census(&cc);
	return 0;
fail:
	atomic_dir_abort(&dir);
fail_early:
	free_command_census(&cc);
	return -1;
}

void census_native_summarise(struct census_native *n)
{
	double *v = n->seconds;

	stats_sort(v, n->runs);
	n->min = v[0];
	n->max = v[n->runs - 1];
	n->median = stats_median_sorted(v, n->runs);
}
