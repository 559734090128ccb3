// SPDX-License-Identifier: GPL-2.0
/* registry.c - the benchmark list; see registry.h. */
#include "measure/registry.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(struct registry *r, const struct benchmark *b,
	       const char *family)
{
	if (r->count == r->capacity) {
		size_t cap = r->capacity ? r->capacity * 2 : 64;
		const struct benchmark **items =
			realloc(r->items, cap * sizeof(*items));
		const char **families;

		if (!items)
			return -1;
		r->items = items;
		families = realloc(r->families, cap * sizeof(*families));
		if (!families)
			return -1;
		r->families = families;
		r->capacity = cap;
	}
	r->families[r->count] = family;
	r->items[r->count++] = b;
	return 0;
}

int registry_add_family(struct registry *r, const char *family,
			const struct benchmark *table, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (add(r, &table[i], family))
			return -1;
	return 0;
}

int registry_add_table(struct registry *r, const struct benchmark *table,
		       size_t n)
{
	return registry_add_family(r, NULL, table, n);
}

/* Keep the entries keep() accepts, in order. */
static void keep_if(struct registry *r,
		    int (*keep)(const struct benchmark *b, const void *arg),
		    const void *arg)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->count; i++) {
		if (!keep(r->items[i], arg))
			continue;
		r->families[kept] = r->families[i];
		r->items[kept++] = r->items[i];
	}
	r->count = kept;
}

static int in_suite(const struct benchmark *b, const void *suite)
{
	return !strcmp(b->suite, suite);
}

void registry_keep_suite(struct registry *r, const char *suite)
{
	if (strcmp(suite, "all"))
		keep_if(r, in_suite, suite);
}

static int matches(const struct benchmark *b, const void *re)
{
	return regexec(re, b->name, 0, NULL, 0) == 0;
}

int registry_keep_matching(struct registry *r, const char *regex,
			   char *err, size_t errlen)
{
	regex_t re;
	int rc = regcomp(&re, regex, REG_EXTENDED | REG_NOSUB);

	if (rc) {
		char msg[128];

		regerror(rc, &re, msg, sizeof(msg));
		snprintf(err, errlen, "invalid --filter \"%s\": %s", regex, msg);
		return -1;
	}
	keep_if(r, matches, &re);
	regfree(&re);
	return 0;
}

static int not_extended(const struct benchmark *b, const void *arg)
{
	(void)arg;
	return !b->extended;
}

void registry_drop_extended(struct registry *r)
{
	keep_if(r, not_extended, NULL);
}

static int not_full_only(const struct benchmark *b, const void *arg)
{
	(void)arg;
	return !b->full_only;
}

void registry_drop_full_only(struct registry *r)
{
	keep_if(r, not_full_only, NULL);
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
	free(r->families);
	memset(r, 0, sizeof(*r));
}
