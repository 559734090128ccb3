// SPDX-License-Identifier: GPL-2.0
/* run_archive.c - the MANIFEST of a packed run, and results re-checked. */
#include "archive/run_archive.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "measure/stats.h"
#include "rundata/catalogue.h"
#include "rundata/csv.h"
#include "rundata/json.h"

const char *run_archive_path_problem(const char *path)
{
	size_t components = 0;

	if (!*path)
		return "is empty";
	if (*path == '/')
		return "is absolute";
	for (const char *p = path; *p; p++) {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			return "holds a control or non-ASCII character";
		if (*p == '\\' || *p == ',' || *p == '"')
			return "holds a backslash, comma or quote";
	}
	for (const char *p = path, *slash; ; p = slash + 1) {
		size_t len;

		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (!len)
			return "has an empty component";
		if ((len == 1 && *p == '.') || (len == 2 && !strncmp(p, "..", 2)))
			return "has a '.' or '..' component";
		if (*p == '.')
			return "names a hidden file (no part of a run)";
		components++;
		if (!slash)
			break;
	}
	if (components > TAR_DEPTH_MAX - 1)
		return "is nested too deep";
	return NULL;
}

/* The files of a run with limits of their own, and what a real one is. */
static const struct {
	const char *path;
	unsigned long long limit;
	const char *real;
} size_limits[] = {
	{ "context.csv", RUN_ARCHIVE_MAX_CONTEXT, "a real one is about 5 kB" },
	{ "results.csv", RUN_ARCHIVE_MAX_RESULTS, "a --full run's is about 100 kB" },
	{ "skipped.csv", RUN_ARCHIVE_MAX_RESULTS, "a --full run's is about 100 kB" },
	{ NULL, RUN_ARCHIVE_MAX_FILE, "a --full run's largest is tens of MB" },
};

int run_archive_check_size(const char *path, unsigned long long size,
			   unsigned long long *total, char *err, size_t errlen)
{
	size_t i = 0;

	while (size_limits[i].path && strcmp(size_limits[i].path, path))
		i++;
	if (size > size_limits[i].limit) {
		snprintf(err, errlen, "%s is %llu bytes, above the limit of %llu "
			 "MiB for it (%s)", path, size, size_limits[i].limit >> 20,
			 size_limits[i].real);
		return -1;
	}
	if (size > RUN_ARCHIVE_MAX_TOTAL - *total) {
		snprintf(err, errlen, "%s (%llu bytes) takes the run past the "
			 "limit of %llu MiB in all", path, size,
			 RUN_ARCHIVE_MAX_TOTAL >> 20);
		return -1;
	}
	*total += size;
	return 0;
}

static int is_hex_digest(const char *s)
{
	if (strlen(s) != 2 * SHA256_DIGEST_SIZE)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return 0;
	return 1;
}

