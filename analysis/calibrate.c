// SPDX-License-Identifier: GPL-2.0
/* calibrate.c - the boot variance of a machine; see calibrate.h. */
#include "analysis/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_stats.h"
#include "measure/stats.h"
#include "rundata/catalogue.h"
#include "rundata/csv.h"

/* t beyond this many degrees of freedom is the normal */
#define CALIBRATE_DF_CAP 1e4

int calibrate_boot_variance(const double *mean, const double *var,
			    size_t rows, size_t runs, const unsigned *boot,
			    size_t boots, struct boot_variance *out)
{
	size_t *members = calloc(boots, sizeof(*members));
	double *boot_mean = calloc(boots * rows, sizeof(*boot_mean));
	double *shift = calloc(boots, sizeof(*shift));
	double inv_members = 0, sum_est = 0, sum_b = 0, sum_v = 0, sum_w = 0;
	double common = 0, resid = 0, pooled, denom, g, k = (double)rows;
	size_t within_df = 0;
	int rc = -1;

	if (!members || !boot_mean || !shift || boots < 2 || !rows || !runs)
		goto out;
	for (size_t j = 0; j < runs; j++) {
		if (boot[j] >= boots)
			goto out;
		members[boot[j]]++;
	}
	for (size_t i = 0; i < boots; i++) {
		if (!members[i])
			goto out;
		inv_members += 1.0 / (double)members[i] / (double)boots;
		within_df += members[i] - 1;
	}
	g = (double)boots;
	for (size_t r = 0; r < rows; r++) {
		const double *y = mean + r * runs, *w = var + r * runs;
		double *m = boot_mean + r * boots, grand = 0, b = 0, v = 0, wbar = 0;

		for (size_t j = 0; j < runs; j++) {
			m[boot[j]] += y[j] / (double)members[boot[j]];
			wbar += w[j] / (double)runs;
		}
		for (size_t i = 0; i < boots; i++)
			grand += m[i] / g;
		for (size_t i = 0; i < boots; i++) {
			/* deviations from the row's mean, for the common part */
			m[i] -= grand;
			b += m[i] * m[i] / (g - 1);
			shift[i] += m[i] / k;
		}
		/* runs of one boot about their boot's mean: V; else w */
		for (size_t j = 0; within_df && j < runs; j++) {
			double d = y[j] - grand - m[boot[j]];

			v += d * d / (double)within_df;
		}
		if (!within_df)
			v = wbar;
		/* s_k^2 = B + (1 - mean 1/m) V - mean w */
		if (out->row_estimate)
			out->row_estimate[r] = sqrt(fmax(0, b + (1 - inv_members) * v - wbar));
		sum_est += b + (1 - inv_members) * v - wbar;
		sum_b += b;
		sum_v += v;
		sum_w += wbar;
	}
	pooled = fmax(0, sum_est / k);
	/* B's mean over the rows = S_c^2 + (K - 1) / K R */
	for (size_t i = 0; i < boots; i++)
		common += shift[i] * shift[i] / (g - 1);
	for (size_t r = 0; rows > 1 && r < rows; r++)
		for (size_t i = 0; i < boots; i++) {
			double d = boot_mean[r * boots + i] - shift[i];

			resid += d * d / ((g - 1) * (k - 1));
		}
	denom = common * common / (g - 1) +
		(rows > 1 ? pow((k - 1) / k * resid, 2) / ((g - 1) * (k - 1)) : 0) +
		(within_df ? pow((1 - inv_members) * sum_v / k, 2) /
			     (k * (double)within_df) : 0);
	out->sd = sqrt(pooled);
	out->df = denom > 0 ? fmin(CALIBRATE_DF_CAP, pooled * pooled / denom)
			    : CALIBRATE_DF_CAP;
	/* a boot variance of 0 holds no information on its df: the least */
	if (pooled == 0)
		out->df = g - 1;
	/* S_c^2 holds 1 / K of each row's own variance and noise */
	out->common_sd = sqrt(fmax(0, common - (rows > 1 ? resid : sum_w) / k));
	out->row_sd = sqrt(fmax(0, pooled - out->common_sd * out->common_sd));
	out->within_sd = sqrt(sum_w / k);
	(void)sum_b;
	rc = 0;
out:
	free(members);
	free(boot_mean);
	free(shift);
	return rc;
}

