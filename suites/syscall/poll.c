// SPDX-License-Identifier: GPL-2.0
/*
 * poll.c - poll() with a zero timeout on 1 and 64 descriptors
 * (the read end of an empty pipe and its duplicates): the kernel copies
 * the pollfd array in and the revents back out. size is the array's
 * bytes (8 per descriptor).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites/suite.h"

struct poll_state {
	int pipe_fd[2];
	nfds_t count;
	struct pollfd fds[];
};

static void poll_teardown(const struct benchmark *b, void *state)
{
	struct poll_state *s = state;

	(void)b;
	if (!s)
		return;
	for (nfds_t i = 1; i < s->count; i++)
		if (s->fds[i].fd >= 0)
			close(s->fds[i].fd);
	close(s->pipe_fd[0]);
	close(s->pipe_fd[1]);
	free(s);
}

static int poll_setup(const struct benchmark *b, void **state, char *why,
		      size_t whylen)
{
	nfds_t count = b->size / sizeof(struct pollfd);
	struct poll_state *s = calloc(1, sizeof(*s) + count * sizeof(s->fds[0]));

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (pipe2(s->pipe_fd, O_CLOEXEC)) {
		snprintf(why, whylen, "pipe2: %s", strerror(errno));
		free(s);
		return -1;
	}
	s->count = count;
	s->fds[0].fd = s->pipe_fd[0];
	s->fds[0].events = POLLIN;
	for (nfds_t i = 1; i < count; i++) {
		s->fds[i].fd = fcntl(s->pipe_fd[0], F_DUPFD_CLOEXEC, 0);
		s->fds[i].events = POLLIN;
		if (s->fds[i].fd < 0) {
			snprintf(why, whylen, "cannot open %lu descriptors: %s",
				 (unsigned long)count, strerror(errno));
			s->count = i;
			poll_teardown(b, s);
			return -1;
		}
	}
	*state = s;
	return 0;
}

static int poll_run(void *state, uint64_t iterations)
{
	struct poll_state *s = state;

	for (uint64_t i = 0; i < iterations; i++)
		if (poll(s->fds, s->count, 0) != 0)
			return errno ? -errno : -EIO;
	return 0;
}

static const struct benchmark poll_benchmarks[] = {
	{
		.name = "syscall/poll/1fd", .suite = "syscall",
		.op = "poll", .variant = "1fd", .size = 8,
		.role = BENCH_ROLE_EFFECT,
		.summary = "poll() on one idle pipe, zero timeout",
		.setup = poll_setup, .teardown = poll_teardown, .run = poll_run,
	},
	{
		.name = "syscall/poll/64fds", .suite = "syscall",
		.op = "poll", .variant = "64fds", .size = 512,
		.role = BENCH_ROLE_EFFECT,
		.summary = "poll() on 64 idle descriptors, zero timeout",
		.setup = poll_setup, .teardown = poll_teardown, .run = poll_run,
	},
};

struct bench_family family_syscall_poll =
	BENCH_FAMILY("syscall", "poll", poll_benchmarks);