/* A size: decimal digits only. */
static int parse_size(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9' || strlen(s) > 19)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* The slot of a key line, or NULL for an unknown key. */
static char **key_slot(struct run_manifest *m, const char *key)
{
	if (!strcmp(key, "format"))
		return &m->format;
	if (!strcmp(key, "format_version"))
		return &m->format_version;
	if (!strcmp(key, "schema_version"))
		return &m->schema_version;
	if (!strcmp(key, "run"))
		return &m->run;
	if (!strcmp(key, "smapbench_version"))
		return &m->smapbench_version;
	if (!strcmp(key, "git_revision"))
		return &m->git_revision;
	return NULL;
}

static int add_file(struct run_manifest *m, const struct csv_row *row,
		    unsigned long line, char *err, size_t errlen)
{
	struct run_manifest_file *f;
	const char *why;

	if (row->count != 4) {
		snprintf(err, errlen, "MANIFEST line %lu: a file line is "
			 "file,PATH,SIZE,SHA256", line);
		return -1;
	}
	if ((why = run_archive_path_problem(row->fields[1]))) {
		snprintf(err, errlen, "MANIFEST line %lu: the path %s", line, why);
		return -1;
	}
	if (run_manifest_find(m, row->fields[1])) {
		snprintf(err, errlen, "MANIFEST line %lu: %s is listed twice",
			 line, row->fields[1]);
		return -1;
	}
	if (m->count >= RUN_ARCHIVE_MAX_FILES) {
		snprintf(err, errlen, "MANIFEST: more than %d files",
			 RUN_ARCHIVE_MAX_FILES);
		return -1;
	}
	if (m->count % 32 == 0) {
		struct run_manifest_file *grown =
			realloc(m->files, (m->count + 32) * sizeof(*grown));

		if (!grown)
			goto oom;
		m->files = grown;
	}
	f = &m->files[m->count];
	memset(f, 0, sizeof(*f));
	if (parse_size(row->fields[2], &f->size)) {
		snprintf(err, errlen, "MANIFEST line %lu: %s: size '%.20s' is not "
			 "a whole number", line, row->fields[1], row->fields[2]);
		return -1;
	}
	if (!is_hex_digest(row->fields[3])) {
		snprintf(err, errlen, "MANIFEST line %lu: %s: '%.70s' is not a "
			 "SHA-256 in lowercase hex", line, row->fields[1],
			 row->fields[3]);
		return -1;
	}
	memcpy(f->sha256, row->fields[3], SHA256_HEX_SIZE);
	f->path = strdup(row->fields[1]);
	if (!f->path)
		goto oom;
	m->count++;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int run_manifest_parse(const char *text, size_t len, struct run_manifest *m,
		       char *err, size_t errlen)
{
	FILE *f;
	struct csv_row row = { 0 };
	unsigned long line = 0;
	int got, rc = -1;

	memset(m, 0, sizeof(*m));
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "MANIFEST holds a NUL byte: not text");
		return -1;
	}
	f = fmemopen((void *)text, len, "r");
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((got = csv_read_row(f, &row, &line)) > 0) {
		const char *key = row.fields[0];
		char **slot = key_slot(m, key);

		if (!strcmp(key, "file")) {
			if (add_file(m, &row, line, err, errlen))
				goto out;
			continue;
		}
		if (!slot) {
			snprintf(err, errlen, "MANIFEST line %lu: unknown key '%.40s'",
				 line, key);
			goto out;
		}
		if (row.count != 2) {
			snprintf(err, errlen, "MANIFEST line %lu: %s needs one value",
				 line, key);
			goto out;
		}
		if (*slot) {
			snprintf(err, errlen, "MANIFEST line %lu: %s appears twice",
				 line, key);
			goto out;
		}
		*slot = strdup(row.fields[1]);
		if (!*slot) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	if (got < 0) {
		snprintf(err, errlen, "MANIFEST line %lu: %s", line, got == -2 ?
			 "a record longer than " CSV_ROW_MAX_TEXT : "malformed CSV");
		goto out;
	}
	{
		static const char *const required[] = {
			"format", "format_version", "schema_version", "run",
			"smapbench_version", "git_revision",
		};

		for (size_t i = 0; i < sizeof(required) / sizeof(*required); i++)
			if (!*key_slot(m, required[i])) {
				snprintf(err, errlen, "MANIFEST has no %s line",
					 required[i]);
				goto out;
			}
	}
	rc = 0;
out:
	csv_row_free(&row);
	fclose(f);
	if (rc)
		run_manifest_free(m);
	return rc;
}

struct run_manifest_file *run_manifest_find(const struct run_manifest *m,
					    const char *path)
{
	for (size_t i = 0; i < m->count; i++)
		if (!strcmp(m->files[i].path, path))
			return &m->files[i];
	return NULL;
}

void run_manifest_free(struct run_manifest *m)
{
	free(m->format);
	free(m->format_version);
	free(m->schema_version);
	free(m->run);
	free(m->smapbench_version);
	free(m->git_revision);
	for (size_t i = 0; i < m->count; i++)
		free(m->files[i].path);
	free(m->files);
	memset(m, 0, sizeof(*m));
}

/* Do recorded and recomputed agree, at the scale of the values around them? */
static int agree(double recorded, double recomputed, double scale)
{
	double size = fmax(fabs(recorded), scale);

	return fabs(recorded - recomputed) <= RUN_ARCHIVE_TOLERANCE * size;
}

int run_check_results(const struct run_dir *run, const char *results_csv,
		      char *err, size_t errlen)
{
	struct csv_table t;
	int rc = -1;
	double *copy = NULL;
	const double *sorted;

	if (run->orphan_samples) {
		snprintf(err, errlen, "samples.csv has %zu rows of benchmarks "
			 "results.csv does not list", run->orphan_samples);
		return -1;
	}
	if (csv_table_load(results_csv, &t, err, errlen))
		return -1;
	if (csv_table_column(&t, "samples") < 0 || csv_table_column(&t, "min") < 0) {
		snprintf(err, errlen, "%s: needs columns samples and min", results_csv);
		goto out;
	}
	if (t.count != run->count) {
		snprintf(err, errlen, "%s: %zu rows, %zu benchmarks loaded",
			 results_csv, t.count, run->count);
		goto out;
	}
	for (size_t i = 0; i < run->count; i++) {
		const struct run_bench *b = &run->bench[i];
		const char *declared = csv_table_get(&t, i, "samples");
		unsigned long long count;
		double median, min, lower, upper;
		size_t mid;
		char *end;

		if (b->source != RUN_VALUES_SAMPLES || !b->count) {
			snprintf(err, errlen, "results.csv:%lu: %s has no sample in "
				 "samples.csv", b->line, b->name);
			goto out;
		}
		errno = 0;
		count = strtoull(declared, &end, 10);
		if (!*declared || *end || errno || count != b->count) {
			snprintf(err, errlen, "results.csv:%lu: %s says %s samples, "
				 "samples.csv has %zu", b->line, b->name, declared,
				 b->count);
			goto out;
		}
		/*
		 * The values ascend already when the benchmark has one
		 * repetition (rundir.h). Several need a repetition column,
		 * 6 bytes a sample at the least: a copy, 8 bytes a sample,
		 * and the run's 12 stay within 4 bytes per byte of
		 * samples.csv. The heapsort takes no buffer of its own.
		 */
		free(copy);
		copy = NULL;
		sorted = b->values;
		if (!stats_sorted_by_repetition(b->values, NULL, b->count)) {
			copy = malloc(b->count * sizeof(*copy));
			if (!copy) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			memcpy(copy, b->values, b->count * sizeof(*copy));
			stats_sort_by_repetition(copy, NULL, b->count);
			sorted = copy;
		}
		median = stats_median_sorted(sorted, b->count);
		min = sorted[0];
		mid = (b->count - 1) / 2;
		lower = fabs(sorted[mid]);
		upper = fabs(sorted[b->count / 2]);
		if (!agree(b->median, median, fmax(lower, upper))) {
			snprintf(err, errlen, "results.csv:%lu: %s: median %.9g, but the "
				 "median of its %zu samples is %.9g", b->line, b->name,
				 b->median, b->count, median);
			goto out;
		}
		if (!isfinite(b->min) || !agree(b->min, min, fabs(min))) {
			snprintf(err, errlen, "results.csv:%lu: %s: min %.9g, but the "
				 "min of its %zu samples is %.9g", b->line, b->name,
				 b->min, b->count, min);
			goto out;
		}
	}
	rc = 0;
out:
	free(copy);
	csv_table_free(&t);
	return rc;
}

int run_check_json(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 16], where[256], *text;
	struct stat st;
	size_t len;
	int rc;

	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (lstat(path, &st) && errno == ENOENT)
		return 0;
	if (json_read_file(path, &text, &len, err, errlen))
		return -1;
	rc = json_validate(text, len, where, sizeof(where));
	if (rc)
		snprintf(err, errlen, "results.json:%s", where);
	free(text);
	return rc ? -1 : 0;
}


