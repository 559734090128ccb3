// SPDX-License-Identifier: GPL-2.0
/* compare_controls.c - negative controls; see compare_controls.h. */
#include "analysis/compare_controls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/derived.h"
#include "analysis/text_table.h"
#include "measure/stats.h"
#include "suites/suite.h"

/* A base or a control, as the row's suite marks it (suites/syscall/). */
int compare_is_control(const struct run_bench *b)
{
	enum bench_role role = suite_row_role(b->suite, b->op, b->variant);

	return role == BENCH_ROLE_BASE || role == BENCH_ROLE_CONTROL;
}

/* A row with a log-scale raw interval. */
static int usable(const struct compare_row *r)
{
	return !r->linear && isfinite(r->raw_se) && isfinite(r->raw_df) &&
	       isfinite(r->raw_log_ratio);
}

/*
 * A row's own part of its boot variance, with its df: the estimate (the
 * raw figure's common part may have floored the raw interval; the own
 * part is judged on its own df), or (none, or estimated on few df below
 * it) the assumption, all of it taken as the row's own.
 */
static struct compare_variance own_boot(const struct compare_row *r,
					const struct compare_settings *set,
					int *assumed)
{
	double sd = set->same_boot ? 0 : set->boot_sd;
	double floor = r->boot_scale * sd * sd + r->boot_sampling;

	*assumed = 0;
	if (!(r->boot_scale > 0))
		return (struct compare_variance){ 0, INFINITY };
	if (!isfinite(r->boot_own) ||
	    (!(r->boot_own_df >= COMPARE_MIN_BOOT_DF) && r->boot_own < floor)) {
		*assumed = 1;
		return (struct compare_variance){ floor, INFINITY };
	}
	return (struct compare_variance){ r->boot_own, r->boot_own_df };
}

struct compare_variance compare_row_own(const struct compare_row *r,
					const struct compare_settings *set,
					int *assumed)
{
	struct compare_variance boot = own_boot(r, set, assumed);
	double var[3] = { r->within_a, r->within_b, boot.var };
	double df[3] = { r->within_a_df, r->within_b_df, boot.df };

	return (struct compare_variance){ var[0] + var[1] + var[2],
					  compare_satterthwaite(var, df, 3) };
}

/*
 * The 1 - p point of a chi-square on k df (Wilson and Hilferty's cube:
 * within a few percent for k >= 2, enough for a gate).
 */
static double chi_square_quantile(double p, double k)
{
	double z = stats_student_quantile(p, 1e9), c = 2 / (9 * k);

	return k * pow(1 - c + z * sqrt(c), 3);
}

int compare_controls_compute(const struct compare_result *res,
			     const struct compare_settings *set,
			     struct compare_controls *out)
{
	double sum_u = 0, mean = 0, spread = 0, t, n, within = 0, boot = 0, judged;
	double *u = NULL, *terms = NULL, *dfs = NULL;
	double common = 0, common_df = INFINITY;
	const struct compare_row *first = NULL;
	size_t k = 0;
	int rc = -1, assumed;

	memset(out, 0, sizeof(*out));
	out->shift = out->low = out->high = out->se = out->df = NAN;
	out->spread = out->spread_limit = NAN;
	out->net = malloc((res->count ? res->count : 1) * sizeof(*out->net));
	u = calloc(res->count + 1, sizeof(*u));
	terms = calloc(2 * res->count + 2, sizeof(*terms));
	dfs = calloc(2 * res->count + 2, sizeof(*dfs));
	if (!out->net || !u || !terms || !dfs)
		goto out;
	out->split_known = compare_calibrated(set);
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		double v;

		out->net[i] = (struct compare_net){ NAN, NAN, NAN };
		if (!compare_is_control(r->a) || !usable(r))
			continue;
		out->count++;
		v = compare_row_own(r, set, &assumed).var;
		u[i] = v > 0 ? 1 / v : 1e30;
		sum_u += u[i];
		mean += u[i] * r->raw_log_ratio;
		if (!first)
			first = r;
	}
	rc = 0;
	if (!out->count)
		goto out;
	n = (double)out->count;
	mean /= sum_u;
	/*
	 * The weighted mean's own parts: the repetitions and each control's
	 * own boot part, their terms' df combined.
	 */
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		struct compare_variance b;
		double d, share;

		if (!compare_is_control(r->a) || !usable(r))
			continue;
		d = r->raw_log_ratio - mean;
		spread += u[i] * d * d;
		share = u[i] * u[i] / (sum_u * sum_u);
		b = own_boot(r, set, &assumed);
		terms[k] = share * r->within_a;
		dfs[k++] = r->within_a_df;
		terms[k] = share * r->within_b;
		dfs[k++] = r->within_b_df;
		terms[k] = share * b.var;
		dfs[k++] = b.df;
		within += share * (r->within_a + r->within_b);
		if (!assumed)
			boot += share * b.var;
	}
	out->own_var = 0;
	for (size_t j = 0; j < k; j++)
		out->own_var += terms[j];
	out->own_df = compare_satterthwaite(terms, dfs, k);
	/*
	 * The controls' mean against 0: the shift every row shares counts
	 * once. Split unknown: all of the assumption taken as shared.
	 */
	if (first->boot_scale > 0 && !first->boot_assumed &&
	    isfinite(first->boot_common)) {
		common = first->boot_common;
		common_df = first->boot_common_df;
	} else if (first->boot_scale > 0 && !set->same_boot) {
		common = first->boot_scale * set->boot_sd * set->boot_sd;
	}
	{
		double var[3] = { within, boot, common };
		double df[3] = { out->own_df, out->own_df, common_df };

		out->se = sqrt(within + boot + common);
		out->df = compare_satterthwaite(var, df, 3);
	}
	t = stats_student_quantile(1 - set->alpha / 2, out->df);
	out->shift = expm1(mean);
	out->low = expm1(mean - t * out->se);
	out->high = expm1(mean + t * out->se);
	out->moved = out->low > 0 || out->high < 0;
	if (out->count > 1) {
		out->spread = spread;
		out->spread_limit = chi_square_quantile(0.99, n - 1);
	}
	/*
	 * A scale the controls alone gave (analysis/compare_dispersion.h)
	 * is their spread over its df: against it they would always agree.
	 * They are judged on the calibration's variances then, as without.
	 */
	judged = out->spread;
	if (set->dispersion.scale > 1 && !set->dispersion.all_rows)
		judged *= set->dispersion.scale;
	out->sound = out->count >= COMPARE_MIN_CONTROLS && judged <= out->spread_limit;
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		struct compare_variance own;
		double var[2], df[2], se, d;

		if (compare_is_control(r->a) || !usable(r))
			continue;
		/* the common shift cancels; each row's own boot effect does not */
		own = compare_row_own(r, set, &assumed);
		var[0] = own.var;
		df[0] = own.df;
		var[1] = out->own_var;
		df[1] = out->own_df;
		se = sqrt(var[0] + var[1]);
		d = r->raw_log_ratio - mean;
		t = stats_student_quantile(1 - set->alpha / 2,
					   compare_satterthwaite(var, df, 2));
		out->net[i] = (struct compare_net){ expm1(d), expm1(d - t * se),
						    expm1(d + t * se) };
	}
