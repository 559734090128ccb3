// SPDX-License-Identifier: GPL-2.0
/* suite.c - the family table; see suite.h. */
#include "suites/suite.h"

#include <string.h>

/*
 * Every family, in the order they run: adding one is its file, which
 * defines struct bench_family family_<name>, and one line here (stage
 * 10-unit fails on a linked family without its line).
 */
#define BENCH_FAMILIES(X)						\
	X(syscall_getppid)						\
	X(syscall_rw)							\
	X(syscall_futex)						\
	X(syscall_signal)						\
	X(syscall_clock)						\
	X(syscall_poll)							\
	X(syscall_udp)							\
	X(kmod)								\
	BPF_FAMILY(X)

#ifdef HAVE_BPF_SUITE
#define BPF_FAMILY(X)	X(bpf)
#else
#define BPF_FAMILY(X)
#endif

#define DECLARE_FAMILY(name)	extern struct bench_family family_##name;
#define FAMILY_ENTRY(name)	&family_##name,

BENCH_FAMILIES(DECLARE_FAMILY)

static struct bench_family *const families[] = {
	BENCH_FAMILIES(FAMILY_ENTRY)
};

#define NFAMILIES (sizeof(families) / sizeof(families[0]))

const char *const suite_names[] = {
	"syscall", "kmod",
#ifdef HAVE_BPF_SUITE
	"bpf",
#endif
	"all", NULL,
};

const char *const suite_run_names[] = {
	"syscall", "kmod",
#ifdef HAVE_BPF_SUITE
	"bpf",
#endif
	"all", "none", NULL,
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

void suite_results_context(struct context *c, const char *suite,
			   const struct run_results *r)
{
	for (size_t i = 0; i < NFAMILIES; i++)
		if (families[i]->results_context &&
		    (!strcmp(suite, "all") || !strcmp(suite, families[i]->suite)))
			families[i]->results_context(c, r);
}

enum bench_role suite_row_role(const char *suite, const char *op,
			       const char *variant)
{
	/* the families with a table of their own: no module asked */
	for (size_t i = 0; i < NFAMILIES; i++) {
		const struct bench_family *f = families[i];

		if (f->init || strcmp(f->suite, suite))
			continue;
		for (size_t k = 0; k < f->count; k++)
			if (!strcmp(f->table[k].op, op) &&
			    !strcmp(f->table[k].variant, variant))
				return f->table[k].role;
	}
	return BENCH_ROLE_UNSET;
}
