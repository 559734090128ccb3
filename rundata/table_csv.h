/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table_csv.h - table.csv of `smapbench table` (docs/schema.md, "The
 * table directory"): its one reader, with the columns the catalogue
 * requires (rundata/catalogue.c). Cells are read by column name.
 */
#ifndef SMAPBENCH_TABLE_CSV_H
#define SMAPBENCH_TABLE_CSV_H

#include <stddef.h>

struct csv_table;

/*
 * path into t: 0, or -1 with err ("PATH has no column C: not a table.csv
 * of smapbench table"). A file it loads has every required column, so
 * csv_table_get() gives a cell, never NULL, for each of them.
 */
int table_csv_load(const char *path, struct csv_table *t, char *err,
		   size_t errlen);

#endif /* SMAPBENCH_TABLE_CSV_H */
