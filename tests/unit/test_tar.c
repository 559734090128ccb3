// SPDX-License-Identifier: GPL-2.0
/*
 * test_tar.c - the ustar writer read back, and the reader refusing
 * crafted archives: every refusal names its reason, and sizes are
 * refused before their data is read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/tar.h"
#include "unit.h"

static const struct tar_limits limits = {
	.max_file = 1 << 20, .max_total = 3 << 20, .max_entries = 16,
};

/* An archive being crafted in memory. */
struct image {
	unsigned char *bytes;
	size_t len;
};

static void append(struct image *im, const void *data, size_t len)
{
	im->bytes = realloc(im->bytes, im->len + len + 1);
	assert_non_null(im->bytes);
	memcpy(im->bytes + im->len, data, len);
	im->len += len;
}

static void fix_checksum(unsigned char *h)
{
	unsigned sum = 0;

	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
}

/* A ustar header as GNU tar --format=ustar would write it. */
static void header(unsigned char h[512], const char *name, char type,
		   unsigned long long size)
{
	memset(h, 0, 512);
	memcpy(h, name, strlen(name) < 100 ? strlen(name) : 100);
	memcpy(h + 100, "0000644", 8);
	memcpy(h + 108, "0000000", 8);
	memcpy(h + 116, "0000000", 8);
	{
		char text[24];

		snprintf(text, sizeof(text), "%011llo", size & 077777777777ULL);
		memcpy(h + 124, text, 12);
	}
	memcpy(h + 136, "14723322740", 12);
	h[156] = (unsigned char)type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	fix_checksum(h);
}

static void add_file(struct image *im, const char *name, const char *data)
{
	unsigned char h[512], pad[512] = { 0 };
	size_t len = strlen(data);

	header(h, name, '0', len);
	append(im, h, 512);
	append(im, data, len);
	append(im, pad, (512 - len % 512) % 512);
}

static void add_end(struct image *im)
{
	unsigned char zeros[1024] = { 0 };

	append(im, zeros, sizeof(zeros));
}

/*
 * Read every entry of the image and its data: 0 when the archive is
 * accepted, else -1 with the reader's message in err.
 */
static int read_all(const struct image *im, const struct tar_limits *l,
		    char *err, size_t errlen)
{
	FILE *f = fmemopen(im->bytes, im->len, "r");
	struct tar_reader r;
	struct tar_entry e;
	char buf[700];
	int rc;

	assert_non_null(f);
	tar_reader_init(&r, f, l);
	err[0] = '\0';
	while ((rc = tar_next(&r, &e, err, errlen)) > 0) {
		long n;

		while ((n = tar_read(&r, buf, sizeof(buf), err, errlen)) > 0)
			;
		if (n < 0) {
			rc = -1;
			break;
		}
	}
	tar_reader_free(&r);
	fclose(f);
	return rc;
}

static void refused_with(const struct image *im, const char *reason)
{
	char err[512];

	if (read_all(im, &limits, err, sizeof(err)) != -1)
		fail_msg("accepted an archive that should fail with \"%s\"", reason);
	if (!strstr(err, reason))
		fail_msg("expected a message with \"%s\", got \"%s\"", reason, err);
}

