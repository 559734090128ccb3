/* SPDX-License-Identifier: GPL-2.0 */
/* suite.h - knobs of the kmod suite the front end sets. */
#ifndef SMAPBENCH_KMOD_SUITE_H
#define SMAPBENCH_KMOD_SUITE_H

/*
 * "kmod-tsc": report TSC ticks; "kmod-pmu": core cycles, required;
 * NULL: core cycles when the module has a PMU counter, else ticks.
 */
void kmod_suite_counter(const char *name);
/*
 * The counter the worker processes use: the one asked for, else
 * "kmod-tsc" when the module's PMU failed its calibration check in this
 * process (the context has run), else NULL (the PMU where there is one).
 */
const char *kmod_suite_worker_counter(void);
/* Print the module's INFO to f; 0, or -1 with the reason printed. */
int kmod_suite_print_info(void *file);

#endif /* SMAPBENCH_KMOD_SUITE_H */
