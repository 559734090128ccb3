// SPDX-License-Identifier: GPL-2.0
/* options.c - a command's options from its table; see options.h. */
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"

/* getopt_long()'s code of table entry i: above every character */
#define CODE_BASE 1000
#define MAX_OPTIONS (sizeof(((struct option_result *)0)->given))

int parse_number(const char *text, int whole, double low, double high,
		 unsigned flags, double *real, unsigned long long *whole_value)
{
	unsigned long long n = 0;
	char *end;
	double v;

	if (!*text)
		return -1;
	errno = 0;
	if (whole) {
		/* digits only: no sign, no space, nothing strtoull() would skip */
		for (const char *p = text; *p; p++)
			if (*p < '0' || *p > '9')
				return -1;
		n = strtoull(text, &end, 10);
		v = (double)n;
	} else {
		if (*text == ' ' || *text == '\t')
			return -1;
		v = strtod(text, &end);
	}
	if (errno || *end || !isfinite(v) || v < low || v > high ||
	    ((flags & OPTION_LOW_OPEN) && v == low) ||
	    ((flags & OPTION_HIGH_OPEN) && v == high))
		return -1;
	if (real)
		*real = v;
	if (whole_value)
		*whole_value = n;
	return 0;
}

/* A space the usage does not break a line at. */
#define KEEP_TOGETHER '\1'

/* "[1e-06, 60]", "(0, 100]": the bounds as the parser holds them. */
static const char *interval(const struct option_def *o, char *buf, size_t len,
			    char space)
{
	snprintf(buf, len, "%c%g,%c%g%c", o->flags & OPTION_LOW_OPEN ? '(' : '[',
		 o->low, space, o->high, o->flags & OPTION_HIGH_OPEN ? ')' : ']');
	return buf;
}

/* "from 1 to 10000", or "" for every 64-bit value. */
static const char *span(const struct option_def *o, char *buf, size_t len)
{
	if (o->high >= OPTION_WHOLE_MAX && !o->low)
		snprintf(buf, len, "of 64 bits");
	else
		snprintf(buf, len, "from %.0f to %.0f", o->low, o->high);
	return buf;
}

/* "syscall, kmod, bpf or all" */
static const char *choice_list(const struct option_def *o, char *buf,
			       size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	while (o->choices[n])
		n++;
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 !i ? "" : i + 1 == n ? " or " : ", ", o->choices[i]);
	return buf;
}

/* The value of option o into its field, or why not. */
static int take(const struct option_def *o, const char *value, void *values,
		char *err, size_t errlen)
{
	char *field = (char *)values + o->offset;
	char bounds[128];
	unsigned long long whole;
	double real;

	switch (o->type) {
	case OPTION_FLAG:
		*(int *)(void *)field = 1;
		return 0;
	case OPTION_TEXT:
		if (!*value && !(o->flags & OPTION_EMPTY_OK)) {
			snprintf(err, errlen, "--%s: empty %s", o->name,
				 o->what ? o->what : "value");
			return -1;
		}
		*(const char **)(void *)field = value;
		return 0;
	case OPTION_NUMBER:
		if (parse_number(value, 0, o->low, o->high, o->flags, &real, NULL)) {
			snprintf(err, errlen, "--%s '%s' is not %s in %s", o->name,
				 value, o->what ? o->what : "a number",
				 interval(o, bounds, sizeof(bounds), ' '));
			return -1;
		}
		*(double *)(void *)field = real;
		return 0;
	case OPTION_WHOLE:
		if (parse_number(value, 1, o->low, o->high, o->flags, NULL, &whole)) {
			snprintf(err, errlen, "--%s '%s' is not %s %s", o->name,
				 value, o->what ? o->what : "a whole number",
				 span(o, bounds, sizeof(bounds)));
			return -1;
		}
		if (o->width == sizeof(uint64_t)) {
			uint64_t v = whole;

			memcpy(field, &v, sizeof(v));
		} else {
			unsigned v = (unsigned)whole;

			memcpy(field, &v, sizeof(v));
		}
		return 0;
	case OPTION_CHOICE:
		for (size_t i = 0; o->choices[i]; i++)
			if (!strcmp(o->choices[i], value)) {
				*(const char **)(void *)field = o->choices[i];
				return 0;
			}
		snprintf(err, errlen, "--%s: unknown %s '%s' (%s)", o->name,
			 o->what ? o->what : "value", value,
			 choice_list(o, bounds, sizeof(bounds)));
		return -1;
	case OPTION_CALL:
		return o->call(value, values, err, errlen);
	case OPTION_HELP:
	case OPTION_END:
		break;
	}
	return 0;
}

