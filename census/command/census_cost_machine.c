// SPDX-License-Identifier: GPL-2.0
/*
 * census_cost_machine.c - the pair's cost as this machine measured it,
 * when none is given: the module's, a series' beta, the table's for this
 * CPU model, else a range; see census_cost.h.
 */
#include "census/command/census_cost.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/derived.h"
#include "analysis/pair_fit.h"
#include "rundata/pair_fit_csv.h"
#include "analysis/run_select.h"
#include "analysis/table.h"
#include "rundata/csv.h"
#include "rundata/rundir.h"

/*
 * What makes a figure this machine's: its host, its CPU and microcode
 * (a microcode update may change what the pair costs). The kernel may
 * differ: the pair is an instruction pair of the CPU.
 */
static const char *const machine_keys[] = {
	"host", "cpu_model", "cpu_family", "cpu_model_number", "cpu_stepping",
	"microcode", NULL,
};
/* The first of machine_keys that must be known: host, CPU model, family, model. */
#define MACHINE_KEYS_KNOWN 4

/* Run directories and pair-fit.csv files found under the runs' parent. */
struct found {
	char **runs, **fits;
	size_t nruns, nfits;
};

struct search {
	const struct census_cost_options *o;
	const struct context *m;
	const struct table_cell_def *pair_cell, *bound_cell;
	char passed[700];	/* what was passed over, and why */
};

static void note(struct search *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct search *s, const char *fmt, ...)
{
	size_t len = strlen(s->passed);
	va_list ap;

	if (len + 8 >= sizeof(s->passed))
		return;
	if (len)
		len += (size_t)snprintf(s->passed + len, sizeof(s->passed) - len, "; ");
	va_start(ap, fmt);
	vsnprintf(s->passed + len, sizeof(s->passed) - len, fmt, ap);
	va_end(ap);
}

static int is_file(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) < sizeof(path) &&
	       !access(path, R_OK);
}

