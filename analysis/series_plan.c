// SPDX-License-Identifier: GPL-2.0
/* series_plan.c - a boot series planned for a precision; see series_plan.h. */
#include "analysis/series_plan.h"

#include <math.h>
#include <string.h>

#include "measure/stats.h"

/* t beyond this many degrees of freedom is the normal */
#define PLAN_DF_NORMAL 1e9

static double boot_df(const struct series_plan_request *req, unsigned m)
{
	return req->boot_df > 0 ? req->boot_df : 2.0 * ((double)m - 1);
}

/* The t quantile of the interval for m boots a state; INFINITY without df. */
static double quantile(const struct series_plan_request *req, unsigned m)
{
	double df = boot_df(req, m);

	if (!(df > 0))
		return INFINITY;
	return stats_student_quantile(1 - (1 - req->level) / 2, df);
}

/* 2 V of one row: the variance of SMAP on - off. */
static double variance(const struct series_components *c, unsigned m,
		       unsigned k, unsigned r)
{
	double mk = (double)m * k;

	return 2 * (c->boot_sd * c->boot_sd / m +
		    c->invocation_sd * c->invocation_sd / mk +
		    c->repetition_sd * c->repetition_sd / (mk * r));
}

double series_plan_half_width(const struct series_plan_request *req,
			      unsigned m, unsigned k, unsigned r, size_t *worst)
{
	double t = quantile(req, m), widest = -1;

	for (size_t i = 0; i < req->row_count; i++) {
		double h = t * sqrt(variance(&req->rows[i], m, k, r));

		if (h > widest) {
			widest = h;
			if (worst)
				*worst = i;
		}
	}
	return widest;
}

double series_plan_seconds(const struct series_costs *c, unsigned m,
			   unsigned k, unsigned r)
{
	return 2.0 * m * (c->boot + k * (c->invocation + r * c->repetition)) +
	       c->series;
}

/*
 * The fewest repetitions that bring every row to the target with m boots
 * a state and k invocations: from 2 V <= (h / t)^2 solved for r, row by
 * row; 0 when no r up to max_repetitions does.
 */
static unsigned least_repetitions(const struct series_plan_request *req,
				  unsigned m, unsigned k, double t)
{
	double budget = req->half_width / t;
	unsigned r = req->min_repetitions;

	budget = budget * budget / 2;
	for (size_t i = 0; i < req->row_count; i++) {
		const struct series_components *c = &req->rows[i];
		double mk = (double)m * k;
		double left = budget - c->boot_sd * c->boot_sd / m -
			      c->invocation_sd * c->invocation_sd / mk;
		double need;

		if (c->repetition_sd == 0) {
			if (left < 0)
				return 0;
			continue;
		}
		if (!(left > 0))
			return 0;
		need = c->repetition_sd * c->repetition_sd / (mk * left);
		if (need > req->max_repetitions)
			return 0;
		/* rounding of need down by an ulp must not cost a repetition */
		need = ceil(need * (1 - 1e-12));
		if (need > r)
			r = (unsigned)need;
	}
	/* and what the quotient's rounding may have left */
	while (r <= req->max_repetitions &&
	       series_plan_half_width(req, m, k, r, NULL) > req->half_width)
		r++;
	return r <= req->max_repetitions ? r : 0;
}

static void design(const struct series_plan_request *req, unsigned m,
		   unsigned k, unsigned r, struct series_design *d)
{
	d->boots = 2 * m;
	d->invocations = k;
	d->repetitions = r;
	d->half_width = series_plan_half_width(req, m, k, r, &d->worst);
	d->seconds = series_plan_seconds(&req->cost, m, k, r);
}

/*
 * The cheapest design of m_min to m_max boots a state that reaches the
 * target; 0 with d set, -1 when none does. Ties: fewer boots, then
 * fewer invocations.
 */
