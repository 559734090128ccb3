/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_controls.h - negative controls of a comparison of two boots.
 *
 * Some rows open no user-access window on any kernel: getppid (SYSCALL
 * clears AC itself), futex wake without waiters, the vDSO clock, the
 * chain of adds (docs/census.md). Between a SMAP and a SMAP-off boot
 * they move only by what else differs between the boots: the core
 * clock, memory placement, the host. Their mean change on the log scale,
 * each weighed by 1 / its own variance, estimates the shift every row
 * shares; each other row's change net of it is then SMAP's.
 *
 * Of a row's se^2 (analysis/compare_stats.h), the net figure keeps the
 * row's own parts (its repetitions, its own boot part) and adds the
 * controls' mean's own parts; the common part cancels. Where the boot
 * variance is only assumed, all of it is taken as each row's own,
 * which cancels nothing: conservative.
 *
 * The controls are sound when there are at least COMPARE_MIN_CONTROLS
 * of them and they agree with each other: their spread about their mean,
 * against their own variances, within the 99% point of a chi-square on
 * n - 1 df (a control that moved on its own, a layout mode of its own,
 * would move every net figure). Where they are sound and the design
 * gives verdicts, every other row's d, se, df, CI, p and verdict are
 * net of them (compare_controls_net()).
 *
 * The controls moved when the interval of their mean change excludes 0:
 * something besides SMAP differs between the boots, and a row's raw
 * change holds it too. That interval holds the shift every row shares
 * once, not divided among the controls (with the split unknown, all of
 * the assumed boot variance is taken as shared).
 */
#ifndef SMAPBENCH_COMPARE_CONTROLS_H
#define SMAPBENCH_COMPARE_CONTROLS_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare_stats.h"

struct compare_net {
	double relative, low, high;	/* net of the controls, of B / A - 1 */
};

/* Controls needed to net the rows of them. */
#define COMPARE_MIN_CONTROLS	3

struct compare_controls {
	size_t count;		/* control rows found with an interval */
	double shift, low, high;	/* their mean change, B / A - 1 */
	double se, df;		/* of the mean log ratio */
	/* its own parts' variance and df: what a net figure adds */
	double own_var, own_df;
	int moved;		/* the interval of shift excludes 0 */
	int split_known;	/* the boot variance is split into common and own */
	int sound;		/* enough, and agreeing: the rows may be netted */
	/* their weighted spread about their mean, and its 99% point; NAN */
	double spread, spread_limit;
	struct compare_net *net;	/* per row of the result; NAN for a
					 * control, a linear row, no interval */
};

/* Whether a row is a negative control. */
int compare_is_control(const struct run_bench *b);

/*
 * A row's own parts of its variance, with their df: its repetitions and
 * its own boot part (all of the assumption, where the boot variance is
 * assumed; *assumed says so); the shift every row shares left out.
 */
struct compare_variance compare_row_own(const struct compare_row *r,
					const struct compare_settings *set,
					int *assumed);

/*
 * The controls of res and every row net of them, from the rows' raw
 * figures; 0, or -1 on no memory. With no control row, count is 0 and
 * net all NAN.
 */
int compare_controls_compute(const struct compare_result *res,
			     const struct compare_settings *set,
			     struct compare_controls *out);

/*
 * Net every row of res but the controls of them where they are sound and
 * the design gives verdicts (set->withheld NULL); then the q-values and
 * verdicts (compare_assign_verdicts()). 0, or -1 on no memory.
 */
int compare_controls_net(struct compare_result *res,
			 const struct compare_settings *set);
void compare_controls_free(struct compare_controls *c);

/*
 * The controls' change, the warning when they moved, and the table of
 * rows net of them (markdown for report.md). Nothing without controls.
 */
void compare_controls_print(FILE *f, const struct compare_result *res,
			    const struct compare_controls *c, int markdown);

#endif /* SMAPBENCH_COMPARE_CONTROLS_H */
