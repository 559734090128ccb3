// SPDX-License-Identifier: GPL-2.0
/* atomic_path.c - making and removing trees, naming temporaries; see atomic_path.h. */
#include "rundata/atomic_path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundata/error.h"

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

mode_t atomic_publish_mode(int is_dir)
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

int atomic_fit(char *out, size_t len, const char *fmt, ...)
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

int atomic_split_target(const char *target, char *out, char *parent,
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
		atomic_fit(parent, PATH_MAX, "%.*s", (int)(slash - out), out);
	return 0;
}