static int cheapest(const struct series_plan_request *req, unsigned m_min,
		    unsigned m_max, struct series_design *d)
{
	double best = INFINITY;

	for (unsigned m = m_min; m <= m_max; m++) {
		double t = quantile(req, m);

		/* no design of m or more boots can be cheaper from here */
		if (series_plan_seconds(&req->cost, m, 1, req->min_repetitions) >= best)
			break;
		if (!isfinite(t))
			continue;
		for (unsigned k = 1; k <= req->max_invocations; k++) {
			unsigned r = least_repetitions(req, m, k, t);
			double s;

			if (!r)
				continue;
			s = series_plan_seconds(&req->cost, m, k, r);
			if (s < best) {
				best = s;
				design(req, m, k, r, d);
			}
		}
	}
	return isfinite(best) ? 0 : -1;
}

static int valid(double v)
{
	return isfinite(v) && v >= 0;
}

/* Kalibera and Jones's continuous optimum for the row worst. */
static void ideal(const struct series_plan_request *req, size_t worst,
		  struct series_plan *p)
{
	const struct series_components *c = &req->rows[worst];
	const struct series_costs *cost = &req->cost;
	double z = stats_student_quantile(1 - (1 - req->level) / 2, PLAN_DF_NORMAL);
	double sb = c->boot_sd, si = c->invocation_sd, sr = c->repetition_sd, sum;

	p->ideal_invocations = si > 0 && cost->invocation > 0 ?
			       si / sb * sqrt(cost->boot / cost->invocation) : 1;
	if (!(si > 0) || !(p->ideal_invocations >= 1)) {
		/* one invocation a boot (at least): its cost is the boot's */
		p->ideal_invocations = 1;
		sb = sqrt(sb * sb + si * si);
		p->ideal_repetitions = sr / sb *
				       sqrt((cost->boot + cost->invocation) / cost->repetition);
		sum = sb * sqrt(cost->boot + cost->invocation) +
		      sr * sqrt(cost->repetition);
	} else {
		p->ideal_repetitions = sr / si * sqrt(cost->invocation / cost->repetition);
		sum = sb * sqrt(cost->boot) + si * sqrt(cost->invocation) +
		      sr * sqrt(cost->repetition);
	}
	/* V T / 2 >= sum^2 and 2 V = (h / z)^2 */
	p->lower_bound_seconds = 4 * sum * sum * z * z /
				 (req->half_width * req->half_width) + cost->series;
}

int series_plan_make(const struct series_plan_request *req,
		     struct series_plan *out)
{
	unsigned m_min = req->boot_df > 0 ? 1 : 2, m_max = req->max_boots / 2;

	memset(out, 0, sizeof(*out));
	if (!req->row_count || !(req->half_width > 0) || !(req->level > 0) ||
	    !(req->level < 1) || !valid(req->cost.boot) ||
	    !valid(req->cost.invocation) || !valid(req->cost.series) ||
	    !(req->cost.repetition > 0) || !isfinite(req->cost.repetition) ||
	    !req->max_invocations || !req->min_repetitions ||
	    req->min_repetitions > req->max_repetitions || m_max < m_min)
		return -1;
	for (size_t i = 0; i < req->row_count; i++)
		if (!valid(req->rows[i].boot_sd) ||
		    !valid(req->rows[i].invocation_sd) ||
		    !valid(req->rows[i].repetition_sd))
			return -1;
	out->feasible = !cheapest(req, m_min, m_max, &out->plan);
	if (!out->feasible) {
		design(req, m_max, req->max_invocations, req->max_repetitions,
		       &out->best);
		if (m_max < SERIES_PLAN_BOOT_CAP &&
		    cheapest(req, m_max + 1, SERIES_PLAN_BOOT_CAP, &out->needed))
			memset(&out->needed, 0, sizeof(out->needed));
	}
	ideal(req, out->feasible ? out->plan.worst : out->best.worst, out);
	return 0;
}
