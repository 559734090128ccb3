// SPDX-License-Identifier: GPL-2.0
/* json.c - JSON writer and reader; see json.h. */
#include "rundata/json.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void json_writer_init(struct json_writer *w, FILE *file)
{
	memset(w, 0, sizeof(*w));
	w->file = file;
}

static void put(struct json_writer *w, const char *s)
{
	if (fputs(s, w->file) == EOF && !w->error)
		w->error = errno ? errno : EIO;
}

static void indent(struct json_writer *w)
{
	put(w, "\n");
	for (int i = 0; i < w->depth; i++)
		put(w, "  ");
}

/* Separator and indentation before a value or a key. */
static void before_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0) {
		if (w->count[w->depth]++)
			put(w, ",");
		indent(w);
	}
}

static void open_container(struct json_writer *w, const char *brace)
{
	before_value(w);
	put(w, brace);
	if (w->depth + 1 >= JSON_MAX_DEPTH) {
		w->error = EOVERFLOW;
		return;
	}
	w->count[++w->depth] = 0;
}

static void close_container(struct json_writer *w, const char *brace)
{
	if (w->depth == 0) {
		w->error = EINVAL;
		return;
	}
	int had = w->count[w->depth--];

	if (had)
		indent(w);
	put(w, brace);
}

void json_begin_object(struct json_writer *w) { open_container(w, "{"); }
void json_end_object(struct json_writer *w) { close_container(w, "}"); }
void json_begin_array(struct json_writer *w) { open_container(w, "["); }
void json_end_array(struct json_writer *w) { close_container(w, "]"); }

/* Length of a valid UTF-8 sequence at s, or 0. */
static size_t utf8_length(const unsigned char *s)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if (cp >= 0xd800 && cp <= 0xdfff)
		return 0;
	return n;
}

int json_write_escaped(FILE *file, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	int rc = 0;

	rc |= putc('"', file) == EOF;
	while (*s) {
		size_t n;

		switch (*s) {
		case '"': rc |= fputs("\\\"", file) == EOF; s++; continue;
		case '\\': rc |= fputs("\\\\", file) == EOF; s++; continue;
		case '\n': rc |= fputs("\\n", file) == EOF; s++; continue;
		case '\r': rc |= fputs("\\r", file) == EOF; s++; continue;
		case '\t': rc |= fputs("\\t", file) == EOF; s++; continue;
		case '\b': rc |= fputs("\\b", file) == EOF; s++; continue;
		case '\f': rc |= fputs("\\f", file) == EOF; s++; continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			rc |= fprintf(file, "\\u%04x", *s) < 0;
			s++;
			continue;
		}
		n = utf8_length(s);
		if (n == 0) {
			rc |= fputs("\\ufffd", file) == EOF;
			s++;
			continue;
		}
		rc |= fwrite(s, 1, n, file) != n;
		s += n;
	}
	rc |= putc('"', file) == EOF;
	return rc ? -1 : 0;
}

void json_key(struct json_writer *w, const char *key)
{
	before_value(w);
	if (json_write_escaped(w->file, key) && !w->error)
		w->error = EIO;
	put(w, ": ");
	w->after_key = 1;
}

void json_string(struct json_writer *w, const char *text)
{
	before_value(w);
	if (json_write_escaped(w->file, text) && !w->error)
		w->error = EIO;
}

void json_double(struct json_writer *w, double value)
{
	char buf[64];

	before_value(w);
	if (!isfinite(value)) {
		put(w, "null");
		return;
	}
	snprintf(buf, sizeof(buf), "%.10g", value);
	put(w, buf);
}

void json_int(struct json_writer *w, long long value)
{
	char buf[32];

	before_value(w);
	snprintf(buf, sizeof(buf), "%lld", value);
	put(w, buf);
}

void json_bool(struct json_writer *w, int value)
{
	before_value(w);
	put(w, value ? "true" : "false");
}

void json_kv_string(struct json_writer *w, const char *key, const char *v)
{
	json_key(w, key);
	json_string(w, v);
}

void json_kv_double(struct json_writer *w, const char *key, double v)
{
	json_key(w, key);
	json_double(w, v);
}

