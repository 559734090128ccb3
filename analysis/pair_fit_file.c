// SPDX-License-Identifier: GPL-2.0
/* pair_fit_file.c - writing pair-fit.csv; see pair_fit_file.h. */
#include "analysis/pair_fit_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rundata/catalogue.h"

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
	/* in the catalogue's order (rundata/catalogue.c, file_pair_fit) */
	TEXT("key", "value");
	TEXT("format", PAIR_FIT_FORMAT);
	KV("beta", "%.17g", fit->beta);
	KV("beta_low", "%.17g", fit->beta_low);
	KV("beta_high", "%.17g", fit->beta_high);
	KV("beta_se", "%.17g", fit->beta_se);
	TEXT("unit", fit->unit);
	KV("df", "%.17g", fit->df);
	KV("rows", "%zu", fit->count);
	KV("scale", "%.17g", fit->scale);
	KV("alpha", "%.17g", fit->alpha);
	KV("alpha_se", "%.17g", fit->alpha_se);
	KV("vif", "%.17g", fit->vif);
	TEXT("smap_side", fit->reversed ? "A" : "B");
	if (isfinite(fit->smap_shift_var)) {
		KV("smap_shift_var", "%.17g", fit->smap_shift_var);
		KV("smap_shift_df", "%.17g", fit->smap_shift_df);
	}
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
	/*
	 * the machine: what compare refuses to mix, but a command's keys,
	 * which say what the run timed, not where
	 */
	for (size_t i = 0; i < context_key_count; i++)
		if ((context_keys[i].roles & KEY_COMPARISON) &&
		    context_keys[i].written != KEY_BY_COMMAND &&
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
