/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catalogue.h - what the run data holds, once: every context key a run
 * records with its roles (which machine it was, whether a comparison
 * needs it equal, whether it differs between two boots by design,
 * whether report.md shows it, whether a run must have it), its unit and
 * who writes it; every column of results.csv, census.csv, table.csv,
 * workload.csv and phases.csv, and every key of pair-fit.csv, in the
 * order they are written, with what their readers require. Whoever asks
 * what a key or a column is for reads these tables, never a list of
 * names of its own;
 * docs/schema.md describes the same entries, and a unit test
 * (test_run_catalogue) holds the two together.
 *
 * Adding a context key is one entry here and one row of docs/schema.md.
 */
#ifndef SMAPBENCH_RUNDATA_CATALOGUE_H
#define SMAPBENCH_RUNDATA_CATALOGUE_H

#include <stddef.h>

struct run_dir;

/* The roles of a context key (struct context_key's roles). */
#define KEY_MACHINE	(1U << 0) /* which machine: "the same machine" needs it equal */
#define KEY_COMPARISON	(1U << 1) /* compare refuses two runs that differ in it, unless --force */
#define KEY_DIFFERS	(1U << 2) /* differs between two boots of one machine by design */
#define KEY_SHOWN	(1U << 3) /* in report.md's context table */
#define KEY_REQUIRED	(1U << 4) /* import and table refuse a run without it */
#define KEY_ROLE_COUNT	5

/* Who writes a key: every run, or only some. */
enum key_writer {
	KEY_BY_NONE,		/* no entry says it: a missing writer */
	KEY_BY_MACHINE,		/* run_context_collect(): every run, `info`, the census */
	KEY_BY_RUN,		/* smapbench run itself: every run */
	KEY_BY_KMOD,		/* the kmod suite, in a run that asks for it */
	KEY_BY_BPF,		/* the bpf suite, in a run that asks for it */
	KEY_BY_COMMAND,		/* a run with --command */
	KEY_BY_INTERRUPTION,	/* an interrupted run only */
	KEY_BY_OLDER,		/* runs of an older smapbench: read, no longer written */
	KEY_BY_COUNT
};

/*
 * One context key. A name ending in "*" is a family: every key with that
 * prefix and at least one more character (vulnerability_*).
 */
struct context_key {
	const char *name;
	unsigned roles;		/* KEY_* */
	enum key_writer written;
	const char *unit;	/* "" for text, flags and counts */
};

extern const struct context_key context_keys[];
extern const size_t context_key_count;

/* The entry of key, or NULL for a key the catalogue does not know. */
const struct context_key *context_key_find(const char *key);
/* Whether key has every role of roles (0 for an unknown key). */
int context_key_is(const char *key, unsigned roles);
/* "machine", ..., "required": the word docs/schema.md uses for role bit. */
const char *context_key_role_name(unsigned role);
/* "machine", "run", "kmod", "bpf", "command", "interrupted", "older". */
const char *context_key_writer_name(enum key_writer w);

/*
 * Whether runs a and b ran on the same machine: every KEY_MACHINE key
 * recorded by both, with one value. 1, or 0 with why ("cpu_family: 26
 * against 25", "b does not record machine_id_hash") in why.
 */
int context_same_machine(const struct run_dir *a, const struct run_dir *b,
			 char *why, size_t len);

/*
 * Two runs' contexts side by side (catalogue_compare.c), the roles
 * deciding what a difference means: it blocks a comparison
 * (KEY_COMPARISON: another machine, CPU, microcode, kernel, counter or
 * kind of virtualisation, the numbers would not be comparable), it is
 * expected (KEY_DIFFERS: command line, SMAP state, date, ...), or it is
 * for the user to judge (everything else, e.g. governor).
 */
enum context_diff_kind {
	CONTEXT_DIFF_BLOCKING,
	CONTEXT_DIFF_EXPECTED,
	CONTEXT_DIFF_INFO,
};

struct context_diff {
	const char *key;
	const char *a, *b;	/* "" when the run did not record it */
	enum context_diff_kind kind;
};

/* What a difference in key means, from its roles. */
enum context_diff_kind context_diff_kind(const char *key);
/*
 * Lists every context key whose value differs (or that only one run
 * has) into a malloc'ed array *diffs. Returns the number of blocking
 * differences; -1 on no memory. A key missing from one run only (e.g. a
 * JSON file's short context) never blocks; a run without `status` was
 * written complete.
 */
int context_diffs(const struct run_dir *a, const struct run_dir *b,
		  struct context_diff **diffs, size_t *count);
/*
 * The KEY_COMPARISON keys that a or b did not record, so that whether
 * they match was not checked: "key (not B), ..." into buf, "" when none
 * (nor when a run records no context at all: that is said apart). A key
 * that only some runs write (a suite's, a command's) is not named when
 * neither run has it.
 */
void context_comparison_unrecorded(const struct run_dir *a,
				   const struct run_dir *b, char *buf,
				   size_t len);

/* ---------------------------------------------------------- columns */

/* The roles of a column (struct file_column's roles). */
#define COLUMN_REQUIRED	(1U << 0) /* its loader refuses a file without it */
#define COLUMN_ROW_KEY	(1U << 1) /* with the others so marked, names the row */
#define COLUMN_TEXT	(1U << 2) /* text from the runs: csv_field_text() */

struct file_column {
	const char *name;
	unsigned roles;		/* COLUMN_* */
	const char *unit;	/* "", or e.g. "ns", "count", "unit" (the row's unit column) */
	const char *context_key;	/* table.csv: the context key it shows */
};

/*
 * A CSV file of run data: its columns in the order they are written; of
 * a key,value file (pair-fit.csv), its keys in that order.
 */
struct file_kind {
	const char *file;	/* "results.csv", ..., "workload.csv" */
	const struct file_column *columns;
	size_t count;
};

extern const struct file_kind file_results, file_census, file_table,
	file_pair_fit, file_workload, file_phases;
/*
 * Every kind above, then NULL: the one list that file_kind_find() and
 * `smapbench info --catalogue` go through. A kind left out of it would be
 * found by neither (stage 10 checks each kind defined is listed).
 */
#define FILE_KIND_COUNT 6
extern const struct file_kind *const file_kinds[FILE_KIND_COUNT + 1];
/* The kind of a file name, or NULL. */
const struct file_kind *file_kind_find(const char *file);
/* The column's index in kind, or -1. */
int file_column_index(const struct file_kind *kind, const char *name);
struct csv_writer;
/* Its header row: the names in order, as written by each writer of kind. */
void file_header_write(struct csv_writer *w, const struct file_kind *kind);

#endif /* SMAPBENCH_RUNDATA_CATALOGUE_H */
