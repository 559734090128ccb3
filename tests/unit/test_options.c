// SPDX-License-Identifier: GPL-2.0
/*
 * test_options.c - the option tables (cli/options.h): `smapbench run`'s
 * command line, good and bad input; the one number parser; a usage made
 * from a table names every option with its bounds and default.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run_options.h"
#include "unit.h"

static int parse(struct run_options *o, char *err, size_t errlen, ...)
{
	char *argv[32] = { "run" };
	int argc = 1;
	va_list ap;

	va_start(ap, errlen);
	for (char *a; (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	va_end(ap);
	err[0] = '\0';
	return run_parse_options(argc, argv, o, err, errlen);
}

static void defaults(void **unused)
{
	struct run_options o;
	char err[256];

	(void)unused;
	assert_int(parse(&o, err, sizeof(err), NULL), 0, err);
	assert_str(o.suite, "all", "default suite");
	assert_near(o.min_time, 0.01, 0, "default min-time");
	assert_int(o.repetitions, 5, "default repetitions");
	assert_int(o.cpu, -1, "default cpu");
	assert_str(o.out, "data", "default out");
	assert_null(o.counter);
}

static void good_input(void **unused)
{
	struct run_options o;
	char err[256];
	uint64_t seed;

	(void)unused;
	assert_int(parse(&o, err, sizeof(err), "--suite", "syscall",
			 "--filter", "^syscall/(getppid|poll)", "--min-time",
			 "0.5", "--repetitions", "7", "--counter", "rdtsc",
			 "--cpu", "1", "--out", "/tmp/x", "--samples=3",
			 "--seed", "9", NULL), 0, err);
	assert_str(o.suite, "syscall", "suite");
	assert_str(o.filter, "^syscall/(getppid|poll)", "filter");
	assert_near(o.min_time, 0.5, 0, "min-time");
	assert_int(o.repetitions, 7, "repetitions");
	assert_int(o.samples, 3, "samples");
	assert_str(o.counter, "rdtsc", "counter");
	assert_int(o.cpu, 1, "cpu");
	assert_str(o.out, "/tmp/x", "out");
	assert_int(o.seed, 9, "seed");
	/* without --seed each run draws its own: two runs, two orders */
	assert_int(parse(&o, err, sizeof(err), NULL), 0, err);
	seed = o.seed;
	assert_int(parse(&o, err, sizeof(err), NULL), 0, err);
	assert_true(o.seed != seed);
	assert_int(parse(&o, err, sizeof(err), "--counter", "kmod-pmu", "--list",
			 NULL), 0, err);
	assert_int(o.list, 1, "list");
	assert_int(parse(&o, err, sizeof(err), "--quick", NULL), 0, err);
	assert_near(o.min_time, 0.002, 0, "--quick min-time");
	assert_int(o.repetitions, 3, "--quick repetitions");
	assert_int(o.samples, 5, "--quick samples");
	assert_int(parse(&o, err, sizeof(err), "--repetitions", "9", "--quick",
			 NULL), 0, err);
	assert_int(o.repetitions, 9, "explicit --repetitions wins over --quick");
}

static void bad_input_is_usage_error(void **unused)
{
	static const struct {
		const char *args[3];
		const char *message;
	} cases[] = {
		{ { "--suite", "nope" }, "unknown suite 'nope'" },
		{ { "--min-time", "abc" }, "--min-time 'abc'" },
		{ { "--min-time", "-1" }, "--min-time '-1'" },
		{ { "--min-time", "0.1s" }, "--min-time '0.1s'" },
		{ { "--min-time", "nan" }, "--min-time 'nan'" },
		{ { "--repetitions", "0" }, "--repetitions '0'" },
		{ { "--repetitions", "-3" }, "--repetitions '-3'" },
		{ { "--repetitions", "99999999999999999999" }, "--repetitions" },
		{ { "--counter", "sundial" }, "unknown counter 'sundial'" },
		{ { "--cpu", "x" }, "--cpu 'x'" },
		{ { "--out", "" }, "--out: empty" },
		{ { "--run-dir-file", "" }, "--run-dir-file: empty" },
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "--suite" }, "needs a value" },
		{ { "--quick=1" }, "option '--quick' takes no value" },
		{ { "--seed", "-1" }, "--seed '-1' is not an unsigned integer" },
		{ { "extra" }, "unexpected argument 'extra'" },
	};
	struct run_options o;
	char err[256];

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse(&o, err, sizeof(err), cases[i].args[0],
			       cases[i].args[1], NULL);

		if (rc != EXIT_USAGE)
			fail_msg("%s %s: expected exit status 2, got %d",
				 cases[i].args[0],
				 cases[i].args[1] ? cases[i].args[1] : "", rc);
		if (!strstr(err, cases[i].message))
			fail_msg("%s: message \"%s\" lacks \"%s\"",
				 cases[i].args[0], err, cases[i].message);
	}
}

