// SPDX-License-Identifier: GPL-2.0
/* tar.c - strict POSIX ustar; see tar.h. */
#include "archive/tar.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rundata/error.h"

/* Field offsets and lengths of a ustar header (POSIX.1-1988). */
#define NAME_OFF	0
#define NAME_LEN	100
#define MODE_OFF	100
#define UID_OFF		108
#define GID_OFF		116
#define SIZE_OFF	124
#define MTIME_OFF	136
#define CHKSUM_OFF	148
#define CHKSUM_LEN	8
#define TYPE_OFF	156
#define MAGIC_OFF	257
#define VERSION_OFF	263
#define PREFIX_OFF	345
#define PREFIX_LEN	155

/* Zeros after the end blocks: GNU tar pads to 10 KiB records. */
#define TRAILING_ZEROS_MAX	(1024 * 1024)

static unsigned header_sum(const unsigned char *h)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < TAR_BLOCK; i++)
		sum += i >= CHKSUM_OFF && i < CHKSUM_OFF + CHKSUM_LEN ? ' ' : h[i];
	return sum;
}

/* ------------------------------------------------------------ writer */

void tar_writer_init(struct tar_writer *w, FILE *file)
{
	w->file = file;
	w->error = 0;
}

static int put(struct tar_writer *w, const void *data, size_t len)
{
	if (!w->error && len && fwrite(data, 1, len, w->file) != len)
		w->error = errno ? errno : EIO;
	return w->error ? -1 : 0;
}

