// SPDX-License-Identifier: GPL-2.0
/* csv.c - RFC 4180 writer and reader; see csv.h. */
#include "rundata/csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void csv_field(struct csv_writer *w, const char *text)
{
	if (!text)
		text = "";
	separator(w);
	if (!strpbrk(text, ",\"\r\n")) {
		check(w, fputs(text, w->file) == EOF ? -1 : 0);
		return;
	}
	check(w, fputc('"', w->file) == EOF ? -1 : 0);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			check(w, fputc('"', w->file) == EOF ? -1 : 0);
		check(w, fputc(*p, w->file) == EOF ? -1 : 0);
	}
	check(w, fputc('"', w->file) == EOF ? -1 : 0);
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
 * Fields are built in buffers kept from one record to the next: reading
 * a large samples.csv allocates almost nothing after its first rows.
 */
static int field_open(struct csv_row *row, size_t *len)
{
	if (row->count == row->capacity) {
		unsigned cap = row->capacity ? row->capacity * 2 : 16;
		char **f = realloc(row->fields, cap * sizeof(*f));
		size_t *s;

		if (!f)
			return -1;
		row->fields = f;
		s = realloc(row->sizes, cap * sizeof(*s));
		if (!s)
			return -1;
		row->sizes = s;
		row->capacity = cap;
	}
	if (row->count == row->allocated) {
		row->fields[row->count] = malloc(32);
		if (!row->fields[row->count])
			return -1;
		row->sizes[row->count] = 32;
		row->allocated++;
	}
	row->fields[row->count][0] = '\0';
	*len = 0;
	return 0;
}

static int field_put(struct csv_row *row, size_t *len, char c)
{
	unsigned i = row->count;

	if (*len + 1 >= row->sizes[i]) {
		size_t size = row->sizes[i] * 2;
		char *t = realloc(row->fields[i], size);

		if (!t)
			return -1;
		row->fields[i] = t;
		row->sizes[i] = size;
	}
	row->fields[i][(*len)++] = c;
	return 0;
}

static void field_close(struct csv_row *row, size_t len)
{
	row->fields[row->count++][len] = '\0';
}

static int read_row(FILE *file, struct csv_row *row, unsigned long *line)
{
	int c, quoted = 0, in_quotes = 0, any = 0;
	size_t len;

	row->count = 0;
	(*line)++;
	if (field_open(row, &len))
		return -1;
	for (;;) {
		c = getc_unlocked(file);
		if (c == EOF) {
			if (in_quotes)
				return -1;
			if (!any)
				return 0;
			field_close(row, len);
			return 1;
		}
		if (!c)
			return -1;	/* a NUL byte: not text */
		any = 1;
		if (in_quotes) {
			if (c == '"') {
				int next = getc_unlocked(file);

				if (next == '"') {
					if (field_put(row, &len, '"'))
						return -1;
					continue;
				}
				in_quotes = 0;
				if (next != EOF)
					ungetc(next, file);
				continue;
			}
			if (c == '\n')
				(*line)++;
			if (field_put(row, &len, (char)c))
				return -1;
			continue;
		}
		if (c == '"') {
			/* A quote may only open a field. */
			if (quoted || len)
				return -1;
			quoted = in_quotes = 1;
			continue;
		}
		if (c == ',') {
			field_close(row, len);
			if (field_open(row, &len))
				return -1;
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
		if (c == '\n') {
			field_close(row, len);
			return 1;
		}
		if (quoted)
			return -1;	/* text after a closing quote */
		if (field_put(row, &len, (char)c))
			return -1;
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
	for (unsigned i = 0; i < row->allocated; i++)
		free(row->fields[i]);
	free(row->fields);
	free(row->sizes);
	memset(row, 0, sizeof(*row));
}

int csv_table_load(const char *path, struct csv_table *table,
		   char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	unsigned long line = 0, start;
	size_t cap = 0;
	int rc;

	memset(table, 0, sizeof(*table));
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	rc = csv_read_row(f, &table->header, &line);
	if (rc <= 0) {
		snprintf(err, errlen, "%s: %s", path,
			 rc ? "malformed header row" : "empty file, no header");
		goto fail;
	}
	for (;;) {
		struct csv_row row = { 0 };

		start = line + 1;
		rc = csv_read_row(f, &row, &line);
		if (rc == 0) {
			csv_row_free(&row);
			break;
		}
		if (rc < 0 || row.count != table->header.count) {
			snprintf(err, errlen,
				 rc < 0 ? "%s:%lu: malformed record"
					: "%s:%lu: wrong number of fields",
				 path, start);
			csv_row_free(&row);
			goto fail;
		}
		if (table->count == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct csv_row *r = realloc(table->rows,
						    ncap * sizeof(*r));

			if (!r) {
				csv_row_free(&row);
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			table->rows = r;
			cap = ncap;
		}
		row.line = start;
		table->rows[table->count++] = row;
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	csv_table_free(table);
	return -1;
}

int csv_table_column(const struct csv_table *table, const char *name)
{
	for (unsigned i = 0; i < table->header.count; i++)
		if (!strcmp(table->header.fields[i], name))
			return (int)i;
	return -1;
}

const char *csv_table_get(const struct csv_table *table, size_t row,
			  const char *column)
{
	int c = csv_table_column(table, column);

	if (c < 0 || row >= table->count)
		return NULL;
	return table->rows[row].fields[c];
}

void csv_table_free(struct csv_table *table)
{
	csv_row_free(&table->header);
	for (size_t i = 0; i < table->count; i++)
		csv_row_free(&table->rows[i]);
	free(table->rows);
	memset(table, 0, sizeof(*table));
}
