// SPDX-License-Identifier: GPL-2.0
/*
 * test_json.c - JSON escaping, the reader and validator, and results.json
 * holding Google Benchmark's keys.
 */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/stats.h"
#include "rundata/json.h"
#include "rundata/report.h"
#include "rundata/rundir.h"
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
	stats_summarize((double[]){ 10, 12, 11, 13 }, 4, &res.stats);
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

/*
 * Google Benchmark's meaning: an iteration entry is one repetition
 * (time per operation over all its samples, its operations as
 * "iterations"); the aggregates are over those repetition values, with
 * "iterations" = the number of repetitions. Three repetitions of two
 * samples of 100 operations, in ticks at 2 GHz: 10,12 | 11,13 | 20,22
 * give 11, 12, 21 ticks = 5.5, 6, 10.5 ns per operation. Over those:
 * median 6, mean 7.3333, sample stddev 2.7538 (n - 1), cv 0.37552. The
 * median of the six samples (12.5 ticks = 6.25 ns) must not be used.
 */
static struct result_sample three_reps[6] = {
	{ 0, 0, 100, 10 }, { 0, 1, 100, 12 },
	{ 1, 0, 100, 11 }, { 1, 1, 100, 13 },
	{ 2, 0, 100, 20 }, { 2, 1, 100, 22 },
};

static const struct json_value *entry(const struct json_value *list,
				      const char *name)
{
	for (size_t i = 0; i < list->count; i++) {
		const char *n = json_get_string(&list->items[i], "name");

		if (n && !strcmp(n, name))
			return &list->items[i];
	}
	fail_msg("results.json has no entry %s", name);
	return NULL;
}

static void results_json_aggregates_are_over_repetitions(void **unused)
{
	struct result res = {
		.bench = &fake_bench, .counter = "rdtscp", .unit = "ticks",
		.hz = 2e9, .iterations = 100, .samples = three_reps, .nsamples = 6,
	};
	struct run_results results = { &res, 1 };
	struct context ctx = { 0 };
	struct report rep = {
		.results = &results, .context = &ctx, .run_flags = "",
		.executable = "smapbench", .repetitions = 3,
	};
	static const double expect[3] = { 5.5, 6, 10.5 };
	double from_entries[3];
	char err[256], name[128];
	const struct json_value *list, *e;
	struct json_value root;
	size_t len, iterations = 0;

	(void)unused;
	stats_summarize((double[]){ 10, 12, 11, 13, 20, 22 }, 6, &res.stats);
	char *out = capture(write_report, &rep, &len);

	assert_int(json_parse(out, len, 0, &root, err, sizeof(err)), 0, err);
	list = json_get(&root, "benchmarks");
	assert_non_null(list);
	for (size_t i = 0; i < list->count; i++) {
		e = &list->items[i];
		if (strcmp(json_get_string(e, "run_type"), "iteration"))
			continue;
		assert_true(iterations < 3);
		assert_int(json_get_number(e, "repetition_index"), iterations,
			   "repetition_index");
		assert_int(json_get_number(e, "iterations"), 200,
			   "operations of one repetition");
		from_entries[iterations] = json_get_number(e, "real_time");
		assert_near(from_entries[iterations], expect[iterations], 1e-9,
			    "repetition real_time");
		assert_near(json_get_number(e, "cpu_time"), expect[iterations],
			    1e-9, "repetition cpu_time");
		iterations++;
	}
	assert_int(iterations, 3, "one iteration entry per repetition");
	static const struct {
		const char *suffix;
		double value;
	} aggregates[] = {
		{ "median", 6 }, { "mean", 22.0 / 3 },
		{ "stddev", 2.7537852736430506 }, { "cv", 0.37551617367859781 },
	};
	for (size_t k = 0; k < 4; k++) {
		snprintf(name, sizeof(name), "%s_%s", fake_bench.name,
			 aggregates[k].suffix);
		e = entry(list, name);
		assert_str(json_get_string(e, "run_type"), "aggregate", name);
		assert_str(json_get_string(e, "aggregate_name"),
			   aggregates[k].suffix, name);
		assert_str(json_get_string(e, "run_name"), fake_bench.name, name);
		assert_int(json_get_number(e, "iterations"), 3,
			   "aggregate iterations: the repetitions");
		assert_int(json_get_number(e, "repetitions"), 3, "repetitions");
		assert_near(json_get_number(e, "real_time"), aggregates[k].value,
			    1e-9, name);
	}
	/* The same numbers from the iteration entries just read back. */
	assert_near(json_get_number(entry(list, "syscall/fake \"quoted\"_median"),
				    "real_time"),
		    stats_median(from_entries, 3), 1e-9, "median of entries");
	assert_near(json_get_number(entry(list, "syscall/fake \"quoted\"_mean"),
				    "real_time"),
		    stats_mean(from_entries, 3), 1e-9, "mean of entries");
	assert_near(json_get_number(entry(list, "syscall/fake \"quoted\"_stddev"),
				    "real_time"),
		    stats_stddev(from_entries, 3), 1e-9, "stddev of entries");
	/* The sample-level median rides along under its own name. */
	assert_near(json_get_number(entry(list, "syscall/fake \"quoted\"_median"),
				    "sample_median"), 12.5, 1e-9, "sample_median");
	json_free(&root);
	free(out);
	context_free(&ctx);
}

