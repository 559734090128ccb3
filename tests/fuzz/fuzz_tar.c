// SPDX-License-Identifier: GPL-2.0
/* fuzz_tar.c - libFuzzer target: tar_next() and tar_read() on any bytes. */
#include <stdint.h>
#include <stdio.h>

#include "archive/tar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Small limits: the fuzzer's inputs are small, the checks the same. */
	const struct tar_limits limits = { 1 << 20, 4 << 20, 64 };
	struct tar_reader r;
	struct tar_entry e;
	char err[256], buf[4096];
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	tar_reader_init(&r, f, &limits);
	while (tar_next(&r, &e, err, sizeof(err)) > 0)
		while (tar_read(&r, buf, sizeof(buf), err, sizeof(err)) > 0)
			;
	tar_reader_free(&r);
	fclose(f);
	return 0;
}
