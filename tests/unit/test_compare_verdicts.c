// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare_verdicts.c - what a comparison says and writes for a
 * program to read: the sentence saying what B - A means from the sides'
 * SMAP states, --fail-on's verdict list and count, compare.json parsed
 * back by the project's strict reader, and compare.csv's text cells
 * from the runs neutralised against spreadsheet formulas.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "analysis/compare_json.h"
#include "analysis/compare_stats.h"
#include "analysis/compare_write.h"
#include "cli/compare_options.h"
#include "rundata/json.h"

static void test_pairing_sentences(void **state)
{
	char s[256];

	(void)state;
	assert_int_equal(compare_pairing_of("nosmap", "smap"),
			 COMPARE_PAIRING_ORDERED);
	compare_pairing_sentence(s, sizeof(s), "nosmap", "smap");
	assert_non_null(strstr(s, "they are what SMAP costs"));
	assert_null(strstr(s, "reversed"));

	assert_int_equal(compare_pairing_of("smap", "nosmap"),
			 COMPARE_PAIRING_REVERSED);
	compare_pairing_sentence(s, sizeof(s), "smap", "nosmap");
	assert_non_null(strstr(s, "Order reversed: A is the SMAP boot; the "
			       "deltas are minus SMAP's cost."));
	assert_null(strstr(s, "what SMAP costs"));

	assert_int_equal(compare_pairing_of("smap", "smap"),
			 COMPARE_PAIRING_SAME_STATE);
	compare_pairing_sentence(s, sizeof(s), "smap", "smap");
	assert_string_equal(s, "A/A comparison: both sides are SMAP on (smap); "
			    "the deltas are noise or drift between boots, not SMAP.");
	compare_pairing_sentence(s, sizeof(s), "nosmap", "nosmap");
	assert_non_null(strstr(s, "both sides are SMAP off (nosmap)"));
	assert_null(strstr(s, "SMAP costs"));

	/* unrecorded or odd states: no claim either way, naming no input */
	assert_int_equal(compare_pairing_of("", "smap"), COMPARE_PAIRING_UNKNOWN);
	assert_int_equal(compare_pairing_of("smap", "=1+1"),
			 COMPARE_PAIRING_UNKNOWN);
	compare_pairing_sentence(s, sizeof(s), "smap", "=1+1");
	assert_non_null(strstr(s, "SMAP state of B is not recorded"));
	assert_null(strstr(s, "=1+1"));
	compare_pairing_sentence(s, sizeof(s), "", "");
	assert_non_null(strstr(s, "of either side"));
	assert_string_equal(compare_pairing_name(COMPARE_PAIRING_REVERSED),
			    "reversed");
	assert_string_equal(compare_pairing_name(COMPARE_PAIRING_SAME_STATE),
			    "same-state");
}

static void test_side_state(void **state)
{
	const char *one[] = { "smap", "smap", "smap" };
	const char *mixed[] = { "nosmap", "nosmap", "smap" };
	const char *unrecorded[] = { "nosmap", "" };

	(void)state;
	assert_string_equal(compare_side_state(one, 3), "smap");
	assert_string_equal(compare_side_state(mixed, 1), "nosmap");
	assert_null(compare_side_state(mixed, 3));
	assert_null(compare_side_state(unrecorded, 2));
}

static void test_verdict_mask(void **state)
{
	unsigned mask;
	char bad[32];

	(void)state;
	assert_int_equal(compare_verdict_mask("slower", &mask, bad, sizeof(bad)), 0);
	assert_int_equal(mask, 1u << COMPARE_SLOWER);
	assert_int_equal(compare_verdict_mask("slower,faster,inconclusive",
					      &mask, bad, sizeof(bad)), 0);
	assert_int_equal(mask, (1u << COMPARE_SLOWER) | (1u << COMPARE_FASTER) |
			 (1u << COMPARE_INCONCLUSIVE));
	assert_int_equal(compare_verdict_mask("same,unknown", &mask, bad,
					      sizeof(bad)), 0);
	assert_int_equal(mask, (1u << COMPARE_SAME) | (1u << COMPARE_UNKNOWN));
	assert_int_equal(compare_verdict_mask("slower,slow", &mask, bad,
					      sizeof(bad)), -1);
	assert_string_equal(bad, "slow");
	assert_int_equal(compare_verdict_mask("slowerx", &mask, bad, sizeof(bad)), -1);
	assert_string_equal(bad, "slowerx");
	assert_int_equal(compare_verdict_mask("slower,", &mask, bad, sizeof(bad)), -1);
	assert_string_equal(bad, "");
	assert_int_equal(compare_verdict_mask("", &mask, bad, sizeof(bad)), -1);
}

