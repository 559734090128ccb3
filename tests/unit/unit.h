/* SPDX-License-Identifier: GPL-2.0 */
/* unit.h - cmocka, assertions that say what was expected, a scratch directory. */
#ifndef SMAPBENCH_UNIT_H
#define SMAPBENCH_UNIT_H

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <cmocka.h>

/*
 * UNIT_CASE=PATTERN runs only the cases whose names match PATTERN
 * (cmocka's filter: * and ? wildcards), e.g. one case while fixing it
 * (tests/README.md). cmocka 1.1 reads no variable for it, so every
 * program's cmocka_run_group_tests() sets it first.
 */
static inline void unit_case_filter(void)
{
	const char *pattern = getenv("UNIT_CASE");

	if (pattern && *pattern)
		cmocka_set_test_filter(pattern);
}

#undef cmocka_run_group_tests
#define cmocka_run_group_tests(group_tests, group_setup, group_teardown) \
	(unit_case_filter(),						\
	 _cmocka_run_group_tests(#group_tests, group_tests,		\
				 sizeof(group_tests) / sizeof((group_tests)[0]), \
				 group_setup, group_teardown))

#undef cmocka_run_group_tests_name
#define cmocka_run_group_tests_name(group_name, group_tests, group_setup, \
				    group_teardown)			\
	(unit_case_filter(),						\
	 _cmocka_run_group_tests(group_name, group_tests,		\
				 sizeof(group_tests) / sizeof((group_tests)[0]), \
				 group_setup, group_teardown))

/*
 * unit_tmpdir: the program's own directory for what its cases write,
 * /tmp/smapbench-PROGRAM.XXXXXX (a leftover names its program).
 * unit_make_tmpdir() makes it and unit_remove_tmpdir() removes it with
 * all it holds: a group's setup and teardown, or called from them.
 */
static char unit_tmpdir[64];

static inline int unit_make_tmpdir(void **state)
{
	(void)state;
	snprintf(unit_tmpdir, sizeof(unit_tmpdir), "/tmp/smapbench-%s.XXXXXX",
		 program_invocation_short_name);
	return mkdtemp(unit_tmpdir) ? 0 : -1;
}

static inline int unit_remove_one(const char *path, const struct stat *st,
				  int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static inline int unit_remove_tmpdir(void **state)
{
	(void)state;
	return nftw(unit_tmpdir, unit_remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

#define assert_near(actual, expected, tolerance, what) do {		\
	double a_ = (actual), e_ = (expected);				\
	if (!(fabs(a_ - e_) <= (tolerance)))				\
		fail_msg("%s: expected %.9g, got %.9g (tolerance %g)",	\
			 what, e_, a_, (double)(tolerance));		\
} while (0)

#define assert_str(actual, expected, what) do {				\
	const char *a_ = (actual), *e_ = (expected);			\
	if (!a_ || strcmp(a_, e_))					\
		fail_msg("%s: expected \"%s\", got \"%s\"", what, e_,	\
			 a_ ? a_ : "(null)");				\
} while (0)

#define assert_int(actual, expected, what) do {				\
	long long a_ = (long long)(actual), e_ = (long long)(expected);	\
	if (a_ != e_)							\
		fail_msg("%s: expected %lld, got %lld", what, e_, a_);	\
} while (0)

#endif /* SMAPBENCH_UNIT_H */