static int add_path(char ***list, size_t *n, const char *path)
{
	char **grown = realloc(*list, (*n + 1) * sizeof(**list));

	if (!grown)
		return -1;
	*list = grown;
	if (!(grown[*n] = strdup(path)))
		return -1;
	++*n;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir but the hidden ones, sorted; NULL-terminated. */
static char **entries(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;

	*n = 0;
	while (d && (e = readdir(d))) {
		char path[PATH_MAX];

		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    sizeof(path))
			continue;
		if (add_path(&list, n, path))
			break;
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(list, *n, sizeof(*list), by_name);
	return list;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/*
 * Runs and fits under parent, two levels deep: PARENT/RUN,
 * PARENT/SERIES/runs/RUN (a boot series' runs), PARENT/COMPARE/pair-fit.csv
 * and PARENT/SERIES/compare-*\/pair-fit.csv.
 */
static int find_all(const char *parent, struct found *f)
{
	size_t n, m, k;
	char **top = entries(parent, &n);
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		char **sub;
		char fit[PATH_MAX];

		if (is_file(top[i], "context.csv") && is_file(top[i], "results.csv"))
			rc |= add_path(&f->runs, &f->nruns, top[i]);
		if (is_file(top[i], PAIR_FIT_FILE)) {
			snprintf(fit, sizeof(fit), "%s/%s", top[i], PAIR_FIT_FILE);
			rc |= add_path(&f->fits, &f->nfits, fit);
		}
		sub = entries(top[i], &m);
		for (size_t j = 0; j < m && !rc; j++) {
			const char *name = strrchr(sub[j], '/') + 1;

			if (!strncmp(name, "compare", 7) && is_file(sub[j], PAIR_FIT_FILE)) {
				snprintf(fit, sizeof(fit), "%s/%s", sub[j], PAIR_FIT_FILE);
				rc |= add_path(&f->fits, &f->nfits, fit);
			}
			if (strcmp(name, "runs"))
				continue;
			{
				char **runs = entries(sub[j], &k);

				for (size_t r = 0; r < k && !rc; r++)
					if (is_file(runs[r], "context.csv") &&
					    is_file(runs[r], "results.csv"))
						rc |= add_path(&f->runs, &f->nruns, runs[r]);
				free_list(runs, k);
			}
		}
		free_list(sub, m);
	}
	free_list(top, n);
	return rc;
}

/* Whether get(key) is this machine's for every machine key. */
static int same_machine(const struct search *s,
			const char *(*get)(const void *, const char *),
			const void *from)
{
	for (const char *const *k = machine_keys; *k; k++) {
		const char *mine = context_get(s->m, *k), *theirs = get(from, *k);
		/* the host and the CPU must be known; a hypervisor may hide the microcode */
		int needed = k - machine_keys < MACHINE_KEYS_KNOWN;

		if (!mine || !theirs || strcmp(mine, theirs) ||
		    (needed && (!*mine || !strcmp(mine, "unknown"))))
			return 0;
	}
	return 1;
}

static const char *run_get(const void *run, const char *key)
{
	return rundir_context(run, key);
}

static const char *fit_get(const void *fit, const char *key)
{
	return pair_fit_csv_get(fit, key);
}

/* The table cell with this id, of kind, or the first of kind. */
static const struct table_cell_def *cell_of(const char *id,
					    enum table_cell_kind kind)
{
	const struct table_cell_def *cells = table_cells(), *first = NULL;

	for (size_t i = 0; i < table_cell_count(); i++) {
		if (cells[i].kind != kind)
			continue;
		if (id && !strcmp(cells[i].id, id))
			return &cells[i];
		if (!first)
			first = &cells[i];
	}
	return first;
}

/*
 * A figure of b in run (value, low, high in b's unit) into c: in cycles
 * at the run's core clock where its chains agree, else in ns.
 */
static int convert(const struct run_dir *run, const struct run_bench *b,
		   double v, double lo, double hi, struct census_pair_cost *c)
{
	double cyc = table_cycles_per_unit(run, b);
	double ns = rundir_ns_per_unit(run, b);
	double ghz = strtod(rundir_context_or(run, "calib_ghz", "0"), NULL);

	if (isfinite(cyc) && ghz > 0) {
		snprintf(c->unit, sizeof(c->unit), "cycles");
		c->ghz = ghz;
		snprintf(c->ghz_source, sizeof(c->ghz_source),
			 "%.3f GHz, the core clock of %s (calib_ghz; its two chains agree)",
			 ghz, run->path);
	} else if (isfinite(ns)) {
		cyc = ns;
		snprintf(c->unit, sizeof(c->unit), "ns");
		snprintf(c->ghz_source, sizeof(c->ghz_source),
			 "none needed: the figure is in ns");
	} else {
		return -1;
	}
	c->value = v * cyc;
	c->has_interval = isfinite(lo) && isfinite(hi);
	c->low = c->has_interval ? lo * cyc : c->value;
	c->high = c->has_interval ? hi * cyc : c->value;
	return 0;
}

/* Runs of this machine, preferred first: SMAP boots, then the table's rule. */
struct ranked {
	struct run_dir run;	/* its context only */
	const char *path;
	struct run_weight w;
	int smap;
};

static int by_preference(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->smap != b->smap)
		return b->smap - a->smap;
	return -run_weight_compare(&a->w, &b->w, NULL, 0);
}

/*
 * Step 1, the module's inline - nopad, from the most preferred run of
 * this machine that has it; on the way, the bpf bound of the first run
 * with one into bound (kind RANGE). 1 with c set, 0 without, -1 no memory.
 */
static int from_runs(struct search *s, const struct found *f,
		     struct census_pair_cost *c, struct census_pair_cost *bound)
{
	struct ranked *r = calloc(f->nruns ? f->nruns : 1, sizeof(*r));
	size_t n = 0, tcg = 0, other = 0;
	int rc = 0;

