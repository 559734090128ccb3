/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_context.h - the context keys of a run (docs/schema.md): those of
 * context_collect(), the SMAP state (smap_context()), the version, the
 * revision and optional libraries of this build, the measured and the
 * stated TSC rate. run, info and the census record the same keys.
 */
#ifndef SMAPBENCH_RUN_CONTEXT_H
#define SMAPBENCH_RUN_CONTEXT_H

struct context;

void run_context_collect(struct context *c);

#endif /* SMAPBENCH_RUN_CONTEXT_H */
