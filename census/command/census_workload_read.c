// SPDX-License-Identifier: GPL-2.0
/* census_workload_read.c - the files `smapbench workload` reads; see census_workload_read.h. */
#include "census/command/census_workload_read.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rundata/csv.h"
#include "rundata/pair_fit_csv.h"
#include "rundata/rundir.h"

/* A row's name, which a file without that column lacks. */
static const char *or_unnamed(const char *name)
{
	return name ? name : "unnamed";
}

int workload_read_measured(const char *compare_dir, struct workload *w,
			   char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	struct csv_table t;
	long found = -1;

	snprintf(path, sizeof(path), "%s/compare.csv", compare_dir);
	if (csv_table_load(path, &t, err, errlen))
		return -2;
	for (size_t i = 0; i < t.count; i++) {
		const char *suite = csv_table_get(&t, i, "suite");

		if (!suite || strcmp(suite, "command"))
			continue;
		if (found >= 0) {
			snprintf(err, errlen, "%s: two command rows, lines %ld and %zu (%s, %s): a run has one command",
				 path, found + 2, i + 2,
				 or_unnamed(csv_table_get(&t, (size_t)found, "name")),
				 or_unnamed(csv_table_get(&t, i, "name")));
			csv_table_free(&t);
			return -2;
		}
		found = (long)i;
	}
	if (found < 0) {
		snprintf(err, errlen, "%s has no command row: compare runs made with --command", path);
		csv_table_free(&t);
		return -2;
	}
	{
		size_t r = (size_t)found;
		const char *unit = csv_table_get(&t, r, "unit");
		double delta = csv_number(csv_table_get(&t, r, "delta"));
		double delta_ns = csv_number(csv_table_get(&t, r, "delta_ns"));
		/* delta_ns / delta converts the interval as it did the delta */
		double scale = unit && !strcmp(unit, "ns") ? 1 : delta_ns / delta;
		const char *verdict = csv_table_get(&t, r, "verdict");

		/* ns per unit: a 0 one (from a delta of 1e999) would make every end 0 */
		if (!(scale > 0 && isfinite(scale)))
			scale = NAN;
		snprintf(w->row, sizeof(w->row), "%s",
			 csv_table_get(&t, r, "name") ? csv_table_get(&t, r, "name") : "");
		w->measured_ns = delta * scale;
		w->measured_low_ns = csv_number(csv_table_get(&t, r, "ci_low")) * scale;
		w->measured_high_ns = csv_number(csv_table_get(&t, r, "ci_high")) * scale;
		snprintf(w->measured_verdict, sizeof(w->measured_verdict), "%s",
			 verdict ? verdict : "");
	}
	csv_table_free(&t);
	return 0;
}

int workload_read_census(const char *census_dir, const char *kernel,
			 struct workload *w, char *err, size_t errlen)
{
	struct workload_prediction *p = &w->p[WORKLOAD_CENSUS];
	char path[PATH_MAX + 32], kernels[512] = "";
	struct csv_table t;
	long row = -1;
	size_t smap = 0;

	snprintf(path, sizeof(path), "%s/census.csv", census_dir);
	if (csv_table_load(path, &t, err, errlen))
		return -2;
	if (csv_table_column(&t, "model_pairs") < 0 ||
	    csv_table_column(&t, "command") < 0 ||
	    csv_table_column(&t, "kernel") < 0 ||
	    csv_table_column(&t, "smap_state") < 0) {
		snprintf(err, errlen, "%s is no census of a command (smapbench census -- COMMAND)",
			 path);
		csv_table_free(&t);
		return -2;
	}
	for (size_t i = 0; i < t.count; i++) {
		const char *boot = csv_table_get(&t, i, "kernel");

		if (strcmp(csv_table_get(&t, i, "smap_state"), "smap"))
			continue;
		smap++;
		snprintf(kernels + strlen(kernels), sizeof(kernels) - strlen(kernels),
			 "%s%s", *kernels ? ", " : "", boot);
		if ((kernel && !strcmp(boot, kernel)) || (!kernel && row < 0))
			row = (long)i;
	}
	if (row < 0 || (!kernel && smap > 1)) {
		snprintf(err, errlen, "%s: %s (its SMAP-on boots: %s)", path,
			 kernel ? "no SMAP-on boot of that kernel" :
			 "boots of several kernels: name one with --kernel",
			 *kernels ? kernels : "none");
		csv_table_free(&t);
		return -2;
	}
	snprintf(w->census_command, sizeof(w->census_command), "%s",
		 csv_table_get(&t, (size_t)row, "command"));
	snprintf(w->kernel, sizeof(w->kernel), "%s",
		 csv_table_get(&t, (size_t)row, "kernel"));
	w->pairs = csv_number(csv_table_get(&t, (size_t)row, "model_pairs"));
	if (!isfinite(w->pairs))
		w->pairs = csv_number(csv_table_get(&t, (size_t)row, "pairs"));

