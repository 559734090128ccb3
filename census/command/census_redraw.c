// SPDX-License-Identifier: GPL-2.0
/*
 * census_redraw.c - `smapbench census redraw DIR`: the census directory
 * of a command drawn again from what it keeps of its measurements, the
 * plugin's output of each boot (raw/) and the inputs in context.csv
 * (the command, the native times, the pair's cost), by this build's
 * code: what `make redraw-data` does to data/, and what stage 30-plots
 * compares with the published files.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "census/census.h"
#include "census/command/census_command.h"
#include "census/command/census_cost.h"
#include "rundata/atomic_dir.h"
#include "rundata/rundir.h"

static int number_of(const struct run_dir *context, const char *key, double *v)
{
	const char *text = rundir_context(context, key);
	char *end;

	if (!text || !*text)
		return -1;
	errno = 0;
	*v = strtod(text, &end);
	return errno || *end ? -1 : 0;
}

/* A text input of the context, copied into buf; -1 when it is missing. */
static int text_of(const struct run_dir *context, const char *key, char *buf,
		   size_t len)
{
	const char *text = rundir_context(context, key);

	if (!text)
		return -1;
	snprintf(buf, len, "%s", text);
	return 0;
}

static int read_native(const struct run_dir *context, struct census_native *n)
{
	double given = 0;
	const char *runs = rundir_context(context, "native_seconds_runs");

	memset(n, 0, sizeof(*n));
	if (number_of(context, "native_seconds_given", &given) || !runs)
		return -1;
	if (number_of(context, "native_context_switches", &n->context_switches))
		n->context_switches = NAN;
	if (given) {
		n->given = 1;
		if (number_of(context, "native_seconds", &n->median))
			return -1;
		n->min = n->max = n->median;
		return 0;
	}
	for (const char *p = runs; *p && n->runs < CENSUS_NATIVE_MAX_RUNS;) {
		char *end;

		n->seconds[n->runs] = strtod(p, &end);
		if (end == p)
			return -1;
		n->runs++;
		p = end + strspn(end, " ");
	}
	if (!n->runs)
		return -1;
	census_native_summarise(n);
	return 0;
}

static int read_cost(const struct run_dir *context, struct census_pair_cost *c)
{
	double known = 0;

	memset(c, 0, sizeof(*c));
	if (number_of(context, "pair_cost_known", &known))
		return -1;
	if (!known)
		return 0;
	c->known = 1;
	if (number_of(context, "pair_cost", &c->value) ||
	    number_of(context, "pair_cost_low", &c->low) ||
	    number_of(context, "pair_cost_high", &c->high) ||
	    number_of(context, "ghz", &c->ghz) ||
	    text_of(context, "pair_cost_unit", c->unit, sizeof(c->unit)) ||
	    text_of(context, "pair_cost_source", c->source, sizeof(c->source)) ||
	    text_of(context, "ghz_source", c->ghz_source, sizeof(c->ghz_source)))
		return -1;
	c->has_interval = c->low != c->value || c->high != c->value;
	return 0;
}

int census_command_redraw(const char *dir, const char *out, char *written,
			  size_t writtenlen, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], key[64], kind[64];
	struct census census = { 0 };
	struct census_boot_file *files = NULL;
	struct census_native native;
	struct census_pair_cost cost;
	struct run_dir context = { 0 };
	char **argv = NULL, **paths = NULL;
	double argc = 0, top = 0, timeout = 0;
	size_t nboots = 0;
	int rc = -1;

	atomic_dir_marker(dir, kind, sizeof(kind));
	if (strcmp(kind, "census-command")) {
		snprintf(err, errlen, "%s is not the census directory of a command (its .smapbench says '%s')",
			 dir, kind);
		return -1;
	}
	if (rundir_load_context(dir, &context, err, errlen))
		return -1;
	snprintf(path, sizeof(path), "%s/context.csv", dir);
	if (number_of(&context, "argc", &argc) || argc < 1 || argc > 4096 ||
	    number_of(&context, "top", &top) ||
	    number_of(&context, "timeout_seconds", &timeout) ||
	    !rundir_context(&context, "cwd") || !rundir_context(&context, "date") ||
	    !rundir_context(&context, "host") || read_native(&context, &native) ||
	    read_cost(&context, &cost)) {
		snprintf(err, errlen, "%s lacks an input of the census, or has one that is no number (docs/schema.md)",
			 path);
		goto out;
	}
	argv = calloc((size_t)argc + 1, sizeof(*argv));
	if (!argv)
		goto nomem;
	for (size_t i = 0; i < (size_t)argc; i++) {
		snprintf(key, sizeof(key), "argv_%zu", i);
		argv[i] = (char *)rundir_context(&context, key);
		if (!argv[i]) {
			snprintf(err, errlen, "%s has no %s", path, key);
			goto out;
		}
	}
	for (;;) {
		char kernel[256], state[64];
		const char *boot;
		void *p;

		snprintf(key, sizeof(key), "boot_%zu", nboots + 1);
		boot = rundir_context(&context, key);
		if (!boot)
			break;
		if (sscanf(boot, "%255s %63s", kernel, state) != 2) {
			snprintf(err, errlen, "%s: %s is not 'kernel state ...'", path, key);
			goto out;
		}
		p = realloc(files, (nboots + 1) * sizeof(*files));
		if (!p)
			goto nomem;
		files = p;
		p = realloc(paths, (nboots + 1) * sizeof(*paths));
		if (!p)
			goto nomem;
		paths = p;
		paths[nboots] = malloc(PATH_MAX);
		if (!paths[nboots])
			goto nomem;
		snprintf(paths[nboots], PATH_MAX, "%s/raw/%s-%s.tsv", dir, kernel, state);
		files[nboots].path = paths[nboots];
		snprintf(key, sizeof(key), "boot_%zu_seconds", nboots + 1);
		if (number_of(&context, key, &files[nboots].seconds))
			files[nboots].seconds = NAN;
		nboots++;
		if (census_load_plugin_output(&census, state, paths[nboots - 1], err,
					      errlen))
			goto out;
	}
	if (!nboots) {
		snprintf(err, errlen, "%s names no boot", path);
		goto out;
	}
	{
		struct census_command_inputs in = {
			.argv = argv, .cwd = rundir_context(&context, "cwd"),
			.native = &native, .cost = &cost, .top = (unsigned)top,
			.timeout = timeout, .date = rundir_context(&context, "date"),
			.host = rundir_context(&context, "host"),
			.version = rundir_context(&context, "smapbench_version"),
			.revision = rundir_context(&context, "git_revision"),
		};

		rc = census_command_write_dir(&census, files, nboots, &in, out,
					      written, writtenlen, NULL, err,
					      errlen);
	}
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	for (size_t i = 0; i < nboots; i++)
		free(paths[i]);
	free(paths);
	free(files);
	free(argv);
	census_free(&census);
	rundir_free(&context);
	return rc;
}
