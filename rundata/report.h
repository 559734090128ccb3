/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - writing results: console table, CSV files, Google
 * Benchmark JSON. Column meanings are in docs/schema.md.
 */
#ifndef SMAPBENCH_REPORT_H
#define SMAPBENCH_REPORT_H

#include <stdio.h>

#include "measure/context.h"
#include "measure/runner.h"

struct report {
	const struct run_results *results;
	const struct context *context;
	/* ';'-separated flags every row carries (e.g. "tcg;unpinned"). */
	const char *run_flags;
	const char *executable;
	unsigned repetitions;
};

/* Aligned table with human units; skipped benchmarks grouped by reason. */
int report_console(FILE *f, const struct report *r);
/* docs/schema.md files; 0 or an errno value. */
int report_results_csv(FILE *f, const struct report *r);
int report_samples_csv(FILE *f, const struct report *r);
int report_context_csv(FILE *f, const struct report *r);
/* context.csv of any context: a row key,value per entry, in its order. */
int report_context_pairs_csv(FILE *f, const struct context *c);
int report_skipped_csv(FILE *f, const struct report *r);
/* Google Benchmark's JSON (context + benchmarks), with our extra fields. */
int report_json(FILE *f, const struct report *r);

/* The flags column of one result: its own flags plus the run's. */
void report_row_flags(const struct report *r, const struct result *res,
		      char *buf, size_t len);

#endif /* SMAPBENCH_REPORT_H */
