/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pair_fit_file.h - writing pair-fit.csv of a comparison directory: the
 * pair's cost from the two boots (analysis/pair_fit.h), so that what
 * reads it (the census of a command, a series' report) needs neither the
 * runs nor the census again. Written only when beta was fitted; its keys
 * are the catalogue's (rundata/catalogue.c), its reader
 * rundata/pair_fit_csv.h; docs/schema.md.
 */
#ifndef SMAPBENCH_PAIR_FIT_FILE_H
#define SMAPBENCH_PAIR_FIT_FILE_H

#include "analysis/pair_fit.h"
#include "rundata/pair_fit_csv.h"
#include "rundata/rundir.h"

/*
 * Write dir/pair-fit.csv for fit (fitted), smap being the SMAP run it
 * was fitted on (side B, or A when fit->reversed). 0, or -1 with errno.
 */
int pair_fit_file_write(const char *dir, const struct pair_fit *fit,
			const struct run_dir *smap);

#endif /* SMAPBENCH_PAIR_FIT_FILE_H */
