// SPDX-License-Identifier: GPL-2.0
/* csv.c - RFC 4180 writer and reader; see csv.h. */
#include "rundata/csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void csv_writer_init(struct csv_writer *w, FILE *file)
{
	w->file = file;
	w->fields = 0;
	w->error = 0;
}

static void check(struct csv_writer *w, int rc)
{
	if (rc < 0 && !w->error)
		w->error = errno ? errno : EIO;
}

static void separator(struct csv_writer *w)
{
	if (w->fields++)
		check(w, fputc(',', w->file) == EOF ? -1 : 0);
}

/* A text field with prefix (which needs no quoting) before it. */
static void put_text(struct csv_writer *w, const char *prefix,
		     const char *text)
{
	if (!text)
		text = "";
	separator(w);
	if (!strpbrk(text, ",\"\r\n")) {
		check(w, fputs(prefix, w->file) == EOF ? -1 : 0);
		check(w, fputs(text, w->file) == EOF ? -1 : 0);
		return;
	}
	check(w, fputc('"', w->file) == EOF ? -1 : 0);
	check(w, fputs(prefix, w->file) == EOF ? -1 : 0);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			check(w, fputc('"', w->file) == EOF ? -1 : 0);
		check(w, fputc(*p, w->file) == EOF ? -1 : 0);
	}
	check(w, fputc('"', w->file) == EOF ? -1 : 0);
}

void csv_field(struct csv_writer *w, const char *text)
{
	put_text(w, "", text);
}

void csv_field_text(struct csv_writer *w, const char *text)
{
	/* a first character a spreadsheet reads as the start of a formula */
	int formula = text && text[0] && strchr("=+-@\t\r", text[0]);

	put_text(w, formula ? "'" : "", text);
}

void csv_field_int(struct csv_writer *w, long long value)
{
	separator(w);
	check(w, fprintf(w->file, "%lld", value));
}

void csv_field_uint(struct csv_writer *w, unsigned long long value)
{
	separator(w);
	check(w, fprintf(w->file, "%llu", value));
}

void csv_field_double(struct csv_writer *w, double value)
{
	separator(w);
	if (isfinite(value))
		check(w, fprintf(w->file, "%.6g", value));
}

void csv_end_row(struct csv_writer *w)
{
	check(w, fputc('\n', w->file) == EOF ? -1 : 0);
	w->fields = 0;
}

void csv_row(struct csv_writer *w, const char *const *fields, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		csv_field(w, fields[i]);
	csv_end_row(w);
}

int csv_writer_error(const struct csv_writer *w)
{
	if (w->error)
		return w->error;
	return ferror(w->file) ? EIO : 0;
}

/*
 * A record is built in one buffer kept from one record to the next, its
 * fields ended by NULs: reading a large samples.csv allocates almost
 * nothing after its first rows, and no record, however many fields it
 * has, costs more than CSV_ROW_MAX_BYTES and 16 bytes per field.
 */
static int text_put(struct csv_row *row, size_t *len, char c)
{
	if (*len == row->size) {
		size_t size = row->size ? 2 * row->size : 256;
		char *t;

		if (*len >= CSV_ROW_MAX_BYTES)
			return -2;
		if (size > CSV_ROW_MAX_BYTES)
			size = CSV_ROW_MAX_BYTES;
		t = realloc(row->text, size);
		if (!t)
			return -1;
		row->text = t;
		row->size = size;
	}
	row->text[(*len)++] = c;
	return 0;
}

/* A field starts at offset len of the record's text. */
static int field_open(struct csv_row *row, size_t len)
{
	if (len >= CSV_ROW_MAX_BYTES)	/* no room left for its NUL */
		return -2;
	if (row->count == row->capacity) {
		unsigned cap = row->capacity ? row->capacity * 2 : 16;
		char **f = realloc(row->fields, cap * sizeof(*f));
		size_t *s;

		if (!f)
			return -1;
		row->fields = f;
		s = realloc(row->starts, cap * sizeof(*s));
		if (!s)
			return -1;
		row->starts = s;
		row->capacity = cap;
	}
	row->starts[row->count] = len;
	return 0;
}

static int field_close(struct csv_row *row, size_t *len)
{
	int rc = text_put(row, len, '\0');

	if (!rc)
		row->count++;
	return rc;
}

/* The last field closed: the fields point into the text, now settled. */
static int record_done(struct csv_row *row, size_t *len)
{
	int rc = field_close(row, len);

	if (rc)
		return rc;
	for (unsigned i = 0; i < row->count; i++)
		row->fields[i] = row->text + row->starts[i];
	return 1;
}

