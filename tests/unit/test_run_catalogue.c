// SPDX-License-Identifier: GPL-2.0
/*
 * test_run_catalogue.c - the catalogue of run data (rundata/catalogue.c)
 * against docs/schema.md, which describes each entry for readers, against
 * what run_context_collect() writes on this machine, and against the
 * context of every run under tests/fixtures/ and data/: a key added to
 * one and not the other, or documented with other roles, fails here.
 * And the roles the syscall suite gives its rows, against a published
 * census.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "unit.h"

#include "measure/context.h"
#include "measure/registry.h"
#include "rundata/catalogue.h"
#include "rundata/census_csv.h"
#include "rundata/rundir.h"
#include "suites/suite.h"
#include "system/run_context.h"

#define SCHEMA "docs/schema.md"
/* A published census of the benchmarks, two kernels in three states. */
#define CENSUS "data/vm-20261206-144854-census/census.csv"

/* docs/schema.md's subsections of "## context.csv", and who writes their keys. */
static const struct {
	const char *heading;
	enum key_writer written;
} sections[] = {
	{ "### Every run: the machine and its boot", KEY_BY_MACHINE },
	{ "### Every run: the run itself", KEY_BY_RUN },
	{ "### The kmod suite", KEY_BY_KMOD },
	{ "### The bpf suite", KEY_BY_BPF },
	{ "### A run with a command", KEY_BY_COMMAND },
	{ "### An interrupted run", KEY_BY_INTERRUPTION },
	{ "### Older runs", KEY_BY_OLDER },
};

/* A documented key: where, and what the page says of it. */
struct documented {
	char name[64];
	unsigned roles;
	char unit[64];
	enum key_writer written;
	int line;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long n;

