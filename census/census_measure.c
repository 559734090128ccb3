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
#include "measure/counter.h"
#include "measure/registry.h"
#include "measure/runner.h"
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

/*
 * Operations that take about min_time: the runner's sizing, whose
 * samples come before the begin marker and are not counted (its first
 * warms the path up: a first UDP datagram, page faults); then at least
 * MIN_OPS, and more where the benchmark's own cap stopped the sizing
 * short of min_time, as its last sample's rate says (run_ops() calls
 * run() in pieces no longer than the cap). 0 when a sample failed.
 */
static uint64_t size_ops(const struct benchmark *b, void *state,
			 double min_time, char *why, size_t whylen)
{
	struct runner_options o;
	uint64_t n;
	double want, wall = 0;
	int clamped;

	runner_defaults(&o);
	o.min_time = min_time;
	o.max_iterations = MAX_OPS;
	o.counter = counter_select("monotonic", why, whylen);
	if (!o.counter ||
	    runner_size_iterations(b, state, &o, &n, &clamped, &wall, why, whylen))
		return 0;
	want = wall > 0 && wall < min_time ? (double)n * min_time / wall : (double)n;
	if (want < MIN_OPS)
		want = MIN_OPS;
	return want > (double)MAX_OPS ? MAX_OPS : (uint64_t)want;
}

/* The begin marker: what the plugin files b's counts under. */
static void send_begin(const struct benchmark *b)
{
	census_guest_send("begin %s %s %s %s %u %u", b->name, b->suite, b->op,
			  b->variant, b->size, b->batch);
}

/*
 * n operations of b between the markers: run() in pieces, or one sample
 * of a self-timed benchmark, whose iterations are the operations. 0 with
 * the operations counted in *ops, or -1 with why.
 */
static int count_ops(const struct benchmark *b, void *state, uint64_t n,
		     struct bench_sample *sample, uint64_t *ops, char *why,
		     size_t whylen)
{
	int failed;

	send_begin(b);
	if (b->run) {
		failed = run_ops(b, state, n) != 0;
		if (failed)
			snprintf(why, whylen, "run() failed");
	} else {
		failed = b->measure(state, n, 1, sample, why, whylen) != 0;
	}
	*ops = failed ? 0 : b->run ? n : sample->iterations;
	census_guest_send("end %" PRIu64, *ops);
	return failed ? -1 : 0;
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

	if ((b->valid && b->valid(b, why, sizeof(why))) ||
	    (b->setup && b->setup(b, &state, why, sizeof(why)))) {
		census_guest_send("skip %s\t%s", b->name, why);
		printf("census: %s: skipped: %s\n", b->name, why);
		return;
	}
	samples = calloc(o->samples ? o->samples : 1, sizeof(*samples));
	if (!samples) {
		snprintf(why, sizeof(why), "out of memory");
		failed = 1;
	} else if (!b->run && !strcmp(b->suite, "kmod")) {
		/* The iterations are the loop head's executions. */
		send_begin(b);
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
		uint64_t n = size_ops(b, state, o->min_time, why, sizeof(why));

		failed = !n || count_ops(b, state, n, samples, &ops, why,
					 sizeof(why));
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
