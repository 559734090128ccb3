/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_write.h - what a comparison of two runs (analysis/compare_stats.h)
 * prints and writes: the table of every pair, for a console or
 * Markdown; compare.csv (docs/schema.md); compare-settings.csv; the
 * warning for a run compared with itself.
 */
#ifndef SMAPBENCH_COMPARE_WRITE_H
#define SMAPBENCH_COMPARE_WRITE_H

#include <stdio.h>

#include "analysis/compare_controls.h"
#include "analysis/compare_stats.h"

/*
 * Every row, the notes on how the rows were computed, the verdicts'
 * tally, and the negative controls (NULL: none computed).
 */
void compare_print(FILE *f, const struct compare_result *res,
		   const struct compare_settings *set,
		   const struct compare_words *words,
		   const struct compare_controls *controls, int markdown);
/* dir/compare.csv; 0, or -1 with errno set. */
int compare_csv_write(const char *dir, const struct compare_result *res,
		      const struct compare_settings *set,
		      const struct compare_words *words);
/* "runs", "calibration", "assumed" or "none": where the boot variance came from. */
const char *compare_boot_source_name(const struct compare_settings *set);
/*
 * Where the rows' boot variance came from ("uncalibrated: boot variance
 * assumed 2% ...", "boot variance per row from calibration FILE: ..."),
 * without a newline.
 */
void compare_boot_sentence(FILE *f, const struct compare_settings *set);
/*
 * Whether the calibration holds for the runs compared, and what was done
 * where it does not (analysis/compare_dispersion.h), as ". The
 * calibration ..." without the final stop; part of compare_boot_sentence()
 * for a calibration.
 */
void compare_dispersion_sentence(FILE *f, const struct compare_settings *set);
/*
 * Why the verdicts are withheld and what would give them, a line; nothing
 * when they are not.
 */
void compare_withheld_sentence(FILE *f, const struct compare_settings *set);
/*
 * dir/compare-settings.csv: key,value rows saying how compare.csv was
 * computed (method, seed, resamples, alpha, margin, ...); 0, or -1 with
 * errno set.
 */
int compare_settings_write(const char *dir, const struct compare_settings *set);
/* The same settings as a Markdown list (report.md). */
void compare_settings_print(FILE *f, const struct compare_settings *set);
/* "N rows had a p-value; at FDR A, M survived ..." */
void compare_fdr_sentence(FILE *f, const struct compare_result *res,
			  const struct compare_settings *set);
#endif /* SMAPBENCH_COMPARE_WRITE_H */
