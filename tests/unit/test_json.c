// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - JSON escaping, the reader and validator, and results.json
 * holding Google Benchmark's keys.
 */
#include <math.h>
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

/* The tree: values, unescaping, and what only JSON_NONFINITE accepts. */
static void reader_tree(void **unused)
{
	static const char text[] =
		"{\"name\": \"caf\\u00e9 \\ud83d\\ude00 \\ud800 \\\"q\\\"\", "
		"\"list\": [1.5e2, -0, true, false, null, {}], "
		"\"name\": \"second\", \"t\": NaN}";
	struct json_value root;
	const struct json_value *list;
	char err[128];

	(void)unused;
	assert_int(json_parse(text, strlen(text), 0, &root, err, sizeof(err)), -1,
		   "NaN without JSON_NONFINITE");
	assert_str(err, "1:116: invalid JSON: unexpected character", "where and what");
	assert_int(root.type, JSON_NULL, "the tree after a failure is empty");
	assert_int(json_parse(text, strlen(text), JSON_NONFINITE, &root, err,
			      sizeof(err)), 0, err);
	assert_int(root.count, 4, "members");
	/* a surrogate pair is one code point; a lone one U+FFFD */
	assert_str(json_get_string(&root, "name"),
		   "caf\xc3\xa9 \xf0\x9f\x98\x80 \xef\xbf\xbd \"q\"",
		   "the first of a repeated key, unescaped");
	list = json_get(&root, "list");
	assert_int(list && list->type == JSON_ARRAY ? list->count : 0, 6, "array");
	assert_near(list->items[0].number, 150, 0, "1.5e2");
	assert_int(list->items[2].type, JSON_BOOL, "true");
	assert_int(list->items[2].number, 1, "true is 1");
	assert_int(list->items[4].type, JSON_NULL, "null");
	assert_int(list->items[5].type, JSON_OBJECT, "{}");
	assert_int(isnan(json_get_number(&root, "t")), 1, "NaN");
	assert_int(isnan(json_get_number(&root, "name")), 1, "a string is no number");
	assert_int(json_get(&root, "absent") == NULL, 1, "absent key");
	json_free(&root);
}

/* Every read stays within len: a value may end where the buffer does. */
static void reader_bounds_and_places(void **unused)
{
	static const struct {
		const char *text;
		size_t len;
		const char *err;	/* NULL: valid */
	} cases[] = {
		{ "123456", 3, NULL },
		{ "\"ab\"xyz", 4, NULL },
		{ "\"ab", 3, "1:1: invalid JSON: unterminated string" },
		{ "[1,\n 2,\n  x]", 12, "3:3: invalid JSON: unexpected character" },
		{ "{\"a\": 1} {}", 10, "1:10: invalid JSON: text after the end" },
		{ "[\"\xc3\"]", 4, "1:3: invalid JSON: invalid UTF-8 in string" },
		{ "[\"a\0b\"]", 6, "1:4: invalid JSON: control character in string" },
		{ "1e", 2, "1:3: invalid JSON: digits must follow the exponent" },
		{ "", 0, "1:1: invalid JSON: a value expected, the text ended" },
	};
	char deep[2 * (JSON_MAX_READ_DEPTH + 1) + 1], err[128];
	struct json_value root;

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = json_parse(cases[i].text, cases[i].len, 0, &root, err,
				    sizeof(err));

		if (!cases[i].err) {
			assert_int(rc, 0, err);
			json_free(&root);
		} else {
			assert_int(rc, -1, cases[i].text);
			assert_str(err, cases[i].err, cases[i].text);
		}
	}
	for (int d = 0; d <= JSON_MAX_READ_DEPTH; d++) {
		deep[d] = '[';
		deep[2 * (JSON_MAX_READ_DEPTH + 1) - 1 - d] = ']';
	}
	assert_int(json_parse(deep + 1, 2 * JSON_MAX_READ_DEPTH, 0, &root, err,
			      sizeof(err)), 0, "JSON_MAX_READ_DEPTH levels");
	json_free(&root);
	assert_int(json_validate(deep, 2 * (JSON_MAX_READ_DEPTH + 1), err,
				 sizeof(err)), -1, "one level more");
	assert_str(err, "1:65: invalid JSON: nested too deeply", "depth limit");
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
		cmocka_unit_test(reader_tree),
		cmocka_unit_test(reader_bounds_and_places),
		cmocka_unit_test(writer_output_is_valid),
		cmocka_unit_test(results_json_has_google_benchmark_keys),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
