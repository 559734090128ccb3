// SPDX-License-Identifier: GPL-2.0
/* report_csv.c - results.csv, samples.csv, context.csv, skipped.csv. */
#include "rundata/report.h"

#include <string.h>

#include "rundata/catalogue.h"
#include "rundata/csv.h"

void report_row_flags(const struct report *r, const struct result *res,
		      char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (res->flags & RESULT_CLAMPED)
		used += (size_t)snprintf(buf + used, len - used, "%sclamped",
					 used ? ";" : "");
	if (r->run_flags && r->run_flags[0] && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? ";" : "", r->run_flags);
	if ((res->flags & RESULT_NOISY) && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%snoisy",
					 used ? ";" : "");
	if ((res->flags & RESULT_PREEMPTED) && used < len)
		snprintf(buf + used, len - used, "%spreempted", used ? ";" : "");
}

int report_results_csv(FILE *f, const struct report *r)
{
	struct csv_writer w;
	char flags[256];

	csv_writer_init(&w, f);
	/* the catalogue's columns, in its order: the fields below follow it */
	file_header_write(&w, &file_results);
	for (size_t i = 0; i < r->results->count; i++) {
		const struct result *res = &r->results->items[i];
		const struct benchmark *b = res->bench;
		const struct stats_summary *s = &res->stats;

		if (res->skipped || !res->nsamples)
			continue;
		csv_field(&w, b->name);
		csv_field(&w, b->suite);
		csv_field(&w, b->op);
		csv_field(&w, b->variant);
		csv_field_uint(&w, b->size);
		csv_field_uint(&w, b->batch);
		csv_field(&w, res->unit);
		csv_field_uint(&w, res->iterations);
		csv_field_uint(&w, res->nsamples);
		csv_field_double(&w, s->median);
		csv_field_double(&w, s->min);
		csv_field_double(&w, s->mean);
		csv_field_double(&w, s->stddev);
		csv_field_double(&w, s->mad);
		csv_field_double(&w, s->p5);
		csv_field_double(&w, s->p95);
		csv_field_double(&w, s->cv);
		csv_field_double(&w, res->center.estimate);
		csv_field_double(&w, res->center.low);
		csv_field_double(&w, res->center.high);
		csv_field_uint(&w, res->repetitions);
		csv_field_uint(&w, s->outliers);
		csv_field_double(&w, res->median_ns);
		csv_field(&w, res->counter);
		report_row_flags(r, res, flags, sizeof(flags));
		csv_field(&w, flags);
		csv_end_row(&w);
	}
	return csv_writer_error(&w);
}

int report_samples_csv(FILE *f, const struct report *r)
{
	static const char *const header[] = {
		"name", "repetition", "sample", "iterations", "value", "unit",
	};
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, sizeof(header) / sizeof(header[0]));
	for (size_t i = 0; i < r->results->count; i++) {
		const struct result *res = &r->results->items[i];

		if (res->skipped)
			continue;
		for (size_t k = 0; k < res->nsamples; k++) {
			const struct result_sample *s = &res->samples[k];

			csv_field(&w, res->bench->name);
			csv_field_uint(&w, s->repetition);
			csv_field_uint(&w, s->index);
			csv_field_uint(&w, s->iterations);
			csv_field_double(&w, s->value);
			csv_field(&w, res->unit);
			csv_end_row(&w);
		}
	}
	return csv_writer_error(&w);
}

int report_context_pairs_csv(FILE *f, const struct context *c)
{
	static const char *const header[] = { "key", "value" };
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, 2);
	for (size_t i = 0; i < c->count; i++) {
		csv_field(&w, c->items[i].key);
		csv_field(&w, c->items[i].value);
		csv_end_row(&w);
	}
	return csv_writer_error(&w);
}

int report_context_csv(FILE *f, const struct report *r)
{
	return report_context_pairs_csv(f, r->context);
}

int report_skipped_csv(FILE *f, const struct report *r)
{
	static const char *const header[] = { "name", "suite", "reason" };
	struct csv_writer w;

	csv_writer_init(&w, f);
	csv_row(&w, header, 3);
	for (size_t i = 0; i < r->results->count; i++) {
		const struct result *res = &r->results->items[i];

		if (!res->skipped)
			continue;
		csv_field(&w, res->bench->name);
		csv_field(&w, res->bench->suite);
		csv_field(&w, res->reason);
		csv_end_row(&w);
	}
	return csv_writer_error(&w);
}
