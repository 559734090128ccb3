/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rundir_internal.h - what the files that load a run (rundir.c,
 * rundir_build.c, rundir_check.c, rundir_csv.c, rundir_json.c) share.
 * Only pointers to rundir.h's structures here, so that rundir.h need not
 * be included.
 */
#ifndef SMAPBENCH_RUNDIR_INTERNAL_H
#define SMAPBENCH_RUNDIR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

struct run_dir;
struct run_bench;

/* ---- building the run (rundir_build.c) ---- */

/* dir/file, allocated; NULL on no memory. */
char *rundir_join_path(const char *dir, const char *file);
int rundir_is_file(const char *path);
/* A copy of s, or of "" for NULL; NULL on no memory. */
char *rundir_dup_or_empty(const char *s);
/* A CSV cell as a count: 0 when empty or not one. */
unsigned long rundir_parse_ulong(const char *s);
/* The last component of path, for titles; NULL on no memory. */
char *rundir_make_label(const char *path);
/* Fill suite/op/variant/size/batch from the name when columns are absent. */
int rundir_split_name(struct run_bench *b);
/* The index rundir_find() searches. 0, or -1 on no memory. */
int rundir_build_index(struct run_dir *run);
/* A repetition index: decimal digits only, at most RUNDIR_MAX_REPETITION. */
int rundir_parse_repetition(const char *text, uint32_t *rep);
/* One more value of b and its repetition, room in *cap. 0, or -1. */
int rundir_push_value(struct run_bench *b, size_t *cap, double v,
		      uint32_t repetition);
/* Every benchmark's room for values cut to what it holds. */
void rundir_trim_values(struct run_dir *run);
/* A new benchmark, zeroed, room in *cap; NULL on no memory. */
struct run_bench *rundir_add_bench(struct run_dir *run, size_t *cap);
/* One more context key, room in *cap. 0, or -1 on no memory. */
int rundir_add_context(struct run_dir *run, size_t *cap, const char *key,
		       const char *value);
/* Each benchmark's center and interval from its repetitions. 0, or -1. */
int rundir_summarise_repetitions(struct run_dir *run);

/* ---- what a run refuses (rundir_check.c) ---- */

/* NULL when a benchmark name is sane, else what is wrong with it. */
const char *rundir_name_problem(const char *name);
/* NULL when b's other text columns are sane, else what (and *column, *value). */
const char *rundir_columns_problem(const struct run_bench *b,
				   const char **column, const char **value);
/* A difference (bpf overhead): its values may be 0 or negative. */
int rundir_is_difference(const struct run_bench *b);
int rundir_entry_is_difference(const char *op, const char *name);
/* NULL when v (read from text) is a timing, else what is wrong with it. */
const char *rundir_timing_problem(const char *text, double v,
				  int difference);
/* What rundir_timing_problem() holds a timing to, for its messages. */
#define TIMING_RULE "a timing is a finite number above 0; a difference row's any finite number"
/* A name twice would make every lookup ambiguous: 0, or -1 with err. */
int rundir_check_unique(const struct run_dir *run, const char *path,
			char *err, size_t errlen);

/* ---- the files of a run (rundir_csv.c, rundir_json.c) ---- */

/* dir/context.csv when there is one. 0, or -1 with err. */
int rundir_load_context_csv(struct run_dir *run, const char *dir, char *err,
			    size_t errlen);
int rundir_load_results_csv(struct run_dir *run, const char *path,
			    char *err, size_t errlen);
int rundir_load_samples_csv(struct run_dir *run, const char *path,
			    char *err, size_t errlen);
int rundir_load_gbench_json(struct run_dir *run, const char *path,
			    char *err, size_t errlen);

#endif /* SMAPBENCH_RUNDIR_INTERNAL_H */
