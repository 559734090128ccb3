// SPDX-License-Identifier: GPL-2.0
/*
 * compare_write.c - what a comparison of two runs prints and writes:
 * the table, compare.csv, compare-settings.csv; see compare_write.h.
 */
#include "analysis/compare_write.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_controls.h"
#include "analysis/compare_dispersion.h"
#include "analysis/derived.h"
#include "analysis/text_table.h"
#include "measure/stats.h"
#include "rundata/csv.h"

static const char *format_p_value(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 1e-4)
		snprintf(buf, len, "<1e-4");
	else
		snprintf(buf, len, "%.4f", p);
	return buf;
}

const char *compare_boot_source_name(const struct compare_settings *set)
{
	switch (set->boot_source) {
	case COMPARE_BOOT_RUNS:
		return "runs";
	case COMPARE_BOOT_CALIBRATION:
		return "calibration";
	case COMPARE_BOOT_NONE:
		return "none";
	default:
		return "assumed";
	}
}

/* Which rows the calibration was held against. */
static void null_rows(FILE *f, const struct compare_dispersion *d)
{
	if (d->all_rows)
		fprintf(f, "every row, %zu: A and B differ in nothing their runs "
			"record", d->rows);
	else
		fprintf(f, "the %zu negative controls", d->rows);
}

void compare_dispersion_sentence(FILE *f, const struct compare_settings *set)
{
	const struct compare_dispersion *d = &set->dispersion;

	if (!d->checked) {
		fprintf(f, ". Whether the calibration holds for these runs is not "
			"checked: fewer than %d rows that should not move (the "
			"negative controls, or every row of an A/A comparison)",
			COMPARE_DISPERSION_MIN_ROWS);
		return;
	}
	fprintf(f, ". The calibration %s for these runs: their rows that "
		"should not move (", d->scale > 1 ? "does not hold" : "holds");
	null_rows(f, d);
	fprintf(f, ") vary %.2f times its variance about the shift they share "
		"(chi-square %.1f on %.0f df, p %.2g)", d->ratio, d->statistic,
		d->df, d->p);
	if (d->scale > 1)
		fprintf(f, "; each row's own variance is taken %.2f times (that "
			"factor on %.0f df), its interval widened by up to %.2f "
			"times", d->scale, d->scale_df, sqrt(d->scale));
}

void compare_boot_sentence(FILE *f, const struct compare_settings *set)
{
	switch (set->boot_source) {
	case COMPARE_BOOT_NONE:
		if (set->runs_a + set->runs_b > 2)
			fprintf(f, "A and B ran in one boot (their boot_id): what "
				"separate runs of it differ by, per row from the "
				"runs, %u of A and %u of B: %.2f%% pooled, of it "
				"%.2f%% a shift every row shares (df %.0f), each "
				"row's own moderated toward the pooled", set->runs_a,
				set->runs_b, 100 * set->boot_estimate_sd,
				100 * set->boot_common_sd, set->boot_df);
		else
			fprintf(f, "A and B ran in one boot (their boot_id): the "
				"intervals hold each run's repetitions only");
		break;
	case COMPARE_BOOT_RUNS:
		fprintf(f, "boot variance per row from the runs, %u boots of A "
			"and %u of B: %.2f%% pooled, of it %.2f%% a shift every "
			"row shares (df %.0f), each row's own moderated toward "
			"the pooled", set->boots_a, set->boots_b,
			100 * set->boot_estimate_sd, 100 * set->boot_common_sd,
			set->boot_df);
		break;
	case COMPARE_BOOT_CALIBRATION:
		fprintf(f, "%s per row from calibration %s: %.2f%% "
			"pooled, of it %.2f%% a shift every row shares (df %.0f), "
			"each row's own moderated toward the pooled",
			set->model && set->model->invocation ?
			"what separate runs of one boot differ by" : "boot variance",
			set->calibration ? set->calibration : "(given)",
			100 * set->boot_estimate_sd, 100 * set->boot_common_sd,
			set->boot_df);
		compare_dispersion_sentence(f, set);
		break;
	default:
		fprintf(f, "uncalibrated: boot variance assumed %g%% in the "
			"intervals shown", 100 * set->boot_sd);
		break;
	}
}