/*
 * NULL when v is printable UTF-8, else what it holds and where (bytes
 * counted from 1) in buf: a C0 control byte or DEL; a C1 control, U+0080
 * to U+009F, which UTF-8 writes as 0xc2 0x80 to 0xc2 0x9f (a terminal
 * may act on it as on ESC); a bidirectional control (U+061C, U+200E,
 * U+200F, U+202A to U+202E, U+2066 to U+2069), with which a rendered
 * table shows its text in another order than it has; or bytes that are
 * not UTF-8 as RFC 3629 defines it (no overlong form, no UTF-16
 * surrogate, nothing above U+10FFFF), which each reader would decode its
 * own way.
 */
static const char *text_problem(const unsigned char *v, char *buf,
				size_t len)
{
	for (size_t i = 0; v[i];) {
		unsigned char c = v[i], lo = 0x80, hi = 0xbf;
		size_t more = c < 0x80 ? 0 : c < 0xc2 ? 4 : c < 0xe0 ? 1 :
			      c < 0xf0 ? 2 : c < 0xf5 ? 3 : 4;
		uint32_t cp = more ? c & (0x3fu >> more) : c;	/* the lead's bits */

		if (c < 0x20 || c == 0x7f) {
			snprintf(buf, len, "holds a control byte (0x%02x at byte %zu)",
				 c, i + 1);
			return buf;
		}
		if (more == 4) {
			snprintf(buf, len, "is not UTF-8 (0x%02x at byte %zu %s)", c,
				 i + 1, c < 0xc0 ? "continues no character" :
				 c < 0xc2 ? "starts an overlong form" :
				 "starts no character");
			return buf;
		}
		/* the second byte's range rules out the rest of RFC 3629 */
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
		else if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
		for (size_t k = 1; k <= more; k++, lo = 0x80, hi = 0xbf) {
			unsigned char d = v[i + k];

			if (!d) {
				snprintf(buf, len, "is not UTF-8 (0x%02x at byte %zu "
					 "is cut short by the end of the value)", c, i + 1);
				return buf;
			}
			if (d < 0x80 || d > 0xbf) {
				snprintf(buf, len, "is not UTF-8 (0x%02x at byte %zu does "
					 "not continue 0x%02x at byte %zu)", d, i + k + 1,
					 c, i + 1);
				return buf;
			}
			if (d < lo || d > hi) {
				snprintf(buf, len, "is not UTF-8 (0x%02x 0x%02x at byte "
					 "%zu %s)", c, d, i + 1, c == 0xed ?
					 "starts a UTF-16 surrogate, U+D800 to U+DFFF" :
					 c == 0xf4 ? "starts a code point above U+10FFFF" :
					 "starts an overlong form");
				return buf;
			}
			cp = cp << 6 | (d & 0x3f);
		}
		if (cp >= 0x80 && cp <= 0x9f) {
			snprintf(buf, len, "holds a C1 control character (U+%04X as "
				 "0x%02x 0x%02x at byte %zu)", (unsigned)cp, c, v[i + 1],
				 i + 1);
			return buf;
		}
		if (cp == 0x61c || cp == 0x200e || cp == 0x200f ||
		    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
			snprintf(buf, len, "holds a bidirectional control (U+%04X at "
				 "byte %zu), which would show the text out of order",
				 (unsigned)cp, i + 1);
			return buf;
		}
		i += more + 1;
	}
	return NULL;
}

