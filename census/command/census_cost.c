// SPDX-License-Identifier: GPL-2.0
/* census_cost.c - the cost of a pair and the core frequency; see census_cost.h. */
#include "census/command/census_cost.h"

#include <stdio.h>
#include <string.h>

const char *census_cost_kind_name(enum census_cost_kind kind)
{
	switch (kind) {
	case CENSUS_COST_NONE:
		return "none";
	case CENSUS_COST_GIVEN:
		return "given";
	case CENSUS_COST_ROW:
		return "table row";
	case CENSUS_COST_MODULE:
		return "module";
	case CENSUS_COST_SERIES:
		return "series";
	case CENSUS_COST_CPU_MODEL:
		return "cpu model";
	case CENSUS_COST_RANGE:
		return "range";
	}
	return "unknown";
}

int census_cost_resolve(const struct census_cost_options *o,
			struct census_pair_cost *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	if (o->cpu_row) {
		if (census_cost_from_cpu_row(o, c, err, errlen))
			return -2;
		c->known = 1;
		c->kind = CENSUS_COST_ROW;
		return 0;
	}
	if (!(o->pair_cycles > 0))
		return census_cost_of_machine(o, c, err, errlen);
	c->known = 1;
	c->kind = CENSUS_COST_GIVEN;
	c->value = o->pair_cycles;
	c->has_interval = o->pair_high > 0;
	c->low = c->has_interval ? o->pair_low : c->value;
	c->high = c->has_interval ? o->pair_high : c->value;
	snprintf(c->unit, sizeof(c->unit), "cycles");
	if (c->has_interval)
		snprintf(c->source, sizeof(c->source),
			 "given: %g cycles per pair (--pair-cycles), interval [%g, %g] (--pair-ci)",
			 c->value, c->low, c->high);
	else
		snprintf(c->source, sizeof(c->source),
			 "given: %g cycles per pair (--pair-cycles), no interval", c->value);
	if (o->ghz > 0) {
		c->ghz = o->ghz;
		snprintf(c->ghz_source, sizeof(c->ghz_source), "%g GHz, given (--ghz)",
			 o->ghz);
		return 0;
	}
	return census_cost_measure_ghz(c, err, errlen);
}

double census_cost_seconds(const struct census_pair_cost *c, double v)
{
	if (!strcmp(c->unit, "ns"))
		return v * 1e-9;
	return v / (c->ghz * 1e9);
}
