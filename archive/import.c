// SPDX-License-Identifier: GPL-2.0
/*
 * import.c - take runs packed by `smapbench pack`, possibly on a
 * stranger's machine, and place each under DIR with the name `smapbench
 * run` gives it; see import.h.
 *
 * An archive is untrusted input. It is read twice. The first pass writes
 * nothing: the tar structure (tar.h refuses links, devices, paths
 * out of the run, damaged or truncated archives, sizes past the limits
 * before reading them), the MANIFEST first and its format and schema
 * versions, every file listed once with its size and SHA-256 and nothing
 * unlisted, the files a run needs, the context keys the table needs, and
 * no run under DIR with the same name or the same samples.csv. The second
 * pass extracts into a temporary directory inside DIR (atomic_dir.h),
 * checking every sum again, loads the run with the project's own reader,
 * recomputes results.csv from samples.csv, and only then renames it into
 * place. On any refusal, or SIGINT/SIGTERM/SIGHUP, the temporary
 * directory is removed: DIR holds what it held before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/import.h"
#include "archive/run_archive.h"
#include "rundata/atomic_dir.h"
#include "rundata/csv.h"
#include "rundata/rundir.h"

/* What the first pass learnt of an archive. */
struct inspected {
	struct run_manifest manifest;
	char top[TAR_PATH_MAX + 1];	/* the archive's directory */
	char name[PATH_MAX];		/* canonical name under DIR */
	const char *samples_sha256;	/* from the (verified) manifest */
};

static const struct tar_limits archive_limits = {
	.max_file = RUN_ARCHIVE_MAX_FILE,
	.max_total = RUN_ARCHIVE_MAX_TOTAL,
	.max_entries = RUN_ARCHIVE_MAX_FILES + 1,	/* and the MANIFEST */
};

static const char *const required_files[] = {
	"results.csv", "samples.csv", "context.csv", NULL,
};

/* ------------------------------------------------------- first pass */

/* The whole data of the current entry, at most limit bytes, NUL-ended. */
static char *read_entry(struct tar_reader *r, const struct tar_entry *e,
			unsigned long long limit, char *err, size_t errlen)
{
	char *data;
	size_t got = 0;
	long n;

	if (e->size > limit) {
		snprintf(err, errlen, "%s: %llu bytes, more than the %llu a real "
			 "one has", e->relative, e->size, limit);
		return NULL;
	}
	data = malloc((size_t)e->size + 1);
	if (!data) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	while ((n = tar_read(r, data + got, (size_t)e->size - got, err, errlen)) > 0)
		got += (size_t)n;
	if (n < 0) {
		free(data);
		return NULL;
	}
	data[got] = '\0';
	return data;
}

/* Stream the current entry's data through SHA-256 (and into out). */
static int hash_entry(struct tar_reader *r, char hex[SHA256_HEX_SIZE], int out,
		      const char *shown, char *err, size_t errlen)
{
	unsigned char buf[65536], digest[SHA256_DIGEST_SIZE];
	struct sha256 s;
	long n;

	sha256_init(&s);
	while ((n = tar_read(r, buf, sizeof(buf), err, errlen)) > 0) {
		sha256_update(&s, buf, (size_t)n);
		if (out >= 0 && write(out, buf, (size_t)n) != n) {
			snprintf(err, errlen, "writing %s: %s", shown, strerror(errno));
			return -1;
		}
	}
	if (n < 0)
		return -1;
	sha256_final(&s, digest);
	sha256_to_hex(digest, hex);
	return 0;
}

