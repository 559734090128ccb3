/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text_table.h - tables of text cells, printed aligned for a console or
 * as Markdown, and the number formats every table of the analysis uses.
 */
#ifndef SMAPBENCH_TEXT_TABLE_H
#define SMAPBENCH_TEXT_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct text_table {
	unsigned columns;
	char **cells;		/* row-major, header row first */
	size_t rows;		/* including the header */
	size_t cap;
	const char *align;	/* per column 'l' or 'r'; NULL: first l, rest r */
};

void text_table_init(struct text_table *t, unsigned columns, const char *align);
/* Append one row of columns cells (copied; NULL is empty). 0 or -1. */
int text_table_add(struct text_table *t, const char *const *cells);
/* Markdown: '|' in a cell escaped, a line break made a space. */
void text_table_print(FILE *f, const struct text_table *t, int markdown);
/*
 * A run's text in Markdown: every character Markdown or HTML gives a
 * meaning (\ ` * _ [ ] ( ) < > # | ! & ~) escaped with a backslash, so that
 * a stranger's context renders as the text it is, never as a link, image,
 * tag or another column; control characters (C0, DEL and C1) and line
 * breaks as a space.
 */
void md_text(FILE *f, const char *s);
void text_table_free(struct text_table *t);

/* "%.4g" style with sensible digits; "-" for NAN. */
const char *format_number(char *buf, size_t len, double v);
/* "[low, high]", or "-" when either is NAN. */
const char *format_interval(char *buf, size_t len, double low, double high);
/* A fraction as a signed percent, "+12.3%"; "%.3g" style when huge; "-" for NAN. */
const char *format_percent(char *buf, size_t len, double fraction);

#endif /* SMAPBENCH_TEXT_TABLE_H */
