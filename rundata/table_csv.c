// SPDX-License-Identifier: GPL-2.0
/* table_csv.c - the one reader of table.csv; see table_csv.h. */
#include "rundata/table_csv.h"

#include <stdio.h>

#include "rundata/catalogue.h"
#include "rundata/csv.h"

int table_csv_load(const char *path, struct csv_table *t, char *err,
		   size_t errlen)
{
	if (csv_table_load(path, t, err, errlen))
		return -1;
	for (size_t i = 0; i < file_table.count; i++)
		if ((file_table.columns[i].roles & COLUMN_REQUIRED) &&
		    csv_table_column(t, file_table.columns[i].name) < 0) {
			snprintf(err, errlen, "%s has no column %s: it is not a "
				 "table.csv of smapbench table (docs/schema.md)",
				 path, file_table.columns[i].name);
			csv_table_free(t);
			return -1;
		}
	return 0;
}
