// SPDX-License-Identifier: GPL-2.0
/*
 * pack.c - a run directory as one ustar archive with a MANIFEST of sizes
 * and SHA-256 sums, to send to whoever keeps the cross-CPU table; see
 * pack.h.
 *
 * The run is checked as import will check it (its files' sizes within
 * import's limits, first, before any is read; then it loads, its results
 * agree with its samples, its context has the keys the table needs), so
 * that a contributor learns of a problem before sending anything. The
 * archive is written beside its target and renamed into place; an
 * existing file is never replaced.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive/pack.h"
#include "archive/run_archive.h"
#include "rundata/atomic_dir.h"
#include "rundata/csv.h"
#include "rundata/rundir.h"
#include "system/version.h"

struct packed_file {
	char *path;			/* relative to the run */
	unsigned long long size;
	long long mtime;
	char sha256[SHA256_HEX_SIZE];
};

struct pack_list {
	struct packed_file *files;
	size_t count;
	long long newest;
};

static void free_list(struct pack_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->files[i].path);
	free(l->files);
	memset(l, 0, sizeof(*l));
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct packed_file *)a)->path,
		      ((const struct packed_file *)b)->path);
}

/*
 * Every regular file under run/relative into l; hidden names (the
 * marker, temporaries of an interrupted writer) are left out. Anything
 * else (a link, a device) is refused: import would refuse it.
 */
static int collect(const char *run, const char *relative, int depth,
		   struct pack_list *l, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX], rel[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s%s%s", run, *relative ? "/" : "", relative);
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	while (!rc && (e = readdir(d))) {
		struct stat st;
		const char *why;

		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(rel, sizeof(rel), "%s%s%s", relative,
				     *relative ? "/" : "", e->d_name) >= sizeof(rel) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    sizeof(path)) {
			snprintf(err, errlen, "%s/%s: path too long", dir, e->d_name);
			rc = -1;
			break;
		}
		if (lstat(path, &st)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			if (depth + 1 >= TAR_DEPTH_MAX - 1) {
				snprintf(err, errlen, "%s: nested too deep", path);
				rc = -1;
			} else {
				rc = collect(run, rel, depth + 1, l, err, errlen);
			}
		} else if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s is not a regular file (a link or "
				 "a device): a run holds regular files only", path);
			rc = -1;
		} else if ((why = run_archive_path_problem(rel))) {
			snprintf(err, errlen, "%s: the name %s", path, why);
			rc = -1;
		} else if (l->count >= RUN_ARCHIVE_MAX_FILES) {
			snprintf(err, errlen, "%s has more than %d files", run,
				 RUN_ARCHIVE_MAX_FILES);
			rc = -1;
		} else {
			struct packed_file *f;

			if (l->count % 32 == 0) {
				f = realloc(l->files, (l->count + 32) * sizeof(*f));
				if (!f) {
					snprintf(err, errlen, "out of memory");
					rc = -1;
					break;
				}
				l->files = f;
			}
			f = &l->files[l->count];
			memset(f, 0, sizeof(*f));
			f->path = strdup(rel);
			if (!f->path) {
				snprintf(err, errlen, "out of memory");
				rc = -1;
				break;
			}
			l->count++;
			f->size = (unsigned long long)st.st_size;
			f->mtime = st.st_mtime;
			if (st.st_mtime > l->newest)
				l->newest = st.st_mtime;
		}
	}
	closedir(d);
	return rc;
}

/*
 * Every file's size (as collected, or as measured) within the limits
 * import sets: judged before any file is read, so that a run import
 * would refuse for a size costs neither the time nor the memory of
 * loading it.
 */
static int check_sizes(const char *run, const struct pack_list *l, char *err,
		       size_t errlen)
{
	unsigned long long total = 0;
	char why[512];

	for (size_t i = 0; i < l->count; i++)
		if (run_archive_check_size(l->files[i].path, l->files[i].size,
					   &total, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s: import would refuse it", run, why);
			return -1;
		}
	return 0;
}

/* Sizes and sums of every file, still within import's limits. */
static int measure(const char *run, struct pack_list *l, char *err,
		   size_t errlen)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < l->count; i++) {
		struct packed_file *f = &l->files[i];

		snprintf(path, sizeof(path), "%s/%s", run, f->path);
		if (sha256_file(path, f->sha256, &f->size)) {
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
			return -1;
		}
	}
	return check_sizes(run, l, err, errlen);
}

