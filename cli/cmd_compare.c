// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_compare.c - `smapbench compare RUN_A RUN_B`: the comparison of two
 * runs (analysis/comparison.h), written to a directory.
 */
#include "cli/commands.h"
#include "cli/compare_options.h"

int cmd_compare(int argc, char **argv)
{
	struct compare_options o;
	int rc = compare_parse_options(argc, argv, &o);

	if (rc || o.help)
		return rc;
	return comparison_write(&o.request);
}
