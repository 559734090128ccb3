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
	double t;

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
	fit->beta_se = sqrt(fit->scale * saa / det);
	fit->alpha_se = sqrt(fit->scale * sww / det);
	t = stats_student_quantile(0.975, fit->df);
	fit->beta_low = fit->beta - t * fit->beta_se;
	fit->beta_high = fit->beta + t * fit->beta_se;
	return 0;
}

/*
 * inline - nopad of the table's first pair figure (the catalogue's, get_user
 * at 8 B today), else the first pair, in the fit's unit.
 */
static void within_boot(const struct run_dir *smap, struct pair_fit *fit)
{
	const struct table_cell_def *cell = NULL;
	struct derived d;
	const struct derived_pair *p = NULL;
	const struct run_bench *b;
	double scale;
	char name[64];

	fit->within = fit->within_low = fit->within_high = NAN;
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
		scale = b ? (!strcmp(fit->unit, "cycles") ? table_cycles_per_unit(smap, b)
							 : rundir_ns_per_unit(smap, b))
			  : NAN;
		if (isfinite(scale)) {
			fit->within = p->cost * scale;
			fit->within_low = p->low * scale;
			fit->within_high = p->high * scale;
			fit->within_name = cell && !strcmp(p->op, cell->op) &&
					   p->size == cell->size ? cell->title : p->op;
		}
	}
	derived_free(&d);
}

int pair_fit_compute(const struct compare_result *res,
		     const struct run_dir *smap, const char *census_path,
		     const struct compare_settings *set, struct pair_fit *out)
{
	const char *kernel = rundir_context_or(smap, "kernel_release", "");
	struct census_csv t;
	int cycles = 1;

	(void)set;
	memset(out, 0, sizeof(*out));
	out->unit = "cycles";
	out->within = out->within_low = out->within_high = NAN;
	if (load_census(census_path, smap, kernel, &t, out))
		return 0;
	out->point = calloc(res->count ? res->count : 1, sizeof(*out->point));
	if (!out->point) {
		census_csv_free(&t);
		return -1;
	}
	/* cycles only if every fitted row converts; else ns */
	for (size_t i = 0; i < res->count; i++)
		if (fitted_row(res->rows[i].b) &&
		    !isfinite(table_cycles_per_unit(smap, res->rows[i].b)))
			cycles = 0;
	out->unit = cycles ? "cycles" : "ns";
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		double w = windows_of(&t, kernel, r->b->name), scale, se;

		if (!fitted_row(r->b) || !isfinite(w) || r->linear ||
		    !isfinite(r->se) || !(r->se > 0))
			continue;
		scale = cycles ? table_cycles_per_unit(smap, r->b)
			       : rundir_ns_per_unit(smap, r->b);
		if (!isfinite(scale))
			continue;
		/* the log-scale se, in the unit at A's center */
		se = r->se * r->center_a * scale;
		out->point[out->count++] = (struct pair_fit_point){
			r->b->name, r->center_a * scale, w, r->delta * scale, se, NAN };
	}
	census_csv_free(&t);
	if (pair_fit_points(out)) {
		snprintf(out->why, sizeof(out->why), "%zu rows of the comparison "
			 "are in the census, with too few distinct window counts "
			 "to fit a line", out->count);
		return 0;
	}
	out->fitted = 1;
	within_boot(smap, out);
	if (isfinite(out->within_low) && isfinite(out->within_high)) {
		double se_w = (out->within_high - out->within_low) / 2 / 1.96;
		double d = out->beta - out->within;
		double half = stats_student_quantile(0.975, out->df) *
			      sqrt(out->beta_se * out->beta_se + se_w * se_w);

		out->disagree = d - half > 0 || d + half < 0;
	}
	return 0;
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
	fprintf(f, "%sdelta = alpha x A + beta x windows over %zu syscall and kapi rows "
		"(windows per operation from %s), weighted by 1 / variance: beta "
		"= %s [%s, %s] %s per pair (t, %.0f df%s); alpha, the shift all rows "
		"share, %s%%.\n",
		markdown ? "\n" : "", fit->count, fit->census,
		format_number(b, sizeof(b), fit->beta),
		format_number(lo, sizeof(lo), fit->beta_low),
		format_number(hi, sizeof(hi), fit->beta_high), fit->unit, fit->df,
		fit->scale > 1 ? ", widened by the residuals' spread" : "",
		format_number(a, sizeof(a), 100 * fit->alpha));
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
