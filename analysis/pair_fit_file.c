// SPDX-License-Identifier: GPL-2.0
/* pair_fit_file.c - pair-fit.csv; see pair_fit_file.h. */
#include "analysis/pair_fit_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/catalogue.h"

#define PAIR_FIT_FORMAT "1"

int pair_fit_file_write(const char *dir, const struct pair_fit *fit,
			const struct run_dir *smap)
{
	struct csv_writer w;
	char path[4096], num[64];
	FILE *f;
	int err;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, PAIR_FIT_FILE) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	csv_writer_init(&w, f);
#define KV(key, ...) do {						\
		snprintf(num, sizeof(num), __VA_ARGS__);		\
		csv_row(&w, (const char *const[]){ key, num }, 2);	\
	} while (0)
#define TEXT(key, value) \
	csv_row(&w, (const char *const[]){ key, value }, 2)
	TEXT("key", "value");
	TEXT("format", PAIR_FIT_FORMAT);
	KV("beta", "%.17g", fit->beta);
	KV("beta_low", "%.17g", fit->beta_low);
	KV("beta_high", "%.17g", fit->beta_high);
	TEXT("unit", fit->unit);
	KV("df", "%.17g", fit->df);
	KV("rows", "%zu", fit->count);
	KV("scale", "%.17g", fit->scale);
	TEXT("census", fit->census);
	TEXT("smap_run", smap->path);
	TEXT("date", rundir_context_or(smap, "date", ""));
	/* the clock its cycles were counted at, to turn them into time */
	TEXT("calib_ghz", !strcmp(rundir_context_or(smap, "calib_consistent", ""), "1") ?
	     rundir_context_or(smap, "calib_ghz", "") : "");
	if (isfinite(fit->within)) {
		KV("within", "%.17g", fit->within);
		KV("within_low", "%.17g", fit->within_low);
		KV("within_high", "%.17g", fit->within_high);
		TEXT("within_name", fit->within_name);
	}
	/* the machine: what compare refuses to mix */
	for (size_t i = 0; i < context_key_count; i++)
		if ((context_keys[i].roles & KEY_COMPARISON) &&
		    !strchr(context_keys[i].name, '*'))
			TEXT(context_keys[i].name,
			     rundir_context_or(smap, context_keys[i].name, ""));
#undef KV
#undef TEXT
	err = csv_writer_error(&w);
	if (fclose(f) || err)
		return -1;
	return 0;
}

const char *pair_fit_record_get(const struct pair_fit_record *r,
				const char *key)
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

int pair_fit_file_read(const char *path, struct pair_fit_record *r,
		       char *err, size_t errlen)
{
	const char *unit;

	memset(r, 0, sizeof(*r));
	if (csv_table_load(path, &r->keys, err, errlen))
		return -1;
	if (csv_table_column(&r->keys, "key") != 0 ||
	    csv_table_column(&r->keys, "value") != 1 ||
	    strcmp(pair_fit_record_get(r, "format"), PAIR_FIT_FORMAT)) {
		snprintf(err, errlen, "%s: not a %s of this version (header key,value, format %s)",
			 path, PAIR_FIT_FILE, PAIR_FIT_FORMAT);
		goto fail;
	}
	unit = pair_fit_record_get(r, "unit");
	if (number(pair_fit_record_get(r, "beta"), &r->beta) ||
	    number(pair_fit_record_get(r, "beta_low"), &r->low) ||
	    number(pair_fit_record_get(r, "beta_high"), &r->high) ||
	    number(pair_fit_record_get(r, "df"), &r->df) ||
	    !(r->low <= r->beta && r->beta <= r->high) ||
	    (strcmp(unit, "cycles") && strcmp(unit, "ns"))) {
		snprintf(err, errlen, "%s: beta, its interval, df or unit missing or not numbers in order",
			 path);
		goto fail;
	}
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	if (number(pair_fit_record_get(r, "calib_ghz"), &r->ghz) || !(r->ghz > 0))
		r->ghz = 0;
	return 0;
fail:
	pair_fit_record_free(r);
	return -1;
}

void pair_fit_record_free(struct pair_fit_record *r)
{
	csv_table_free(&r->keys);
	memset(r, 0, sizeof(*r));
}