	if (!r)
		return -1;
	for (size_t i = 0; i < f->nruns; i++) {
		char err[PATH_MAX + 256];

		if (rundir_load_context(f->runs[i], &r[n].run, err, sizeof(err)))
			continue;
		if (!same_machine(s, run_get, &r[n].run)) {
			other++;
		} else if (!strcmp(rundir_context_or(&r[n].run, "virt", ""), "tcg")) {
			if (!tcg++)
				note(s, "%s is of this machine's userland under QEMU's emulator (TCG): its timings are not a CPU's",
				     f->runs[i]);
		} else if (rundir_incomplete(&r[n].run)) {
			note(s, "%s was interrupted", f->runs[i]);
		} else {
			run_weight_of(&r[n].run, &r[n].w);
			r[n].path = f->runs[i];
			r[n].smap = !strcmp(rundir_context_or(&r[n].run, "smap_state", ""),
					    "smap");
			n++;
			continue;
		}
		rundir_free(&r[n].run);
	}
	qsort(r, n, sizeof(*r), by_preference);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct run_dir run;
		struct derived d;
		const struct derived_pair *p = NULL;
		const struct run_bench *b;
		const struct table_cell_def *cell = s->pair_cell;
		char err[PATH_MAX + 256];

		if (rundir_load(r[i].path, &run, err, sizeof(err)))
			continue;
		if (bound->kind == CENSUS_COST_NONE && s->bound_cell &&
		    (b = bench_match(&run, &(struct bench_key){ s->bound_cell->suite,
				s->bound_cell->op, s->bound_cell->variant,
				s->bound_cell->size, 0 })) &&
		    !convert(&run, b, b->center, b->ci_low, b->ci_high, bound)) {
			bound->kind = CENSUS_COST_RANGE;
			snprintf(bound->source, sizeof(bound->source),
				 "this machine's run %s: %s, the bpf overhead, an upper bound of the pair (it also holds access_ok, pagefault_disable, hardened usercopy and return thunks: docs/bpf.md), %.4g [%.4g, %.4g] %s",
				 run.path, b->name, bound->value, bound->low,
				 bound->high, bound->unit);
		}
		if (cell && !derived_compute(&run, &d)) {
			for (size_t k = 0; k < d.pair_count; k++)
				if (!strcmp(d.pairs[k].op, cell->op) &&
				    d.pairs[k].size == cell->size)
					p = &d.pairs[k];
			b = bench_match(&run, &(struct bench_key){ "kmod", cell->op,
					"inline", cell->size, 0 });
			if (p && b && isfinite(p->cost) &&
			    !convert(&run, b, p->cost, p->low, p->high, c)) {
				c->kind = CENSUS_COST_MODULE;
				snprintf(c->source, sizeof(c->source),
					 "measured on this machine by the module: run %s (%s, kernel %s, SMAP %s, %zu repetitions), inline - nopad of %s, %.4g %s per pair%s",
					 run.path, rundir_context_or(&run, "date", "no date"),
					 rundir_context_or(&run, "kernel_release", "?"),
					 rundir_context_or(&run, "smap_state", "?"),
					 b->repetitions, cell->title, c->value, c->unit,
					 c->has_interval ? "" : ", no interval (under 3 repetitions)");
				if (c->has_interval) {
					size_t len = strlen(c->source);

					snprintf(c->source + len, sizeof(c->source) - len,
						 " [%.4g, %.4g] (95%% paired t over the repetitions)",
						 c->low, c->high);
				}
				rc = 1;
			}
			derived_free(&d);
		}
		if (!rc && i == 0 && strcmp(rundir_context_or(&run, "kmod_status", ""), "ok"))
			note(s, "this machine's runs have no inline and nopad rows of the module (the first: %s, kmod: %s)",
			     run.path, rundir_context_or(&run, "kmod_status", "not recorded"));
		rundir_free(&run);
	}
	if (!n && !tcg)
		note(s, "no run of this machine (host %s, %s) under %s%s",
		     context_get(s->m, "host") ? context_get(s->m, "host") : "?",
		     context_get(s->m, "cpu_model") ? context_get(s->m, "cpu_model") : "?",
		     s->o->runs, other ? " (only of other machines or microcode)" : "");
	for (size_t i = 0; i < n; i++)
		rundir_free(&r[i].run);
	free(r);
	return rc;
}

/* Step 2, beta of this machine's newest comparison with one: 1, or 0. */
static int from_fits(struct search *s, const struct found *f,
		     struct census_pair_cost *c)
{
	struct pair_fit_csv best = { 0 }, r;
	const char *best_path = NULL;
	char why[PATH_MAX + 256];
	int tcg = 0;

