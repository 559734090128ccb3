/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_dir.h - how every smapbench writer puts a directory or a file in
 * place: built under a temporary name beside the target, renamed into
 * place only when complete, and never at the cost of something the user
 * made.
 *
 * A directory we write carries a marker file, ATOMIC_DIR_MARKER, whose
 * one line names the tool and the kind of output ("smapbench compare").
 * An existing target may be replaced only when it is an empty directory
 * or a directory that holds nothing but what that kind writes (a file
 * of the user's put into our output is the user's), and that is marked
 * with that kind, or unmarked (outputs written before markers existed).
 * Anything else is refused with a message naming what is in the way:
 * a file, a symbolic link, a marked output of another kind (a run
 * directory is an input), a directory with the user's files.
 *
 * Interruption is atomic_cleanup.h's, one file atomic_file.h's, making
 * and removing trees atomic_path.h's: every writer includes this header
 * for all of them.
 */
#ifndef SMAPBENCH_ATOMIC_DIR_H
#define SMAPBENCH_ATOMIC_DIR_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "rundata/atomic_cleanup.h"
#include "rundata/atomic_file.h"
#include "rundata/atomic_path.h"

#define ATOMIC_DIR_MARKER ".smapbench"

/* A kind of output directory, and what it holds. */
struct atomic_dir_kind {
	const char *name;		/* "compare", "plots", "run" */
	/*
	 * Files named in files or ending in one of suffixes, a
	 * subdirectory of the kind subdir (under that kind's name) and the
	 * marker: all a directory of this kind may hold to be replaced.
	 * Anything else in it is the user's. All NULL: never replaced.
	 */
	const char *const *files;
	const char *const *suffixes;
	const struct atomic_dir_kind *subdir;
};

extern const struct atomic_dir_kind atomic_dir_compare;
extern const struct atomic_dir_kind atomic_dir_plots;
extern const struct atomic_dir_kind atomic_dir_run;

struct atomic_dir {
	const struct atomic_dir_kind *kind;
	char target[PATH_MAX];	/* final path, trailing slashes removed */
	char tmp[PATH_MAX + 32];	/* being built; "" once committed or aborted */
};

/*
 * May target be written as kind? 0 (absent, empty or ours), or -1 with
 * a message saying what is in the way.
 */
int atomic_dir_check(const char *target, const struct atomic_dir_kind *kind,
		     char *err, size_t errlen);

/*
 * Check target, create its missing parents and the temporary directory
 * beside it (.NAME.tmp-XXXXXX, mode as mkdir would give). 0 or -1.
 */
int atomic_dir_begin(struct atomic_dir *d, const char *target,
		     const struct atomic_dir_kind *kind, char *err,
		     size_t errlen);
/*
 * For a directory whose name is chosen at the end (atomic_dir_commit_new):
 * create parent if missing and parent/.tmp-XXXXXX in it. 0 or -1.
 */
int atomic_dir_begin_in(struct atomic_dir *d, const char *parent,
			const struct atomic_dir_kind *kind, char *err,
			size_t errlen);
/*
 * Write the marker, then put the temporary directory in target's place
 * (checking target again): exchanged atomically where the file system
 * can, the old one removed after. 0 or -1 (the temporary one removed).
 */
int atomic_dir_commit(struct atomic_dir *d, char *err, size_t errlen);
/*
 * Like commit, but never replaces: renames to parent/name, or
 * parent/name-2, -3, ... when taken. The final path goes to d->target.
 */
int atomic_dir_commit_new(struct atomic_dir *d, const char *parent,
			  const char *name, char *err, size_t errlen);
/* Remove the temporary directory and everything in it. */
void atomic_dir_abort(struct atomic_dir *d);
/* Open the file name inside the directory being built, for writing. */
FILE *atomic_dir_open(const struct atomic_dir *d, const char *name, char *err,
		      size_t errlen);
/* Close a file of atomic_dir_open, reporting a write error. */
int atomic_dir_close(FILE *f, const char *name, char *err, size_t errlen);
/*
 * What writes one file of a directory: all of it to f, from arg. 0, or
 * nonzero when it failed.
 */
typedef int atomic_dir_writer(FILE *f, const void *arg);
/*
 * The file name of the directory being built, opened, written by writer
 * and closed: 0, or -1 with the reason in err.
 */
int atomic_dir_write(const struct atomic_dir *d, const char *name,
		     atomic_dir_writer *writer, const void *arg, char *err,
		     size_t errlen);
/* Copy the file at from into the directory being built, as name. */
int atomic_dir_copy_in(const struct atomic_dir *d, const char *from,
		       const char *name, char *err, size_t errlen);

/* The kind named by dir's marker ("run", "compare", ...) into kind; "" when unmarked. */
void atomic_dir_marker(const char *dir, char *kind, size_t len);

#endif /* SMAPBENCH_ATOMIC_DIR_H */
