// SPDX-License-Identifier: GPL-2.0
/* atomic_file.c - one file written beside and renamed; see atomic_file.h. */
#include "rundata/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundata/atomic_cleanup.h"
#include "rundata/atomic_path.h"
#include "rundata/error.h"

FILE *atomic_file_begin(struct atomic_file *f, const char *target,
			const char *ours_prefix, char *err, size_t errlen)
{
	char parent[PATH_MAX];
	const char *base;
	struct stat st;
	sigset_t old;
	int fd;

	memset(f, 0, sizeof(*f));
	if (atomic_split_target(target, f->target, parent, &base, err, errlen))
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
	if (atomic_fit(f->tmp, sizeof(f->tmp), "%s/.%s.XXXXXX", parent, base)) {
		set_err(err, errlen, "%s: path too long", f->target);
		f->tmp[0] = '\0';
		return NULL;
	}
	atomic_block_stop_signals(&old);
	fd = mkstemp(f->tmp);
	if (fd >= 0)
		atomic_register_temporary(f->tmp);
	atomic_restore_signals(&old);
	if (fd < 0) {
		set_err(err, errlen, "cannot create a file in %s: %s", parent,
			strerror(errno));
		f->tmp[0] = '\0';
		return NULL;
	}
	fchmod(fd, atomic_publish_mode(0));
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

/* Close and rename into place, over an existing target or never. */
static int commit(struct atomic_file *f, int replace, char *err, size_t errlen)
{
	sigset_t old;
	int rc;

	if (close_written(f, err, errlen))
		return -1;
	atomic_block_stop_signals(&old);
	if (replace) {
		rc = rename(f->tmp, f->target);
	} else {
		rc = renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->target,
			       RENAME_NOREPLACE);
		if (rc && (errno == EINVAL || errno == ENOSYS)) {
			/* no NOREPLACE here: a hard link never replaces either */
			rc = link(f->tmp, f->target);
			if (!rc)
				unlink(f->tmp);
		}
	}
	rc = atomic_renamed(f->tmp, f->target, rc, err, errlen);
	atomic_restore_signals(&old);
	atomic_file_abort(f);
	return rc;
}

int atomic_file_commit(struct atomic_file *f, char *err, size_t errlen)
{
	return commit(f, 1, err, errlen);
}

int atomic_file_commit_new(struct atomic_file *f, char *err, size_t errlen)
{
	return commit(f, 0, err, errlen);
}

void atomic_file_abort(struct atomic_file *f)
{
	if (f->file)
		fclose(f->file);
	f->file = NULL;
	if (!f->tmp[0])
		return;
	unlink(f->tmp);
	atomic_forget_temporary(f->tmp);
}