/*
 * Every key a word ([A-Za-z0-9_], at most RUN_CONTEXT_MAX_KEY bytes), every
 * value printable UTF-8 (text_problem()) and at most RUN_CONTEXT_MAX_VALUE
 * bytes: a stranger's context reaches tables, reports and terminals, and
 * no sink of ours has a use for control characters or for bytes that are
 * not text.
 */
static int run_check_context_text(const struct run_dir *run, char *err,
				  size_t errlen)
{
	for (size_t i = 0; i < run->context_count; i++) {
		const unsigned char *k = (const unsigned char *)run->keys[i];
		const unsigned char *v = (const unsigned char *)run->values[i];
		char problem[160];
		const char *why;
		size_t n = 0;

		for (; k[n]; n++)
			if (!isalnum(k[n]) && k[n] != '_')
				break;
		if (!n || k[n] || n > RUN_CONTEXT_MAX_KEY) {
			snprintf(err, errlen, "context.csv: key %zu is not a word of "
				 "at most %d letters, digits and _", i + 1,
				 RUN_CONTEXT_MAX_KEY);
			return -1;
		}
		n = strlen((const char *)v);
		if ((why = text_problem(v, problem, sizeof(problem)))) {
			snprintf(err, errlen, "context.csv: the value of %s %s", k, why);
			return -1;
		}
		if (n > RUN_CONTEXT_MAX_VALUE) {
			snprintf(err, errlen, "context.csv: the value of %s is %zu "
				 "bytes long, more than %d", k, n, RUN_CONTEXT_MAX_VALUE);
			return -1;
		}
	}
	return 0;
}

