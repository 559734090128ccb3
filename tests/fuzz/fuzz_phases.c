// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_phases.c - libFuzzer target: phases_csv_load() on any bytes, then
 * the plan's costs from what it took. What it takes must be what the
 * reader promises (steps in order, each phase once a step and on a step
 * the series records it on, times finite and not below 0), and the
 * costs made of them finite, not below 0, or NAN where nothing gave one.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/series_plan_phases.h"
#include "rundata/phases_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cost_ok(double c)
{
	return isnan(c) || (isfinite(c) && c >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[512];
	struct phases_csv p;
	struct series_measured_costs m;
	int fd = memfd_create("fuzz_phases", 0), rc;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err[0] = '\0';
	rc = phases_csv_load(path, &p, err, sizeof(err));
	close(fd);
	if (rc) {
		/* refused: said, and nothing kept */
		if (!err[0] || p.rows || p.count)
			abort();
		return 0;
	}
	for (size_t i = 0; i < p.count; i++) {
		const struct phase_row *r = &p.rows[i];

		if (!series_phase_name(r->phase) || r->step > PHASES_STEP_MAX ||
		    !isfinite(r->started) || r->started < 0 ||
		    !isfinite(r->seconds) || r->seconds < 0 ||
		    (r->clock != PHASE_CLOCK_UPTIME && r->clock != PHASE_CLOCK_WALL))
			abort();
		if ((r->phase == PHASE_START && r->step != 1) ||
		    (r->phase == PHASE_COMPARE && r->step != PHASES_STEP_END) ||
		    (i && p.rows[i - 1].step != PHASES_STEP_END &&
		     r->step != PHASES_STEP_END && r->step < p.rows[i - 1].step) ||
		    (i && p.rows[i - 1].step == PHASES_STEP_END &&
		     r->step != PHASES_STEP_END))
			abort();
		for (size_t j = i + 1; j < p.count && p.rows[j].step == r->step; j++)
			if (p.rows[j].phase == r->phase)
				abort();
	}
	series_costs_from_phases(&p, (double)(size % 7), &m);
	if (!cost_ok(m.boot) || !cost_ok(m.run) || !cost_ok(m.invocation) ||
	    !cost_ok(m.series) || m.reboots > m.boots || m.boots > p.count ||
	    m.runs > p.count || (m.boots && isnan(m.boot)) ||
	    (m.runs && isnan(m.run)))
		abort();
	phases_csv_free(&p);
	return 0;
}
