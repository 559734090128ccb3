// SPDX-License-Identifier: GPL-2.0
/* atomic_dir.c - build beside, rename into place; see atomic_dir.h. */
#include "rundata/atomic_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundata/error.h"

static const char *const plot_suffixes[] = { ".png", ".svg", ".dat", NULL };
static const char *const compare_files[] = { "compare.csv", "compare.json",
					       "compare-settings.csv",
					       "pair-fit.csv", "report.md", NULL };

const struct atomic_dir_kind atomic_dir_plots = {
	.name = "plots", .suffixes = plot_suffixes,
};
const struct atomic_dir_kind atomic_dir_compare = {
	.name = "compare", .files = compare_files,
	.subdir = &atomic_dir_plots,
};
const struct atomic_dir_kind atomic_dir_run = { .name = "run" };

static int has_suffix(const char *name, const char *const *suffixes)
{
	size_t len = strlen(name);

	for (size_t i = 0; suffixes && suffixes[i]; i++) {
		size_t s = strlen(suffixes[i]);

		if (len > s && !strcmp(name + len - s, suffixes[i]))
			return 1;
	}
	return 0;
}

static int in_list(const char *name, const char *const *list)
{
	for (size_t i = 0; list && list[i]; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

void atomic_dir_marker(const char *dir, char *kind, size_t len)
{
	char path[PATH_MAX + 16], line[128] = "";
	FILE *f;

	kind[0] = '\0';
	if (atomic_fit(path, sizeof(path), "%s/" ATOMIC_DIR_MARKER, dir))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "smapbench ", 10)) {
		line[strcspn(line, "\n")] = '\0';
		if (atomic_fit(kind, len, "%s", line + 10))
			snprintf(kind, len, "?");
	}
	fclose(f);
}

/*
 * 0 when dir (an existing directory) may be replaced as kind; else -1,
 * with what is in the way in err.
 */
static int replaceable(const char *dir, const struct atomic_dir_kind *kind,
		       char *err, size_t errlen)
{
	char marked[64], path[PATH_MAX + 256];
	DIR *d;
	struct dirent *e;
	int rc = 0;

	atomic_dir_marker(dir, marked, sizeof(marked));
	if (*marked && strcmp(marked, kind->name)) {
		set_err(err, errlen, "%s is a smapbench %s directory%s, not a %s output",
			dir, marked, !strcmp(marked, "run") ? " (an input)" : "",
			kind->name);
		return -1;
	}
	/* Ours or not, a file put into it by someone else is kept. */
	d = opendir(dir);
	if (!d) {
		set_err(err, errlen, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	while (!rc && (e = readdir(d))) {
		struct stat st;
		const char *why = NULL;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (atomic_fit(path, sizeof(path), "%s/%s", dir, e->d_name) ||
		    lstat(path, &st)) {
			why = "cannot be examined";
		} else if (!strcmp(e->d_name, "results.csv") ||
			   !strcmp(e->d_name, "samples.csv") ||
			   !strcmp(e->d_name, "results.json")) {
			set_err(err, errlen, "%s is a run directory (it has %s): "
				"an input, never replaced", dir, e->d_name);
			rc = -1;
			break;
		} else if (S_ISREG(st.st_mode) &&
			   (!strcmp(e->d_name, ATOMIC_DIR_MARKER) ||
			    in_list(e->d_name, kind->files) ||
			    has_suffix(e->d_name, kind->suffixes))) {
			continue;
		} else if (S_ISDIR(st.st_mode) && kind->subdir &&
			   !strcmp(e->d_name, kind->subdir->name)) {
			char inner[PATH_MAX + 256];

			if (!replaceable(path, kind->subdir, inner, sizeof(inner)))
				continue;
			set_err(err, errlen, "%s", inner);
			rc = -1;
			break;
		} else {
			why = "smapbench did not write";
		}
		set_err(err, errlen, "%s holds '%s', which %s", dir, e->d_name, why);
		rc = -1;
	}
	closedir(d);
	return rc;
}

int atomic_dir_check(const char *target, const struct atomic_dir_kind *kind,
		     char *err, size_t errlen)
{
	char path[PATH_MAX], parent[PATH_MAX];
	const char *base;
	struct stat st;

	if (atomic_split_target(target, path, parent, &base, err, errlen))
		return -1;
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		set_err(err, errlen, "%s is a symbolic link; smapbench does not "
			"write through one", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "%s exists and is not a directory", path);
		return -1;
	}
	return replaceable(path, kind, err, errlen);
}

/* Make the temporary directory from the template in d->tmp. */
static int make_temporary(struct atomic_dir *d, const char *parent, char *err,
			  size_t errlen)
{
	sigset_t old;
	int made;

	atomic_block_stop_signals(&old);
	made = mkdtemp(d->tmp) != NULL;
	if (made)
		atomic_register_temporary(d->tmp);
	atomic_restore_signals(&old);
	if (!made) {
		set_err(err, errlen, "cannot create a directory in %s: %s", parent,
			strerror(errno));
		d->tmp[0] = '\0';
		return -1;
	}
	chmod(d->tmp, atomic_publish_mode(1));
	return 0;
}

int atomic_dir_begin_in(struct atomic_dir *d, const char *parent,
			const struct atomic_dir_kind *kind, char *err,
			size_t errlen)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->kind = kind;
	if (atomic_dir_make_parents(parent)) {
		set_err(err, errlen, "cannot create output directory %s: %s",
			parent, strerror(errno));
		return -1;
	}
	if (stat(parent, &st) || !S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "output path %s is not a directory", parent);
		return -1;
	}
	if (atomic_fit(d->tmp, sizeof(d->tmp), "%s/.tmp-XXXXXX", parent)) {
		set_err(err, errlen, "%s: path too long", parent);
		d->tmp[0] = '\0';
		return -1;
	}
	return make_temporary(d, parent, err, errlen);
}