void json_kv_int(struct json_writer *w, const char *key, long long v)
{
	json_key(w, key);
	json_int(w, v);
}

void json_kv_bool(struct json_writer *w, const char *key, int v)
{
	json_key(w, key);
	json_bool(w, v);
}

int json_writer_finish(struct json_writer *w)
{
	if (!w->error && w->depth != 0)
		w->error = EINVAL;
	if (!w->error)
		put(w, "\n");
	if (!w->error && ferror(w->file))
		w->error = EIO;
	return w->error;
}

/* ------------------------------------------------------------ reading */

/*
 * Recursive descent over RFC 8259 into a tree. The text need not end in
 * a NUL: every read is bounded by len. Errors are placed by line and
 * column (bytes, from 1), found only when one occurs.
 */
struct json_reader {
	const char *text, *p, *end;
	unsigned flags;
	int depth;
	char *err;
	size_t errlen;
	size_t held, budget;	/* bytes the tree holds, and may hold */
	int discard;		/* keep nothing: only check */
	const char *each_key;	/* json_parse_each(): the streamed member */
	json_each_fn each;
	void *each_arg;
	size_t each_count;
	int each_status;	/* what each() returned, when not 0 */
};

static int read_fail_as(struct json_reader *r, const char *kind,
			const char *what)
{
	unsigned long line = 1, column = 1;

	for (const char *p = r->text; p < r->p; p++) {
		column = *p == '\n' ? 1 : column + 1;
		line += *p == '\n';
	}
	if (r->err && r->errlen)
		snprintf(r->err, r->errlen, "%lu:%lu: %s: %s", line, column,
			 kind, what);
	return -1;
}

static int read_fail(struct json_reader *r, const char *what)
{
	return read_fail_as(r, "invalid JSON", what);
}

/* Counts what the tree will hold: over the budget, the input is refused. */
static int hold(struct json_reader *r, size_t bytes)
{
	r->held += bytes;
	return r->held > r->budget ?
	       read_fail_as(r, "too much to hold",
				    "more values than are kept for a text of this size") : 0;
}


static int at_end(const struct json_reader *r)
{
	return r->p >= r->end;
}

/* Whether the text at the reader's position starts with word. */
static int looking_at(const struct json_reader *r, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(r->end - r->p) >= n && !memcmp(r->p, word, n);
}

static void skip_space(struct json_reader *r)
{
	while (!at_end(r) && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' ||
			      *r->p == '\r'))
		r->p++;
}

