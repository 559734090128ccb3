/* SPDX-License-Identifier: GPL-2.0 */
/*
 * headline.h - the benchmarks a reader looks at first: one list, as the
 * suites mark them (kmod: the catalogue; syscall and bpf: their tables).
 */
#ifndef SMAPBENCH_HEADLINE_H
#define SMAPBENCH_HEADLINE_H

#include <stdio.h>

#include "analysis/run_select.h"

/* kmod first, then syscall, then bpf; ends with a NULL suite. */
const struct bench_key *headline_benchmarks(void);
/* One line per headline row of run: median in ns, 95% CI, flags. */
void headline_print(FILE *f, const struct run_dir *run);
/*
 * `report --headline RUN`: the lines of the run at path on stdout.
 * Returns the exit status (1 when the run cannot be read).
 */
int headline_print_run(const char *who, const char *path);

#endif /* SMAPBENCH_HEADLINE_H */
