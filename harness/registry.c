// SPDX-License-Identifier: GPL-2.0
/* registry.c - the benchmark list; see registry.h. */
#include "registry.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int registry_add(struct registry *r, const struct benchmark *b)
{
	if (r->count == r->capacity) {
		size_t cap = r->capacity ? r->capacity * 2 : 64;
		const struct benchmark **items =
			realloc(r->items, cap * sizeof(*items));

		if (!items)
			return -1;
		r->items = items;
		r->capacity = cap;
	}
	r->items[r->count++] = b;
	return 0;
}

int registry_add_table(struct registry *r, const struct benchmark *table,
		       size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (registry_add(r, &table[i]))
			return -1;
	return 0;
}

void registry_keep_suite(struct registry *r, const char *suite)
{
	size_t kept = 0;

	if (!strcmp(suite, "all"))
		return;
	for (size_t i = 0; i < r->count; i++)
		if (!strcmp(r->items[i]->suite, suite))
			r->items[kept++] = r->items[i];
	r->count = kept;
}

int registry_keep_matching(struct registry *r, const char *regex,
			   char *err, size_t errlen)
{
	regex_t re;
	size_t kept = 0;
	int rc = regcomp(&re, regex, REG_EXTENDED | REG_NOSUB);

	if (rc) {
		char msg[128];

		regerror(rc, &re, msg, sizeof(msg));
		snprintf(err, errlen, "invalid --filter \"%s\": %s", regex, msg);
		return -1;
	}
	for (size_t i = 0; i < r->count; i++)
		if (regexec(&re, r->items[i]->name, 0, NULL, 0) == 0)
			r->items[kept++] = r->items[i];
	r->count = kept;
	regfree(&re);
	return 0;
}

const struct benchmark *registry_find(const struct registry *r,
				      const char *name)
{
	for (size_t i = 0; i < r->count; i++)
		if (!strcmp(r->items[i]->name, name))
			return r->items[i];
	return NULL;
}

void registry_free(struct registry *r)
{
	free(r->items);
	memset(r, 0, sizeof(*r));
}

void registry_drop_extended(struct registry *r)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->count; i++)
		if (!r->items[i]->extended)
			r->items[kept++] = r->items[i];
	r->count = kept;
}