int run_schema_known(const char *version)
{
	char known[16];

	for (int v = 1; v <= RUN_SCHEMA_VERSION; v++) {
		snprintf(known, sizeof(known), "%d", v);
		if (!strcmp(version, known))
			return 1;
	}
	return 0;
}

int run_check_context(const struct run_dir *run, char *err, size_t errlen)
{
	const char *schema = rundir_context(run, "schema_version");
	const char *state, *status;
	char name[32];

	if (run_check_context_text(run, err, errlen))
		return -1;
	/* the keys the catalogue has every run carry */
	for (size_t i = 0; i < context_key_count; i++) {
		const char *key = context_keys[i].name;
		const char *v = rundir_context(run, key);
		char required[256] = "";

		if (!(context_keys[i].roles & KEY_REQUIRED) || (v && *v))
			continue;
		for (size_t k = 0; k < context_key_count; k++)
			if (context_keys[k].roles & KEY_REQUIRED)
				snprintf(required + strlen(required),
					 sizeof(required) - strlen(required), "%s%s",
					 *required ? ", " : "", context_keys[k].name);
		snprintf(err, errlen, "context.csv has no %s (required: %s)", key,
			 required);
		return -1;
	}
	if (schema && !run_schema_known(schema)) {
		snprintf(err, errlen, "context.csv: schema_version '%.20s' is not "
			 "one this smapbench reads (1 to %d)", schema,
			 RUN_SCHEMA_VERSION);
		return -1;
	}
	status = rundir_context(run, "status");
	if (status && *status && strcmp(status, "complete") &&
	    strcmp(status, "interrupted")) {
		snprintf(err, errlen, "context.csv: status '%.20s' is neither "
			 "complete nor interrupted", status);
		return -1;
	}
	state = rundir_context(run, "smap_state");
	if (strcmp(state, "smap") && strcmp(state, "nosmap")) {
		snprintf(err, errlen, "context.csv: smap_state '%.20s' is neither "
			 "smap nor nosmap", state);
		return -1;
	}
	if (run_dir_name_dated(name, sizeof(name), "h",
			       rundir_context(run, "date"), state)) {
		snprintf(err, errlen, "context.csv: date '%.40s' is not "
			 "YYYY-mm-ddTHH:MM:SSZ", rundir_context(run, "date"));
		return -1;
	}
	return 0;
}

const char *run_status_note(const char *dir)
{
	struct run_dir run;
	char err[PATH_MAX + 256];
	const char *note = NULL;

	if (rundir_load_context(dir, &run, err, sizeof(err)))
		return NULL;
	if (rundir_incomplete(&run))
		note = "an interrupted run (context.csv: status interrupted): "
		       "compare refuses it without --force, the table leaves it out";
	rundir_free(&run);
	return note;
}
