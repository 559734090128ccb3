/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_guest.h - the guest side's link to the census plugin
 * (census_protocol.h): the marker page, the lines sent through it, and
 * the declarations every census guest makes from /proc/kallsyms before
 * its intervals. `census measure` (the benchmarks) and `census exec` (a
 * command) both start with these.
 */
#ifndef SMAPBENCH_CENSUS_GUEST_H
#define SMAPBENCH_CENSUS_GUEST_H

#include <stddef.h>

/* Map the marker page and say hello. 0, or -1 with the reason in why. */
int census_guest_open(char *why, size_t whylen);

/* One line to the plugin (a '\n' in it becomes a space). */
void census_guest_send(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* What census_guest_declare() declared. */
struct census_declared {
	size_t symbols;		/* kernel and module text symbols (sym) */
	size_t syscalls;	/* system call entry functions (syscall) */
	size_t entries;		/* exception and interrupt entry code */
	size_t functions;	/* functions of smapbench.ko (func) */
	size_t loop_heads;	/* its loop heads (point) */
};

/*
 * Declare, from /proc/kallsyms: every text symbol (to name STAC sites),
 * the system calls' entry functions, the entry code, and smapbench.ko's
 * functions and loop heads when it is loaded; then send ready. 0, or -1
 * with the reason in why (also sent as a "note error" line).
 */
int census_guest_declare(struct census_declared *d, char *why, size_t whylen);

/*
 * Notes on what this guest is: kernel release, command line, SMAP in
 * cpuinfo and CPUID, the module's view of it when loaded, versions.
 */
void census_guest_send_context(void);

#endif /* SMAPBENCH_CENSUS_GUEST_H */
