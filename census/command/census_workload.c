// SPDX-License-Identifier: GPL-2.0
/* census_workload.c - a command's cost, measured and predicted; see census_workload.h. */
#include "census/command/census_workload.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/gnuplot.h"
#include "census/command/census_cost.h"
#include "measure/sha256.h"
#include "rundata/atomic_file.h"
#include "rundata/catalogue.h"
#include "rundata/csv.h"
#include "rundata/pair_fit_csv.h"
#include "rundata/rundir.h"
#include "suites/command.h"

/* The call sites workload.md names: the census's first. */
#define WORKLOAD_SITES	5

const char *workload_source_name(enum workload_source s)
{
	switch (s) {
	case WORKLOAD_MODULE:
		return "module";
	case WORKLOAD_SERIES:
		return "series";
	case WORKLOAD_CENSUS:
		return "census";
	case WORKLOAD_SOURCES:
		break;
	}
	return "?";
}

/*
 * One word of a POSIX shell's quoting (unquoted bytes, '...', "..."
 * without expansions, backslashes) into out: the rest after it, or NULL
 * when the text is not one such word.
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
				if (*p == '\\' && strchr("\"\\$`", p[1]))
					p++;
				if (*p == '$' || *p == '`')
					return NULL;
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

/* Whether text is the command of a row named op. */
static int text_is_op(const char *text, const char *op)
{
	char sum[SHA256_HEX_SIZE], name[COMMAND_WORDS_MAX + 16];

	sha256_hex(text, strlen(text), sum);
	command_op_name(text, sum, name, sizeof(name));
	return !strcmp(name, op);
}

int workload_same_command(const char *census_command, const char *op)
{
	char word[COMMAND_TEXT_MAX];
	const char *p = census_command;

	if (text_is_op(census_command, op))
		return 1;
	/* sh -c 'TEXT': the very process the row starts */
	if (strncmp(p, "sh -c ", 6) && strncmp(p, "/bin/sh -c ", 11))
		return 0;
	p = strstr(p, "-c ") + 3;
	p = unquote_word(p, word, sizeof(word));
	return p && !*p && text_is_op(word, op);
}

void workload_predict(struct workload_prediction *p, double pairs,
		      double measured_low_ns, double measured_high_ns)
{
	double per_ns = !strcmp(p->unit, "ns") ? 1 :
			p->ghz > 0 ? 1 / p->ghz : NAN;

	p->ns = p->ns_low = p->ns_high = NAN;
	p->verdict = "unknown";
	if (!p->known || !isfinite(per_ns) || !isfinite(pairs))
		return;
	p->ns = pairs * p->cost * per_ns;
	p->ns_low = pairs * p->cost_low * per_ns;
	p->ns_high = pairs * p->cost_high * per_ns;
	if (!isfinite(measured_low_ns) || !isfinite(measured_high_ns) ||
	    !isfinite(p->ns_low) || !isfinite(p->ns_high))
		return;
	p->verdict = p->ns_high >= measured_low_ns &&
		     p->ns_low <= measured_high_ns ? "agree" : "disagree";
}

