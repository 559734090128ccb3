/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_path.h - the paths atomic writing works with: making and
 * removing trees, and the helpers atomic_dir.c, atomic_file.c and
 * atomic_cleanup.c share to name a temporary beside its target.
 */
#ifndef SMAPBENCH_ATOMIC_PATH_H
#define SMAPBENCH_ATOMIC_PATH_H

#include <stddef.h>
#include <sys/types.h>

/* mkdir -p with mode 0777 less the umask. 0 or -1 (errno). */
int atomic_dir_make_parents(const char *dir);
/*
 * rm -r that never follows a symbolic link, using only calls that are
 * safe in a signal handler. 0 or -1 (errno).
 */
int atomic_dir_remove_tree(const char *path);

/* snprintf into a path buffer: 0, or -1 (ENAMETOOLONG) when cut. */
int atomic_fit(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The mode a published file or directory gets: 0666 or 0777 less the umask. */
mode_t atomic_publish_mode(int is_dir);
/*
 * target without trailing slashes into out (PATH_MAX), its parent into
 * parent (PATH_MAX) and its last name at *base. 0, or -1 with err when
 * it names no directory of its own.
 */
int atomic_split_target(const char *target, char *out, char *parent,
			const char **base, char *err, size_t errlen);

#endif /* SMAPBENCH_ATOMIC_PATH_H */