static void write_then_read(void **unused)
{
	char *bytes = NULL, err[256], data[1500], back[1500], hex[SHA256_HEX_SIZE];
	size_t len = 0;
	FILE *out = open_memstream(&bytes, &len), *in, *src;
	struct tar_writer w;
	struct tar_reader r;
	struct tar_entry e;
	long n;

	(void)unused;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)('a' + i % 26);
	assert_non_null(out);
	tar_writer_init(&w, out);
	assert_int(tar_write_memory(&w, "run/MANIFEST", 1700000000, "m\n", 2,
				    err, sizeof(err)), 0, "a file from memory");
	src = fmemopen(data, sizeof(data), "r");
	assert_int(tar_write_stream(&w, "run/plots/x.png", 1700000001, src,
				    sizeof(data), hex, err, sizeof(err)), 0,
		   "a file from a stream");
	fclose(src);
	sha256_hex(data, sizeof(data), back);
	assert_str(hex, back, "digest of what was streamed");
	assert_int(tar_write_end(&w, err, sizeof(err)), 0, "end blocks");
	fclose(out);
	/* header, 1 block; header, 3 blocks; two end blocks */
	assert_int(len, 512 * (2 + 1 + 3 + 2), "archive length");
	assert_str((char *)bytes + 100, "0000644", "mode");
	assert_str((char *)bytes + 108, "0000000", "uid");
	assert_str((char *)bytes + 136, "14524770400", "mtime 1700000000");
	assert_int(bytes[156], '0', "typeflag");
	assert_int(memcmp(bytes + 257, "ustar\0" "00", 8), 0, "magic and version");

	in = fmemopen(bytes, len, "r");
	tar_reader_init(&r, in, &limits);
	assert_int(tar_next(&r, &e, err, sizeof(err)), 1, "first entry");
	assert_str(e.path, "run/MANIFEST", "first path");
	assert_str(e.relative, "MANIFEST", "relative to the top");
	assert_int(e.size, 2, "first size");
	assert_int(e.mtime, 1700000000, "first mtime");
	/* its data left unread: skipped by the next call */
	assert_int(tar_next(&r, &e, err, sizeof(err)), 1, "second entry");
	assert_str(e.relative, "plots/x.png", "second path");
	memset(back, 0, sizeof(back));
	for (size_t got = 0; (n = tar_read(&r, back + got, 7, err, sizeof(err))) > 0;)
		got += (size_t)n;
	assert_int(n, 0, "end of data");
	assert_int(memcmp(back, data, sizeof(data)), 0, "data read back");
	assert_int(tar_next(&r, &e, err, sizeof(err)), 0, "end of archive");
	assert_str(r.top, "run", "top directory");
	tar_reader_free(&r);
	fclose(in);
	free(bytes);
}

/*
 * A run's canonical name takes up to 100 bytes: NAME/plots/x.png does
 * not fit the name field, and goes into the prefix and name fields,
 * split at the first '/' that leaves the name at most 100 bytes. What
 * no split fits is refused.
 */
static void writer_splits_long_names(void **unused)
{
	char top[101], path[300], hundred[101], err[256], *bytes = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&bytes, &len), *in;
	struct tar_writer w;
	struct tar_reader r;
	struct tar_entry e;

	(void)unused;
	memset(top, 't', 100);
	top[100] = '\0';
	memset(hundred, 'h', 100);
	hundred[100] = '\0';
	tar_writer_init(&w, out);
	snprintf(path, sizeof(path), "%s/plots/ops.png", top);
	assert_true(tar_name_fits(path));
	assert_int(tar_write_memory(&w, path, 0, "png", 3, err, sizeof(err)), 0, err);
	snprintf(path, sizeof(path), "%s/x", top);
	assert_int(tar_write_memory(&w, path, 0, "", 0, err, sizeof(err)), 0, err);
	assert_int(tar_write_end(&w, err, sizeof(err)), 0, "end blocks");
	fclose(out);
	assert_int(memcmp(bytes + 345, top, 100), 0, "the run's name in the prefix");
	assert_int(bytes[445], '\0', "the prefix ends there");
	assert_str((char *)bytes, "plots/ops.png", "the rest in the name");
	assert_str((char *)bytes + 1024, "x", "102 bytes: 100 and 'x'");
	in = fmemopen(bytes, len, "r");
	tar_reader_init(&r, in, &limits);
	assert_int(tar_next(&r, &e, err, sizeof(err)), 1, err);
	snprintf(path, sizeof(path), "%s/plots/ops.png", top);
	assert_str(e.path, path, "joined again");
	assert_str(e.relative, "plots/ops.png", "relative to the run");
	assert_int(tar_next(&r, &e, err, sizeof(err)), 1, err);
	assert_str(e.relative, "x", "the second");
	assert_int(tar_next(&r, &e, err, sizeof(err)), 0, err);
	tar_reader_free(&r);
	fclose(in);
	free(bytes);

	bytes = NULL;
	out = open_memstream(&bytes, &len);
	tar_writer_init(&w, out);
	assert_int(tar_write_memory(&w, hundred, 0, "", 0, err, sizeof(err)), 0,
		   "100 bytes fill the name field");
	fflush(out);
	assert_int(memcmp(bytes, hundred, 100), 0, "with no NUL");
	assert_int(bytes[100], '0', "the mode right after it");
	snprintf(path, sizeof(path), "%sh", hundred);
	assert_int(tar_write_memory(&w, path, 0, "", 0, err, sizeof(err)), -1,
		   "101 bytes without a '/'");
	snprintf(path, sizeof(path), "run/%sh", hundred);
	assert_int(tar_write_memory(&w, path, 0, "", 0, err, sizeof(err)), -1,
		   "a last component of 101 bytes");
	snprintf(path, sizeof(path), "%s%.56s/x", hundred, hundred);
	assert_false(tar_name_fits(path));
	assert_int(tar_write_memory(&w, path, 0, "", 0, err, sizeof(err)), -1,
		   "a prefix of 156 bytes");
	assert_true(strstr(err, "split at a '/'") != NULL);
	snprintf(path, sizeof(path), "%s%.55s/%s", hundred, hundred, hundred);
	assert_true(tar_name_fits(path));	/* 155 and 100: the most */
	assert_int(tar_write_memory(&w, "/abs", 0, "", 0, err, sizeof(err)), -1,
		   "an absolute name");
	assert_int(tar_write_memory(&w, "run/", 0, "", 0, err, sizeof(err)), -1,
		   "a directory");
	fclose(out);
	free(bytes);
}

