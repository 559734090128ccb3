/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counter.h - clocks a benchmark sample is timed with.
 *
 * Each backend lives in its own counter_<name>.c and is chosen at run
 * time: counter_select(NULL) takes the best one that works here (perf,
 * rdtscp, rdtsc, cpucycles, monotonic, in that order) and remembers why
 * the better ones were passed over; counter_select("rdtsc") insists.
 * Every result names the backend it came from.
 *
 * A backend reads a monotonically increasing value in its unit: "ticks"
 * (TSC), "cycles" (core cycles) or "ns". begin() and end() are
 * serialising as far as the backend allows, so the timed code neither
 * leaks out of nor into the interval.
 */
#ifndef SMAPBENCH_COUNTER_H
#define SMAPBENCH_COUNTER_H

#include <stddef.h>
#include <stdint.h>

struct counter {
	const char *name;
	const char *unit;		/* "ticks", "cycles" or "ns" */
	const char *summary;
	/* Probe and prepare; 0, or -1 with the reason in why. */
	int (*open)(struct counter *c, char *why, size_t whylen);
	void (*close)(struct counter *c);
	uint64_t (*begin)(void);
	uint64_t (*end)(void);
	/* Filled by open() or counter_select(). */
	double hz;			/* units per second */
	char note[160];			/* e.g. what the perf event counts */
	void *priv;
};

/* Every backend, best first; NULL-terminated. */
extern struct counter *const counter_backends[];

extern struct counter counter_perf;
extern struct counter counter_rdtscp;
extern struct counter counter_rdtsc;
extern struct counter counter_cpucycles;
extern struct counter counter_monotonic;

struct counter *counter_find(const char *name);

/*
 * Open the named backend, or the best available one when name is NULL.
 * fallback receives "perf: <reason>; ..." for every backend passed
 * over (empty when the first choice worked). NULL with the reason in
 * fallback when the named backend does not work.
 */
struct counter *counter_select(const char *name, char *fallback,
			       size_t fallbacklen);

/* Time of the interval in seconds, or per-op nanoseconds. */
double counter_seconds(const struct counter *c, uint64_t delta);

/*
 * TSC frequency measured against CLOCK_MONOTONIC_RAW over ms
 * milliseconds (busy-waiting), in Hz; 0 when there is no usable TSC.
 */
double counter_measure_tsc_hz(unsigned ms);
/*
 * The TSC frequency the platform states, in Hz, or 0: CPUID leaf 0x15,
 * then the hypervisor timing leaf 0x40000010, then
 * /sys/devices/system/cpu/cpu0/tsc_freq_khz. source names which.
 */
double counter_tsc_hz_hint(const char **source);
/* Measure any backend's rate against CLOCK_MONOTONIC_RAW. */
double counter_measure_hz(struct counter *c, unsigned ms);

/* CLOCK_MONOTONIC_RAW in ns: what rates and calibrations are timed against. */
double counter_raw_ns(void);
/* Serialised TSC reads shared by the TSC backends (counter_clock.c). */
uint64_t counter_tsc_begin(void);
uint64_t counter_tsc_end(void);
int counter_cpu_has_tsc(char *why, size_t whylen);

#endif /* SMAPBENCH_COUNTER_H */
