/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_json.h - compare.json: compare.csv's rows and verdicts for a
 * program to read, with the settings they were computed with, the runs
 * of each side and their SMAP states, and what B - A means
 * (the plan's pairing). docs/schema.md describes it.
 */
#ifndef SMAPBENCH_COMPARE_JSON_H
#define SMAPBENCH_COMPARE_JSON_H

#include <stdio.h>

#include "analysis/compare_plan.h"
#include "analysis/compare_stats.h"
#include "analysis/compare_write.h"

/* compare.json's "format": a reader checks it before anything else. */
#define COMPARE_JSON_FORMAT	"smapbench-compare-1"

/* The document into f; 0, or an errno value when a write failed. */
int compare_json_print(FILE *f, const struct compare_result *res,
		       const struct compare_settings *set,
		       const struct compare_words *words,
		       const struct compare_sides *sides);
/* dir/compare.json; 0, or -1 with errno set. */
int compare_json_write(const char *dir, const struct compare_result *res,
		       const struct compare_settings *set,
		       const struct compare_words *words,
		       const struct compare_sides *sides);

#endif /* SMAPBENCH_COMPARE_JSON_H */