static void refuses_types(void **unused)
{
	static const struct {
		char type;
		const char *reason;
	} cases[] = {
		{ '1', "is a hard link" }, { '2', "is a symbolic link" },
		{ '3', "is a character device" }, { '4', "is a block device" },
		{ '5', "is a directory entry" }, { '6', "is a fifo" },
		{ '7', "is a contiguous file" }, { 'x', "pax extended header" },
		{ 'g', "pax global header" }, { 'L', "GNU long-name" },
		{ 'K', "GNU long-link" }, { 'Z', "unknown type" },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct image im = { 0 };
		unsigned char h[512];

		add_file(&im, "run/MANIFEST", "x");
		header(h, "run/link", cases[i].type, 0);
		append(&im, h, 512);
		add_end(&im);
		refused_with(&im, cases[i].reason);
		free(im.bytes);
	}
}

static void refuses_paths(void **unused)
{
	static const struct {
		const char *first, *second, *reason;
	} cases[] = {
		{ "/etc/passwd", NULL, "absolute path" },
		{ "run/../../etc/passwd", NULL, "'..' component" },
		{ "../run/x", NULL, "'..' component" },
		{ "run/./x", NULL, "'.' component" },
		{ "run//x", NULL, "empty path component" },
		{ "run/x/", NULL, "ends in '/'" },
		{ "run\\x", NULL, "backslash" },
		{ "run/a\tb", NULL, "control character" },
		{ "run/a\033[2Jb", NULL, "control character" },
		{ "run/\303\251t\351", NULL, "non-ASCII byte" },
		{ "run/\233" "2J", NULL, "non-ASCII byte" },
		{ "loose", NULL, "not inside a top directory" },
		{ "run/a", "other/b", "not under the archive's single top" },
		{ "run/a", "run/a", "appears twice" },
		{ "run/a", "run/a/b", "both a file and a directory" },
		{ "run/a/b", "run/a", "both a file and a directory" },
		{ "run/1/2/3/4/5/6/7/8", NULL, "nested deeper" },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct image im = { 0 };

		add_file(&im, cases[i].first, "data");
		if (cases[i].second)
			add_file(&im, cases[i].second, "data");
		add_end(&im);
		refused_with(&im, cases[i].reason);
		free(im.bytes);
	}
}

/* An entry whose prefix field holds prefix and name field name. */
static void add_split(struct image *im, const char *prefix, const char *name)
{
	unsigned char h[512];

	header(h, name, '0', 0);
	memcpy(h + 345, prefix, strlen(prefix) < 155 ? strlen(prefix) : 155);
	fix_checksum(h);
	append(im, h, 512);
}

/*
 * The reader judges prefix '/' name as one path, with every rule of a
 * path: what the prefix hides is refused as it would be in the name.
 */
