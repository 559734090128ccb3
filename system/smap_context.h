/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smap_context.h - the SMAP state of this boot, as docs/schema.md
 * defines it (smap_cpuinfo, smap_requested_off, smap_state,
 * smap_off_method). Pure functions on strings so they can be tested.
 */
#ifndef SMAPBENCH_SMAP_CONTEXT_H
#define SMAPBENCH_SMAP_CONTEXT_H

#include "measure/context.h"

/* X86_FEATURE_SMAP's number, as clearcpuid= also accepts: word 9, bit 20. */
#define SMAP_FEATURE_NUMBER "308"

struct smap_state {
	int cpuinfo;		/* "smap" in /proc/cpuinfo flags */
	int cpuid;		/* CPUID.(7,0):EBX[20] */
	int requested_off;	/* nosmap or clearcpuid=...smap... */
	const char *state;	/* "smap" or "nosmap" */
	const char *method;	/* none, nosmap, clearcpuid, cpu-model, unknown */
	const char *warning;	/* requested and actual state disagree */
};

/* 1 when the command line asks for SMAP off; *how names the parameter. */
int smap_requested_off(const char *cmdline, const char **how);
void smap_evaluate(const char *cmdline, const char *cpu_flags, int cpuid,
		   struct smap_state *s);
/* CPUID.(7,0):EBX[20]. */
int smap_cpuid(void);
/* Add the SMAP keys (needs cmdline and cpu_flags in c already). */
void smap_context(struct context *c);

#endif /* SMAPBENCH_SMAP_CONTEXT_H */
