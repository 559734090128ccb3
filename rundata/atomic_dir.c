// SPDX-License-Identifier: GPL-2.0
/* atomic_dir.c - build beside, rename into place; see atomic_dir.h. */
#include "rundata/atomic_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rundata/error.h"

static int fit(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static const char *const plot_suffixes[] = { ".png", ".svg", ".dat", NULL };
static const char *const compare_files[] = { "compare.csv", "compare-settings.csv",
					       "report.md", NULL };

const struct atomic_dir_kind atomic_dir_plots = {
	.name = "plots", .suffixes = plot_suffixes,
};
const struct atomic_dir_kind atomic_dir_compare = {
	.name = "compare", .files = compare_files,
	.subdir = &atomic_dir_plots,
};
const struct atomic_dir_kind atomic_dir_run = { .name = "run" };

/* ------------------------------------------------ interruption */

#define MAX_TEMPORARIES	8
#define MAX_CHILDREN	4

/* Changed only with the stop signals blocked: the handler sees them whole. */
static char temporaries[MAX_TEMPORARIES][PATH_MAX + 32];
static volatile pid_t children[MAX_CHILDREN];
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void block_stop_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void register_temporary(const char *path)
{
	for (size_t i = 0; i < MAX_TEMPORARIES; i++)
		if (!temporaries[i][0]) {
			if (fit(temporaries[i], sizeof(temporaries[i]), "%s", path))
				temporaries[i][0] = '\0';
			return;
		}
}

static void unregister_temporary(const char *path)
{
	for (size_t i = 0; i < MAX_TEMPORARIES; i++)
		if (!strcmp(temporaries[i], path)) {
			temporaries[i][0] = '\0';
			return;
		}
}

void atomic_dir_watch_child(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (!children[i]) {
			children[i] = pid;
			return;
		}
}

void atomic_dir_unwatch_child(pid_t pid)
{
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
}

static void on_stop_signal(int sig)
{
	int saved = errno;

	/* A child still writing would refill what we remove. */
	for (size_t i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0) {
			kill(children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
	for (size_t i = 0; i < MAX_TEMPORARIES; i++)
		if (temporaries[i][0])
			atomic_dir_remove_tree(temporaries[i]);
	/* Die of the signal itself: the caller sees 128 + sig. */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

void atomic_dir_cleanup_on_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

/* ------------------------------------------------ files */

/* Remove dirfd/name, a file or a tree; never follows a symbolic link. */
static int remove_at(int dirfd, const char *name, int depth)
{
	char buf[4096] __attribute__((aligned(8)));
	int fd, rc = 0, again;

	if (!unlinkat(dirfd, name, 0) || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	if (depth > 32) {
		errno = ELOOP;
		return -1;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Entries are removed while listed: list again until none is left. */
	do {
		ssize_t n;

		again = 0;
		lseek(fd, 0, SEEK_SET);
		while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (ssize_t off = 0; off < n;) {
				struct dirent64 *e = (struct dirent64 *)(buf + off);

				off += e->d_reclen;
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				if (remove_at(fd, e->d_name, depth + 1))
					rc = -1;
				else
					again = 1;
			}
		}
	} while (again && !rc);
	close(fd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) && errno != ENOENT)
		rc = -1;
	return rc;
}

int atomic_dir_remove_tree(const char *path)
{
	return remove_at(AT_FDCWD, path, 0);
}

static mode_t publish_mode(int is_dir)
{
	mode_t mask = umask(0);

	umask(mask);
	return (is_dir ? 0777 : 0666) & ~mask;
}

int atomic_dir_make_parents(const char *dir)
{
	char buf[PATH_MAX];
	size_t len = strlen(dir);

	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, dir, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return -1;
	return 0;
}

/* snprintf into a path buffer: 0, or -1 (ENAMETOOLONG) when cut. */
static int fit(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/*
 * After renaming tmp to target (rc: the rename's), with the stop signals
 * blocked: tmp is no longer a temporary of ours; or err says why not.
 */
static int renamed(char *tmp, const char *target, int rc, char *err,
		   size_t errlen)
{
	if (!rc) {
		unregister_temporary(tmp);
		tmp[0] = '\0';
	} else {
		set_err(err, errlen, "cannot rename %s to %s: %s", tmp, target,
			strerror(errno));
	}
	return rc;
}

/* A temporary removed: the stop handler has nothing left to remove. */
static void forget_temporary(char *tmp)
{
	sigset_t old;

	block_stop_signals(&old);
	unregister_temporary(tmp);
	restore_signals(&old);
	tmp[0] = '\0';
}

/* target without trailing slashes into out; its parent and last name. */
static int split_target(const char *target, char *out, char *parent,
			const char **base, char *err, size_t errlen)
{
	size_t len = strlen(target);
	char *slash;

	while (len > 1 && target[len - 1] == '/')
		len--;
	if (!len || len >= PATH_MAX) {
		set_err(err, errlen, "'%s' is not a usable path", target);
		return -1;
	}
	memcpy(out, target, len);
	out[len] = '\0';
	slash = strrchr(out, '/');
	*base = slash ? slash + 1 : out;
	if (!**base || !strcmp(*base, ".") || !strcmp(*base, "..")) {
		set_err(err, errlen, "'%s' names no directory of its own; give a new name", target);
		return -1;
	}
	if (!slash)
		strcpy(parent, ".");
	else if (slash == out)
		strcpy(parent, "/");
	else
		fit(parent, PATH_MAX, "%.*s", (int)(slash - out), out);
	return 0;
}

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
	if (fit(path, sizeof(path), "%s/" ATOMIC_DIR_MARKER, dir))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "smapbench ", 10)) {
		line[strcspn(line, "\n")] = '\0';
		if (fit(kind, len, "%s", line + 10))
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
		if (fit(path, sizeof(path), "%s/%s", dir, e->d_name) ||
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

	if (split_target(target, path, parent, &base, err, errlen))
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

	block_stop_signals(&old);
	made = mkdtemp(d->tmp) != NULL;
	if (made)
		register_temporary(d->tmp);
	restore_signals(&old);
	if (!made) {
		set_err(err, errlen, "cannot create a directory in %s: %s", parent,
			strerror(errno));
		d->tmp[0] = '\0';
		return -1;
	}
	chmod(d->tmp, publish_mode(1));
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
	if (fit(d->tmp, sizeof(d->tmp), "%s/.tmp-XXXXXX", parent)) {
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
	if (split_target(target, d->target, parent, &base, err, errlen) ||
	    atomic_dir_check(d->target, kind, err, errlen))
		return -1;
	if (atomic_dir_make_parents(parent)) {
		set_err(err, errlen, "cannot create %s: %s", parent, strerror(errno));
		return -1;
	}
	if (fit(d->tmp, sizeof(d->tmp), "%s/.%s.tmp-XXXXXX", parent, base)) {
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

	if (fit(path, sizeof(path), "%s/" ATOMIC_DIR_MARKER, d->tmp)) {
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
	if (fit(old, sizeof(old), "%s.old", d->tmp))
		return -1;
	register_temporary(old);
	if (rename(d->target, old)) {
		unregister_temporary(old);
		return -1;
	}
	if (rename(d->tmp, d->target)) {
		int saved = errno;

		rename(old, d->target);
		unregister_temporary(old);
		errno = saved;
		return -1;
	}
	/* what tmp names now is gone; let it name the old one */
	unregister_temporary(old);
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
	block_stop_signals(&old);
	if (!lstat(d->target, &st)) {
		rc = swap_in(d);
	} else {
		rc = renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_NOREPLACE);
		if (rc && (errno == EINVAL || errno == ENOSYS))
			rc = rename(d->tmp, d->target);
		if (!rc) {
			unregister_temporary(d->tmp);
			d->tmp[0] = '\0';
		}
	}
	if (rc)
		set_err(err, errlen, "cannot put %s in place of %s: %s", d->tmp,
			d->target, strerror(errno));
	restore_signals(&old);
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
	block_stop_signals(&old);
	for (int n = 1; n < 100; n++) {
		if (n == 1 ? fit(d->target, sizeof(d->target), "%s/%s", parent, name)
			   : fit(d->target, sizeof(d->target), "%s/%s-%d", parent,
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
	rc = renamed(d->tmp, d->target, rc, err, errlen);
	restore_signals(&old);
	atomic_dir_abort(d);
	return rc;
}

void atomic_dir_abort(struct atomic_dir *d)
{
	if (!d->tmp[0])
		return;
	atomic_dir_remove_tree(d->tmp);
	forget_temporary(d->tmp);
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

/* ------------------------------------------------ one file */

FILE *atomic_file_begin(struct atomic_file *f, const char *target,
			const char *ours_prefix, char *err, size_t errlen)
{
	char parent[PATH_MAX];
	const char *base;
	struct stat st;
	sigset_t old;
	int fd;

	memset(f, 0, sizeof(*f));
	if (split_target(target, f->target, parent, &base, err, errlen))
		return NULL;
	if (!lstat(f->target, &st)) {
		char head[64] = "";
		size_t want = strlen(ours_prefix);
		FILE *in;

		if (!S_ISREG(st.st_mode)) {
			set_err(err, errlen, "%s exists and is not a regular file",
				f->target);
			return NULL;
		}
		in = fopen(f->target, "r");
		if (want >= sizeof(head) || !in ||
		    fread(head, 1, want, in) != want || memcmp(head, ours_prefix, want)) {
			set_err(err, errlen, "%s exists and was not written by "
				"smapbench (it does not start with '%s'); not "
				"replacing it", f->target, ours_prefix);
			if (in)
				fclose(in);
			return NULL;
		}
		fclose(in);
	}
	if (fit(f->tmp, sizeof(f->tmp), "%s/.%s.XXXXXX", parent, base)) {
		set_err(err, errlen, "%s: path too long", f->target);
		f->tmp[0] = '\0';
		return NULL;
	}
	block_stop_signals(&old);
	fd = mkstemp(f->tmp);
	if (fd >= 0)
		register_temporary(f->tmp);
	restore_signals(&old);
	if (fd < 0) {
		set_err(err, errlen, "cannot create a file in %s: %s", parent,
			strerror(errno));
		f->tmp[0] = '\0';
		return NULL;
	}
	fchmod(fd, publish_mode(0));
	f->file = fdopen(fd, "w");
	if (!f->file) {
		set_err(err, errlen, "%s: %s", f->tmp, strerror(errno));
		close(fd);
		atomic_file_abort(f);
	}
	return f->file;
}

/* Close the written file; after a write error say so and remove it. */
static int close_written(struct atomic_file *f, char *err, size_t errlen)
{
	int failed = ferror(f->file);

	if (fclose(f->file) || failed) {
		f->file = NULL;
		set_err(err, errlen, "writing %s failed: %s", f->tmp,
			strerror(errno ? errno : EIO));
		atomic_file_abort(f);
		return -1;
	}
	f->file = NULL;
	return 0;
}

int atomic_file_commit(struct atomic_file *f, char *err, size_t errlen)
{
	sigset_t old;
	int rc;

	if (close_written(f, err, errlen))
		return -1;
	block_stop_signals(&old);
	rc = renamed(f->tmp, f->target, rename(f->tmp, f->target), err, errlen);
	restore_signals(&old);
	atomic_file_abort(f);
	return rc;
}

int atomic_file_commit_new(struct atomic_file *f, char *err, size_t errlen)
{
	sigset_t old;
	int rc;

	if (close_written(f, err, errlen))
		return -1;
	block_stop_signals(&old);
	rc = renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->target, RENAME_NOREPLACE);
	if (rc && (errno == EINVAL || errno == ENOSYS)) {
		/* no NOREPLACE here: a hard link never replaces either */
		rc = link(f->tmp, f->target);
		if (!rc)
			unlink(f->tmp);
	}
	rc = renamed(f->tmp, f->target, rc, err, errlen);
	restore_signals(&old);
	atomic_file_abort(f);
	return rc;
}

void atomic_file_abort(struct atomic_file *f)
{
	if (f->file)
		fclose(f->file);
	f->file = NULL;
	if (!f->tmp[0])
		return;
	unlink(f->tmp);
	forget_temporary(f->tmp);
}