	/* the census's own figure: a value, or a range only */
	p->cost = csv_number(csv_table_get(&t, (size_t)row, "pair_cost"));
	p->cost_low = csv_number(csv_table_get(&t, (size_t)row, "pair_cost_low"));
	p->cost_high = csv_number(csv_table_get(&t, (size_t)row, "pair_cost_high"));
	p->ghz = csv_number(csv_table_get(&t, (size_t)row, "ghz"));
	snprintf(p->unit, sizeof(p->unit), "%s",
		 csv_table_get(&t, (size_t)row, "pair_cost_unit"));
	p->known = isfinite(p->cost_low) && isfinite(p->cost_high) && *p->unit;
	snprintf(p->source, sizeof(p->source), p->known ?
		 "the figure the census took (its report.md says which)" :
		 "the census took no pair cost");
	csv_table_free(&t);
	return 0;
}

void workload_read_series(const char *compare_dir, struct workload_prediction *p)
{
	char path[PATH_MAX + 32], why[PATH_MAX + 256];
	struct pair_fit_csv fit;

	snprintf(path, sizeof(path), "%s/%s", compare_dir, PAIR_FIT_FILE);
	if (access(path, F_OK)) {
		snprintf(p->source, sizeof(p->source),
			 "not fitted: the comparison has no %s (it needs the suites' rows and a census of the benchmarks on this kernel)",
			 PAIR_FIT_FILE);
		return;
	}
	if (pair_fit_csv_load(path, &fit, why, sizeof(why))) {
		snprintf(p->source, sizeof(p->source), "%.1400s", why);
		return;
	}
	p->known = 1;
	p->cost = fit.beta;
	p->cost_low = fit.low;
	p->cost_high = fit.high;
	p->ghz = fit.ghz;
	snprintf(p->unit, sizeof(p->unit), "%s", fit.unit);
	snprintf(p->source, sizeof(p->source), "beta of %.1400s", path);
	pair_fit_csv_free(&fit);
}

/*
 * One word of a POSIX shell's quoting into out: the rest after it, or
 * NULL when the text is not one such word.
 */
static const char *unquote_word(const char *p, char *out, size_t len)
{
	size_t n = 0;

	while (*p && *p != ' ' && *p != '\t') {
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				return NULL;
			for (p++; p < end && n + 1 < len; p++)
				out[n++] = *p;
			p = end + 1;
		} else if (*p == '"') {
			for (p++; *p && *p != '"' && n + 1 < len; p++) {
				/* strchr() finds the terminator too: a last backslash stays */
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;	/* \$ and \` are the bytes */
				else if (*p == '$' || *p == '`')
					return NULL;	/* an expansion */
				out[n++] = *p;
			}
			if (*p != '"')
				return NULL;
			p++;
		} else {
			if (*p == '\\' && p[1])
				p++;
			if (n + 1 < len)
				out[n++] = *p;
			p++;
		}
	}
	out[n] = '\0';
	return p;
}

int workload_sh_c_text(const char *command, char *text, size_t len)
{
	const char *p = command;

	if (strncmp(p, "sh -c ", 6) && strncmp(p, "/bin/sh -c ", 11))
		return 0;
	p = strstr(p, "-c ") + 3;
	p = unquote_word(p, text, len);
	return p && !*p;
}

int workload_runs_tcg(const char *runs)
{
	DIR *d = runs ? opendir(runs) : NULL;
	struct dirent *e;
	int tcg = 0;

	while (d && !tcg && (e = readdir(d))) {
		char path[PATH_MAX], err[256];
		struct run_dir run;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", runs, e->d_name);
		if (rundir_load_context(path, &run, err, sizeof(err)))
			continue;
		tcg = !strcmp(rundir_context_or(&run, "virt", ""), "tcg");
		rundir_free(&run);
	}
	if (d)
		closedir(d);
	return tcg;
}

int workload_read_sites(const char *census_dir, const char *kernel,
			struct workload_sites *s)
{
	char path[PATH_MAX + 32], err[PATH_MAX + 64];
	struct csv_table *t = &s->table;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/sites.csv", census_dir);
	if (csv_table_load(path, t, err, sizeof(err))) {
		snprintf(s->why, sizeof(s->why), "%s", err);
		return -1;
	}
	if (csv_table_column(t, "kernel") < 0 || csv_table_column(t, "smap_state") < 0 ||
	    csv_table_column(t, "function") < 0 || csv_table_column(t, "pairs") < 0) {
		snprintf(s->why, sizeof(s->why),
			 "%s lacks kernel, smap_state, function or pairs", path);
		csv_table_free(t);
		return -1;
	}
	for (size_t i = 0; i < t->count && s->count < WORKLOAD_SITES; i++) {
		if (strcmp(csv_table_get(t, i, "kernel"), kernel) ||
		    strcmp(csv_table_get(t, i, "smap_state"), "smap"))
			continue;
		s->site[s->count].function = csv_table_get(t, i, "function");
		s->site[s->count].pairs = csv_table_get(t, i, "pairs");
		s->site[s->count].share = csv_number(csv_table_get(t, i, "share"));
		s->site[s->count].via = csv_table_get(t, i, "via_1");
		s->count++;
	}
	return 0;
}

void workload_sites_free(struct workload_sites *s)
{
	csv_table_free(&s->table);
}
