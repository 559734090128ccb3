// SPDX-License-Identifier: GPL-2.0
/*
 * report_json.c - results.json in Google Benchmark's schema, so its
 * tools (compare.py and friends) read our runs: a "context" object and
 * a "benchmarks" array holding, with Google Benchmark's meanings, one
 * "iteration" entry per repetition and "aggregate" entries (median, mean,
 * stddev, cv) over the repetitions. Times are per operation in ns; our
 * own fields (counter, unit, value in that unit, sample-level CI, flags)
 * ride along, which Google Benchmark's readers ignore.
 */
#include "rundata/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "rundata/json.h"

/* Keys written in Google Benchmark's own form, not as strings. */
static int gb_key(const char *key)
{
	static const char *const keys[] = {
		"date", "host_name", "executable", "num_cpus", "mhz_per_cpu",
		"cpu_scaling_enabled", "caches", "load_avg",
		"library_build_type",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i], key))
			return 1;
	return 0;
}

static const char *ctx(const struct report *r, const char *key,
		       const char *fallback)
{
	const char *v = context_get(r->context, key);

	return v ? v : fallback;
}

static void write_context(struct json_writer *w, const struct report *r)
{
	double l1 = 0, l5 = 0, l15 = 0;
	const char *governor = ctx(r, "governor", "none");

	json_key(w, "context");
	json_begin_object(w);
	json_kv_string(w, "date", ctx(r, "date", ""));
	json_kv_string(w, "host_name", ctx(r, "host", ""));
	json_kv_string(w, "executable", r->executable ? r->executable : "");
	json_kv_int(w, "num_cpus", atol(ctx(r, "cpus_online", "0")));
	json_kv_int(w, "mhz_per_cpu", (long long)atof(ctx(r, "cpu_mhz", "0")));
	json_kv_bool(w, "cpu_scaling_enabled",
		     strcmp(governor, "none") && strcmp(governor, "performance"));
	json_key(w, "caches");
	json_begin_array(w);
	json_end_array(w);
	sscanf(ctx(r, "load_avg", "0 0 0"), "%lf %lf %lf", &l1, &l5, &l15);
	json_key(w, "load_avg");
	json_begin_array(w);
	json_double(w, l1);
	json_double(w, l5);
	json_double(w, l15);
	json_end_array(w);
	json_kv_string(w, "library_build_type", "release");
	for (size_t i = 0; i < r->context->count; i++)
		if (!gb_key(r->context->items[i].key))
			json_kv_string(w, r->context->items[i].key,
				       r->context->items[i].value);
	json_end_object(w);
}

static double to_ns(const struct result *res, double v)
{
	return res->hz > 0 ? v * 1e9 / res->hz : NAN;
}

static void common(struct json_writer *w, const struct result *res,
		   size_t family, const char *name, const char *run_type,
		   unsigned repetitions)
{
	json_kv_string(w, "name", name);
	json_kv_int(w, "family_index", (long long)family);
	json_kv_int(w, "per_family_instance_index", 0);
	json_kv_string(w, "run_name", res->bench->name);
	json_kv_string(w, "run_type", run_type);
	json_kv_int(w, "repetitions", repetitions);
	json_kv_int(w, "threads", 1);
}

static void extras(struct json_writer *w, const struct report *r,
		   const struct result *res)
{
	char flags[256];

	json_kv_string(w, "suite", res->bench->suite);
	json_kv_string(w, "op", res->bench->op);
	json_kv_string(w, "variant", res->bench->variant);
	json_kv_int(w, "size", res->bench->size);
	json_kv_int(w, "batch", res->bench->batch);
	json_kv_string(w, "counter", res->counter);
	json_kv_string(w, "unit", res->unit);
	report_row_flags(r, res, flags, sizeof(flags));
	json_kv_string(w, "flags", flags);
}

/*
 * One repetition, as Google Benchmark reports one: its time per
 * operation over all its kept samples (total time / total operations,
 * the mean weighted by iterations), and the operations it ran.
 */
struct repetition {
	unsigned index;
	double per_op;
	uint64_t iterations;
	unsigned samples;
};

/* The repetitions that kept samples, in index order; their number. */
static size_t repetitions_of(const struct result *res, unsigned repetitions,
			     struct repetition *out)
{
	size_t n = 0;

	for (unsigned rep = 0; rep < repetitions; rep++) {
		double total = 0;
		uint64_t iterations = 0;
		unsigned samples = 0;

		for (size_t k = 0; k < res->nsamples; k++) {
			const struct result_sample *s = &res->samples[k];

			if (s->repetition != rep)
				continue;
			total += s->value * (double)s->iterations;
			iterations += s->iterations;
			samples++;
		}
		if (!samples)
			continue;
		out[n++] = (struct repetition){ rep, total / (double)iterations,
						 iterations, samples };
	}
	return n;
}

