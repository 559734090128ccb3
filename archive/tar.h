/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tar.h - a strict POSIX ustar writer and reader, for packed runs.
 *
 * The writer emits regular files only: mode 0644, uid/gid 0, the
 * file's mtime, a path of up to 100 bytes in the name field, a longer
 * one split at a '/' into the prefix (up to 155 bytes) and the name
 * (up to 100), each header's checksum, data padded to 512-byte blocks,
 * and two zero blocks at the end.
 *
 * The reader treats its input as hostile. It takes regular files only
 * (typeflag '0' or NUL) and refuses, naming the entry and the reason:
 * a header whose checksum does not add up or that is not ustar (GNU or
 * v7 tar); hard links, symbolic links, devices, fifos, directories,
 * contiguous files, pax and GNU long-name headers; a name or prefix
 * field with anything but NULs after its text; a path (the prefix, '/'
 * and the name, when there is a prefix) that is
 * absolute, holds a "." or ".." component, an empty component, a
 * backslash, a control character or a byte above 0x7f, is not under
 * the single top directory of the first entry, or names an entry
 * twice (or a file and a directory the same); a declared size above
 * the per-file limit, or one that takes the archive past the total
 * limit, before reading or allocating any of it; an archive cut inside
 * a header, inside a file's data, or before its two zero end blocks;
 * anything but zeros after them.
 */
#ifndef SMAPBENCH_TAR_H
#define SMAPBENCH_TAR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/sha256.h"

#define TAR_BLOCK	512
/* A path in a header: prefix, '/', name (each field full, without NUL). */
#define TAR_PATH_MAX	(155 + 1 + 100)
/* Components of a path read back, the top directory included. */
#define TAR_DEPTH_MAX	8
#define TAR_DEPTH_MAX_TEXT	"8"

/* ------------------------------------------------------------ writer */

struct tar_writer {
	FILE *file;
	int error;		/* an errno value once a write failed */
};

void tar_writer_init(struct tar_writer *w, FILE *file);
/*
 * Whether the writer can store name: a file's (not empty, relative, not
 * ending in '/'), and at most 100 bytes, or split at a '/' into at most
 * 155 and 100.
 */
int tar_name_fits(const char *name);
/*
 * A regular file from memory. 0, or -1 with err (a name that does not
 * fit, a write error).
 */
int tar_write_memory(struct tar_writer *w, const char *name, long long mtime,
		     const void *data, size_t size, char *err, size_t errlen);
/*
 * A regular file of size bytes copied from in, its SHA-256 to hex (when
 * not NULL). A file that ends early or goes on past size is an error
 * (it changed while being packed). 0 or -1 with err.
 */
int tar_write_stream(struct tar_writer *w, const char *name, long long mtime,
		     FILE *in, unsigned long long size,
		     char hex[SHA256_HEX_SIZE], char *err, size_t errlen);
/* The two zero end blocks. 0, or -1 after any write error. */
int tar_write_end(struct tar_writer *w, char *err, size_t errlen);

/* ------------------------------------------------------------ reader */

struct tar_limits {
	unsigned long long max_file;	/* declared size of one file */
	unsigned long long max_total;	/* all files' sizes together */
	size_t max_entries;
};

struct tar_entry {
	char path[TAR_PATH_MAX + 1];	/* as in the archive, top/... */
	const char *relative;		/* inside path, after "top/" */
	unsigned long long size;
	long long mtime;
	unsigned long long offset;	/* of its header in the archive */
};

struct tar_reader {
	FILE *file;
	struct tar_limits limits;
	char top[TAR_PATH_MAX + 1];	/* the top directory ("" before the first entry) */
	char **paths;			/* every entry so far */
	size_t count;
	unsigned long long offset;	/* bytes consumed */
	unsigned long long total;	/* declared sizes so far */
	unsigned long long remaining;	/* data of the current entry not yet read */
	unsigned long long padding;	/* its padding after that */
	char current[TAR_PATH_MAX + 1];
	int ended;
};

void tar_reader_init(struct tar_reader *r, FILE *file,
		     const struct tar_limits *limits);
void tar_reader_free(struct tar_reader *r);
/*
 * The next entry's header: 1 (e filled), 0 at the verified end of the
 * archive, -1 with the reason in err. Data of the previous entry not
 * read is skipped (and checked for truncation).
 */
int tar_next(struct tar_reader *r, struct tar_entry *e, char *err,
	     size_t errlen);
/*
 * Up to len bytes of the current entry's data: the count, 0 at its end,
 * -1 with err when the archive ends inside it.
 */
long tar_read(struct tar_reader *r, void *buf, size_t len, char *err,
	      size_t errlen);

#endif /* SMAPBENCH_TAR_H */
