/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_controls.h - negative controls of a comparison of two boots.
 *
 * Some rows open no user-access window on any kernel: getppid (SYSCALL
 * clears AC itself), futex wake without waiters, the vDSO clock, the
 * chain of adds (docs/census.md). Between a SMAP and a SMAP-off boot
 * they move only by what else differs between the boots: the core
 * clock, memory placement, the host. Their mean change, on the log
 * scale, is an estimate of the shift common to all rows; each other
 * row's change net of it is then SMAP's, with an interval that holds
 * the controls' own uncertainty.
 *
 * Variance of a row net of the controls' mean (n controls): the rows'
 * repetitions (each se^2 less its boot term), and 2 sigma_v^2 (1 + 1/n)
 * for the boot effects that are each row's own, sigma_v^2 = sigma_u^2 -
 * sigma_c^2; the common part sigma_c cancels. Without a calibration
 * that splits sigma_u, all of it is taken as each row's own, which
 * cancels nothing: conservative. df: the smaller of the row's and the
 * controls'.
 *
 * The controls moved when the interval of their mean change (with the
 * full boot variance) excludes 0: something besides SMAP differs
 * between the boots, and a row's raw change holds it too.
 */
#ifndef SMAPBENCH_COMPARE_CONTROLS_H
#define SMAPBENCH_COMPARE_CONTROLS_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/compare_stats.h"

struct compare_net {
	double relative, low, high;	/* net of the controls, of B / A - 1 */
};

struct compare_controls {
	size_t count;		/* control rows found with an interval */
	double shift, low, high;	/* their mean change, B / A - 1 */
	double se, df;		/* of the mean log ratio */
	int moved;		/* the interval of shift excludes 0 */
	int split_known;	/* a calibration split sigma_u into common and own */
	struct compare_net *net;	/* per row of the result; NAN for a
					 * control, a linear row, no interval */
};

/* Whether a row is a negative control. */
int compare_is_control(const struct run_bench *b);

/*
 * The controls of res and every row net of them; 0, or -1 on no
 * memory. With no control row, count is 0 and net all NAN.
 */
int compare_controls_compute(const struct compare_result *res,
			     const struct compare_settings *set,
			     struct compare_controls *out);
void compare_controls_free(struct compare_controls *c);

/*
 * The controls' change, the warning when they moved, and the table of
 * rows net of them (markdown for report.md). Nothing without controls.
 */
void compare_controls_print(FILE *f, const struct compare_result *res,
			    const struct compare_controls *c, int markdown);

#endif /* SMAPBENCH_COMPARE_CONTROLS_H */
