// SPDX-License-Identifier: GPL-2.0
/* pair_fit.c - the pair's cost from two boots; see pair_fit.h. */
#include "analysis/pair_fit.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derived.h"
#include "analysis/table.h"
#include "analysis/text_table.h"
#include "measure/stats.h"
#include "rundata/census_csv.h"

/*
 * A census of the benchmarks (census_csv_load() refuses a census of a
 * command, whose census.csv has other columns) with a SMAP boot of kernel.
 */
static int census_has_kernel(const struct census_csv *t, const char *kernel)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->rows[i].kernel, kernel) &&
		    !strcmp(t->rows[i].state, "smap"))
			return 1;
	return 0;
}

/* path, or path/census.csv when path is a directory, into out. */
static void census_file(const char *path, char *out, size_t len)
{
	size_t n = strlen(path);

	if (n > 4 && !strcmp(path + n - 4, ".csv"))
		snprintf(out, len, "%s", path);
	else
		snprintf(out, len, "%s/census.csv", path);
}

/* The directory that holds a run, into out. */
static void parent_dir(const char *path, char *out, size_t len)
{
	char *slash;

	snprintf(out, len, "%s", path);
	for (size_t n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
		out[n - 1] = '\0';
	slash = strrchr(out, '/');
	if (!slash)
		snprintf(out, len, ".");
	else if (slash == out)
		out[1] = '\0';
	else
		*slash = '\0';
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Load the census of kernel into t: the one at census_path, or the first
 * (by name) directory beside the run with a census.csv of kernel.
 * 0, or -1 with why in fit.
 */
static int load_census(const char *census_path, const struct run_dir *smap,
		       const char *kernel, struct census_csv *t,
		       struct pair_fit *fit)
{
	char dir[512], err[640];
	char **names = NULL;
	size_t count = 0, cap = 0;
	struct dirent *e;
	DIR *d;
	int rc = -1;

	if (census_path) {
		census_file(census_path, fit->census, sizeof(fit->census));
		if (census_csv_load(fit->census, t, err, sizeof(err))) {
			snprintf(fit->why, sizeof(fit->why), "%.600s", err);
			return -1;
		}
		if (census_has_kernel(t, kernel))
			return 0;
		census_csv_free(t);
		snprintf(fit->why, sizeof(fit->why), "%.500s has no SMAP boot of "
			 "kernel %.200s", fit->census, kernel);
		return -1;
	}
	parent_dir(smap->path, dir, sizeof(dir));
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		char **grown;

		if (!strstr(e->d_name, "census") || e->d_name[0] == '.')
			continue;
		if (count == cap) {
			cap = cap ? 2 * cap : 8;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown)
				break;
			names = grown;
		}
		names[count] = strdup(e->d_name);
		if (names[count])
			count++;
	}
	if (d)
		closedir(d);
	if (count)
		qsort(names, count, sizeof(*names), by_name);
	for (size_t i = 0; i < count && rc; i++) {
		snprintf(fit->census, sizeof(fit->census), "%.250s/%.200s/census.csv",
			 dir, names[i]);
		if (census_csv_load(fit->census, t, err, sizeof(err)))
			continue;
		if (census_has_kernel(t, kernel))
			rc = 0;
		else
			census_csv_free(t);
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	if (rc) {
		fit->census[0] = '\0';
		snprintf(fit->why, sizeof(fit->why), "no census of kernel %s "
			 "beside %s: make one with `vm/census.sh --kernel "
			 "VMLINUZ --states smap --out DIR` (or `make census`, "
			 "docs/census.md) and give it with --census DIR", kernel,
			 smap->path);
	}
	return rc;
}

/* The SMAP boot's STAC per operation of name, or NAN. */
static double windows_of(const struct census_csv *t, const char *kernel,
			 const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (!strcmp(t->rows[i].kernel, kernel) &&
		    !strcmp(t->rows[i].name, name) &&
		    census_csv_smap_row(&t->rows[i]))
			return t->rows[i].stac_per_op;
	return NAN;
}

/* Rows whose change the pair's cost explains: syscall, and kmod kapi. */
static int fitted_row(const struct run_bench *b)
{
	return !strcmp(b->suite, "syscall") ||
	       (!strcmp(b->suite, "kmod") && !strcmp(b->variant, "kapi"));
}

int pair_fit_points(struct pair_fit *fit)
{
	double saa = 0, saw = 0, sww = 0, say = 0, swy = 0, det, rss = 0;
	double fit_var, shift_var, t;

	for (size_t i = 0; i < fit->count; i++) {
		const struct pair_fit_point *p = &fit->point[i];
		double w = 1 / (p->se * p->se);

		saa += w * p->base * p->base;
		saw += w * p->base * p->windows;
		sww += w * p->windows * p->windows;
		say += w * p->base * p->delta;
		swy += w * p->windows * p->delta;
	}
	det = saa * sww - saw * saw;
	if (!(det > 0) || fit->count < 3 || !(det > 1e-12 * saa * sww))
		return -1;
	fit->alpha = (sww * say - saw * swy) / det;
	fit->beta = (saa * swy - saw * say) / det;
	for (size_t i = 0; i < fit->count; i++) {
		struct pair_fit_point *p = &fit->point[i];

		p->residual = p->delta - fit->alpha * p->base - fit->beta * p->windows;
		rss += p->residual * p->residual / (p->se * p->se);
	}
	fit->df = (double)fit->count - 2;
	/* residuals that spread more than the variances say widen it */
	fit->scale = fmax(1, rss / fit->df);
	/* 1 / (1 - R^2) of base on windows, without intercept, as weighed */
	fit->vif = saa * sww / det;
	fit_var = fit->scale * saa / det;
	/* the SMAP side's shift scales beta itself */
	shift_var = isfinite(fit->smap_shift_var) ?
		    fit->beta * fit->beta * fit->smap_shift_var : 0;
	fit->beta_se = sqrt(fit_var + shift_var);
	fit->alpha_se = sqrt(fit->scale * sww / det);
	{
		double var[2] = { fit_var, shift_var };
		double df[2] = { fit->df, fit->smap_shift_df };

		if (shift_var > 0)
			fit->df = fmin(compare_satterthwaite(var, df, 2),
				       fmax(fit->df, 1));
	}
	t = stats_student_quantile(0.975, fit->df);
	fit->beta_low = fit->beta - t * fit->beta_se;
	fit->beta_high = fit->beta + t * fit->beta_se;
	return 0;
}

/*
 * inline - nopad of the table's first pair figure (the catalogue's, get_user
 * at 8 B today), else the first pair, in the fit's unit,
 * with its se backed out of its interval with the t it was made with:
 * repetitions in common - 1 df.
 */
static void within_boot(const struct run_dir *smap, struct pair_fit *fit,
			double *se, double *df)
{
	const struct table_cell_def *cell = NULL;
	struct derived d;
	const struct derived_pair *p = NULL;
	const struct run_bench *b, *nop;
	struct stats_interval iv;
	double scale;
	char name[64];

	fit->within = fit->within_low = fit->within_high = NAN;
	*se = *df = NAN;
	if (derived_compute(smap, &d))
		return;
	for (size_t c = table_cell_count(); c-- > 0;)
		if (table_cells()[c].kind == TABLE_PAIR)
			cell = &table_cells()[c];
	for (size_t i = 0; i < d.pair_count; i++)
		if (!p || (cell && !strcmp(d.pairs[i].op, cell->op) &&
			   d.pairs[i].size == cell->size))
			p = &d.pairs[i];
	if (p) {
		snprintf(name, sizeof(name), "kmod/%s/inline/%lu", p->op, p->size);
		b = rundir_find(smap, name);
		snprintf(name, sizeof(name), "kmod/%s/nopad/%lu", p->op, p->size);
		nop = rundir_find(smap, name);
		scale = b ? (!strcmp(fit->unit, "cycles") ? table_cycles_per_unit(smap, b)
							 : rundir_ns_per_unit(smap, b))
			  : NAN;
		if (isfinite(scale) && nop && !compare_within_run(nop, 1, b, 1, &iv) &&
		    iv.n >= 2 && isfinite(p->low)) {
			fit->within = p->cost * scale;
			fit->within_low = p->low * scale;
			fit->within_high = p->high * scale;
			fit->within_name = cell && !strcmp(p->op, cell->op) &&
					   p->size == cell->size ? cell->title : p->op;
			*df = (double)iv.n - 1;
			*se = (fit->within_high - fit->within_low) / 2 /
			      stats_student_quantile(0.975, *df);
		}
	}
	derived_free(&d);
}

int pair_fit_rows(const struct compare_result *res, const double *windows,
		  const double *scale, int reversed,
		  const struct compare_settings *set, struct pair_fit *out)
{
	out->reversed = reversed;
	out->smap_shift_var = NAN;
	out->smap_shift_df = INFINITY;
	out->point = calloc(res->count ? res->count : 1, sizeof(*out->point));
	if (!out->point)
		return -1;
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		double off, on, var_off, var_on, share_on, own, common, sd;

		if (!isfinite(windows[i]) || !isfinite(scale[i]) || r->linear ||
		    !isfinite(r->raw_se) || !(r->raw_se > 0))
			continue;
		/*
		 * Each side's variance on the log scale, of its own parts: its
		 * repetitions and its share of the row's own boot part (the
		 * assumption, where the boots' is not known, taken as own and
		 * as shared both: conservative).
		 */
		sd = set->same_boot ? 0 : set->boot_sd;
		own = isfinite(r->boot_own) ? r->boot_own : r->boot_scale * sd * sd;
		common = isfinite(r->boot_common) && !r->boot_assumed ?
			 r->boot_common : r->boot_scale * sd * sd;
		share_on = reversed ? r->boot_share_a : 1 - r->boot_share_a;
		var_off = (reversed ? r->within_b : r->within_a) + (1 - share_on) * own;
		var_on = (reversed ? r->within_a : r->within_b) + share_on * own;
		off = (reversed ? r->center_b : r->center_a) * scale[i];
		on = (reversed ? r->center_a : r->center_b) * scale[i];
		if (!isfinite(out->smap_shift_var) && r->boot_scale > 0) {
			out->smap_shift_var = share_on * common;
			out->smap_shift_df = isfinite(r->boot_common) && !r->boot_assumed ?
					     r->boot_common_df : INFINITY;
		}
		out->point[out->count++] = (struct pair_fit_point){
			r->b->name, off, windows[i], on - off,
			sqrt(off * off * var_off + on * on * var_on), NAN };
	}
	if (pair_fit_points(out)) {
		snprintf(out->why, sizeof(out->why), "%zu rows of the comparison "
			 "are in the census, with too few distinct window counts "
			 "to fit a line", out->count);
		return 0;
	}
	out->fitted = 1;
	return 0;
}

