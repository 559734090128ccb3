/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small JSON writer with correct string escaping, and a
 * validator for tests and for tools that want to check a file.
 *
 * The writer tracks nesting and commas; pretty-prints with two-space
 * indents like Google Benchmark. Strings: '"', '\\' and control
 * characters are escaped (\n, \t, ... or \u00XX); valid UTF-8 passes
 * through; bytes that are not valid UTF-8 become U+FFFD so the output
 * is always valid JSON. Non-finite numbers are written as null.
 */
#ifndef SMAPBENCH_JSON_H
#define SMAPBENCH_JSON_H

#include <stddef.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *file;
	int depth;
	int count[JSON_MAX_DEPTH];	/* members written at each level */
	int after_key;
	int error;
};

void json_writer_init(struct json_writer *w, FILE *file);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *text);
void json_double(struct json_writer *w, double value);
void json_int(struct json_writer *w, long long value);
void json_bool(struct json_writer *w, int value);
/* Key and value in one call. */
void json_kv_string(struct json_writer *w, const char *key, const char *v);
void json_kv_double(struct json_writer *w, const char *key, double v);
void json_kv_int(struct json_writer *w, const char *key, long long v);
void json_kv_bool(struct json_writer *w, const char *key, int v);
/* 0, or an errno value when a write failed or nesting is unbalanced. */
int json_writer_finish(struct json_writer *w);

/* Write text as a quoted, escaped JSON string. */
int json_write_escaped(FILE *file, const char *text);

/*
 * Check that text[0..len) is exactly one JSON value (RFC 8259) with
 * optional surrounding whitespace. Returns 0, or -1 with a message
 * naming the byte offset in err.
 */
int json_validate(const char *text, size_t len, char *err, size_t errlen);

#endif /* SMAPBENCH_JSON_H */
