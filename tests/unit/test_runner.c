// SPDX-License-Identifier: GPL-2.0
/*
 * test_runner.c - iteration sizing, repetitions and interleaving, with
 * a fake clock standing in for the counter: each operation of the fake
 * benchmarks advances it by a known number of ticks.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/registry.h"
#include "measure/runner.h"
#include "unit.h"

static uint64_t fake_now;
static char order_log[256];

static uint64_t fake_read(void)
{
	return fake_now;
}

static struct counter fake_counter = {
	.name = "fake", .unit = "ticks", .begin = fake_read, .end = fake_read,
	.hz = 1e9,	/* one tick per ns */
};

struct fake_arg {
	uint64_t ticks_per_op;
	char tag;
};

static int fake_run(void *state, uint64_t iterations)
{
	const struct fake_arg *a = state;

	fake_now += iterations * a->ticks_per_op;
	return 0;
}

static int fake_setup(const struct benchmark *b, void **state, char *why,
		      size_t whylen)
{
	(void)why;
	(void)whylen;
	*state = (void *)b->arg;
	return 0;
}

static int refuse(const struct benchmark *b, char *why, size_t whylen)
{
	(void)b;
	snprintf(why, whylen, "needs a flux capacitor");
	return -1;
}

static int logging_run(void *state, uint64_t iterations)
{
	const struct fake_arg *a = state;
	size_t n = strlen(order_log);

	if (n + 1 < sizeof(order_log)) {
		order_log[n] = a->tag;
		order_log[n + 1] = '\0';
	}
	return fake_run(state, iterations);
}

static const struct fake_arg slow = { 1000, 'S' }, fast = { 3, 'F' };

/* The defaults, timed by the fake counter: each test sets what it varies. */
static void fake_options(struct runner_options *o)
{
	runner_defaults(o);
	o->counter = &fake_counter;
}

static void sizing_reaches_min_time(void **unused)
{
	struct benchmark b = { .name = "t/fast", .run = fake_run };
	struct runner_options o;
	uint64_t n;
	int clamped;
	char why[128];

	(void)unused;
	fake_options(&o);
	o.min_time = 0.01;	/* 10 ms = 1e7 ticks */
	assert_int(runner_size_iterations(&b, (void *)&fast, &o, &n, &clamped,
					  NULL, why, sizeof(why)), 0, why);
	assert_int(clamped, 0, "not clamped");
	if (n * 3 < 10000000)
		fail_msg("sample of %llu ops x 3 ticks is shorter than 1e7",
			 (unsigned long long)n);
	if (n * 3 > 10000000 * 1.5)
		fail_msg("sample of %llu ops x 3 ticks overshoots 1.5 x min-time",
			 (unsigned long long)n);
}

static void sizing_stops_at_cap(void **unused)
{
	struct benchmark b = { .name = "t/capped", .run = fake_run,
			       .max_iterations = 100 };
	struct runner_options o;
	uint64_t n;
	int clamped;
	char why[128];

	(void)unused;
	fake_options(&o);
	o.min_time = 1;
	assert_int(runner_size_iterations(&b, (void *)&slow, &o, &n, &clamped,
					  NULL, why, sizeof(why)), 0, why);
	assert_int(n, 100, "capped iterations");
	assert_int(clamped, 1, "clamped flag");
}