static int hex4(const char *s, const char *end, unsigned *out)
{
	unsigned v = 0;

	if (end - s < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Length of the valid UTF-8 sequence at s (before end), or 0. */
static size_t utf8_length_within(const char *s, const char *end)
{
	unsigned char seq[5] = { 0 };

	for (size_t i = 0; i < 4 && s + i < end; i++)
		seq[i] = (unsigned char)s[i];
	return utf8_length(seq);
}

/* A string, unescaped to UTF-8; *out is malloc'ed. */
static int read_string(struct json_reader *r, char **out)
{
	const char *s = ++r->p;	/* after the opening quote */
	size_t len = 0;
	char *buf;

	/* Unescaped text is never longer than the escaped form. */
	while (s < r->end && *s != '"')
		s += *s == '\\' && s + 1 < r->end ? 2 : 1;
	if (s >= r->end) {
		r->p--;		/* point at where it starts */
		return read_fail(r, "unterminated string");
	}
	if (hold(r, (size_t)(s - r->p) + 1))
		return -1;
	buf = malloc((size_t)(s - r->p) + 1);
	if (!buf)
		return read_fail(r, "out of memory");
	while (*r->p != '"') {
		unsigned char c = (unsigned char)*r->p;
		unsigned cp, low;
		size_t n;

		if (c < 0x20) {
			free(buf);
			return read_fail(r, "control character in string");
		}
		if (c >= 0x80) {
			n = utf8_length_within(r->p, r->end);
			if (!n) {
				free(buf);
				return read_fail(r, "invalid UTF-8 in string");
			}
			memcpy(buf + len, r->p, n);
			len += n;
			r->p += n;
			continue;
		}
		r->p++;
		if (c != '\\') {
			buf[len++] = (char)c;
			continue;
		}
		c = (unsigned char)*r->p++;
		switch (c) {
		case '"': case '\\': case '/':
			buf[len++] = (char)c;
			break;
		case 'b': buf[len++] = '\b'; break;
		case 'f': buf[len++] = '\f'; break;
		case 'n': buf[len++] = '\n'; break;
		case 'r': buf[len++] = '\r'; break;
		case 't': buf[len++] = '\t'; break;
		case 'u':
			if (hex4(r->p, r->end, &cp)) {
				free(buf);
				return read_fail(r, "bad \\u escape");
			}
			r->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && looking_at(r, "\\u") &&
			    !hex4(r->p + 2, r->end, &low) &&
			    low >= 0xdc00 && low < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
				r->p += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;	/* lone surrogate */
			}
			len += put_utf8(buf + len, cp);
			break;
		default:
			free(buf);
			return read_fail(r, "bad escape");
		}
	}
	r->p++;
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int read_value(struct json_reader *r, struct json_value *v);

static int push_item(struct json_reader *r, struct json_value *v, size_t *cap,
		     struct json_value *item, char *key)
{
	if (v->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;

		if (hold(r, (ncap - *cap) * (sizeof(*v->items) +
			    (v->type == JSON_OBJECT ? sizeof(*v->keys) : 0))))
			return -1;
		struct json_value *ni = realloc(v->items, ncap * sizeof(*ni));

		if (!ni)
			return read_fail(r, "out of memory");
		v->items = ni;
		if (v->type == JSON_OBJECT) {
			char **nk = realloc(v->keys, ncap * sizeof(*nk));

			if (!nk)
				return read_fail(r, "out of memory");
			v->keys = nk;
		}
		*cap = ncap;
	}
	v->items[v->count] = *item;
	if (v->type == JSON_OBJECT)
		v->keys[v->count] = key;
	v->count++;
	return 0;
}

/*
 * The elements of the streamed array one at a time: each is read, handed
 * to each() and freed, so the tree holds one of them at a time.
 */
static int read_streamed_array(struct json_reader *r, struct json_value *v)
{
	if (++r->depth > JSON_MAX_READ_DEPTH)
		return read_fail(r, "nested too deeply");
	v->type = JSON_ARRAY;
	r->p++;
	skip_space(r);
	if (!at_end(r) && *r->p == ']') {
		r->p++;
		r->depth--;
		return 0;
	}
	for (;;) {
		struct json_value item;
		size_t mark = r->held;
		int rc;

		if (read_value(r, &item)) {
			json_free(&item);
			return -1;
		}
		rc = r->each(&item, r->each_count++, r->each_arg);
		json_free(&item);
		r->held = mark;
		if (rc) {
			r->each_status = rc;
			return -1;
		}
		skip_space(r);
		if (!at_end(r) && *r->p == ',') {
			r->p++;
			skip_space(r);
			continue;
		}
		if (at_end(r) || *r->p != ']')
			return read_fail(r, "expected ',' or ']'");
		r->p++;
		r->depth--;
		return 0;
	}
}

static int read_container(struct json_reader *r, struct json_value *v,
			  int object)
{
	char close = object ? '}' : ']';
	size_t cap = 0;

	if (++r->depth > JSON_MAX_READ_DEPTH)
		return read_fail(r, "nested too deeply");
	v->type = object ? JSON_OBJECT : JSON_ARRAY;
	r->p++;
	skip_space(r);
	if (!at_end(r) && *r->p == close) {
		r->p++;
		r->depth--;
		return 0;
	}
	for (;;) {
		struct json_value item = { 0 };
		size_t mark = r->held;
		char *key = NULL;
		int rc;

		skip_space(r);
		if (object) {
			if (at_end(r) || *r->p != '"')
				return read_fail(r, "expected a key");
			if (read_string(r, &key))
				return -1;
			skip_space(r);
			if (at_end(r) || *r->p != ':') {
				free(key);
				return read_fail(r, "expected ':'");
			}
			r->p++;
			skip_space(r);
		}
		if (object && r->depth == 1 && r->each &&
		    !strcmp(key, r->each_key) && !at_end(r) && *r->p == '[')
			rc = read_streamed_array(r, &item);
		else
			rc = read_value(r, &item);
		if (!rc && r->discard) {
			/* checked, not kept */
			free(key);
			json_free(&item);
			r->held = mark;
		} else if (rc || push_item(r, v, &cap, &item, key)) {
			free(key);
			json_free(&item);
			return -1;
		}
		skip_space(r);
		if (!at_end(r) && *r->p == ',') {
			r->p++;
			continue;
		}
		if (at_end(r) || *r->p != close)
			return read_fail(r, object ? "expected ',' or '}'"
						   : "expected ',' or ']'");
		r->p++;
		r->depth--;
		return 0;
	}
}

static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/*
 * A number. With JSON_NONFINITE also NaN, Infinity and -Infinity as
 * some writers put them: not JSON, but refusing them as "invalid JSON"
 * would hide that the real problem is the value, which the caller then
 * names.
 */
static int read_number(struct json_reader *r, struct json_value *v)
{
	const char *p = r->p, *end = r->end, *digits;
	char small[64], *copy = small;
	size_t n;

	v->type = JSON_NUMBER;
	if (r->flags & JSON_NONFINITE) {
		static const struct {
			const char *word;
			double value;
		} words[] = { { "NaN", NAN }, { "Infinity", INFINITY },
			      { "-Infinity", -INFINITY } };

		for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
			if (looking_at(r, words[i].word)) {
				v->number = words[i].value;
				r->p += strlen(words[i].word);
				return 0;
			}
	}
	if (p < end && *p == '-')
		p++;
	if (p >= end || *p < '0' || *p > '9')
		return read_fail(r, at_end(r) ? "a value expected, the text ended"
					      : "unexpected character");
	p = *p == '0' ? p + 1 : skip_digits(p, end);
	if (p < end && *p == '.') {
		digits = ++p;
		p = skip_digits(p, end);
		if (p == digits) {
			r->p = p;
			return read_fail(r, "digits must follow '.'");
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		digits = p;
		p = skip_digits(p, end);
		if (p == digits) {
			r->p = p;
			return read_fail(r, "digits must follow the exponent");
		}
	}
	/* strtod needs a terminated copy: the text may not end here */
	n = (size_t)(p - r->p);
	if (n >= sizeof(small) && !(copy = malloc(n + 1)))
		return read_fail(r, "out of memory");
	memcpy(copy, r->p, n);
	copy[n] = '\0';
	v->number = strtod(copy, NULL);
	if (copy != small)
		free(copy);
	r->p = p;
	return 0;
}

static int read_value(struct json_reader *r, struct json_value *v)
{
	memset(v, 0, sizeof(*v));
	skip_space(r);
	if (at_end(r))
		return read_number(r, v);	/* says the text ended */
	switch (*r->p) {
	case '{':
		return read_container(r, v, 1);
	case '[':
		return read_container(r, v, 0);
	case '"':
		v->type = JSON_STRING;
		return read_string(r, &v->string);
	case 't':
	case 'f':
	case 'n':
		if (looking_at(r, "true") || looking_at(r, "null")) {
			v->type = *r->p == 't' ? JSON_BOOL : JSON_NULL;
			v->number = *r->p == 't';
			r->p += 4;
			return 0;
		}
		if (looking_at(r, "false")) {
			v->type = JSON_BOOL;
			r->p += 5;
			return 0;
		}
		return read_fail(r, "unknown literal");
	default:
		return read_number(r, v);
	}
}

/* What a tree may hold besides the text: 3 bytes per byte, and this. */
#define JSON_TREE_FIXED	(1u << 20)

static int parse_with(struct json_reader *r, struct json_value *root)
{
	r->budget = 3 * (size_t)(r->end - r->text) + JSON_TREE_FIXED;
	if (read_value(r, root)) {
		json_free(root);
		return -1;
	}
	skip_space(r);
	if (!at_end(r)) {
		json_free(root);
		return read_fail(r, "text after the end");
	}
	return 0;
}

int json_parse(const char *text, size_t len, unsigned flags,
	       struct json_value *root, char *err, size_t errlen)
{
	struct json_reader r = {
		.text = text, .p = text, .end = text + len, .flags = flags,
		.err = err, .errlen = errlen,
	};

	return parse_with(&r, root);
}

int json_parse_each(const char *text, size_t len, unsigned flags,
		    const char *key, json_each_fn each, void *arg,
		    struct json_value *root, size_t *elements,
		    char *err, size_t errlen)
{
	struct json_reader r = {
		.text = text, .p = text, .end = text + len, .flags = flags,
		.err = err, .errlen = errlen, .each_key = key, .each = each,
		.each_arg = arg,
	};
	int rc = parse_with(&r, root);

	if (elements)
		*elements = r.each_count;
	return r.each_status ? r.each_status : rc;
}

int json_read_file(const char *path, char **text, size_t *len,
		   char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	*text = NULL;
	*len = 0;
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	/* Its size, known before: the buffer is allocated once, exactly. */
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		goto fail;
	}
	*len = (size_t)st.st_size;
	*text = malloc(*len ? *len : 1);
	if (!*text) {
		snprintf(err, errlen, "out of memory reading %s", path);
		goto fail;
	}
	if (fread(*text, 1, *len, f) != *len || getc(f) != EOF) {
		snprintf(err, errlen, "cannot read %s: %s", path, ferror(f) ?
			 strerror(errno) : "it changed while it was read");
		goto fail;
	}
	fclose(f);
	return 0;
fail:
	free(*text);
	*text = NULL;
	fclose(f);
	return -1;
}

/* "LINE:COLUMN: what" from the parser, with the file in front. */
static void name_file(const char *path, const char *where, char *err,
		      size_t errlen)
{
	snprintf(err, errlen, "%s:%s", path, where);
}

int json_parse_file(const char *path, unsigned flags, struct json_value *root,
		    char *err, size_t errlen)
{
	char *text, where[256];
	size_t len;
	int rc;

	memset(root, 0, sizeof(*root));
	if (json_read_file(path, &text, &len, err, errlen))
		return -1;
	rc = json_parse(text, len, flags, root, where, sizeof(where));
	if (rc)
		name_file(path, where, err, errlen);
	free(text);
	return rc;
}

int json_parse_file_each(const char *path, unsigned flags, const char *key,
			 json_each_fn each, void *arg, struct json_value *root,
			 size_t *elements, char *err, size_t errlen)
{
	char *text, where[256];
	size_t len;
	int rc;

	memset(root, 0, sizeof(*root));
	if (json_read_file(path, &text, &len, err, errlen))
		return -1;
	rc = json_parse_each(text, len, flags, key, each, arg, root,
			     elements, where, sizeof(where));
	if (rc < 0)
		name_file(path, where, err, errlen);
	free(text);
	return rc;
}

void json_free(struct json_value *v)
{
	for (size_t i = 0; i < v->count; i++) {
		json_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	memset(v, 0, sizeof(*v));
}

const struct json_value *json_get(const struct json_value *object,
				  const char *key)
{
	if (!object || object->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < object->count; i++)
		if (!strcmp(object->keys[i], key))
			return &object->items[i];
	return NULL;
}

const char *json_get_string(const struct json_value *object, const char *key)
{
	const struct json_value *v = json_get(object, key);

	return v && v->type == JSON_STRING ? v->string : NULL;
}

double json_get_number(const struct json_value *object, const char *key)
{
	const struct json_value *v = json_get(object, key);

	return v && v->type == JSON_NUMBER ? v->number : NAN;
}

int json_validate(const char *text, size_t len, char *err, size_t errlen)
{
	struct json_reader r = {
		.text = text, .p = text, .end = text + len,
		.err = err, .errlen = errlen, .discard = 1,
	};
	struct json_value root;
	int rc = parse_with(&r, &root);

	if (!rc)
		json_free(&root);
	return rc;
}
