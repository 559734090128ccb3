/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - a command's options declared as a table, the way git's
 * parse-options and perf's OPT_* do: each option's name, its value's
 * name, its type and bounds, where it goes in the command's own struct
 * and its help line. One parser walks every table (getopt_long() under
 * it, so --name=value and unambiguous prefixes work as before), checks
 * the values against the bounds with the one number parser, and says
 * what is wrong in one way; the usage text is made from the same table,
 * so the help cannot name an option or a bound the parser does not have.
 */
#ifndef SMAPBENCH_CLI_OPTIONS_H
#define SMAPBENCH_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum option_type {
	OPTION_END,	/* ends a table */
	OPTION_FLAG,	/* no value: the int becomes 1 */
	OPTION_TEXT,	/* the const char * points to the value */
	OPTION_NUMBER,	/* a real number within the bounds: the double */
	OPTION_WHOLE,	/* a whole number within the bounds: an unsigned of .width bytes */
	OPTION_CHOICE,	/* one of .choices: the const char * points to it */
	OPTION_CALL,	/* .call checks the value and keeps it */
	OPTION_HELP,	/* --help, -h: the usage on stdout */
};

/* .flags */
#define OPTION_LOW_OPEN		(1U << 0) /* the low bound is excluded */
#define OPTION_HIGH_OPEN	(1U << 1) /* the high bound is excluded */
#define OPTION_EMPTY_OK		(1U << 2) /* OPTION_TEXT: "" is a value */

struct option_def {
	const char *name;		/* without the dashes */
	enum option_type type;
	const char *value;		/* the value's name in the usage: "DIR", "N" */
	size_t offset;			/* of the field in the command's struct */
	size_t width;			/* OPTION_WHOLE: sizeof the field (4 or 8) */
	double low, high;		/* OPTION_NUMBER, OPTION_WHOLE */
	unsigned flags;
	const char *what;		/* for messages: "a number of seconds", "suite" */
	const char *fallback;		/* the default, for the usage, or NULL */
	const char *const *choices;	/* OPTION_CHOICE: NULL-terminated */
	/* OPTION_CALL: 0, or -1 with why in err (the value is named for it) */
	int (*call)(const char *value, void *values, char *err, size_t errlen);
	const char *help;		/* lines separated by \n */
};

/* The table of one command. */
struct option_table {
	const char *command;		/* "run", "census measure" */
	const char *synopsis;		/* after "smapbench COMMAND"; \n starts another form */
	const char *about;		/* before the options, or NULL */
	/* or this prints it: a text that names constants of the code */
	void (*describe)(FILE *f);
	const struct option_def *options;	/* OPTION_END last */
	const char *after;		/* after them, or NULL */
	void (*describe_after)(FILE *f);	/* or this prints it */
	int in_order;			/* the first argument that is no option ends them */
};

#define OPT_FLAG(n, st, field, h) \
	{ .name = n, .type = OPTION_FLAG, .offset = offsetof(st, field), .help = h }
#define OPT_TEXT(n, v, st, field, w, h) \
	{ .name = n, .type = OPTION_TEXT, .value = v, \
	  .offset = offsetof(st, field), .what = w, .help = h }
#define OPT_NUMBER(n, v, st, field, lo, hi, fl, w, d, h) \
	{ .name = n, .type = OPTION_NUMBER, .value = v, \
	  .offset = offsetof(st, field), .low = lo, .high = hi, .flags = fl, \
	  .what = w, .fallback = d, .help = h }
#define OPT_WHOLE(n, v, st, field, lo, hi, w, d, h) \
	{ .name = n, .type = OPTION_WHOLE, .value = v, \
	  .offset = offsetof(st, field), \
	  .width = sizeof(((st *)0)->field), .low = lo, .high = hi, \
	  .what = w, .fallback = d, .help = h }
#define OPT_CHOICE(n, v, st, field, list, w, d, h) \
	{ .name = n, .type = OPTION_CHOICE, .value = v, \
	  .offset = offsetof(st, field), .choices = list, .what = w, \
	  .fallback = d, .help = h }
#define OPT_CALL(n, v, fn, h) \
	{ .name = n, .type = OPTION_CALL, .value = v, .call = fn, .help = h }
#define OPT_HELP()	{ .name = "help", .type = OPTION_HELP, .help = "this text" }
#define OPT_END()	{ .name = NULL, .type = OPTION_END }

/* A constant's digits, for a table's default: OPTION_TEXT_OF(DEFAULT_TOP). */
#define OPTION_TEXT_OF_(x)	#x
#define OPTION_TEXT_OF(x)	OPTION_TEXT_OF_(x)

/*
 * The largest value OPTION_WHOLE takes in 64 bits (UINT64_MAX is not a
 * double): a --seed of any 64-bit value.
 */
#define OPTION_WHOLE_MAX	18446744073709551615.0

/* What options_parse() found. */
struct option_result {
	int first;		/* argv index of the first argument */
	int help;		/* --help: the usage was printed on stdout */
	/* which options were given: given[i] for table->options[i] */
	unsigned char given[64];
};

/*
 * Parse argv (argv[0] the command) into values, the command's struct.
 * 0 (see r), or EXIT_USAGE with one line in err naming the option and
 * what is wrong.
 */
int options_parse(const struct option_table *t, int argc, char **argv,
		  void *values, struct option_result *r, char *err,
		  size_t errlen);
/* Whether the option named name was given. */
int options_given(const struct option_table *t, const struct option_result *r,
		  const char *name);
/* The usage, made from the table. */
void options_usage(FILE *f, const struct option_table *t);
/*
 * A bad command line: "smapbench COMMAND: why", then the usage, on
 * stderr. Returns EXIT_USAGE.
 */
int options_refuse(const struct option_table *t, const char *why);
/*
 * The one number parser of the command line: all of text, a finite real
 * number (whole: decimal digits only, into *whole as well) within
 * [low, high], the ends excluded as flags say (OPTION_LOW_OPEN,
 * OPTION_HIGH_OPEN). 0, or -1.
 */
int parse_number(const char *text, int whole, double low, double high,
		 unsigned flags, double *real, unsigned long long *whole_value);

#endif /* SMAPBENCH_CLI_OPTIONS_H */
