// SPDX-License-Identifier: GPL-2.0
/* fuzz_csv.c - libFuzzer target: csv_read_row() on any bytes. */
#include <stdint.h>
#include <stdio.h>

#include "rundata/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csv_row row = { 0 };
	unsigned long line = 0;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	while (csv_read_row(f, &row, &line) > 0)
		;
	csv_row_free(&row);
	fclose(f);
	return 0;
}
