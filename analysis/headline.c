// SPDX-License-Identifier: GPL-2.0
/* headline.c - the headline benchmarks; see headline.h. */
#include "analysis/headline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/run_input.h"
#include "measure/registry.h"
#include "measure/runner.h"
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

/* The headline rows of run, as run-bench.sh shows them after a run. */
void headline_print(FILE *f, const struct run_dir *run)
{
	const struct bench_key *k = headline_benchmarks();
	int noisy = 0;

	for (; k->suite; k++) {
		const struct run_bench *b = bench_match(run, k);
		double per_ns;

		if (!b)
			continue;
		/* the median's ns/unit factor converts the center too */
		per_ns = b->median > 0 ? b->median_ns / b->median : NAN;
		fprintf(f, "  %-36s %9.1f ns  [%.1f .. %.1f]  %s\n", b->name,
			b->center * per_ns, b->ci_low * per_ns,
			b->ci_high * per_ns, b->flags);
		noisy |= strstr(b->flags, "noisy") != NULL;
	}
	/* the flag is read here, so it is said here what it means */
	if (noisy)
		fprintf(f, "  noisy: half of the samples lie more than %.0f%% from the median (docs/schema.md); outliers alone do not set it\n",
			RESULT_NOISY_MAD_SHARE * 100);
}

int headline_print_run(const char *who, const char *path)
{
	struct run_dir run;

	if (run_input_load(who, path, NULL, &run))
		return 1;
	headline_print(stdout, &run);
	rundir_free(&run);
	return 0;
}
