// SPDX-License-Identifier: GPL-2.0
/*
 * counter_clock.c - what the backends share: serialised TSC reads and
 * rates measured against CLOCK_MONOTONIC_RAW; see counter.h.
 */
#include "measure/counter.h"

#include <cpuid.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

double counter_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int counter_cpu_has_tsc(char *why, size_t whylen)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(d & (1U << 4))) {
		snprintf(why, whylen, "CPU has no TSC (CPUID.1:EDX[4])");
		return 0;
	}
	return 1;
}

uint64_t counter_tsc_begin(void)
{
	uint64_t t;

	_mm_lfence();
	t = __rdtsc();
	_mm_lfence();
	return t;
}

/* The same fences at the end: all before is done, nothing after has begun. */
uint64_t counter_tsc_end(void)
{
	return counter_tsc_begin();
}

double counter_measure_hz(struct counter *c, unsigned ms)
{
	double t0, t1, goal;
	uint64_t v0, v1;

	/* Bracket the counter read tightly between two clock reads. */
	t0 = counter_raw_ns();
	v0 = c->begin();
	goal = t0 + ms * 1e6;
	do
		t1 = counter_raw_ns();
	while (t1 < goal);
	v1 = c->end();
	t1 = counter_raw_ns();
	if (t1 <= t0 || v1 <= v0)
		return 0;
	return (double)(v1 - v0) * 1e9 / (t1 - t0);
}

double counter_measure_tsc_hz(unsigned ms)
{
	double t0, t1, a, b, goal;
	uint64_t v0, v1;
	char why[64];

	if (!counter_cpu_has_tsc(why, sizeof(why)))
		return 0;
	/* Take the clock on both sides of each TSC read and use the midpoint. */
	a = counter_raw_ns();
	v0 = counter_tsc_begin();
	b = counter_raw_ns();
	t0 = (a + b) / 2;
	goal = a + ms * 1e6;
	while (counter_raw_ns() < goal)
		;
	a = counter_raw_ns();
	v1 = counter_tsc_end();
	b = counter_raw_ns();
	t1 = (a + b) / 2;
	if (t1 <= t0 || v1 <= v0)
		return 0;
	return (double)(v1 - v0) * 1e9 / (t1 - t0);
}

double counter_tsc_hz_hint(const char **source)
{
	unsigned a, b, c, d, max;
	FILE *f;

	*source = "none";
	max = __get_cpuid_max(0, NULL);
	if (max >= 0x15) {
		__cpuid_count(0x15, 0, a, b, c, d);
		if (a && b && c) {
			*source = "cpuid-0x15";
			return (double)c * b / a;
		}
	}
	__cpuid(1, a, b, c, d);
	if (c & (1U << 31)) {
		__cpuid(0x40000000, a, b, c, d);
		if (a >= 0x40000010) {
			__cpuid(0x40000010, a, b, c, d);
			if (a) {
				*source = "cpuid-0x40000010";
				return a * 1e3;
			}
		}
	}
	f = fopen("/sys/devices/system/cpu/cpu0/tsc_freq_khz", "r");
	if (f) {
		unsigned long khz = 0;

		if (fscanf(f, "%lu", &khz) == 1 && khz) {
			fclose(f);
			*source = "sysfs-tsc_freq_khz";
			return khz * 1e3;
		}
		fclose(f);
	}
	return 0;
}
