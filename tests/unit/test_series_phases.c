// SPDX-License-Identifier: GPL-2.0
/*
 * test_series_phases.c - phases.csv of a boot series (rundata/phases_csv.h)
 * and the plan's costs from it (analysis/series_plan_phases.h): a file
 * as the series writes it read row by row, the costs worked out by hand
 * from it, and every kind of row the series does not write refused with
 * its line.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/series_plan_phases.h"
#include "rundata/phases_csv.h"
#include "unit.h"

#define HEADER "step,phase,started,seconds,clock\n"

/*
 * A 3-boot series as scripts/boot-series.sh writes it: boot 1 after the
 * start, boots 2 and 3 after a reboot (boot 3's one wall-clock row: no
 * kernel start came between), a plan after boot 3, the end with its
 * return.
 */
#define SERIES								\
	HEADER								\
	"1,start,1000.00,4.00,wall\n"					\
	"1,check,1004.00,0.50,uptime\n"					\
	"1,settle,1004.50,2.50,uptime\n"				\
	"1,run,1007.00,30.00,uptime\n"					\
	"1,record,1037.00,1.00,uptime\n"				\
	"2,handover,1038.00,10.00,wall\n"				\
	"2,boot,1048.00,20.00,uptime\n"					\
	"2,check,1068.00,0.50,uptime\n"					\
	"2,settle,1068.50,3.50,uptime\n"				\
	"2,run,1072.00,40.00,uptime\n"					\
	"2,record,1112.00,1.00,uptime\n"				\
	"3,boot,1113.00,15.00,wall\n"					\
	"3,check,1128.00,1.00,uptime\n"					\
	"3,settle,1129.00,2.00,uptime\n"				\
	"3,run,1131.00,50.00,uptime\n"					\
	"3,record,1181.00,2.00,uptime\n"				\
	"3,plan,1183.00,5.00,uptime\n"					\
	"end,compare,1188.00,12.00,uptime\n"				\
	"end,handover,1200.00,8.00,wall\n"				\
	"end,boot,1208.00,22.00,uptime\n"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		fail_msg("cannot write %s", path);
}

/* text as a phases.csv: phases_csv_load()'s status */
static int load(const char *text, struct phases_csv *p, char *err,
		size_t errlen)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/phases.csv", unit_tmpdir);
	write_file(path, text);
	return phases_csv_load(path, p, err, errlen);
}

static void reads_a_series(void **unused)
{
	struct phases_csv p;
	char err[512];

	(void)unused;
	if (load(SERIES, &p, err, sizeof(err)))
		fail_msg("a series' phases.csv refused: %s", err);
	assert_int(p.count, 20, "rows");
	assert_int(p.rows[0].step, 1, "row 1's step");
	assert_int(p.rows[0].phase, PHASE_START, "row 1's phase");
	assert_int(p.rows[0].clock, PHASE_CLOCK_WALL, "row 1's clock");
	assert_near(p.rows[0].started, 1000, 0, "row 1's start");
	assert_int(p.rows[6].phase, PHASE_BOOT, "row 7's phase");
	assert_int(p.rows[6].clock, PHASE_CLOCK_UPTIME, "row 7's clock");
	assert_near(p.rows[6].seconds, 20, 0, "row 7's seconds");
	assert_int(p.rows[16].phase, PHASE_PLAN, "row 17's phase");
	assert_int(p.rows[17].step, PHASES_STEP_END, "row 18's step");
	assert_int(p.rows[17].phase, PHASE_COMPARE, "row 18's phase");
	assert_str(series_phase_name(PHASE_HANDOVER), "handover", "a phase's name");
	assert_true(series_phase_name(PHASE_COUNT) == NULL);
	phases_csv_free(&p);
	/* a series that has not begun a step yet: a header alone */
	if (load(HEADER, &p, err, sizeof(err)))
		fail_msg("a header alone refused: %s", err);
	assert_int(p.count, 0, "rows of a header alone");
	phases_csv_free(&p);
}

