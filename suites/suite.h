/* SPDX-License-Identifier: GPL-2.0 */
/*
 * suite.h - benchmark families and the suites they form.
 *
 * A family is one file of suites/ holding a static table of benchmarks
 * (see measure/registry.h) and, optionally, hooks: init() for tables
 * that depend on the machine (the kmod suite asks the module), context()
 * to add the family's keys to the run's context. BENCH_FAMILIES in
 * suites/suite.c lists them all: adding a family is one file and one line
 * there.
 */
#ifndef SMAPBENCH_SUITE_H
#define SMAPBENCH_SUITE_H

#include <stddef.h>

#include "measure/context.h"
#include "measure/registry.h"
#include "measure/runner.h"

struct bench_family {
	const char *suite;
	const char *name;
	const struct benchmark *table;
	size_t count;
	/* Fill table/count at start-up; 0 or -1. Optional. */
	int (*init)(struct bench_family *f);
	/* Add context keys, before the run. Optional. */
	void (*context)(struct context *c);
	/* Add context keys from what the run met, after it. Optional. */
	void (*results_context)(struct context *c, const struct run_results *r);
};

#define BENCH_FAMILY(suite_, name_, table_) {				\
	.suite = suite_, .name = name_, .table = table_,		\
	.count = sizeof(table_) / sizeof((table_)[0]) }

/* Every suite name --suite accepts, NULL-terminated ("all" too). */
extern const char *const suite_names[];
/* The same and "none": smapbench run's, for a run of --command alone. */
extern const char *const suite_run_names[];

/* Register every family's benchmarks. 0 or -1 (no memory). */
int suite_register_all(struct registry *r);
/* Let the families of a suite ("all": every one) add context keys. */
void suite_context(struct context *c, const char *suite);
/* The same from the run's results, once it has run. */
void suite_results_context(struct context *c, const char *suite,
			   const struct run_results *r);

/*
 * The role its suite gives a row of a run (registry.h), found by suite,
 * op and variant in the suites' own tables (any size): what compare takes
 * for a negative control and the plots label. BENCH_ROLE_UNSET for a row
 * no table has, or whose suite gives no roles.
 */
enum bench_role suite_row_role(const char *suite, const char *op,
			       const char *variant);

#endif /* SMAPBENCH_SUITE_H */
