// SPDX-License-Identifier: GPL-2.0
/*
 * counter_rdtscp.c - TSC read with RDTSCP, which waits for every earlier
 * instruction, followed by LFENCE so no later one starts first.
 * Unit: TSC ticks. RDTSCP also returns IA32_TSC_AUX (the CPU number on
 * Linux): a sample whose two reads come from different CPUs is counted
 * in counter_rdtscp_migrations.
 */
#include "measure/counter.h"

#include <cpuid.h>
#include <stdio.h>
#include <x86intrin.h>

unsigned long counter_rdtscp_migrations;
static unsigned begin_cpu;

static uint64_t rdtscp_begin(void)
{
	uint64_t t = __rdtscp(&begin_cpu);

	_mm_lfence();
	return t;
}

static uint64_t rdtscp_end(void)
{
	unsigned cpu;
	uint64_t t = __rdtscp(&cpu);

	_mm_lfence();
	if (cpu != begin_cpu)
		counter_rdtscp_migrations++;
	return t;
}

static int rdtscp_open(struct counter *c, char *why, size_t whylen)
{
	unsigned a, b, ecx, d;

	if (!counter_cpu_has_tsc(why, whylen))
		return -1;
	if (!__get_cpuid(0x80000001, &a, &b, &ecx, &d) || !(d & (1U << 27))) {
		snprintf(why, whylen, "CPU has no RDTSCP (CPUID.80000001h:EDX[27])");
		return -1;
	}
	c->hz = counter_measure_tsc_hz(60);
	if (c->hz <= 0) {
		snprintf(why, whylen, "TSC does not advance");
		return -1;
	}
	snprintf(c->note, sizeof(c->note), "rdtscp; lfence");
	return 0;
}

static void rdtscp_close(struct counter *c)
{
	(void)c;
}

struct counter counter_rdtscp = {
	.name = "rdtscp",
	.unit = "ticks",
	.summary = "time stamp counter, RDTSCP + LFENCE",
	.open = rdtscp_open,
	.close = rdtscp_close,
	.begin = rdtscp_begin,
	.end = rdtscp_end,
};
