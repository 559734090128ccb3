/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_md.h - report.md for one run or a comparison of two.
 */
#ifndef SMAPBENCH_REPORT_MD_H
#define SMAPBENCH_REPORT_MD_H

#include <stddef.h>

#include "analysis/compare_controls.h"
#include "analysis/compare_stats.h"
#include "analysis/derived.h"
#include "analysis/pair_fit.h"

/*
 * Write dir/report.md (temp file + rename) for one run or a comparison
 * (res: the comparison of runs[0] and runs[1]); an existing report.md is
 * replaced only if smapbench wrote it. tables: the derived tables of the
 * SMAP run when already computed, else NULL. fit: the pair's cost from
 * the two boots, or NULL. controls: the comparison's negative controls,
 * or NULL. 0, or -1 with the reason in err.
 */
int report_write(const char *dir, const struct run_dir *const *runs,
		 size_t nruns, const struct compare_result *res,
		 const struct derived *tables, const struct pair_fit *fit,
		 const struct compare_controls *controls,
		 const struct compare_settings *set, char *err,
		 size_t errlen);
/*
 * `report RUN`: RUN/report.md, linking the plots RUN/plots/ has. Returns
 * the exit status, after saying what went wrong.
 */
int report_write_run(const char *who, const char *path);

#endif /* SMAPBENCH_REPORT_MD_H */
