/* SPDX-License-Identifier: GPL-2.0 */
/*
 * phases_csv.h - phases.csv of a boot series' directory (docs/schema.md,
 * "phases.csv"; written by scripts/boot-series.sh): how long each phase
 * of each step took, a row a phase, in the order they ran. Its one
 * reader, for `smapbench plan --phases`, which takes a series' costs
 * from it. The file is outside input: a row that is not what the series
 * writes is refused, with its line. Its columns are the catalogue's
 * (rundata/catalogue.c, file_phases).
 */
#ifndef SMAPBENCH_PHASES_CSV_H
#define SMAPBENCH_PHASES_CSV_H

#include <stddef.h>

#define PHASES_FILE "phases.csv"
/* A series has 64 boots at most (run-bench.sh --boots); room beyond. */
#define PHASES_STEP_MAX 1000
/* The step "end": what follows the last run. */
#define PHASES_STEP_END 0

/* A phase, in the order a step has them. */
enum series_phase {
	PHASE_START,		/* boot 1: the series' start */
	PHASE_HANDOVER,		/* a reboot: the kexec, services stopping */
	PHASE_BOOT,		/* a reboot: the kernel up to the step */
	PHASE_CHECK,		/* the boot's SMAP state */
	PHASE_SETTLE,		/* waiting for the system to be quiet */
	PHASE_RUN,		/* the boot's run */
	PHASE_RECORD,		/* boots.csv */
	PHASE_PLAN,		/* smapbench plan after a boot */
	PHASE_COMPARE,		/* end: comparisons and report.md */
	PHASE_COUNT
};

enum phase_clock {
	PHASE_CLOCK_UPTIME,	/* /proc/uptime within one boot */
	PHASE_CLOCK_WALL,	/* the wall clock, across a reboot */
};

struct phase_row {
	unsigned step;		/* 1 to PHASES_STEP_MAX, or PHASES_STEP_END */
	enum series_phase phase;
	double started;		/* wall clock, s since 1970 */
	double seconds;		/* >= 0 */
	enum phase_clock clock;
};

struct phases_csv {
	struct phase_row *rows;
	size_t count;
};

/* "start", ..., "compare"; NULL for PHASE_COUNT and beyond. */
const char *series_phase_name(enum series_phase phase);
/*
 * path into p: 0, or -1 with why in err ("FILE:LINE: what"): not CSV, a
 * column missing, a step that is neither a boot number nor "end", a
 * phase the series does not write or not on that step (start on boot 1,
 * compare on the end, the reboot's on boot 2 and after or the end), a
 * time or duration not a finite number >= 0, a clock neither "uptime"
 * nor "wall", steps out of order, a phase twice in one step.
 */
int phases_csv_load(const char *path, struct phases_csv *p, char *err,
		    size_t errlen);
void phases_csv_free(struct phases_csv *p);

#endif /* SMAPBENCH_PHASES_CSV_H */
