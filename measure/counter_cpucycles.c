// SPDX-License-Identifier: GPL-2.0
/*
 * counter_cpucycles.c - libcpucycles' cpucycles(), when the library was
 * found at build time (HAVE_CPUCYCLES). It picks its own best source;
 * cpucycles_implementation() is recorded in the note. Unit: cycles as
 * the library defines them (cpucycles_persecond() per second).
 */
#include "measure/counter.h"

#include <stdio.h>

#ifdef HAVE_CPUCYCLES
#include <cpucycles.h>

static uint64_t cpucycles_read(void)
{
	return (uint64_t)cpucycles();
}

static int cpucycles_open(struct counter *c, char *why, size_t whylen)
{
	(void)why;
	(void)whylen;
	c->hz = (double)cpucycles_persecond();
	snprintf(c->note, sizeof(c->note), "libcpucycles %s",
		 cpucycles_implementation());
	return 0;
}
#else
static uint64_t cpucycles_read(void)
{
	return 0;
}

static int cpucycles_open(struct counter *c, char *why, size_t whylen)
{
	(void)c;
	snprintf(why, whylen,
		 "libcpucycles was not installed at build time (no <cpucycles.h>)");
	return -1;
}
#endif

static void cpucycles_close(struct counter *c)
{
	(void)c;
}

struct counter counter_cpucycles = {
	.name = "cpucycles",
	.unit = "cycles",
	.summary = "libcpucycles cpucycles()",
	.open = cpucycles_open,
	.close = cpucycles_close,
	.begin = cpucycles_read,
	.end = cpucycles_read,
};