static void run_collects_samples_and_skips(void **unused)
{
	const struct benchmark table[] = {
		{ .name = "t/slow", .suite = "t", .op = "slow", .variant = "none",
		  .arg = &slow, .setup = fake_setup, .run = logging_run },
		{ .name = "t/fast", .suite = "t", .op = "fast", .variant = "none",
		  .arg = &fast, .setup = fake_setup, .run = logging_run },
		{ .name = "t/never", .suite = "t", .op = "never",
		  .variant = "none", .valid = refuse, .run = fake_run },
	};
	struct registry r = { 0 };
	struct run_results res;
	struct runner_options o;

	(void)unused;
	registry_add_table(&r, table, 3);
	fake_options(&o);
	o.min_time = 0.001;
	o.repetitions = 6;
	o.samples = 4;
	o.warmup = 1;
	order_log[0] = '\0';
	assert_int(runner_run(&r, &o, &res), 0, "runner_run");
	assert_int(res.count, 3, "results");
	assert_int(res.items[2].skipped, 1, "refused benchmark skipped");
	assert_str(res.items[2].reason, "needs a flux capacitor", "reason");
	for (int i = 0; i < 2; i++) {
		struct result *x = &res.items[i];
		double expect = i == 0 ? 1000 : 3;

		assert_int(x->skipped, 0, "ran");
		assert_int(x->nsamples, 24, "6 repetitions x 4 samples");
		assert_near(x->stats.median, expect, 1e-9, "ticks per op");
		assert_near(x->stats.stddev, 0, 1e-9, "no spread");
		assert_near(x->median_ns, expect, 1e-9, "ns at 1 GHz");
		assert_str(x->counter, "fake", "counter named in result");
		assert_int(x->samples[23].repetition, 5, "last repetition index");
		assert_int(x->samples[23].index, 3, "last sample index");
	}
	/* After sizing, each repetition runs one benchmark 5 times (warm-up
	 * + 4 samples) then the other, in a shuffled order: over 6
	 * repetitions (seeded) both orders appear. */
	if (!strstr(order_log, "SSSSSFFFFF") || !strstr(order_log, "FFFFFSSSSS"))
		fail_msg("repetitions were not interleaved in both orders: %s",
			 order_log);
	run_results_free(&res);
	registry_free(&r);
}

/*
 * A self-timed paired difference (bpf overhead): samples alternate
 * +30 and -10 ns over 10 operations, the negative ones as a magnitude
 * with BENCH_SAMPLE_NEGATIVE. They must stay negative (-1 ns per op),
 * not be cut at 0: the median of 3, -1, 3, -1 ... is 1, not 1.5.
 */
static int signed_measure(void *state, uint64_t iterations, size_t n,
			  struct bench_sample *out, char *why, size_t whylen)
{
	(void)state;
	(void)iterations;
	(void)why;
	(void)whylen;
	for (size_t i = 0; i < n; i++) {
		out[i].iterations = 10;
		out[i].value = i % 2 ? 10 : 30;
		out[i].flags = i % 2 ? BENCH_SAMPLE_NEGATIVE : 0;
	}
	return 0;
}

static void signed_timer(void *state, struct bench_timer *t)
{
	(void)state;
	t->counter = "fake-ns";
	t->unit = "ns";
	t->hz = 1e9;
}

static void negative_self_timed_samples_keep_their_sign(void **unused)
{
	const struct benchmark table[] = {
		{ .name = "t/difference", .suite = "t", .op = "overhead",
		  .variant = "none", .measure = signed_measure,
		  .timer = signed_timer, .max_iterations = 10 },
	};
	struct registry r = { 0 };
	struct run_results res;
	struct runner_options o;
	size_t negative = 0;

	(void)unused;
	registry_add_table(&r, table, 1);
	fake_options(&o);
	o.min_time = 0.001;
	o.repetitions = 2;
	o.samples = 4;
	o.warmup = 0;
	assert_int(runner_run(&r, &o, &res), 0, "runner_run");
	assert_int(res.items[0].nsamples, 8, "2 repetitions x 4 samples");
	for (size_t i = 0; i < res.items[0].nsamples; i++) {
		double v = res.items[0].samples[i].value;

		assert_true(v == 3 || v == -1);
		negative += v < 0;
	}
	assert_int(negative, 4, "negative samples kept");
	assert_near(res.items[0].stats.median, 1, 1e-9, "median of 3 and -1");
	assert_near(res.items[0].stats.mean, 1, 1e-9, "mean of 3 and -1");
	run_results_free(&res);
	registry_free(&r);
}

