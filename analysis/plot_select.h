/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot_select.h - the select functions of the plot table (plots.c): each
 * picks its rows from the runs of a plot_job, writes them to name.dat
 * (where the drawing scripts read) and sets the variables its script
 * needs. By drawing: plot_bars.c (clustered bars), plot_sweeps.c (a cost
 * against a swept size or K), plot_dist.c (box plots).
 */
#ifndef SMAPBENCH_PLOT_SELECT_H
#define SMAPBENCH_PLOT_SELECT_H

#include "analysis/plot_job.h"

int plot_select_ops(struct plot_job *job);
int plot_select_sigframe(struct plot_job *job);
int plot_select_syscall(struct plot_job *job);
/* arg: the suite; two runs only. */
int plot_select_delta(struct plot_job *job);
/* arg: kmod ops, a panel each (at most 4); writes name-share.dat too. */
int plot_select_size_sweep(struct plot_job *job);
int plot_select_batch(struct plot_job *job);
int plot_select_bpf(struct plot_job *job);
int plot_select_dist(struct plot_job *job);

#endif /* SMAPBENCH_PLOT_SELECT_H */