int pair_fit_compute(const struct compare_result *res,
		     const struct run_dir *a, const struct run_dir *b,
		     const char *census_path,
		     const struct compare_settings *set, struct pair_fit *out)
{
	const char *state_a = rundir_context_or(a, "smap_state", "");
	const char *state_b = rundir_context_or(b, "smap_state", "");
	int reversed = !strcmp(state_a, "smap") && !strcmp(state_b, "nosmap");
	const struct run_dir *smap = reversed ? a : b;
	const char *kernel = rundir_context_or(smap, "kernel_release", "");
	double *windows = NULL, *scale = NULL, se_w, df_w;
	struct census_csv t;
	int cycles = 1, rc = -1;

	memset(out, 0, sizeof(*out));
	out->unit = "cycles";
	out->within = out->within_low = out->within_high = NAN;
	if (!reversed && !(!strcmp(state_a, "nosmap") && !strcmp(state_b, "smap"))) {
		snprintf(out->why, sizeof(out->why), "not a SMAP boot against a "
			 "SMAP-off boot (A %s, B %s): no pair's cost to fit",
			 *state_a ? state_a : "state unknown",
			 *state_b ? state_b : "state unknown");
		return 0;
	}
	if (load_census(census_path, smap, kernel, &t, out))
		return 0;
	windows = malloc((res->count ? res->count : 1) * sizeof(*windows));
	scale = malloc((res->count ? res->count : 1) * sizeof(*scale));
	if (!windows || !scale)
		goto out;
	/* cycles only if every fitted row converts; else ns */
	for (size_t i = 0; i < res->count; i++)
		if (fitted_row(res->rows[i].b) &&
		    !isfinite(table_cycles_per_unit(smap, res->rows[i].b)))
			cycles = 0;
	out->unit = cycles ? "cycles" : "ns";
	for (size_t i = 0; i < res->count; i++) {
		const struct run_bench *row = reversed ? res->rows[i].a : res->rows[i].b;

		windows[i] = fitted_row(row) ? windows_of(&t, kernel, row->name) : NAN;
		scale[i] = cycles ? table_cycles_per_unit(smap, row)
				  : rundir_ns_per_unit(smap, row);
	}
	if (pair_fit_rows(res, windows, scale, reversed, set, out))
		goto out;
	rc = 0;
	if (!out->fitted)
		goto out;
	within_boot(smap, out, &se_w, &df_w);
	if (isfinite(se_w)) {
		double d = out->beta - out->within;
		double var[2] = { out->beta_se * out->beta_se, se_w * se_w };
		double df[2] = { out->df, df_w };
		double half = stats_student_quantile(0.975,
						     compare_satterthwaite(var, df, 2)) *
			      sqrt(var[0] + var[1]);

		out->disagree = d - half > 0 || d + half < 0;
	}
out:
	census_csv_free(&t);
	free(windows);
	free(scale);
	return rc;
}