/* Google Benchmark writes no aggregate for a single repetition. */
static void results_json_one_repetition_has_no_aggregates(void **unused)
{
	struct result res = {
		.bench = &fake_bench, .counter = "rdtscp", .unit = "ticks",
		.hz = 2e9, .iterations = 100, .samples = three_reps, .nsamples = 2,
	};
	struct run_results results = { &res, 1 };
	struct context ctx = { 0 };
	struct report rep = {
		.results = &results, .context = &ctx, .run_flags = "",
		.executable = "smapbench", .repetitions = 1,
	};
	size_t len;

	(void)unused;
	stats_summarize((double[]){ 10, 12 }, 2, &res.stats);
	char *out = capture(write_report, &rep, &len);

	if (strstr(out, "\"aggregate\""))
		fail_msg("one repetition, yet aggregates:\n%s", out);
	if (!strstr(out, "\"run_type\": \"iteration\""))
		fail_msg("no iteration entry:\n%s", out);
	free(out);
	context_free(&ctx);
}

/*
 * Read back, a run's values are its repetitions, and B - A uses their
 * median: a _median aggregate that disagrees is not used.
 */
static void results_json_read_back_uses_repetitions(void **unused)
{
	char dir[] = "/tmp/test_json.XXXXXX", path[64], err[512];
	struct result res = {
		.bench = &fake_bench, .counter = "rdtscp", .unit = "ticks",
		.hz = 2e9, .iterations = 100, .samples = three_reps, .nsamples = 6,
	};
	struct run_results results = { &res, 1 };
	struct context ctx = { 0 };
	struct report rep = {
		.results = &results, .context = &ctx, .run_flags = "",
		.executable = "smapbench", .repetitions = 3,
	};
	struct run_dir run;
	const struct run_bench *b;
	FILE *f;

	(void)unused;
	stats_summarize((double[]){ 10, 12, 11, 13, 20, 22 }, 6, &res.stats);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	write_report(f, &rep);
	assert_int(fclose(f), 0, "fclose");
	assert_int(rundir_load(path, &run, err, sizeof(err)), 0, err);
	b = rundir_find(&run, fake_bench.name);
	assert_non_null(b);
	assert_int(b->source, RUN_VALUES_REPETITIONS, "values are repetitions");
	assert_int(b->count, 3, "three repetition values");
	for (size_t i = 0; i < 3; i++) {
		static const double expect[3] = { 5.5, 6, 10.5 };

		assert_near(b->values[i], expect[i], 1e-9, "repetition value");
	}
	assert_near(b->median, 6, 1e-9, "median of the repetitions");
	assert_int(run.aggregates_only, 0, "no aggregates-only benchmark");
	rundir_free(&run);

	/* A file whose _median aggregate says 99: still the repetitions. */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"benchmarks\": [\n"
	      " {\"name\": \"BM_x\", \"run_type\": \"iteration\", \"real_time\": 4, \"time_unit\": \"ns\"},\n"
	      " {\"name\": \"BM_x\", \"run_type\": \"iteration\", \"real_time\": 5, \"time_unit\": \"ns\"},\n"
	      " {\"name\": \"BM_x\", \"run_type\": \"iteration\", \"real_time\": 9, \"time_unit\": \"ns\"},\n"
	      " {\"name\": \"BM_x_median\", \"run_name\": \"BM_x\", \"run_type\": \"aggregate\",\n"
	      "  \"aggregate_name\": \"median\", \"real_time\": 99, \"time_unit\": \"ns\"}]}\n", f);
	assert_int(fclose(f), 0, "fclose");
	assert_int(rundir_load(path, &run, err, sizeof(err)), 0, err);
	b = rundir_find(&run, "BM_x");
	assert_non_null(b);
	assert_near(b->median, 5, 1e-12, "median of the repetitions, not 99");
	rundir_free(&run);
	unlink(path);
	rmdir(dir);
	context_free(&ctx);
}

struct each_seen {
	size_t count, stop_at;
	double sum;
};

static int each_sum(const struct json_value *e, size_t i, void *arg)
{
	struct each_seen *s = arg;

	assert_int(i, s->count, "index");
	s->count++;
	s->sum += json_get_number(e, "v");
	return s->count == s->stop_at ? 7 : 0;
}

