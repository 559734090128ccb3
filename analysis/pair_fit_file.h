/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pair_fit_file.h - pair-fit.csv of a comparison directory: the pair's
 * cost from the two boots (analysis/pair_fit.h), beta with its interval,
 * and the SMAP run's machine it holds for, so that what reads it (the
 * census of a command, a series' report) needs neither the runs nor the
 * census again. Written only when beta was fitted; docs/schema.md.
 */
#ifndef SMAPBENCH_PAIR_FIT_FILE_H
#define SMAPBENCH_PAIR_FIT_FILE_H

#include <stddef.h>

#include "analysis/pair_fit.h"
#include "rundata/csv.h"
#include "rundata/rundir.h"

#define PAIR_FIT_FILE "pair-fit.csv"

/*
 * Write dir/pair-fit.csv for fit (fitted), smap being the SMAP run it
 * was fitted on. 0, or -1 with errno.
 */
int pair_fit_file_write(const char *dir, const struct pair_fit *fit,
			const struct run_dir *smap);

/* What pair-fit.csv says. */
struct pair_fit_record {
	double beta, low, high, df;
	double ghz;		/* the SMAP run's core clock; 0: none */
	char unit[8];		/* "cycles" or "ns" */
	struct csv_table keys;	/* every key, for the machine's identity */
};

/* Read path: 0, or -1 with why in err. */
int pair_fit_file_read(const char *path, struct pair_fit_record *r,
		       char *err, size_t errlen);
/* A key's value, or "" when the file has none. */
const char *pair_fit_record_get(const struct pair_fit_record *r,
				const char *key);
void pair_fit_record_free(struct pair_fit_record *r);

#endif /* SMAPBENCH_PAIR_FIT_FILE_H */
