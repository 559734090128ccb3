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
/*
 * Text from outside input (a contributed run's context, names, paths):
 * one starting with =, +, -, @, tab or CR gets a single quote before it,
 * so that a spreadsheet shows it as text rather than running it as a
 * formula (OWASP, CSV injection). Not for numbers: -1 would become '-1.
 */
void csv_field_text(struct csv_writer *w, const char *text);
void csv_field_int(struct csv_writer *w, long long value);
void csv_field_uint(struct csv_writer *w, unsigned long long value);
/* "%.6g"; NaN and infinities are written as empty fields. */
void csv_field_double(struct csv_writer *w, double value);
void csv_end_row(struct csv_writer *w);
/* Write a whole row of text fields. */
void csv_row(struct csv_writer *w, const char *const *fields, unsigned n);
int csv_writer_error(const struct csv_writer *w);

struct csv_row {
	char **fields;		/* count of them, into text */
	unsigned count;
	unsigned capacity;	/* slots in fields and starts */
	size_t *starts;		/* offset in text of each field */
	char *text;		/* the record's fields, each ended by a NUL */
	size_t size;		/* bytes allocated for text */
};

/*
 * The longest record csv_read_row() takes, counting a NUL per field: a
 * real one (a sample, a context line, a MANIFEST line) is far shorter,
 * and a row then holds at most this and 16 bytes per field, whatever
 * the file (one line of commas once cost 64 bytes per byte).
 */
#define CSV_ROW_MAX_BYTES	(1u << 20)
#define CSV_ROW_MAX_TEXT	"1 MiB"

/*
 * Read the next record into row (its memory reused across calls; the
 * fields of a record are valid until the next call). Returns 1 for a
 * record, 0 at end of file, -1 on a malformed record (stray quote) or no
 * memory, -2 for a record longer than CSV_ROW_MAX_BYTES (the rest of the
 * file left unread); *line (if not NULL) is the 1-based line the record
 * started on.
 */
int csv_read_row(FILE *file, struct csv_row *row, unsigned long *line);
void csv_row_free(struct csv_row *row);

/*
 * A whole file in one buffer: the file's bytes, each field unquoted in
 * place and ended by a NUL where its separator was, the header first.
 * Besides the text, a table keeps 4 bytes per record, so it holds at
 * most 3 bytes per byte of input (a record takes at least 2), whatever
 * the input: what a contributed run can make it allocate is bounded.
 */
struct csv_table {
	char *text;		/* the header's fields, then every record's */
	uint32_t *record_at;	/* offset in text of each record's first field */
	size_t count;		/* records, the header not counted */
	unsigned columns;	/* fields in the header and in every record */
	size_t quoted_newlines;	/* line ends inside fields, kept in text */
	struct csv_line_cursor *cursor;	/* where csv_table_line() last was */
};

/* Largest file csv_table_load() takes: offsets are 32-bit. */
#define CSV_TABLE_MAX_BYTES	(UINT32_MAX / 2)

/*
 * Load a regular file with a header row. Every record must have as many
 * fields as the header; an empty line is refused. Returns 0, or -1 with
 * "FILE:LINE: what" (or "cannot open FILE: why") in err.
 */
int csv_table_load(const char *path, struct csv_table *table,
		   char *err, size_t errlen);
/* Name of column col, or NULL past the last. */
const char *csv_table_name(const struct csv_table *table, unsigned col);
/* Index of the named column, or -1. */
int csv_table_column(const struct csv_table *table, const char *name);
/* Field col of a record, or NULL when out of range. */
const char *csv_table_cell(const struct csv_table *table, size_t row,
			   unsigned col);
/* Field of a row by column name, or NULL when there is no such column. */
const char *csv_table_get(const struct csv_table *table, size_t row,
			  const char *column);
/*
 * The 1-based line a record starts on, for messages: at once when no
 * field holds a line end, else counted on from the last record asked
 * for, so asking for every record in order costs one pass.
 */
unsigned long csv_table_line(const struct csv_table *table, size_t row);
void csv_table_free(struct csv_table *table);

/*
 * A cell (or NULL) as a number, the one way every reader of the
 * project's CSV files takes it: what strtod() reads when it reads the
 * whole cell, out-of-range values rounded as strtod() rounds them (to
 * infinity or to 0); NAN for NULL, an empty cell or anything else.
 */
double csv_number(const char *cell);

#endif /* SMAPBENCH_CSV_H */
