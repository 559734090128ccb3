// SPDX-License-Identifier: GPL-2.0
/*
 * rundir_check.c - what a loaded run refuses (rundir.h): names that are
 * empty, too long or hold control characters, columns that do not
 * agree, timings that are no finite number above 0, a name or a key
 * twice.
 */
#include "rundata/rundir_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/rundir.h"


/* NULL when name can be a benchmark's, else what is wrong with it. */
const char *rundir_name_problem(const char *name)
{
	size_t len = strlen(name);

	if (!len)
		return "is empty";
	if (len > RUNDIR_MAX_NAME)
		return "is longer than " RUNDIR_MAX_NAME_TEXT " characters";
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "contains a control character";
	return NULL;
}

/*
 * NULL when the other text columns of b are sane, else what is wrong;
 * *column names the column. Their text lands in every report.
 */
const char *rundir_columns_problem(const struct run_bench *b,
				   const char **column, const char **value)
{
	const char *const text[] = { b->suite, b->op, b->variant, b->unit,
				     b->counter, b->flags };
	static const char *const names[] = { "suite", "op", "variant", "unit",
					     "counter", "flags" };

	for (size_t i = 0; i < sizeof(text) / sizeof(*text); i++) {
		const char *why = *text[i] ? rundir_name_problem(text[i]) : NULL;

		*column = names[i];
		*value = text[i];
		if (why)
			return why;
	}
	*column = "unit";
	*value = b->unit;
	if (*b->unit && strcmp(b->unit, "ns") && strcmp(b->unit, "ticks") &&
	    strcmp(b->unit, "cycles"))
		return "is none of ns, ticks or cycles";
	return NULL;
}

/*
 * Rows whose values are differences of two loops, paired per sample, and
 * so of any sign: the bpf suite's overhead rows (user read minus kernel
 * copy) and its calib and calib_imul (chains minus an empty program;
 * suites/bpf.c).
 * kmod/calib is a plain timing.
 */
static int op_is_difference(const char *suite, const char *op, size_t len)
{
	if (strcmp(suite, "bpf"))
		return 0;
	return (len >= 8 && !strncmp(op + len - 8, "overhead", 8)) ||
	       (len == 5 && !strncmp(op, "calib", 5)) ||
	       (len == 10 && !strncmp(op, "calib_imul", 10));
}

int rundir_is_difference(const struct run_bench *b)
{
	return op_is_difference(b->suite, b->op, strlen(b->op));
}

/* The same for a JSON entry: its "op", else the op part of its name. */
int rundir_entry_is_difference(const char *op, const char *name)
{
	const char *slash = strchr(name, '/'), *end;
	char suite[16];

	snprintf(suite, sizeof(suite), "%.*s",
		 (int)(slash ? (size_t)(slash - name) : strlen(name)), name);
	if (op)
		return op_is_difference(suite, op, strlen(op));
	if (!slash)
		return 0;
	end = strchr(slash + 1, '/');
	return op_is_difference(suite, slash + 1,
				end ? (size_t)(end - slash - 1) : strlen(slash + 1));
}

/* NULL when v (read from text) is a timing, else what is wrong with it. */
const char *rundir_timing_problem(const char *text, double v,
				  int difference)
{
	if (!text || !*text)
		return "is empty";
	if (isnan(v))
		return "is not a number";
	if (isinf(v))
		return "is infinite";
	if (difference)
		return NULL;
	if (v < 0)
		return "is negative";
	if (v == 0)
		return "is zero";
	return NULL;
}

struct keyed_index {
	const char *key;
	size_t index;
};

static int compare_keyed(const void *a, const void *b)
{
	const struct keyed_index *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

int rundir_find_repeat(const char *const *keys, size_t n, size_t *first,
		       size_t *again)
{
	struct keyed_index *s;
	int found = -1;

	if (n < 2)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -2;
	for (size_t i = 0; i < n; i++)
		s[i] = (struct keyed_index){ keys[i], i };
	qsort(s, n, sizeof(*s), compare_keyed);
	/*
	 * Sorted by key, then index: a key's first two appearances open its
	 * run. Of all repeated keys, the one seen again earliest.
	 */
	for (size_t i = 1; i < n; i++) {
		if (strcmp(s[i - 1].key, s[i].key) ||
		    (i >= 2 && !strcmp(s[i - 2].key, s[i].key)))
			continue;
		if (found < 0 || s[i].index < *again) {
			*first = s[i - 1].index;
			*again = s[i].index;
			found = 0;
		}
	}
	free(s);
	return found;
}

/* A name twice would make every lookup ambiguous. */
int rundir_check_unique(const struct run_dir *run, const char *path,
			char *err, size_t errlen)
{
	for (size_t i = 1; i < run->count; i++)
		if (!strcmp(run->sorted[i - 1]->name, run->sorted[i]->name)) {
			const struct run_bench *x = run->sorted[i - 1], *y = run->sorted[i];

			snprintf(err, errlen, "%s: benchmark %s appears twice (lines "
				 "%lu and %lu)", path, x->name,
				 x->line < y->line ? x->line : y->line,
				 x->line < y->line ? y->line : x->line);
			return -1;
		}
	return 0;
}

