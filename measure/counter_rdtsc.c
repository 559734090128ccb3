// SPDX-License-Identifier: GPL-2.0
/*
 * counter_rdtsc.c - TSC read with RDTSC fenced by LFENCE on both sides,
 * for CPUs without RDTSCP. Unit: TSC ticks.
 */
#include "measure/counter.h"

#include <stdio.h>

static int rdtsc_open(struct counter *c, char *why, size_t whylen)
{
	if (!counter_cpu_has_tsc(why, whylen))
		return -1;
	c->hz = counter_measure_tsc_hz(60);
	if (c->hz <= 0) {
		snprintf(why, whylen, "TSC does not advance");
		return -1;
	}
	snprintf(c->note, sizeof(c->note), "lfence; rdtsc; lfence");
	return 0;
}

static void rdtsc_close(struct counter *c)
{
	(void)c;
}

struct counter counter_rdtsc = {
	.name = "rdtsc",
	.unit = "ticks",
	.summary = "time stamp counter, LFENCE-serialised RDTSC",
	.open = rdtsc_open,
	.close = rdtsc_close,
	.begin = counter_tsc_begin,
	.end = counter_tsc_end,
};