void compare_withheld_sentence(FILE *f, const struct compare_settings *set)
{
	if (!set->withheld)
		return;
	if (set->same_boot)
		fprintf(f, "Verdicts withheld (no row is called faster, slower "
			"or same): %s. %u runs a side would do (`compare "
			"A1,...,A%u B1,...,B%u`, all of this boot), or a "
			"calibration of %u or more runs of this boot (`smapbench "
			"calibrate RUN1 RUN2 ...`).\n", set->withheld,
			set->boots_needed, set->boots_needed, set->boots_needed,
			set->boots_needed);
	else
		fprintf(f, "Verdicts withheld (no row is called faster, slower "
			"or same): %s. %u boots a side would do (`run-bench.sh "
			"--boots %u`, then `compare A1,...,A%u B1,...,B%u`), or a "
			"calibration from runs of %u or more boots of one state "
			"(`smapbench calibrate`).\n", set->withheld,
			set->boots_needed, 2 * set->boots_needed, set->boots_needed,
			set->boots_needed, 2 * set->boots_needed);
}

/* "Verdicts for B: kmod 30 slower, 4 faster, 37 same; syscall ..." */
static void print_tally(FILE *f, const struct compare_result *res,
			const struct compare_words *words, int markdown)
{
	const char *suites[8];
	size_t count[8][COMPARE_VERDICTS] = { { 0 } }, nsuites = 0;
	static const enum compare_verdict order[] = {
		COMPARE_SLOWER, COMPARE_FASTER, COMPARE_SAME,
		COMPARE_INCONCLUSIVE, COMPARE_UNKNOWN,
	};

	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		size_t s;

		for (s = 0; s < nsuites && strcmp(suites[s], r->a->suite); s++)
			;
		if (s == nsuites) {
			if (nsuites == 8)
				continue;
			suites[nsuites++] = r->a->suite;
		}
		count[s][r->verdict]++;
	}
	fprintf(f, "%sVerdicts for B:", markdown ? "\n" : "");
	for (size_t s = 0; s < nsuites; s++) {
		int first = 1;

		fprintf(f, "%s %s", s ? ";" : "", *suites[s] ? suites[s] : "(no suite)");
		for (size_t v = 0; v < sizeof(order) / sizeof(*order); v++)
			if (count[s][order[v]]) {
				fprintf(f, "%s %zu %s", first ? "" : ",",
					count[s][order[v]],
					words->verdict[order[v]]);
				first = 0;
			}
	}
	fprintf(f, ".\n");
}

void compare_fdr_sentence(FILE *f, const struct compare_result *res,
			  const struct compare_settings *set)
{
	size_t tested = 0, below = 0, survived = 0;

	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];

		if (isnan(r->p))
			continue;
		tested++;
		below += r->p <= set->alpha;
		survived += r->q <= set->alpha;
	}
	fprintf(f, "%zu of %zu rows were tested (at least %d repetitions a side) "
		"for a difference beyond the %g%% threshold; %zu had p <= %g, and "
		"%zu survive Benjamini-Hochberg control of the false discovery "
		"rate at %g (q <= %g).\n", tested, res->count,
		COMPARE_MIN_REPETITIONS, 100 * set->margin, below, set->alpha,
		survived, set->alpha, set->alpha);
}