int atomic_dir_begin(struct atomic_dir *d, const char *target,
		     const struct atomic_dir_kind *kind, char *err,
		     size_t errlen)
{
	char parent[PATH_MAX];
	const char *base;

	memset(d, 0, sizeof(*d));
	d->kind = kind;
	if (atomic_split_target(target, d->target, parent, &base, err, errlen) ||
	    atomic_dir_check(d->target, kind, err, errlen))
		return -1;
	if (atomic_dir_make_parents(parent)) {
		set_err(err, errlen, "cannot create %s: %s", parent, strerror(errno));
		return -1;
	}
	if (atomic_fit(d->tmp, sizeof(d->tmp), "%s/.%s.tmp-XXXXXX", parent, base)) {
		set_err(err, errlen, "%s: path too long", d->target);
		d->tmp[0] = '\0';
		return -1;
	}
	return make_temporary(d, parent, err, errlen);
}

static int write_marker(struct atomic_dir *d, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	FILE *f;
	int failed;

	if (atomic_fit(path, sizeof(path), "%s/" ATOMIC_DIR_MARKER, d->tmp)) {
		set_err(err, errlen, "%s: path too long", d->tmp);
		return -1;
	}
	f = fopen(path, "w");
	if (!f) {
		set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "smapbench %s\n", d->kind->name);
	failed = ferror(f);
	if (fclose(f) || failed) {
		set_err(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}

/* Swap tmp and target, both existing: exchange, or move the old aside. */
static int swap_in(struct atomic_dir *d)
{
	char old[PATH_MAX + 32];

	if (!renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_EXCHANGE))
		return 0;	/* the old one now has the temporary name */
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* No exchange here (some network file systems): two renames. */
	if (atomic_fit(old, sizeof(old), "%s.old", d->tmp))
		return -1;
	atomic_register_temporary(old);
	if (rename(d->target, old)) {
		atomic_unregister_temporary(old);
		return -1;
	}
	if (rename(d->tmp, d->target)) {
		int saved = errno;

		rename(old, d->target);
		atomic_unregister_temporary(old);
		errno = saved;
		return -1;
	}
	/* what tmp names now is gone; let it name the old one */
	atomic_unregister_temporary(old);
	if (rename(old, d->tmp))
		atomic_dir_remove_tree(old);
	return 0;
}

int atomic_dir_commit(struct atomic_dir *d, char *err, size_t errlen)
{
	struct stat st;
	sigset_t old;
	int rc;

	if (write_marker(d, err, errlen) ||
	    atomic_dir_check(d->target, d->kind, err, errlen)) {
		atomic_dir_abort(d);
		return -1;
	}
	atomic_block_stop_signals(&old);
	if (!lstat(d->target, &st)) {
		rc = swap_in(d);
	} else {
		rc = renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_NOREPLACE);
		if (rc && (errno == EINVAL || errno == ENOSYS))
			rc = rename(d->tmp, d->target);
		if (!rc) {
			atomic_unregister_temporary(d->tmp);
			d->tmp[0] = '\0';
		}
	}
	if (rc)
		set_err(err, errlen, "cannot put %s in place of %s: %s", d->tmp,
			d->target, strerror(errno));
	atomic_restore_signals(&old);
	/* After a swap the temporary name holds the old directory. */
	atomic_dir_abort(d);
	return rc ? -1 : 0;
}