	for (size_t i = 0; i < f->nfits; i++) {
		if (pair_fit_csv_load(f->fits[i], &r, why, sizeof(why))) {
			note(s, "%s", why);
			continue;
		}
		if (!same_machine(s, fit_get, &r)) {
			pair_fit_csv_free(&r);
			continue;
		}
		if (!strcmp(pair_fit_csv_get(&r, "virt"), "tcg")) {
			if (!tcg++)
				note(s, "%s: beta of boots under QEMU's emulator (TCG), not a CPU's",
				     f->fits[i]);
			pair_fit_csv_free(&r);
			continue;
		}
		if (best_path && strcmp(pair_fit_csv_get(&r, "date"),
					pair_fit_csv_get(&best, "date")) <= 0) {
			pair_fit_csv_free(&r);
			continue;
		}
		if (best_path)
			pair_fit_csv_free(&best);
		best = r;
		best_path = f->fits[i];
	}
	if (!best_path)
		return 0;
	c->kind = CENSUS_COST_SERIES;
	c->value = best.beta;
	c->low = best.low;
	c->high = best.high;
	c->has_interval = 1;
	snprintf(c->unit, sizeof(c->unit), "%s", best.unit);
	snprintf(c->source, sizeof(c->source),
		 "measured on this machine by its boots: %s, beta = %.4g [%.4g, %.4g] %s per pair (t, %.0f df), fitted over %s rows of SMAP on against off (SMAP run %s, census %s)",
		 best_path, best.beta, best.low, best.high, best.unit, best.df,
		 pair_fit_csv_get(&best, "rows"),
		 pair_fit_csv_get(&best, "smap_run"),
		 pair_fit_csv_get(&best, "census"));
	if (isfinite(best.vif) && best.vif > PAIR_FIT_MAX_VIF) {
		size_t len = strlen(c->source);

		/* the fit warned: its beta may hold the shift every row shares */
		snprintf(c->source + len, sizeof(c->source) - len,
			 "; its rows' costs and pairs move together (variance inflation factor %.1f, above %d), so beta and the shift every row shares are hard to part",
			 best.vif, PAIR_FIT_MAX_VIF);
	}
	if (!strcmp(best.unit, "ns")) {
		snprintf(c->ghz_source, sizeof(c->ghz_source),
			 "none needed: the figure is in ns");
	} else if (s->o->ghz > 0) {
		c->ghz = s->o->ghz;
		snprintf(c->ghz_source, sizeof(c->ghz_source), "%g GHz, given (--ghz)",
			 s->o->ghz);
	} else if (best.ghz > 0) {
		c->ghz = best.ghz;
		snprintf(c->ghz_source, sizeof(c->ghz_source),
			 "%.3f GHz, the core clock of the SMAP run (calib_ghz)", best.ghz);
	} else if (census_cost_measure_ghz(c, why, sizeof(why))) {
		/* no clock for its cycles: passed over, as a figure without time */
		note(s, "%s: %s", best_path, why);
		pair_fit_csv_free(&best);
		memset(c, 0, sizeof(*c));
		return 0;
	}
	pair_fit_csv_free(&best);
	return 1;
}

/* A table row's interval, relative: how precise it is. */
static double relative_width(const struct csv_table *t, size_t row)
{
	double v = strtod(csv_table_get(t, row, "value"), NULL);
	double lo = strtod(csv_table_get(t, row, "ci_low"), NULL);
	double hi = strtod(csv_table_get(t, row, "ci_high"), NULL);

	return v > 0 && hi >= lo ? (hi - lo) / v : INFINITY;
}

/*
 * The table's row of this CPU model (family and model) with figure: the
 * same stepping first, then the most precise; -1 when none.
 */
