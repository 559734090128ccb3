/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series_plan.h - how many boots, invocations a boot and repetitions an
 * invocation a boot series needs for a stated precision, in the least
 * time: the design for nested random effects of Kalibera and Jones,
 * "Rigorous benchmarking in reasonable time" (ISMM 2013).
 *
 * A row's log time in a boot of one SMAP state is
 *
 *   y = mu_state + b + i + e
 *
 * b the boot's effect (sd sigma_boot), i the invocation's within its
 * boot (sigma_inv), e the repetition's within its invocation
 * (sigma_rep). A series of n boots alternates the states: m = n / 2 a
 * state, k invocations a boot, r repetitions an invocation. A state's
 * mean then has the variance
 *
 *   V = sigma_boot^2 / m + sigma_inv^2 / (m k) + sigma_rep^2 / (m k r)
 *
 * SMAP on - off has 2 V, and its half-width is t sqrt(2 V) on the log
 * scale (0.01 is about 1%), t at the level asked with the boot level's
 * degrees of freedom: 2 (m - 1) when the series estimates sigma_boot
 * from its own boots (the least Satterthwaite gives over the levels),
 * or a calibration's when the comparison takes sigma_boot from one. The
 * series takes
 *
 *   T = n (c_boot + k (c_inv + r c_rep)) + c_series
 *
 * c_boot a boot's fixed cost (kexec, settling), c_inv an invocation's
 * (start, sizing, context), c_rep a repetition of what the series runs,
 * c_series the comparisons at its end.
 *
 * Kalibera and Jones: for a given V, T is least when each level gets
 * units in proportion to sigma / sqrt(cost) (Cauchy-Schwarz on V times
 * T), whatever the precision:
 *
 *   r* = (sigma_rep / sigma_inv) sqrt(c_inv / c_rep)
 *   k* = (sigma_inv / sigma_boot) sqrt(c_boot / c_inv)
 *
 * (without an invocation level, sigma_inv = 0: k* = 1 and
 * r* = (sigma_rep / sigma_boot) sqrt((c_boot + c_inv) / c_rep)); the
 * precision then sets the boots. Whole numbers, the t quantile's
 * dependence on the boots and several rows at once move that optimum:
 * the plan is the cheapest whole design, searched over the boots and
 * invocations with the least r in closed form, and the continuous
 * optimum is reported beside it.
 */
#ifndef SMAPBENCH_SERIES_PLAN_H
#define SMAPBENCH_SERIES_PLAN_H

#include <stddef.h>

/* One row's variance components, sds on the log scale (0.01 is 1%). */
struct series_components {
	const char *name;
	double boot_sd, invocation_sd, repetition_sd;
};

/* What each unit of a level costs, in seconds. */
struct series_costs {
	double boot;		/* kexec and settling, once a boot */
	double invocation;	/* an invocation's start: sizing, context */
	double repetition;	/* one repetition of what the series runs */
	double series;		/* once: the comparisons at the end */
};

struct series_plan_request {
	const struct series_components *rows;
	size_t row_count;
	struct series_costs cost;
	double half_width;	/* target, log scale, each row */
	double level;		/* of the interval: 0.95 */
	/*
	 * Degrees of freedom of sigma_boot when the comparison takes it
	 * from a calibration; 0: from the series' own boots, 2 (m - 1).
	 */
	double boot_df;
	unsigned max_boots;		/* n, both states, at most */
	unsigned max_invocations;	/* k, a boot, at most (1: one) */
	unsigned min_repetitions;	/* r, at least (compare: 3) */
	unsigned max_repetitions;	/* r, at most */
};

/* A design and what it gives. */
struct series_design {
	unsigned boots;		/* n, even: boots / 2 a state */
	unsigned invocations;	/* k, a boot */
	unsigned repetitions;	/* r, an invocation */
	double half_width;	/* the widest row's, log scale */
	size_t worst;		/* that row */
	double seconds;		/* T */
};

struct series_plan {
	int feasible;		/* within max_boots */
	struct series_design plan;	/* feasible: the cheapest */
	/*
	 * Not feasible: needed, the cheapest design with more boots
	 * (boots 0 when none up to SERIES_PLAN_BOOT_CAP reaches it), and
	 * best, the narrowest the limits allow (max_boots, max_invocations,
	 * max_repetitions).
	 */
	struct series_design needed, best;
	/* Kalibera and Jones's continuous optimum, for comparison */
	double ideal_invocations, ideal_repetitions;
	double lower_bound_seconds;	/* its T at the normal quantile */
};

/* Boots a state the search goes to when the limit is not enough. */
#define SERIES_PLAN_BOOT_CAP 5000

/*
 * The half-width (log scale) of SMAP on - off for a design: the widest
 * of the rows, its index into *worst (may be NULL). m boots a state.
 */
double series_plan_half_width(const struct series_plan_request *req,
			      unsigned m, unsigned k, unsigned r, size_t *worst);
/* T of a design of m boots a state. */
double series_plan_seconds(const struct series_costs *c, unsigned m,
			   unsigned k, unsigned r);
/*
 * The plan: 0; -1 when the request cannot be planned (no row, a cost
 * or sd not a finite number >= 0, a repetition costing nothing, a
 * target not above 0, limits out of order).
 */
int series_plan_make(const struct series_plan_request *req,
		     struct series_plan *out);

#endif /* SMAPBENCH_SERIES_PLAN_H */
