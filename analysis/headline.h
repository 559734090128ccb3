/* SPDX-License-Identifier: GPL-2.0 */
/*
 * headline.h - the benchmarks a reader looks at first: one list, as the
 * suites mark them (kmod: the catalogue; syscall and bpf: their tables).
 * `report --headline` prints them after the answer (analysis/answer.h).
 */
#ifndef SMAPBENCH_HEADLINE_H
#define SMAPBENCH_HEADLINE_H

#include "analysis/run_select.h"

/* kmod first, then syscall, then bpf; ends with a NULL suite. */
const struct bench_key *headline_benchmarks(void);

/*
 * Whether a run's row of this suite is a headline whatever the suites
 * mark, shown before theirs: the user's own command (--command).
 */
int headline_run_row(const char *suite);

#endif /* SMAPBENCH_HEADLINE_H */
