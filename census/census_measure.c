// SPDX-License-Identifier: GPL-2.0
/*
 * census_measure.c - `smapbench census measure`: the guest side of the
 * instruction census (docs/census.md). Runs every selected benchmark once
 * between two markers of the census plugin (census/census_protocol.h),
 * which counts the STAC, CLAC, POPF and instructions the kernel executes
 * in between.
 *
 * Before any benchmark runs, the guest declares to the plugin, from
 * /proc/kallsyms: every function of smapbench.ko (a kmod loop's
 * STAC/CLAC are counted in its function's scope, apart from the ioctl's
 * own copies), every loop head smapbench_loop_* (its executions are the
 * iterations), and the kernel's exception and interrupt entry code
 * (asm_*), whose CLAC is counted apart as entry noise.
 *
 * An operation is one call of the benchmark's run() for harness-timed
 * benchmarks (syscall), one loop iteration for kmod (counted by the
 * plugin at the loop head), one counted iteration for bpf. Each
 * benchmark runs long enough (min_time of guest time) that interrupts
 * show as a fraction of an instruction per operation.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "census/census.h"
#include "census/census_guest.h"
#include "measure/registry.h"
#include "suites/suite.h"

/* ---- running one benchmark ------------------------------------------ */

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* run() n operations, in calls no longer than the benchmark allows. */
static int run_ops(const struct benchmark *b, void *state, uint64_t n)
{
	while (n) {
		uint64_t chunk = b->max_iterations && n > b->max_iterations ?
				 b->max_iterations : n;
		int rc = b->run(state, chunk);

		if (rc)
			return rc;
		n -= chunk;
	}
	return 0;
}

#define MAX_OPS (1ULL << 32)
/* At least this many operations, however slow: a rate needs a few. */
#define MIN_OPS 200

static uint64_t ops_for(uint64_t n, double t, double min_time)
{
	double want = t > 0 ? (double)n * min_time / t : (double)n;

	if (want < (double)n)
		want = (double)n;
	if (want < MIN_OPS)
		want = MIN_OPS;
	return want > (double)MAX_OPS ? MAX_OPS : (uint64_t)want;
}

/*
 * Operations that take about min_time, found by runs that are not
 * counted, after one that warms the path up (a first UDP datagram, page
 * faults). 0 when a run failed.
 */
static uint64_t size_run(const struct benchmark *b, void *state,
			 double min_time)
{
	if (run_ops(b, state, 1))
		return 0;
	for (uint64_t n = 1;; n *= 4) {
		double t = seconds();

		if (run_ops(b, state, n))
			return 0;
		t = seconds() - t;
		if (t >= min_time / 4 || n >= MAX_OPS / 4)
			return ops_for(n, t, min_time);
	}
}

/* The same for a self-timed benchmark: iterations of one sample. */
static uint64_t size_measure(const struct benchmark *b, void *state,
			     double min_time, struct bench_sample *sample,
			     char *why, size_t whylen)
{
	if (b->measure(state, 16, 1, sample, why, whylen))
		return 0;
	for (uint64_t n = 16;; n *= 4) {
		double t = seconds();

		if (b->measure(state, n, 1, sample, why, whylen))
			return 0;
		t = seconds() - t;
		if (t >= min_time / 4 || n >= MAX_OPS / 4)
			return ops_for(n, t, min_time);
	}
}

