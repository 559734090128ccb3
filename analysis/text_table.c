// SPDX-License-Identifier: GPL-2.0
/* text_table.c - aligned and Markdown tables, number formats; see text_table.h. */
#include "analysis/text_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void text_table_init(struct text_table *t, unsigned columns, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->columns = columns;
	t->align = align;
}

int text_table_add(struct text_table *t, const char *const *cells)
{
	if (t->rows == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		char **nc = realloc(t->cells, ncap * t->columns * sizeof(*nc));

		if (!nc)
			return -1;
		t->cells = nc;
		t->cap = ncap;
	}
	for (unsigned c = 0; c < t->columns; c++) {
		t->cells[t->rows * t->columns + c] = strdup(cells[c] ? cells[c] : "");
		if (!t->cells[t->rows * t->columns + c])
			return -1;
	}
	t->rows++;
	return 0;
}

static char column_align(const struct text_table *t, unsigned c)
{
	if (t->align && c < strlen(t->align))
		return t->align[c];
	return c == 0 ? 'l' : 'r';
}

/* What Markdown or HTML gives a meaning, escaped by md_text(). */
static const char md_special[] = "\\`*_[]()<>#|!&~";

void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		/* a C1 control as UTF-8 writes it: 0xc2 0x80 to 0xc2 0x9f */
		int c1 = c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
			 (unsigned char)s[1] <= 0x9f;

		if (c < 0x20 || c == 0x7f || c1) {
			fputc(' ', f);
			s += c1;
		} else if (strchr(md_special, c))
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t text_width(const char *s, int markdown)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w += 1 + (markdown && (unsigned char)*s >= 0x20 &&
				  strchr(md_special, *s));
	return w;
}

/* A Markdown cell: as md_text(), or a row breaks. */
static void put_cell(FILE *f, const char *cell, int markdown)
{
	if (markdown)
		md_text(f, cell);
	else
		fputs(cell, f);
}

void text_table_print(FILE *f, const struct text_table *t, int markdown)
{
	size_t *width = calloc(t->columns, sizeof(*width));

	if (!width || !t->rows) {
		free(width);
		return;
	}
	for (size_t r = 0; r < t->rows; r++)
		for (unsigned c = 0; c < t->columns; c++) {
			size_t w = text_width(t->cells[r * t->columns + c], markdown);

			if (w > width[c])
				width[c] = w;
		}
	for (size_t r = 0; r < t->rows; r++) {
		for (unsigned c = 0; c < t->columns; c++) {
			const char *cell = t->cells[r * t->columns + c];
			int pad = (int)(width[c] - text_width(cell, markdown));
			int right = column_align(t, c) == 'r';

			if (markdown)
				fputs("| ", f);
			else if (c)
				fputs("  ", f);
			if (right)
				fprintf(f, "%*s", pad, "");
			put_cell(f, cell, markdown);
			if (!right && (markdown || c + 1 < t->columns))
				fprintf(f, "%*s", pad, "");
			if (markdown)
				fputc(' ', f);
		}
		fputs(markdown ? "|\n" : "\n", f);
		if (r == 0 && markdown) {
			for (unsigned c = 0; c < t->columns; c++) {
				fputs("| ", f);
				for (size_t i = 1; i < width[c]; i++)
					fputc('-', f);
				fputs(column_align(t, c) == 'r' ? ": " : "- ", f);
			}
			fputs("|\n", f);
		}
	}
	free(width);
}

void text_table_free(struct text_table *t)
{
	for (size_t i = 0; i < t->rows * t->columns; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

const char *format_number(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, v > 0 ? "inf" : "-inf");
	else if (a >= 1e6 || (a > 0 && a < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3f", v);
	return buf;
}

const char *format_interval(char *buf, size_t len, double low, double high)
{
	char lo[32], hi[32];

	if (isnan(low) || isnan(high))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%s, %s]", format_number(lo, sizeof(lo), low),
			 format_number(hi, sizeof(hi), high));
	return buf;
}

const char *format_percent(char *buf, size_t len, double fraction)
{
	double pct = 100 * fraction;

	if (isnan(pct))
		snprintf(buf, len, "-");
	else if (fabs(pct) >= 1e5)	/* a near-zero A: no 300-digit number */
		snprintf(buf, len, "%+.3g%%", pct);
	else
		snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}
