// SPDX-License-Identifier: GPL-2.0
/*
 * rundir.c - load a run directory or a Google Benchmark JSON file, and
 * read what was loaded; the loading itself is rundir_csv.c's and
 * rundir_json.c's, on rundir_build.c's and rundir_check.c's parts.
 */
#include "rundata/rundir.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "measure/stats.h"
#include "rundata/csv.h"
#include "rundata/json.h"
#include "rundata/rundir_internal.h"

int rundir_load(const char *path, struct run_dir *run, char *err,
		size_t errlen)
{
	struct stat st;
	char *results = NULL, *samples = NULL, *json = NULL;
	size_t plen = strlen(path);
	int rc = -1;

	memset(run, 0, sizeof(*run));
	run->path = strdup(path);
	run->label = rundir_make_label(path);
	if (!run->path || !run->label) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (S_ISREG(st.st_mode) && plen > 5 &&
	    !strcmp(path + plen - 5, ".json")) {
		rc = rundir_load_gbench_json(run, path, err, errlen);
		goto index;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "%s is neither a run directory nor a .json file", path);
		goto out;
	}
	results = rundir_join_path(path, "results.csv");
	samples = rundir_join_path(path, "samples.csv");
	json = rundir_join_path(path, "results.json");
	if (!results || !samples || !json) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (rundir_is_file(results)) {
		rc = rundir_load_results_csv(run, results, err, errlen);
		if (!rc && rundir_build_index(run)) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
		if (!rc && !run->count) {
			snprintf(err, errlen, "%s: no benchmark, only a header", results);
			rc = -1;
		}
		if (!rc)
			rc = rundir_check_unique(run, results, err, errlen);
		if (!rc && rundir_is_file(samples))
			rc = rundir_load_samples_csv(run, samples, err, errlen);
		if (!rc)
			rc = rundir_load_context_csv(run, path, err, errlen);
		goto summarise;
	}
	if (rundir_is_file(json)) {
		rc = rundir_load_gbench_json(run, json, err, errlen);
		goto index;
	}
	snprintf(err, errlen,
		 "%s has neither results.csv nor results.json: not a run directory",
		 path);
	goto out;
index:
	if (!rc && rundir_build_index(run)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
summarise:
	if (!rc && rundir_summarise_repetitions(run)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
out:
	free(results);
	free(samples);
	free(json);
	if (rc)
		rundir_free(run);
	return rc;
}

int rundir_load_context(const char *dir, struct run_dir *run, char *err,
			size_t errlen)
{
	int rc;

	memset(run, 0, sizeof(*run));
	rc = rundir_load_context_csv(run, dir, err, errlen);
	if (!rc && !run->has_context_file) {
		snprintf(err, errlen, "%s has no context.csv", dir);
		rc = -1;
	}
	if (rc)
		rundir_free(run);
	return rc;
}

void rundir_free(struct run_dir *run)
{
	for (size_t i = 0; i < run->count; i++) {
		struct run_bench *b = &run->bench[i];

		free(b->name);
		free(b->suite);
		free(b->op);
		free(b->variant);
		free(b->unit);
		free(b->counter);
		free(b->flags);
		free(b->values);
		free(b->repetition);
	}
	for (size_t i = 0; i < run->context_count; i++) {
		free(run->keys[i]);
		free(run->values[i]);
	}
	free(run->bench);
	free(run->keys);
	free(run->values);
	free(run->sorted);
	free(run->path);
	free(run->label);
	memset(run, 0, sizeof(*run));
}

const char *rundir_context(const struct run_dir *run, const char *key)
{
	for (size_t i = 0; i < run->context_count; i++)
		if (!strcmp(run->keys[i], key))
			return run->values[i];
	return NULL;
}

const char *rundir_context_or(const struct run_dir *run, const char *key,
			      const char *fallback)
{
	const char *v = rundir_context(run, key);

	return v && *v ? v : fallback;
}

const char *rundir_incomplete(const struct run_dir *run)
{
	const char *status = rundir_context(run, "status");

	if (!status || !*status || !strcmp(status, "complete"))
		return NULL;
	/* the file's own text only when it is ours: never echo a stranger's */
	return strcmp(status, "interrupted") ? "unknown" : "interrupted";
}

double rundir_ns_per_unit(const struct run_dir *run,
			  const struct run_bench *bench)
{
	double hz;

	if (!strcmp(bench->unit, "ns"))
		return 1;
	if (isfinite(bench->median_ns) && isfinite(bench->median) &&
	    bench->median > 0)
		return bench->median_ns / bench->median;
	hz = csv_number(rundir_context(run, "tsc_hz"));
	if ((!strcmp(bench->unit, "ticks") || !strcmp(bench->unit, "cycles")) &&
	    isfinite(hz) && hz > 0)
		return 1e9 / hz;
	return NAN;
}