static int put_padding(struct tar_writer *w, unsigned long long size)
{
	static const unsigned char zeros[TAR_BLOCK];

	return put(w, zeros, (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK);
}

/* An octal number in a field of len bytes, its last one NUL. */
static void put_octal(unsigned char *field, size_t len, unsigned long long v)
{
	char text[24];

	snprintf(text, sizeof(text), "%0*llo", (int)(len - 1), v);
	memcpy(field, text, len);	/* with snprintf's NUL */
}

/*
 * Where name splits into the prefix and name fields: the length of the
 * prefix (0: the name field holds it all), or -1 when it cannot be
 * stored (or names no file: empty, absolute, ending in '/'). The first
 * '/' that leaves at most NAME_LEN bytes after it gives the shortest
 * prefix, as GNU tar splits.
 */
static long split_name(const char *name)
{
	size_t len = strlen(name);

	if (!len || name[0] == '/' || name[len - 1] == '/')
		return -1;
	if (len <= NAME_LEN)
		return 0;
	for (const char *slash = strchr(name, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		size_t prefix = (size_t)(slash - name);

		if (prefix > PREFIX_LEN)
			return -1;
		if (len - prefix - 1 <= NAME_LEN)
			return len - prefix - 1 ? (long)prefix : -1;
	}
	return -1;
}

int tar_name_fits(const char *name)
{
	return split_name(name) >= 0;
}

static int put_header(struct tar_writer *w, const char *name, long long mtime,
		      unsigned long long size, char *err, size_t errlen)
{
	unsigned char h[TAR_BLOCK] = { 0 };
	long prefix = split_name(name);

	if (prefix < 0) {
		set_err(err, errlen, "'%s': a packed name is relative, and at most "
			"%d bytes or split at a '/' into at most %d and %d",
			name, NAME_LEN, PREFIX_LEN, NAME_LEN);
		return -1;
	}
	/* 11 octal digits: under 8 GiB, the ustar limit */
	if (size > 077777777777ULL) {
		set_err(err, errlen, "%s: %llu bytes is beyond what ustar can hold",
			name, size);
		return -1;
	}
	/* each field NUL-ended when shorter than it */
	memcpy(h + PREFIX_OFF, name, (size_t)prefix);
	memcpy(h + NAME_OFF, name + (prefix ? prefix + 1 : 0),
	       strlen(name) - (size_t)(prefix ? prefix + 1 : 0));
	put_octal(h + MODE_OFF, 8, 0644);
	put_octal(h + UID_OFF, 8, 0);
	put_octal(h + GID_OFF, 8, 0);
	put_octal(h + SIZE_OFF, 12, size);
	put_octal(h + MTIME_OFF, 12, mtime > 0 && mtime <= 077777777777LL ?
					  (unsigned long long)mtime : 0);
	h[TYPE_OFF] = '0';
	memcpy(h + MAGIC_OFF, "ustar", 6);
	memcpy(h + VERSION_OFF, "00", 2);
	/* six digits, NUL, space: what POSIX and GNU tar write */
	snprintf((char *)h + CHKSUM_OFF, 8, "%06o", header_sum(h));
	h[CHKSUM_OFF + 7] = ' ';
	if (put(w, h, sizeof(h))) {
		set_err(err, errlen, "writing the header of %s: %s", name,
			strerror(w->error));
		return -1;
	}
	return 0;
}

int tar_write_memory(struct tar_writer *w, const char *name, long long mtime,
		     const void *data, size_t size, char *err, size_t errlen)
{
	if (put_header(w, name, mtime, size, err, errlen))
		return -1;
	if (put(w, data, size) || put_padding(w, size)) {
		set_err(err, errlen, "writing %s: %s", name, strerror(w->error));
		return -1;
	}
	return 0;
}

int tar_write_stream(struct tar_writer *w, const char *name, long long mtime,
		     FILE *in, unsigned long long size,
		     char hex[SHA256_HEX_SIZE], char *err, size_t errlen)
{
	unsigned char buf[65536], digest[SHA256_DIGEST_SIZE];
	unsigned long long left = size;
	struct sha256 s;

	if (put_header(w, name, mtime, size, err, errlen))
		return -1;
	sha256_init(&s);
	while (left) {
		size_t want = left < sizeof(buf) ? (size_t)left : sizeof(buf);
		size_t got = fread(buf, 1, want, in);

		if (got != want) {
			set_err(err, errlen, "%s: %s", name, ferror(in) ?
				"read error" : "shorter than when it was measured (changed while packing?)");
			return -1;
		}
		sha256_update(&s, buf, got);
		if (put(w, buf, got)) {
			set_err(err, errlen, "writing %s: %s", name, strerror(w->error));
			return -1;
		}
		left -= got;
	}
	if (fgetc(in) != EOF) {
		set_err(err, errlen, "%s: longer than when it was measured (changed while packing?)",
			name);
		return -1;
	}
	if (put_padding(w, size)) {
		set_err(err, errlen, "writing %s: %s", name, strerror(w->error));
		return -1;
	}
	sha256_final(&s, digest);
	if (hex)
		sha256_to_hex(digest, hex);
	return 0;
}

int tar_write_end(struct tar_writer *w, char *err, size_t errlen)
{
	static const unsigned char zeros[2 * TAR_BLOCK];

	if (put(w, zeros, sizeof(zeros))) {
		set_err(err, errlen, "writing the end of the archive: %s",
			strerror(w->error));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ reader */

void tar_reader_init(struct tar_reader *r, FILE *file,
		     const struct tar_limits *limits)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->limits = *limits;
}

void tar_reader_free(struct tar_reader *r)
{
	for (size_t i = 0; i < r->count; i++)
		free(r->paths[i]);
	free(r->paths);
	r->paths = NULL;
	r->count = 0;
}

/* Read exactly len bytes: len, or fewer at the end of the file. */
static size_t take(struct tar_reader *r, void *buf, size_t len)
{
	size_t got = fread(buf, 1, len, r->file);

	r->offset += got;
	return got;
}

/* Consume the rest of the current entry's data and padding. */
static int skip_current(struct tar_reader *r, char *err, size_t errlen)
{
	unsigned char buf[TAR_BLOCK * 16];

	while (r->remaining + r->padding) {
		unsigned long long left = r->remaining + r->padding;
		size_t want = left < sizeof(buf) ? (size_t)left : sizeof(buf);

		if (take(r, buf, want) != want) {
			set_err(err, errlen, "truncated: the archive ends inside the %s of %s",
				r->remaining ? "data" : "padding", r->current);
			return -1;
		}
		if (r->remaining >= want) {
			r->remaining -= want;
		} else {
			r->padding -= want - r->remaining;
			r->remaining = 0;
		}
	}
	return 0;
}

static int all_zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

/*
 * A text field (name, prefix) is its text, then NULs to its end: bytes
 * hidden after a NUL are what no writer leaves, and readers that keep
 * them would see another path than ours.
 */
static int field_is_text(const unsigned char *field, size_t len)
{
	const unsigned char *nul = memchr(field, '\0', len);

	return !nul || all_zero(nul, len - (size_t)(nul - field));
}

/*
 * A numeric field: octal digits (leading spaces, then NUL or spaces
 * to its end), or GNU's base-256 for a positive value. 0 or -1.
 */
static int parse_number(const unsigned char *field, size_t len,
			unsigned long long *value)
{
	unsigned long long v = 0;
	size_t i = 0;

	if (field[0] & 0x80) {
		if (field[0] != 0x80)	/* negative, or a wider value */
			return -1;
		for (i = 1; i < len; i++) {
			if (v >> 56)
				return -1;
			v = v << 8 | field[i];
		}
		*value = v;
		return 0;
	}
	while (i < len && field[i] == ' ')
		i++;
	if (i == len || field[i] < '0' || field[i] > '7')
		return -1;
	for (; i < len && field[i] >= '0' && field[i] <= '7'; i++) {
		if (v >> 60)
			return -1;
		v = v << 3 | (unsigned)(field[i] - '0');
	}
	for (; i < len; i++)
		if (field[i] != ' ' && field[i] != '\0')
			return -1;
	*value = v;
	return 0;
}

/* Why a typeflag other than a regular file's is refused. */
static const char *type_refusal(unsigned char type)
{
	switch (type) {
	case '1': return "is a hard link";
	case '2': return "is a symbolic link";
	case '3': return "is a character device";
	case '4': return "is a block device";
	case '5': return "is a directory entry (directories are implied by file paths)";
	case '6': return "is a fifo";
	case '7': return "is a contiguous file";
	case 'x': return "is a pax extended header";
	case 'g': return "is a pax global header";
	case 'L': return "is a GNU long-name header";
	case 'K': return "is a GNU long-link header";
	default: return "has an unknown type";
	}
}

/* NULL when path may be extracted under r's top directory, else why. */
static const char *path_problem(struct tar_reader *r, const char *path,
				const char **relative)
{
	const char *p, *slash;
	size_t components = 0, top_len;

	if (!*path)
		return "has an empty name";
	if (path[0] == '/')
		return "has an absolute path";
	for (p = path; *p; p++) {
		if (*p == '\\')
			return "has a backslash in its path";
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "has a control character in its path";
		/* a run's names are ASCII; C1 controls hide in the rest */
		if ((unsigned char)*p >= 0x80)
			return "has a non-ASCII byte in its path";
	}
	for (p = path; ; p = slash + 1) {
		size_t len;

		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len == 0)
			return slash ? "has an empty path component ('//')"
				     : "ends in '/' (a directory, not a file)";
		if (len == 2 && !strncmp(p, "..", 2))
			return "has a '..' component (a path out of the run)";
		if (len == 1 && *p == '.')
			return "has a '.' component";
		components++;
		if (!slash)
			break;
	}
	if (components > TAR_DEPTH_MAX)
		return "is nested deeper than " TAR_DEPTH_MAX_TEXT " components";
	slash = strchr(path, '/');
	if (!slash)
		return "is not inside a top directory (a run is one directory)";
	top_len = (size_t)(slash - path);
	if (!r->top[0]) {
		memcpy(r->top, path, top_len);
		r->top[top_len] = '\0';
	} else if (strlen(r->top) != top_len || strncmp(r->top, path, top_len)) {
		return "is not under the archive's single top directory";
	}
	*relative = slash + 1;
	return NULL;
}

/* NULL when path is new, else how it clashes with an earlier entry. */
static const char *clash(const struct tar_reader *r, const char *path,
			 const char **other)
{
	size_t len = strlen(path);

	for (size_t i = 0; i < r->count; i++) {
		const char *q = r->paths[i];
		size_t qlen = strlen(q);

		*other = q;
		if (!strcmp(q, path))
			return "appears twice in the archive";
		if ((qlen > len && !strncmp(q, path, len) && q[len] == '/') ||
		    (len > qlen && !strncmp(path, q, qlen) && path[qlen] == '/'))
			return "is both a file and a directory in the archive";
	}
	return NULL;
}

/* After a zero block: the second one, then nothing but zeros. */
static int read_end(struct tar_reader *r, unsigned long long first,
		    char *err, size_t errlen)
{
	unsigned char block[TAR_BLOCK];
	size_t got = take(r, block, sizeof(block)), trailing = 0;

	if (got != sizeof(block)) {
		set_err(err, errlen, "truncated: one zero end block at offset %llu, "
			"the second is %s", first, got ? "cut" : "missing");
		return -1;
	}
	if (!all_zero(block, sizeof(block))) {
		set_err(err, errlen, "a zero block at offset %llu is followed by "
			"more data (a damaged archive)", first);
		return -1;
	}
	while ((got = take(r, block, sizeof(block))) > 0) {
		trailing += got;
		if (!all_zero(block, got)) {
			set_err(err, errlen, "data after the end of the archive "
				"(offset %llu)", r->offset - got);
			return -1;
		}
		if (trailing > TRAILING_ZEROS_MAX) {
			set_err(err, errlen, "more than 1 MiB of zeros after the "
				"end of the archive");
			return -1;
		}
	}
	if (ferror(r->file)) {
		set_err(err, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	r->ended = 1;
	return 0;
}

int tar_next(struct tar_reader *r, struct tar_entry *e, char *err,
	     size_t errlen)
{
	unsigned char h[TAR_BLOCK];
	unsigned long long sum, size, mtime, at;
	char name[NAME_LEN + 1], prefix[PREFIX_LEN + 1];
	const char *why, *other;
	size_t got;

	if (r->ended)
		return 0;
	if (skip_current(r, err, errlen))
		return -1;
	at = r->offset;
	got = take(r, h, sizeof(h));
	if (ferror(r->file)) {
		set_err(err, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	if (got == 0) {
		set_err(err, errlen, "truncated: the archive ends at offset %llu "
			"without its two zero end blocks", at);
		return -1;
	}
	if (got != sizeof(h)) {
		set_err(err, errlen, "truncated: the archive ends inside a header "
			"(offset %llu, %zu of 512 bytes)", at, got);
		return -1;
	}
	if (all_zero(h, sizeof(h)))
		return read_end(r, at, err, errlen) ? -1 : 0;
	if (parse_number(h + CHKSUM_OFF, CHKSUM_LEN, &sum) || sum != header_sum(h)) {
		set_err(err, errlen, "the header at offset %llu has a wrong checksum "
			"(damaged, or not a tar archive)", at);
		return -1;
	}
	if (!memcmp(h + MAGIC_OFF, "ustar  ", 8)) {
		set_err(err, errlen, "the header at offset %llu is GNU tar's format, "
			"not POSIX ustar", at);
		return -1;
	}
	if (memcmp(h + MAGIC_OFF, "ustar", 6) || memcmp(h + VERSION_OFF, "00", 2)) {
		set_err(err, errlen, "the header at offset %llu is not POSIX ustar "
			"(magic and version are not \"ustar\", \"00\")", at);
		return -1;
	}
	memcpy(name, h + NAME_OFF, NAME_LEN);
	name[NAME_LEN] = '\0';
	memcpy(prefix, h + PREFIX_OFF, PREFIX_LEN);
	prefix[PREFIX_LEN] = '\0';
	memset(e, 0, sizeof(*e));
	/* the path the checks below judge, whole: prefix '/' name */
	snprintf(e->path, sizeof(e->path), "%s%s%s", prefix, *prefix ? "/" : "", name);
	e->offset = at;
	/* the name shown in messages: printable, however hostile */
	snprintf(r->current, sizeof(r->current), "%s", e->path);
	for (char *p = r->current; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	if (h[TYPE_OFF] != '0' && h[TYPE_OFF] != '\0') {
		set_err(err, errlen, "entry '%s' %s: only regular files are accepted",
			r->current, type_refusal(h[TYPE_OFF]));
		return -1;
	}
	if (!field_is_text(h + NAME_OFF, NAME_LEN) ||
	    !field_is_text(h + PREFIX_OFF, PREFIX_LEN)) {
		set_err(err, errlen, "entry '%s' has bytes after a NUL in its "
			"name or prefix field", r->current);
		return -1;
	}
	if ((why = path_problem(r, e->path, &e->relative))) {
		set_err(err, errlen, "entry '%s' %s", r->current, why);
		return -1;
	}
	if (parse_number(h + SIZE_OFF, 12, &size) ||
	    parse_number(h + MTIME_OFF, 12, &mtime)) {
		set_err(err, errlen, "entry '%s': its size or mtime is not a number",
			r->current);
		return -1;
	}
	if (size > r->limits.max_file) {
		set_err(err, errlen, "entry '%s' declares %llu bytes, above the "
			"limit of %llu bytes for one file", r->current, size,
			r->limits.max_file);
		return -1;
	}
	if (size > r->limits.max_total - r->total) {
		set_err(err, errlen, "entry '%s' (%llu bytes) takes the archive "
			"past its limit of %llu bytes in all", r->current, size,
			r->limits.max_total);
		return -1;
	}
	if (r->count >= r->limits.max_entries) {
		set_err(err, errlen, "more than %zu entries", r->limits.max_entries);
		return -1;
	}
	if ((why = clash(r, e->path, &other))) {
		set_err(err, errlen, "entry '%s' %s", r->current, why);
		return -1;
	}
	if (r->count % 64 == 0) {
		char **grown = realloc(r->paths, (r->count + 64) * sizeof(*grown));

		if (!grown) {
			set_err(err, errlen, "out of memory");
			return -1;
		}
		r->paths = grown;
	}
	r->paths[r->count] = strdup(e->path);
	if (!r->paths[r->count]) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	r->count++;
	r->total += size;
	e->size = size;
	e->mtime = (long long)(mtime & 0x7fffffffffffffffULL);
	r->remaining = size;
	r->padding = (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK;
	return 1;
}

long tar_read(struct tar_reader *r, void *buf, size_t len, char *err,
	      size_t errlen)
{
	size_t want, got;

	if (!r->remaining || r->ended)
		return 0;
	want = r->remaining < len ? (size_t)r->remaining : len;
	if (want > (size_t)0x7fffffff)
		want = 0x7fffffff;
	got = take(r, buf, want);
	r->remaining -= got;
	if (got != want) {
		set_err(err, errlen, ferror(r->file) ? "read error in the data of %s"
			: "truncated: the archive ends inside the data of %s",
			r->current);
		return -1;
	}
	return (long)got;
}
