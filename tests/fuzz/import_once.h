/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import_once.h - what the import targets do with an archive: a whole
 * run_import() of it into a data directory emptied after each input. A
 * crash, a leak, or anything left in the data directory after a refusal
 * is a finding.
 */
#ifndef SMAPBENCH_FUZZ_IMPORT_ONCE_H
#define SMAPBENCH_FUZZ_IMPORT_ONCE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/import.h"
#include "remove_tree.h"

static char work[64], archive[96], datadir[96];

static void remove_work(void)
{
	remove_tree(work);
}

static void import_once(const uint8_t *data, size_t size)
{
	char final[4096], err[512];
	FILE *f;
	int rc;

	if (!work[0]) {
		snprintf(work, sizeof(work), "/tmp/smapbench-fuzz-import-XXXXXX");
		if (!mkdtemp(work))
			abort();
		atexit(remove_work);
		snprintf(archive, sizeof(archive), "%s/in.tar", work);
		snprintf(datadir, sizeof(datadir), "%s/data", work);
	}
	f = fopen(archive, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	rc = run_import(archive, datadir, final, sizeof(final), err, sizeof(err));
	/* A refused archive leaves no data directory behind. */
	if (rc != 0 && access(datadir, F_OK) == 0)
		abort();
	remove_tree(datadir);
}

#endif /* SMAPBENCH_FUZZ_IMPORT_ONCE_H */
