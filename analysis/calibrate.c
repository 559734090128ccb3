// SPDX-License-Identifier: GPL-2.0
/* calibrate.c - the boot variance of a machine; see calibrate.h. */
#include "analysis/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_stats.h"
#include "measure/stats.h"
#include "rundata/catalogue.h"
#include "rundata/csv.h"

void boot_split_free(struct boot_split *s)
{
	free(s->own);
	free(s->moderated);
	free(s->moderated_df);
	memset(s, 0, sizeof(*s));
}

int boot_split(const double *y, size_t rows, size_t boots,
	       const unsigned *group, size_t groups, struct boot_split *out)
{
	double *mean = calloc(groups * (rows ? rows : 1), sizeof(*mean));
	double *shift = calloc(boots ? boots : 1, sizeof(*shift));
	size_t *members = calloc(groups ? groups : 1, sizeof(*members));
	double *df = NULL, k = (double)rows, dof = 0, own_mean = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->prior = (struct stats_prior){ NAN, 0 };
	out->own = calloc(rows ? rows : 1, sizeof(*out->own));
	out->moderated = calloc(rows ? rows : 1, sizeof(*out->moderated));
	out->moderated_df = calloc(rows ? rows : 1, sizeof(*out->moderated_df));
	df = calloc(rows ? rows : 1, sizeof(*df));
	if (!mean || !shift || !members || !out->own || !out->moderated ||
	    !out->moderated_df || !df || !rows)
		goto out;
	for (size_t b = 0; b < boots; b++)
		members[group[b]]++;
	for (size_t g = 0; g < groups; g++)
		dof += members[g] ? (double)members[g] - 1 : 0;
	if (!(dof > 0))
		goto out;
	/* each row's mean per group, and the boots' shifts: mean deviations */
	for (size_t r = 0; r < rows; r++)
		for (size_t b = 0; b < boots; b++)
			mean[r * groups + group[b]] += y[r * boots + b] /
						       (double)members[group[b]];
	for (size_t r = 0; rows > 1 && r < rows; r++)
		for (size_t b = 0; b < boots; b++)
			shift[b] += (y[r * boots + b] - mean[r * groups + group[b]]) / k;
	/*
	 * Each row's own: its deviations net of the shifts. The shifts hold
	 * 1 / rows of each row, so the residuals keep (rows - 1) / rows of
	 * the degrees of freedom.
	 */
	out->own_df = rows > 1 ? dof * (k - 1) / k : dof;
	for (size_t r = 0; r < rows; r++) {
		double ss = 0;

		for (size_t b = 0; b < boots; b++) {
			double e = y[r * boots + b] - mean[r * groups + group[b]] - shift[b];

			ss += e * e;
		}
		out->own[r] = ss / out->own_df;
		own_mean += out->own[r] / k;
		df[r] = out->own_df;
	}
	/* the shifts' variance holds 1 / rows of the rows' own */
	out->common_df = dof;
	for (size_t b = 0; b < boots; b++)
		out->common += shift[b] * shift[b] / dof;
	if (rows > 1)
		out->common = fmax(0, out->common - own_mean / k);
	if (stats_variance_prior(out->own, df, rows, &out->prior) < 0)
		goto out;
	for (size_t r = 0; r < rows; r++) {
		if (stats_variance_outlier(out->own[r], out->own_df, &out->prior)) {
			out->moderated[r] = out->own[r];
			out->moderated_df[r] = out->own_df;
			continue;
		}
		out->moderated[r] = stats_moderated_variance(out->own[r], out->own_df,
							     &out->prior);
		out->moderated_df[r] = out->own_df +
				       (isfinite(out->prior.var) ? out->prior.df : 0);
	}
	rc = 0;
out:
	if (rc)
		boot_split_free(out);
	free(mean);
	free(shift);
	free(members);
	free(df);
	return rc;
}

