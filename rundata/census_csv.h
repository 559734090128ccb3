/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_csv.h - census.csv of the benchmarks (docs/schema.md, "The
 * census directory"): its one reader, for the census itself, the
 * cross-machine table and the pair's fit. Its columns, and which a file
 * must have, are the catalogue's (rundata/catalogue.c).
 */
#ifndef SMAPBENCH_CENSUS_CSV_H
#define SMAPBENCH_CENSUS_CSV_H

#include <stddef.h>
#include <stdint.h>

/* The counts of one interval or scope. */
struct census_csv_counts {
	uint64_t stac, clac, entry_clac, popf;
};

/* One row: a benchmark in one boot (kernel and SMAP state). */
struct census_csv_row {
	char *kernel, *state;		/* the boot: release; smap, clearcpuid, cpu-off */
	char *name, *suite, *op, *variant;
	unsigned long size, batch;
	uint64_t ops;			/* 0 in a row without counts (skipped) */
	struct census_csv_counts total;
	uint64_t kinsn;
	double stac_per_op;		/* NAN in a row without counts */
	int has_loop;			/* kmod: the loop's columns are filled */
	uint64_t loop_calls;
	struct census_csv_counts loop;
	char *status;			/* "ok", "skipped: why", "failed: why" */
};

struct census_csv {
	struct census_csv_row *rows;
	size_t count;
};

/*
 * path into c: 0, or -1 with err ("PATH has no column C", "PATH:LINE: C
 * 'x' is not a count"). A census of a command (census -- COMMAND) has a
 * census.csv of other columns: refused, so a caller that looks for one of
 * the benchmarks can pass it over.
 */
int census_csv_load(const char *path, struct census_csv *c, char *err,
		    size_t errlen);
void census_csv_free(struct census_csv *c);
/* Whether row is a measured row of a SMAP boot (status ok, counts there). */
int census_csv_smap_row(const struct census_csv_row *row);

#endif /* SMAPBENCH_CENSUS_CSV_H */