/* ------------------------------------------------------- from runs */

static void say(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* Mean of the logs of a benchmark's repetition medians and s^2 / r. */
static int log_mean(const struct run_bench *b, double *mean, double *var)
{
	struct compare_log_figure f;

	if (!compare_log_figure_of(b, CALIBRATE_MIN_REPETITIONS, &f))
		return 0;
	*mean = f.mean;
	*var = f.var;
	return 1;
}

static int add_context(struct calibration *c, const char *key, const char *value)
{
	c->keys[c->context_count] = strdup(key);
	c->values[c->context_count] = strdup(value);
	if (!c->keys[c->context_count] || !c->values[c->context_count])
		return -1;
	c->context_count++;
	return 0;
}

/* The context fields a calibration holds for, beside the comparison keys. */
static const char *const held_fields[] = { "smap_state", NULL };

/*
 * Field f of what a calibration holds for: the catalogue's comparison
 * keys, then held_fields; NULL past the last.
 */
static const char *held_field(size_t f)
{
	for (size_t i = 0; i < context_key_count; i++)
		if ((context_keys[i].roles & KEY_COMPARISON) && !f--)
			return context_keys[i].name;
	return f ? NULL : held_fields[0];
}

static size_t field_count(void)
{
	size_t n = 0;

	while (held_field(n))
		n++;
	return n;
}

/* Every run agrees with the first on the fields; else why in err. */
static int one_machine(const struct run_dir *const *runs, size_t count,
		       char *err, size_t errlen)
{
	for (size_t f = 0; held_field(f); f++) {
		const char *key = held_field(f);
		const char *first = rundir_context_or(runs[0], key, "");

		for (size_t j = 1; j < count; j++)
			if (strcmp(first, rundir_context_or(runs[j], key, ""))) {
				say(err, errlen, "%s and %s differ in %s (%s, %s): "
				    "a calibration takes runs of one machine, "
				    "kernel, counter and SMAP state",
				    runs[0]->path, runs[j]->path, key, first,
				    rundir_context_or(runs[j], key, ""));
				return -1;
			}
	}
	return 0;
}

int calibrate_runs(const struct run_dir *const *runs, size_t count,
		   struct calibration *out, char *err, size_t errlen)
{
	unsigned *boot = calloc(count ? count : 1, sizeof(*boot));
	const char **ids = calloc(count ? count : 1, sizeof(*ids));
	double *mean = NULL, *var = NULL;
	size_t boots = 0, rows = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!boot || !ids)
		goto nomem;
	if (one_machine(runs, count, err, errlen))
		goto out;
	for (size_t j = 0; j < count; j++) {
		const char *id = rundir_context(runs[j], "boot_id");
		size_t i;

		if (!id || !*id) {
			say(err, errlen, "%s records no boot_id: which boot it "
			    "ran in is unknown, so it cannot tell boots apart "
			    "(runs record it since this version)", runs[j]->path);
			goto out;
		}
		for (i = 0; i < boots && strcmp(ids[i], id); i++)
			;
		if (i == boots)
			ids[boots++] = id;
		boot[j] = (unsigned)i;
	}
	if (boots < 2) {
		say(err, errlen, "the %zu runs are all of one boot (%s): a boot "
		    "variance needs runs of two or more boots of one state",
		    count, ids[0]);
		goto out;
	}
	mean = calloc(runs[0]->count * count + 1, sizeof(*mean));
	var = calloc(runs[0]->count * count + 1, sizeof(*var));
	out->row_names = calloc(runs[0]->count + 1, sizeof(*out->row_names));
	out->bv.row_estimate = calloc(runs[0]->count + 1, sizeof(double));
	out->keys = calloc(field_count(), sizeof(*out->keys));
	out->values = calloc(field_count(), sizeof(*out->values));
	if (!mean || !var || !out->row_names || !out->bv.row_estimate ||
	    !out->keys || !out->values)
		goto nomem;
	/* the rows every run has with enough repetitions, all above 0 */
	for (size_t k = 0; k < runs[0]->count; k++) {
		const char *name = runs[0]->bench[k].name;
		size_t j;

		for (j = 0; j < count; j++)
			if (!log_mean(rundir_find(runs[j], name), &mean[rows * count + j],
				      &var[rows * count + j]))
				break;
		if (j < count)
			continue;
		out->row_names[rows] = strdup(name);
		if (!out->row_names[rows++])
			goto nomem;
	}
	if (!rows) {
		say(err, errlen, "no benchmark is in every run with %d or more "
		    "repetitions and values above 0", CALIBRATE_MIN_REPETITIONS);
		goto out;
	}
	if (calibrate_boot_variance(mean, var, rows, count, boot, boots, &out->bv))
		goto nomem;
	out->boots = boots;
	out->runs = count;
	out->rows = rows;
	for (size_t f = 0; held_field(f); f++) {
		const char *key = held_field(f);
		const char *v = rundir_context(runs[0], key);

		if (v && add_context(out, key, v))
			goto nomem;
	}
	rc = 0;
	goto out;
nomem:
	say(err, errlen, "out of memory");
out:
	if (rc)
		calibration_free(out);
	free(boot);
	free(ids);
	free(mean);
	free(var);
	return rc;
}

