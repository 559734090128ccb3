// SPDX-License-Identifier: GPL-2.0
/*
 * census_command_derive.c - what each boot of a command's census counted
 * above the baseline: the differences of the plugin's rows, where the
 * windows were opened and in which system calls, rseq as natively, and
 * the estimate (census_command_data.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/command/census_command_data.h"
#include "census/command/census_cost.h"
#include "measure/stats.h"

/*
 * The entry named name of an array of n entries of size bytes, each with
 * its name, a char[NAME_LEN], at name_at; a new one, zeroed but for its
 * name, at the end when none has it. array is the address of the
 * array's pointer, which grows. NULL on no memory.
 */
static void *named_entry(void *array, size_t *n, size_t size, size_t name_at,
			 const char *name)
{
	char *items, *grown;

	memcpy(&items, array, sizeof(items));
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(items + i * size + name_at, name))
			return items + i * size;
	grown = realloc(items, (*n + 1) * size);
	if (!grown)
		return NULL;
	memcpy(array, &grown, sizeof(grown));
	items = grown + (*n)++ * size;
	memset(items, 0, size);
	snprintf(items + name_at, NAME_LEN, "%s", name);
	return items;
}

static struct function_count *function_of(struct command_boot *b,
					  const char *site)
{
	char name[NAME_LEN];

	census_site_function(site, name, sizeof(name));
	return named_entry(&b->functions, &b->nfunctions, sizeof(*b->functions),
			   offsetof(struct function_count, name), name);
}

static struct syscall_count *syscall_of(struct command_boot *b,
					const char *name)
{
	return named_entry(&b->syscalls, &b->nsyscalls, sizeof(*b->syscalls),
			   offsetof(struct syscall_count, name), name);
}

static int add_via(struct function_count *f, const char *syscall,
		   int64_t pairs)
{
	struct via_count *v = named_entry(&f->via, &f->nvia, sizeof(*f->via),
					  offsetof(struct via_count, syscall),
					  syscall);

	if (!v)
		return -1;
	v->pairs += pairs;
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

void census_command_free_derived(struct command_census *cc)
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

int census_command_derive(const struct census *c,
			  const struct census_boot_file *files,
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
	census_command_free_derived(cc);
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