static void prefix_joins_name(void **unused)
{
	static const struct {
		const char *prefix, *name, *reason;
	} cases[] = {
		{ "/etc", "passwd", "absolute path" },
		{ "/", "run/x", "absolute path" },
		{ "run/..", "x", "'..' component" },
		{ "..", "run/x", "'..' component" },
		{ "run", "../x", "'..' component" },
		{ "run/.", "x", "'.' component" },
		{ "run/", "x", "empty path component" },
		{ "run", "", "ends in '/'" },
		{ "run/a\nb", "x", "control character" },
		{ "run\\sub", "x", "backslash" },
		{ "run/\302\205", "x", "non-ASCII byte" },
	};
	char prefix[156], name[101], err[256];
	struct image im = { 0 };
	unsigned char h[512], pad[512] = { 0 };
	FILE *f;
	struct tar_reader r;
	struct tar_entry e;

	(void)unused;
	header(h, "x.csv", '0', 3);
	memcpy(h + 345, "run/sub", 7);
	fix_checksum(h);
	append(&im, h, 512);
	append(&im, "abc", 3);
	append(&im, pad, 509);
	add_end(&im);
	assert_int(read_all(&im, &limits, err, sizeof(err)), 0, err);
	free(im.bytes);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		im = (struct image){ 0 };
		add_split(&im, cases[i].prefix, cases[i].name);
		add_end(&im);
		refused_with(&im, cases[i].reason);
		free(im.bytes);
	}
	/* both fields full, no NUL in either: a path of 256 bytes */
	memset(prefix, 'p', 155);
	memcpy(prefix, "run/", 4);
	prefix[155] = '\0';
	memset(name, 'n', 100);
	name[100] = '\0';
	im = (struct image){ 0 };
	add_split(&im, prefix, name);
	add_end(&im);
	f = fmemopen(im.bytes, im.len, "r");
	tar_reader_init(&r, f, &limits);
	assert_int(tar_next(&r, &e, err, sizeof(err)), 1, err);
	assert_int(strlen(e.path), 256, "prefix, '/', name");
	assert_int(memcmp(e.path, prefix, 155), 0, "the prefix first");
	assert_str(e.path + 156, name, "then the name");
	tar_reader_free(&r);
	fclose(f);
	free(im.bytes);
	/* a byte hidden after the text of either field */
	for (int field = 0; field < 2; field++) {
		im = (struct image){ 0 };
		header(h, "run/x", '0', 0);
		if (field)
			memcpy(h + 345, "run\0../../etc", 14);
		else
			memcpy(h + 6, "\0../../etc", 11);
		fix_checksum(h);
		append(&im, h, 512);
		add_end(&im);
		refused_with(&im, "bytes after a NUL in its name or prefix field");
		free(im.bytes);
	}
}

static void refuses_bad_headers(void **unused)
{
	struct image im = { 0 };
	unsigned char *h;

	(void)unused;
	add_file(&im, "run/a", "data");
	add_end(&im);
	im.bytes[10] ^= 1;	/* a bit flipped in the name */
	refused_with(&im, "wrong checksum");
	free(im.bytes);

	im = (struct image){ 0 };
	add_file(&im, "run/a", "data");
	add_end(&im);
	memcpy(im.bytes + 257, "ustar  ", 8);	/* GNU tar's magic */
	fix_checksum(im.bytes);
	refused_with(&im, "GNU tar's format");
	free(im.bytes);

	im = (struct image){ 0 };
	add_file(&im, "run/a", "data");
	add_end(&im);
	memset(im.bytes + 257, 0, 8);		/* v7 tar */
	fix_checksum(im.bytes);
	refused_with(&im, "not POSIX ustar");
	free(im.bytes);

	im = (struct image){ 0 };
	add_file(&im, "run/a", "data");
	add_end(&im);
	h = im.bytes;
	memcpy(h + 124, "00000000x04", 12);	/* a size that is not octal */
	fix_checksum(h);
	refused_with(&im, "not a number");
	free(im.bytes);
}

