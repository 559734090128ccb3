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

/* A row with a log-scale interval. */
static int usable(const struct compare_row *r)
{
	return !r->linear && isfinite(r->se) && isfinite(r->df) &&
	       isfinite(r->log_ratio);
}

int compare_controls_compute(const struct compare_result *res,
			     const struct compare_settings *set,
			     struct compare_controls *out)
{
	double sum = 0, within = 0, df_den = 0, boot = 2 * set->boot_sd * set->boot_sd;
	double common = set->boot_common_sd * set->boot_common_sd;
	double own = fmax(0, set->boot_sd * set->boot_sd - common), mean, n, t;

	memset(out, 0, sizeof(*out));
	out->shift = out->low = out->high = out->se = out->df = NAN;
	out->net = malloc((res->count ? res->count : 1) * sizeof(*out->net));
	if (!out->net)
		return -1;
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];

		out->net[i] = (struct compare_net){ NAN, NAN, NAN };
		if (!compare_is_control(r->a) || !usable(r))
			continue;
		out->count++;
		sum += r->log_ratio;
		/* what the repetitions give: se^2 less the boot term */
		within += fmax(0, r->se * r->se - boot);
		df_den += pow(fmax(0, r->se * r->se - boot), 2) / r->df;
	}
	out->split_known = set->boot_source != COMPARE_BOOT_ASSUMED;
	if (!out->count)
		return 0;
	n = (double)out->count;
	mean = sum / n;
	within /= n * n;
	/* the controls' mean against 0: every boot term counts */
	out->se = sqrt(within + 2 * common + 2 * own / n);
	out->df = df_den > 0 ? fmin(1e4, within * within * n * n * n * n / df_den) : 1e4;
	if (set->boot_source != COMPARE_BOOT_ASSUMED && isfinite(set->boot_df))
		out->df = fmin(out->df, set->boot_df);
	t = stats_student_quantile(1 - set->alpha / 2, out->df);
	out->shift = expm1(mean);
	out->low = expm1(mean - t * out->se);
	out->high = expm1(mean + t * out->se);
	out->moved = out->low > 0 || out->high < 0;
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		double se, df, d;

		if (compare_is_control(r->a) || !usable(r))
			continue;
		/* the common shift cancels; each row's own boot effect does not */
		se = sqrt(fmax(0, r->se * r->se - boot) + within +
			  2 * own * (1 + 1 / n));
		df = fmin(r->df, out->df);
		d = r->log_ratio - mean;
		t = stats_student_quantile(1 - set->alpha / 2, df);
		out->net[i] = (struct compare_net){ expm1(d), expm1(d - t * se),
						    expm1(d + t * se) };
	}
	return 0;
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
