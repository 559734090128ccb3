// SPDX-License-Identifier: GPL-2.0
/*
 * rundir_build.c - the in-memory run as the loaders of rundir_csv.c and
 * rundir_json.c build it: paths, numbers, benchmarks, values, context,
 * the index by name and the summary of each benchmark's repetitions.
 */
#include "rundata/rundir_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "measure/stats.h"
#include "rundata/csv.h"
#include "rundata/rundir.h"

char *rundir_join_path(const char *dir, const char *file)
{
	size_t len = strlen(dir) + strlen(file) + 2;
	char *p = malloc(len);

	if (p)
		snprintf(p, len, "%s/%s", dir, file);
	return p;
}

int rundir_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *rundir_dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/*
 * A count from a file, 0 when it is none: converting a double outside
 * unsigned long's range is undefined, and an imported results.csv may hold
 * 1e300.
 */
unsigned long rundir_parse_ulong(const char *s)
{
	double v = csv_number(s);

	return isfinite(v) && v >= 0 && v < 0x1p64 ? (unsigned long)v : 0;
}

/*
 * Label: the last non-empty path component, without a .json suffix; for
 * DIR/results.json the directory's name, which names the run.
 */
char *rundir_make_label(const char *path)
{
	size_t len = strlen(path);
	const char *start;
	char *label;

	while (len > 1 && path[len - 1] == '/')
		len--;
	start = path + len;
	while (start > path && start[-1] != '/')
		start--;
	if ((size_t)(path + len - start) == 12 && !strncmp(start, "results.json", 12) &&
	    start > path + 1 &&
	    strncmp(path, "./results.json", 14) && strncmp(path, "../results.json", 15)) {
		len = (size_t)(start - path) - 1;
		while (len > 1 && path[len - 1] == '/')
			len--;
		start = path + len;
		while (start > path && start[-1] != '/')
			start--;
	}
	label = strndup(start, (size_t)(path + len - start));
	if (label && strlen(label) > 5 &&
	    !strcmp(label + strlen(label) - 5, ".json"))
		label[strlen(label) - 5] = '\0';
	return label;
}


/* Fill suite/op/variant/size/batch from the name when columns are absent. */
int rundir_split_name(struct run_bench *b)
{
	char *copy = strdup(b->name), *part[5] = { 0 }, *save = NULL;
	int n = 0;

	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, "/", &save); t && n < 5;
	     t = strtok_r(NULL, "/", &save))
		part[n++] = t;
	if (n >= 2 && (!strcmp(part[0], "kmod") || !strcmp(part[0], "syscall") ||
		       !strcmp(part[0], "bpf"))) {
		b->suite = strdup(part[0]);
		b->op = strdup(part[1]);
		b->variant = strdup(n >= 3 ? part[2] : "none");
		b->size = n >= 4 ? rundir_parse_ulong(part[3]) : 0;
		b->batch = n >= 5 ? rundir_parse_ulong(part[4]) : 0;
	} else {
		b->suite = strdup("");
		b->op = strdup(b->name);
		b->variant = strdup("");
	}
	free(copy);
	return b->suite && b->op && b->variant ? 0 : -1;
}

