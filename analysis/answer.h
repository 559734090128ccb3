/* SPDX-License-Identifier: GPL-2.0 */
/*
 * answer.h - what one run says about SMAP, in a few lines that come
 * before any other number: the pair's cost per access where the module
 * ran (inline - nopad, from derived.c), else the bpf overhead named an
 * upper bound, the suites skipped and why, and the next step for the
 * machine. The console (`report --headline`) and report.md both print
 * these lines, so they cannot disagree.
 */
#ifndef SMAPBENCH_ANSWER_H
#define SMAPBENCH_ANSWER_H

#include <stddef.h>
#include <stdio.h>

#include "rundata/rundir.h"

/* Prefix of every line of a run emulated by QEMU TCG. */
#define ANSWER_TCG_TAG "functional only (TCG): "

/*
 * One line: text is ours (commands in `backticks`), quoted comes from the
 * run's files (a skip reason) and is printed after text, escaped in
 * Markdown. level 1: a detail of the line before.
 */
struct answer_line {
	char *text;
	char *quoted;
	int level;
};

struct answer {
	struct answer_line *lines;
	size_t count;
};

/* The lines for run: 0, or -1 out of memory (a then empty). */
int answer_build(const struct run_dir *run, struct answer *a);
void answer_free(struct answer *a);
/* The lines under a heading: Markdown bullets, or indented text. */
void answer_print(FILE *f, const struct answer *a, int markdown);
/*
 * The samples of b whose modified Z-score is above STATS_OUTLIER_Z, as
 * results.csv's outliers count them; 0 when b has no values.
 */
size_t answer_outliers(const struct run_bench *b);
/*
 * `report --headline RUN`: the answer, then the headline rows in ns and
 * in cycles where the calibration gives them. Returns the exit status
 * (1 when the run cannot be read).
 */
int answer_print_run(const char *who, const char *path);

#endif /* SMAPBENCH_ANSWER_H */
