/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.h - what a benchmark is, and the list of them.
 *
 * A benchmark is a static table entry. It either lets the harness time
 * it (run(): perform `iterations` operations between two counter
 * reads) or times itself (measure(): fill n samples in its own unit,
 * e.g. ticks taken in the kernel, and describe that unit in timer()).
 * valid() and setup() may refuse with a reason, which is reported
 * instead of a result ("cannot run here: why").
 */
#ifndef SMAPBENCH_REGISTRY_H
#define SMAPBENCH_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

/* One self-timed sample: the total over `iterations` operations. */
struct bench_sample {
	uint64_t value;
	uint64_t iterations;
	uint32_t flags;
	/*
	 * Parts of the sample the benchmark had to take again (an interrupt
	 * that landed on another task, pages that went away): counted per
	 * result, reported by the suite.
	 */
	uint32_t repeats;
};

#define BENCH_SAMPLE_CLAMPED	(1U << 0) /* fewer iterations than asked */
#define BENCH_SAMPLE_PREEMPTED	(1U << 1) /* the thread was switched out */
/*
 * value holds the magnitude of a negative total: a paired difference
 * (bpf overhead rows) where the base loop took longer than the op.
 */
#define BENCH_SAMPLE_NEGATIVE	(1U << 2)

/* The unit a self-timed benchmark reports in. */
struct bench_timer {
	const char *counter;	/* e.g. "kmod-tsc" */
	const char *unit;	/* "ticks", "cycles" or "ns" */
	double hz;		/* units per second, 0 if unknown */
};

/*
 * What a row is for when two boots are compared (each suite says it of
 * its rows): the effect the suite measures is in the row, or it is not
 * and the row shows what else moved: a base never reaches the code that
 * holds the effect (user space alone), a control reaches it and runs
 * none of the effect. The syscall suite: base, control, or a row with
 * STAC/CLAC inside.
 */
enum bench_role {
	BENCH_ROLE_UNSET,	/* the suite does not say (kmod, bpf) */
	BENCH_ROLE_BASE,
	BENCH_ROLE_CONTROL,
	BENCH_ROLE_EFFECT,
};

struct benchmark {
	const char *name;	/* suite/op[/variant][/size][/batch] */
	const char *suite;	/* "syscall", "kmod", ... */
	const char *op;
	const char *variant;	/* "none" when there is none */
	uint32_t size;		/* bytes per operation, 0 if n/a */
	uint32_t batch;		/* accesses per STAC/CLAC pair, 0 if n/a */
	enum bench_role role;
	const void *arg;	/* family-private parameters */
	const char *summary;

	/* 0 when it can run here, else -1 and why. Optional. */
	int (*valid)(const struct benchmark *b, char *why, size_t whylen);
	/* Allocate per-run state; 0, or -1 and why. Optional. */
	int (*setup)(const struct benchmark *b, void **state, char *why,
		     size_t whylen);
	void (*teardown)(const struct benchmark *b, void *state);

	/* Harness-timed: do `iterations` operations; 0 or -errno. */
	int (*run)(void *state, uint64_t iterations);
	/* Why the last run() failed, in words, or NULL: strerror. Optional. */
	const char *(*failure)(void *state);

	/* Self-timed: n samples of `iterations` each; 0 or -1 and why. */
	int (*measure)(void *state, uint64_t iterations, size_t n,
		       struct bench_sample *out, char *why, size_t whylen);
	void (*timer)(void *state, struct bench_timer *timer);

	uint64_t max_iterations;	/* per sample; 0: no limit */
	double max_sample_seconds;	/* per sample; 0: no limit */
	int extended;			/* left out of --quick runs */
	int full_only;			/* run by --full only: left out by default */
	int headline;			/* a row a reader looks at first */
	/*
	 * Benchmarks with the same group run next to each other in every
	 * repetition, in a palindrome (A B .. B A): the within-run figures
	 * that subtract one from another (inline - nopad) then see the same
	 * machine state, and a linear drift cancels. NULL: on its own.
	 */
	const char *group;
};

struct registry {
	const struct benchmark **items;
	const char **families;	/* family of items[i], NULL if none */
	size_t count, capacity;
};

int registry_add_table(struct registry *r, const struct benchmark *table,
		       size_t n);
/* The same, naming the family the benchmarks belong to. */
int registry_add_family(struct registry *r, const char *family,
			const struct benchmark *table, size_t n);
/* Drop the benchmarks marked extended (a --quick run). */
void registry_drop_extended(struct registry *r);
/* Drop the benchmarks only a --full sweep runs (the default sweep). */
void registry_drop_full_only(struct registry *r);
/* Keep the benchmarks of one suite ("all" keeps everything). */
void registry_keep_suite(struct registry *r, const char *suite);
/*
 * Keep the benchmarks whose name matches a POSIX extended regular
 * expression. 0, or -1 with the regcomp() message in err.
 */
int registry_keep_matching(struct registry *r, const char *regex,
			   char *err, size_t errlen);
const struct benchmark *registry_find(const struct registry *r,
				      const char *name);
void registry_free(struct registry *r);

#endif /* SMAPBENCH_REGISTRY_H */
