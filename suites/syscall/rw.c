// SPDX-License-Identifier: GPL-2.0
/*
 * rw.c - read(), pread() and write() on a tmpfs file, and a
 * write()+read() pair through a pipe, at 1 B, 64 B, 4 KiB and 64 KiB:
 * copy_to_user/copy_from_user behind a system call, where SMAP's
 * STAC/CLAC pair is paid once per copy.
 *
 * The tmpfs file is 1 MiB (or one operation's size if larger), filled
 * beforehand so no operation allocates pages. read() and write() walk
 * through it and seek back to 0 at its end: one lseek() per 1 MiB,
 * i.e. every 16 operations at 64 KiB, every 16384 at 64 B.
 * A pipe operation is one write() and one read() of the same size (the
 * data must come from somewhere): two copies, two system calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "suites/suite.h"

#define FILE_BYTES (1U << 20)

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

enum rw_kind { RW_READ, RW_PREAD, RW_WRITE, RW_PIPE };

struct rw_arg {
	enum rw_kind kind;
};

struct rw_state {
	enum rw_kind kind;
	size_t size, file_bytes;
	off_t offset;
	int fd, pipe_fd[2];
	char *buffer;
};

static const struct rw_arg arg_read = { RW_READ };
static const struct rw_arg arg_pread = { RW_PREAD };
static const struct rw_arg arg_write = { RW_WRITE };
static const struct rw_arg arg_pipe = { RW_PIPE };

/* A tmpfs directory we may create files in, or NULL with why. */
static const char *tmpfs_dir(char *why, size_t whylen)
{
	static const char *const candidates[] = { "/dev/shm", "/run/shm",
						  "/tmp", "/run" };

	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		struct statfs fs;

		if (statfs(candidates[i], &fs) == 0 &&
		    (unsigned long)fs.f_type == TMPFS_MAGIC &&
		    access(candidates[i], W_OK | X_OK) == 0)
			return candidates[i];
	}
	snprintf(why, whylen,
		 "no writable tmpfs (tried /dev/shm, /run/shm, /tmp, /run): mount one, e.g. mount -t tmpfs tmpfs /dev/shm");
	return NULL;
}

static int rw_valid(const struct benchmark *b, char *why, size_t whylen)
{
	const struct rw_arg *a = b->arg;

	if (a->kind != RW_PIPE && !tmpfs_dir(why, whylen))
		return -1;
	return 0;
}

static void rw_teardown(const struct benchmark *b, void *state)
{
	struct rw_state *s = state;

	(void)b;
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->pipe_fd[0] >= 0)
		close(s->pipe_fd[0]);
	if (s->pipe_fd[1] >= 0)
		close(s->pipe_fd[1]);
	free(s->buffer);
	free(s);
}

/*
 * Write len bytes of the buffers' pattern in large writes: a 1-byte
 * benchmark must not pay a million system calls to set up (seconds in an
 * emulator). 0, or -1 with errno.
 */
static int fill(int fd, size_t len)
{
	static char chunk[1 << 16];

	memset(chunk, 0xa5, sizeof(chunk));
	while (len) {
		size_t n = len < sizeof(chunk) ? len : sizeof(chunk);
		ssize_t done = write(fd, chunk, n);

		if (done <= 0) {
			if (!done)
				errno = ENOSPC;
			return -1;
		}
		len -= (size_t)done;
	}
	return 0;
}

