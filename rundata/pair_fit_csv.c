// SPDX-License-Identifier: GPL-2.0
/* pair_fit_csv.c - the one reader of pair-fit.csv; see pair_fit_csv.h. */
#include "rundata/pair_fit_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/catalogue.h"

const char *pair_fit_csv_get(const struct pair_fit_csv *r, const char *key)
{
	for (size_t i = 0; i < r->keys.count; i++)
		if (!strcmp(csv_table_cell(&r->keys, i, 0), key))
			return csv_table_cell(&r->keys, i, 1);
	return "";
}

static int number(const char *text, double *v)
{
	char *end;

	if (!*text)
		return -1;
	errno = 0;
	*v = strtod(text, &end);
	return errno || *end || !isfinite(*v) ? -1 : 0;
}

int pair_fit_csv_load(const char *path, struct pair_fit_csv *r, char *err,
		      size_t errlen)
{
	const char *unit;

	memset(r, 0, sizeof(*r));
	if (csv_table_load(path, &r->keys, err, errlen))
		return -1;
	if (csv_table_column(&r->keys, "key") != 0 ||
	    csv_table_column(&r->keys, "value") != 1 ||
	    strcmp(pair_fit_csv_get(r, "format"), PAIR_FIT_FORMAT)) {
		snprintf(err, errlen, "%s: not a %s of this version (header key,value, format %s): compare the runs again",
			 path, PAIR_FIT_FILE, PAIR_FIT_FORMAT);
		goto fail;
	}
	for (size_t i = 0; i < file_pair_fit.count; i++)
		if ((file_pair_fit.columns[i].roles & COLUMN_REQUIRED) &&
		    !*pair_fit_csv_get(r, file_pair_fit.columns[i].name)) {
			snprintf(err, errlen, "%s has no key %s: it is not a %s of smapbench compare (docs/schema.md)",
				 path, file_pair_fit.columns[i].name, PAIR_FIT_FILE);
			goto fail;
		}
	unit = pair_fit_csv_get(r, "unit");
	if (number(pair_fit_csv_get(r, "beta"), &r->beta) ||
	    number(pair_fit_csv_get(r, "beta_low"), &r->low) ||
	    number(pair_fit_csv_get(r, "beta_high"), &r->high) ||
	    number(pair_fit_csv_get(r, "df"), &r->df) ||
	    !(r->low <= r->beta && r->beta <= r->high) || !(r->df > 0) ||
	    (strcmp(unit, "cycles") && strcmp(unit, "ns"))) {
		snprintf(err, errlen, "%s: beta, its interval, df or unit not numbers in order",
			 path);
		goto fail;
	}
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	if (number(pair_fit_csv_get(r, "vif"), &r->vif))
		r->vif = NAN;
	if (number(pair_fit_csv_get(r, "calib_ghz"), &r->ghz) || !(r->ghz > 0))
		r->ghz = 0;
	return 0;
fail:
	pair_fit_csv_free(r);
	return -1;
}

void pair_fit_csv_free(struct pair_fit_csv *r)
{
	csv_table_free(&r->keys);
	memset(r, 0, sizeof(*r));
	r->vif = NAN;
}