static void number_parser(void **unused)
{
	unsigned long long n;
	double d;

	(void)unused;
	assert_int(parse_number("42", 1, 0, 100, 0, &d, &n), 0, "42");
	assert_int(n, 42, "value");
	assert_near(d, 42, 0, "as a real");
	assert_int(parse_number("", 1, 0, 100, 0, &d, &n), -1, "empty");
	assert_int(parse_number("+1", 1, 0, 100, 0, &d, &n), -1, "sign");
	assert_int(parse_number("1.5", 1, 0, 100, 0, &d, &n), -1, "not whole");
	assert_int(parse_number("101", 1, 0, 100, 0, &d, &n), -1, "above range");
	assert_int(parse_number("18446744073709551615", 1, 0, OPTION_WHOLE_MAX, 0,
				NULL, &n), 0, "UINT64_MAX");
	assert_true(n == UINT64_MAX);
	assert_int(parse_number("18446744073709551616", 1, 0, OPTION_WHOLE_MAX, 0,
				NULL, &n), -1, "above 64 bits");
	assert_int(parse_number("1e-3", 0, 0, 1, 0, &d, NULL), 0, "1e-3");
	assert_near(d, 0.001, 1e-15, "value");
	assert_int(parse_number("inf", 0, 0, 1e9, 0, &d, NULL), -1, "inf");
	assert_int(parse_number(" 1", 0, 0, 2, 0, &d, NULL), -1, "leading space");
	assert_int(parse_number("0", 0, 0, 1, OPTION_LOW_OPEN, &d, NULL), -1,
		   "an excluded low end");
	assert_int(parse_number("0.5", 0, 0, 0.5, OPTION_HIGH_OPEN, &d, NULL), -1,
		   "an excluded high end");
	assert_int(parse_number("0.5", 0, 0, 0.5, 0, &d, NULL), 0, "an included end");
}

/* The usage names every option of the table, with its bounds. */
static void usage_made_from_the_table(void **unused)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)unused;
	assert_non_null(f);
	run_usage(f);
	fclose(f);
	/* wrapped lines read as one: a line end and its indent are a space */
	for (char *in = text, *out = text;; in++) {
		if (*in == '\n') {
			while (in[1] == ' ')
				in++;
			*in = ' ';
		}
		if (!(*out++ = *in))
			break;
	}
	for (const char *o = "suite\0filter\0min-time\0repetitions\0samples\0"
			     "counter\0cpu\0no-realtime\0out\0run-dir-file\0seed\0"
			     "quick\0full\0list\0help\0"; *o; o += strlen(o) + 1) {
		char want[32];

		snprintf(want, sizeof(want), " --%s%s", o, strcmp(o, "help") ? " " : ",");
		if (!strstr(text, want))
			fail_msg("the usage lacks %s:\n%s", want, text);
	}
	assert_non_null(strstr(text, "(N from 1 to 10000; default 5)"));
	assert_non_null(strstr(text, "(S in [1e-06, 60]; default 0.01)"));
	assert_non_null(strstr(text, "(syscall, kmod"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(good_input),
		cmocka_unit_test(bad_input_is_usage_error),
		cmocka_unit_test(number_parser),
		cmocka_unit_test(usage_made_from_the_table),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