void compare_print(FILE *f, const struct compare_result *res,
		   const struct compare_settings *set,
		   const struct compare_words *words,
		   const struct compare_controls *controls, int markdown)
{
	struct text_table t;
	size_t from_reps = 0, untested = 0;

	text_table_init(&t, 11, "lrrlrrrrrrl");
	text_table_add(&t, (const char *const[]){ "benchmark", "A", "B", "unit",
		   "B-A", "B-A ns", "B-A %", "CI of B-A", "p", "q", "verdict" });
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		char ma[32], mb[32], d[32], dns[32], rel[32], ci[80], p[32], q[32];

		if (!strcmp(r->method, "repetitions"))
			from_reps++;
		if (r->verdict == COMPARE_UNKNOWN)
			untested++;
		format_percent(rel, sizeof(rel), r->relative);
		text_table_add(&t, (const char *const[]){ r->a->name,
			   format_number(ma, sizeof(ma), r->center_a),
			   format_number(mb, sizeof(mb), r->center_b), r->unit,
			   format_number(d, sizeof(d), r->delta),
			   format_number(dns, sizeof(dns), r->delta_ns), rel,
			   format_interval(ci, sizeof(ci), r->ci_low, r->ci_high),
			   format_p_value(p, sizeof(p), r->p),
			   format_p_value(q, sizeof(q), r->q),
			   words->verdict[r->verdict] });
	}
	text_table_print(f, &t, markdown);
	text_table_free(&t);
	fprintf(f, "%sA, B: mean of the repetition medians; B-A: their "
		"difference; CI: %.0f%% t interval of B/A on the log scale, "
		"its variance the repetition medians' of each side and, for two "
		"boots, each row's boot variance (each repetition a process of "
		"its own); with sound negative controls, net of their change "
		"(basis net); p: the test that |B/A - 1| exceeds %g%% (the "
		"relevance threshold); q: Benjamini-Hochberg over those p. "
		"faster/slower: q <= %g (so the whole CI lies beyond +-%g%%); "
		"same: equivalent within +-%g%% by two one-sided tests at %g "
		"each (the CI within it), with %d or more repetitions a side and "
		"the boot variance estimated; inconclusive: neither.\n",
		markdown ? "\n" : "", 100 * (1 - set->alpha), 100 * set->margin,
		set->alpha, 100 * set->margin, 100 * set->margin, set->alpha / 2,
		COMPARE_MIN_SAME_REPETITIONS);
	if (markdown)
		fputc('\n', f);
	compare_boot_sentence(f, set);
	fprintf(f, ".\n");
	if (set->withheld) {
		if (markdown)
			fputc('\n', f);
		compare_withheld_sentence(f, set);
	}
	if (markdown)
		fputc('\n', f);
	compare_fdr_sentence(f, res, set);
	if (from_reps)
		fprintf(f, "%s%zu benchmarks have no raw samples: each value is "
			"one repetition.\n", markdown ? "\n" : "", from_reps);
	if (untested)
		fprintf(f, "%s%zu benchmarks have fewer than %d repetitions on a "
			"side: no CI or test, verdict \"unknown\".\n",
			markdown ? "\n" : "", untested, COMPARE_MIN_REPETITIONS);
	print_tally(f, res, words, markdown);
	if (controls)
		compare_controls_print(f, res, controls, markdown);
	for (size_t i = 0, differ = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];

		if (!strcmp(r->a->counter, r->b->counter))
			continue;
		if (!differ++)
			fprintf(f, "%sTimed with different counters (first: %s, "
				"A %s, B %s): compared in %s, a difference of "
				"counters is part of each delta.\n",
				markdown ? "\n" : "", r->a->name, r->a->counter,
				r->b->counter, r->unit);
	}
	if (res->only_a_count || res->only_b_count)
		fprintf(f, "%sNot compared: %zu benchmarks only in A, %zu only in B "
			"(or in units that do not convert).\n", markdown ? "\n" : "",
			res->only_a_count, res->only_b_count);
}

/* dir/name, opened for writing; NULL with errno set. */
static FILE *open_in_dir(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "w");
}

/*
 * Fields that are NAN are written empty, as everywhere in compare.csv.
 * Text from the runs goes through csv_field_text().
 */
int compare_csv_write(const char *dir, const struct compare_result *res,
		      const struct compare_settings *set,
		      const struct compare_words *words)
{
	static const char *const header[] = {
		"name", "suite", "op", "variant", "size", "batch", "unit",
		"n_a", "n_b", "reps_a", "reps_b", "median_a", "median_b",
		"center_a", "center_b", "delta", "delta_ns", "relative",
		"ci_low", "ci_high", "relative_low", "relative_high", "se", "boot_sd",
		"boot_sd_source", "df", "p_value", "q_value", "basis", "relative_net",
		"verdict", "method",
	};
	struct csv_writer w;
	FILE *f;
	int err;

	f = open_in_dir(dir, "compare.csv");
	if (!f)
		return -1;
	csv_writer_init(&w, f);
	csv_row(&w, header, sizeof(header) / sizeof(*header));
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];

		/* the runs' own text: a spreadsheet must not run it */
		csv_field_text(&w, r->a->name);
		csv_field_text(&w, r->a->suite);
		csv_field_text(&w, r->a->op);
		csv_field_text(&w, r->a->variant);
		csv_field_uint(&w, r->a->size);
		csv_field_uint(&w, r->a->batch);
		csv_field_text(&w, r->unit);
		csv_field_uint(&w, r->na);
		csv_field_uint(&w, r->nb);
		csv_field_uint(&w, r->reps_a);
		csv_field_uint(&w, r->reps_b);
		csv_field_double(&w, r->median_a);
		csv_field_double(&w, r->median_b);
		csv_field_double(&w, r->center_a);
		csv_field_double(&w, r->center_b);
		csv_field_double(&w, r->delta);
		csv_field_double(&w, r->delta_ns);
		csv_field_double(&w, r->relative);
		csv_field_double(&w, r->ci_low);
		csv_field_double(&w, r->ci_high);
		csv_field_double(&w, r->relative_low);
		csv_field_double(&w, r->relative_high);
		csv_field_double(&w, r->se);
		csv_field_double(&w, r->boot_assumed ? set->boot_sd : r->boot_sd);
		csv_field(&w, r->boot_assumed && r->boot_scale > 0 ? "assumed"
					     : compare_boot_source_name(set));
		csv_field_double(&w, r->df);
		csv_field_double(&w, r->p);
		csv_field_double(&w, r->q);
		csv_field(&w, words->basis[i]);
		csv_field_double(&w, r->net ? expm1(r->log_ratio) : NAN);
		csv_field(&w, words->verdict[r->verdict]);
		csv_field(&w, r->method);
		csv_end_row(&w);
	}
	err = csv_writer_error(&w);
	if (fclose(f) || err)
		return -1;
	return 0;
}

