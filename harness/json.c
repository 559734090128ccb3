// SPDX-License-Identifier: GPL-2.0
/* json.c - JSON writer and validator; see json.h. */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* Validator: recursive descent over RFC 8259. */
struct parser {
	const char *s;
	size_t len, pos;
	int depth;
	const char *error;
};

static void skip_space(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) &&
	       p->s[p->pos])
		p->pos++;
}

static int fail(struct parser *p, const char *why)
{
	if (!p->error)
		p->error = why;
	return -1;
}

static int parse_value(struct parser *p);

static int parse_literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return fail(p, "invalid literal");
	p->pos += n;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int parse_number(struct parser *p)
{
	size_t start;

	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++;
	if (p->pos >= p->len || !is_digit(p->s[p->pos]))
		return fail(p, "invalid number");
	if (p->s[p->pos] == '0')
		p->pos++;
	else
		while (p->pos < p->len && is_digit(p->s[p->pos]))
			p->pos++;
	if (p->pos < p->len && p->s[p->pos] == '.') {
		start = ++p->pos;
		while (p->pos < p->len && is_digit(p->s[p->pos]))
			p->pos++;
		if (p->pos == start)
			return fail(p, "digits expected after '.'");
	}
	if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
		p->pos++;
		if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		start = p->pos;
		while (p->pos < p->len && is_digit(p->s[p->pos]))
			p->pos++;
		if (p->pos == start)
			return fail(p, "digits expected in exponent");
	}
	return 0;
}

static int parse_string(struct parser *p)
{
	p->pos++;	/* opening quote */
	while (p->pos < p->len) {
		unsigned char c = (unsigned char)p->s[p->pos];

		if (c == '"') {
			p->pos++;
			return 0;
		}
		if (c < 0x20)
			return fail(p, "unescaped control character in string");
		if (c == '\\') {
			if (++p->pos >= p->len)
				break;
			c = (unsigned char)p->s[p->pos];
			if (c == 'u') {
				for (int i = 1; i <= 4; i++) {
					char h = p->pos + i < p->len ?
						 p->s[p->pos + i] : 0;

					if (!strchr("0123456789abcdefABCDEF", h) || !h)
						return fail(p, "bad \\u escape");
				}
				p->pos += 5;
				continue;
			}
			if (!strchr("\"\\/bfnrt", c) || !c)
				return fail(p, "bad escape in string");
			p->pos++;
			continue;
		}
		if (c >= 0x80) {
			unsigned char tmp[5] = { 0 };
			size_t n;

			for (size_t i = 0; i < 4 && p->pos + i < p->len; i++)
				tmp[i] = (unsigned char)p->s[p->pos + i];
			n = utf8_length(tmp);
			if (!n)
				return fail(p, "invalid UTF-8 in string");
			p->pos += n;
			continue;
		}
		p->pos++;
	}
	return fail(p, "unterminated string");
}

static int parse_container(struct parser *p, char close, int object)
{
	if (++p->depth > 512)
		return fail(p, "nesting too deep");
	p->pos++;
	skip_space(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		p->depth--;
		return 0;
	}
	for (;;) {
		skip_space(p);
		if (object) {
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return fail(p, "object key expected");
			if (parse_string(p))
				return -1;
			skip_space(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return fail(p, "':' expected");
			p->pos++;
		}
		if (parse_value(p))
			return -1;
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			p->depth--;
			return 0;
		}
		return fail(p, object ? "',' or '}' expected"
				      : "',' or ']' expected");
	}
}

static int parse_value(struct parser *p)
{
	skip_space(p);
	if (p->pos >= p->len)
		return fail(p, "value expected");
	switch (p->s[p->pos]) {
	case '{': return parse_container(p, '}', 1);
	case '[': return parse_container(p, ']', 0);
	case '"': return parse_string(p);
	case 't': return parse_literal(p, "true");
	case 'f': return parse_literal(p, "false");
	case 'n': return parse_literal(p, "null");
	default: return parse_number(p);
	}
}

int json_validate(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser p = { .s = text, .len = len };

	if (parse_value(&p) == 0) {
		skip_space(&p);
		if (p.pos == p.len)
			return 0;
		fail(&p, "trailing characters after the value");
	}
	if (err)
		snprintf(err, errlen, "offset %zu: %s", p.pos, p.error);
	return -1;
}
