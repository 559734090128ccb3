/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_archive.h - a run directory as one file (`smapbench pack`), and
 * what `smapbench import` checks before taking one from someone else.
 *
 * The archive is POSIX ustar (tar.h): NAME/MANIFEST first, then every
 * file of the run under NAME/. The MANIFEST is CSV without a header row
 * (docs/schema.md, "Packed runs"):
 *
 *   format,smapbench-pack
 *   format_version,1
 *   schema_version,1
 *   run,NAME
 *   smapbench_version,VERSION
 *   git_revision,REVISION
 *   file,PATH,SIZE,SHA256          (one per file, PATH relative to NAME/)
 */
#ifndef SMAPBENCH_RUN_ARCHIVE_H
#define SMAPBENCH_RUN_ARCHIVE_H

#include <stddef.h>

#include "measure/sha256.h"
#include "archive/tar.h"
#include "rundata/rundir.h"

#define RUN_ARCHIVE_FORMAT		"smapbench-pack"
#define RUN_ARCHIVE_FORMAT_VERSION	1
#define RUN_ARCHIVE_SUFFIX		".smapbench.tar"
#define RUN_ARCHIVE_MANIFEST		"MANIFEST"

/*
 * Limits on what import reads, checked against each header before any
 * data is read or stored. A default run is about 2 MB (samples.csv
 * 0.2-1 MB); a --full run with every kmod size, or one with many more
 * repetitions or samples, is tens of MB. 256 MiB for one file and 512
 * MiB in all leave room for runs a hundred times that, and bound what a
 * hostile archive can make us write or hold: rundir_load keeps a sample
 * in 12 bytes, and a row of samples.csv takes 4 bytes at the least, so
 * loading and checking 256 MiB of it holds at most 1 GiB (4 bytes per
 * byte, tests/unit/test_csv.c) and a fixed amount.
 */
#define RUN_ARCHIVE_MAX_FILE		(256ULL << 20)
#define RUN_ARCHIVE_MAX_TOTAL		(512ULL << 20)
#define RUN_ARCHIVE_MAX_FILES		1024
/* Read into memory: a real MANIFEST is ~100 bytes a file, context.csv ~5 kB. */
#define RUN_ARCHIVE_MAX_MANIFEST	(1ULL << 20)
#define RUN_ARCHIVE_MAX_CONTEXT		(1ULL << 20)
/* results.csv and skipped.csv: a --full run's are about 100 kB; their
 * table takes up to 3 bytes per byte of a crafted file of empty fields. */
#define RUN_ARCHIVE_MAX_RESULTS		(2ULL << 20)
/* A run name (the archive's top directory). */
#define RUN_ARCHIVE_MAX_NAME		200
/* Context keys and values of a run from elsewhere (run_check_context). */
#define RUN_CONTEXT_MAX_KEY		64
#define RUN_CONTEXT_MAX_VALUE		4096

struct run_manifest_file {
	char *path;		/* relative to the run */
	unsigned long long size;
	char sha256[SHA256_HEX_SIZE];
	int seen;		/* found in the archive */
};

struct run_manifest {
	char *format, *format_version, *schema_version, *run;
	char *smapbench_version, *git_revision;
	struct run_manifest_file *files;
	size_t count;
};

/*
 * A run's file of size bytes (path relative to the run) judged by the
 * limit import sets it (context.csv, results.csv and skipped.csv, read
 * whole into tables, have limits of their own; every other file
 * RUN_ARCHIVE_MAX_FILE), and with *total, the sizes of the files before
 * it, by RUN_ARCHIVE_MAX_TOTAL. import judges the MANIFEST's sizes so,
 * and pack a run's before it reads any file. 0 with size added to
 * *total, or -1 with "PATH is N bytes, above the limit ..." in err.
 */
int run_archive_check_size(const char *path, unsigned long long size,
			   unsigned long long *total, char *err, size_t errlen);

/*
 * NULL when path may name a file of a packed run, else why not: a
 * relative path of at most TAR_DEPTH_MAX - 1 components, none empty,
 * "." or "..", none starting with "." (hidden files are no part of a
 * run), printable ASCII without backslash, comma or quote.
 */
const char *run_archive_path_problem(const char *path);

/*
 * Parse a MANIFEST of len bytes: every line known, no key twice, each
 * file line well formed. Versions are not judged here. 0, or -1 with
 * err.
 */
int run_manifest_parse(const char *text, size_t len, struct run_manifest *m,
		       char *err, size_t errlen);
struct run_manifest_file *run_manifest_find(const struct run_manifest *m,
					    const char *path);
void run_manifest_free(struct run_manifest *m);

/*
 * results.csv recomputed from samples.csv: each benchmark of run (loaded
 * with rundir_load from a directory) must have samples, as many as
 * results.csv's samples column says, and its median (stats_median
 * over all of them, as the runner computes it) and min must agree with
 * results.csv to RUN_ARCHIVE_TOLERANCE of their size; samples.csv must
 * have no row of a benchmark results.csv lacks. results_csv is the file
 * run was loaded from. 0, or -1 with the first disagreement in err.
 */
/*
 * The context keys a run must have (the catalogue's required ones, each
 * present and not empty), its schema_version (absent: 1) one this
 * program reads, and its status (absent: complete) complete or
 * interrupted. 0, or -1 with err.
 */
int run_check_context(const struct run_dir *run, char *err, size_t errlen);
/*
 * For pack and import to say: NULL for a complete run in dir, else what
 * an interrupted one is to its readers. The status itself travels in
 * the run's context.csv, packed and extracted as it is.
 */
const char *run_status_note(const char *dir);
/* Whether a schema_version is one this smapbench reads (1 to the current). */
int run_schema_known(const char *version);

/*
 * DIR/results.json, when the run has one, is JSON (RFC 8259, as
 * smapbench writes it): compare and report read it, and an archive
 * brings it unread otherwise. 0, or -1 with "results.json:LINE:COLUMN:
 * invalid JSON: what" in err.
 */
int run_check_json(const char *dir, char *err, size_t errlen);

#define RUN_ARCHIVE_TOLERANCE	1e-5
int run_check_results(const struct run_dir *run, const char *results_csv,
		      char *err, size_t errlen);

#endif /* SMAPBENCH_RUN_ARCHIVE_H */