static void stop_flag_interrupts(void **unused)
{
	const struct benchmark table[] = {
		{ .name = "t/slow", .suite = "t", .op = "slow", .variant = "none",
		  .arg = &slow, .setup = fake_setup, .run = fake_run },
	};
	struct registry r = { 0 };
	struct run_results res;
	struct runner_options o;
	volatile sig_atomic_t stop = SIGINT;

	(void)unused;
	registry_add_table(&r, table, 1);
	fake_options(&o);
	o.stop = &stop;
	assert_int(runner_run(&r, &o, &res), 1, "interrupted run returns 1");
	run_results_free(&res);
	registry_free(&r);
}

/*
 * A stop in the middle of the repetitions: raised as t/fast's stretch of
 * the second repetition starts (no interleaving: t/slow runs first).
 * t/slow keeps its two whole repetitions, t/fast its first; nothing of
 * a stretch the stop cut is kept.
 */
static volatile sig_atomic_t stop_at_fast;

static void stop_on_second_fast(void *arg, const struct runner_progress *p)
{
	(void)arg;
	if (p->event == RUNNER_STRETCH && p->repetition == 1 && p->name &&
	    !strcmp(p->name, "t/fast"))
		stop_at_fast = SIGINT;
}

static void stop_keeps_whole_repetitions(void **unused)
{
	const struct benchmark table[] = {
		{ .name = "t/slow", .suite = "t", .op = "slow", .variant = "none",
		  .arg = &slow, .setup = fake_setup, .run = fake_run },
		{ .name = "t/fast", .suite = "t", .op = "fast", .variant = "none",
		  .arg = &fast, .setup = fake_setup, .run = fake_run },
	};
	struct registry r = { 0 };
	struct run_results res;
	struct runner_options o;

	(void)unused;
	registry_add_table(&r, table, 2);
	fake_options(&o);
	o.min_time = 0.001;
	o.repetitions = 4;
	o.samples = 3;
	o.interleave = 0;
	o.stop = &stop_at_fast;
	o.progress = stop_on_second_fast;
	stop_at_fast = 0;
	assert_int(runner_run(&r, &o, &res), 1, "stopped");
	assert_int(res.items[0].skipped, 0, "t/slow kept");
	assert_int(res.items[0].nsamples, 6, "two repetitions of 3");
	assert_int(res.items[0].repetitions, 2, "t/slow's repetitions");
	assert_near(res.items[0].stats.median, 1000, 1e-9, "its median");
	assert_int(res.items[1].skipped, 0, "t/fast kept");
	assert_int(res.items[1].nsamples, 3, "one repetition of 3");
	assert_int(res.items[1].repetitions, 1, "t/fast's repetitions");
	run_results_free(&res);
	registry_free(&r);
}

/*
 * What a stop leaves of each result: the repetitions with all their
 * samples. a: repetition 0 whole, 1 cut after 2 of 3 (a group's forward
 * half) -> repetition 0. b: only a cut one -> skipped "interrupted".
 * c: skipped before, for its own reason: left as it was.
 */
static void partial_repetitions_dropped(void **unused)
{
	struct result_sample a[5] = {
		{ 0, 0, 1, 10 }, { 0, 1, 1, 11 }, { 0, 2, 1, 12 },
		{ 1, 0, 1, 99 }, { 1, 1, 1, 98 },
	};
	struct result_sample b[1] = { { 0, 0, 1, 5 } };
	struct result items[3] = {
		{ .samples = a, .nsamples = 5, .preempted = 5 },
		{ .samples = b, .nsamples = 1 },
		{ .skipped = 1, .reason = "no device" },
	};
	struct run_results res = { items, 3 };

	(void)unused;
	assert_int(runner_keep_whole_repetitions(&res, 3), 1, "rows kept");
	assert_int(items[0].nsamples, 3, "a: repetition 0 only");
	assert_near(items[0].samples[2].value, 12, 0, "a: its last sample");
	assert_int(items[0].preempted, 3, "no more preempted than kept");
	assert_int(items[1].skipped, 1, "b: nothing whole");
	assert_str(items[1].reason, "interrupted", "b: why");
	assert_str(items[2].reason, "no device", "c: its own reason");
}

