/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_file.h - one file replaced atomically (report.md): written to
 * .NAME.XXXXXX beside it and renamed. An existing file is replaced only
 * when it starts with ours_prefix (what we write first), so a file of
 * the user's that happens to have the name is kept. A stop signal
 * removes the temporary file (atomic_cleanup.h).
 */
#ifndef SMAPBENCH_ATOMIC_FILE_H
#define SMAPBENCH_ATOMIC_FILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	char target[PATH_MAX];
	char tmp[PATH_MAX + 32];
	FILE *file;
};

FILE *atomic_file_begin(struct atomic_file *f, const char *target,
			const char *ours_prefix, char *err, size_t errlen);
/* Close, rename into place. 0 or -1 (the temporary file removed). */
int atomic_file_commit(struct atomic_file *f, char *err, size_t errlen);
/*
 * Like commit, but never replaces: fails (EEXIST) when the target has
 * appeared meanwhile. For outputs that are never overwritten.
 */
int atomic_file_commit_new(struct atomic_file *f, char *err, size_t errlen);
void atomic_file_abort(struct atomic_file *f);

#endif /* SMAPBENCH_ATOMIC_FILE_H */