/* Nothing after the header: a size must be refused before any reading. */
static void refuses_sizes_before_reading(void **unused)
{
	struct image im = { 0 };
	unsigned char h[512];
	static const unsigned char gib100[12] = {
		0x80, 0, 0, 0, 0, 0, 0, 0x19, 0, 0, 0, 0,	/* 100 GiB, base-256 */
	};
	struct tar_limits tight = limits;

	(void)unused;
	header(h, "run/samples.csv", '0', 0);
	memcpy(h + 124, gib100, 12);
	fix_checksum(h);
	append(&im, h, 512);
	refused_with(&im, "declares 107374182400 bytes, above the limit");
	free(im.bytes);

	im = (struct image){ 0 };
	header(h, "run/samples.csv", '0', (1 << 20) + 1);
	append(&im, h, 512);
	refused_with(&im, "declares 1048577 bytes");
	free(im.bytes);

	/* two files within the per-file limit, past the total one */
	tight.max_total = 1000;
	im = (struct image){ 0 };
	add_file(&im, "run/a", "x");
	header(h, "run/b", '0', 1000);
	append(&im, h, 512);
	{
		char err[256];

		assert_int(read_all(&im, &tight, err, sizeof(err)), -1, "total limit");
		if (!strstr(err, "past its limit of 1000 bytes in all"))
			fail_msg("total limit message: %s", err);
	}
	free(im.bytes);

	/* and the number of entries */
	tight = limits;
	tight.max_entries = 2;
	im = (struct image){ 0 };
	add_file(&im, "run/a", "x");
	add_file(&im, "run/b", "x");
	add_file(&im, "run/c", "x");
	add_end(&im);
	{
		char err[256];

		assert_int(read_all(&im, &tight, err, sizeof(err)), -1, "entry limit");
		if (!strstr(err, "more than 2 entries"))
			fail_msg("entry limit message: %s", err);
	}
	free(im.bytes);
}

static void detects_truncation(void **unused)
{
	struct image im = { 0 };
	char data[700];
	size_t full;

	(void)unused;
	memset(data, 'v', sizeof(data) - 1);
	data[sizeof(data) - 1] = '\0';
	add_file(&im, "run/a", "first");
	add_file(&im, "run/b", data);
	add_end(&im);
	full = im.len;

	im.len = 512 + 512 + 300;		/* inside b's header */
	refused_with(&im, "ends inside a header");
	im.len = 512 * 3 + 100;			/* inside b's data */
	refused_with(&im, "ends inside the data of run/b");
	im.len = 512 * 4 + 300;			/* inside b's padding */
	refused_with(&im, "ends inside the padding of run/b");
	im.len = full - 1024;			/* no end blocks */
	refused_with(&im, "without its two zero end blocks");
	im.len = full - 512;			/* one of two */
	refused_with(&im, "the second is missing");
	im.len = full - 100;
	refused_with(&im, "the second is cut");
	im.len = full;
	{
		char err[256];

		assert_int(read_all(&im, &limits, err, sizeof(err)), 0, err);
	}
	free(im.bytes);
}

static void refuses_data_after_the_end(void **unused)
{
	struct image im = { 0 };
	char zeros[9216] = { 0 }, err[256];

	(void)unused;
	add_file(&im, "run/a", "first");
	add_end(&im);
	append(&im, zeros, sizeof(zeros));	/* GNU tar's record padding */
	assert_int(read_all(&im, &limits, err, sizeof(err)), 0, err);
	append(&im, "junk", 4);
	refused_with(&im, "data after the end of the archive");
	free(im.bytes);

	im = (struct image){ 0 };
	add_file(&im, "run/a", "first");
	append(&im, zeros, 512);
	add_file(&im, "run/b", "hidden after a zero block");
	add_end(&im);
	refused_with(&im, "is followed by more data");
	free(im.bytes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_then_read),
		cmocka_unit_test(writer_splits_long_names),
		cmocka_unit_test(refuses_types),
		cmocka_unit_test(refuses_paths),
		cmocka_unit_test(prefix_joins_name),
		cmocka_unit_test(refuses_bad_headers),
		cmocka_unit_test(refuses_sizes_before_reading),
		cmocka_unit_test(detects_truncation),
		cmocka_unit_test(refuses_data_after_the_end),
	};

	return cmocka_run_group_tests_name("tar", tests, NULL, NULL);
}
