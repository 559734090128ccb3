/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_md.h - report.md for one run or a comparison of two.
 */
#ifndef SMAPBENCH_REPORT_MD_H
#define SMAPBENCH_REPORT_MD_H

#include <stddef.h>

#include "analysis/compare_controls.h"
#include "analysis/compare_stats.h"
#include "analysis/compare_write.h"
#include "analysis/derived.h"
#include "analysis/pair_fit.h"

/*
 * A comparison's part of report.md, as compare computed and decided it
 * (analysis/compare_output.c): the rows, their settings and words, the
 * derived tables of the SMAP run (NULL: it has none), the pair's cost from the
 * two boots (NULL: none), the negative controls (NULL: none), what B - A
 * means, and why A and B are one run (NULL: they are not).
 */
struct report_comparison {
	const struct compare_result *res;
	const struct compare_settings *set;
	const struct compare_words *words;
	const struct derived *tables;
	const struct pair_fit *fit;
	const struct compare_controls *controls;
	const char *pairing;
	const char *same;
};

/*
 * Write dir/report.md (temp file + rename) for one run (cmp NULL) or a
 * comparison of runs[0] and runs[1]; an existing report.md is replaced
 * only if smapbench wrote it. 0, or -1 with the reason in err.
 */
int report_write(const char *dir, const struct run_dir *const *runs,
		 size_t nruns, const struct report_comparison *cmp, char *err,
		 size_t errlen);
/*
 * `report RUN`: RUN/report.md, linking the plots RUN/plots/ has. Returns
 * the exit status, after saying what went wrong.
 */
int report_write_run(const char *who, const char *path);

#endif /* SMAPBENCH_REPORT_MD_H */
