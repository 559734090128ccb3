/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - running benchmarks: iteration sizing, warm-up,
 * repetitions, random interleaving, statistics per result.
 *
 * For every benchmark that can run here the runner first sizes the
 * iteration count: starting at 1, it times one sample and grows the
 * count (x10 while a sample is under a tenth of the goal, else by
 * 1.4 x goal / measured) until one sample lasts at least min_time (or
 * the benchmark's own cap, which marks the result "clamped").
 *
 * Then the repetitions. Each is what a separate invocation would be: a
 * new process (worker_argv) that sets every benchmark up afresh, so its
 * buffers, files, sockets, loaded programs and address-space layout are
 * its own, and the spread between repetitions holds what differs from
 * one invocation to the next. Without a worker the repetition runs in
 * this process, still with every benchmark set up afresh. Within a
 * repetition the benchmarks run in a fresh random order (seeded), a group
 * (registry.h) as one unit in a palindrome, each stretch taking `warmup`
 * discarded samples and its share of `samples` kept ones.
 *
 * Per result: the spread of all kept samples (stats.h), and the center,
 * the mean of the repetition medians, with its t interval over the
 * repetitions: the repetition is the unit of inference, not the sample.
 */
#ifndef SMAPBENCH_RUNNER_H
#define SMAPBENCH_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/counter.h"
#include "measure/registry.h"
#include "measure/stats.h"

/* What the runner tells a progress callback. */
struct runner_progress {
	enum {
		RUNNER_SIZING,		/* sizing name: done counts benchmarks */
		RUNNER_SIZED,		/* all sized: seconds_left for the rest */
		RUNNER_STRETCH,		/* a stretch of name's samples starts */
	} event;
	const char *name;	/* the benchmark; NULL: the measuring ended */
	unsigned repetition;	/* 0-based */
	size_t done, total;	/* stretches of the repetitions */
	/*
	 * Seconds the run still takes: the rest of what the sizing's
	 * samples and set-ups imply, scaled by how long the repetitions so
	 * far took against it. NAN while sizing.
	 */
	double seconds_left;
};

struct runner_options {
	double min_time;		/* seconds per sample */
	unsigned repetitions;
	unsigned samples;		/* kept samples per repetition */
	unsigned warmup;		/* discarded samples per repetition */
	int interleave;			/* shuffle order per repetition */
	uint64_t seed;
	uint64_t max_iterations;	/* global cap per sample */
	struct counter *counter;	/* for harness-timed benchmarks */
	volatile sig_atomic_t *stop;	/* set asynchronously to abort */
	/* Called at each sizing and before each stretch of samples. */
	void (*progress)(void *arg, const struct runner_progress *p);
	void *progress_arg;
	/*
	 * Each repetition in a process of its own: argv[0] (a path) is
	 * executed with argv, and that program calls runner_worker() with
	 * the same registry. NULL: in this process.
	 */
	char *const *worker_argv;
};

void runner_defaults(struct runner_options *o);

struct result_sample {
	unsigned repetition;
	unsigned index;
	uint64_t iterations;
	double value;		/* per operation, in the result's unit */
};

#define RESULT_CLAMPED	(1U << 0) /* a sample could not reach min_time */
#define RESULT_NOISY	(1U << 1) /* result_noisy(): a wide middle of the samples */
#define RESULT_PREEMPTED (1U << 2) /* > RESULT_PREEMPTED_SHARE of samples were */
/*
 * noisy: half of the samples lie more than this share of the median away
 * from it (MAD / median above it). A robust spread, so a couple of
 * outliers (counted apart, in stats.outliers) do not set it off, as they
 * do a stddev: a row is noisy when its bulk is wide.
 */
#define RESULT_NOISY_MAD_SHARE	0.05
#define RESULT_PREEMPTED_SHARE 0.1

struct result {
	const struct benchmark *bench;
	size_t index;			/* in the registry */
	int skipped;
	char reason[256];		/* why it was skipped */
	const char *counter;
	const char *unit;
	double hz;			/* unit per second */
	uint64_t iterations;		/* per sample, after sizing */
	struct result_sample *samples;
	size_t nsamples;
	struct stats_summary stats;	/* of all kept samples */
	/*
	 * The mean of the repetition medians, and its t interval over the
	 * repetitions at STATS_CI_LEVEL (NAN under 2 repetitions).
	 */
	struct stats_interval center;
	unsigned repetitions;		/* with kept samples */
	double median_ns;		/* NAN when hz is unknown */
	unsigned flags;			/* RESULT_* */
	size_t preempted;		/* kept samples with a context switch */
	size_t negative;		/* samples below 0, warm-up included */
	uint64_t repeats;		/* bench_sample.repeats, warm-up included */
	/* wall-clock seconds of a sample and of a set-up, from the sizing */
	double sample_wall, setup_wall;
};

struct run_results {
	struct result *items;
	size_t count;
};

/*
 * Time one sample of a benchmark: per-operation value in *value, total
 * seconds in *seconds. Harness-timed benchmarks use o->counter.
 * 0, or -1 with why.
 */
int runner_sample(const struct benchmark *b, void *state,
		  const struct runner_options *o, uint64_t iterations,
		  struct bench_sample *sample, double *seconds,
		  char *why, size_t whylen);

/*
 * Grow the iteration count until one sample lasts min_time. Sets
 * *clamped when a cap stopped it first, and *wall (if not NULL) to the
 * wall-clock seconds of a sample at the final count, which may be more
 * than the sample measures (a self-timed one times only part of its
 * work). 0 or -1 with why.
 */
int runner_size_iterations(const struct benchmark *b, void *state,
			   const struct runner_options *o,
			   uint64_t *iterations, int *clamped, double *wall,
			   char *why, size_t whylen);

/*
 * Run every benchmark in the registry. Returns 0, 1 when o->stop was
 * raised, -1 on no memory or a worker that failed (said on stderr).
 * After a stop each benchmark keeps its whole repetitions only
 * (runner_keep_whole_repetitions()); one with none is skipped as
 * "interrupted", as are those the stop came before.
 */
int runner_run(const struct registry *r, const struct runner_options *o,
	       struct run_results *out);

/*
 * What a run of r's benchmarks takes with o, by the sweep's arithmetic:
 * for each benchmark that can run here (valid()), its sizing, then in
 * every repetition its warm-ups and samples of min_time each (or its own
 * shorter cap, e.g. the module's interrupts-off budget), plus the
 * overheads measured for a set-up, a stretch and a worker process
 * (runner.c). Seconds; *rows gets how many benchmarks it counted.
 */
double runner_estimate(const struct registry *r, const struct runner_options *o,
		       size_t *rows);

/*
 * One stretch of a repetition: `warmup` discarded samples of a benchmark,
 * then `count` kept ones, the first of them sample `first` of the
 * repetition.
 */
struct runner_segment {
	size_t bench;		/* index in the registry */
	unsigned warmup, count, first;
};

/*
 * The order of one repetition, into seg (room for 2 x n): the n
 * benchmarks of index[] (registry indices), single ones and groups
 * shuffled as units when o->interleave; a group's members in a balanced
 * order (the run's own, rotated by repetition: each first once in m), then
 * run forward with the first half of the samples and backward with the
 * rest, the middle one without a second warm-up. Returns the segments.
 */
size_t runner_schedule(const struct registry *r, const size_t *index,
		       size_t n, const struct runner_options *o,
		       struct stats_rng *rng, size_t repetition,
		       struct runner_segment *seg);

/*
 * The worker's side of a repetition (o->worker_argv): reads the schedule
 * from in, sets each benchmark up afresh, runs the segments with
 * o->counter and writes every sample to out; tears down. Returns the
 * process's exit status: 0, or 1 after saying why on stderr.
 */
int runner_worker(const struct registry *r, const struct runner_options *o,
		  FILE *in, FILE *out);


/*
 * Of each result, only the repetitions that hold all `samples` kept
 * samples: the one a stop cut may hold part of a benchmark's stretches
 * (a group's forward half without its backward one), whose median would
 * then stand for a different schedule. A result left without samples is
 * skipped with the reason "interrupted". Returns how many results kept
 * samples. Call before the statistics (runner_run() does).
 */
size_t runner_keep_whole_repetitions(struct run_results *results,
				     unsigned samples);

void run_results_free(struct run_results *results);

/* Format a per-operation value with a human unit ("12.3 ns", "1.20 us"). */
void runner_format_value(char *buf, size_t len, double value,
			 const char *unit);

/* Whether a spread earns the noisy flag (RESULT_NOISY_MAD_SHARE). */
int result_noisy(const struct stats_summary *s);

#endif /* SMAPBENCH_RUNNER_H */