/*
 * The noisy rule on known samples: 48 samples within 1% of 100 and two
 * at 450 (a cv of 0.49, which the rule must not call noisy: those two
 * are outliers, counted apart); 80, 85, ..., 120 (MAD 10 on a median of
 * 100: noisy); MAD exactly 5% of the median (not above it: not noisy).
 */
static void noisy_from_the_bulk_not_the_outliers(void **unused)
{
	double v[50], wide[9], edge[] = { 90, 95, 100, 105, 110 };
	struct stats_summary s;

	(void)unused;
	for (size_t i = 0; i < 48; i++)
		v[i] = 99 + (double)(i % 3);	/* 99, 100, 101 */
	v[48] = v[49] = 450;
	assert_int(stats_summarize(v, 50, &s), 0, "summarize");
	assert_true(s.cv > 0.4);
	assert_int(s.outliers, 2, "the two at 450 are outliers");
	assert_int(result_noisy(&s), 0, "two outliers do not make it noisy");

	for (size_t i = 0; i < 9; i++)
		wide[i] = 80 + 5 * (double)i;
	assert_int(stats_summarize(wide, 9, &s), 0, "summarize");
	assert_near(s.mad / s.median, 0.1, 1e-12, "MAD / median");
	assert_int(result_noisy(&s), 1, "a wide bulk is noisy");

	assert_int(stats_summarize(edge, 5, &s), 0, "summarize");
	assert_near(s.mad / s.median, RESULT_NOISY_MAD_SHARE, 1e-12,
		    "MAD / median at the threshold");
	assert_int(result_noisy(&s), 0, "at the threshold: not noisy");
}

static void format_human_units(void **unused)
{
	char buf[32];

	(void)unused;
	runner_format_value(buf, sizeof(buf), 1234.5, "ns");
	assert_str(buf, "1.23 us", "us");
	runner_format_value(buf, sizeof(buf), 2.5e9, "ns");
	assert_str(buf, "2.50 s", "s");
	runner_format_value(buf, sizeof(buf), 123.4, "ticks");
	assert_str(buf, "123 ticks", "ticks");
}

/*
 * A repetition's order: singles and groups shuffled as units, a group's
 * members run forward with the first half of the samples and backward
 * with the rest, the middle one going on without a second warm-up.
 */
