// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_compare.c - `smapbench compare RUN_A RUN_B`: the comparison of two
 * runs (analysis/compare_dir.h), written to a directory.
 */
#include "cli/commands.h"
#include "cli/compare_options.h"

int cmd_compare(int argc, char **argv)
{
	struct compare_options o;
	int rc = compare_parse_options(argc, argv, &o);

	if (rc || o.help)
		return rc;
	return compare_dir_write(&o.request);
}
