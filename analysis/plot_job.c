// SPDX-License-Identifier: GPL-2.0
/* plot_job.c - the .dat files and variables of a plot; see plot_job.h. */
#include "analysis/plot_job.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "analysis/gnuplot.h"

void plot_dat_path(const struct plot_job *job, const char *file, char *buf,
		   size_t len)
{
	snprintf(buf, len, "%s/%s.dat", job->dir, file);
}

FILE *plot_dat_open(const struct plot_job *job, const char *file)
{
	char path[PATH_MAX + 64];
	FILE *f;

	plot_dat_path(job, file, path, sizeof(path));
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "smapbench %s: cannot write %s: %s\n", job->who,
			path, strerror(errno));
	return f;
}

int plot_dat_close(const struct plot_job *job, FILE *f, const char *file)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "smapbench %s: writing %s/%s.dat failed: %s\n",
			job->who, job->dir, file, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

void plot_put_value(FILE *f, double value)
{
	if (isfinite(value))
		fprintf(f, " %.6g", value);
	else
		fputs(" NaN", f);
}

void plot_word_add(char *list, size_t len, const char *word)
{
	size_t used = strlen(list);

	snprintf(list + used, len > used ? len - used : 0, "%s%s",
		 used ? " " : "", word);
}

void plot_set_string(struct plot_job *job, const char *var, const char *value)
{
	gnuplot_set_string(job->settings, sizeof(job->settings), var, value);
}

void plot_set_number(struct plot_job *job, const char *var, double value)
{
	gnuplot_set_number(job->settings, sizeof(job->settings), var, value);
}

const char *run_title(const struct run_dir *const *runs, size_t nruns,
		      size_t index)
{
	static const char *const letters[] = { "A", "B" };
	const char *state = rundir_context(runs[index], "smap_state");

	if (nruns < 2)
		return state && *state ? state : "run";
	for (size_t i = 0; i < nruns; i++) {
		const char *s = rundir_context(runs[i], "smap_state");

		if (!s || !*s || strchr(s, ' ') || (i != index && !strcmp(s, state ? state : "")))
			return letters[index < 2 ? index : 1];
	}
	return state;
}