static void write_repetition(struct json_writer *w, const struct report *r,
			     const struct result *res, size_t family,
			     const struct repetition *rep)
{
	json_begin_object(w);
	common(w, res, family, res->bench->name, "iteration", r->repetitions);
	json_kv_int(w, "repetition_index", rep->index);
	json_kv_int(w, "iterations", (long long)rep->iterations);
	json_kv_double(w, "real_time", to_ns(res, rep->per_op));
	json_kv_double(w, "cpu_time", to_ns(res, rep->per_op));
	json_kv_string(w, "time_unit", "ns");
	json_kv_double(w, "value", rep->per_op);
	json_kv_int(w, "samples", rep->samples);
	extras(w, r, res);
	json_end_object(w);
}

/*
 * An aggregate over the nrep repetition values, as Google Benchmark
 * computes it: "iterations" is the number of repetitions. The median
 * also carries results.csv's center and its interval, and the
 * sample-level figures, under names Google Benchmark's tools do not read.
 */
static void write_aggregate(struct json_writer *w, const struct report *r,
			    const struct result *res, size_t family,
			    size_t nrep, const char *aggregate, double value,
			    int is_time)
{
	char name[512];

	snprintf(name, sizeof(name), "%s_%s", res->bench->name, aggregate);
	json_begin_object(w);
	common(w, res, family, name, "aggregate", r->repetitions);
	json_kv_string(w, "aggregate_name", aggregate);
	json_kv_string(w, "aggregate_unit", is_time ? "time" : "percentage");
	json_kv_int(w, "iterations", (long long)nrep);
	json_kv_double(w, "real_time", is_time ? to_ns(res, value) : value);
	json_kv_double(w, "cpu_time", is_time ? to_ns(res, value) : value);
	json_kv_string(w, "time_unit", "ns");
	json_kv_double(w, "value", value);
	if (!strcmp(aggregate, "median")) {
		json_kv_int(w, "samples", (long long)res->nsamples);
		json_kv_double(w, "sample_median", res->stats.median);
		json_kv_double(w, "center", res->center.estimate);
		json_kv_double(w, "center_ci_low", res->center.low);
		json_kv_double(w, "center_ci_high", res->center.high);
		json_kv_double(w, "center_ci_low_ns", to_ns(res, res->center.low));
		json_kv_double(w, "center_ci_high_ns", to_ns(res, res->center.high));
		json_kv_int(w, "outliers", (long long)res->stats.outliers);
		json_kv_int(w, "preempted_samples", (long long)res->preempted);
	}
	extras(w, r, res);
	json_end_object(w);
}

/*
 * Google Benchmark writes aggregates only for two repetitions or more:
 * median, mean, sample standard deviation (n - 1) and cv = stddev /
 * mean, all over the repetitions' values.
 */
static int write_aggregates(struct json_writer *w, const struct report *r,
			    const struct result *res, size_t family,
			    const struct repetition *reps, size_t nrep)
{
	double *v, mean, stddev;

	if (nrep < 2)
		return 0;
	v = malloc(nrep * sizeof(*v));
	if (!v)
		return ENOMEM;
	for (size_t i = 0; i < nrep; i++)
		v[i] = reps[i].per_op;
	mean = stats_mean(v, nrep);
	stddev = stats_stddev(v, nrep);
	write_aggregate(w, r, res, family, nrep, "median",
			stats_median(v, nrep), 1);
	write_aggregate(w, r, res, family, nrep, "mean", mean, 1);
	write_aggregate(w, r, res, family, nrep, "stddev", stddev, 1);
	write_aggregate(w, r, res, family, nrep, "cv",
			mean != 0 ? stddev / mean : 0, 0);
	free(v);
	return 0;
}

int report_json(FILE *f, const struct report *r)
{
	struct json_writer w;
	size_t family = 0;
	struct repetition *reps = calloc(r->repetitions ? r->repetitions : 1,
					 sizeof(*reps));
	int rc = 0;

	if (!reps)
		return ENOMEM;
	json_writer_init(&w, f);
	json_begin_object(&w);
	write_context(&w, r);
	json_key(&w, "benchmarks");
	json_begin_array(&w);
	for (size_t i = 0; i < r->results->count; i++) {
		const struct result *res = &r->results->items[i];
		size_t nrep;

		if (res->skipped || !res->nsamples)
			continue;
		nrep = repetitions_of(res, r->repetitions, reps);
		for (size_t k = 0; k < nrep; k++)
			write_repetition(&w, r, res, family, &reps[k]);
		if ((rc = write_aggregates(&w, r, res, family, reps, nrep)))
			break;
		family++;
	}
	json_end_array(&w);
	json_end_object(&w);
	free(reps);
	if (rc)
		return rc;
	return json_writer_finish(&w);
}