static void measure_one(const struct benchmark *b,
			const struct census_measure_options *o)
{
	struct bench_sample *samples = NULL;
	char why[512] = "";
	void *state = NULL;
	uint64_t ops = 0;
	int failed = 0, refused = 0;
	double start = seconds();

	if (b->valid && b->valid(b, why, sizeof(why))) {
		census_guest_send("skip %s\t%s", b->name, why);
		printf("census: %s: skipped: %s\n", b->name, why);
		return;
	}
	if (b->setup && b->setup(b, &state, why, sizeof(why))) {
		census_guest_send("skip %s\t%s", b->name, why);
		printf("census: %s: skipped: %s\n", b->name, why);
		return;
	}
	samples = calloc(o->samples ? o->samples : 1, sizeof(*samples));
	if (!samples) {
		snprintf(why, sizeof(why), "out of memory");
		failed = 1;
	} else if (b->run) {
		uint64_t n = size_run(b, state, o->min_time);

		if (!n) {
			snprintf(why, sizeof(why), "a sizing run failed");
			failed = 1;
		} else {
			census_guest_send("begin %s %s %s %s %u %u", b->name,
					  b->suite, b->op, b->variant, b->size,
					  b->batch);
			failed = run_ops(b, state, n) != 0;
			ops = failed ? 0 : n;
			census_guest_send("end %" PRIu64, ops);
			if (failed)
				snprintf(why, sizeof(why), "run() failed");
		}
	} else if (!strcmp(b->suite, "kmod")) {
		/* The iterations are the loop head's executions. */
		census_guest_send("begin %s %s %s %s %u %u", b->name,
				  b->suite, b->op, b->variant, b->size,
				  b->batch);
		failed = b->measure(state, b->max_iterations ? b->max_iterations :
				    1U << 20, o->samples, samples, why,
				    sizeof(why)) != 0;
		/*
		 * What the module refuses by design (one iteration longer
		 * than its interrupts-off bound, or not on this CPU) is a
		 * refusal, not a failure.
		 */
		refused = failed && (errno == E2BIG || errno == EOPNOTSUPP);
		census_guest_send("end 0");
	} else {
		uint64_t n = size_measure(b, state, o->min_time, samples, why,
					  sizeof(why));

		if (!n) {
			failed = 1;
		} else {
			census_guest_send("begin %s %s %s %s %u %u", b->name,
					  b->suite, b->op, b->variant, b->size,
					  b->batch);
			failed = b->measure(state, n, 1, samples, why,
					    sizeof(why)) != 0;
			ops = failed ? 0 : samples[0].iterations;
			census_guest_send("end %" PRIu64, ops);
		}
	}
	if (refused) {
		census_guest_send("skip %s\t%s", b->name, why);
		printf("census: %s: refused: %s\n", b->name, why);
	} else if (failed) {
		census_guest_send("skip %s\tfailed: %s", b->name, why);
		printf("census: %s: failed: %s\n", b->name, why);
	} else {
		printf("census: %s: %" PRIu64 " ops%s, %.2f s\n", b->name, ops,
		       ops ? "" : " (counted at the loop head)",
		       seconds() - start);
	}
	fflush(stdout);
	free(samples);
	if (b->teardown)
		b->teardown(b, state);
}

int census_measure(const struct census_measure_options *o)
{
	struct registry reg = { 0 };
	struct census_declared d;
	char why[512], err[512];
	int status = 1;

	if (census_guest_open(why, sizeof(why))) {
		fprintf(stderr, "smapbench census: %s\n", why);
		return 1;
	}
	double start = seconds();

	if (census_guest_declare(&d, why, sizeof(why))) {
		fprintf(stderr, "smapbench census: %s\n", why);
		goto out;
	}
	census_guest_send_context();
	census_guest_send("note declared %zu smapbench.ko functions, %zu entry symbols",
	     d.functions, d.entries);
	printf("census: declared %zu functions of smapbench.ko and %zu entry symbols in %.1f s\n",
	       d.functions, d.entries, seconds() - start);

	if (suite_register_all(&reg)) {
		fprintf(stderr, "smapbench census: out of memory\n");
		goto out;
	}
	registry_keep_suite(&reg, o->suite);
	if (o->quick)
		registry_drop_extended(&reg);
	if (o->filter && registry_keep_matching(&reg, o->filter, err, sizeof(err))) {
		fprintf(stderr, "smapbench census: %s\n", err);
		status = 2;
		goto out;
	}
	for (size_t i = 0; i < reg.count; i++)
		measure_one(reg.items[i], o);
	census_guest_send("note finished %zu benchmarks", reg.count);
	status = 0;
out:
	registry_free(&reg);
	return status;
}