/* The command's row of compare.csv: its B - A in ns, with the interval. */
static int load_measured(const struct workload_options *o, struct workload *w,
			 char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	struct csv_table t;
	long found = -1;

	snprintf(path, sizeof(path), "%s/compare.csv", o->compare);
	if (csv_table_load(path, &t, err, errlen))
		return -2;
	for (size_t i = 0; i < t.count; i++) {
		const char *suite = csv_table_get(&t, i, "suite");

		if (!suite || strcmp(suite, "command"))
			continue;
		if (found >= 0) {
			snprintf(err, errlen, "%s: two command rows (%s, %s): a run has one command",
				 path, csv_table_get(&t, (size_t)found, "name"),
				 csv_table_get(&t, i, "name"));
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

/* The census row of the kernel (or the only SMAP-on one) and its cost. */
static int load_census(const struct workload_options *o, struct workload *w,
		       char *err, size_t errlen)
{
	struct workload_prediction *p = &w->p[WORKLOAD_CENSUS];
	char path[PATH_MAX + 32], kernels[512] = "";
	struct csv_table t;
	long row = -1;
	size_t smap = 0;
	const char *op;

	snprintf(path, sizeof(path), "%s/census.csv", o->census);
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
		const char *kernel = csv_table_get(&t, i, "kernel");

		if (strcmp(csv_table_get(&t, i, "smap_state"), "smap"))
			continue;
		smap++;
		snprintf(kernels + strlen(kernels), sizeof(kernels) - strlen(kernels),
			 "%s%s", *kernels ? ", " : "", kernel);
		if ((o->kernel && !strcmp(kernel, o->kernel)) || (!o->kernel && row < 0))
			row = (long)i;
	}
	if (row < 0 || (!o->kernel && smap > 1)) {
		snprintf(err, errlen, "%s: %s (its SMAP-on boots: %s)", path,
			 o->kernel ? "no SMAP-on boot of that kernel" :
			 "boots of several kernels: name one with --kernel",
			 *kernels ? kernels : "none");
		csv_table_free(&t);
		return -2;
	}
	snprintf(w->census_command, sizeof(w->census_command), "%s",
		 csv_table_get(&t, (size_t)row, "command"));
	snprintf(w->kernel, sizeof(w->kernel), "%s",
		 csv_table_get(&t, (size_t)row, "kernel"));
	op = strchr(w->row, '/') ? strchr(w->row, '/') + 1 : w->row;
	if (!workload_same_command(w->census_command, op) && !o->force) {
		snprintf(err, errlen, "%s counts '%s', not the command of %s: take a census of it (smapbench census -- sh -c 'CMD'), or --force",
			 path, w->census_command, w->row);
		csv_table_free(&t);
		return -2;
	}
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

/* Beta of the comparison's pair-fit.csv. */
static void load_series(const struct workload_options *o, struct workload *w)
{
	struct workload_prediction *p = &w->p[WORKLOAD_SERIES];
	char path[PATH_MAX + 32], why[PATH_MAX + 256];
	struct pair_fit_csv fit;

	snprintf(path, sizeof(path), "%s/%s", o->compare, PAIR_FIT_FILE);
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

/* inline - nopad of this machine's runs under o->runs. */
static int load_module(const struct workload_options *o, struct workload *w,
		       char *err, size_t errlen)
{
	struct workload_prediction *p = &w->p[WORKLOAD_MODULE];
	struct census_cost_options co = { .runs = o->runs,
					  .only = CENSUS_COST_MODULE };
	struct census_pair_cost c;
	int rc;

	if (!o->runs) {
		snprintf(p->source, sizeof(p->source), "no runs given (--runs)");
		return 0;
	}
	rc = census_cost_of_machine(&co, &c, err, errlen);
	if (rc)
		return rc;
	snprintf(p->source, sizeof(p->source), "%.1400s", c.source);
	if (!c.known || c.kind != CENSUS_COST_MODULE)
		return 0;
	p->known = 1;
	p->cost = c.value;
	p->cost_low = c.has_interval ? c.low : c.value;
	p->cost_high = c.has_interval ? c.high : c.value;
	p->ghz = c.ghz;
	snprintf(p->unit, sizeof(p->unit), "%s", c.unit);
	return 0;
}

/* Whether a run under o->runs ran under QEMU's emulator. */
static int runs_tcg(const char *runs)
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

int workload_build(const struct workload_options *o, struct workload *w,
		   char *err, size_t errlen)
{
	int rc;

	memset(w, 0, sizeof(*w));
	rc = load_measured(o, w, err, errlen);
	if (!rc)
		rc = load_census(o, w, err, errlen);
	if (rc)
		return rc;
	load_series(o, w);
	rc = load_module(o, w, err, errlen);
	if (rc)
		return rc;
	w->tcg = runs_tcg(o->runs);
	for (int s = 0; s < WORKLOAD_SOURCES; s++)
		workload_predict(&w->p[s], w->pairs, w->measured_low_ns,
				 w->measured_high_ns);
	return 0;
}

/* ---------------------------------------------------------- writing */

static int write_csv(FILE *f, const struct workload *w)
{
	struct csv_writer c;

	csv_writer_init(&c, f);
	/* the catalogue's columns: a field written without one is a ragged row */
	file_header_write(&c, &file_workload);
	for (int s = 0; s < WORKLOAD_SOURCES; s++) {
		const struct workload_prediction *p = &w->p[s];

		csv_field_text(&c, w->row);
		csv_field_text(&c, w->census_command);
		csv_field_text(&c, w->kernel);
		csv_field_double(&c, w->pairs);
		csv_field(&c, workload_source_name(s));
		csv_field_double(&c, p->known ? p->cost : NAN);
		csv_field_double(&c, p->known ? p->cost_low : NAN);
		csv_field_double(&c, p->known ? p->cost_high : NAN);
		csv_field(&c, p->known ? p->unit : "");
		csv_field_double(&c, p->known && p->ghz > 0 ? p->ghz : NAN);
		csv_field_double(&c, p->ns);
		csv_field_double(&c, p->ns_low);
		csv_field_double(&c, p->ns_high);
		csv_field_double(&c, w->measured_ns);
		csv_field_double(&c, w->measured_low_ns);
		csv_field_double(&c, w->measured_high_ns);
		csv_field_text(&c, w->measured_verdict);
		csv_field(&c, p->verdict);
		csv_field(&c, w->tcg ? "tcg" : "");
		csv_field_text(&c, p->source);
		csv_end_row(&c);
	}
	return csv_writer_error(&c) ? -1 : 0;
}

static void format_ns(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.3g ms", v / 1e6);
	else if (fabs(v) >= 1e3)
		snprintf(buf, len, "%.3g us", v / 1e3);
	else
		snprintf(buf, len, "%.3g ns", v);
}

/* The census's call sites of this kernel's SMAP-on boot, most first. */
static void write_sites(FILE *f, const struct workload_options *o,
			const struct workload *w)
{
	char path[PATH_MAX + 32], err[PATH_MAX + 64];
	struct csv_table t;
	int shown = 0;

	snprintf(path, sizeof(path), "%s/sites.csv", o->census);
	if (csv_table_load(path, &t, err, sizeof(err))) {
		fprintf(f, "\nThe census has no call sites to name (%s).\n", err);
		return;
	}
	if (csv_table_column(&t, "kernel") < 0 || csv_table_column(&t, "smap_state") < 0 ||
	    csv_table_column(&t, "function") < 0 || csv_table_column(&t, "pairs") < 0) {
		fprintf(f, "\nThe census has no call sites to name (%s lacks kernel, smap_state, function or pairs).\n",
			path);
		csv_table_free(&t);
		return;
	}
	fprintf(f, "\nWhere the census counts the pairs (%s, SMAP on; its sites.csv):\n\n"
		"| function | pairs | share | mostly through |\n| --- | ---: | ---: | --- |\n",
		w->kernel);
	for (size_t i = 0; i < t.count && shown < WORKLOAD_SITES; i++) {
		const char *via = csv_table_get(&t, i, "via_1");

		if (strcmp(csv_table_get(&t, i, "kernel"), w->kernel) ||
		    strcmp(csv_table_get(&t, i, "smap_state"), "smap"))
			continue;
		fprintf(f, "| `%s` | %s | %.1f%% | %s |\n",
			csv_table_get(&t, i, "function"),
			csv_table_get(&t, i, "pairs"),
			100 * csv_number(csv_table_get(&t, i, "share")),
			via && *via ? via : "-");
		shown++;
	}
	csv_table_free(&t);
}

static void write_md(FILE *f, const struct workload_options *o,
		     const struct workload *w)
{
	char m[32], lo[32], hi[32];
	int disagree = 0;

	fprintf(f, "## What SMAP costs the command\n\n");
	if (w->tcg)
		fprintf(f, "**Under QEMU's emulator (TCG): both sides are functional only, not a CPU's timings.**\n\n");
	format_ns(m, sizeof(m), w->measured_ns);
	format_ns(lo, sizeof(lo), w->measured_low_ns);
	format_ns(hi, sizeof(hi), w->measured_high_ns);
	fprintf(f, "Measured, `%s`: SMAP on − off, %s per execution, 95%% interval [%s, %s] (compare: %s).\n",
		w->row, m, lo, hi, *w->measured_verdict ? w->measured_verdict : "-");
	fprintf(f, "Predicted: the census (`%s`, %s) counts %.0f STAC/CLAC pairs per execution, times the cost of one pair:\n\n",
		o->census, w->kernel, w->pairs);
	fprintf(f, "| pair cost | per pair | predicted | 95%% interval | against the measured | from |\n"
		"| --- | ---: | ---: | --- | --- | --- |\n");
	for (int s = 0; s < WORKLOAD_SOURCES; s++) {
		const struct workload_prediction *p = &w->p[s];
		static const char *const what[] = {
			"module (inline − nopad)", "series (β)", "the census's figure",
		};

		if (!p->known) {
			fprintf(f, "| %s | - | - | - | - | %s |\n", what[s], p->source);
			continue;
		}
		format_ns(m, sizeof(m), p->ns);
		format_ns(lo, sizeof(lo), p->ns_low);
		format_ns(hi, sizeof(hi), p->ns_high);
		fprintf(f, "| %s | %.3g [%.3g, %.3g] %s | %s | [%s, %s] | %s | %s |\n",
			what[s], p->cost, p->cost_low, p->cost_high, p->unit, m,
			lo, hi, p->verdict, p->source);
		disagree |= !strcmp(p->verdict, "disagree");
	}
	if (disagree)
		fprintf(f, "\nA prediction that disagrees is a finding: the command's cost is not its pairs alone (other work SMAP changes), or the pairs are not those of this machine's runs.\n");
	write_sites(f, o, w);
	fprintf(f, "\nworkload.csv has the figures; plots/workload.png draws them.\n");
}

/* dir/name, replaced only when it starts with ours (what fill writes first). */
static int write_file(const char *dir, const char *name, const char *ours,
		      int (*fill)(FILE *f, const void *arg), const void *arg,
		      char *err, size_t errlen)
{
	char path[PATH_MAX + 64];
	struct atomic_file af;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = atomic_file_begin(&af, path, ours, err, errlen);
	if (!f)
		return -1;
	if (fill(f, arg)) {
		atomic_file_abort(&af);
		snprintf(err, errlen, "writing %s failed", path);
		return -1;
	}
	return atomic_file_commit(&af, err, errlen);
}

struct md_arg {
	const struct workload_options *o;
	const struct workload *w;
};

static int fill_csv(FILE *f, const void *arg)
{
	return write_csv(f, ((const struct md_arg *)arg)->w);
}

static int fill_md(FILE *f, const void *arg)
{
	const struct md_arg *a = arg;

	write_md(f, a->o, a->w);
	return ferror(f) ? -1 : 0;
}

/* What plots/workload.gp draws: the measured, then each prediction. */
static int fill_dat(FILE *f, const void *arg)
{
	const struct workload *w = ((const struct md_arg *)arg)->w;

	fprintf(f, "# label value low high kind\n");
	fprintf(f, "\"measured\" %g %g %g 0\n", w->measured_ns,
		w->measured_low_ns, w->measured_high_ns);
	for (int s = 0; s < WORKLOAD_SOURCES; s++)
		if (w->p[s].known && isfinite(w->p[s].ns))
			fprintf(f, "\"%s\" %g %g %g 1\n", workload_source_name(s),
				w->p[s].ns, w->p[s].ns_low, w->p[s].ns_high);
	return ferror(f) ? -1 : 0;
}

static int draw(const struct workload_options *o, const struct workload *w,
		const struct md_arg *a, char *err, size_t errlen)
{
	char plots[PATH_MAX + 16], settings[1024] = "", title[512];
	struct gnuplot gp;
	int rc;

	snprintf(plots, sizeof(plots), "%s/plots", o->compare);
	if (mkdir(plots, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", plots, strerror(errno));
		return -1;
	}
	if (write_file(plots, "workload.dat", "# label", fill_dat, a, err, errlen))
		return -1;
	if (gnuplot_find(&gp, "workload"))
		return -1;
	snprintf(title, sizeof(title), "%s: SMAP on - off per execution, measured and predicted%s",
		 w->row, w->tcg ? " (TCG: functional only)" : "");
	gnuplot_set_string(settings, sizeof(settings), "title", title);
	rc = gnuplot_draw(&gp, "workload", "workload.gp", plots, "workload",
			  settings);
	gnuplot_free(&gp);
	if (rc)
		snprintf(err, errlen, "the plot could not be drawn");
	return rc;
}

int workload_write(const struct workload_options *o, const struct workload *w,
		   char *err, size_t errlen)
{
	struct md_arg a = { o, w };

	if (write_file(o->compare, "workload.csv", "row,", fill_csv, &a, err, errlen) ||
	    write_file(o->compare, "workload.md", "## What SMAP", fill_md, &a, err, errlen))
		return -1;
	return o->no_plots ? 0 : draw(o, w, &a, err, errlen);
}
