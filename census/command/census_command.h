/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_command.h - the census of a command (docs/census.md, "A census
 * of any command"): how many user-access windows COMMAND opens, where,
 * and what SMAP would cost it on a given CPU.
 *
 *   census_command  (host) time COMMAND natively, boot each kernel in
 *                   each SMAP state under the plugin with this machine's
 *                   root filesystem (vm/census.sh --command), and write a
 *                   census directory of it
 *   census_exec     (guest) run `true` and then COMMAND, each between the
 *                   plugin's markers
 */
#ifndef SMAPBENCH_CENSUS_COMMAND_H
#define SMAPBENCH_CENSUS_COMMAND_H

#include <stddef.h>
#include <stdio.h>

#include "census/command/census_cost.h"

struct census_exec_options {
	char **argv;		/* COMMAND and its arguments, NULL-ended */
	const char *env_file;	/* NUL-separated NAME=VALUE, or NULL: ours */
	const char *output;	/* where COMMAND's stdout and stderr go */
	double timeout;		/* seconds of guest time; 0: none */
};

/* In the guest: the baseline and COMMAND between markers; exit status. */
int census_exec(const struct census_exec_options *o);

struct census_command_options {
	char **argv;		/* COMMAND and its arguments, NULL-ended */
	char **kernels;		/* kernel images; none: Debian's two */
	size_t nkernels;
	const char *states;	/* comma-separated SMAP states */
	double timeout;		/* seconds COMMAND may take, here and in a guest */
	const char *out;	/* where the census directory goes */
	double native_seconds;	/* > 0: given, not measured */
	unsigned native_runs;	/* timed native runs, after a warm-up */
	unsigned top;		/* functions in the report and the plot */
	struct census_cost_options cost;
};

/*
 * The whole census of a command: 0 (a census directory written, its path
 * printed), 1 (the command failed, was missing or timed out, or a boot
 * failed: no directory), or 2 (bad input, e.g. a table row that does not
 * exist).
 */
int census_command(const struct census_command_options *o);

/* ---- the census directory of a command (census_command_dir.c, census_redraw.c) ---- */

struct census;

/* Most native runs kept. */
#define CENSUS_NATIVE_MAX_RUNS 100

/* COMMAND's wall time on this machine, outside the guest. */
struct census_native {
	int given;			/* --native-seconds, not measured */
	size_t runs;			/* timed runs (after one warm-up) */
	double seconds[CENSUS_NATIVE_MAX_RUNS];	/* sorted */
	double median, min, max;
	/* context switches of a timed run (the median): rseq updates */
	double context_switches;
};

/* One boot's plugin output, as the census directory keeps it. */
struct census_boot_file {
	const char *path;		/* the plugin's out= file */
	double seconds;			/* the boot, start to poweroff */
};

/* Everything a command's census directory is made of, but the counts. */
struct census_command_inputs {
	char *const *argv;
	const char *cwd;
	const struct census_native *native;
	const struct census_pair_cost *cost;
	unsigned top;
	double timeout;
	/*
	 * When and where the counts were taken, and by which smapbench: NULL
	 * for now, this host and this build; a redrawn directory keeps its own.
	 */
	const char *date, *host, *version, *revision;
};

/* The median, least and most of the native runs, from their seconds. */
void census_native_summarise(struct census_native *n);

/*
 * Draw the census directory of a command again, from its raw/ and
 * context.csv, as a new directory under out with its name (census.csv,
 * sites.csv, syscalls.csv, report.md, plots/: what the code of this build
 * makes of the same counts). 0 with the path in written, or -1 with the
 * reason in err.
 */
int census_command_redraw(const char *dir, const char *out, char *written,
			  size_t writtenlen, char *err, size_t errlen);

/*
 * Write the census directory of a command under out, named by host,
 * date and the command, never replacing one: census.csv (a row per
 * kernel and SMAP state), sites.csv, syscalls.csv, context.csv,
 * report.md, raw/ (each boot's plugin output) and plots/. census holds
 * the boots' rows in the order of files. 0 with the directory's path in
 * written (and the counts and the estimate on summary, if not NULL), or
 * -1 with the reason in err.
 */
int census_command_write_dir(const struct census *census,
			     const struct census_boot_file *files, size_t nfiles,
			     const struct census_command_inputs *in,
			     const char *out, char *written, size_t writtenlen,
			     FILE *summary, char *err, size_t errlen);

#endif /* SMAPBENCH_CENSUS_COMMAND_H */