int options_parse(const struct option_table *t, int argc, char **argv,
		  void *values, struct option_result *r, char *err,
		  size_t errlen)
{
	struct option longopts[MAX_OPTIONS + 1];
	size_t n = 0;
	int c, help = 0;

	memset(r, 0, sizeof(*r));
	for (; t->options[n].type != OPTION_END; n++) {
		const struct option_def *o = &t->options[n];

		if (n == MAX_OPTIONS) {	/* a table this large is a bug */
			snprintf(err, errlen, "%s: more than %zu options", t->command,
				 MAX_OPTIONS);
			return EXIT_USAGE;
		}
		longopts[n] = (struct option){
			o->name, o->type == OPTION_FLAG || o->type == OPTION_HELP ?
				 no_argument : required_argument,
			NULL, CODE_BASE + (int)n };
		help |= o->type == OPTION_HELP;
	}
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	optind = 0;	/* a full reset: a command may parse more than once */
	opterr = 0;	/* the messages below name the option */
	while ((c = getopt_long(argc, argv, t->in_order ? "+:h" : ":h",
				longopts, NULL)) != -1) {
		const struct option_def *o;

		if (c == 'h' && help) {
			r->help = 1;
			continue;
		}
		if (c == ':') {
			snprintf(err, errlen, "option '%s' needs a value",
				 argv[optind - 1]);
			return EXIT_USAGE;
		}
		if (c < CODE_BASE || c >= CODE_BASE + (int)n) {
			if (optopt >= CODE_BASE && optopt < CODE_BASE + (int)n)
				snprintf(err, errlen, "option '--%s' takes no value",
					 t->options[optopt - CODE_BASE].name);
			else
				snprintf(err, errlen, "unknown option '%s'",
					 argv[optind - 1]);
			return EXIT_USAGE;
		}
		o = &t->options[c - CODE_BASE];
		r->given[c - CODE_BASE] = 1;
		if (o->type == OPTION_HELP)
			r->help = 1;
		else if (take(o, optarg, values, err, errlen))
			return EXIT_USAGE;
	}
	r->first = optind;
	return 0;
}

int options_given(const struct option_table *t, const struct option_result *r,
		  const char *name)
{
	for (size_t i = 0; t->options[i].type != OPTION_END && i < MAX_OPTIONS; i++)
		if (!strcmp(t->options[i].name, name))
			return r->given[i];
	return 0;
}

/* The help column starts here; a longer option starts its help below. */
#define HELP_COLUMN 24
/* The width a line of the usage keeps to. */
#define USAGE_WIDTH 79

void options_usage(FILE *f, const struct option_table *t)
{
	const char *form = t->synopsis;

	/* each form of the synopsis on a line of its own */
	fprintf(f, "usage: ");
	for (int first = 1; form; first = 0) {
		const char *nl = strchr(form, '\n');

		fprintf(f, "%ssmapbench %s %.*s\n", first ? "" : "       ",
			t->command, (int)(nl ? nl - form : (long)strlen(form)), form);
		form = nl ? nl + 1 : NULL;
	}
	if (t->describe) {
		fputc('\n', f);
		t->describe(f);
	} else if (t->about) {
		fprintf(f, "\n%s", t->about);
	}
	fprintf(f, "\noptions:\n");
	for (const struct option_def *o = t->options; o->type != OPTION_END; o++) {
		char left[64], text[1024], tmp[160];
		const char *p = text;
		size_t len;

		snprintf(left, sizeof(left), "  --%s%s%s%s", o->name,
			 o->value ? " " : "", o->value ? o->value : "",
			 o->type == OPTION_HELP ? ", -h" : "");
		/* the help, then its bounds and default, as the parser holds them */
		snprintf(text, sizeof(text), "%s", o->help);
		len = strlen(text);
		if (o->type == OPTION_NUMBER)
			len += (size_t)snprintf(text + len, sizeof(text) - len, " (%s in %s",
						o->value, interval(o, tmp, sizeof(tmp),
								   KEEP_TOGETHER));
		else if (o->type == OPTION_WHOLE && !(o->high >= OPTION_WHOLE_MAX && !o->low))
			len += (size_t)snprintf(text + len, sizeof(text) - len, " (%s %s",
						o->value, span(o, tmp, sizeof(tmp)));
		else if (o->type == OPTION_CHOICE)
			len += (size_t)snprintf(text + len, sizeof(text) - len, " (%s",
						choice_list(o, tmp, sizeof(tmp)));
		if (o->fallback && len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%sdefault %s",
						len > strlen(o->help) ? "; " : " (",
						o->fallback);
		if (len > strlen(o->help) && len < sizeof(text))
			snprintf(text + len, sizeof(text) - len, ")");
		fputs(left, f);
		if (strlen(left) >= HELP_COLUMN - 1)
			fprintf(f, "\n%*s", HELP_COLUMN, "");
		else
			fprintf(f, "%*s", (int)(HELP_COLUMN - strlen(left)), "");
		/* words, wrapped to the width (a line break of the help is a space) */
		for (size_t column = HELP_COLUMN; *p;) {
			size_t word = strcspn(p, " \n");

			if (column > HELP_COLUMN && column + 1 + word > USAGE_WIDTH) {
				fprintf(f, "\n%*s", HELP_COLUMN, "");
				column = HELP_COLUMN;
			} else if (column > HELP_COLUMN) {
				fputc(' ', f);
				column++;
			}
			for (size_t i = 0; i < word; i++)
				fputc(p[i] == KEEP_TOGETHER ? ' ' : p[i], f);
			column += word;
			p += word;
			while (*p == ' ' || *p == '\n')
				p++;
		}
		fputc('\n', f);
	}
	if (t->describe_after) {
		fputc('\n', f);
		t->describe_after(f);
	} else if (t->after) {
		fprintf(f, "\n%s", t->after);
	}
}

int options_refuse(const struct option_table *t, const char *why)
{
	fprintf(stderr, "smapbench %s: %s\n\n", t->command, why);
	options_usage(stderr, t);
	return EXIT_USAGE;
}
