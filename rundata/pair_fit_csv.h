/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pair_fit_csv.h - pair-fit.csv of a comparison directory (docs/schema.md,
 * "pair-fit.csv"): the pair's cost from two boots, beta with its interval,
 * and the SMAP run's machine it holds for. Its one reader, for the census
 * of a command and a series' report; its keys, and which a file must
 * have, are the catalogue's (rundata/catalogue.c, file_pair_fit). The
 * writer is analysis/pair_fit_file.c, where the fit is.
 */
#ifndef SMAPBENCH_PAIR_FIT_CSV_H
#define SMAPBENCH_PAIR_FIT_CSV_H

#include <stddef.h>

#include "rundata/csv.h"

#define PAIR_FIT_FILE "pair-fit.csv"
/*
 * Its format: 2 since beta is oriented by the runs' smap_state and the
 * rows are weighed by their own parts; a file of format 1 holds the
 * earlier fit, and is refused.
 */
#define PAIR_FIT_FORMAT "2"

/* What pair-fit.csv says. */
struct pair_fit_csv {
	double beta, low, high, df;
	double vif;		/* of base and windows; NAN: not recorded */
	double ghz;		/* the SMAP run's core clock; 0: none */
	char unit[8];		/* "cycles" or "ns" */
	struct csv_table keys;	/* every key, for the machine's identity */
};

/*
 * path into r: 0, or -1 with why in err (no such file, not key,value,
 * another format, a required key missing, beta's figures not numbers in
 * order).
 */
int pair_fit_csv_load(const char *path, struct pair_fit_csv *r, char *err,
		      size_t errlen);
/* A key's value, or "" when the file has none. */
const char *pair_fit_csv_get(const struct pair_fit_csv *r, const char *key);
void pair_fit_csv_free(struct pair_fit_csv *r);

#endif /* SMAPBENCH_PAIR_FIT_CSV_H */
