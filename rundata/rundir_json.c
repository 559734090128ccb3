// SPDX-License-Identifier: GPL-2.0
/*
 * rundir_json.c - a Google Benchmark JSON file into the in-memory run:
 * every benchmark's values the real_time of its repetitions, in
 * nanoseconds, and the context its "context" object (rundir.h).
 */
#include "rundata/rundir_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "rundata/json.h"
#include "rundata/rundir.h"


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
		if (text_value && rundir_add_context(run, ccap, key, text_value))
			return -1;
	}
	return 0;
}

/* Where rundir_load_gbench_json() is while it reads the benchmarks array. */
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
	if ((why = rundir_name_problem(name))) {
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
	why = rundir_timing_problem(shown, t, rundir_entry_is_difference(
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
		b = rundir_add_bench(run, &g->bcap);
		if (!b)
			return GBENCH_NOMEM;
		b->name = strdup(name);
		b->unit = strdup("ns");
		b->counter = strdup("gbench");
		b->flags = strdup("");
		if (!b->name || !b->unit || !b->counter ||
		    !b->flags || rundir_split_name(b) || json_fields(b, e))
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
	else if (rundir_push_value(b, &g->vcap[k], t, (uint32_t)b->count))
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
int rundir_load_gbench_json(struct run_dir *run, const char *path,
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