int atomic_dir_commit_new(struct atomic_dir *d, const char *parent,
			  const char *name, char *err, size_t errlen)
{
	sigset_t old;
	int rc = -1;

	if (write_marker(d, err, errlen)) {
		atomic_dir_abort(d);
		return -1;
	}
	atomic_block_stop_signals(&old);
	for (int n = 1; n < 100; n++) {
		if (n == 1 ? atomic_fit(d->target, sizeof(d->target), "%s/%s", parent, name)
			   : atomic_fit(d->target, sizeof(d->target), "%s/%s-%d", parent,
				 name, n)) {
			rc = -1;
			break;
		}
		rc = renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target,
			       RENAME_NOREPLACE);
		if (rc && (errno == EINVAL || errno == ENOSYS)) {
			/* without NOREPLACE, an empty directory would be replaced */
			errno = EEXIST;
			rc = access(d->target, F_OK) ? rename(d->tmp, d->target) : -1;
		}
		if (!rc || (errno != EEXIST && errno != ENOTEMPTY))
			break;
	}
	rc = atomic_renamed(d->tmp, d->target, rc, err, errlen);
	atomic_restore_signals(&old);
	atomic_dir_abort(d);
	return rc;
}

void atomic_dir_abort(struct atomic_dir *d)
{
	if (!d->tmp[0])
		return;
	atomic_dir_remove_tree(d->tmp);
	atomic_forget_temporary(d->tmp);
}

FILE *atomic_dir_open(const struct atomic_dir *d, const char *name, char *err,
		      size_t errlen)
{
	char path[PATH_MAX + 64];
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", d->tmp, name) >=
	    sizeof(path)) {
		snprintf(err, errlen, "%s/%s: path too long", d->tmp, name);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	return f;
}

int atomic_dir_close(FILE *f, const char *name, char *err, size_t errlen)
{
	int failed = ferror(f);

	if (fclose(f) || failed) {
		snprintf(err, errlen, "writing %s failed: %s", name,
			 strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int atomic_dir_write(const struct atomic_dir *d, const char *name,
		     atomic_dir_writer *writer, const void *arg, char *err,
		     size_t errlen)
{
	FILE *f = atomic_dir_open(d, name, err, errlen);

	if (!f)
		return -1;
	if (writer(f, arg)) {
		fclose(f);
		snprintf(err, errlen, "writing %s failed", name);
		return -1;
	}
	return atomic_dir_close(f, name, err, errlen);
}

int atomic_dir_copy_in(const struct atomic_dir *d, const char *from,
		       const char *name, char *err, size_t errlen)
{
	FILE *in = fopen(from, "r"), *out;
	char buf[65536];
	size_t n;

	if (!in) {
		snprintf(err, errlen, "cannot read %s: %s", from, strerror(errno));
		return -1;
	}
	out = atomic_dir_open(d, name, err, errlen);
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return atomic_dir_close(out, name, err, errlen);
}

