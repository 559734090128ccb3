// SPDX-License-Identifier: GPL-2.0
/* census_csv.c - the one reader of census.csv; see census_csv.h. */
#include "rundata/census_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/catalogue.h"
#include "rundata/csv.h"

static int parse_count(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)	/* a row without counts: 0 */
		return 0;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

static int parse_rate(const char *s, double *v)
{
	char *end;

	*v = NAN;
	if (!*s)
		return 0;
	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !(*v >= 0) || isinf(*v) ? -1 : 0;
}

static char *copy(const char *s, int *failed)
{
	char *d = strdup(s);

	*failed |= !d;
	return d;
}

int census_csv_load(const char *path, struct census_csv *c, char *err,
		    size_t errlen)
{
	struct csv_table t;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (csv_table_load(path, &t, err, errlen))
		return -1;
	for (size_t i = 0; i < file_census.count; i++)
		if ((file_census.columns[i].roles & COLUMN_REQUIRED) &&
		    csv_table_column(&t, file_census.columns[i].name) < 0) {
			snprintf(err, errlen, "%s has no column %s: not a census.csv "
				 "of the benchmarks (docs/schema.md)", path,
				 file_census.columns[i].name);
			goto out;
		}
	c->rows = calloc(t.count ? t.count : 1, sizeof(*c->rows));
	if (!c->rows)
		goto oom;
	for (size_t i = 0; i < t.count; i++) {
		struct census_csv_row *r = &c->rows[c->count++];
		const char *loop = csv_table_get(&t, i, "loop_calls");
		int failed = 0;
		const struct {
			const char *column;
			uint64_t *value;
		} counts[] = {
			{ "ops", &r->ops }, { "stac", &r->total.stac },
			{ "clac", &r->total.clac },
			{ "entry_clac", &r->total.entry_clac },
			{ "popf", &r->total.popf }, { "kinsn", &r->kinsn },
			{ "loop_calls", &r->loop_calls },
			{ "loop_stac", &r->loop.stac },
			{ "loop_clac", &r->loop.clac },
			{ "loop_entry_clac", &r->loop.entry_clac },
			{ "loop_popf", &r->loop.popf },
		};
		const char *rate = csv_table_get(&t, i, "stac_per_op");

		r->kernel = copy(csv_table_get(&t, i, "kernel"), &failed);
		r->state = copy(csv_table_get(&t, i, "smap_state"), &failed);
		r->name = copy(csv_table_get(&t, i, "name"), &failed);
		r->suite = copy(csv_table_get(&t, i, "suite"), &failed);
		r->op = copy(csv_table_get(&t, i, "op"), &failed);
		r->variant = copy(csv_table_get(&t, i, "variant"), &failed);
		r->status = copy(csv_table_get(&t, i, "status"), &failed);
		if (failed)
			goto oom;
		r->size = strtoul(csv_table_get(&t, i, "size"), NULL, 10);
		r->batch = strtoul(csv_table_get(&t, i, "batch"), NULL, 10);
		r->has_loop = *loop != '\0';
		for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			const char *v = csv_table_get(&t, i, counts[k].column);

			if (parse_count(v, counts[k].value)) {
				snprintf(err, errlen, "%s:%lu: %s '%.40s' is not a count",
					 path, csv_table_line(&t, i), counts[k].column, v);
				goto out;
			}
		}
		if (parse_rate(rate, &r->stac_per_op)) {
			snprintf(err, errlen, "%s:%lu: stac_per_op '%.40s' is no count per operation",
				 path, csv_table_line(&t, i), rate);
			goto out;
		}
	}
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory reading %s", path);
out:
	csv_table_free(&t);
	if (rc)
		census_csv_free(c);
	return rc;
}

void census_csv_free(struct census_csv *c)
{
	for (size_t i = 0; i < c->count; i++) {
		struct census_csv_row *r = &c->rows[i];

		free(r->kernel);
		free(r->state);
		free(r->name);
		free(r->suite);
		free(r->op);
		free(r->variant);
		free(r->status);
	}
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

int census_csv_smap_row(const struct census_csv_row *row)
{
	return !strcmp(row->state, "smap") && !strcmp(row->status, "ok") &&
	       !isnan(row->stac_per_op);
}