static int rw_setup(const struct benchmark *b, void **state, char *why,
		    size_t whylen)
{
	const struct rw_arg *a = b->arg;
	struct rw_state *s = calloc(1, sizeof(*s));
	char path[256];

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	s->kind = a->kind;
	s->size = b->size;
	s->fd = s->pipe_fd[0] = s->pipe_fd[1] = -1;
	s->buffer = malloc(s->size);
	if (!s->buffer) {
		snprintf(why, whylen, "out of memory");
		goto fail;
	}
	memset(s->buffer, 0xa5, s->size);
	if (a->kind == RW_PIPE) {
		if (pipe2(s->pipe_fd, O_CLOEXEC)) {
			snprintf(why, whylen, "pipe2: %s", strerror(errno));
			goto fail;
		}
		/* Room for one operation; larger is fine, failure too. */
		fcntl(s->pipe_fd[1], F_SETPIPE_SZ, (int)(2 * s->size));
		*state = s;
		return 0;
	}
	const char *dir = tmpfs_dir(why, whylen);

	if (!dir)
		goto fail;
	snprintf(path, sizeof(path), "%s/smapbench-rw-XXXXXX", dir);
	s->fd = mkostemp(path, O_CLOEXEC);
	if (s->fd < 0) {
		snprintf(why, whylen, "cannot create a file in %s: %s", dir,
			 strerror(errno));
		goto fail;
	}
	unlink(path);
	s->file_bytes = s->size > FILE_BYTES ? s->size : FILE_BYTES;
	s->file_bytes -= s->file_bytes % s->size;
	if (fill(s->fd, s->file_bytes)) {
		snprintf(why, whylen, "cannot fill a %zu-byte file in %s: %s",
			 s->file_bytes, dir, strerror(errno));
		goto fail;
	}
	lseek(s->fd, 0, SEEK_SET);
	*state = s;
	return 0;
fail:
	rw_teardown(b, s);
	return -1;
}

/* Advance the file offset, seeking back to 0 at the end of the file. */
static int advance(struct rw_state *s)
{
	s->offset += (off_t)s->size;
	if ((size_t)s->offset + s->size > s->file_bytes) {
		if (lseek(s->fd, 0, SEEK_SET) < 0)
			return -errno;
		s->offset = 0;
	}
	return 0;
}

static int rw_run(void *state, uint64_t iterations)
{
	struct rw_state *s = state;
	ssize_t want = (ssize_t)s->size;

	switch (s->kind) {
	case RW_READ:
		for (uint64_t i = 0; i < iterations; i++) {
			if (read(s->fd, s->buffer, s->size) != want)
				return errno ? -errno : -EIO;
			if (advance(s))
				return -errno;
		}
		break;
	case RW_PREAD:
		for (uint64_t i = 0; i < iterations; i++)
			if (pread(s->fd, s->buffer, s->size, 0) != want)
				return errno ? -errno : -EIO;
		break;
	case RW_WRITE:
		for (uint64_t i = 0; i < iterations; i++) {
			if (write(s->fd, s->buffer, s->size) != want)
				return errno ? -errno : -EIO;
			if (advance(s))
				return -errno;
		}
		break;
	case RW_PIPE:
		for (uint64_t i = 0; i < iterations; i++) {
			if (write(s->pipe_fd[1], s->buffer, s->size) != want)
				return errno ? -errno : -EIO;
			if (read(s->pipe_fd[0], s->buffer, s->size) != want)
				return errno ? -errno : -EIO;
		}
		break;
	}
	return 0;
}

/* headline_: the size whose row is a headline row, 0 for none */
#define RW(name_, op_, variant_, arg_, size_, headline_, summary_) {	\
	.name = "syscall/" name_ "/" #size_, .suite = "syscall",	\
	.op = op_, .variant = variant_, .size = size_, .arg = &arg_,	\
	.role = BENCH_ROLE_EFFECT,					\
	.summary = summary_, .valid = rw_valid, .setup = rw_setup,	\
	.teardown = rw_teardown, .run = rw_run,			\
	.headline = size_ == headline_ }

#define RW_SIZES(name_, op_, variant_, arg_, headline_, summary_)	\
	RW(name_, op_, variant_, arg_, 1, headline_, summary_),	\
	RW(name_, op_, variant_, arg_, 64, headline_, summary_),	\
	RW(name_, op_, variant_, arg_, 4096, headline_, summary_),	\
	RW(name_, op_, variant_, arg_, 65536, headline_, summary_)

static const struct benchmark rw_benchmarks[] = {
	RW_SIZES("read/tmpfs", "read", "tmpfs", arg_read, 0,
		 "read() from a tmpfs file (copy_to_user)"),
	RW_SIZES("pread/tmpfs", "pread", "tmpfs", arg_pread, 0,
		 "pread() at offset 0 of a tmpfs file (copy_to_user)"),
	RW_SIZES("write/tmpfs", "write", "tmpfs", arg_write, 0,
		 "write() into a tmpfs file (copy_from_user)"),
	RW_SIZES("write_read/pipe", "write_read", "pipe", arg_pipe, 64,
		 "write() then read() through a pipe (one copy each way)"),
};

struct bench_family family_syscall_rw =
	BENCH_FAMILY("syscall", "rw", rw_benchmarks);
