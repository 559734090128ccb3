// SPDX-License-Identifier: GPL-2.0
/* suite.c - the family table and shared helpers; see suite.h. */
#include "suite.h"

#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

static struct bench_family *const families[] = {
	&family_syscall_getppid,
	&family_syscall_rw,
	&family_syscall_futex,
	&family_syscall_signal,
	&family_syscall_clock,
	&family_syscall_poll,
	&family_syscall_udp,
	&family_kmod,
#ifdef HAVE_BPF_SUITE
	&family_bpf,
#endif
};

#define NFAMILIES (sizeof(families) / sizeof(families[0]))

const char *const suite_names[] = {
	"syscall", "kmod",
#ifdef HAVE_BPF_SUITE
	"bpf",
#endif
	"all", NULL,
};

int suite_register_all(struct registry *r)
{
	for (size_t i = 0; i < NFAMILIES; i++) {
		struct bench_family *f = families[i];

		if (f->init && f->init(f))
			return -1;
		if (registry_add_family(r, f->name, f->table, f->count))
			return -1;
	}
	return 0;
}

void suite_context(struct context *c, const char *suite)
{
	for (size_t i = 0; i < NFAMILIES; i++)
		if (families[i]->context &&
		    (!strcmp(suite, "all") || !strcmp(suite, families[i]->suite)))
			families[i]->context(c);
}

const char *bench_tmpfs_dir(char *why, size_t whylen)
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