/* The streamed array is seen an element at a time and not kept. */
static void reader_streams_one_array(void **unused)
{
	const char *text = "{\"context\":{\"k\":\"x\"},\"benchmarks\":"
			   "[{\"v\":1},{\"v\":2},{\"v\":3.5}],\"n\":[1,2]}";
	struct each_seen seen = { 0 };
	struct json_value root;
	char err[256];
	size_t n = 0;

	(void)unused;
	assert_int(json_parse_each(text, strlen(text), 0, "benchmarks", each_sum,
				   &seen, &root, &n, err, sizeof(err)), 0, err);
	assert_int(n, 3, "elements");
	assert_true(seen.sum == 6.5);
	assert_int(json_get(&root, "benchmarks")->type, JSON_ARRAY, "type");
	assert_int(json_get(&root, "benchmarks")->count, 0, "not kept");
	assert_str(json_get_string(json_get(&root, "context"), "k"), "x", "kept");
	assert_int(json_get(&root, "n")->count, 2, "other arrays kept");
	json_free(&root);

	/* each() stops it, and its status comes back */
	seen = (struct each_seen){ .stop_at = 2 };
	assert_int(json_parse_each(text, strlen(text), 0, "benchmarks", each_sum,
				   &seen, &root, &n, err, sizeof(err)), 7, "stopped");
	assert_int(seen.count, 2, "stopped at the second");
	assert_null(root.items);
}

/* The most any one element held, measured while it is held. */
static size_t peak_base;

static int peak_each(const struct json_value *e, size_t i, void *arg)
{
	struct mallinfo2 now = mallinfo2();
	size_t *peak = arg;

	(void)e;
	(void)i;
	if (now.uordblks + now.hblkhd > peak_base + *peak)
		*peak = now.uordblks + now.hblkhd - peak_base;
	return 0;
}

/*
 * A text made to cost the most per byte ("[0,0,...]": 48 bytes of tree
 * per 2 bytes) is refused as more than the reader keeps, while the
 * validator, which keeps nothing, takes it; a run's real shape is held
 * in well under 4 bytes per byte.
 */
static void reader_memory_is_bounded(void **unused)
{
	const size_t n = 1 << 20;
	char *dense = malloc(2 * n + 2), err[256];
	struct json_value root;
	struct mallinfo2 before, after;
	size_t len, held = 0, entries = 0;
	FILE *f;
	char *real = NULL;

	(void)unused;
	assert_non_null(dense);
	dense[0] = '[';
	for (size_t i = 0; i < n; i++)
		memcpy(dense + 1 + 2 * i, "0,", 2);
	dense[2 * n] = ']';
	assert_int(json_parse(dense, 2 * n + 1, 0, &root, err, sizeof(err)), -1,
		   "dense array");
	if (!strstr(err, "too much to hold"))
		fail_msg("dense array: %s", err);
	assert_null(root.items);
	assert_int(json_validate(dense, 2 * n + 1, err, sizeof(err)), 0, err);
	free(dense);

	/* entries as Google Benchmark writes them, without spaces */
	f = open_memstream(&real, &len);
	fputs("{\"benchmarks\":[", f);
	for (int i = 0; i < 20000; i++)
		fprintf(f, "%s{\"name\":\"BM_x/%d\",\"run_name\":\"BM_x/%d\","
			"\"run_type\":\"iteration\",\"iterations\":1000,"
			"\"real_time\":1.5e+01,\"cpu_time\":1.5e+01,"
			"\"time_unit\":\"ns\"}", i ? "," : "", i, i);
	fputs("]}", f);
	fclose(f);
	/* Whole, it is more than the budget; streamed, one entry at a time. */
	assert_int(json_parse(real, len, 0, &root, err, sizeof(err)), -1,
		   "20000 entries as one tree");
	before = mallinfo2();
	peak_base = before.uordblks + before.hblkhd;
	assert_int(json_parse_each(real, len, 0, "benchmarks", peak_each, &held,
				   &root, &entries, err, sizeof(err)), 0, err);
	after = mallinfo2();
	assert_int(entries, 20000, "entries");
	print_message("# %zu bytes of JSON streamed; one entry held %zu bytes, "
		      "%zd after\n", len, held,
		      (ssize_t)((after.uordblks + after.hblkhd) -
				(before.uordblks + before.hblkhd)));
	if (held > 4096)
		fail_msg("an entry of %zu bytes of text held %zu", len / 20000, held);
	json_free(&root);
	free(real);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escaping),
		cmocka_unit_test(validator),
		cmocka_unit_test(reader_tree),
		cmocka_unit_test(reader_bounds_and_places),
		cmocka_unit_test(reader_streams_one_array),
		cmocka_unit_test(reader_memory_is_bounded),
		cmocka_unit_test(writer_output_is_valid),
		cmocka_unit_test(results_json_has_google_benchmark_keys),
		cmocka_unit_test(results_json_aggregates_are_over_repetitions),
		cmocka_unit_test(results_json_one_repetition_has_no_aggregates),
		cmocka_unit_test(results_json_read_back_uses_repetitions),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