static void schedule_runs_groups_as_palindromes(void **unused)
{
	const struct benchmark table[] = {
		{ .name = "t/a", .group = "g", .run = fake_run },
		{ .name = "t/single", .run = fake_run },
		{ .name = "t/b", .group = "g", .run = fake_run },
		{ .name = "t/x", .group = "h", .run = fake_run },
		{ .name = "t/y", .group = "h", .run = fake_run },
		{ .name = "t/z", .group = "h", .run = fake_run },
	};
	const size_t all[] = { 0, 1, 2, 3, 4, 5 };
	struct runner_segment seg[12];
	struct registry r = { 0 };
	struct runner_options o;
	struct stats_rng rng;
	unsigned first[6] = { 0 };

	(void)unused;
	registry_add_table(&r, table, 6);
	runner_defaults(&o);
	o.samples = 10;
	o.warmup = 1;
	stats_rng_seed(&rng, 3);
	for (int round = 0; round < 20; round++) {
		size_t n = runner_schedule(&r, all, 6, &o, &rng, (size_t)round, seg);
		unsigned kept[6] = { 0 };

		/* 1 for the single, 2 x 2 for g, 2 x 3 for h */
		assert_int(n, 11, "segments");
		for (size_t k = 0; k < n; k++) {
			kept[seg[k].bench] += seg[k].count;
			if (seg[k].bench == 1) {
				assert_int(seg[k].count, 10, "a single: all samples");
				continue;
			}
			if (seg[k].first == 0) {
				assert_int(seg[k].count, 5, "forward: first half");
				assert_int(seg[k].warmup, 1, "forward: warm-up");
				continue;
			}
			assert_int(seg[k].first, 5, "backward: second half");
			/* the mirror of the forward segment: a palindrome */
			size_t members = table[seg[k].bench].group[0] == 'g' ? 2 : 3;
			size_t j = k;

			while (j > 0 && seg[j - 1].first == 5)
				j--;	/* j: the first backward segment */
			assert_int(seg[2 * j - 1 - k].bench, seg[k].bench,
				   "backward mirrors forward");
			assert_int(seg[k].warmup, k == j ? 0 : 1,
				   "only the middle one goes on warm");
			assert_true(k - j < members);
		}
		for (int i = 0; i < 6; i++)
			assert_int(kept[i], 10, "every benchmark keeps 10 samples");
		/* which member of each group ran first this round */
		for (size_t k = 0, seen_g = 0, seen_h = 0; k < n; k++) {
			if (seg[k].first || seg[k].bench == 1)
				continue;
			if (table[seg[k].bench].group[0] == 'g' && !seen_g++)
				first[seg[k].bench]++;
			if (table[seg[k].bench].group[0] == 'h' && !seen_h++)
				first[seg[k].bench]++;
		}
	}
	/* balanced: over 20 rounds g's two members first 10 times each, h's 7, 7, 6 */
	assert_int(first[0], 10, "g: a first 10 times");
	assert_int(first[2], 10, "g: b first 10 times");
	for (int i = 3; i < 6; i++)
		assert_true(first[i] == 6 || first[i] == 7);
	registry_free(&r);
}

static int setups, teardowns;

static int counting_setup(const struct benchmark *b, void **state, char *why,
			  size_t whylen)
{
	setups++;
	return fake_setup(b, state, why, whylen);
}

static void counting_teardown(const struct benchmark *b, void *state)
{
	(void)b;
	(void)state;
	teardowns++;
}

/* Every repetition sets each benchmark up afresh: sizing, then 4 more. */
static void each_repetition_sets_up_afresh(void **unused)
{
	const struct benchmark table[] = {
		{ .name = "t/fast", .arg = &fast, .setup = counting_setup,
		  .teardown = counting_teardown, .run = fake_run },
	};
	struct registry r = { 0 };
	struct run_results res;
	struct runner_options o;

	(void)unused;
	registry_add_table(&r, table, 1);
	fake_options(&o);
	o.min_time = 0.001;
	o.repetitions = 4;
	o.samples = 3;
	setups = teardowns = 0;
	assert_int(runner_run(&r, &o, &res), 0, "runner_run");
	assert_int(setups, 5, "set up for sizing and for each repetition");
	assert_int(teardowns, 5, "torn down as often");
	assert_int(res.items[0].repetitions, 4, "repetitions");
	assert_near(res.items[0].center.estimate, 3, 1e-12, "center");
	assert_near(res.items[0].center.low, 3, 1e-12, "no spread");
	run_results_free(&res);
	registry_free(&r);
}

/*
 * The worker side, run by this very test program (main() below): one
 * benchmark whose samples are the process id, one that fails in the
 * worker, one that crashes it.
 */
static int pid_measure(void *state, uint64_t iterations, size_t n,
		       struct bench_sample *out, char *why, size_t whylen)
{
	(void)state;
	(void)iterations;
	(void)why;
	(void)whylen;
	for (size_t i = 0; i < n; i++)
		out[i] = (struct bench_sample){ .value = (uint64_t)getpid(),
						.iterations = 1, .repeats = 2 };
	return 0;
}

static int fails_in_worker(void *state, uint64_t iterations, size_t n,
			   struct bench_sample *out, char *why, size_t whylen)
{
	if (getenv("TEST_RUNNER_WORKER")) {
		snprintf(why, whylen, "the worker said no");
		return -1;
	}
	return pid_measure(state, iterations, n, out, why, whylen);
}

