// SPDX-License-Identifier: GPL-2.0
/* rundir.c - load a run directory or a Google Benchmark JSON file. */
#include "rundata/rundir.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "measure/stats.h"
#include "rundata/csv.h"
#include "rundata/json.h"

static char *join_path(const char *dir, const char *file)
{
	size_t len = strlen(dir) + strlen(file) + 2;
	char *p = malloc(len);

	if (p)
		snprintf(p, len, "%s/%s", dir, file);
	return p;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/* Number from a CSV field; NAN for an empty or malformed one. */
static double parse_double(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end)
		return NAN;
	return v;
}

static unsigned long parse_ulong(const char *s)
{
	double v = parse_double(s);

	return isfinite(v) && v >= 0 ? (unsigned long)v : 0;
}

/*
 * Label: the last non-empty path component, without a .json suffix; for
 * DIR/results.json the directory's name, which names the run.
 */
static char *make_label(const char *path)
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

/* ------------------------------------------------------------ names */

/* Fill suite/op/variant/size/batch from the name when columns are absent. */
static int split_name(struct run_bench *b)
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
		b->size = n >= 4 ? parse_ulong(part[3]) : 0;
		b->batch = n >= 5 ? parse_ulong(part[4]) : 0;
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

static int build_index(struct run_dir *run)
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
static int parse_repetition(const char *text, uint32_t *rep)
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
 * trim_values() gives it back.
 */
