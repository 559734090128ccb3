// SPDX-License-Identifier: GPL-2.0
/* fuzz_manifest.c - libFuzzer target: run_manifest_parse() on any bytes. */
#include <stdint.h>
#include <stdio.h>

#include "archive/run_archive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_manifest m;
	char err[256];

	if (run_manifest_parse((const char *)data, size, &m, err,
			       sizeof(err)) == 0) {
		for (size_t i = 0; i < m.count; i++)
			run_manifest_find(&m, m.files[i].path);
		run_manifest_free(&m);
	}
	return 0;
}
