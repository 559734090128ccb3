// SPDX-License-Identifier: GPL-2.0
/* counter.c - the table of backends and the choice among them; see counter.h. */
#include "measure/counter.h"

#include <stdio.h>
#include <string.h>

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
		if (c->open(c, why, sizeof(why)) == 0)
			return c;
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