void calibration_free(struct calibration *c)
{
	for (size_t i = 0; c->row_names && i < c->rows; i++)
		free(c->row_names[i]);
	for (size_t i = 0; i < c->context_count; i++) {
		free(c->keys[i]);
		free(c->values[i]);
	}
	free(c->row_names);
	free(c->bv.row_estimate);
	free(c->keys);
	free(c->values);
	memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------- the file */

#define CALIBRATION_FORMAT	1
#define ROW_PREFIX		"row:"

int calibration_write(const char *path, const struct calibration *c)
{
	struct csv_writer w;
	FILE *f = fopen(path, "w");
	char num[64];
	int err;

#define KV(key, ...) do {						\
		snprintf(num, sizeof(num), __VA_ARGS__);		\
		csv_row(&w, (const char *const[]){ key, num }, 2);	\
	} while (0)
	if (!f)
		return -1;
	csv_writer_init(&w, f);
	csv_row(&w, (const char *const[]){ "key", "value" }, 2);
	KV("format", "%d", CALIBRATION_FORMAT);
	for (size_t i = 0; i < c->context_count; i++)
		csv_row(&w, (const char *const[]){ c->keys[i], c->values[i] }, 2);
	KV("boots", "%zu", c->boots);
	KV("runs", "%zu", c->runs);
	KV("rows", "%zu", c->rows);
	KV("boot_sd", "%.6g", c->bv.sd);
	KV("boot_df", "%.4g", c->bv.df);
	KV("boot_sd_common", "%.6g", c->bv.common_sd);
	KV("boot_sd_row", "%.6g", c->bv.row_sd);
	KV("within_sd", "%.6g", c->bv.within_sd);
	for (size_t r = 0; r < c->rows; r++) {
		char key[RUNDIR_MAX_NAME + 8];

		snprintf(key, sizeof(key), ROW_PREFIX "%s", c->row_names[r]);
		KV(key, "%.6g", c->bv.row_estimate[r]);
	}
#undef KV
	err = csv_writer_error(&w);
	if (fclose(f) || err)
		return -1;
	return 0;
}

/* A number >= 0 from text; -1 when it is none. */
static int nonnegative(const char *text, double *v)
{
	char *end;

	if (!text || !*text)
		return -1;
	errno = 0;
	*v = strtod(text, &end);
	return *end || errno || !(*v >= 0) ? -1 : 0;
}