static int check_manifest(const struct run_manifest *m, const char *top,
			  char *err, size_t errlen)
{
	unsigned long long total = 0;
	char version[16];

	if (strcmp(m->format, RUN_ARCHIVE_FORMAT)) {
		snprintf(err, errlen, "MANIFEST format '%.40s' is not %s",
			 m->format, RUN_ARCHIVE_FORMAT);
		return -1;
	}
	snprintf(version, sizeof(version), "%d", RUN_ARCHIVE_FORMAT_VERSION);
	if (strcmp(m->format_version, version)) {
		snprintf(err, errlen, "MANIFEST format_version '%.20s' is not one "
			 "this smapbench reads (%s)", m->format_version, version);
		return -1;
	}
	if (!run_schema_known(m->schema_version)) {
		snprintf(err, errlen, "MANIFEST schema_version '%.20s' is not one "
			 "this smapbench reads (1 to %d)", m->schema_version,
			 RUN_SCHEMA_VERSION);
		return -1;
	}
	if (strcmp(m->run, top)) {
		snprintf(err, errlen, "the MANIFEST names run '%.100s', the "
			 "archive's directory is '%s'", m->run, top);
		return -1;
	}
	if (run_archive_path_problem(top) || strlen(top) > RUN_ARCHIVE_MAX_NAME) {
		snprintf(err, errlen, "'%s' cannot name a run", top);
		return -1;
	}
	for (size_t i = 0; required_files[i]; i++)
		if (!run_manifest_find(m, required_files[i])) {
			snprintf(err, errlen, "the MANIFEST lists no %s: a run has "
				 "results.csv, samples.csv and context.csv",
				 required_files[i]);
			return -1;
		}
	/*
	 * Every size the MANIFEST declares within its limit before any data
	 * is read (pack refuses the same): the files read whole into tables
	 * get limits far below the others.
	 */
	for (size_t i = 0; i < m->count; i++)
		if (run_archive_check_size(m->files[i].path, m->files[i].size,
					   &total, err, errlen))
			return -1;
	return 0;
}

/*
 * context.csv (from the archive, in memory) checked for the keys the
 * table needs; the run's canonical name into in->name.
 */
static int check_context(const char *text, size_t len, struct inspected *in,
			 char *err, size_t errlen)
{
	struct run_dir run = { 0 };
	FILE *f = fmemopen((void *)text, len ? len : 1, "r");
	int rc = -1;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* the reader every command uses, on the archive's copy */
	if (rundir_read_context(f, "context.csv", &run, err, errlen) ||
	    run_check_context(&run, err, errlen))
		goto out;
	run_dir_name_dated(in->name, sizeof(in->name), rundir_context(&run, "host"),
			   rundir_context(&run, "date"),
			   rundir_context(&run, "smap_state"));
	if (run_archive_path_problem(in->name) || strlen(in->name) > RUN_ARCHIVE_MAX_NAME) {
		snprintf(err, errlen, "context.csv: host '%.60s' makes no usable "
			 "run name", rundir_context(&run, "host"));
		goto out;
	}
	rc = 0;
out:
	rundir_free(&run);
	fclose(f);
	return rc;
}