static long cpu_model_row(const struct search *s, const struct csv_table *t,
			  const char *figure)
{
	const char *family = context_get(s->m, "cpu_family");
	const char *model = context_get(s->m, "cpu_model_number");
	const char *stepping = context_get(s->m, "cpu_stepping");
	long best = -1;

	if (!family || !model)
		return -1;
	for (size_t i = 0; i < t->count; i++) {
		const char *virt = csv_table_get(t, i, "virt");
		int same, best_same;

		if (strcmp(csv_table_get(t, i, "figure"), figure) ||
		    strcmp(csv_table_get(t, i, "cpu_family"), family) ||
		    strcmp(csv_table_get(t, i, "cpu_model_number"), model) ||
		    (virt && !strcmp(virt, "tcg")))
			continue;
		if (best < 0) {
			best = (long)i;
			continue;
		}
		same = stepping && !strcmp(csv_table_get(t, i, "cpu_stepping"), stepping);
		best_same = stepping &&
			    !strcmp(csv_table_get(t, (size_t)best, "cpu_stepping"), stepping);
		if (same > best_same ||
		    (same == best_same &&
		     relative_width(t, i) < relative_width(t, (size_t)best)))
			best = (long)i;
	}
	return best;
}

/* Step 3, and the table's part of step 4: 1 with c set, else 0. */
static int from_table(struct search *s, struct census_pair_cost *c,
		      struct census_pair_cost *bound)
{
	const struct census_cost_options *o = s->o;
	struct csv_table t;
	char spec[512], why[PATH_MAX + 256];
	long row;
	int rc = 0;

	if (access(o->table, R_OK)) {
		note(s, "no table at %s (make table)", o->table);
		return 0;
	}
	if (census_cost_load_table(o->table, &t, why, sizeof(why))) {
		note(s, "%s", why);
		return 0;
	}
	if (csv_table_column(&t, "cpu_family") < 0 ||
	    csv_table_column(&t, "cpu_model_number") < 0) {
		note(s, "%s has no cpu_family or cpu_model_number column", o->table);
		csv_table_free(&t);
		return 0;
	}
	row = s->pair_cell ? cpu_model_row(s, &t, s->pair_cell->id) : -1;
	if (row >= 0) {
		snprintf(spec, sizeof(spec), "the table's row of this CPU model (family %s, model %s)",
			 context_get(s->m, "cpu_family"),
			 context_get(s->m, "cpu_model_number"));
		if (census_cost_from_row(o, &t, (size_t)row, spec, c, why, sizeof(why))) {
			note(s, "%s", why);
			memset(c, 0, sizeof(*c));
		} else {
			char given[sizeof(c->source)];

			memcpy(given, c->source, sizeof(given));
			snprintf(c->source, sizeof(c->source),
				 "measured on another machine of this CPU model (family %s, model %s): %.1000s",
				 context_get(s->m, "cpu_family"),
				 context_get(s->m, "cpu_model_number"), given);
			c->kind = CENSUS_COST_CPU_MODEL;
			rc = 1;
		}
	} else {
		note(s, "%s has no %s of this CPU model (family %s, model %s)",
		     o->table, s->pair_cell ? s->pair_cell->id : "pair figure",
		     context_get(s->m, "cpu_family") ? context_get(s->m, "cpu_family") : "?",
		     context_get(s->m, "cpu_model_number") ? context_get(s->m, "cpu_model_number") : "?");
		/* this CPU model's bpf bound, when no run of this machine gave one */
		if (bound->kind == CENSUS_COST_NONE && s->bound_cell &&
		    (row = cpu_model_row(s, &t, s->bound_cell->id)) >= 0) {
			snprintf(spec, sizeof(spec), "the table's bpf row of this CPU model");
			if (!census_cost_from_row(o, &t, (size_t)row, spec, bound, why,
						  sizeof(why))) {
				char given[sizeof(bound->source)];

				memcpy(given, bound->source, sizeof(given));
				snprintf(bound->source, sizeof(bound->source),
					 "the bpf overhead of this CPU model, an upper bound of the pair (it also holds access_ok, pagefault_disable, hardened usercopy and return thunks: docs/bpf.md): %.1000s",
					 given);
				bound->kind = CENSUS_COST_RANGE;
			}
		}
		/* no bound at all: the range of every CPU's pair figure */
		if (bound->kind == CENSUS_COST_NONE && s->pair_cell) {
			double lo = INFINITY, hi = -INFINITY;
			size_t rows = 0;

			for (size_t i = 0; i < t.count; i++) {
				const char *virt = csv_table_get(&t, i, "virt");
				double l, h;

				if (strcmp(csv_table_get(&t, i, "figure"), s->pair_cell->id) ||
				    strcmp(csv_table_get(&t, i, "unit"), "cycles") ||
				    (virt && !strcmp(virt, "tcg")))
					continue;
				l = strtod(csv_table_get(&t, i, "ci_low"), NULL);
				h = strtod(csv_table_get(&t, i, "ci_high"), NULL);
				if (!(h >= l) || !isfinite(l) || !isfinite(h))
					continue;
				lo = fmin(lo, l);
				hi = fmax(hi, h);
				rows++;
			}
			if (rows) {
				bound->kind = CENSUS_COST_RANGE;
				bound->value = NAN;
				bound->low = fmax(0, lo);
				bound->high = hi;
				snprintf(bound->unit, sizeof(bound->unit), "cycles");
				snprintf(bound->source, sizeof(bound->source),
					 "not this CPU's: the range of %s over the %zu machines of %s, [%.4g, %.4g] cycles",
					 s->pair_cell->id, rows, o->table, bound->low,
					 bound->high);
			}
		}
	}
	csv_table_free(&t);
	return rc;
}

