/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv.h - RFC 4180 CSV: a streaming writer and a reader.
 *
 * Writer: fields are quoted only when they contain a comma, a quote, CR
 * or LF; quotes are doubled; rows end in "\n" (readers accept CRLF too).
 * Numbers use "%.6g" (doubles) or plain integers, as docs/schema.md says.
 * Errors are sticky: check csv_writer_error() once at the end.
 *
 * Reader: csv_read_row() returns one record at a time (quoted fields may
 * span lines); csv_table_load() reads a whole file with a header row and
 * csv_table_column() finds a column by name, which is what tools that
 * read a run directory (compare, plot, report) need.
 */
#ifndef SMAPBENCH_CSV_H
#define SMAPBENCH_CSV_H

#include <stdint.h>
#include <stdio.h>

struct csv_writer {
	FILE *file;
	unsigned fields;	/* fields written in the current row */
	int error;		/* an errno value once a write failed */
};

void csv_writer_init(struct csv_writer *w, FILE *file);
void csv_field(struct csv_writer *w, const char *text);
void csv_field_int(struct csv_writer *w, long long value);
void csv_field_uint(struct csv_writer *w, unsigned long long value);
/* "%.6g"; NaN and infinities are written as empty fields. */
void csv_field_double(struct csv_writer *w, double value);
void csv_end_row(struct csv_writer *w);
/* Write a whole row of text fields. */
void csv_row(struct csv_writer *w, const char *const *fields, unsigned n);
int csv_writer_error(const struct csv_writer *w);

struct csv_row {
	char **fields;
	unsigned count;
	unsigned long line;	/* where it started (csv_table_load) */
	unsigned capacity;	/* slots in fields and sizes */
	unsigned allocated;	/* fields[0 .. allocated) own a buffer */
	size_t *sizes;		/* bytes of each buffer */
};

/*
 * Read the next record into row (fields reused across calls).
 * Returns 1 for a record, 0 at end of file, -1 on a malformed record
 * (stray quote) or no memory; *line (if not NULL) is the 1-based line the
 * record started on.
 */
int csv_read_row(FILE *file, struct csv_row *row, unsigned long *line);
void csv_row_free(struct csv_row *row);

struct csv_table {
	struct csv_row header;
	struct csv_row *rows;
	size_t count;
};

/*
 * Load a file with a header row. Every record must have as many fields
 * as the header. Returns 0, or -1 with a message in err.
 */
int csv_table_load(const char *path, struct csv_table *table,
		   char *err, size_t errlen);
/* Index of the named column, or -1. */
int csv_table_column(const struct csv_table *table, const char *name);
/* Field of a row by column name, or NULL when there is no such column. */
const char *csv_table_get(const struct csv_table *table, size_t row,
			  const char *column);
void csv_table_free(struct csv_table *table);

#endif /* SMAPBENCH_CSV_H */
