// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_csv.c - libFuzzer target: csv_read_row() and csv_table_load() on
 * any bytes, and the two must agree: a table loads exactly when every
 * record the row reader finds has the header's width and is no empty
 * line, and then holds the same fields, on the same lines.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rundata/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a regular file, which is what csv_table_load() reads. */
static int table_of(const uint8_t *data, size_t size, struct csv_table *t)
{
	char path[64], err[512];
	int fd = memfd_create("fuzz_csv", 0), rc;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rc = csv_table_load(path, t, err, sizeof(err));
	close(fd);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csv_row row = { 0 };
	struct csv_table t;
	unsigned long line = 0, start;
	unsigned columns = 0;
	size_t records = 0;
	int loaded, rc, fits = 1;
	FILE *f;

	if (!size)
		return 0;
	loaded = table_of(data, size, &t) == 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		abort();
	rc = csv_read_row(f, &row, &line);
	if (rc > 0) {
		columns = row.count;
		if (loaded && t.columns != columns)
			abort();
		for (unsigned c = 0; loaded && c < columns; c++)
			if (strcmp(csv_table_name(&t, c), row.fields[c]))
				abort();
	}
	fits = rc > 0 && !(columns == 1 && !row.fields[0][0] &&
			   data[0] != '"');
	while (rc > 0) {
		start = line + 1;
		rc = csv_read_row(f, &row, &line);
		if (rc <= 0)
			break;
		if (row.count != columns || (row.count == 1 &&
					     !row.fields[0][0]))
			fits = 0;	/* ragged, or perhaps an empty line */
		if (loaded) {
			if (records >= t.count ||
			    csv_table_line(&t, records) != start)
				abort();
			for (unsigned c = 0; c < row.count; c++)
				if (strcmp(csv_table_cell(&t, records, c),
					   row.fields[c]))
					abort();
		}
		records++;
	}
	/* only the row reader has a limit on a record's length */
	if (rc == -2)
		goto out;
	if (rc < 0)
		fits = 0;
	if (loaded && (rc < 0 || records != t.count))
		abort();
	/* a one-column "" record is no empty line: the table may take it */
	if (fits && !loaded)
		abort();
out:
	csv_row_free(&row);
	fclose(f);
	if (loaded)
		csv_table_free(&t);
	return 0;
}