static int push_value(struct run_bench *b, size_t *cap, double v,
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
static void trim_values(struct run_dir *run)
{
	for (size_t k = 0; k < run->count; k++)
		if (run->bench[k].count)
			resize_values(&run->bench[k], run->bench[k].count);
}

static struct run_bench *add_bench(struct run_dir *run, size_t *cap)
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

static int add_context(struct run_dir *run, size_t *cap, const char *key,
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

/* ------------------------------------------------------- validation */

/* NULL when name can be a benchmark's, else what is wrong with it. */
static const char *name_problem(const char *name)
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
static const char *columns_problem(const struct run_bench *b,
				   const char **column, const char **value)
{
	const char *const text[] = { b->suite, b->op, b->variant, b->unit,
				     b->counter, b->flags };
	static const char *const names[] = { "suite", "op", "variant", "unit",
					     "counter", "flags" };

	for (size_t i = 0; i < sizeof(text) / sizeof(*text); i++) {
		const char *why = *text[i] ? name_problem(text[i]) : NULL;

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

static int is_difference(const struct run_bench *b)
{
	return op_is_difference(b->suite, b->op, strlen(b->op));
}

/* The same for a JSON entry: its "op", else the op part of its name. */
static int entry_is_difference(const char *op, const char *name)
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
static const char *timing_problem(const char *text, double v,
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

#define TIMING_RULE "a timing is a finite number above 0; a difference row's any finite number"

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
static int check_unique(const struct run_dir *run, const char *path,
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

/* ------------------------------------------------------- CSV run */

static int load_context_csv(struct run_dir *run, const char *dir, char *err,
			    size_t errlen)
{
	char *path = join_path(dir, "context.csv");
	struct csv_table t;
	size_t cap = 0;
	int kc, vc, rc = -1;

	if (!path)
		return -1;
	if (!is_file(path)) { /* compare says what it could not check */
		free(path);
		return 0;
	}
	run->has_context_file = 1;
	if (csv_table_load(path, &t, err, errlen)) {
		free(path);
		return -1;
	}
	kc = csv_table_column(&t, "key");
	vc = csv_table_column(&t, "value");
	if (kc < 0 || vc < 0) {
		snprintf(err, errlen, "%s: needs columns key,value", path);
		goto out;
	}
	/* a key twice could hide a mismatch from compare's check */
	if (t.count > 1) {
		const char **keys = malloc(t.count * sizeof(*keys));
		size_t first, again;
		int repeat;

		if (!keys) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < t.count; i++)
			keys[i] = csv_table_cell(&t, i, kc);
		repeat = rundir_find_repeat(keys, t.count, &first, &again);
		free(keys);
		if (repeat == 0) {
			snprintf(err, errlen, "%s:%lu: key %s appears twice "
				 "(first on line %lu)", path, csv_table_line(&t, again),
				 csv_table_cell(&t, again, kc), csv_table_line(&t, first));
			goto out;
		}
		if (repeat == -2) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	for (size_t i = 0; i < t.count; i++) {
		const char *key = csv_table_cell(&t, i, kc);

		if (add_context(run, &cap, key, csv_table_cell(&t, i, vc))) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	csv_table_free(&t);
	free(path);
	return rc;
}

static int load_results_csv(struct run_dir *run, const char *path,
			    char *err, size_t errlen)
{
	struct csv_table t;
	size_t cap = 0;
	int rc = -1;

	if (csv_table_load(path, &t, err, errlen))
		return -1;
	if (csv_table_column(&t, "name") < 0 ||
	    csv_table_column(&t, "median") < 0) {
		snprintf(err, errlen, "%s: needs at least columns name,median",
			 path);
		goto out;
	}
	for (size_t i = 0; i < t.count; i++) {
		struct run_bench *b = add_bench(run, &cap);
		const char *suite = csv_table_get(&t, i, "suite");
		const char *name = csv_table_get(&t, i, "name");
		const char *median = csv_table_get(&t, i, "median");
		const char *why = name_problem(name);
		const char *column, *value;

		if (!b)
			goto oom;
		if (why) {
			snprintf(err, errlen, "%s:%lu: the benchmark name %s", path,
				 csv_table_line(&t, i), why);
			goto out;
		}
		b->line = csv_table_line(&t, i);
		b->name = strdup(name);
		if (!b->name)
			goto oom;
		if (suite && csv_table_get(&t, i, "op")) {
			b->suite = strdup(suite);
			b->op = dup_or_empty(csv_table_get(&t, i, "op"));
			b->variant = dup_or_empty(csv_table_get(&t, i, "variant"));
			b->size = parse_ulong(csv_table_get(&t, i, "size"));
			b->batch = parse_ulong(csv_table_get(&t, i, "batch"));
			if (!b->suite || !b->op || !b->variant)
				goto oom;
		} else if (split_name(b)) {
			goto oom;
		}
		b->unit = dup_or_empty(csv_table_get(&t, i, "unit"));
		b->counter = dup_or_empty(csv_table_get(&t, i, "counter"));
		b->flags = dup_or_empty(csv_table_get(&t, i, "flags"));
		if (!b->unit || !b->counter || !b->flags)
			goto oom;
		if ((why = columns_problem(b, &column, &value))) {
			snprintf(err, errlen, "%s:%lu: %s: the %s '%.40s%s' %s",
				 path, csv_table_line(&t, i), b->name, column, value,
				 strlen(value) > 40 ? "..." : "", why);
			goto out;
		}
		b->median = parse_double(median);
		why = timing_problem(median, b->median, is_difference(b));
		if (why) {
			snprintf(err, errlen, "%s:%lu: %s: median '%s' %s (" TIMING_RULE ")",
				 path, csv_table_line(&t, i), b->name, median, why);
			goto out;
		}
		b->min = parse_double(csv_table_get(&t, i, "min"));
		b->mean = parse_double(csv_table_get(&t, i, "mean"));
		b->stddev = parse_double(csv_table_get(&t, i, "stddev"));
		b->cv = parse_double(csv_table_get(&t, i, "cv"));
		b->p5 = parse_double(csv_table_get(&t, i, "p5"));
		b->p95 = parse_double(csv_table_get(&t, i, "p95"));
		/* schema 1's ci_low, ci_high were of the pooled median: not kept */
		b->center = csv_table_get(&t, i, "center") ?
			    parse_double(csv_table_get(&t, i, "center")) : b->median;
		b->ci_low = b->ci_high = NAN;
		if (csv_table_get(&t, i, "center")) {
			b->ci_low = parse_double(csv_table_get(&t, i, "ci_low"));
			b->ci_high = parse_double(csv_table_get(&t, i, "ci_high"));
		}
		b->median_ns = parse_double(csv_table_get(&t, i, "median_ns"));
		b->source = RUN_VALUES_NONE;
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory reading %s", path);
out:
	csv_table_free(&t);
	return rc;
}

static int header_column(const struct csv_row *header, const char *name)
{
	for (unsigned i = 0; i < header->count; i++)
		if (!strcmp(header->fields[i], name))
			return (int)i;
	return -1;
}

/* Streamed, one record at a time: a samples.csv may hold millions. */
static int load_samples_csv(struct run_dir *run, const char *path,
			    char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct csv_row row = { 0 };
	unsigned long line = 0, start;
	unsigned columns;
	size_t *cap = NULL;
	int nc, vc, rc_col, rc = -1, got;
	struct run_bench *last = NULL;

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	got = csv_read_row(f, &row, &line);
	if (got <= 0) {
		snprintf(err, errlen, "%s: %s", path, got == -2 ?
			 "a header row longer than " CSV_ROW_MAX_TEXT : got ?
			 "malformed header row" : "empty file, no header");
		goto out;
	}
	columns = row.count;
	nc = header_column(&row, "name");
	vc = header_column(&row, "value");
	/* without it (an old file) every sample counts as repetition 0 */
	rc_col = header_column(&row, "repetition");
	if (nc < 0 || vc < 0) {
		snprintf(err, errlen, "%s: needs columns name,value", path);
		goto out;
	}
	cap = calloc(run->count ? run->count : 1, sizeof(*cap));
	if (!cap)
		goto oom;
	for (;;) {
		const char *name, *text, *why;
		struct run_bench *b;
		uint32_t rep = 0;
		double v;

		start = line + 1;
		got = csv_read_row(f, &row, &line);
		if (!got)
			break;
		if (got < 0 || row.count != columns) {
			snprintf(err, errlen, got == -2 ? "%s:%lu: a record longer "
				 "than " CSV_ROW_MAX_TEXT : got < 0 ?
				 "%s:%lu: malformed record" :
				 "%s:%lu: wrong number of fields", path, start);
			goto out;
		}
		name = row.fields[nc];
		text = row.fields[vc];
		/* Samples come grouped by name: look up only on a change. */
		b = last && !strcmp(last->name, name) ? last : rundir_find(run, name);
		last = b;
		if (!b) {	/* not in results.csv: nothing to attach to */
			run->orphan_samples++;
			continue;
		}
		v = parse_double(text);
		why = timing_problem(text, v, is_difference(b));
		if (why) {
			snprintf(err, errlen, "%s:%lu: %s: value '%s' %s (" TIMING_RULE ")",
				 path, start, b->name, text, why);
			goto out;
		}
		if (rc_col >= 0 && parse_repetition(row.fields[rc_col], &rep)) {
			snprintf(err, errlen, "%s:%lu: %s: repetition '%s' is not "
				 "an integer in [0, %lu]", path, start, b->name,
				 row.fields[rc_col], RUNDIR_MAX_REPETITION);
			goto out;
		}
		if (push_value(b, &cap[b - run->bench], v, rep))
			goto oom;
		b->source = RUN_VALUES_SAMPLES;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "cannot read %s", path);
		goto out;
	}
	trim_values(run);
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory reading %s", path);
out:
	free(cap);
	csv_row_free(&row);
	fclose(f);
	return rc;
}

/* ------------------------------------------------------------ JSON */

static int replace(char **field, const char *value)
{
	char *copy;

	if (!value)
		return 0;
	copy = strdup(value);
	if (!copy)
		return -1;
	free(*field);
	*field = copy;
	return 0;
}

/*
 * smapbench's own JSON carries suite, op, variant, size, batch and
 * counter with every entry: better than guessing them from a name that
 * leaves out what is 0 or "none".
 */
static int json_fields(struct run_bench *b, const struct json_value *e)
{
	double size = json_get_number(e, "size"), batch = json_get_number(e, "batch");

	if (replace(&b->suite, json_get_string(e, "suite")) ||
	    replace(&b->op, json_get_string(e, "op")) ||
	    replace(&b->variant, json_get_string(e, "variant")) ||
	    replace(&b->counter, json_get_string(e, "counter")))
		return -1;
	if (isfinite(size) && size >= 0)
		b->size = (unsigned long)size;
	if (isfinite(batch) && batch >= 0)
		b->batch = (unsigned long)batch;
	return 0;
}

/* Nanoseconds per Google Benchmark time_unit; NAN for an unknown one. */
static double time_unit_ns(const char *unit)
{
	if (!unit || !strcmp(unit, "ns"))
		return 1;
	if (!strcmp(unit, "us"))
		return 1e3;
	if (!strcmp(unit, "ms"))
		return 1e6;
	if (!strcmp(unit, "s"))
		return 1e9;
	return NAN;
}

/*
 * Benchmark names to their index in run->bench while a JSON file is
 * read: its entries of one benchmark need not be adjacent, and a search
 * of every name per entry made 200k entries take minutes.
 */
struct name_map {
	size_t *slot;		/* index + 1; 0 is empty */
	size_t mask;
	size_t used;
};

static size_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (size_t)h;
}

static int map_init(struct name_map *m, size_t size)
{
	m->slot = calloc(size, sizeof(*m->slot));
	m->mask = size - 1;
	m->used = 0;
	return m->slot ? 0 : -1;
}

/* Index of name in run->bench, or SIZE_MAX. */
static size_t map_find(const struct name_map *m, const struct run_dir *run,
		       const char *name)
{
	for (size_t i = name_hash(name) & m->mask; m->slot[i]; i = (i + 1) & m->mask)
		if (!strcmp(run->bench[m->slot[i] - 1].name, name))
			return m->slot[i] - 1;
	return SIZE_MAX;
}

static void map_put(struct name_map *m, const struct run_dir *run, size_t index)
{
	size_t i = name_hash(run->bench[index].name) & m->mask;

	while (m->slot[i])
		i = (i + 1) & m->mask;
	m->slot[i] = index + 1;
	m->used++;
}

/*
 * The map grows with the benchmarks, never past half full: sized by what
 * a file holds, not by how many entries it claims. 0, or -1 (no memory).
 */
static int map_add(struct name_map *m, const struct run_dir *run, size_t index)
{
	if (2 * (m->used + 1) > m->mask + 1) {
		struct name_map bigger;

		if (map_init(&bigger, 2 * (m->mask + 1)))
			return -1;
		for (size_t i = 0; i <= m->mask; i++)
			if (m->slot[i])
				map_put(&bigger, run, m->slot[i] - 1);
		free(m->slot);
		*m = bigger;
	}
	map_put(m, run, index);
	return 0;
}

/* The "context" object of Google Benchmark JSON as context keys. */
static int gbench_context(struct run_dir *run, const struct json_value *ctx,
			  size_t *ccap)
{
	for (size_t i = 0; ctx && ctx->type == JSON_OBJECT && i < ctx->count; i++) {
		const struct json_value *v = &ctx->items[i];
		const char *key = ctx->keys[i];
		char num[64];
		const char *text_value = NULL;

		if (!strcmp(key, "host_name"))
			key = "host";
		if (v->type == JSON_STRING) {
			text_value = v->string;
		} else if (v->type == JSON_NUMBER) {
			snprintf(num, sizeof(num), "%.17g", v->number);
			text_value = num;
		} else if (v->type == JSON_BOOL) {
			text_value = v->number ? "true" : "false";
		}
		if (text_value && add_context(run, ccap, key, text_value))
			return -1;
	}
	return 0;
}

/* Where load_gbench_json() is while it reads the benchmarks array. */
struct gbench_reader {
	struct run_dir *run;
	const char *path;
	struct name_map map;
	size_t bcap, *vcap, vcap_len, skipped_failed;
	int pass;		/* 0: repetitions, 1: median aggregates */
	int status;		/* GBENCH_BAD or GBENCH_NOMEM, once one came */
	char *err;
	size_t errlen;
};

enum { GBENCH_BAD = -1, GBENCH_NOMEM = -2 };

/* Room for benchmark k's count of values. */
static int grow_vcap(struct gbench_reader *g, size_t k)
{
	if (k >= g->vcap_len) {
		size_t len = g->vcap_len ? 2 * g->vcap_len : 64;
		size_t *more = realloc(g->vcap, len * sizeof(*more));

		if (!more)
			return -1;
		memset(more + g->vcap_len, 0, (len - g->vcap_len) * sizeof(*more));
		g->vcap = more;
		g->vcap_len = len;
	}
	return 0;
}

/*
 * benchmarks[i] in this pass (0: repetitions, 1: median aggregates):
 * 0, GBENCH_BAD with the reason in err, or GBENCH_NOMEM.
 */
static int gbench_entry(struct gbench_reader *g, const struct json_value *e,
			size_t i, int pass, char *err, size_t errlen)
{
	struct run_dir *run = g->run;
	const char *path = g->path;
	const char *name = json_get_string(e, "run_name");
	const char *type = json_get_string(e, "run_type");
	const char *agg = json_get_string(e, "aggregate_name");
	const char *unit = json_get_string(e, "time_unit");
	const struct json_value *failed = json_get(e, "error_occurred");
	const struct json_value *real = json_get(e, "real_time");
	int aggregate = type && !strcmp(type, "aggregate");
	const char *why;
	char shown[64];
	struct run_bench *b;
	size_t k;
	double t;

	if (!name)
		name = json_get_string(e, "name");
	if (e->type != JSON_OBJECT || !name) {
		snprintf(err, errlen, "%s: benchmarks[%zu] %s", path, i,
			 e->type != JSON_OBJECT ? "is not an object"
					    : "has no name");
		return GBENCH_BAD;
	}
	if ((why = name_problem(name))) {
		snprintf(err, errlen, "%s: benchmarks[%zu]: the name %s",
			 path, i, why);
		return GBENCH_BAD;
	}
	if (aggregate != pass)
		return 0;
	if (failed && failed->number) {
		g->skipped_failed++;
		return 0;
	}
	if (aggregate && (!agg || strcmp(agg, "median")))
		return 0;
	if (!real || real->type != JSON_NUMBER) {
		snprintf(err, errlen, "%s: benchmarks[%zu] (%s) has no "
			 "real_time number", path, i, name);
		return GBENCH_BAD;
	}
	if (isnan(time_unit_ns(unit))) {
		snprintf(err, errlen, "%s: benchmarks[%zu] (%s): unknown "
			 "time_unit '%s' (ns, us, ms or s)", path, i, name,
			 unit);
		return GBENCH_BAD;
	}
	t = real->number * time_unit_ns(unit);
	snprintf(shown, sizeof(shown), "%g", real->number);
	why = timing_problem(shown, t, entry_is_difference(
				json_get_string(e, "op"), name));
	if (why) {
		snprintf(err, errlen, "%s: benchmarks[%zu] (%s): real_time "
			 "%s %s (" TIMING_RULE ")", path, i, name, shown, why);
		return GBENCH_BAD;
	}
	k = map_find(&g->map, run, name);
	if (k == SIZE_MAX) {
		if (aggregate)
			run->aggregates_only++;
		b = add_bench(run, &g->bcap);
		if (!b)
			return GBENCH_NOMEM;
		b->name = strdup(name);
		b->unit = strdup("ns");
		b->counter = strdup("gbench");
		b->flags = strdup("");
		if (!b->name || !b->unit || !b->counter ||
		    !b->flags || split_name(b) || json_fields(b, e))
			return GBENCH_NOMEM;
		b->median = NAN;
		b->source = aggregate ? RUN_VALUES_NONE
				      : RUN_VALUES_REPETITIONS;
		k = run->count - 1;
		if (map_add(&g->map, run, k) || grow_vcap(g, k))
			return GBENCH_NOMEM;
	}
	b = &run->bench[k];
	if (aggregate)
		b->median = t;
	else if (push_value(b, &g->vcap[k], t, (uint32_t)b->count))
		return GBENCH_NOMEM;
	return 0;
}

/* The statistics of each benchmark, from its repetitions. */
static void gbench_summarise(struct run_dir *run)
{
	for (size_t k = 0; k < run->count; k++) {
		struct run_bench *b = &run->bench[k];

		/*
		 * B - A and the CI must describe the same values: the
		 * median of the repetitions, not a _median aggregate
		 * (kept only for a benchmark with no repetition entry).
		 */
		if (b->count)
			b->median = stats_median(b->values, b->count);
		b->median_ns = b->median;
		b->mean = stats_mean(b->values, b->count);
		b->stddev = stats_stddev(b->values, b->count);
		b->min = b->p5 = b->p95 = b->cv = NAN;
		b->center = b->median;
		b->ci_low = b->ci_high = NAN;
	}
}

/*
 * Each benchmark's values sorted by repetition, then its center and
 * interval from them, the one definition every reader of a run sees
 * (rundir.h). Sorted, the medians need no copy of the values, and room
 * for one per repetition only: at most RUNDIR_MAX_REPETITION + 1 from
 * samples.csv. 0, or -1 on no memory.
 */
static int summarise_repetitions(struct run_dir *run)
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

/* json_parse_file_each()'s callback: one entry of the benchmarks array. */
static int gbench_each(const struct json_value *e, size_t i, void *arg)
{
	struct gbench_reader *g = arg;

	if (!g->map.slot)
		return 0;	/* the first reading only counts them */
	g->status = gbench_entry(g, e, i, g->pass, g->err, g->errlen);
	return g->status ? 1 : 0;
}

/*
 * A Google Benchmark JSON file, read three times, an entry of its
 * benchmarks array at a time: for its context and the number of entries,
 * then for the repetitions ("iteration" entries), then for the median
 * aggregates, used only for a benchmark without repetitions (a file
 * written with --benchmark_report_aggregates_only). A benchmark is
 * identified by run_name (name without the _median / _mean suffix).
 * Memory: the text, one entry's values, and what the run keeps.
 */
static int load_gbench_json(struct run_dir *run, const char *path,
			    char *err, size_t errlen)
{
	struct json_value root;
	const struct json_value *list;
	struct gbench_reader g = {
		.run = run, .path = path, .err = err, .errlen = errlen,
	};
	size_t ccap = 0, entries = 0;
	char *text = NULL, where[256];
	size_t len;
	int rc = -1;

	memset(&root, 0, sizeof(root));
	if (json_read_file(path, &text, &len, err, errlen))
		return -1;
	if (json_parse_each(text, len, JSON_NONFINITE, "benchmarks", gbench_each,
			    &g, &root, &entries, where, sizeof(where))) {
		snprintf(err, errlen, "%s:%s", path, where);
		goto out;
	}
	list = json_get(&root, "benchmarks");
	if (!list || list->type != JSON_ARRAY) {
		snprintf(err, errlen,
			 "%s: not Google Benchmark JSON (no \"benchmarks\" array)",
			 path);
		goto out;
	}
	if (gbench_context(run, json_get(&root, "context"), &ccap) ||
	    map_init(&g.map, 64))
		goto oom;
	json_free(&root);
	for (g.pass = 0; g.pass < 2; g.pass++) {
		rc = json_parse_each(text, len, JSON_NONFINITE, "benchmarks",
				     gbench_each, &g, &root, NULL, where,
				     sizeof(where));
		json_free(&root);
		if (g.status == GBENCH_NOMEM)
			goto oom;
		if (rc) {
			rc = -1;
			goto out;	/* gbench_entry() said why */
		}
	}
	rc = -1;
	if (!run->count) {
		snprintf(err, errlen, "%s: no benchmark to compare (%zu entries%s)",
			 path, entries, g.skipped_failed ?
			 ", every one with error_occurred" : "");
		goto out;
	}
	gbench_summarise(run);
	run->from_json = 1;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory reading %s", path);
out:
	free(text);
	free(g.vcap);
	free(g.map.slot);
	json_free(&root);
	return rc;
}

/* ------------------------------------------------------------ public */

int rundir_load(const char *path, struct run_dir *run, char *err,
		size_t errlen)
{
	struct stat st;
	char *results = NULL, *samples = NULL, *json = NULL;
	size_t plen = strlen(path);
	int rc = -1;

	memset(run, 0, sizeof(*run));
	run->path = strdup(path);
	run->label = make_label(path);
	if (!run->path || !run->label) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (S_ISREG(st.st_mode) && plen > 5 &&
	    !strcmp(path + plen - 5, ".json")) {
		rc = load_gbench_json(run, path, err, errlen);
		goto index;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen,
			 "%s is neither a run directory nor a .json file", path);
		goto out;
	}
	results = join_path(path, "results.csv");
	samples = join_path(path, "samples.csv");
	json = join_path(path, "results.json");
	if (!results || !samples || !json) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (is_file(results)) {
		rc = load_results_csv(run, results, err, errlen);
		if (!rc && build_index(run)) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
		if (!rc && !run->count) {
			snprintf(err, errlen, "%s: no benchmark, only a header", results);
			rc = -1;
		}
		if (!rc)
			rc = check_unique(run, results, err, errlen);
		if (!rc && is_file(samples))
			rc = load_samples_csv(run, samples, err, errlen);
		if (!rc)
			rc = load_context_csv(run, path, err, errlen);
		goto summarise;
	}
	if (is_file(json)) {
		rc = load_gbench_json(run, json, err, errlen);
		goto index;
	}
	snprintf(err, errlen,
		 "%s has neither results.csv nor results.json: not a run directory",
		 path);
	goto out;
index:
	if (!rc && build_index(run)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
summarise:
	if (!rc && summarise_repetitions(run)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
out:
	free(results);
	free(samples);
	free(json);
	if (rc)
		rundir_free(run);
	return rc;
}

int rundir_load_context(const char *dir, struct run_dir *run, char *err,
			size_t errlen)
{
	memset(run, 0, sizeof(*run));
	if (load_context_csv(run, dir, err, errlen))
		goto fail;
	if (!run->has_context_file) {
		snprintf(err, errlen, "%s has no context.csv", dir);
		goto fail;
	}
	return 0;
fail:
	rundir_free(run);
	return -1;
}

void rundir_free(struct run_dir *run)
{
	for (size_t i = 0; i < run->count; i++) {
		struct run_bench *b = &run->bench[i];

		free(b->name);
		free(b->suite);
		free(b->op);
		free(b->variant);
		free(b->unit);
		free(b->counter);
		free(b->flags);
		free(b->values);
		free(b->repetition);
	}
	for (size_t i = 0; i < run->context_count; i++) {
		free(run->keys[i]);
		free(run->values[i]);
	}
	free(run->bench);
	free(run->keys);
	free(run->values);
	free(run->sorted);
	free(run->path);
	free(run->label);
	memset(run, 0, sizeof(*run));
}

const char *rundir_context(const struct run_dir *run, const char *key)
{
	for (size_t i = 0; i < run->context_count; i++)
		if (!strcmp(run->keys[i], key))
			return run->values[i];
	return NULL;
}

const char *rundir_context_or(const struct run_dir *run, const char *key,
			      const char *fallback)
{
	const char *v = rundir_context(run, key);

	return v && *v ? v : fallback;
}

double rundir_ns_per_unit(const struct run_dir *run,
			  const struct run_bench *bench)
{
	double hz;

	if (!strcmp(bench->unit, "ns"))
		return 1;
	if (isfinite(bench->median_ns) && isfinite(bench->median) &&
	    bench->median > 0)
		return bench->median_ns / bench->median;
	hz = parse_double(rundir_context(run, "tsc_hz"));
	if ((!strcmp(bench->unit, "ticks") || !strcmp(bench->unit, "cycles")) &&
	    isfinite(hz) && hz > 0)
		return 1e9 / hz;
	return NAN;
}
