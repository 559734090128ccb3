/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smap_case.h - what a run's SMAP keys say about its boot, in words: is
 * SMAP on, and when it is off, why (docs/interpreting.md, "SMAP off in
 * this boot"). The answer of a run, report.md and `smapbench info
 * --smap` (which run-bench.sh prints) all say it with these sentences.
 */
#ifndef SMAPBENCH_SMAP_CASE_H
#define SMAPBENCH_SMAP_CASE_H

#include <stddef.h>

struct run_dir;

enum smap_case {
	SMAP_CASE_UNRECORDED,	/* the run does not say */
	SMAP_CASE_ON,		/* the kernel uses SMAP */
	SMAP_CASE_ON_IGNORED,	/* asked off on the command line, still on */
	SMAP_CASE_OFF_ASKED,	/* clearcpuid=smap or nosmap turned it off */
	SMAP_CASE_OFF_BY_KERNEL,	/* the CPU has it, the kernel does not use it, unasked */
	SMAP_CASE_OFF_NO_CPU,	/* the CPU (or its VM model) has no SMAP */
	SMAP_CASE_OFF_UNTOLD,	/* off, and the run does not say whether the CPU has it */
};

/*
 * The case of a run from its SMAP keys (docs/schema.md), each NULL when
 * the run lacks it: smap_state, smap_requested_off, smap_off_method, and
 * whether the CPU has SMAP (smap_cpuid, else the module's kmod_smap_cpuid).
 */
enum smap_case smap_case_read(const char *state, const char *requested_off,
			      const char *method, const char *cpuid);
/* The same from a loaded run's context. */
enum smap_case smap_case_of_run(const struct run_dir *run);
/* Whether the kernel runs STAC/CLAC around its user accesses. */
int smap_case_kernel_uses_smap(enum smap_case c);
/*
 * One sentence: the state, and why ("SMAP is off in this boot: the CPU
 * has SMAP but this kernel does not use it ..."). method is the run's
 * smap_off_method (the parameter's name for SMAP_CASE_OFF_ASKED).
 */
const char *smap_case_sentence(enum smap_case c, const char *method,
			       char *buf, size_t len);
/*
 * Where the pair's cost can be had instead, for a case whose kernel runs
 * no STAC/CLAC: "a boot without clearcpuid=smap ...", "another kernel
 * ..."; "" for a case whose kernel uses SMAP.
 */
const char *smap_case_where_smap_is_used(enum smap_case c, const char *method);

#endif /* SMAPBENCH_SMAP_CASE_H */
