// SPDX-License-Identifier: GPL-2.0
/* calibrate_dir.c - the calibrate command's work; see calibrate_dir.h. */
#include "analysis/calibrate_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calibrate.h"
#include "analysis/run_input.h"

/* The directory holding path (a run directory or a JSON file). */
static char *parent_of(const char *path)
{
	char *p = strdup(path), *slash;
	size_t len;

	if (!p)
		return NULL;
	len = strlen(p);
	while (len > 1 && p[len - 1] == '/')
		p[--len] = '\0';
	slash = strrchr(p, '/');
	if (!slash)
		strcpy(p, ".");
	else if (slash == p)
		p[1] = '\0';
	else
		*slash = '\0';
	return p;
}

char *calibration_default_path(const struct run_dir *run)
{
	char *dir = parent_of(run->path), *path;
	size_t len;

	if (!dir)
		return NULL;
	len = strlen(dir) + sizeof(CALIBRATION_FILE) + 2;
	path = malloc(len);
	if (path)
		snprintf(path, len, "%s/%s", dir, CALIBRATION_FILE);
	free(dir);
	return path;
}

int calibrate_write_runs(const char *who, char *const *paths, size_t count,
			 const char *out)
{
	struct run_dir *runs = calloc(count ? count : 1, sizeof(*runs));
	const struct run_dir **view = calloc(count ? count : 1, sizeof(*view));
	struct calibration c;
	char err[PATH_MAX + 512], *path = NULL;
	size_t loaded = 0;
	int rc = 1;

	if (!runs || !view) {
		fprintf(stderr, "smapbench %s: out of memory\n", who);
		goto out;
	}
	for (; loaded < count; loaded++) {
		if (run_input_load(who, paths[loaded], "a calibration needs run "
				   "directories with context.csv", &runs[loaded]))
			goto out;
		view[loaded] = &runs[loaded];
	}
	if (calibrate_runs(view, count, &c, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", who, err);
		goto out;
	}
	path = out ? strdup(out) : calibration_default_path(&runs[0]);
	if (!path) {
		fprintf(stderr, "smapbench %s: out of memory\n", who);
	} else if (calibration_write(path, &c)) {
		fprintf(stderr, "smapbench %s: cannot write %s: %s\n", who, path,
			strerror(errno));
	} else {
		calibration_print(stdout, &c);
		printf("written: %s (compare reads it with --calibration %s, "
		       "and by default for runs beside it)\n", path, path);
		rc = 0;
	}
	calibration_free(&c);
out:
	for (size_t i = 0; i < loaded; i++)
		rundir_free(&runs[i]);
	free(runs);
	free(view);
	free(path);
	return rc;
}