static int by_name(const void *a, const void *b)
{
	const struct run_bench *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int rundir_build_index(struct run_dir *run)
{
	run->sorted = malloc((run->count ? run->count : 1) *
			     sizeof(*run->sorted));
	if (!run->sorted)
		return -1;
	for (size_t i = 0; i < run->count; i++)
		run->sorted[i] = &run->bench[i];
	qsort(run->sorted, run->count, sizeof(*run->sorted), by_name);
	return 0;
}

struct run_bench *rundir_find(const struct run_dir *run, const char *name)
{
	size_t lo = 0, hi = run->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, run->sorted[mid]->name);

		if (!c)
			return run->sorted[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* A repetition index: decimal digits only, at most RUNDIR_MAX_REPETITION. */
int rundir_parse_repetition(const char *text, uint32_t *rep)
{
	unsigned long value;
	char *end;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	value = strtoul(text, &end, 10);
	if (errno || *end || value > RUNDIR_MAX_REPETITION)
		return -1;
	*rep = (uint32_t)value;
	return 0;
}

/* b's values and repetitions made room for cap of each. 0, or -1. */
static int resize_values(struct run_bench *b, size_t cap)
{
	double *nv = realloc(b->values, cap * sizeof(*nv));
	uint32_t *nr;

	if (!nv)
		return -1;
	b->values = nv;
	nr = realloc(b->repetition, cap * sizeof(*nr));
	if (!nr)
		return -1;
	b->repetition = nr;
	return 0;
}

/*
 * Room grows by an eighth, not double: a samples.csv of one benchmark
 * then leaves at most an eighth of its 12 bytes a sample unused, until
 * rundir_trim_values() gives it back.
 */
int rundir_push_value(struct run_bench *b, size_t *cap, double v,
		      uint32_t repetition)
{
	if (b->count == *cap) {
		size_t ncap = *cap + *cap / 8 + 16;

		if (resize_values(b, ncap))
			return -1;
		*cap = ncap;
	}
	b->repetition[b->count] = repetition;
	b->values[b->count++] = v;
	return 0;
}

/* Every benchmark's room for values cut to what it holds. */
void rundir_trim_values(struct run_dir *run)
{
	for (size_t k = 0; k < run->count; k++)
		if (run->bench[k].count)
			resize_values(&run->bench[k], run->bench[k].count);
}

struct run_bench *rundir_add_bench(struct run_dir *run, size_t *cap)
{
	if (run->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct run_bench *nb = realloc(run->bench, ncap * sizeof(*nb));

		if (!nb)
			return NULL;
		run->bench = nb;
		*cap = ncap;
	}
	memset(&run->bench[run->count], 0, sizeof(run->bench[0]));
	return &run->bench[run->count++];
}

int rundir_add_context(struct run_dir *run, size_t *cap, const char *key,
		       const char *value)
{
	if (run->context_count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		char **nk = realloc(run->keys, ncap * sizeof(*nk));

		if (!nk)
			return -1;
		run->keys = nk;
		char **nv = realloc(run->values, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		run->values = nv;
		*cap = ncap;
	}
	run->keys[run->context_count] = strdup(key);
	run->values[run->context_count] = strdup(value);
	if (!run->keys[run->context_count] || !run->values[run->context_count]) {
		free(run->keys[run->context_count]);
		free(run->values[run->context_count]);
		return -1;
	}
	run->context_count++;
	return 0;
}

/*
 * Each benchmark's values sorted by repetition, then its center and
 * interval from them, the one definition every reader of a run sees
 * (rundir.h). Sorted, the medians need no copy of the values, and room
 * for one per repetition only: at most RUNDIR_MAX_REPETITION + 1 from
 * samples.csv. 0, or -1 on no memory.
 */
int rundir_summarise_repetitions(struct run_dir *run)
{
	for (size_t k = 0; k < run->count; k++) {
		struct run_bench *b = &run->bench[k];
		double *medians;
		struct stats_interval iv;
		size_t reps = 1;

		if (!b->count)
			continue;
		stats_sort_by_repetition(b->values, b->repetition, b->count);
		for (size_t i = 1; i < b->count; i++)
			reps += b->repetition[i] != b->repetition[i - 1];
		medians = malloc(reps * sizeof(*medians));
		if (!medians)
			return -1;
		reps = stats_repetition_medians(b->values, b->repetition,
						b->count, medians, NULL);
		if (reps == (size_t)-1 ||
		    stats_mean_interval(medians, reps, STATS_CI_LEVEL, &iv)) {
			free(medians);
			return -1;
		}
		free(medians);
		b->repetitions = reps;
		b->center = iv.estimate;
		b->ci_low = iv.low;
		b->ci_high = iv.high;
	}
	return 0;
}
