// SPDX-License-Identifier: GPL-2.0
/* counter_monotonic.c - clock_gettime(CLOCK_MONOTONIC). Unit: ns. */
#include "measure/counter.h"

#include <stdio.h>
#include <time.h>

static uint64_t monotonic_read(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int monotonic_open(struct counter *c, char *why, size_t whylen)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC, &res)) {
		snprintf(why, whylen, "clock_getres(CLOCK_MONOTONIC) failed");
		return -1;
	}
	c->hz = 1e9;
	snprintf(c->note, sizeof(c->note), "clock_gettime, resolution %ld ns",
		 res.tv_nsec);
	return 0;
}

static void monotonic_close(struct counter *c)
{
	(void)c;
}

struct counter counter_monotonic = {
	.name = "monotonic",
	.unit = "ns",
	.summary = "clock_gettime(CLOCK_MONOTONIC)",
	.open = monotonic_open,
	.close = monotonic_close,
	.begin = monotonic_read,
	.end = monotonic_read,
};
