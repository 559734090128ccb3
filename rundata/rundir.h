/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rundir.h - a run directory (docs/schema.md): loading one into memory,
 * and writing one.
 *
 * A run is read from results.csv + samples.csv + context.csv, or, when
 * the directory has no results.csv (or the path is a .json file), from a
 * Google Benchmark JSON file: then every benchmark's values are the
 * real_time of its repetitions, in nanoseconds, and the context is the
 * JSON "context" object (host_name is read as host).
 *
 * The tools that compare, plot and report runs work on this in-memory
 * form only; none of them parses a file itself.
 */
#ifndef SMAPBENCH_RUNDIR_H
#define SMAPBENCH_RUNDIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rundata/atomic_dir.h"

/* Where a benchmark's values came from. */
enum run_values {
	RUN_VALUES_SAMPLES,	/* raw samples from samples.csv */
	RUN_VALUES_REPETITIONS,	/* one value per repetition (JSON) */
	RUN_VALUES_NONE,	/* aggregates only */
};

struct run_bench {
	char *name;		/* suite/op[/variant][/size][/batch] */
	char *suite, *op, *variant, *unit, *counter, *flags;
	unsigned long size, batch;
	double median, min, mean, stddev, cv, p5, p95;
	/*
	 * The mean of the repetition medians and its 95% t interval over
	 * the repetitions, computed from the values when there are any
	 * (whatever results.csv says), else as results.csv records them
	 * (schema 2; the median and no interval for older runs).
	 */
	double center, ci_low, ci_high;
	size_t repetitions;	/* among the values; 0 without values */
	double median_ns;	/* NAN when unknown */
	/*
	 * results.csv's operations a sample times and samples over every
	 * repetition: what one repetition took (0 when not recorded, JSON).
	 */
	unsigned long iterations, samples;
	/*
	 * Per-operation values, in unit, grouped by repetition in ascending
	 * order and ascending within each (sorted in place as loaded: a
	 * repetition's median is then read where it is, with no copy).
	 */
	double *values;
	/*
	 * Per value: its repetition (samples.csv's column, at most
	 * RUNDIR_MAX_REPETITION; 0 for every sample of a file without it;
	 * for JSON each value is its own repetition, numbered in file
	 * order). 32 bits: 12 bytes a sample with its value.
	 */
	uint32_t *repetition;
	size_t count;
	enum run_values source;
	unsigned long line;	/* of results.csv; 0 for JSON */
};

struct run_dir {
	char *path;		/* as given */
	char *label;		/* last path component, for titles */
	int from_json;		/* read from Google Benchmark JSON */
	int has_context_file;	/* a run directory with context.csv */
	size_t aggregates_only;	/* JSON benchmarks with a median but no repetitions */
	size_t orphan_samples;	/* samples.csv rows of names results.csv lacks */
	struct run_bench *bench;	/* in file order */
	size_t count;
	char **keys, **values;	/* context, in file order */
	size_t context_count;
	struct run_bench **sorted;	/* by name, for rundir_find() */
};

/*
 * Benchmark names longer than this are refused: no real one comes close,
 * and every report would carry them many times.
 */
#define RUNDIR_MAX_NAME		256
#define RUNDIR_MAX_NAME_TEXT	"256"
/* The largest repetition index samples.csv may give (run caps at 10000). */
#define RUNDIR_MAX_REPETITION	1000000UL

/*
 * The version of this schema (docs/schema.md), context.csv's
 * schema_version; a run without that key is version 1. Version 2 added
 * results.csv's center and repetitions, and made ci_low, ci_high the
 * center's interval over the repetitions.
 */
#define RUN_SCHEMA_VERSION	2

/*
 * Returns 0, or -1 with a message naming the file (and line) in err.
 * Suspect input is refused, not skipped: a timing that is not a finite
 * number above 0 (only the bpf "overhead" rows, differences, may be 0
 * or negative),
 * a benchmark name that is empty, too long or holds control characters,
 * a name twice, a JSON entry without a usable real_time.
 */
int rundir_load(const char *path, struct run_dir *run, char *err,
		size_t errlen);
