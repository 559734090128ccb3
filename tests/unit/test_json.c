// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - JSON escaping, the validator, and results.json holding
 * Google Benchmark's keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "unit.h"

static char *capture(void (*fn)(FILE *, void *), void *arg, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	fn(f, arg);
	fclose(f);
	return buf;
}

static void escape_one(FILE *f, void *arg)
{
	json_write_escaped(f, arg);
}

static void escaping(void **unused)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "\"plain\"" },
		{ "q\"b\\", "\"q\\\"b\\\\\"" },
		{ "nl\ntab\tcr\r", "\"nl\\ntab\\tcr\\r\"" },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" },		/* valid UTF-8 kept */
		{ "bad\xff", "\"bad\\ufffd\"" },		/* invalid byte */
		{ "\xc3", "\"\\ufffd\"" },			/* truncated */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* surrogate */
		{ "/", "\"/\"" },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *out = capture(escape_one, (void *)cases[i].in, &len);
		char err[128];

		assert_str(out, cases[i].out, "escaped string");
		assert_int(json_validate(out, len, err, sizeof(err)), 0, err);
		free(out);
	}
}

static void validator(void **unused)
{
	static const char *const good[] = {
		"{}", "[]", " {\"a\": [1, -2.5e+3, true, false, null, \"x\"]} ",
		"0", "\"\\u00e9\"", "[[[]]]",
	};
	static const char *const bad[] = {
		"", "{", "{\"a\" 1}", "[1,]", "{\"a\":1,}", "01", "1.", "-",
		"\"unterminated", "\"bad \\x escape\"", "[1] 2", "{a:1}",
		"nul", "\"ctl \x01\"", "[1 2]",
	};
	char err[128];

	(void)unused;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (json_validate(good[i], strlen(good[i]), err, sizeof(err)))
			fail_msg("valid JSON rejected: %s (%s)", good[i], err);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!json_validate(bad[i], strlen(bad[i]), err, sizeof(err)))
			fail_msg("invalid JSON accepted: %s", bad[i]);
}

static void write_nested(FILE *f, void *arg)
{
	struct json_writer w;

	(void)arg;
	json_writer_init(&w, f);
	json_begin_object(&w);
	json_kv_string(&w, "k\"ey", "v\nal");
	json_key(&w, "list");
	json_begin_array(&w);
	json_double(&w, 1.5);
	json_double(&w, NAN);
	json_int(&w, -3);
	json_begin_object(&w);
	json_end_object(&w);
	json_end_array(&w);
	json_kv_bool(&w, "b", 1);
	json_end_object(&w);
	assert_int(json_writer_finish(&w), 0, "writer finish");
}

static void writer_output_is_valid(void **unused)
{
	size_t len;
	char err[128];
	char *out = capture(write_nested, NULL, &len);

	(void)unused;
	assert_int(json_validate(out, len, err, sizeof(err)), 0, err);
	if (!strstr(out, "null"))
		fail_msg("NaN should be written as null: %s", out);
	free(out);
}

static const struct benchmark fake_bench = {
	.name = "syscall/fake \"quoted\"", .suite = "syscall", .op = "fake",
	.variant = "none",
};

static void write_report(FILE *f, void *arg)
{
	assert_int(report_json(f, arg), 0, "report_json");
}

static void results_json_has_google_benchmark_keys(void **unused)
{
	struct result_sample samples[4] = {
		{ 0, 0, 100, 10 }, { 0, 1, 100, 12 },
		{ 1, 0, 100, 11 }, { 1, 1, 100, 13 },
	};
	struct result res = {
		.bench = &fake_bench, .counter = "rdtscp", .unit = "ticks",
		.hz = 2e9, .iterations = 100, .samples = samples, .nsamples = 4,
	};
	struct run_results results = { &res, 1 };
	struct context ctx = { 0 };
	struct report rep = {
		.results = &results, .context = &ctx, .run_flags = "",
		.executable = "smapbench", .repetitions = 2,
	};
	static const char *const keys[] = {
		"\"context\"", "\"benchmarks\"", "\"date\"", "\"host_name\"",
		"\"num_cpus\"", "\"name\"", "\"run_name\"", "\"run_type\": \"iteration\"",
		"\"run_type\": \"aggregate\"", "\"aggregate_name\": \"median\"",
		"\"aggregate_name\": \"mean\"", "\"aggregate_name\": \"stddev\"",
		"\"aggregate_name\": \"cv\"", "\"repetitions\": 2",
		"\"repetition_index\": 1", "\"iterations\"", "\"real_time\"",
		"\"cpu_time\"", "\"time_unit\": \"ns\"", "\"cmdline\": \"a \\\"b\\\"\\n\"",
	};
	char err[128];
	size_t len;

	(void)unused;
	context_set(&ctx, "date", "2026-01-01T00:00:00Z");
	context_set(&ctx, "host", "box");
	context_set(&ctx, "cmdline", "a \"b\"\n");
	stats_summarize((double[]){ 10, 12, 11, 13 }, 4, 1, &res.stats);
	char *out = capture(write_report, &rep, &len);

	assert_int(json_validate(out, len, err, sizeof(err)), 0, err);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strstr(out, keys[i]))
			fail_msg("results.json lacks %s", keys[i]);
	/* Repetition 0: (10 + 12) / 2 ticks = 11 ticks = 5.5 ns at 2 GHz. */
	if (!strstr(out, "\"real_time\": 5.5,"))
		fail_msg("repetition 0 real_time should be 5.5 ns:\n%s", out);
	free(out);
	context_free(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escaping),
		cmocka_unit_test(validator),
		cmocka_unit_test(writer_output_is_valid),
		cmocka_unit_test(results_json_has_google_benchmark_keys),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
