// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_import_resummed.c - libFuzzer target: a whole `smapbench import`
 * of the input (import_once.h) after the MANIFEST's sizes and SHA-256
 * sums are made those of the archive's members. Mutated archives almost
 * never got past the sums, so what import checks after them (the
 * context, the CSV and JSON readers, the medians, placing the run) was
 * reached only with the seeds; fuzz_import.c keeps the sums' own check
 * fuzzed.
 *
 * The archive is read leniently here: ustar headers with octal sizes,
 * as far as they go, the first one whose path is TOP/MANIFEST taken as
 * the MANIFEST. What this cannot read is imported as it is.
 */
#include "import_once.h"

#include "measure/sha256.h"

#define MEMBERS_MAX	64

struct member {
	size_t header;		/* offset of its header; the data follows */
	size_t size;		/* of its data */
	char path[256 + 1];	/* prefix '/' name */
	const char *relative;	/* after the first '/' of path */
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An octal field: leading spaces, digits, then NUL or spaces. 0 or -1. */
static int octal(const uint8_t *field, size_t len, size_t *value)
{
	size_t i = 0, v = 0;

	while (i < len && field[i] == ' ')
		i++;
	if (i == len || field[i] < '0' || field[i] > '7')
		return -1;
	for (; i < len && field[i] >= '0' && field[i] <= '7'; i++) {
		if (v >> 40)
			return -1;
		v = v << 3 | (size_t)(field[i] - '0');
	}
	*value = v;
	return 0;
}

/* The members the input holds whole, from its start, up to MEMBERS_MAX. */
static size_t members_of(const uint8_t *data, size_t size, struct member *m)
{
	size_t n = 0, at = 0, len;

	while (n < MEMBERS_MAX && size - at >= 512 && data[at] &&
	       !octal(data + at + 124, 12, &len) &&
	       len <= size - at - 512) {
		m[n].header = at;
		m[n].size = len;
		snprintf(m[n].path, sizeof(m[n].path), "%.155s%s%.100s",
			 (const char *)data + at + 345, data[at + 345] ? "/" : "",
			 (const char *)data + at);
		m[n].relative = strchr(m[n].path, '/');
		m[n].relative = m[n].relative ? m[n].relative + 1 : "";
		n++;
		at += 512 + (len + 511) / 512 * 512;
		if (at > size)
			at = size;
	}
	return n;
}

static const struct member *find(const struct member *m, size_t n,
				 const char *relative, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(m[i].relative) == len &&
		    !memcmp(m[i].relative, relative, len))
			return &m[i];
	return NULL;
}

/* The MANIFEST's text with each file line's size and sum those of its member. */
static void write_manifest(FILE *out, const uint8_t *data, const struct member *m,
			   size_t n, const struct member *manifest)
{
	const char *text = (const char *)data + manifest->header + 512;
	const char *end = text + manifest->size;

	while (text < end) {
		const char *eol = memchr(text, '\n', (size_t)(end - text));
		const char *line_end = eol ? eol : end;
		const char *path = text + 5, *comma;
		const struct member *f = NULL;
		char hex[SHA256_HEX_SIZE];

		if (line_end - text > 5 && !memcmp(text, "file,", 5) &&
		    (comma = memchr(path, ',', (size_t)(line_end - path))))
			f = find(m, n, path, (size_t)(comma - path));
		if (f) {
			sha256_hex(data + f->header + 512, f->size, hex);
			fprintf(out, "file,%.*s,%zu,%s", (int)(comma - path), path,
				f->size, hex);
		} else {
			fwrite(text, 1, (size_t)(line_end - text), out);
		}
		if (eol)
			fputc('\n', out);
		text = eol ? eol + 1 : end;
	}
}

/* The input with its MANIFEST re-summed, or NULL when it has none. */
static uint8_t *resummed(const uint8_t *data, size_t size, size_t *outlen)
{
	struct member m[MEMBERS_MAX];
	size_t n, after, text_len = 0;
	const struct member *manifest = NULL;
	char *text = NULL, *bytes = NULL;
	uint8_t h[512];
	unsigned sum = 0;
	FILE *out;

	n = members_of(data, size, m);
	for (size_t i = 0; i < n && !manifest; i++)
		if (!strcmp(m[i].relative, "MANIFEST"))
			manifest = &m[i];
	if (!manifest)
		return NULL;
	out = open_memstream(&text, &text_len);
	if (!out)
		abort();
	write_manifest(out, data, m, n, manifest);
	fclose(out);
	memcpy(h, data + manifest->header, 512);
	snprintf((char *)h + 124, 12, "%011zo", text_len);
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
	out = open_memstream(&bytes, outlen);
	if (!out)
		abort();
	/* the members before the MANIFEST, the MANIFEST, the rest as it was */
	fwrite(data, 1, manifest->header, out);
	fwrite(h, 1, 512, out);
	fwrite(text, 1, text_len, out);
	for (size_t pad = (512 - text_len % 512) % 512; pad; pad--)
		fputc(0, out);
	after = manifest->header + 512 + (manifest->size + 511) / 512 * 512;
	if (after < size)
		fwrite(data + after, 1, size - after, out);
	fclose(out);
	free(text);
	return (uint8_t *)bytes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = 0;
	uint8_t *fixed = resummed(data, size, &len);

	import_once(fixed ? fixed : data, fixed ? len : size);
	free(fixed);
	return 0;
}
