// SPDX-License-Identifier: GPL-2.0
/* headline.c - the headline benchmarks; see headline.h. */
#include "analysis/headline.h"

#include <stdlib.h>
#include <string.h>

#include "measure/registry.h"
#include "suites/suite.h"

/*
 * The rows the families mark (struct benchmark's headline; kmod's from
 * the catalogue), kmod first, then syscall, then bpf, each in its
 * registration order. Built once.
 */
static int suite_rank(const char *suite)
{
	static const char *const order[] = { "kmod", "syscall", "bpf" };
	int i;

	for (i = 0; i < 3 && strcmp(suite, order[i]); i++)
		;
	return i;
}

int headline_run_row(const char *suite)
{
	return !strcmp(suite, "command");
}

const struct bench_key *headline_benchmarks(void)
{
	static struct bench_key *keys;
	static const struct bench_key none = { NULL, NULL, NULL, 0, 0 };
	struct registry reg = { 0 };
	size_t n = 0;

	if (keys)
		return keys;
	if (suite_register_all(&reg) ||
	    !(keys = calloc(reg.count + 1, sizeof(*keys)))) {
		registry_free(&reg);
		return &none;
	}
	for (int rank = 0; rank <= 3; rank++)
		for (size_t i = 0; i < reg.count; i++) {
			const struct benchmark *b = reg.items[i];

			if (b->headline && suite_rank(b->suite) == rank)
				keys[n++] = (struct bench_key){ b->suite, b->op,
								b->variant, b->size,
								b->batch };
		}
	registry_free(&reg);
	return keys;
}
