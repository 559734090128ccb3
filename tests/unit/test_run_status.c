// SPDX-License-Identifier: GPL-2.0
/*
 * test_run_status.c - an interrupted run as its readers see it: the
 * status read from context.csv, compare refusing it unless forced, the
 * table leaving it out with the reason, pack and import checking the
 * value. The runs are copies of tests/fixtures/ (read from the
 * repository's top, where stage unit runs this), with a status added.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare_plan.h"
#include "analysis/run_input.h"
#include "analysis/table.h"
#include "archive/run_archive.h"
#include "rundata/rundir.h"
#include "unit.h"

static void copy_file(const char *from, const char *to, const char *append)
{
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	char buf[65536];
	size_t n;

	if (!in || !out)
		fail_msg("cannot copy %s to %s", from, to);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int(fwrite(buf, 1, n, out), n, "copied");
	if (append)
		fputs(append, out);
	fclose(in);
	assert_int(fclose(out), 0, "written");
}

/* unit_tmpdir/NAME: the fixture run FIXTURE, context.csv with append added. */
static void make_run(const char *name, const char *fixture, const char *append)
{
	static const char *const files[] = {
		"context.csv", "results.csv", "samples.csv", "results.json",
	};
	char dir[PATH_MAX], from[PATH_MAX], to[PATH_MAX * 2];

	snprintf(dir, sizeof(dir), "%s/%s", unit_tmpdir, name);
	if (mkdir(dir, 0755))
		fail_msg("mkdir %s", dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(from, sizeof(from), "tests/fixtures/%s/%s", fixture,
			 files[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, files[i]);
		copy_file(from, to, i == 0 ? append : NULL);
	}
}

static void load(const char *name, struct run_dir *run)
{
	char path[PATH_MAX], err[PATH_MAX + 256];

	snprintf(path, sizeof(path), "%s/%s", unit_tmpdir, name);
	if (rundir_load(path, run, err, sizeof(err)))
		fail_msg("loading %s: %s", path, err);
}

static int setup(void **state)
{
	if (unit_make_tmpdir(state))
		return -1;
	make_run("old", "run-nosmap", NULL);
	make_run("complete", "run-smap", "status,complete\n");
	make_run("interrupted", "run-smap",
		 "status,interrupted\ninterrupted_by,SIGINT\n");
	make_run("strange", "run-smap", "status,\"=HYPERLINK(\"\"x\"\")\"\n");
	return 0;
}

static void status_from_context(void **unused)
{
	struct run_dir old, complete, interrupted, strange;

	(void)unused;
	load("old", &old);
	load("complete", &complete);
	load("interrupted", &interrupted);
	load("strange", &strange);
	assert_null(rundir_incomplete(&old));	/* no key: whole */
	assert_null(rundir_incomplete(&complete));
	assert_str(rundir_incomplete(&interrupted), "interrupted", "status");
	/* a stranger's text is never echoed */
	assert_str(rundir_incomplete(&strange), "unknown", "other status");
	rundir_free(&old);
	rundir_free(&complete);
	rundir_free(&interrupted);
	rundir_free(&strange);
}

/* What compare_check_contexts() told its voice, last. */
static struct compare_context_check heard;
static int told;

static void hear(const char *who, const struct compare_context_check *check)
{
	(void)who;
	heard = *check;
	heard.diffs = NULL;	/* freed once told */
	told++;
}

static void compare_refuses_unless_forced(void **unused)
{
	const struct compare_plan_voice voice = { .context = hear };
	struct run_dir old, complete, interrupted;

	(void)unused;
	load("old", &old);
	load("complete", &complete);
	load("interrupted", &interrupted);
	assert_int(run_input_check_complete("compare", "B", &complete, 0), 0,
		   "a complete run passes");
	assert_int(run_input_check_complete("compare", "B", &interrupted, 0), 1,
		   "an interrupted run is refused");
	assert_int(run_input_check_complete("compare", "B", &interrupted, 1), 0,
		   "--force lets it through");
	/* where compare checks two runs, either side */
	assert_int(compare_check_contexts("compare", &old, &complete, 0, NULL), 0,
		   "two complete runs compare");
	assert_int(compare_check_contexts("compare", &old, &interrupted, 0, NULL), 1,
		   "B interrupted: refused");
	assert_int(compare_check_contexts("compare", &interrupted, &old, 0, NULL), 1,
		   "A interrupted: refused");
	assert_int(compare_check_contexts("compare", &old, &interrupted, 1, NULL), 0,
		   "with --force: compared");
	/* the voice hears what was decided, once a check */
	assert_int(compare_check_contexts("compare", &old, &interrupted, 0,
					  &voice), 1, "told: refused");
	assert_int(told, 1, "told once");
	assert_true(heard.a == &old && heard.b == &interrupted);
	assert_int(heard.incomplete, 1, "told: B incomplete");
	assert_int(heard.force, 0, "told: not forced");
	assert_int(compare_check_contexts("compare", &old, &interrupted, 1,
					  &voice), 0, "told: forced");
	assert_int(told, 2, "told again");
	assert_int(heard.incomplete, 0, "forced: let through");
	assert_int(heard.force, 1, "told: forced");
	rundir_free(&old);
	rundir_free(&complete);
	rundir_free(&interrupted);
}

static void table_leaves_it_out(void **unused)
{
	char complete[PATH_MAX], interrupted[PATH_MAX];
	char *paths[] = { complete, interrupted };
	struct table_options o = { 0 };
	struct table t;
	size_t found = 0;

	(void)unused;
	snprintf(complete, sizeof(complete), "%s/complete", unit_tmpdir);
	snprintf(interrupted, sizeof(interrupted), "%s/interrupted", unit_tmpdir);
	assert_int(table_build(paths, 2, &o, &t), 0, "table_build");
	for (size_t i = 0; i < t.left_out_count; i++) {
		if (strcmp(t.left_out[i].path, interrupted)) {
			fail_msg("left out %s: %s", t.left_out[i].path,
				 t.left_out[i].reason);
			continue;
		}
		found++;
		if (!strstr(t.left_out[i].reason, "not a complete run") ||
		    !strstr(t.left_out[i].reason, "interrupted"))
			fail_msg("reason: %s", t.left_out[i].reason);
	}
	assert_int(found, 1, "the interrupted run in left-out.csv");
	assert_int(t.row_count, 1, "the complete run makes the row");
	table_free(&t);
}

static void archive_checks_the_value(void **unused)
{
	struct run_dir interrupted, strange;
	char err[512] = "", dir[PATH_MAX];

	(void)unused;
	load("interrupted", &interrupted);
	load("strange", &strange);
	assert_int(run_check_context(&interrupted, err, sizeof(err)), 0,
		   "an interrupted run packs");
	assert_int(run_check_context(&strange, err, sizeof(err)), -1,
		   "a status no smapbench writes is refused");
	if (!strstr(err, "neither complete nor interrupted"))
		fail_msg("message: %s", err);
	snprintf(dir, sizeof(dir), "%s/interrupted", unit_tmpdir);
	assert_non_null(run_status_note(dir));
	snprintf(dir, sizeof(dir), "%s/complete", unit_tmpdir);
	assert_null(run_status_note(dir));
	rundir_free(&interrupted);
	rundir_free(&strange);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(status_from_context),
		cmocka_unit_test(compare_refuses_unless_forced),
		cmocka_unit_test(table_leaves_it_out),
		cmocka_unit_test(archive_checks_the_value),
	};

	return cmocka_run_group_tests(tests, setup, unit_remove_tmpdir);
}
