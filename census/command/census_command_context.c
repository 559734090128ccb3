// SPDX-License-Identifier: GPL-2.0
/*
 * census_command_context.c - context.csv of a command's census
 * directory: the inputs `census redraw` draws it again from (the
 * command, the native times, the pair's cost, the boots), written by the
 * run directory's context writer.
 */
#include <stdio.h>
#include <string.h>

#include "census/command/census_command_data.h"
#include "measure/context.h"
#include "rundata/report.h"
#include "system/version.h"

int census_command_write_context(FILE *f, const void *arg)
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
	} else if (*cost->source) {
		/* why there is none, and how to get one */
		failed |= context_set(&ctx, "pair_cost_source", "%s", cost->source);
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

