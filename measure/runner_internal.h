/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner_internal.h - what runner.c and runner_worker.c share: one
 * repetition's plan and the steps both ways of running it take.
 */
#ifndef SMAPBENCH_RUNNER_INTERNAL_H
#define SMAPBENCH_RUNNER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "measure/registry.h"

/* runner.h's; only pointers here, so that runner.h need not be included */
struct runner_options;
struct result;
struct runner_segment;

/* How far the repetitions are, against the estimate: for the ETA. */
struct runner_eta {
	size_t done, total;		/* stretches */
	double expected_done, expected_total;	/* seconds, estimated */
	double start;			/* CLOCK_MONOTONIC, seconds */
};

/* What one repetition runs and where its results go. */
struct runner_repetition {
	const struct registry *r;
	const struct runner_options *o;
	struct result *res;		/* per registry index */
	const struct runner_segment *seg;
	size_t nseg;
	unsigned index;
	struct runner_eta *eta;		/* progress over the whole run */
};

/* A stretch's own cost beyond its samples (runner.c: the estimate). */
#define RUNNER_STRETCH_SECONDS	0.0005

/* The seconds a stretch should take, by its sizing's measured sample. */
double runner_stretch_seconds(const struct result *res,
			      const struct runner_segment *seg);
double runner_now(void);

int runner_stopped(const struct runner_options *o);
/* The unit a benchmark's values come in: its own, or the counter's. */
void runner_unit_of(const struct benchmark *b, void *state,
		    const struct runner_options *o, struct bench_timer *t);
/* The raw samples of a stretch: total of them into s. 0, or -1 with why. */
int runner_collect(const struct benchmark *b, void *state,
		   const struct runner_options *o, uint64_t iterations,
		   unsigned total, struct bench_sample *s, char *why,
		   size_t whylen);
/* Count a stretch's samples, and keep those after its warm-up. */
void runner_store(struct result *res, const struct runner_segment *seg,
		  unsigned repetition, const struct bench_sample *s);
void runner_skip(struct result *res, const char *why);
/* Progress as a stretch starts: its name, and the time left. */
void runner_show_progress(const struct runner_repetition *rep,
			  const struct runner_segment *seg);
/*
 * One repetition in a new process (runner_worker() on the other side).
 * 0, or -1 when the worker could not be started or failed (said on
 * stderr); a stop request kills it and returns 0.
 */
int runner_repetition_in_worker(const struct runner_repetition *rep);

#endif /* SMAPBENCH_RUNNER_INTERNAL_H */