	if (!f)
		fail_msg("cannot open %s (the tests run from the top of the tree)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = malloc((size_t)n + 1);
	assert_non_null(text);
	assert_int(fread(text, 1, (size_t)n, f), n, path);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* Cell i (0-based) of a table row "| a | b | c |", trimmed, into out. */
static int cell(const char *row, int i, char *out, size_t len)
{
	const char *p = row, *end;

	for (int k = 0; k <= i; k++) {
		p = strchr(p, '|');
		if (!p)
			return -1;
		p++;
	}
	end = strchr(p, '|');
	if (!end)
		return -1;
	while (*p == ' ')
		p++;
	while (end > p && end[-1] == ' ')
		end--;
	snprintf(out, len, "%.*s", (int)(end - p), p);
	return 0;
}

/* "differs, shown" into KEY_* bits; fails on a word that is no role. */
static unsigned parse_roles(const char *text, int line)
{
	unsigned roles = 0;
	char copy[256], *save = NULL;

	if (!strcmp(text, "-"))
		return 0;
	snprintf(copy, sizeof(copy), "%s", text);
	for (char *w = strtok_r(copy, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		unsigned bit;

		for (bit = 1; bit < 1U << KEY_ROLE_COUNT; bit <<= 1)
			if (!strcmp(w, context_key_role_name(bit)))
				break;
		if (bit == 1U << KEY_ROLE_COUNT)
			fail_msg(SCHEMA ":%d: '%s' is no role (machine, comparison, differs, shown, required)",
				 line, w);
		roles |= bit;
	}
	return roles;
}

/*
 * Every key of the tables under "## context.csv", with the section it is
 * in; *n of them.
 */
static struct documented *documented_keys(size_t *n)
{
	char *text = slurp(SCHEMA), *save = NULL;
	struct documented *out = NULL;
	enum key_writer written = KEY_BY_NONE;
	int in_context = 0, line = 0;

	*n = 0;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char keys[512], roles[256], unit[64];

		line++;	/* strtok_r skips empty lines: a line number for messages only */
		if (!strncmp(l, "## ", 3)) {
			in_context = !strcmp(l, "## context.csv");
			written = KEY_BY_NONE;
			continue;
		}
		if (!in_context)
			continue;
		if (!strncmp(l, "### ", 4)) {
			written = KEY_BY_NONE;
			for (size_t i = 0; i < sizeof(sections) / sizeof(*sections); i++)
				if (!strcmp(l, sections[i].heading))
					written = sections[i].written;
			if (written == KEY_BY_NONE)
				fail_msg(SCHEMA ": context.csv's section \"%s\" says of no writer", l);
			continue;
		}
		if (written == KEY_BY_NONE || strncmp(l, "| `", 3) ||
		    cell(l, 0, keys, sizeof(keys)) || cell(l, 1, roles, sizeof(roles)) ||
		    cell(l, 2, unit, sizeof(unit)))
			continue;
		for (char *p = strchr(keys, '`'); p; p = strchr(p, '`')) {
			char *end = strchr(p + 1, '`');
			struct documented *d;

			if (!end)
				break;
			out = realloc(out, (*n + 1) * sizeof(*out));
			assert_non_null(out);
			d = &out[(*n)++];
			snprintf(d->name, sizeof(d->name), "%.*s", (int)(end - p - 1 < 63 ? end - p - 1 : 63), p + 1);
			d->roles = parse_roles(roles, line);
			snprintf(d->unit, sizeof(d->unit), "%.63s", strcmp(unit, "-") ? unit : "");
			d->written = written;
			d->line = line;
			p = end + 1;
		}
	}
	free(text);
	return out;
}

static void roles_text(unsigned roles, char *buf, size_t len)
{
	buf[0] = '\0';
	for (unsigned bit = 1; bit < 1U << KEY_ROLE_COUNT; bit <<= 1)
		if (roles & bit)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 *buf ? ", " : "", context_key_role_name(bit));
	if (!*buf)
		snprintf(buf, len, "-");
}

/*
 * Each key of the catalogue is documented once, in the section of its
 * writer, with its roles and unit; each documented key is catalogued.
 */
static void schema_md_documents_the_catalogue(void **unused)
{
	size_t n;
	struct documented *doc = documented_keys(&n);

	(void)unused;
	assert_true(n > 50);
	for (size_t i = 0; i < n; i++) {
		const struct context_key *k = context_key_find(doc[i].name);
		char want[128], got[128];

		if (!k || strcmp(k->name, doc[i].name))
			fail_msg(SCHEMA ":~%d: context key %s is not in the catalogue (rundata/catalogue.c)",
				 doc[i].line, doc[i].name);
		roles_text(doc[i].roles, want, sizeof(want));
		roles_text(k->roles, got, sizeof(got));
		if (strcmp(want, got))
			fail_msg("context key %s: docs/schema.md gives the roles \"%s\", the catalogue \"%s\"",
				 k->name, want, got);
		if (strcmp(doc[i].unit, k->unit ? k->unit : ""))
			fail_msg("context key %s: docs/schema.md gives the unit \"%s\", the catalogue \"%s\"",
				 k->name, doc[i].unit, k->unit ? k->unit : "");
		if (doc[i].written != k->written)
			fail_msg("context key %s: docs/schema.md has it under the %s keys, the catalogue writes it in %s",
				 k->name, context_key_writer_name(doc[i].written),
				 context_key_writer_name(k->written));
		for (size_t j = 0; j < i; j++)
			if (!strcmp(doc[j].name, doc[i].name))
				fail_msg("context key %s: documented twice (lines ~%d and ~%d)",
					 doc[i].name, doc[j].line, doc[i].line);
	}
	for (size_t i = 0; i < context_key_count; i++) {
		size_t j;

		for (j = 0; j < n && strcmp(doc[j].name, context_keys[i].name); j++)
			;
		if (j == n)
			fail_msg("context key %s is in the catalogue, not in docs/schema.md's context.csv tables",
				 context_keys[i].name);
	}
	free(doc);
}

/* The roles hold together, and every key says who writes it. */
static void roles_are_consistent(void **unused)
{
	(void)unused;
	for (size_t i = 0; i < context_key_count; i++) {
		const struct context_key *k = &context_keys[i];

		if (k->written <= KEY_BY_NONE || k->written >= KEY_BY_COUNT)
			fail_msg("context key %s: no writer", k->name);
		/* the same machine, yet a comparison would not need it equal */
		if ((k->roles & KEY_MACHINE) && !(k->roles & KEY_COMPARISON))
			fail_msg("context key %s: a machine key that is no comparison key", k->name);
		if ((k->roles & KEY_COMPARISON) && (k->roles & KEY_DIFFERS))
			fail_msg("context key %s: both must match and differs by design", k->name);
		if (context_key_find(k->name) != k)
			fail_msg("context key %s: catalogued twice, or under a family", k->name);
	}
	assert_true(context_key_is("vulnerability_mds", 0));
	assert_false(context_key_find("vulnerability_"));
	assert_false(context_key_find("no_such_key"));
}

/* What run_context_collect() writes here is the catalogue's machine keys. */
static void the_machine_keys_are_what_run_context_collect_writes(void **unused)
{
	struct context c = { 0 };

	(void)unused;
	run_context_collect(&c);
	for (size_t i = 0; i < c.count; i++) {
		const struct context_key *k = context_key_find(c.items[i].key);

		if (!k)
			fail_msg("run_context_collect() writes %s, which the catalogue lacks",
				 c.items[i].key);
		if (k->written != KEY_BY_MACHINE)
			fail_msg("run_context_collect() writes %s, which the catalogue has the %s write",
				 c.items[i].key, context_key_writer_name(k->written));
	}
	for (size_t i = 0; i < context_key_count; i++) {
		const struct context_key *k = &context_keys[i];
		size_t j;

		if (k->written != KEY_BY_MACHINE || k->name[strlen(k->name) - 1] == '*')
			continue;
		for (j = 0; j < c.count && strcmp(c.items[j].key, k->name); j++)
			;
		if (j == c.count)
			fail_msg("the catalogue has run_context_collect() write %s; it does not",
				 k->name);
	}
	context_free(&c);
}

/* Every key of a run directory under dir (and its subdirectories) is catalogued. */
static size_t check_runs_under(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t runs = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[1024], results[1100];
		struct run_dir run;
		struct stat st;
		char err[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(results, sizeof(results), "%s/results.csv", path);
		if (stat(path, &st) || !S_ISDIR(st.st_mode) || stat(results, &st))
			continue;
		if (rundir_load(path, &run, err, sizeof(err)))
			fail_msg("%s", err);
		for (size_t i = 0; i < run.context_count; i++)
			if (!context_key_find(run.keys[i]))
				fail_msg("%s/context.csv has %s, which the catalogue lacks",
					 path, run.keys[i]);
		rundir_free(&run);
		runs++;
	}
	closedir(d);
	return runs;
}

static void published_runs_hold_catalogued_keys(void **unused)
{
	(void)unused;
	assert_true(check_runs_under("tests/fixtures") >= 2);
	assert_true(check_runs_under("data") >= 1);
}

/*
 * The backticked names of the first cells of the table under heading
 * (up to the next heading of any level), in order; *n of them.
 */
static char **documented_columns(const char *heading, size_t *n)
{
	char *text = slurp(SCHEMA), *save = NULL;
	char **out = NULL;
	int in = 0;

	*n = 0;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char first[512];

		if (l[0] == '#') {
			in = !strcmp(l, heading);
			continue;
		}
		if (!in || strncmp(l, "| `", 3) || cell(l, 0, first, sizeof(first)))
			continue;
		for (char *p = strchr(first, '`'); p; p = strchr(p, '`')) {
			char *end = strchr(p + 1, '`');

			if (!end)
				break;
			out = realloc(out, (*n + 1) * sizeof(*out));
			assert_non_null(out);
			out[*n] = strndup(p + 1, (size_t)(end - p - 1));
			assert_non_null(out[(*n)++]);
			p = end + 1;
		}
	}
	free(text);
	return out;
}

