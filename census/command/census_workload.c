// SPDX-License-Identifier: GPL-2.0
/*
 * census_workload.c - a command's cost, measured and predicted; see
 * census_workload.h. Its files are read by census_workload_read.c.
 */
#include "census/command/census_workload.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/gnuplot.h"
#include "census/command/census_cost.h"
#include "measure/sha256.h"
#include "rundata/atomic_file.h"
#include "rundata/catalogue.h"
#include "rundata/csv.h"
#include "suites/command.h"

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

	if (text_is_op(census_command, op))
		return 1;
	/* sh -c 'TEXT': the very process the row starts */
	return workload_sh_c_text(census_command, word, sizeof(word)) &&
	       text_is_op(word, op);
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

/* The census row of the kernel (or the only SMAP-on one): of the row's command. */
static int load_census(const struct workload_options *o, struct workload *w,
		       char *err, size_t errlen)
{
	const char *op;
	int rc = workload_read_census(o->census, o->kernel, w, err, errlen);

	if (rc)
		return rc;
	op = strchr(w->row, '/') ? strchr(w->row, '/') + 1 : w->row;
	if (!workload_same_command(w->census_command, op) && !o->force) {
		snprintf(err, errlen, "%s/census.csv counts '%s', not the command of %s: take a census of it (smapbench census -- sh -c 'CMD'), or --force",
			 o->census, w->census_command, w->row);
		return -2;
	}
	return 0;
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

int workload_build(const struct workload_options *o, struct workload *w,
		   char *err, size_t errlen)
{
	int rc;

	memset(w, 0, sizeof(*w));
	rc = workload_read_measured(o->compare, w, err, errlen);
	if (!rc)
		rc = load_census(o, w, err, errlen);
	if (rc)
		return rc;
	workload_read_series(o->compare, &w->p[WORKLOAD_SERIES]);
	rc = load_module(o, w, err, errlen);
	if (rc)
		return rc;
	w->tcg = workload_runs_tcg(o->runs);
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
	struct workload_sites s;

	if (workload_read_sites(o->census, w->kernel, &s)) {
		fprintf(f, "\nThe census has no call sites to name (%s).\n", s.why);
		return;
	}
	fprintf(f, "\nWhere the census counts the pairs (%s, SMAP on; its sites.csv):\n\n"
		"| function | pairs | share | mostly through |\n| --- | ---: | ---: | --- |\n",
		w->kernel);
	for (int i = 0; i < s.count; i++)
		fprintf(f, "| `%s` | %s | %.1f%% | %s |\n", s.site[i].function,
			s.site[i].pairs, 100 * s.site[i].share,
			s.site[i].via && *s.site[i].via ? s.site[i].via : "-");
	workload_sites_free(&s);
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
