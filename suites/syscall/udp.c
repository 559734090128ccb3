// SPDX-License-Identifier: GPL-2.0
/*
 * udp.c - a datagram to ourselves on 127.0.0.1: sendto()
 * copies it in (copy_from_user), recvfrom() copies it and the source
 * address out (copy_to_user, put_user). One operation is the pair.
 * Loopback only: nothing leaves the machine.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "suites/suite.h"

struct udp_state {
	int fd;
	struct sockaddr_in self;
	char *buffer;
	size_t size;
};

static void udp_teardown(const struct benchmark *b, void *state)
{
	struct udp_state *s = state;

	(void)b;
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s->buffer);
	free(s);
}

static int udp_setup(const struct benchmark *b, void **state, char *why,
		     size_t whylen)
{
	struct udp_state *s = calloc(1, sizeof(*s));
	socklen_t len = sizeof(s->self);

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	s->size = b->size;
	s->buffer = calloc(1, s->size);
	s->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!s->buffer || s->fd < 0) {
		snprintf(why, whylen, "UDP socket: %s", strerror(errno));
		goto fail;
	}
	s->self.sin_family = AF_INET;
	s->self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s->fd, (struct sockaddr *)&s->self, sizeof(s->self)) ||
	    getsockname(s->fd, (struct sockaddr *)&s->self, &len)) {
		snprintf(why, whylen, "cannot bind a UDP socket to 127.0.0.1: %s",
			 strerror(errno));
		goto fail;
	}
	*state = s;
	return 0;
fail:
	udp_teardown(b, s);
	return -1;
}

static int udp_run(void *state, uint64_t iterations)
{
	struct udp_state *s = state;
	struct sockaddr_in from;
	socklen_t len;

	for (uint64_t i = 0; i < iterations; i++) {
		if (sendto(s->fd, s->buffer, s->size, 0,
			   (struct sockaddr *)&s->self, sizeof(s->self)) !=
		    (ssize_t)s->size)
			return errno ? -errno : -EIO;
		len = sizeof(from);
		if (recvfrom(s->fd, s->buffer, s->size, 0,
			     (struct sockaddr *)&from, &len) != (ssize_t)s->size)
			return errno ? -errno : -EIO;
	}
	return 0;
}

#define UDP(size_) {							\
	.name = "syscall/sendto_recvfrom/udp/" #size_, .suite = "syscall", \
	.op = "sendto_recvfrom", .variant = "udp", .size = size_,	\
	.role = BENCH_ROLE_EFFECT,					\
	.summary = "sendto() and recvfrom() of a datagram on 127.0.0.1",	\
	.setup = udp_setup, .teardown = udp_teardown, .run = udp_run }

static const struct benchmark udp_benchmarks[] = {
	UDP(1), UDP(64), UDP(1024),
};

struct bench_family family_syscall_udp =
	BENCH_FAMILY("syscall", "udp", udp_benchmarks);