static char *manifest_text(const char *name, const char *schema,
			   const struct pack_list *l, size_t *len)
{
	char *text = NULL, number[32], version[16];
	FILE *f = open_memstream(&text, len);
	struct csv_writer w;

	if (!f)
		return NULL;
	csv_writer_init(&w, f);
	snprintf(version, sizeof(version), "%d", RUN_ARCHIVE_FORMAT_VERSION);
	csv_row(&w, (const char *[]){ "format", RUN_ARCHIVE_FORMAT }, 2);
	csv_row(&w, (const char *[]){ "format_version", version }, 2);
	csv_row(&w, (const char *[]){ "schema_version", schema }, 2);
	csv_row(&w, (const char *[]){ "run", name }, 2);
	csv_row(&w, (const char *[]){ "smapbench_version", SMAPBENCH_VERSION }, 2);
	csv_row(&w, (const char *[]){ "git_revision", SMAPBENCH_GIT_REVISION }, 2);
	for (size_t i = 0; i < l->count; i++) {
		snprintf(number, sizeof(number), "%llu", l->files[i].size);
		csv_row(&w, (const char *[]){ "file", l->files[i].path, number,
					      l->files[i].sha256 }, 4);
	}
	if (csv_writer_error(&w) | fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * The run as import will judge it; schema gets the version of the
 * schema it was written in, for the MANIFEST.
 */
static int check_run(const char *run, struct pack_list *l, char *schema,
		     size_t schema_len, char *err, size_t errlen)
{
	static const char *const required[] = {
		"results.csv", "samples.csv", "context.csv",
	};
	struct run_dir loaded;
	char results[PATH_MAX + 16], why[512];
	int rc;

	for (size_t i = 0; i < sizeof(required) / sizeof(*required); i++) {
		struct packed_file key = { .path = (char *)required[i] };

		if (!bsearch(&key, l->files, l->count, sizeof(*l->files), by_path)) {
			snprintf(err, errlen, "%s has no %s: not a run directory of "
				 "smapbench run", run, required[i]);
			return -1;
		}
	}
	if (rundir_load(run, &loaded, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	snprintf(results, sizeof(results), "%s/results.csv", run);
	rc = run_check_context(&loaded, why, sizeof(why)) ||
	     run_check_results(&loaded, results, why, sizeof(why)) ||
	     run_check_json(run, why, sizeof(why)) ? -1 : 0;
	if (rc)
		snprintf(err, errlen, "%s: %s", run, why);
	snprintf(schema, schema_len, "%s",
		 rundir_context_or(&loaded, "schema_version", "1"));
	rundir_free(&loaded);
	return rc;
}

static int write_archive(const char *run, const char *name,
			 const char *schema, const char *out,
			 const struct pack_list *l, char *err, size_t errlen)
{
	struct atomic_file file;
	struct tar_writer w;
	char entry[PATH_MAX], path[PATH_MAX], hex[SHA256_HEX_SIZE];
	size_t len = 0;
	char *manifest = manifest_text(name, schema, l, &len);
	FILE *f;

	if (!manifest) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	f = atomic_file_begin(&file, out, "", err, errlen);
	if (!f) {
		free(manifest);
		return -1;
	}
	tar_writer_init(&w, f);
	snprintf(entry, sizeof(entry), "%.200s/" RUN_ARCHIVE_MANIFEST, name);
	if (tar_write_memory(&w, entry, l->newest, manifest, len, err, errlen))
		goto fail;
	for (size_t i = 0; i < l->count; i++) {
		const struct packed_file *pf = &l->files[i];
		FILE *in;
		int rc;

		snprintf(entry, sizeof(entry), "%.200s/%.3000s", name, pf->path);
		snprintf(path, sizeof(path), "%s/%s", run, pf->path);
		in = fopen(path, "rb");
		if (!in) {
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
			goto fail;
		}
		rc = tar_write_stream(&w, entry, pf->mtime, in, pf->size, hex, err,
				      errlen);
		fclose(in);
		if (rc)
			goto fail;
		if (strcmp(hex, pf->sha256)) {
			snprintf(err, errlen, "%s changed while being packed", path);
			goto fail;
		}
	}
	if (tar_write_end(&w, err, errlen))
		goto fail;
	free(manifest);
	return atomic_file_commit_new(&file, err, errlen);
fail:
	free(manifest);
	atomic_file_abort(&file);
	return -1;
}

int run_pack(const char *run, const char *out, char *written,
	     size_t writtenlen, char *err, size_t errlen)
{
	char name[PATH_MAX], target[PATH_MAX], schema[24];
	struct pack_list list = { 0 };
	struct stat st;
	size_t len;
	int status = -1;

	/* The archive's top directory: RUN's own name. */
	len = strlen(run);
	while (len > 1 && run[len - 1] == '/')
		len--;
	snprintf(name, sizeof(name), "%.*s", (int)len, run);
	if (strrchr(name, '/'))
		memmove(name, strrchr(name, '/') + 1, strlen(strrchr(name, '/')));
	if (stat(run, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is not a directory", run);
		return -1;
	}
	if (run_archive_path_problem(name) || strlen(name) > RUN_ARCHIVE_MAX_NAME) {
		snprintf(err, errlen, "%s: '%s' cannot name a packed run "
			 "(printable ASCII, no comma, not hidden, at most %d "
			 "characters)", run, name, RUN_ARCHIVE_MAX_NAME);
		return -1;
	}
	if (!out) {
		snprintf(target, sizeof(target), "%.200s" RUN_ARCHIVE_SUFFIX, name);
		out = target;
	}
	if (!lstat(out, &st)) {
		snprintf(err, errlen, "%s exists; pack never replaces a "
			 "file (remove it, or give another --out)", out);
		return -1;
	}
	if (collect(run, "", 0, &list, err, errlen))
		goto fail;
	qsort(list.files, list.count, sizeof(*list.files), by_path);
	if (check_sizes(run, &list, err, errlen))
		goto fail;
	for (size_t i = 0; i < list.count; i++) {
		char entry[PATH_MAX];

		snprintf(entry, sizeof(entry), "%s/%s", name, list.files[i].path);
		if (!tar_name_fits(entry)) {
			snprintf(err, errlen, "%s: too long for ustar (at most 100 "
				 "bytes after a directory part of at most 155); "
				 "rename the run or the file", entry);
			goto fail;
		}
	}
	if (check_run(run, &list, schema, sizeof(schema), err, errlen) ||
	    measure(run, &list, err, errlen) ||
	    write_archive(run, name, schema, out, &list, err, errlen))
		goto fail;
	snprintf(written, writtenlen, "%s", out);
	status = 0;
fail:
	free_list(&list);
	return status;
}
