/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - one run of `smapbench run` from start to end: the benchmarks
 * the options select, pinning, the counter, the context, the runner, and
 * the run directory written atomically. The command line (cli/) only
 * parses into struct run_options, installs the signal handlers and shows
 * what the run reports.
 */
#ifndef SMAPBENCH_RUN_H
#define SMAPBENCH_RUN_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/context.h"
#include "measure/registry.h"
#include "measure/runner.h"

/* What to run and how: docs/schema.md records each in context.csv. */
struct run_options {
	const char *suite;	/* syscall, kmod, bpf, all; none (with a command) */
	const char *filter;	/* POSIX extended regex, or NULL */
	const char *command;	/* --command: a row that runs it, or NULL */
	double min_time;	/* seconds per sample */
	unsigned repetitions;
	unsigned samples;
	const char *counter;	/* NULL: best available */
	int cpu;		/* -1: choose */
	const char *out;	/* parent of the run directory */
	const char *run_dir_file;	/* gets the run directory's path, or NULL */
	int list;
	int quick;	/* shorter samples, fewer repetitions and sizes */
	int full;	/* every size: the benchmarks marked full_only too */
	int no_realtime;	/* leave the scheduling policy as it is */
	int help;
	uint64_t seed;
};

/* How the caller watches and stops a run. */
struct run_hooks {
	/* Set by a signal handler to the signal: stop at the next sample. */
	volatile sig_atomic_t *stop;
	/* Set by a second signal: keep nothing of the run. */
	volatile sig_atomic_t *discard;
	/*
	 * Called at each benchmark's sizing and stretch of samples
	 * (measure/runner.h), and once with name NULL when the measuring
	 * has ended.
	 */
	void (*progress)(void *arg, const struct runner_progress *p);
	void *progress_arg;
};

/* A kept run: what it measured, its context, where it now is. */
struct run_kept {
	struct run_results results;
	struct context context;
	char flags[64];		/* unpinned, tcg, ...: the run's flags */
	char dir[PATH_MAX + 32];	/* the run directory's final path */
	unsigned repetitions;
};

/*
 * Registers the benchmarks the options select into reg: 0, or the exit
 * status (1, or 2 for options that select nothing) after saying why on
 * stderr; reg is then freed.
 */
int run_register_benchmarks(struct registry *reg, const struct run_options *opt);

/*
 * Runs reg's benchmarks as opt says and keeps the run directory under
 * opt->out. Returns 0 with kept filled (free it with run_kept_free()),
 * or the exit status after saying why on stderr: 1 for a failure, 2
 * (EXIT_USAGE) for a --cpu that cannot be used, 128 + the signal when
 * *hooks->stop was set. After a stop, the benchmarks that finished are
 * kept as an interrupted run (context status=interrupted): kept is
 * then filled and kept->dir names it, with the status still 128 + the
 * signal. A run whose command (--command) failed is kept too, its row
 * skipped with why and context.csv's command_status saying it: status 1
 * with kept->dir set. Otherwise nothing is left on disk, and kept->dir
 * is empty.
 */
int run_execute(const struct registry *reg, const struct run_options *opt,
		const struct run_hooks *hooks, struct run_kept *kept);

/* The kept run's results, warnings and directory, as the console shows. */
void run_kept_print(FILE *f, const struct run_kept *kept);

void run_kept_free(struct run_kept *kept);

/*
 * The other side of a run's repetition (measure/runner.h): with the
 * counter the run chose (and the kmod suite's, "" for its default),
 * read a schedule on stdin, run it, write the samples to stdout. The
 * exit status: 0, or 1 after saying why on stderr. With a command (or
 * NULL), its row too, its output appended to command_log.
 */
int run_worker(const char *counter, const char *kmod_counter,
	       const char *command, const char *command_log);

#endif /* SMAPBENCH_RUN_H */