int census_cost_of_machine(const struct census_cost_options *o,
			   struct census_pair_cost *c, char *err,
			   size_t errlen)
{
	struct search s = { .o = o, .m = o->machine };
	struct census_pair_cost bound;
	struct context here = { 0 };
	struct found f = { 0 };
	int rc;

	memset(c, 0, sizeof(*c));
	memset(&bound, 0, sizeof(bound));
	if (!s.m) {
		context_collect(&here);
		s.m = &here;
	}
	s.pair_cell = cell_of(o->figure, TABLE_PAIR);
	s.bound_cell = cell_of(NULL, TABLE_ROW);
	if (o->runs && find_all(o->runs, &f)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
		goto out;
	}
	if (o->only != CENSUS_COST_SERIES)
		rc = from_runs(&s, &f, c, &bound);
	else
		rc = 0;
	if (!rc && o->only != CENSUS_COST_MODULE)
		rc = from_fits(&s, &f, c);
	if (!rc && !o->only)
		rc = from_table(&s, c, &bound);
	if (rc < 0)
		goto out;
	if (o->only)
		bound.kind = CENSUS_COST_NONE;
	if (!rc && bound.kind == CENSUS_COST_RANGE) {
		char given[sizeof(bound.source)];

		*c = bound;
		/* no figure: from what it is at least to the bound */
		if (!isnan(c->value)) {
			c->low = 0;
			c->value = NAN;
		}
		c->has_interval = 1;
		memcpy(given, c->source, sizeof(given));
		snprintf(c->source, sizeof(c->source),
			 "NOT MEASURED, a range: [%.4g, %.4g] %s per pair, from %.1000s",
			 c->low, c->high, c->unit, given);
		if (!strcmp(c->unit, "cycles") && !(c->ghz > 0)) {
			if (o->ghz > 0) {
				c->ghz = o->ghz;
				snprintf(c->ghz_source, sizeof(c->ghz_source),
					 "%g GHz, given (--ghz)", o->ghz);
			} else if (census_cost_measure_ghz(c, err, errlen)) {
				/* a range in cycles with no clock: none */
				note(&s, "no core clock for the range in cycles: %s", err);
				memset(c, 0, sizeof(*c));
				rc = -2;
			}
		}
		rc = rc == -2 ? 0 : 1;
	}
	if (rc) {
		c->known = 1;
		if (*s.passed) {
			size_t len = strlen(c->source);

			snprintf(c->source + len, sizeof(c->source) - len,
				 " (passed over: %s)", s.passed);
		}
	} else {
		c->kind = CENSUS_COST_NONE;
		snprintf(c->source, sizeof(c->source),
			 "no pair cost of this machine: %s; measure one with `sudo ./run-bench.sh` where the module loads, or give --pair-cycles or --cpu-row",
			 *s.passed ? s.passed : "nothing found");
	}
	rc = 0;
out:
	free_list(f.runs, f.nruns);
	free_list(f.fits, f.nfits);
	context_free(&here);
	return rc;
}
