// SPDX-License-Identifier: GPL-2.0
/*
 * test_runner.c - iteration sizing, repetitions and interleaving, with
 * a fake clock standing in for the counter: each operation of the fake
 * benchmarks advances it by a known number of ticks.
 */
#include <stdio.h>
#include <string.h>

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

static void sizing_reaches_min_time(void **unused)
{
	struct benchmark b = { .name = "t/fast", .run = fake_run };
	struct runner_options o;
	uint64_t n;
	int clamped;
	char why[128];

	(void)unused;
	runner_defaults(&o);
	o.counter = &fake_counter;
	o.min_time = 0.01;	/* 10 ms = 1e7 ticks */
	assert_int(runner_size_iterations(&b, (void *)&fast, &o, &n, &clamped,
					  why, sizeof(why)), 0, why);
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
	runner_defaults(&o);
	o.counter = &fake_counter;
	o.min_time = 1;
	assert_int(runner_size_iterations(&b, (void *)&slow, &o, &n, &clamped,
					  why, sizeof(why)), 0, why);
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
	runner_defaults(&o);
	o.counter = &fake_counter;
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
	runner_defaults(&o);
	o.counter = &fake_counter;
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
	runner_defaults(&o);
	o.counter = &fake_counter;
	o.stop = &stop;
	assert_int(runner_run(&r, &o, &res), 1, "interrupted run returns 1");
	run_results_free(&res);
	registry_free(&r);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizing_reaches_min_time),
		cmocka_unit_test(sizing_stops_at_cap),
		cmocka_unit_test(run_collects_samples_and_skips),
		cmocka_unit_test(negative_self_timed_samples_keep_their_sign),
		cmocka_unit_test(stop_flag_interrupts),
		cmocka_unit_test(format_human_units),
	};

	return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}
