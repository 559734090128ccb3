// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_import.c - libFuzzer target: a whole `smapbench import` of the
 * input as an archive (import_once.h). A mutation of a member's data
 * meets the MANIFEST's SHA-256 first: this target fuzzes the archive's
 * structure and that check; fuzz_import_resummed.c what comes after it.
 */
#include "import_once.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	import_once(data, size);
	return 0;
}
