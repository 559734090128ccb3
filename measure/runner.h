/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - running benchmarks: iteration sizing, warm-up,
 * repetitions, random interleaving, statistics per result.
 *
 * For every benchmark that can run here the runner first sizes the
 * iteration count: starting at 1, it times one sample and grows the
 * count (x10 while a sample is under a tenth of the goal, else by
 * 1.4 x goal / measured) until one sample lasts at least min_time (or
 * the benchmark's own cap, which marks the result "clamped"). Then, per
 * repetition, the benchmarks run in a fresh random order (seeded), each
 * taking `warmup` discarded samples and `samples` kept ones. Statistics
 * (stats.h) are over all kept samples of all repetitions, per operation.
 */
#ifndef SMAPBENCH_RUNNER_H
#define SMAPBENCH_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/counter.h"
#include "measure/registry.h"
#include "measure/stats.h"

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
	/* Called before each benchmark's samples in each repetition. */
	void (*progress)(void *arg, size_t done, size_t total,
			 const char *name, unsigned repetition);
	void *progress_arg;
};

void runner_defaults(struct runner_options *o);

struct result_sample {
	unsigned repetition;
	unsigned index;
	uint64_t iterations;
	double value;		/* per operation, in the result's unit */
};

#define RESULT_CLAMPED	(1U << 0) /* a sample could not reach min_time */
#define RESULT_NOISY	(1U << 1) /* cv above RESULT_NOISY_CV */
#define RESULT_PREEMPTED (1U << 2) /* > RESULT_PREEMPTED_SHARE of samples were */
#define RESULT_NOISY_CV	0.1
#define RESULT_PREEMPTED_SHARE 0.1

struct result {
	const struct benchmark *bench;
	int skipped;
	char reason[256];		/* why it was skipped */
	const char *counter;
	const char *unit;
	double hz;			/* unit per second */
	uint64_t iterations;		/* per sample, after sizing */
	struct result_sample *samples;
	size_t nsamples;
	struct stats_summary stats;
	double median_ns;		/* NAN when hz is unknown */
	unsigned flags;			/* RESULT_* */
	size_t preempted;		/* kept samples with a context switch */
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
 * *clamped when a cap stopped it first. 0 or -1 with why.
 */
int runner_size_iterations(const struct benchmark *b, void *state,
			   const struct runner_options *o,
			   uint64_t *iterations, int *clamped,
			   char *why, size_t whylen);

/*
 * Run every benchmark in the registry. Returns 0, 1 when o->stop was
 * raised (results incomplete), -1 on no memory.
 */
int runner_run(const struct registry *r, const struct runner_options *o,
	       struct run_results *out);

void run_results_free(struct run_results *results);

/* Format a per-operation value with a human unit ("12.3 ns", "1.20 us"). */
void runner_format_value(char *buf, size_t len, double value,
			 const char *unit);

#endif /* SMAPBENCH_RUNNER_H */
