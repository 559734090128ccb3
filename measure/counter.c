// SPDX-License-Identifier: GPL-2.0
/* counter.c - backend table, selection, TSC helpers; see counter.h. */
#include "measure/counter.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

struct counter *const counter_backends[] = {
	&counter_perf,
	&counter_rdtscp,
	&counter_rdtsc,
	&counter_cpucycles,
	&counter_monotonic,
	NULL,
};

struct counter *counter_find(const char *name)
{
	for (int i = 0; counter_backends[i]; i++)
		if (!strcmp(counter_backends[i]->name, name))
			return counter_backends[i];
	return NULL;
}

static void append(char *dst, size_t len, const char *name, const char *why)
{
	size_t used = strlen(dst);

	snprintf(dst + used, len - used, "%s%s: %s", used ? "; " : "",
		 name, why);
}

struct counter *counter_select(const char *name, char *fallback,
			       size_t fallbacklen)
{
	char why[256];

	fallback[0] = '\0';
	for (int i = 0; counter_backends[i]; i++) {
		struct counter *c = counter_backends[i];

		if (name && strcmp(c->name, name))
			continue;
		why[0] = '\0';
		if (c->open(c, why, sizeof(why)) == 0) {
			counter_use(c);
			return c;
		}
		append(fallback, fallbacklen, c->name,
		       why[0] ? why : "not usable");
		if (name)
			return NULL;
	}
	if (name && !fallback[0])
		append(fallback, fallbacklen, name, "no such counter");
	return NULL;
}

double counter_seconds(const struct counter *c, uint64_t delta)
{
	return c->hz > 0 ? (double)delta / c->hz : 0;
}

static double raw_ns(void)
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
	t0 = raw_ns();
	v0 = c->begin();
	goal = t0 + ms * 1e6;
	do
		t1 = raw_ns();
	while (t1 < goal);
	v1 = c->end();
	t1 = raw_ns();
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
	a = raw_ns();
	v0 = counter_tsc_begin();
	b = raw_ns();
	t0 = (a + b) / 2;
	goal = a + ms * 1e6;
	while (raw_ns() < goal)
		;
	a = raw_ns();
	v1 = counter_tsc_end();
	b = raw_ns();
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

static struct counter *current;

void counter_use(struct counter *c)
{
	current = c;
}

#ifdef HAVE_CPUCYCLES
#include <cpucycles.h>
#endif

long long cycles(void)
{
	if (current)
		return (long long)current->begin();
#ifdef HAVE_CPUCYCLES
	return cpucycles();
#else
	return (long long)(raw_ns());
#endif
}

long long cycles_per_second(void)
{
	if (current)
		return (long long)current->hz;
#ifdef HAVE_CPUCYCLES
	return cpucycles_persecond();
#else
	return 1000000000LL;
#endif
}

const char *cycles_implementation(void)
{
	if (current)
		return current->name;
#ifdef HAVE_CPUCYCLES
	return cpucycles_implementation();
#else
	return "monotonic-raw";
#endif
}
