// SPDX-License-Identifier: GPL-2.0
/*
 * json_check.c - exit 0 when each file named is one valid JSON value,
 * else print where it is not and exit 1. Used by the test stages.
 */
#include <stdio.h>
#include <stdlib.h>

#include "json.h"

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: json-check FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		char *text = NULL, err[256];
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			status = 1;
			continue;
		}
		do {
			if (len + 65536 > cap) {
				cap = cap ? cap * 2 : 1 << 20;
				text = realloc(text, cap);
				if (!text) {
					fprintf(stderr, "%s: out of memory\n", argv[i]);
					return 1;
				}
			}
			n = fread(text + len, 1, 65536, f);
			len += n;
		} while (n > 0);
		fclose(f);
		if (json_validate(text, len, err, sizeof(err))) {
			fprintf(stderr, "%s: invalid JSON at %s\n", argv[i], err);
			status = 1;
		}
		free(text);
	}
	return status;
}