int calibration_read(const char *path, struct calibration *c, char *err,
		     size_t errlen)
{
	struct csv_table t;
	int have_sd = 0, have_df = 0, rc = -1;

	memset(c, 0, sizeof(*c));
	if (csv_table_load(path, &t, err, errlen))
		return -1;
	if (csv_table_column(&t, "key") != 0 || csv_table_column(&t, "value") != 1) {
		say(err, errlen, "%s: not a calibration (header key,value)", path);
		goto out;
	}
	c->keys = calloc(field_count(), sizeof(*c->keys));
	c->values = calloc(field_count(), sizeof(*c->values));
	if (!c->keys || !c->values)
		goto nomem;
	for (size_t i = 0; i < t.count; i++) {
		const char *key = csv_table_cell(&t, i, 0), *value = csv_table_cell(&t, i, 1);
		double v;

		if (!strcmp(key, "format")) {
			if (strcmp(value, "1")) {
				say(err, errlen, "%s:%lu: format %s, this version "
				    "reads format 1", path, csv_table_line(&t, i), value);
				goto out;
			}
		} else if (!strcmp(key, "boot_sd") || !strcmp(key, "boot_df")) {
			if (nonnegative(value, &v) || (!strcmp(key, "boot_df") && !(v > 0))) {
				say(err, errlen, "%s:%lu: %s '%s' is not a number "
				    "%s 0", path, csv_table_line(&t, i), key, value,
				    !strcmp(key, "boot_df") ? "above" : "from");
				goto out;
			}
			if (!strcmp(key, "boot_sd")) {
				c->bv.sd = v;
				have_sd = 1;
			} else {
				c->bv.df = v;
				have_df = 1;
			}
		} else if (!strcmp(key, "boots") && !nonnegative(value, &v)) {
			c->boots = (size_t)v;
		} else if (!strcmp(key, "runs") && !nonnegative(value, &v)) {
			c->runs = (size_t)v;
		} else if (compare_field_kind(key) == COMPARE_FIELD_BLOCKING ||
			   !strcmp(key, held_fields[0])) {
			if (c->context_count < field_count() &&
			    add_context(c, key, value))
				goto nomem;
		}
	}
	if (!have_sd || !have_df) {
		say(err, errlen, "%s: no %s: not a calibration smapbench "
		    "calibrate wrote", path, have_sd ? "boot_df" : "boot_sd");
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	say(err, errlen, "out of memory");
out:
	csv_table_free(&t);
	if (rc)
		calibration_free(c);
	return rc;
}

int calibration_mismatch(const struct calibration *c,
			 const struct run_dir *run, char *why, size_t len)
{
	for (size_t i = 0; i < c->context_count; i++) {
		const char *v = rundir_context(run, c->keys[i]);

		/* the boot variance of one state holds for the other */
		if (!strcmp(c->keys[i], held_fields[0]))
			continue;
		if (v && strcmp(v, c->values[i])) {
			say(why, len, "%s: the calibration's is %s, %s's %s",
			    c->keys[i], c->values[i], run->path, v);
			return 1;
		}
	}
	return 0;
}

void calibration_print(FILE *f, const struct calibration *c)
{
	fprintf(f, "boot variance from %zu runs of %zu boots, %zu rows:\n", c->runs,
	       c->boots, c->rows);
	fprintf(f, "  sigma_u %.2f%% (df %.1f): a shift every row shares %.2f%%, "
		"each row's own %.2f%%; a run's mean from its repetitions alone "
		"%.2f%%\n", 100 * c->bv.sd, c->bv.df, 100 * c->bv.common_sd,
		100 * c->bv.row_sd, 100 * c->bv.within_sd);
	for (size_t r = 0; r < c->rows; r++)
		fprintf(f, "  %-44s %6.2f%%\n", c->row_names[r],
			100 * c->bv.row_estimate[r]);
}