static int crashes_in_worker(void *state, uint64_t iterations, size_t n,
			     struct bench_sample *out, char *why, size_t whylen)
{
	if (getenv("TEST_RUNNER_WORKER"))
		raise(SIGKILL);	/* dies, and leaves no core behind */
	return pid_measure(state, iterations, n, out, why, whylen);
}

static void pid_timer(void *state, struct bench_timer *t)
{
	(void)state;
	t->counter = "pid";
	t->unit = "ticks";
	t->hz = 0;
}

static const struct benchmark worker_table[] = {
	{ .name = "w/pid", .measure = pid_measure, .timer = pid_timer },
	{ .name = "w/fails", .measure = fails_in_worker, .timer = pid_timer },
	{ .name = "w/crashes", .measure = crashes_in_worker, .timer = pid_timer },
};

static int worker_main(void)
{
	struct registry r = { 0 };
	struct runner_options o;

	registry_add_table(&r, worker_table, 3);
	fake_options(&o);
	return runner_worker(&r, &o, stdin, stdout);
}

/*
 * Each repetition in a process of its own: 3 repetitions give 3 process
 * ids, none the parent's; a failure in the worker skips the benchmark
 * with the worker's reason; a worker that dies fails the run.
 */
static void repetitions_run_in_workers(void **unused)
{
	char *argv[] = { "/proc/self/exe", "--worker", NULL };
	struct registry r = { 0 };
	struct run_results res;
	struct runner_options o;
	uint64_t pid[3] = { 0 };

	(void)unused;
	registry_add_table(&r, worker_table, 2);
	fake_options(&o);
	o.repetitions = 3;
	o.samples = 4;
	o.worker_argv = argv;
	assert_int(runner_run(&r, &o, &res), 0, "runner_run with workers");
	assert_int(res.items[0].nsamples, 12, "3 x 4 samples came back");
	for (size_t i = 0; i < 12; i++) {
		const struct result_sample *x = &res.items[0].samples[i];

		if (!pid[x->repetition])
			pid[x->repetition] = (uint64_t)x->value;
		assert_int((uint64_t)x->value, pid[x->repetition],
			   "one process per repetition");
		assert_true((pid_t)x->value != getpid());
	}
	assert_true(pid[0] != pid[1] && pid[1] != pid[2] && pid[0] != pid[2]);
	/* warm-up samples counted too: 3 x (1 + 4) samples of 2 repeats */
	assert_int(res.items[0].repeats, 30, "repeats from the workers");
	assert_int(res.items[1].skipped, 1, "failed in the worker: skipped");
	assert_str(res.items[1].reason, "the worker said no (repetition 1)",
		   "with the worker's reason");
	run_results_free(&res);
	registry_free(&r);

	registry_add_table(&r, worker_table, 3);
	fprintf(stderr, "# (a worker is about to be killed on purpose)\n");
	assert_int(runner_run(&r, &o, &res), -1, "a worker that dies fails the run");
	run_results_free(&res);
	registry_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizing_reaches_min_time),
		cmocka_unit_test(sizing_stops_at_cap),
		cmocka_unit_test(run_collects_samples_and_skips),
		cmocka_unit_test(negative_self_timed_samples_keep_their_sign),
		cmocka_unit_test(stop_flag_interrupts),
		cmocka_unit_test(stop_keeps_whole_repetitions),
		cmocka_unit_test(partial_repetitions_dropped),
		cmocka_unit_test(noisy_from_the_bulk_not_the_outliers),
		cmocka_unit_test(format_human_units),
		cmocka_unit_test(schedule_runs_groups_as_palindromes),
		cmocka_unit_test(each_repetition_sets_up_afresh),
		cmocka_unit_test(repetitions_run_in_workers),
	};

	if (argc == 2 && !strcmp(argv[1], "--worker")) {
		setenv("TEST_RUNNER_WORKER", "1", 1);
		return worker_main();
	}

	return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}