out:
	if (rc) {
		free(out->net);
		out->net = NULL;
	}
	free(u);
	free(terms);
	free(dfs);
	return rc;
}

int compare_controls_net(struct compare_result *res,
			 const struct compare_settings *set)
{
	struct compare_controls c;
	double mean;
	int assumed;

	if (compare_controls_compute(res, set, &c))
		return -1;
	if (!c.sound || set->withheld) {
		compare_controls_free(&c);
		return compare_assign_verdicts(res->rows, res->count, set);
	}
	mean = log1p(c.shift);
	for (size_t i = 0; i < res->count; i++) {
		struct compare_row *r = &res->rows[i];
		struct compare_variance own;
		double var[2], df[2];

		if (compare_is_control(r->a) || !usable(r))
			continue;
		own = compare_row_own(r, set, &assumed);
		var[0] = own.var;
		df[0] = own.df;
		var[1] = c.own_var;
		df[1] = c.own_df;
		r->log_ratio = r->raw_log_ratio - mean;
		r->se = sqrt(var[0] + var[1]);
		r->df = compare_satterthwaite(var, df, 2);
		r->boot_assumed = assumed;
		r->net = 1;
		compare_row_interval(r, set);
	}
	compare_controls_free(&c);
	return compare_assign_verdicts(res->rows, res->count, set);
}

void compare_controls_free(struct compare_controls *c)
{
	free(c->net);
	memset(c, 0, sizeof(*c));
}

void compare_controls_print(FILE *f, const struct compare_result *res,
			    const struct compare_controls *c, int markdown)
{
	struct text_table t;
	char rel[32], ci[96], lo[32], hi[32];

	if (!c->count)
		return;
	format_percent(rel, sizeof(rel), c->shift);
	format_percent(lo, sizeof(lo), c->low);
	format_percent(hi, sizeof(hi), c->high);
	fprintf(f, "%sNegative controls (rows that open no user-access "
		"window, the syscall suite's bases and controls; "
		"%zu found): B/A - 1 = %s [%s, %s].\n", markdown ? "\n" : "\n",
		c->count, rel, lo, hi);
	if (c->moved)
		fprintf(f, "%sWARNING: the negative controls moved beyond their "
			"interval: something besides SMAP differs between the "
			"boots (the core clock, the host, the load), and every "
			"row's change holds it too; read the rows net of the "
			"controls below.\n", markdown ? "\n" : "");
	if (markdown)
		fputc('\n', f);
	text_table_init(&t, 4, "lrrl");
	text_table_add(&t, (const char *const[]){ "benchmark", "B/A - 1",
		   "net of controls", "CI net" });
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		char net[32];

		/* the rows a boot's kernel changes: syscalls, the kernel API */
		if (isnan(c->net[i].relative) ||
		    !(!strcmp(r->a->suite, "syscall") ||
		      (!strcmp(r->a->suite, "kmod") && !strcmp(r->a->variant, "kapi"))))
			continue;
		format_percent(rel, sizeof(rel), r->relative);
		format_percent(net, sizeof(net), c->net[i].relative);
		format_percent(lo, sizeof(lo), c->net[i].low);
		format_percent(hi, sizeof(hi), c->net[i].high);
		snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		text_table_add(&t, (const char *const[]){ r->a->name, rel, net, ci });
	}
	text_table_print(f, &t, markdown);
	text_table_free(&t);
	fprintf(f, "%snet: the row's change less the controls' mean change, on "
		"the log scale; its interval holds both rows' repetitions and the "
		"boot effects each row has of its own%s.\n", markdown ? "\n" : "",
		c->split_known ? "" : " (sigma_u assumed, all of it taken as each "
		"row's own: conservative)");
}