/* Each file's columns are the ones its section of docs/schema.md lists. */
static void schema_md_lists_each_files_columns(void **unused)
{
	static const struct {
		const struct file_kind *kind;
		const char *heading;
	} files[] = {
		{ &file_results, "## results.csv" },
		{ &file_census, "### census.csv" },
		{ &file_table, "### table.csv" },
		{ &file_pair_fit, "## pair-fit.csv" },
		{ &file_workload, "## workload.csv" },
		{ &file_phases, "## phases.csv" },
	};

	(void)unused;
	for (size_t f = 0; f < sizeof(files) / sizeof(*files); f++) {
		const struct file_kind *kind = files[f].kind;
		size_t n;
		char **doc = documented_columns(files[f].heading, &n);

		assert_true(n > 0);
		for (size_t i = 0; i < n; i++)
			if (file_column_index(kind, doc[i]) < 0)
				fail_msg("%s: docs/schema.md lists the column %s, the catalogue does not",
					 kind->file, doc[i]);
		for (size_t i = 0; i < kind->count; i++) {
			size_t j;

			for (j = 0; j < n && strcmp(doc[j], kind->columns[i].name); j++)
				;
			if (j == n)
				fail_msg("%s: the catalogue has the column %s, docs/schema.md does not list it",
					 kind->file, kind->columns[i].name);
		}
		assert_int(n, kind->count, kind->file);
		for (size_t i = 0; i < n; i++)
			free(doc[i]);
		free(doc);
		assert_true(file_kind_find(kind->file) == kind);
	}
	/*
	 * table.csv's machine columns show keys that compare and table match
	 * on, and come first: its writer puts them before the figure
	 */
	for (size_t i = 0; i < file_table.count; i++) {
		if (file_table.columns[i].context_key &&
		    !context_key_is(file_table.columns[i].context_key, KEY_COMPARISON))
			fail_msg("table.csv's %s shows %s, which is no comparison key",
				 file_table.columns[i].name, file_table.columns[i].context_key);
		if (i && file_table.columns[i].context_key &&
		    !file_table.columns[i - 1].context_key)
			fail_msg("table.csv's %s shows a context key after other columns",
				 file_table.columns[i].name);
	}
}

