// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_json.c - libFuzzer target: json_parse() on any bytes, both modes,
 * and its two cousins must agree with it: json_validate() (keeps
 * nothing) takes whatever json_parse() takes, and json_parse_each()
 * (streams each top-level "benchmarks" array) takes it too and sees as many
 * elements as the tree holds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_each(const struct json_value *e, size_t i, void *arg)
{
	size_t *count = arg;

	(void)e;
	if (i != (*count)++)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct json_value root, streamed;
	char err[256];
	size_t seen = 0, elements = 0;
	int parsed;

	for (unsigned flags = 0; flags <= JSON_NONFINITE; flags++)
		if (json_parse(text, size, flags, &root, err, sizeof(err)) == 0)
			json_free(&root);
	parsed = json_parse(text, size, 0, &root, err, sizeof(err)) == 0;
	if (parsed && json_validate(text, size, err, sizeof(err)))
		abort();
	if (json_parse_each(text, size, 0, "benchmarks", count_each, &seen,
			    &streamed, &elements, err, sizeof(err)) == 0) {
		if (seen != elements)
			abort();
		json_free(&streamed);
	} else if (parsed) {
		abort();
	}
	if (parsed) {
		size_t in_tree = 0;

		/* every member of that name at the top is streamed */
		for (size_t i = 0; root.type == JSON_OBJECT && i < root.count; i++)
			if (!strcmp(root.keys[i], "benchmarks") &&
			    root.items[i].type == JSON_ARRAY)
				in_tree += root.items[i].count;
		if (in_tree != elements)
			abort();
		json_free(&root);
	}
	return 0;
}