static int read_row(FILE *file, struct csv_row *row, unsigned long *line)
{
	int c, quoted = 0, in_quotes = 0, any = 0, rc;
	size_t len = 0;

	row->count = 0;
	(*line)++;
	if ((rc = field_open(row, len)))
		return rc;
	for (;;) {
		c = getc_unlocked(file);
		if (c == EOF) {
			if (in_quotes)
				return -1;
			if (!any)
				return 0;
			return record_done(row, &len);
		}
		if (!c)
			return -1;	/* a NUL byte: not text */
		any = 1;
		if (in_quotes) {
			if (c == '"') {
				int next = getc_unlocked(file);

				if (next == '"') {
					if ((rc = text_put(row, &len, '"')))
						return rc;
					continue;
				}
				in_quotes = 0;
				if (next != EOF)
					ungetc(next, file);
				continue;
			}
			if (c == '\n')
				(*line)++;
			if ((rc = text_put(row, &len, (char)c)))
				return rc;
			continue;
		}
		if (c == '"') {
			/* A quote may only open a field. */
			if (quoted || len > row->starts[row->count])
				return -1;
			quoted = in_quotes = 1;
			continue;
		}
		if (c == ',') {
			if ((rc = field_close(row, &len)) ||
			    (rc = field_open(row, len)))
				return rc;
			quoted = 0;
			continue;
		}
		if (c == '\r') {
			int next = getc_unlocked(file);

			if (next != '\n') {
				if (next != EOF)
					ungetc(next, file);
				return -1;
			}
			c = '\n';
		}
		if (c == '\n')
			return record_done(row, &len);
		if (quoted)
			return -1;	/* text after a closing quote */
		if ((rc = text_put(row, &len, (char)c)))
			return rc;
	}
}

int csv_read_row(FILE *file, struct csv_row *row, unsigned long *line)
{
	static __thread unsigned long lines;
	int rc;

	flockfile(file);
	rc = read_row(file, row, line ? line : &lines);
	funlockfile(file);
	return rc;
}

void csv_row_free(struct csv_row *row)
{
	free(row->fields);
	free(row->starts);
	free(row->text);
	memset(row, 0, sizeof(*row));
}

/*
 * One record of text[*at .. len), unquoted in place: its fields are
 * written from *out on, each ended by a NUL (never past what was read,
 * but for the last NUL of a file without a final newline: text holds
 * len + 1 bytes). Returns the number of fields, 0 at the end of the text,
 * -1 for a malformed record (a stray quote, a NUL byte, a lone CR), -2
 * for an empty line.
 */
static long table_record(char *text, size_t len, size_t *at, size_t *out,
			 size_t *quoted_newlines)
{
	size_t i = *at, w = *out, field = w;
	long fields = 1;
	int quoted = 0, in_quotes = 0;

	if (i == len)
		return 0;
	for (;;) {
		char c;

		if (i == len) {
			if (in_quotes)
				return -1;
			break;
		}
		c = text[i++];
		if (!c)
			return -1;	/* a NUL byte: not text */
		if (in_quotes) {
			if (c != '"') {
				*quoted_newlines += c == '\n';
				text[w++] = c;
			} else if (i < len && text[i] == '"') {
				text[w++] = '"';
				i++;
			} else {
				in_quotes = 0;
			}
			continue;
		}
		if (c == '"') {
			/* A quote may only open a field. */
			if (quoted || w > field)
				return -1;
			quoted = in_quotes = 1;
			continue;
		}
		if (c == ',') {
			text[w++] = '\0';
			field = w;
			fields++;
			quoted = 0;
			continue;
		}
		if (c == '\r') {
			if (i == len || text[i] != '\n')
				return -1;
			i++;
			c = '\n';
		}
		if (c == '\n')
			break;
		if (quoted)
			return -1;	/* text after a closing quote */
		text[w++] = c;
	}
	if (fields == 1 && w == *out && !quoted)
		return -2;
	text[w++] = '\0';
	*at = i;
	*out = w;
	return fields;
}

/* The whole of a regular file into a buffer of its size + 1. */
static char *table_read(FILE *f, const char *path, size_t *len,
			char *err, size_t errlen)
{
	struct stat st;
	char *text;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return NULL;
	}
	if ((unsigned long long)st.st_size > CSV_TABLE_MAX_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes, more than a table may hold (%u)",
			 path, (long long)st.st_size, CSV_TABLE_MAX_BYTES);
		return NULL;
	}
	*len = (size_t)st.st_size;
	text = malloc(*len + 1);
	if (!text) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	if (fread(text, 1, *len, f) != *len || getc(f) != EOF) {
		snprintf(err, errlen, "%s: %s", path, ferror(f) ?
			 strerror(errno) : "changed while it was read");
		free(text);
		return NULL;
	}
	return text;
}

