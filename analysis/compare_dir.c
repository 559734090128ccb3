// SPDX-License-Identifier: GPL-2.0
/*
 * compare_dir.c - two runs compared and written out, in three stages:
 * the plan (compare_plan.c), the numbers (compare_compute.c) and what
 * they say and write (compare_output.c); see compare_dir.h.
 */
#include "analysis/compare_dir.h"

#include "analysis/compare_compute.h"
#include "analysis/compare_output.h"
#include "rundata/atomic_dir.h"

int compare_dir_write(const struct compare_request *req)
{
	struct compare_plan plan;
	struct compare_outcome out = { 0 };
	int rc;

	atomic_dir_cleanup_on_signals();
	rc = compare_plan_build(req, &compare_console_voice, &plan);
	if (!rc)
		rc = compare_compute(&plan, &out);
	if (!rc)
		rc = compare_output_write(&plan, &out);
	compare_outcome_free(&out);
	compare_plan_free(&plan);
	return rc;
}
