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
	if (!known) {
		/* why none, when the census said */
		text_of(context, "pair_cost_source", c->source, sizeof(c->source));
		return 0;
	}
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

/* The boots a census directory names, in order. */
struct boots {
	struct census_boot_file *files;
	char **paths;		/* the files' paths, which files point into */
	size_t count;
};

static void free_boots(struct boots *b)
{
	for (size_t i = 0; i < b->count; i++)
		free(b->paths[i]);
	free(b->paths);
	free(b->files);
}

/* One more boot, its plugin output at raw/KERNEL-STATE.tsv. 0, or -1. */
static int add_boot(struct boots *b, const char *dir, const char *kernel,
		    const char *state)
{
	void *p = realloc(b->files, (b->count + 1) * sizeof(*b->files));

	if (!p)
		return -1;
	b->files = p;
	p = realloc(b->paths, (b->count + 1) * sizeof(*b->paths));
	if (!p)
		return -1;
	b->paths = p;
	b->paths[b->count] = malloc(PATH_MAX);
	if (!b->paths[b->count])
		return -1;
	snprintf(b->paths[b->count], PATH_MAX, "%s/raw/%s-%s.tsv", dir, kernel,
		 state);
	b->files[b->count].path = b->paths[b->count];
	b->count++;
	return 0;
}

/*
 * The boots of context (boot_N, boot_N_seconds), each one's plugin
 * output loaded into census. 0, or -1 with the reason in err.
 */
static int read_boots(const struct run_dir *context, const char *dir,
		      const char *path, struct census *census, struct boots *b,
		      char *err, size_t errlen)
{
	char key[64], kernel[256], state[64];
	const char *boot;

	for (;;) {
		snprintf(key, sizeof(key), "boot_%zu", b->count + 1);
		boot = rundir_context(context, key);
		if (!boot)
			break;
		if (sscanf(boot, "%255s %63s", kernel, state) != 2) {
			snprintf(err, errlen, "%s: %s is not 'kernel state ...'", path, key);
			return -1;
		}
		if (add_boot(b, dir, kernel, state)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		snprintf(key, sizeof(key), "boot_%zu_seconds", b->count);
		if (number_of(context, key, &b->files[b->count - 1].seconds))
			b->files[b->count - 1].seconds = NAN;
		if (census_load_plugin_output(census, state, b->paths[b->count - 1],
					      err, errlen))
			return -1;
	}
	if (!b->count) {
		snprintf(err, errlen, "%s names no boot", path);
		return -1;
	}
	return 0;
}

/*
 * COMMAND's arguments as context has them (argc, argv_N), NULL-ended;
 * the strings are context's. NULL with the reason in err.
 */
static char **read_argv(const struct run_dir *context, const char *path,
			char *err, size_t errlen)
{
	double argc = 0;
	char key[64], **argv;

	if (number_of(context, "argc", &argc) || argc < 1 || argc > 4096) {
		snprintf(err, errlen, "%s has no argc, or one that is no count of arguments",
			 path);
		return NULL;
	}
	argv = calloc((size_t)argc + 1, sizeof(*argv));
	if (!argv) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < (size_t)argc; i++) {
		snprintf(key, sizeof(key), "argv_%zu", i);
		argv[i] = (char *)rundir_context(context, key);
		if (!argv[i]) {
			snprintf(err, errlen, "%s has no %s", path, key);
			free(argv);
			return NULL;
		}
	}
	return argv;
}

int census_command_redraw(const char *dir, const char *out, char *written,
			  size_t writtenlen, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], kind[64];
	struct census census = { 0 };
	struct boots boots = { 0 };
	struct census_native native;
	struct census_pair_cost cost;
	struct run_dir context = { 0 };
	char **argv = NULL;
	double top = 0, timeout = 0;
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
	if (number_of(&context, "top", &top) ||
	    number_of(&context, "timeout_seconds", &timeout) ||
	    !rundir_context(&context, "cwd") || !rundir_context(&context, "date") ||
	    !rundir_context(&context, "host") || read_native(&context, &native) ||
	    read_cost(&context, &cost)) {
		snprintf(err, errlen, "%s lacks an input of the census, or has one that is no number (docs/schema.md)",
			 path);
		goto out;
	}
	argv = read_argv(&context, path, err, errlen);
	if (argv && !read_boots(&context, dir, path, &census, &boots, err, errlen)) {
		struct census_command_inputs in = {
			.argv = argv, .cwd = rundir_context(&context, "cwd"),
			.native = &native, .cost = &cost, .top = (unsigned)top,
			.timeout = timeout, .date = rundir_context(&context, "date"),
			.host = rundir_context(&context, "host"),
			.version = rundir_context(&context, "smapbench_version"),
			.revision = rundir_context(&context, "git_revision"),
		};

		rc = census_command_write_dir(&census, boots.files, boots.count,
					      &in, out, written, writtenlen, NULL,
					      err, errlen);
	}
out:
	free_boots(&boots);
	free(argv);
	census_free(&census);
	rundir_free(&context);
	return rc;
}
