// SPDX-License-Identifier: GPL-2.0
/*
 * rundir_csv.c - a run directory's CSV files into the in-memory run:
 * results.csv, samples.csv and context.csv (docs/schema.md).
 */
#include "rundata/rundir_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/csv.h"
#include "rundata/rundir.h"


int rundir_read_context(FILE *f, const char *name, struct run_dir *run,
			char *err, size_t errlen)
{
	struct csv_row row = { 0 };
	unsigned long line = 0, start = 1, *lines = NULL;
	size_t cap = 0, lines_cap = 0, first, again;
	int got, repeat, rc = -1;

	got = csv_read_row(f, &row, &line);
	if (got <= 0 || row.count != 2 || strcmp(row.fields[0], "key") ||
	    strcmp(row.fields[1], "value")) {
		snprintf(err, errlen, "%s: does not start with the header key,value",
			 name);
		goto out;
	}
	/* a record's first line, for messages (a value may span lines) */
	while ((start = line + 1, got = csv_read_row(f, &row, &line)) > 0) {
		unsigned long *more;

		if (row.count != 2) {
			snprintf(err, errlen, "%s:%lu: not key,value", name, start);
			goto out;
		}
		if (rundir_add_context(run, &cap, row.fields[0], row.fields[1]))
			goto oom;
		if (lines_cap < cap) {	/* grows with the keys, by doubling */
			more = realloc(lines, cap * sizeof(*lines));
			if (!more)
				goto oom;
			lines = more;
			lines_cap = cap;
		}
		lines[run->context_count - 1] = start;
	}
	if (got < 0) {
		snprintf(err, errlen, "%s:%lu: %s", name, start, got == -2 ?
			 "a record longer than " CSV_ROW_MAX_TEXT : "malformed CSV");
		goto out;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s", name);
		goto out;
	}
	/* a key twice could hide a mismatch from compare's check */
	repeat = rundir_find_repeat((const char *const *)run->keys,
				    run->context_count, &first, &again);
	if (repeat == -2)
		goto oom;
	if (repeat == 0) {
		snprintf(err, errlen, "%s:%lu: key %.40s appears twice (first on "
			 "line %lu)", name, lines[again], run->keys[again],
			 lines[first]);
		goto out;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory reading %s", name);
out:
	free(lines);
	csv_row_free(&row);
	return rc;
}

int rundir_load_context_csv(struct run_dir *run, const char *dir, char *err,
			    size_t errlen)
{
	char *path = rundir_join_path(dir, "context.csv");
	FILE *f;
	int rc;

	if (!path)
		return -1;
	if (!rundir_is_file(path)) { /* compare says what it could not check */
		free(path);
		return 0;
	}
	run->has_context_file = 1;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	rc = rundir_read_context(f, path, run, err, errlen);
	fclose(f);
	free(path);
	return rc;
}

int rundir_load_results_csv(struct run_dir *run, const char *path,
			    char *err, size_t errlen)
{
	struct csv_table t;
	size_t cap = 0;
	int rc = -1;

	if (csv_table_load(path, &t, err, errlen))
		return -1;
	if (csv_table_column(&t, "name") < 0 ||
	    csv_table_column(&t, "median") < 0) {
		snprintf(err, errlen, "%s: needs at least columns name,median",
			 path);
		goto out;
	}
	for (size_t i = 0; i < t.count; i++) {
		struct run_bench *b = rundir_add_bench(run, &cap);
		const char *suite = csv_table_get(&t, i, "suite");
		const char *name = csv_table_get(&t, i, "name");
		const char *median = csv_table_get(&t, i, "median");
		const char *why = rundir_name_problem(name);
		const char *column, *value;

		if (!b)
			goto oom;
		if (why) {
			snprintf(err, errlen, "%s:%lu: the benchmark name %s", path,
				 csv_table_line(&t, i), why);
			goto out;
		}
		b->line = csv_table_line(&t, i);
		b->name = strdup(name);
		if (!b->name)
			goto oom;
		if (suite && csv_table_get(&t, i, "op")) {
			b->suite = strdup(suite);
			b->op = rundir_dup_or_empty(csv_table_get(&t, i, "op"));
			b->variant = rundir_dup_or_empty(csv_table_get(&t, i, "variant"));
			b->size = rundir_parse_ulong(csv_table_get(&t, i, "size"));
			b->batch = rundir_parse_ulong(csv_table_get(&t, i, "batch"));
			if (!b->suite || !b->op || !b->variant)
				goto oom;
		} else if (rundir_split_name(b)) {
			goto oom;
		}
		b->unit = rundir_dup_or_empty(csv_table_get(&t, i, "unit"));
		b->counter = rundir_dup_or_empty(csv_table_get(&t, i, "counter"));
		b->flags = rundir_dup_or_empty(csv_table_get(&t, i, "flags"));
		if (!b->unit || !b->counter || !b->flags)
			goto oom;
		if ((why = rundir_columns_problem(b, &column, &value))) {
			snprintf(err, errlen, "%s:%lu: %s: the %s '%.40s%s' %s",
				 path, csv_table_line(&t, i), b->name, column, value,
				 strlen(value) > 40 ? "..." : "", why);
			goto out;
		}
		b->median = csv_number(median);
		why = rundir_timing_problem(median, b->median, rundir_is_difference(b));
		if (why) {
			snprintf(err, errlen, "%s:%lu: %s: median '%s' %s (" TIMING_RULE ")",
				 path, csv_table_line(&t, i), b->name, median, why);
			goto out;
		}
		b->min = csv_number(csv_table_get(&t, i, "min"));
		b->mean = csv_number(csv_table_get(&t, i, "mean"));
		b->stddev = csv_number(csv_table_get(&t, i, "stddev"));
		b->cv = csv_number(csv_table_get(&t, i, "cv"));
		b->p5 = csv_number(csv_table_get(&t, i, "p5"));
		b->p95 = csv_number(csv_table_get(&t, i, "p95"));
		/* schema 1's ci_low, ci_high were of the pooled median: not kept */
		b->center = csv_table_get(&t, i, "center") ?
			    csv_number(csv_table_get(&t, i, "center")) : b->median;
		b->ci_low = b->ci_high = NAN;
		if (csv_table_get(&t, i, "center")) {
			b->ci_low = csv_number(csv_table_get(&t, i, "ci_low"));
			b->ci_high = csv_number(csv_table_get(&t, i, "ci_high"));
		}
		b->median_ns = csv_number(csv_table_get(&t, i, "median_ns"));
		b->iterations = rundir_parse_ulong(csv_table_get(&t, i, "iterations"));
		b->samples = rundir_parse_ulong(csv_table_get(&t, i, "samples"));
		b->source = RUN_VALUES_NONE;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory reading %s", path);
out:
	csv_table_free(&t);
	return rc;
}

static int header_column(const struct csv_row *header, const char *name)
{
	for (unsigned i = 0; i < header->count; i++)
		if (!strcmp(header->fields[i], name))
			return (int)i;
	return -1;
}

/* Streamed, one record at a time: a samples.csv may hold millions. */
int rundir_load_samples_csv(struct run_dir *run, const char *path,
			    char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct csv_row row = { 0 };
	unsigned long line = 0, start;
	unsigned columns;
	size_t *cap = NULL;
	int nc, vc, rc_col, rc = -1, got;
	struct run_bench *last = NULL;

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	got = csv_read_row(f, &row, &line);
	if (got <= 0) {
		snprintf(err, errlen, "%s: %s", path, got == -2 ?
			 "a header row longer than " CSV_ROW_MAX_TEXT : got ?
			 "malformed header row" : "empty file, no header");
		goto out;
	}
	columns = row.count;
	nc = header_column(&row, "name");
	vc = header_column(&row, "value");
	/* without it (an old file) every sample counts as repetition 0 */
	rc_col = header_column(&row, "repetition");
	if (nc < 0 || vc < 0) {
		snprintf(err, errlen, "%s: needs columns name,value", path);
		goto out;
	}
	cap = calloc(run->count ? run->count : 1, sizeof(*cap));
	if (!cap)
		goto oom;
	for (;;) {
		const char *name, *text, *why;
		struct run_bench *b;
		uint32_t rep = 0;
		double v;

		start = line + 1;
		got = csv_read_row(f, &row, &line);
		if (!got)
			break;
		if (got < 0 || row.count != columns) {
			snprintf(err, errlen, got == -2 ? "%s:%lu: a record longer "
				 "than " CSV_ROW_MAX_TEXT : got < 0 ?
				 "%s:%lu: malformed record" :
				 "%s:%lu: wrong number of fields", path, start);
			goto out;
		}
		name = row.fields[nc];
		text = row.fields[vc];
		/* Samples come grouped by name: look up only on a change. */
		b = last && !strcmp(last->name, name) ? last : rundir_find(run, name);
		last = b;
		if (!b) {	/* not in results.csv: nothing to attach to */
			run->orphan_samples++;
			continue;
		}
		v = csv_number(text);
		why = rundir_timing_problem(text, v, rundir_is_difference(b));
		if (why) {
			snprintf(err, errlen, "%s:%lu: %s: value '%s' %s (" TIMING_RULE ")",
				 path, start, b->name, text, why);
			goto out;
		}
		if (rc_col >= 0 && rundir_parse_repetition(row.fields[rc_col], &rep)) {
			snprintf(err, errlen, "%s:%lu: %s: repetition '%s' is not "
				 "an integer in [0, %lu]", path, start, b->name,
				 row.fields[rc_col], RUNDIR_MAX_REPETITION);
			goto out;
		}
		if (rundir_push_value(b, &cap[b - run->bench], v, rep))
			goto oom;
		b->source = RUN_VALUES_SAMPLES;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s", path);
		goto out;
	}
	rundir_trim_values(run);
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory reading %s", path);
out:
	free(cap);
	csv_row_free(&row);
	fclose(f);
	return rc;
}

