/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_job.h - what a plot's select function (plots.h) works with: the
 * runs, the directory its .dat files go to, and the variables its
 * script is given. A select function picks the rows its plot shows and
 * writes them as whitespace-separated columns; titles, labels and
 * colours are its script's (plots/<name>.gp).
 *
 * Every script is also given: nruns (1 or 2); runs, the runs' short
 * names as words (run_title); runlabel, the first run's label; context
 * and watermark (plots/lib/common.gp).
 */
#ifndef SMAPBENCH_PLOT_JOB_H
#define SMAPBENCH_PLOT_JOB_H

#include <stddef.h>
#include <stdio.h>

#include "rundata/rundir.h"

struct compare_result;
struct compare_settings;

/* What a select function returns besides -1 (an error it has said). */
#define PLOT_EMPTY	0	/* the runs have nothing for this plot */
#define PLOT_DRAW	1	/* .dat written, variables set: draw it */

#define PLOT_MAX_RUNS	2

struct plot_job {
	const struct run_dir *const *runs;
	size_t nruns;			/* 1 or 2 */
	const char *dir;		/* where its files are built */
	const char *name;		/* the plot's: name.dat, name.png, ... */
	const char *arg;		/* the table's arg for select, or NULL */
	const char *who;		/* the command, for messages */
	/* of two runs, compare's result and settings (delta plots), or NULL */
	const struct compare_result *compare;
	const struct compare_settings *compare_settings;
	char settings[8192];		/* gnuplot -e assignments */
};

/* dir/file.dat for writing, or NULL after saying why. */
FILE *plot_dat_open(const struct plot_job *job, const char *file);
/* Close it; 0, or -1 after saying why a write failed. */
int plot_dat_close(const struct plot_job *job, FILE *f, const char *file);
/* The path of dir/file.dat, for a script that reads a second file. */
void plot_dat_path(const struct plot_job *job, const char *file, char *buf,
		   size_t len);
/* " value", or " NaN" for a value that is not finite. */
void plot_put_value(FILE *f, double value);

/* Append word to a space-separated list, what a script splits with word(). */
void plot_word_add(char *list, size_t len, const char *word);

/* Give the script var='value' or var=number. */
void plot_set_string(struct plot_job *job, const char *var, const char *value);
void plot_set_number(struct plot_job *job, const char *var, double value);

/*
 * Short name of run index for legends: its smap_state; of two runs "A"
 * and "B" when the states are missing, equal or hold a space.
 */
const char *run_title(const struct run_dir *const *runs, size_t nruns,
		      size_t index);

#endif /* SMAPBENCH_PLOT_JOB_H */