int calibrate_boot_variance(const double *mean, const double *var,
			    size_t rows, size_t runs, const unsigned *boot,
			    size_t boots, struct boot_variance *out)
{
	size_t *members = calloc(boots ? boots : 1, sizeof(*members));
	double *boot_mean = calloc((boots ? boots : 1) * (rows ? rows : 1),
				   sizeof(*boot_mean));
	double *within = calloc(rows ? rows : 1, sizeof(*within));
	double *wbar = calloc(rows ? rows : 1, sizeof(*wbar));
	double *within_df = calloc(rows ? rows : 1, sizeof(*within_df));
	unsigned *one_group = calloc(boots ? boots : 1, sizeof(*one_group));
	struct stats_prior within_prior = { NAN, 0 };
	struct boot_split split = { 0 };
	double inv_members = 0, k = (double)rows, sum_w = 0, sum_own = 0;
	double most_df = 0, inv_sum = 0;
	size_t dof_within = 0;
	int rc = -1;

	if (!members || !boot_mean || !within || !wbar || !within_df ||
	    !one_group || boots < 2 || !rows || !runs)
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
		dof_within += members[i] - 1;
	}
	for (size_t r = 0; r < rows; r++) {
		const double *y = mean + r * runs, *w = var + r * runs;
		double *m = boot_mean + r * boots;

		for (size_t j = 0; j < runs; j++) {
			m[boot[j]] += y[j] / (double)members[boot[j]];
			wbar[r] += w[j] / (double)runs;
		}
		/* runs of one boot about their boot's mean: V */
		for (size_t j = 0; dof_within && j < runs; j++) {
			double d = y[j] - m[boot[j]];

			within[r] += d * d / (double)dof_within;
		}
		within_df[r] = (double)dof_within;
		sum_w += wbar[r] / k;
	}
	if (boot_split(boot_mean, rows, boots, one_group, 1, &split))
		goto out;
	if (dof_within && stats_variance_prior(within, within_df, rows, &within_prior) < 0)
		goto out;
	/*
	 * A run from another boot: beyond its own w it varies by the row's
	 * own part of a boot and what differs between runs of one boot,
	 * s_k^2 = O~ + (1 - mean 1/m) V~ - w.
	 */
	for (size_t r = 0; r < rows; r++) {
		double v = dof_within ? stats_moderated_variance(within[r], within_df[r],
								 &within_prior) : 0;
		double parts[2] = { split.moderated[r], (1 - inv_members) * v };
		double dfs[2] = { split.moderated_df[r],
				  (double)dof_within + within_prior.df };
		double own = fmax(0, parts[0] + parts[1] - wbar[r]);

		if (out->row_estimate)
			out->row_estimate[r] = sqrt(own);
		sum_own += own / k;
		dfs[0] = compare_satterthwaite(parts, dfs, 2);
		if (out->row_estimate_dfs)
			out->row_estimate_dfs[r] = dfs[0];
		most_df = fmax(most_df, dfs[0]);
		if (dof_within)
			inv_sum += fmax(0, v - wbar[r]) / k;
	}
	out->common_sd = sqrt(split.common);
	out->common_df = split.common_df;
	/* a row without its own estimate: the prior, as moderated rows are */
	{
		double v0 = dof_within ? within_prior.var : 0;
		double prior = isfinite(split.prior.var) ? split.prior.var : split.own[0];

		out->row_sd = sqrt(fmax(0, prior + (1 - inv_members) * v0 - sum_w));
		out->row_df = isfinite(split.prior.var) ? split.prior.df : split.own_df;
	}
	out->row_estimate_df = most_df;
	out->sd = sqrt(split.common + sum_own);
	{
		double parts[2] = { split.common, sum_own };
		double dfs[2] = { split.common_df, most_df * k };

		out->df = compare_satterthwaite(parts, dfs, 2);
	}
	out->within_sd = sqrt(sum_w);
	out->invocation_sd = dof_within ? sqrt(inv_sum) : NAN;
	rc = 0;
out:
	boot_split_free(&split);
	free(members);
	free(boot_mean);
	free(within);
	free(wbar);
	free(within_df);
	free(one_group);
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

