// SPDX-License-Identifier: GPL-2.0
/*
 * json_check.c - exit 0 when each file named is one valid JSON value,
 * else print where it is not (FILE:LINE:COLUMN: invalid JSON: what) and
 * exit 1. Used by the test stages.
 */
#include <stdio.h>

#include "rundata/json.h"

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: json-check FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct json_value root;
		char err[512];

		if (json_parse_file(argv[i], 0, &root, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			status = 1;
			continue;
		}
		json_free(&root);
	}
	return status;
}
