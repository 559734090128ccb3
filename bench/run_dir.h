/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_dir.h - writing a run directory atomically: everything goes into
 * DIR/.tmp-XXXXXX, which is renamed to its final name only when
 * complete; on failure or interruption the temporary directory is
 * removed, so a reader never sees half a run.
 */
#ifndef SMAPBENCH_RUN_DIR_H
#define SMAPBENCH_RUN_DIR_H

#include <stddef.h>
#include <stdio.h>

struct run_dir_writer {
	char parent[4096];
	char tmp[4200];
	char final[4200];
};

/* Create parent (and missing ancestors) and the temporary directory. */
int run_dir_create(struct run_dir_writer *d, const char *parent, char *err,
		   size_t errlen);
/* Open a file inside the temporary directory for writing. */
FILE *run_dir_open(struct run_dir_writer *d, const char *name, char *err,
		   size_t errlen);
/* Close a file opened with run_dir_open, reporting write errors. */
int run_dir_close(FILE *f, const char *name, char *err, size_t errlen);
/* Rename to parent/name (adding -2, -3, ... if taken). */
int run_dir_commit(struct run_dir_writer *d, const char *name, char *err,
		   size_t errlen);
/* Remove the temporary directory and everything in it. */
void run_dir_abort(struct run_dir_writer *d);
/* rm -r of a path; 0 or -1. */
int run_dir_remove_tree(const char *path);
/*
 * Give a file or directory made by mkstemp()/mkdtemp() (0600/0700) the
 * mode an ordinary create would have had (0666/0777 less the umask):
 * results are published, not secrets.
 */
void run_dir_publish_mode(const char *path, int is_dir);
/* "<host>-<YYYYmmdd-HHMMSS>-<state>" with unsafe characters replaced. */
void run_dir_name(char *buf, size_t len, const char *host,
		  const char *state);

#endif /* SMAPBENCH_RUN_DIR_H */