/* No run under data by that name, nor one with the same samples.csv. */
static int check_duplicate(const char *data, const struct inspected *in,
			   char *err, size_t errlen)
{
	char path[PATH_MAX * 2], hex[SHA256_HEX_SIZE];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", data, in->name);
	if (!lstat(path, &st)) {
		snprintf(err, errlen, "%.1000s already exists: this run was imported "
			 "before (a duplicate)", path);
		return -1;
	}
	d = opendir(data);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while (!rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/samples.csv", data, e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) || sha256_file(path, hex, NULL))
			continue;
		if (!strcmp(hex, in->samples_sha256)) {
			snprintf(err, errlen, "its samples.csv is the one of %s/%s: "
				 "the same run (a duplicate)", data, e->d_name);
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

/* Pass 1: everything that can be judged without writing. */
static int inspect(FILE *f, const char *data, struct inspected *in, char *err,
		   size_t errlen)
{
	struct tar_reader r;
	struct tar_entry e;
	char *manifest = NULL, *context = NULL, hex[SHA256_HEX_SIZE];
	size_t context_len = 0;
	int got, rc = -1;

	tar_reader_init(&r, f, &archive_limits);
	got = tar_next(&r, &e, err, errlen);
	if (got <= 0) {
		if (!got)
			snprintf(err, errlen, "an empty archive");
		goto out;
	}
	if (strcmp(e.relative, RUN_ARCHIVE_MANIFEST)) {
		snprintf(err, errlen, "the first entry is %s, not the MANIFEST: "
			 "not an archive of smapbench pack", e.path);
		goto out;
	}
	manifest = read_entry(&r, &e, RUN_ARCHIVE_MAX_MANIFEST, err, errlen);
	if (!manifest || run_manifest_parse(manifest, e.size, &in->manifest, err, errlen))
		goto out;
	snprintf(in->top, sizeof(in->top), "%s", r.top);
	if (check_manifest(&in->manifest, in->top, err, errlen))
		goto out;
	while ((got = tar_next(&r, &e, err, errlen)) > 0) {
		struct run_manifest_file *mf = run_manifest_find(&in->manifest, e.relative);

		if (!mf) {
			snprintf(err, errlen, "%s is in the archive but not in the "
				 "MANIFEST", e.relative);
			goto out;
		}
		if (e.size != mf->size) {
			snprintf(err, errlen, "%s: the archive says %llu bytes, the "
				 "MANIFEST %llu", e.relative, e.size, mf->size);
			goto out;
		}
		if (!strcmp(e.relative, "context.csv")) {
			context = read_entry(&r, &e, RUN_ARCHIVE_MAX_CONTEXT, err, errlen);
			if (!context)
				goto out;
			context_len = (size_t)e.size;
			sha256_hex(context, context_len, hex);
		} else if (hash_entry(&r, hex, -1, e.relative, err, errlen)) {
			goto out;
		}
		if (strcmp(hex, mf->sha256)) {
			snprintf(err, errlen, "%s: its SHA-256 is not the MANIFEST's "
				 "(damaged or altered)", e.relative);
			goto out;
		}
		mf->seen = 1;
	}
	if (got < 0)
		goto out;
	for (size_t i = 0; i < in->manifest.count; i++)
		if (!in->manifest.files[i].seen) {
			snprintf(err, errlen, "%s is listed in the MANIFEST but not "
				 "in the archive", in->manifest.files[i].path);
			goto out;
		}
	in->samples_sha256 = run_manifest_find(&in->manifest, "samples.csv")->sha256;
	if (check_context(context, context_len, in, err, errlen) ||
	    check_duplicate(data, in, err, errlen))
		goto out;
	rc = 0;
out:
	free(manifest);
	free(context);
	tar_reader_free(&r);
	return rc;
}

/* ------------------------------------------------------ second pass */

/* Open dir/relative for writing, making its directories: all ours. */
static int create_file(const char *dir, const char *relative, char *err,
		       size_t errlen)
{
	char path[PATH_MAX * 2];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, relative);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			snprintf(err, errlen, "cannot create %.1000s: %s", path, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		snprintf(err, errlen, "cannot create %.1000s: %s", path, strerror(errno));
	return fd;
}

/* Pass 2: extract into dir (a temporary one), every sum checked again. */
static int extract(FILE *f, const char *dir, struct inspected *in, char *err,
		   size_t errlen)
{
	struct tar_reader r;
	struct tar_entry e;
	char hex[SHA256_HEX_SIZE];
	int got, rc = -1;

	rewind(f);
	tar_reader_init(&r, f, &archive_limits);
	while ((got = tar_next(&r, &e, err, errlen)) > 0) {
		struct run_manifest_file *mf = run_manifest_find(&in->manifest, e.relative);
		struct timespec times[2] = { { .tv_nsec = UTIME_OMIT },
					     { .tv_sec = e.mtime } };
		int fd, failed;

		if (!strcmp(e.relative, RUN_ARCHIVE_MANIFEST))
			continue;
		if (!mf || e.size != mf->size) {
			snprintf(err, errlen, "the archive changed while being read");
			goto out;
		}
		fd = create_file(dir, e.relative, err, errlen);
		if (fd < 0)
			goto out;
		failed = hash_entry(&r, hex, fd, e.relative, err, errlen);
		futimens(fd, times);
		if (close(fd) && !failed) {
			snprintf(err, errlen, "writing %s: %s", e.relative, strerror(errno));
			failed = 1;
		}
		if (failed)
			goto out;
		if (strcmp(hex, mf->sha256)) {
			snprintf(err, errlen, "%s: the archive changed while being "
				 "read (its SHA-256 differs now)", e.relative);
			goto out;
		}
	}
	rc = got;
out:
	tar_reader_free(&r);
	return rc;
}

/* The run extracted in dir, judged as compare and the table will read it. */
static int check_run(const char *dir, char *err, size_t errlen)
{
	struct run_dir run;
	char results[PATH_MAX + 64];
	int rc;

	if (rundir_load(dir, &run, err, errlen))
		return -1;
	snprintf(results, sizeof(results), "%s/results.csv", dir);
	rc = run_check_context(&run, err, errlen) ||
	     run_check_results(&run, results, err, errlen) ||
	     run_check_json(dir, err, errlen) ? -1 : 0;
	rundir_free(&run);
	return rc;
}

/* Messages about the temporary directory name the run instead. */
static void name_run_in(char *err, size_t errlen, const char *tmp,
			const char *top)
{
	char *at = strstr(err, tmp), rest[1024];

	if (!at)
		return;
	snprintf(rest, sizeof(rest), "%s", at + strlen(tmp));
	snprintf(at, errlen - (size_t)(at - err), "%s%s", top, rest);
}

/*
 * The directories of data that did not exist before, outermost first
 * (they are removed again on failure, innermost first).
 */
struct made_dirs {
	char path[8][PATH_MAX];
	int count;
};

static void note_missing(const char *data, struct made_dirs *made)
{
	char path[PATH_MAX];
	struct stat st;

	made->count = 0;
	snprintf(path, sizeof(path), "%s", data);
	/* from data upwards, while missing */
	while (made->count < 8 && lstat(path, &st) && errno == ENOENT) {
		char *slash;

		memmove(made->path[1], made->path[0], (size_t)made->count * PATH_MAX);
		snprintf(made->path[0], PATH_MAX, "%s", path);
		made->count++;
		slash = strrchr(path, '/');
		if (!slash || slash == path)
			break;
		*slash = '\0';
	}
}

static void remove_made(const struct made_dirs *made)
{
	for (int i = made->count - 1; i >= 0; i--)
		rmdir(made->path[i]);
}

int run_import(const char *archive, const char *data, char *final,
	       size_t finallen, char *err, size_t errlen)
{
	struct inspected in;
	struct atomic_dir dir;
	struct made_dirs made;
	struct stat st;
	FILE *f = fopen(archive, "rb");
	int rc = -1;

	memset(&in, 0, sizeof(in));
	memset(&dir, 0, sizeof(dir));
	if (!f) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		goto out;
	}
	if (inspect(f, data, &in, err, errlen))
		goto out;
	note_missing(data, &made);
	if (atomic_dir_begin_in(&dir, data, &atomic_dir_run, err, errlen)) {
		remove_made(&made);
		goto out;
	}
	if (extract(f, dir.tmp, &in, err, errlen) || check_run(dir.tmp, err, errlen) ||
	    check_duplicate(data, &in, err, errlen)) {
		name_run_in(err, errlen, dir.tmp, in.top);
		atomic_dir_abort(&dir);
		remove_made(&made);
		goto out;
	}
	if (atomic_dir_commit_new(&dir, data, in.name, err, errlen)) {
		remove_made(&made);
		goto out;
	}
	snprintf(final, finallen, "%s", dir.target);
	rc = 0;
out:
	run_manifest_free(&in.manifest);
	fclose(f);
	return rc;
}