/* The settings as key, value text pairs; returns how many. */
static size_t settings_pairs(const struct compare_settings *set,
			     char text[][2][320], size_t max)
{
	size_t n = 0;

#define PAIR(key, ...) do {						\
		if (n < max) {						\
			snprintf(text[n][0], sizeof(text[n][0]), "%s", key); \
			snprintf(text[n][1], sizeof(text[n][1]), __VA_ARGS__); \
			n++;						\
		}							\
	} while (0)
	PAIR("unit", "repetition");
	PAIR("center", "mean of repetition medians");
	PAIR("scale", "log of the repetition medians (linear for rows with a value <= 0)");
	PAIR("ci_method", "t, se^2 = s_a^2/r_a + s_b^2/r_b + each row's boot variance (common + own, moderated), Satterthwaite df; net of sound negative controls");
	PAIR("ci_level", "%g", 1 - set->alpha);
	PAIR("test", "t, |d| > log(1 + margin): two one-sided tests, the smaller p doubled");
	PAIR("boot_sd", "%g", set->boot_sd);
	PAIR("boot_df", "%g", set->boot_df);
	PAIR("boot_sd_source", "%s", compare_boot_source_name(set));
	PAIR("boots_a", "%u", set->boots_a);
	PAIR("boots_b", "%u", set->boots_b);
	if (isfinite(set->boot_estimate_sd))
		PAIR("boot_sd_estimate", "%g", set->boot_estimate_sd);
	PAIR("verdicts", "%s", set->withheld ? set->withheld : "given");
	if (set->calibration)
		PAIR("calibration", "%s", set->calibration);
	if (set->dispersion.checked) {
		const struct compare_dispersion *d = &set->dispersion;

		PAIR("calibration_holds", "%s", d->scale > 1 ? "no" : "yes");
		PAIR("calibration_null_rows", "%zu %s", d->rows,
		     d->all_rows ? "(every row: A/A)" : "(negative controls)");
		PAIR("calibration_dispersion", "%g", d->ratio);
		PAIR("calibration_dispersion_p", "%g", d->p);
		PAIR("variance_scale", "%g", d->scale);
		PAIR("variance_scale_df", "%g", d->scale_df);
	}
	PAIR("fdr_method", "Benjamini-Hochberg");
	PAIR("alpha", "%g", set->alpha);
	PAIR("margin", "%g", set->margin);
	PAIR("verdict_rule", "faster/slower: q <= alpha (the CI beyond +-margin); same: two one-sided tests at alpha/2 within +-margin, boot variance estimated only");
	PAIR("min_repetitions", "%d", COMPARE_MIN_REPETITIONS);
	PAIR("min_repetitions_same", "%d", COMPARE_MIN_SAME_REPETITIONS);
	PAIR("within_run_method", "paired t over repetitions");
#undef PAIR
	return n;
}

int compare_settings_write(const char *dir, const struct compare_settings *set)
{
	char text[32][2][320];
	size_t n = settings_pairs(set, text, 32);
	struct csv_writer w;
	FILE *f;
	int err;

	f = open_in_dir(dir, "compare-settings.csv");
	if (!f)
		return -1;
	csv_writer_init(&w, f);
	csv_row(&w, (const char *const[]){ "key", "value" }, 2);
	for (size_t i = 0; i < n; i++) {
		/* a value can be a path given on the command line */
		csv_field(&w, text[i][0]);
		csv_field_text(&w, text[i][1]);
		csv_end_row(&w);
	}
	err = csv_writer_error(&w);
	if (fclose(f) || err)
		return -1;
	return 0;
}

void compare_settings_print(FILE *f, const struct compare_settings *set)
{
	char text[32][2][320];
	size_t n = settings_pairs(set, text, 32);

	for (size_t i = 0; i < n; i++)
		fprintf(f, "- `%s`: %s\n", text[i][0], text[i][1]);
}
