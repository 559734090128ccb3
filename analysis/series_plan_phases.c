// SPDX-License-Identifier: GPL-2.0
/* series_plan_phases.c - a plan's costs from phases.csv; see the header. */
#include "analysis/series_plan_phases.h"

#include <math.h>
#include <string.h>

void series_costs_from_phases(const struct phases_csv *p,
			      double timed_run_seconds,
			      struct series_measured_costs *m)
{
	double before = 0, run = 0, end = 0;
	/* the step in hand: what came before its run, whether it had each */
	double step_before = 0;
	int step_checked = 0, step_settled = 0, step_rebooted = 0, has_end = 0;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i <= p->count; i++) {
		const struct phase_row *r = i < p->count ? &p->rows[i] : NULL;

		/* a step ends: count it when it got as far as its run's start */
		if (i && (!r || r->step != p->rows[i - 1].step)) {
			if (step_checked && step_settled) {
				before += step_before;
				m->boots++;
				m->reboots += (size_t)step_rebooted;
			}
			step_before = 0;
			step_checked = step_settled = step_rebooted = 0;
		}
		if (!r)
			break;
		if (r->step == PHASES_STEP_END) {
			/* the return's handover and boot, the comparisons */
			if (r->phase != PHASE_PLAN) {
				end += r->seconds;
				has_end |= r->phase == PHASE_COMPARE;
				m->returned |= r->phase == PHASE_HANDOVER ||
					       r->phase == PHASE_BOOT;
			}
			continue;
		}
		switch (r->phase) {
		case PHASE_HANDOVER:
		case PHASE_BOOT:
			step_rebooted = 1;
			/* fallthrough */
		case PHASE_START:
			step_before += r->seconds;
			break;
		case PHASE_CHECK:
			step_before += r->seconds;
			step_checked = 1;
			break;
		case PHASE_SETTLE:
			step_before += r->seconds;
			step_settled = 1;
			break;
		case PHASE_RUN:
			m->runs++;
			/* fallthrough */
		case PHASE_RECORD:
			run += r->seconds;
			break;
		case PHASE_PLAN:
		case PHASE_COMPARE:
		case PHASE_COUNT:
			break;
		}
	}
	m->boot = m->boots ? before / (double)m->boots : NAN;
	m->run = m->runs ? run / (double)m->runs : NAN;
	m->invocation = NAN;
	if (m->runs && isfinite(timed_run_seconds) && timed_run_seconds >= 0) {
		if (m->run >= timed_run_seconds)
			m->invocation = m->run - timed_run_seconds;
		else
			m->timed_exceeds = 1;
	}
	m->series = has_end ? end : NAN;
}
