/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pin.h - pinning the measuring thread to one physical core.
 *
 * With hwloc (HAVE_HWLOC) the topology decides: the chosen CPU is the
 * first hardware thread of a core (by default the last core, away from
 * CPU 0 where most interrupts land), and its SMT siblings are left idle
 * for the OS. Without hwloc the same is done from sysfs
 * (topology/thread_siblings_list) and sched_setaffinity(). Either way
 * the binding is verified with sched_getaffinity().
 */
#ifndef SMAPBENCH_PIN_H
#define SMAPBENCH_PIN_H

#include <stddef.h>

struct pin_result {
	int cpu;		/* CPU pinned to, -1 when not pinned */
	const char *method;	/* "hwloc" or "sched_setaffinity" */
	char siblings[128];	/* SMT siblings of cpu, sysfs list syntax */
	char why[256];		/* why pinning failed */
};

/*
 * Pin to cpu (or choose one when cpu < 0). Returns 0; -1 with why when
 * the binding failed; -2 when cpu is not a CPU we may run on (bad
 * input).
 */
int pin_to_core(int cpu, struct pin_result *r);

/* Parse a sysfs CPU list ("0-3,8") into a bitmap of up to 1024 CPUs. */
int pin_parse_cpu_list(const char *list, unsigned long *mask, size_t words);

/* Fraction of time cpu was busy over ms milliseconds (/proc/stat). */
double pin_cpu_busy(int cpu, unsigned ms);

/*
 * Run this process (and the workers it starts, which inherit it) at the
 * lowest real-time priority, SCHED_FIFO 1: then no ordinary task can
 * take the pinned CPU in the middle of a sample, only interrupts,
 * kernel threads of higher priority and the kernel's real-time
 * throttling (5% of each second by default) can. On a busy machine most
 * samples were otherwise preempted. 0, or -1 with why (no CAP_SYS_NICE).
 */
int pin_realtime(char *why, size_t whylen);

/* Which topology library the build uses: "hwloc" or "sysfs". */
const char *pin_topology_source(void);

#endif /* SMAPBENCH_PIN_H */