struct csv_line_cursor {
	size_t row;		/* the record it is at */
	size_t at;		/* its offset in text */
	unsigned long line;	/* the line it starts on */
};

/*
 * The line of record row, at offset to: the cursor moves there, counting
 * the line ends inside fields on the way.
 */
static unsigned long table_line_of(const struct csv_table *t, size_t to,
				   size_t row)
{
	struct csv_line_cursor *c = t->cursor;

	if (!t->quoted_newlines)
		return 2 + row;
	if (row < c->row) {
		c->row = 0;
		c->at = 0;
		c->line = 2;	/* record 0, when the header holds none */
	}
	for (size_t i = c->at; i < to; i++)
		c->line += t->text[i] == '\n';
	c->line += row - c->row;
	c->row = row;
	c->at = to;
	return c->line;
}

int csv_table_load(const char *path, struct csv_table *table,
		   char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	size_t len = 0, at = 0, out = 0, max_records, start;
	long fields;

	memset(table, 0, sizeof(*table));
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	table->text = table_read(f, path, &len, err, errlen);
	fclose(f);
	if (!table->text)
		return -1;
	table->cursor = calloc(1, sizeof(*table->cursor));
	if (!table->cursor) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	table->cursor->line = 2;
	fields = table_record(table->text, len, &at, &out,
			      &table->quoted_newlines);
	if (fields <= 0) {
		snprintf(err, errlen, "%s: %s", path,
			 fields ? "malformed header row" : "empty file, no header");
		goto fail;
	}
	table->columns = (unsigned)fields;
	/* Every record takes 2 bytes at least: a field and its end. */
	max_records = (len - at) / 2 + 1;
	table->record_at = malloc(max_records * sizeof(*table->record_at));
	if (!table->record_at) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	for (;;) {
		start = out;
		fields = table_record(table->text, len, &at, &out,
			      &table->quoted_newlines);
		if (fields == 0)
			break;
		if (fields != (long)table->columns) {
			snprintf(err, errlen, "%s:%lu: %s", path,
				 table_line_of(table, start, table->count),
				 fields == -2 ? "empty line" : fields < 0 ?
				 "malformed record" : "wrong number of fields");
			goto fail;
		}
		if (table->count == max_records) {	/* cannot be: 2 bytes each */
			snprintf(err, errlen, "%s: more records than bytes", path);
			goto fail;
		}
		table->record_at[table->count++] = (uint32_t)start;
	}
	return 0;
fail:
	csv_table_free(table);
	return -1;
}

const char *csv_table_name(const struct csv_table *table, unsigned col)
{
	const char *p = table->text;

	if (col >= table->columns)
		return NULL;
	while (col--)
		p += strlen(p) + 1;
	return p;
}

int csv_table_column(const struct csv_table *table, const char *name)
{
	const char *p = table->text;

	for (unsigned i = 0; i < table->columns; i++, p += strlen(p) + 1)
		if (!strcmp(p, name))
			return (int)i;
	return -1;
}

const char *csv_table_cell(const struct csv_table *table, size_t row,
			   unsigned col)
{
	const char *p;

	if (row >= table->count || col >= table->columns)
		return NULL;
	p = table->text + table->record_at[row];
	while (col--)
		p += strlen(p) + 1;
	return p;
}

const char *csv_table_get(const struct csv_table *table, size_t row,
			  const char *column)
{
	int c = csv_table_column(table, column);

	return c < 0 ? NULL : csv_table_cell(table, row, (unsigned)c);
}

double csv_number(const char *cell)
{
	char *end;
	double v;

	if (!cell || !*cell)
		return NAN;
	v = strtod(cell, &end);
	/* ERANGE is no refusal: 1e999 reads as "inf" does, 1e-400 as 0 */
	return end == cell || *end ? NAN : v;
}

unsigned long csv_table_line(const struct csv_table *table, size_t row)
{
	return row < table->count ?
	       table_line_of(table, table->record_at[row], row) : 0;
}

void csv_table_free(struct csv_table *table)
{
	free(table->text);
	free(table->record_at);
	free(table->cursor);
	memset(table, 0, sizeof(*table));
}