static void costs_of_a_series(void **unused)
{
	struct series_measured_costs m;
	struct phases_csv p;
	char err[512];

	(void)unused;
	if (load(SERIES, &p, err, sizeof(err)))
		fail_msg("%s", err);
	/* runs of 3.5 s of timed samples a run */
	series_costs_from_phases(&p, 3.5, &m);
	/* (4 + 0.5 + 2.5) + (10 + 20 + 0.5 + 3.5) + (15 + 1 + 2), over 3 */
	assert_near(m.boot, 59.0 / 3, 1e-12, "c_boot");
	assert_int(m.boots, 3, "boots");
	assert_int(m.reboots, 2, "boots after a reboot");
	/* (30 + 1) + (40 + 1) + (50 + 2), over 3, less 3.5 */
	assert_near(m.run, 124.0 / 3, 1e-12, "mean run and record");
	assert_int(m.runs, 3, "runs");
	assert_near(m.invocation, 124.0 / 3 - 3.5, 1e-12, "c_inv");
	assert_false(m.timed_exceeds);
	/* 12 + 8 + 22: the plan's 5 s is in no cost */
	assert_near(m.series, 42, 1e-12, "c_series");
	assert_true(m.returned);

	/* runs whose timed part is more than phases.csv's runs: none */
	series_costs_from_phases(&p, 50, &m);
	assert_true(isnan(m.invocation));
	assert_true(m.timed_exceeds);
	assert_near(m.boot, 59.0 / 3, 1e-12, "c_boot, whatever the runs");
	/* runs without timed samples: none, and not for that reason */
	series_costs_from_phases(&p, NAN, &m);
	assert_true(isnan(m.invocation));
	assert_false(m.timed_exceeds);
	phases_csv_free(&p);

	/* the end without its return yet; a step that stopped before its run */
	if (load(HEADER
		 "1,start,1000,4,wall\n"
		 "1,check,1004,1,uptime\n"
		 "1,settle,1005,3,uptime\n"
		 "1,run,1008,20,uptime\n"
		 "1,record,1028,1,uptime\n"
		 "2,handover,1029,10,wall\n"
		 "2,boot,1039,20,uptime\n"
		 "end,compare,1059,9,uptime\n", &p, err, sizeof(err)))
		fail_msg("%s", err);
	series_costs_from_phases(&p, 1, &m);
	assert_near(m.boot, 8, 1e-12, "c_boot of the one boot that got to its run");
	assert_int(m.boots, 1, "boots");
	assert_int(m.reboots, 0, "boots after a reboot");
	assert_near(m.invocation, 20, 1e-12, "c_inv");
	assert_near(m.series, 9, 1e-12, "c_series, the comparisons alone");
	assert_false(m.returned);
	phases_csv_free(&p);

	/* nothing measured: every cost NAN */
	if (load(HEADER, &p, err, sizeof(err)))
		fail_msg("%s", err);
	series_costs_from_phases(&p, 1, &m);
	assert_true(isnan(m.boot) && isnan(m.run) && isnan(m.invocation) &&
		    isnan(m.series));
	assert_int(m.boots + m.runs, 0, "boots and runs of a header alone");
	phases_csv_free(&p);
}

static void refuses_what_a_series_does_not_write(void **unused)
{
	static const struct {
		const char *text, *says;
	} cases[] = {
		{ "", "phases.csv:" },
		{ "step,phase,started,seconds\n1,start,1,1\n", "has no column clock" },
		{ HEADER "1,start,1,1\n", "phases.csv:2:" },
		{ HEADER "0,check,1,1,uptime\n", ":2: step '0' is neither" },
		{ HEADER "01,check,1,1,uptime\n", ":2: step '01' is neither" },
		{ HEADER "1001,check,1,1,uptime\n", ":2: step '1001' is neither" },
		{ HEADER "-1,check,1,1,uptime\n", ":2: step '-1' is neither" },
		{ HEADER "ends,compare,1,1,uptime\n", ":2: step 'ends' is neither" },
		{ HEADER "1,reboot,1,1,wall\n", ":2: phase 'reboot' is none" },
		{ HEADER "1,,1,1,wall\n", ":2: phase '' is none" },
		{ HEADER "2,start,1,1,wall\n", ":2: a series records no start phase on step 2" },
		{ HEADER "1,handover,1,1,wall\n", ":2: a series records no handover phase on step 1" },
		{ HEADER "3,compare,1,1,uptime\n", ":2: a series records no compare phase on step 3" },
		{ HEADER "end,run,1,1,uptime\n", ":2: a series records no run phase on step end" },
		{ HEADER "1,check,1,-0.5,uptime\n", ":2: started '1' and seconds '-0.5'" },
		{ HEADER "1,check,-1,1,uptime\n", ":2: started '-1'" },
		{ HEADER "1,check,1,nan,uptime\n", ":2: started '1' and seconds 'nan'" },
		{ HEADER "1,check,1,inf,uptime\n", ":2: started '1' and seconds 'inf'" },
		{ HEADER "1,check,1,1e999,uptime\n", ":2: started '1' and seconds '1e999'" },
		{ HEADER "1,check,x,1,uptime\n", ":2: started 'x'" },
		{ HEADER "1,check,1,,uptime\n", ":2: started '1' and seconds ''" },
		{ HEADER "1,check,1,1,tsc\n", ":2: clock 'tsc' is neither" },
		{ HEADER "2,check,1,1,uptime\n1,check,1,1,uptime\n",
		  ":3: step 1 after a later one" },
		{ HEADER "end,compare,1,1,uptime\n1,check,1,1,uptime\n",
		  ":3: step 1 after a later one" },
		{ HEADER "1,check,1,1,uptime\n1,run,1,1,uptime\n1,check,2,1,uptime\n",
		  ":4: step 1 has a second check phase" },
	};
	struct phases_csv p;
	char err[512];

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (!load(cases[i].text, &p, err, sizeof(err)))
			fail_msg("case %zu taken: %s", i, cases[i].text);
		if (!strstr(err, cases[i].says))
			fail_msg("case %zu: expected \"%s\" in \"%s\"", i,
				 cases[i].says, err);
		assert_int(p.count, 0, "rows of a refused file");
		assert_true(p.rows == NULL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_a_series),
		cmocka_unit_test(costs_of_a_series),
		cmocka_unit_test(refuses_what_a_series_does_not_write),
	};

	return cmocka_run_group_tests(tests, unit_make_tmpdir, unit_remove_tmpdir);
}