/* The command line's sides: lists of runs split, bad lists refused. */
static void test_run_lists(void **state)
{
	char a[] = "off1,off2,off3", b[] = "on1", empty[] = "off1,,off2";
	char trailing[] = "off1,", many[4 * COMPARE_MAX_RUNS_A_SIDE];
	char *argv[] = { "compare", "--no-plots", a, b, NULL };
	char *bad[] = { "compare", empty, b, NULL };
	const char *paths[COMPARE_MAX_RUNS_A_SIDE];
	struct compare_options o;

	(void)state;
	assert_int_equal(compare_parse_options(4, argv, &o), 0);
	assert_int_equal(o.request.na, 3);
	assert_int_equal(o.request.nb, 1);
	assert_string_equal(o.request.runs_a[0], "off1");
	assert_string_equal(o.request.runs_a[2], "off3");
	assert_string_equal(o.request.runs_b[0], "on1");
	assert_false(o.request.plots);
	/* an empty name, or one run too many, is a bad command line */
	assert_int_equal(compare_parse_options(3, bad, &o), 2);
	assert_int_equal(compare_split_runs(trailing, paths), 0);
	many[0] = '\0';
	for (int i = 0; i <= COMPARE_MAX_RUNS_A_SIDE; i++)
		strcat(many, i ? ",r" : "r");
	assert_int_equal(compare_split_runs(many, paths), 0);
}

/* Two runs of one benchmark each, a hostile name included, and a result. */
struct fixture {
	struct run_bench bench[3];
	struct run_dir a, b;
	struct compare_row rows[3];
	struct compare_result res;
	char *keys_a[1], *values_a[1], *keys_b[1], *values_b[1];
};

static void fixture_init(struct fixture *x)
{
	static const char *const names[] = {
		"syscall/getppid", "=HYPERLINK(\"http://e\")", "-x\"y\\z\n",
	};
	static const enum compare_verdict verdicts[] = {
		COMPARE_SLOWER, COMPARE_INCONCLUSIVE, COMPARE_SAME,
	};

	memset(x, 0, sizeof(*x));
	for (int i = 0; i < 3; i++) {
		x->bench[i] = (struct run_bench){
			.name = (char *)names[i], .suite = (char *)(i ? "+s" : "syscall"),
			.op = (char *)"@op", .variant = (char *)"", .unit = (char *)"ns",
		};
		x->rows[i] = (struct compare_row){
			.a = &x->bench[i], .b = &x->bench[i], .unit = "ns",
			.na = 50, .nb = 50, .reps_a = 5, .reps_b = 5,
			.center_a = 100, .center_b = 110 + i, .delta = 10 + i,
			.delta_ns = 10 + i, .relative = 0.1, .ci_low = 5,
			.ci_high = 15, .relative_low = 0.05, .relative_high = 0.15,
			.se = 0.01, .df = 8, .p = 0.001, .q = 0.002,
			.verdict = verdicts[i], .method = "samples",
		};
	}
	x->rows[2].p = x->rows[2].q = x->rows[2].df = NAN;
	x->res = (struct compare_result){ .rows = x->rows, .count = 3 };
	x->keys_a[0] = x->keys_b[0] = (char *)"smap_state";
	x->values_a[0] = (char *)"nosmap";
	x->values_b[0] = (char *)"smap";
	x->a = (struct run_dir){ .path = (char *)"runs/off\t\"1\"",
				 .label = (char *)"off", .keys = x->keys_a,
				 .values = x->values_a, .context_count = 1 };
	x->b = (struct run_dir){ .path = (char *)"runs/on", .label = (char *)"on",
				 .keys = x->keys_b, .values = x->values_b,
				 .context_count = 1 };
}

static void test_fail_on_count(void **state)
{
	struct fixture x;
	const struct compare_row *first;

	(void)state;
	fixture_init(&x);
	assert_int_equal(compare_rows_with(&x.res, 1u << COMPARE_SLOWER, &first), 1);
	assert_ptr_equal(first, &x.rows[0]);
	assert_int_equal(compare_rows_with(&x.res, (1u << COMPARE_SAME) |
					   (1u << COMPARE_INCONCLUSIVE), &first), 2);
	assert_ptr_equal(first, &x.rows[1]);
	assert_int_equal(compare_rows_with(&x.res, 1u << COMPARE_FASTER, &first), 0);
	assert_null(first);
	assert_int_equal(compare_rows_with(&x.res, 0, NULL), 0);
}

