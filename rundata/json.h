/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small JSON writer with correct string escaping, and the one
 * JSON reader: a tree of values, used by the run loader (Google
 * Benchmark files) and by the validator.
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

/* ------------------------------------------------------------ reading */

enum json_type {
	JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT,
};

struct json_value {
	enum json_type type;
	double number;		/* JSON_NUMBER; JSON_BOOL: 1 true, 0 false */
	char *string;		/* JSON_STRING: unescaped, UTF-8 */
	struct json_value *items;	/* array elements, object values */
	char **keys;		/* object keys, in file order */
	size_t count;
};

/*
 * Called by json_parse_each() with each element of the streamed array,
 * which is freed after: 0 to go on, anything else to stop the parse.
 */
typedef int (*json_each_fn)(const struct json_value *element, size_t index,
			    void *arg);

/* Deeper nesting is refused: nothing we read comes close. */
#define JSON_MAX_READ_DEPTH 64

/* json_parse() flags. */
#define JSON_NONFINITE	1u	/* accept NaN, Infinity, -Infinity as numbers */

/*
 * Read text[0..len) (no terminating NUL needed) as exactly one JSON value
 * (RFC 8259: UTF-8, no leading zeros, ...) with optional surrounding
 * whitespace into *root. Returns 0, or -1 with
 * "LINE:COLUMN: invalid JSON: what" in err and *root empty.
 *
 * The tree may hold at most 3 bytes per byte of text and a fixed 1 MiB;
 * a text whose values take more is refused ("more values than are kept
 * for a text of this size"): what any input makes the reader allocate is
 * bounded.
 */
int json_parse(const char *text, size_t len, unsigned flags,
	       struct json_value *root, char *err, size_t errlen);
/*
 * json_parse() for texts whose bulk is one array: the root must be an
 * object, and the elements of its member key, an array, are read one at a
 * time, passed to each() and freed; in *root that member is an empty array,
 * and *elements (if not NULL) says how many there were. Returns 0, -1 for
 * invalid JSON (message in err), or what each() returned to stop it.
 */
int json_parse_each(const char *text, size_t len, unsigned flags,
		    const char *key, json_each_fn each, void *arg,
		    struct json_value *root, size_t *elements,
		    char *err, size_t errlen);
/*
 * The same for a file: "FILE:LINE:COLUMN: invalid JSON: what", or
 * "cannot open FILE: reason".
 */
int json_parse_file(const char *path, unsigned flags, struct json_value *root,
		    char *err, size_t errlen);
/* json_parse_each() for a file. */
int json_parse_file_each(const char *path, unsigned flags, const char *key,
			 json_each_fn each, void *arg, struct json_value *root,
			 size_t *elements, char *err, size_t errlen);
/*
 * A regular file's bytes in one buffer of its size (malloc'ed, in *text):
 * 0, or -1 with "cannot open FILE: why" or the like in err.
 */
int json_read_file(const char *path, char **text, size_t *len,
		   char *err, size_t errlen);
void json_free(struct json_value *v);

/* Member of an object (the first, if the key repeats), or NULL. */
const struct json_value *json_get(const struct json_value *object,
				  const char *key);
/* A string member, or NULL when absent or not a string. */
const char *json_get_string(const struct json_value *object, const char *key);
/* A number member, or NAN when absent or not a number. */
double json_get_number(const struct json_value *object, const char *key);

/*
 * json_parse() keeping nothing but one value at a time: 0 when text is
 * valid JSON.
 */
int json_validate(const char *text, size_t len, char *err, size_t errlen);

#endif /* SMAPBENCH_JSON_H */