static const char *const *sort_names;

static int by_row_name(const void *x, const void *y)
{
	return strcmp(sort_names[*(const size_t *)x], sort_names[*(const size_t *)y]);
}

/* c->model from c->bv and c->row_names: rows sorted by name. */
static int build_model(struct calibration *c)
{
	struct compare_boot_model *m = &c->model;
	size_t *order = calloc(c->rows ? c->rows : 1, sizeof(*order));

	m->invocation = c->invocation;
	m->common = (struct compare_variance){ c->bv.common_sd * c->bv.common_sd,
					       c->bv.common_df };
	m->prior = (struct compare_variance){ c->bv.row_sd * c->bv.row_sd,
					      c->bv.row_df };
	m->names = calloc(c->rows ? c->rows : 1, sizeof(*m->names));
	m->own = calloc(c->rows ? c->rows : 1, sizeof(*m->own));
	if (!order || !m->names || !m->own) {
		free(order);
		return -1;
	}
	for (size_t r = 0; r < c->rows; r++)
		order[r] = r;
	/* one thread builds a calibration at a time */
	sort_names = (const char *const *)c->row_names;
	qsort(order, c->rows, sizeof(*order), by_row_name);
	for (size_t r = 0; r < c->rows; r++) {
		double sd = c->bv.row_estimate[order[r]];

		m->names[r] = c->row_names[order[r]];
		m->own[r] = (struct compare_variance){ sd * sd,
			c->bv.row_estimate_dfs ? c->bv.row_estimate_dfs[order[r]]
					       : c->bv.row_estimate_df };
	}
	m->count = c->rows;
	free(order);
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
	if (boots < 2 && count < 2) {
		say(err, errlen, "one run: a calibration needs runs of two or "
		    "more boots of one state (what boots differ by), or two or "
		    "more runs of one boot (what invocations differ by)");
		goto out;
	}
	/* all of one boot: each run a unit, what separate invocations differ by */
	out->invocation = boots < 2;
	if (out->invocation) {
		for (size_t j = 0; j < count; j++)
			boot[j] = (unsigned)j;
		boots = count;
	}
	mean = calloc(runs[0]->count * count + 1, sizeof(*mean));
	var = calloc(runs[0]->count * count + 1, sizeof(*var));
	out->row_names = calloc(runs[0]->count + 1, sizeof(*out->row_names));
	out->bv.row_estimate = calloc(runs[0]->count + 1, sizeof(double));
	out->bv.row_estimate_dfs = calloc(runs[0]->count + 1, sizeof(double));
	out->keys = calloc(field_count(), sizeof(*out->keys));
	out->values = calloc(field_count(), sizeof(*out->values));
	if (!mean || !var || !out->row_names || !out->bv.row_estimate ||
	    !out->bv.row_estimate_dfs ||
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
	if (build_model(out))
		goto nomem;
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
	free(c->bv.row_estimate_dfs);
	free(c->model.names);
	free(c->model.own);
	free(c->keys);
	free(c->values);
	memset(c, 0, sizeof(*c));
}

/* ------------------------------------------------------- the file */

#define CALIBRATION_FORMAT	2
#define ROW_PREFIX		"row:"
#define ROW_DF_PREFIX		"row_df:"

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
	KV("level", "%s", c->invocation ? "invocation" : "boot");
	for (size_t i = 0; i < c->context_count; i++)
		csv_row(&w, (const char *const[]){ c->keys[i], c->values[i] }, 2);
	KV("boots", "%zu", c->boots);
	KV("runs", "%zu", c->runs);
	KV("rows", "%zu", c->rows);
	KV("boot_sd", "%.6g", c->bv.sd);
	KV("boot_df", "%.4g", c->bv.df);
	KV("boot_sd_common", "%.6g", c->bv.common_sd);
	KV("boot_df_common", "%.4g", c->bv.common_df);
	KV("boot_sd_row", "%.6g", c->bv.row_sd);
	KV("boot_df_row", "%.4g", c->bv.row_df);
	KV("row_df", "%.4g", c->bv.row_estimate_df);
	KV("within_sd", "%.6g", c->bv.within_sd);
	if (isfinite(c->bv.invocation_sd))
		KV("invocation_sd", "%.6g", c->bv.invocation_sd);
	for (size_t r = 0; r < c->rows; r++) {
		char key[RUNDIR_MAX_NAME + 8];

		snprintf(key, sizeof(key), ROW_PREFIX "%s", c->row_names[r]);
		KV(key, "%.6g", c->bv.row_estimate[r]);
		/* a row kept off the prior has df of its own */
		if (c->bv.row_estimate_dfs &&
		    c->bv.row_estimate_dfs[r] < c->bv.row_estimate_df * (1 - 1e-9)) {
			snprintf(key, sizeof(key), ROW_DF_PREFIX "%s", c->row_names[r]);
			KV(key, "%.4g", c->bv.row_estimate_dfs[r]);
		}
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

/* The numbers of a calibration file: key, where, whether df (> 0). */
static const struct {
	const char *key;
	size_t offset;
	int df;
} numbers[] = {
	{ "boot_sd", offsetof(struct boot_variance, sd), 0 },
	{ "boot_df", offsetof(struct boot_variance, df), 1 },
	{ "boot_sd_common", offsetof(struct boot_variance, common_sd), 0 },
	{ "boot_df_common", offsetof(struct boot_variance, common_df), 1 },
	{ "boot_sd_row", offsetof(struct boot_variance, row_sd), 0 },
	{ "boot_df_row", offsetof(struct boot_variance, row_df), 1 },
	{ "row_df", offsetof(struct boot_variance, row_estimate_df), 1 },
	{ "within_sd", offsetof(struct boot_variance, within_sd), 0 },
};
#define NUMBERS (sizeof(numbers) / sizeof(*numbers))

/* A row's estimate into c (grown as needed); 0, or -1 on no memory. */
static int add_row(struct calibration *c, size_t *cap, const char *name,
		   double sd)
{
	if (c->rows == *cap) {
		size_t n = *cap ? 2 * *cap : 64;
		char **names = realloc(c->row_names, n * sizeof(*names));

		if (!names)
			return -1;
		c->row_names = names;
		double *est = realloc(c->bv.row_estimate, n * sizeof(*est));

		if (!est)
			return -1;
		c->bv.row_estimate = est;
		est = realloc(c->bv.row_estimate_dfs, n * sizeof(*est));
		if (!est)
			return -1;
		c->bv.row_estimate_dfs = est;
		*cap = n;
	}
	c->row_names[c->rows] = strdup(name);
	if (!c->row_names[c->rows])
		return -1;
	c->bv.row_estimate_dfs[c->rows] = NAN;	/* row_df, once read */
	c->bv.row_estimate[c->rows++] = sd;
	return 0;
}

int calibration_read(const char *path, struct calibration *c, char *err,
		     size_t errlen)
{
	struct csv_table t;
	unsigned have = 0;
	size_t cap = 0;
	int rc = -1, format = 0;

	memset(c, 0, sizeof(*c));
	c->bv.invocation_sd = NAN;
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
		size_t n;
		double v;

		for (n = 0; n < NUMBERS && strcmp(key, numbers[n].key); n++)
			;
		if (!strcmp(key, "format")) {
			format = atoi(value);
			if (!strcmp(value, "1")) {
				say(err, errlen, "%s:%lu: format 1, from an older "
				    "smapbench that pooled every row into one "
				    "boot variance: run smapbench calibrate on the "
				    "runs again", path, csv_table_line(&t, i));
				goto out;
			}
			if (strcmp(value, "2")) {
				say(err, errlen, "%s:%lu: format %s, this version "
				    "reads format 2", path, csv_table_line(&t, i), value);
				goto out;
			}
		} else if (n < NUMBERS || !strcmp(key, "invocation_sd") ||
			   !strncmp(key, ROW_PREFIX, strlen(ROW_PREFIX)) ||
			   !strncmp(key, ROW_DF_PREFIX, strlen(ROW_DF_PREFIX))) {
			int df = n < NUMBERS && numbers[n].df;

			if (nonnegative(value, &v) || (df && !(v > 0))) {
				say(err, errlen, "%s:%lu: %s '%s' is not a number "
				    "%s 0", path, csv_table_line(&t, i), key, value,
				    df ? "above" : "from");
				goto out;
			}
			if (n < NUMBERS) {
				*(double *)((char *)&c->bv + numbers[n].offset) = v;
				have |= 1u << n;
			} else if (!strcmp(key, "invocation_sd")) {
				c->bv.invocation_sd = v;
			} else if (!strncmp(key, ROW_DF_PREFIX, strlen(ROW_DF_PREFIX))) {
				/* of the row just read */
				if (!c->rows || strcmp(c->row_names[c->rows - 1],
						       key + strlen(ROW_DF_PREFIX))) {
					say(err, errlen, "%s:%lu: %s follows no row of "
					    "that name", path, csv_table_line(&t, i), key);
					goto out;
				}
				c->bv.row_estimate_dfs[c->rows - 1] = v;
			} else if (add_row(c, &cap, key + strlen(ROW_PREFIX), v)) {
				goto nomem;
			}
		} else if (!strcmp(key, "level")) {
			if (strcmp(value, "boot") && strcmp(value, "invocation")) {
				say(err, errlen, "%s:%lu: level '%s' is neither boot "
				    "nor invocation", path, csv_table_line(&t, i), value);
				goto out;
			}
			c->invocation = !strcmp(value, "invocation");
		} else if (!strcmp(key, "boots") && !nonnegative(value, &v)) {
			c->boots = (size_t)v;
		} else if (!strcmp(key, "runs") && !nonnegative(value, &v)) {
			c->runs = (size_t)v;
		} else if (context_key_is(key, KEY_COMPARISON) ||
			   !strcmp(key, held_fields[0])) {
			if (c->context_count < field_count() &&
			    add_context(c, key, value))
				goto nomem;
		}
	}
	for (size_t n = 0; n < NUMBERS; n++)
		if (!(have & (1u << n)) || !format) {
			say(err, errlen, "%s: no %s: not a calibration smapbench "
			    "calibrate wrote", path, format ? numbers[n].key : "format");
			goto out;
		}
	for (size_t r = 0; r < c->rows; r++)
		if (isnan(c->bv.row_estimate_dfs[r]))
			c->bv.row_estimate_dfs[r] = c->bv.row_estimate_df;
	if (build_model(c))
		goto nomem;
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
	if (c->invocation)
		fprintf(f, "what separate invocations of one boot differ by, from "
			"%zu runs, %zu rows (runs of two or more boots give what "
			"boots differ by):\n", c->runs, c->rows);
	else
		fprintf(f, "boot variance from %zu runs of %zu boots, %zu rows:\n",
			c->runs, c->boots, c->rows);
	fprintf(f, "  sigma_u %.2f%% (pooled, df %.1f): a shift every row shares "
		"%.2f%% (df %.0f), each row's own %.2f%% pooled (prior df %.1f); a "
		"run's mean from its repetitions alone %.2f%%\n", 100 * c->bv.sd,
		c->bv.df, 100 * c->bv.common_sd, c->bv.common_df, 100 * c->bv.row_sd,
		c->bv.row_df, 100 * c->bv.within_sd);
	if (isfinite(c->bv.invocation_sd))
		fprintf(f, "  between runs of one boot, beyond their repetitions: "
			"%.2f%%\n", 100 * c->bv.invocation_sd);
	fprintf(f, "  each row's own, moderated toward the pooled (df %.1f each):\n",
		c->bv.row_estimate_df);
	for (size_t r = 0; r < c->rows; r++)
		fprintf(f, "  %-44s %6.2f%%\n", c->row_names[r],
			100 * c->bv.row_estimate[r]);
}
