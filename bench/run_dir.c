// SPDX-License-Identifier: GPL-2.0
/* run_dir.c - atomic run directories; see run_dir.h. */
#include "run_dir.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int mkdir_parents(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

int run_dir_create(struct run_dir_writer *d, const char *parent, char *err,
		   size_t errlen)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	snprintf(d->parent, sizeof(d->parent), "%s", parent);
	if (mkdir_parents(parent)) {
		snprintf(err, errlen, "cannot create output directory %s: %s",
			 parent, strerror(errno));
		return -1;
	}
	if (stat(parent, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "output path %s is not a directory", parent);
		return -1;
	}
	snprintf(d->tmp, sizeof(d->tmp), "%s/.tmp-XXXXXX", parent);
	if (!mkdtemp(d->tmp)) {
		snprintf(err, errlen, "cannot create a directory in %s: %s",
			 parent, strerror(errno));
		d->tmp[0] = '\0';
		return -1;
	}
	return 0;
}

FILE *run_dir_open(struct run_dir_writer *d, const char *name, char *err,
		   size_t errlen)
{
	char path[4400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", d->tmp, name);
	f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	return f;
}

int run_dir_close(FILE *f, const char *name, char *err, size_t errlen)
{
	int failed = ferror(f);

	if (fclose(f) || failed) {
		snprintf(err, errlen, "writing %s failed: %s", name,
			 strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

void run_dir_publish_mode(const char *path, int is_dir)
{
	mode_t mask = umask(0);

	umask(mask);
	chmod(path, (is_dir ? 0777 : 0666) & ~mask);
}

int run_dir_commit(struct run_dir_writer *d, const char *name, char *err,
		   size_t errlen)
{
	run_dir_publish_mode(d->tmp, 1);
	for (int n = 1; n < 100; n++) {
		if (n == 1)
			snprintf(d->final, sizeof(d->final), "%s/%s", d->parent,
				 name);
		else
			snprintf(d->final, sizeof(d->final), "%s/%s-%d",
				 d->parent, name, n);
		/* renameat2(NOREPLACE) would do; a taken name is a directory. */
		if (access(d->final, F_OK) == 0)
			continue;
		if (rename(d->tmp, d->final) == 0) {
			d->tmp[0] = '\0';
			return 0;
		}
		if (errno != EEXIST && errno != ENOTEMPTY)
			break;
	}
	snprintf(err, errlen, "cannot rename %s to %s: %s", d->tmp, d->final,
		 strerror(errno));
	return -1;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int run_dir_remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void run_dir_abort(struct run_dir_writer *d)
{
	if (d->tmp[0])
		run_dir_remove_tree(d->tmp);
	d->tmp[0] = '\0';
}

void run_dir_name(char *buf, size_t len, const char *host, const char *state)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t n;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	n = (size_t)snprintf(buf, len, "%s-%s-%s", host && *host ? host : "host",
			     stamp, state);
	for (size_t i = 0; i < n && i < len; i++)
		if (buf[i] == '/' || buf[i] == ' ' || buf[i] == '\\')
			buf[i] = '_';
}