/*
 * Every syscall row has a role in its suite's table, and the census
 * agrees with it: a base or a control executes no STAC per operation in
 * a SMAP boot, a row with STAC/CLAC inside at least one.
 */
static void syscall_roles_agree_with_the_census(void **unused)
{
	struct registry all = { 0 };
	struct census_csv census;
	char err[512];
	size_t checked = 0;

	(void)unused;
	assert_int(suite_register_all(&all), 0, "suite_register_all");
	for (size_t i = 0; i < all.count; i++) {
		const struct benchmark *b = all.items[i];

		if (!strcmp(b->suite, "syscall") && b->role == BENCH_ROLE_UNSET)
			fail_msg("%s: its table gives it no role", b->name);
		if (suite_row_role(b->suite, b->op, b->variant) != b->role &&
		    !strcmp(b->suite, "syscall"))
			fail_msg("%s: suite_row_role() does not find its role", b->name);
	}
	registry_free(&all);
	if (census_csv_load(CENSUS, &census, err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < census.count; i++) {
		const struct census_csv_row *r = &census.rows[i];
		enum bench_role role = suite_row_role(r->suite, r->op, r->variant);

		if (strcmp(r->suite, "syscall") || !census_csv_smap_row(r))
			continue;
		checked++;
		if (role == BENCH_ROLE_UNSET)
			fail_msg("%s: in the census, not in the syscall suite's tables", r->name);
		if ((role == BENCH_ROLE_EFFECT) != (r->stac_per_op >= 0.5))
			fail_msg("%s (kernel %s): its role is %s, the census counts %g STAC per operation",
				 r->name, r->kernel, role == BENCH_ROLE_EFFECT ?
				 "with STAC/CLAC inside" : "base or control", r->stac_per_op);
	}
	assert_true(checked >= 20);
	census_csv_free(&census);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schema_md_documents_the_catalogue),
		cmocka_unit_test(roles_are_consistent),
		cmocka_unit_test(the_machine_keys_are_what_run_context_collect_writes),
		cmocka_unit_test(published_runs_hold_catalogued_keys),
		cmocka_unit_test(schema_md_lists_each_files_columns),
		cmocka_unit_test(syscall_roles_agree_with_the_census),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