void rundir_free(struct run_dir *run);
/*
 * Only the context.csv of dir, for a directory that is no run but keeps
 * one (the census of a command): 0, or -1 with the reason in err, a
 * missing context.csv among them. rundir_context() reads it, and
 * rundir_free() frees it.
 */
int rundir_load_context(const char *dir, struct run_dir *run, char *err,
			size_t errlen);

/*
 * context.csv (the header key,value, then a key and its value per row, a
 * key at most once) from f into run's context: the one reader of that
 * file, for a run directory and for an archive's copy (import). name
 * heads every message ("NAME:LINE: key K appears twice ..."). 0, or -1
 * with err; rundir_free() frees what was read either way.
 */
int rundir_read_context(FILE *f, const char *name, struct run_dir *run,
			char *err, size_t errlen);

/* Context value, or NULL when the run did not record the key. */
const char *rundir_context(const struct run_dir *run, const char *key);
/*
 * A key of keys[0..n) that appears twice, found by sorting (a crafted
 * file of 100 000 keys must not take minutes): 0 with the indices of its
 * first and second appearance (of all repeats, the one seen again
 * earliest), -1 when every key differs, -2 out of memory.
 */
int rundir_find_repeat(const char *const *keys, size_t n, size_t *first,
		       size_t *again);
/* Context value, or fallback when missing or empty. */
const char *rundir_context_or(const struct run_dir *run, const char *key,
			      const char *fallback);
struct run_bench *rundir_find(const struct run_dir *run, const char *name);
/*
 * NULL for a complete run: context.csv's status is "complete", or it has
 * none (runs from before the key were kept whole or not at all). Else
 * "interrupted" (a stop kept the benchmarks that finished, with fewer
 * repetitions than asked, and some not at all), or "unknown" for any
 * other status, which no smapbench writes.
 */
const char *rundir_incomplete(const struct run_dir *run);

/*
 * Nanoseconds per unit of the benchmark's values: 1 for ns, median_ns /
 * median when the run recorded both, 1e9 / tsc_hz for ticks and cycles
 * otherwise; NAN when none of these is known.
 */
double rundir_ns_per_unit(const struct run_dir *run,
			  const struct run_bench *bench);

/* ------------------------------------------------------------ writing */

/*
 * A run directory is written as a whole: everything goes into
 * PARENT/.tmp-XXXXXX, renamed to its final name only when complete
 * (taking NAME-2, NAME-3, ... when NAME exists, never replacing); on
 * failure or interruption the temporary directory is removed, so a
 * reader never sees half a run. It carries the marker of atomic_dir.h
 * ("smapbench run"): compare and report never write over it.
 */
struct run_dir_writer {
	char parent[PATH_MAX];
	char final[PATH_MAX + 32];	/* after run_dir_commit */
	struct atomic_dir dir;
};

/* Create parent (and missing ancestors) and the temporary directory. */
int run_dir_create(struct run_dir_writer *d, const char *parent, char *err,
		   size_t errlen);
/* Rename to parent/name (adding -2, -3, ... if taken). */
int run_dir_commit(struct run_dir_writer *d, const char *name, char *err,
		   size_t errlen);
/* Remove the temporary directory and everything in it. */
void run_dir_abort(struct run_dir_writer *d);
/* The longest run directory name run_dir_name() makes. */
#define RUN_DIR_MAX_NAME 100
/*
 * "<host>-<YYYYmmdd-HHMMSS>-<state>": of the host only [A-Za-z0-9._-]
 * (every other byte becomes _), cut to fit RUN_DIR_MAX_NAME, never
 * starting with - or . (docs/bad-input.md).
 */
void run_dir_name(char *buf, size_t len, const char *host,
		  const char *state);
/*
 * The same name for the moment date gives (context.csv's date,
 * "YYYY-mm-ddTHH:MM:SSZ"): what `smapbench run` names a run, and what
 * `smapbench import` names it again. 0, or -1 when date is not that.
 */
int run_dir_name_dated(char *buf, size_t len, const char *host,
		       const char *date, const char *state);

#endif /* SMAPBENCH_RUNDIR_H */
