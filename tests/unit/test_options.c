// SPDX-License-Identifier: GPL-2.0
/* test_options.c - `smapbench run` command line: good and bad input. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
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
		{ { "--min-time", "abc" }, "--min-time: 'abc'" },
		{ { "--min-time", "-1" }, "--min-time: '-1'" },
		{ { "--min-time", "0.1s" }, "--min-time: '0.1s'" },
		{ { "--min-time", "nan" }, "--min-time: 'nan'" },
		{ { "--repetitions", "0" }, "--repetitions: '0'" },
		{ { "--repetitions", "-3" }, "--repetitions: '-3'" },
		{ { "--repetitions", "99999999999999999999" }, "--repetitions" },
		{ { "--counter", "sundial" }, "unknown counter 'sundial'" },
		{ { "--cpu", "x" }, "--cpu: 'x'" },
		{ { "--out", "" }, "--out: empty" },
		{ { "--run-dir-file", "" }, "--run-dir-file: empty" },
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "--suite" }, "needs a value" },
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

static void number_parsers(void **unused)
{
	unsigned long long n;
	double d;

	(void)unused;
	assert_int(parse_unsigned("42", 0, 100, &n), 0, "42");
	assert_int(n, 42, "value");
	assert_int(parse_unsigned("", 0, 100, &n), -1, "empty");
	assert_int(parse_unsigned("+1", 0, 100, &n), -1, "sign");
	assert_int(parse_unsigned("101", 0, 100, &n), -1, "above range");
	assert_int(parse_double("1e-3", 0, 1, &d), 0, "1e-3");
	assert_near(d, 0.001, 1e-15, "value");
	assert_int(parse_double("inf", 0, 1e9, &d), -1, "inf");
	assert_int(parse_double(" 1", 0, 2, &d), 0, "leading space (strtod)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(good_input),
		cmocka_unit_test(bad_input_is_usage_error),
		cmocka_unit_test(number_parsers),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
