// SPDX-License-Identifier: GPL-2.0
/* phases_csv.c - the one reader of phases.csv; see phases_csv.h. */
#include "rundata/phases_csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/catalogue.h"
#include "rundata/csv.h"

static const char *const phase_names[PHASE_COUNT] = {
	[PHASE_START] = "start",	[PHASE_HANDOVER] = "handover",
	[PHASE_BOOT] = "boot",		[PHASE_CHECK] = "check",
	[PHASE_SETTLE] = "settle",	[PHASE_RUN] = "run",
	[PHASE_RECORD] = "record",	[PHASE_PLAN] = "plan",
	[PHASE_COMPARE] = "compare",
};

const char *series_phase_name(enum series_phase phase)
{
	return (unsigned)phase < PHASE_COUNT ? phase_names[phase] : NULL;
}

/* "end", or a boot number from 1 without a leading zero: 0, else -1. */
static int parse_step(const char *s, unsigned *step)
{
	unsigned long v = 0;

	if (!strcmp(s, "end")) {
		*step = PHASES_STEP_END;
		return 0;
	}
	if (*s < '1' || *s > '9')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > PHASES_STEP_MAX)
			return -1;
	}
	*step = (unsigned)v;
	return 0;
}

/* Whether phase is one the series writes on step. */
static int phase_fits(enum series_phase phase, unsigned step)
{
	switch (phase) {
	case PHASE_START:
		return step == 1;
	case PHASE_HANDOVER:
	case PHASE_BOOT:
		return step != 1;
	case PHASE_COMPARE:
		return step == PHASES_STEP_END;
	case PHASE_CHECK:
	case PHASE_SETTLE:
	case PHASE_RUN:
	case PHASE_RECORD:
	case PHASE_PLAN:
		return step != PHASES_STEP_END;
	case PHASE_COUNT:
		break;
	}
	return 0;
}

/* step order: boots in turn, the end last */
static unsigned long step_rank(unsigned step)
{
	return step == PHASES_STEP_END ? PHASES_STEP_MAX + 1UL : step;
}

int phases_csv_load(const char *path, struct phases_csv *p, char *err,
		    size_t errlen)
{
	struct csv_table t;
	unsigned seen = 0;	/* the phases of the step so far, a bit each */
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (csv_table_load(path, &t, err, errlen))
		return -1;
	for (size_t i = 0; i < file_phases.count; i++)
		if ((file_phases.columns[i].roles & COLUMN_REQUIRED) &&
		    csv_table_column(&t, file_phases.columns[i].name) < 0) {
			snprintf(err, errlen, "%s has no column %s: not the %s of a boot series (docs/schema.md)",
				 path, file_phases.columns[i].name, PHASES_FILE);
			goto out;
		}
	p->rows = calloc(t.count ? t.count : 1, sizeof(*p->rows));
	if (!p->rows) {
		snprintf(err, errlen, "out of memory reading %s", path);
		goto out;
	}
	for (size_t i = 0; i < t.count; i++) {
		struct phase_row *r = &p->rows[i];
		const char *step = csv_table_get(&t, i, "step");
		const char *phase = csv_table_get(&t, i, "phase");
		const char *clock = csv_table_get(&t, i, "clock");
		unsigned long line = csv_table_line(&t, i);
		unsigned k;

		if (parse_step(step, &r->step)) {
			snprintf(err, errlen, "%s:%lu: step '%.40s' is neither a boot from 1 to %d nor end",
				 path, line, step, PHASES_STEP_MAX);
			goto out;
		}
		for (k = 0; k < PHASE_COUNT && strcmp(phase, phase_names[k]); k++)
			;
		if (k == PHASE_COUNT) {
			snprintf(err, errlen, "%s:%lu: phase '%.40s' is none a series records (start, handover, boot, check, settle, run, record, plan, compare)",
				 path, line, phase);
			goto out;
		}
		r->phase = (enum series_phase)k;
		if (!phase_fits(r->phase, r->step)) {
			snprintf(err, errlen, "%s:%lu: a series records no %s phase on step %s",
				 path, line, phase, step);
			goto out;
		}
		r->started = csv_number(csv_table_get(&t, i, "started"));
		r->seconds = csv_number(csv_table_get(&t, i, "seconds"));
		if (!(r->started >= 0) || !isfinite(r->started) ||
		    !(r->seconds >= 0) || !isfinite(r->seconds)) {
			snprintf(err, errlen, "%s:%lu: started '%.40s' and seconds '%.40s' must be numbers of seconds, 0 or more",
				 path, line, csv_table_get(&t, i, "started"),
				 csv_table_get(&t, i, "seconds"));
			goto out;
		}
		if (!strcmp(clock, "uptime")) {
			r->clock = PHASE_CLOCK_UPTIME;
		} else if (!strcmp(clock, "wall")) {
			r->clock = PHASE_CLOCK_WALL;
		} else {
			snprintf(err, errlen, "%s:%lu: clock '%.40s' is neither uptime nor wall",
				 path, line, clock);
			goto out;
		}
		if (i && step_rank(r->step) < step_rank(p->rows[i - 1].step)) {
			snprintf(err, errlen, "%s:%lu: step %s after a later one: the series writes its steps in order",
				 path, line, step);
			goto out;
		}
		if (!i || r->step != p->rows[i - 1].step)
			seen = 0;
		if (seen & (1U << r->phase)) {
			snprintf(err, errlen, "%s:%lu: step %s has a second %s phase: a step runs once",
				 path, line, step, phase);
			goto out;
		}
		seen |= 1U << r->phase;
		p->count++;
	}
	rc = 0;
out:
	csv_table_free(&t);
	if (rc)
		phases_csv_free(p);
	return rc;
}

void phases_csv_free(struct phases_csv *p)
{
	free(p->rows);
	memset(p, 0, sizeof(*p));
}