static char *temp_dir(void)
{
	char *dir = strdup("/tmp/test_compare_verdicts.XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static void remove_in(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* compare.json parsed back: every member where it belongs, strings intact. */
static void test_json_round_trip(void **state)
{
	struct fixture x;
	const struct run_dir *side_a[] = { &x.a }, *side_b[] = { &x.b };
	struct compare_settings set = compare_default_settings();
	struct compare_words words;
	struct compare_sides sides = { .a = side_a, .b = side_b, .na = 1,
				       .nb = 1, .state_a = "nosmap",
				       .state_b = "smap" };
	const struct json_value *v, *rows, *row;
	struct json_value root;
	char path[PATH_MAX], err[256], *dir = temp_dir();

	(void)state;
	fixture_init(&x);
	compare_sides_pairing(&sides);
	assert_int_equal(compare_words_of(&x.res, &set, &words), 0);
	assert_int_equal(compare_json_write(dir, &x.res, &set, &words, &sides), 0);
	snprintf(path, sizeof(path), "%s/compare.json", dir);
	if (json_parse_file(path, 0, &root, err, sizeof(err)))
		fail_msg("compare.json is not valid JSON: %s", err);
	assert_int_equal(root.type, JSON_OBJECT);
	assert_string_equal(json_get_string(&root, "format"), COMPARE_JSON_FORMAT);

	v = json_get(&root, "settings");
	assert_non_null(v);
	assert_true(json_get_number(v, "alpha") == 0.05);
	assert_true(json_get_number(v, "margin") == 0.02);
	assert_true(json_get_number(v, "boot_sd") == COMPARE_DEFAULT_BOOT_SD);
	assert_string_equal(json_get_string(v, "boot_sd_source"), "assumed");
	assert_int_equal(json_get(v, "boot_df")->type, JSON_NULL);
	assert_int_equal(json_get(v, "calibration")->type, JSON_NULL);
	assert_int_equal(json_get(v, "calibrated")->type, JSON_BOOL);
	assert_true(json_get(v, "calibrated")->number == 0);

	v = json_get(json_get(&root, "sides"), "A");
	assert_non_null(v);
	assert_string_equal(json_get_string(v, "smap_state"), "nosmap");
	v = json_get(v, "runs");
	assert_int_equal(v->type, JSON_ARRAY);
	assert_int_equal(v->count, 1);
	assert_string_equal(json_get_string(&v->items[0], "path"), "runs/off\t\"1\"");
	assert_string_equal(json_get_string(json_get(json_get(&root, "sides"), "B"),
					    "smap_state"), "smap");

	v = json_get(&root, "pairing");
	assert_string_equal(json_get_string(v, "order"), "ordered");
	assert_non_null(strstr(json_get_string(v, "sentence"), "what SMAP costs"));

	v = json_get(&root, "verdicts");
	assert_true(json_get_number(v, "slower") == 1);
	assert_true(json_get_number(v, "inconclusive") == 1);
	assert_true(json_get_number(v, "same") == 1);
	assert_true(json_get_number(v, "faster") == 0);
	assert_true(json_get_number(v, "unknown") == 0);

	rows = json_get(&root, "rows");
	assert_int_equal(rows->type, JSON_ARRAY);
	assert_int_equal(rows->count, 3);
	for (size_t i = 0; i < 3; i++) {
		row = &rows->items[i];
		assert_string_equal(json_get_string(row, "name"), x.bench[i].name);
		assert_string_equal(json_get_string(row, "verdict"),
				    compare_verdict_name(x.rows[i].verdict));
		assert_string_equal(json_get_string(row, "basis"),
				    compare_row_basis(&x.rows[i]));
		assert_true(json_get_number(row, "center_b") == x.rows[i].center_b);
		assert_true(json_get_number(row, "reps_a") == 5);
	}
	/* what was not computed is null, never a made-up number */
	assert_int_equal(json_get(&rows->items[2], "p_value")->type, JSON_NULL);
	assert_int_equal(json_get(&rows->items[2], "df")->type, JSON_NULL);
	assert_int_equal(json_get(&root, "only_a")->type, JSON_ARRAY);
	assert_int_equal(json_get(&root, "only_b")->count, 0);
	json_free(&root);
	compare_words_free(&words);
	remove_in(dir, "compare.json");
	rmdir(dir);
	free(dir);
}

/* compare.csv: the runs' text that starts like a formula is quoted as text. */
static void test_csv_neutralised(void **state)
{
	struct fixture x;
	struct compare_settings set = compare_default_settings();
	struct compare_words words;
	char path[PATH_MAX], text[4096], *dir = temp_dir();
	size_t len;
	FILE *f;

	(void)state;
	fixture_init(&x);
	assert_int_equal(compare_words_of(&x.res, &set, &words), 0);
	assert_int_equal(compare_csv_write(dir, &x.res, &set, &words), 0);
	compare_words_free(&words);
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	assert_non_null(strstr(text, "\n\"'=HYPERLINK(\"\"http://e\"\")\",'+s,'@op,"));
	assert_non_null(strstr(text, "\n\"'-x\"\"y\\z\n\",'+s,'@op,"));
	assert_non_null(strstr(text, "\nsyscall/getppid,syscall,'@op,,0,0,ns,"));
	/* no cell of the file starts with a formula character unquoted */
	for (const char *p = text; *p; p++)
		if (p == text || p[-1] == ',' || p[-1] == '\n')
			assert_null(strchr("=+@", *p));
	/* numbers stay numbers */
	assert_non_null(strstr(text, ",slower,samples\n"));
	remove_in(dir, "compare.csv");
	rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairing_sentences),
		cmocka_unit_test(test_side_state),
		cmocka_unit_test(test_verdict_mask),
		cmocka_unit_test(test_run_lists),
		cmocka_unit_test(test_fail_on_count),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_csv_neutralised),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
