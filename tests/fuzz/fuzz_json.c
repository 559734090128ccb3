// SPDX-License-Identifier: GPL-2.0
/* fuzz_json.c - libFuzzer target: json_parse() on any bytes, both modes. */
#include <stdint.h>
#include <stdio.h>

#include "rundata/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_value root;
	char err[256];

	for (unsigned flags = 0; flags <= JSON_NONFINITE; flags++)
		if (json_parse((const char *)data, size, flags, &root, err,
			       sizeof(err)) == 0)
			json_free(&root);
	return 0;
}
