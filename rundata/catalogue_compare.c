// SPDX-License-Identifier: GPL-2.0
/*
 * catalogue_compare.c - what the catalogue's roles say of two runs'
 * contexts side by side: which differences block a comparison, which
 * are expected between two boots, which keys a comparison needs but a
 * run did not record; see catalogue.h.
 */
#include "rundata/catalogue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/rundir.h"

/*
 * A context value, with what a run written before the key existed meant:
 * before `status`, every run directory written was a complete one.
 */
static const char *context_or_default(const struct run_dir *run,
				      const char *key)
{
	const char *v = rundir_context(run, key);

	return v || strcmp(key, "status") ? v : "complete";
}

enum context_diff_kind context_diff_kind(const char *key)
{
	if (context_key_is(key, KEY_COMPARISON))
		return CONTEXT_DIFF_BLOCKING;
	if (context_key_is(key, KEY_DIFFERS))
		return CONTEXT_DIFF_EXPECTED;
	return CONTEXT_DIFF_INFO;
}

int context_diffs(const struct run_dir *a, const struct run_dir *b,
		  struct context_diff **diffs, size_t *count)
{
	size_t cap = a->context_count + b->context_count + 1;
	struct context_diff *d = calloc(cap, sizeof(*d));
	int blocking = 0;

	*diffs = d;
	*count = 0;
	if (!d)
		return -1;
	for (size_t i = 0; i < a->context_count; i++) {
		const char *key = a->keys[i];
		const char *vb = context_or_default(b, key);

		if (vb && !strcmp(a->values[i], vb))
			continue;
		d[*count] = (struct context_diff){
			key, a->values[i], vb ? vb : "", context_diff_kind(key)
		};
		if (!vb && d[*count].kind == CONTEXT_DIFF_BLOCKING)
			d[*count].kind = CONTEXT_DIFF_INFO;
		if (d[*count].kind == CONTEXT_DIFF_BLOCKING)
			blocking++;
		(*count)++;
	}
	for (size_t i = 0; i < b->context_count; i++) {
		const char *key = b->keys[i];

		const char *va = context_or_default(a, key);

		if (va && (rundir_context(a, key) || !strcmp(va, b->values[i])))
			continue;
		d[*count] = (struct context_diff){
			key, "", b->values[i], context_diff_kind(key)
		};
		if (d[*count].kind == CONTEXT_DIFF_BLOCKING)
			d[*count].kind = CONTEXT_DIFF_INFO;
		(*count)++;
	}
	return blocking;
}

/* Whether every run writes key, so that a run without it is older. */
static int key_written_by_every_run(const struct context_key *key)
{
	return key->written == KEY_BY_MACHINE || key->written == KEY_BY_RUN;
}

void context_comparison_unrecorded(const struct run_dir *a,
				   const struct run_dir *b, char *buf,
				   size_t len)
{
	*buf = '\0';
	for (size_t i = 0; i < context_key_count; i++) {
		const char *key = context_keys[i].name;
		int in_a = rundir_context(a, key) != NULL;
		int in_b = rundir_context(b, key) != NULL;

		if (!(context_keys[i].roles & KEY_COMPARISON) || (in_a && in_b) || (!a->context_count && !a->from_json) ||
		    (!b->context_count && !b->from_json))
			continue;
		/*
		 * A key written only when a run asks for it (a suite, a
		 * command) is absent from both when neither asked: nothing
		 * went unchecked.
		 */
		if (!in_a && !in_b && !key_written_by_every_run(&context_keys[i]))
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s (%s)",
			 *buf ? ", " : "", key,
			 !in_a && !in_b ? "neither run" : in_a ? "not B" : "not A");
	}
}