void pair_fit_free(struct pair_fit *f)
{
	free(f->point);
	memset(f, 0, sizeof(*f));
}

void pair_fit_print(FILE *f, const struct pair_fit *fit, int markdown)
{
	char b[32], lo[32], hi[32], a[32];

	fprintf(f, "%s%sThe pair's cost from the two boots%s\n", markdown ? "\n" : "\n",
		markdown ? "## " : "", markdown ? "\n" : ":");
	if (!fit->fitted) {
		fprintf(f, "%snot fitted: %s.\n", markdown ? "\n" : "", fit->why);
		return;
	}
	fprintf(f, "%s%s - %s = alpha x %s + beta x windows over %zu syscall "
		"and kapi rows (windows per operation from %s), weighted by 1 / "
		"variance: beta = %s [%s, %s] %s per pair (t, %.0f df%s, the SMAP "
		"boot's shift in it); alpha, the shift all rows share, %s%%.\n",
		markdown ? "\n" : "", fit->reversed ? "A" : "B",
		fit->reversed ? "B" : "A", fit->reversed ? "B" : "A", fit->count,
		fit->census, format_number(b, sizeof(b), fit->beta),
		format_number(lo, sizeof(lo), fit->beta_low),
		format_number(hi, sizeof(hi), fit->beta_high), fit->unit, fit->df,
		fit->scale > 1 ? ", widened by the residuals' spread" : "",
		format_number(a, sizeof(a), 100 * fit->alpha));
	if (fit->vif > PAIR_FIT_MAX_VIF)
		fprintf(f, "%sWARNING: the rows' costs and their window counts move "
			"together (variance inflation factor %.0f, above %d): alpha "
			"and beta can trade places, and beta says little. Rows with "
			"many windows and a small cost, or none and a large one, "
			"would part them.\n", markdown ? "\n" : "", fit->vif,
			PAIR_FIT_MAX_VIF);
	if (isfinite(fit->within))
		fprintf(f, "%sWithin the SMAP boot, inline - nopad (%s, per access): "
			"%s [%s, %s] %s. %s\n", markdown ? "\n" : "",
			fit->within_name, format_number(b, sizeof(b), fit->within),
			format_number(lo, sizeof(lo), fit->within_low),
			format_number(hi, sizeof(hi), fit->within_high), fit->unit,
			fit->disagree ? "They DISAGREE: their difference's interval "
			"excludes 0 (a kernel's pair may sit where the out-of-order "
			"core overlaps it differently than the module's, or the "
			"census is of another build of the kernel)."
				      : "They agree within their intervals.");
	else
		fprintf(f, "%sNo within-boot pair cost (inline - nopad) in the SMAP run "
			"to set beside it.\n", markdown ? "\n" : "");
	if (markdown) {
		struct text_table t;

		fprintf(f, "\n");
		text_table_init(&t, 4, "lrrr");
		text_table_add(&t, (const char *const[]){ "benchmark", "windows/op",
			   "delta", "residual" });
		for (size_t i = 0; i < fit->count; i++) {
			char w[32], d[32], r[32];

			snprintf(w, sizeof(w), "%.3g", fit->point[i].windows);
			text_table_add(&t, (const char *const[]){ fit->point[i].name, w,
				   format_number(d, sizeof(d), fit->point[i].delta),
				   format_number(r, sizeof(r), fit->point[i].residual) });
		}
		text_table_print(f, &t, markdown);
		text_table_free(&t);
	}
}
