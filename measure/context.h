/* SPDX-License-Identifier: GPL-2.0 */
/*
 * context.h - the machine a run happened on, as ordered key/value pairs
 * (context.csv, the "context" object of results.json).
 *
 * context_collect() records what any benchmark run needs to be judged:
 * date, host, CPU identity and flags, kernel and command line,
 * vulnerabilities and mitigations, frequency scaling, SMT,
 * virtualisation, load. Warnings (governor not performance, turbo on,
 * hypervisor, high load, ...) go to the "warnings" key, ';'-separated.
 * The parsing helpers work on strings so they can be tested on fixtures.
 */
#ifndef SMAPBENCH_CONTEXT_H
#define SMAPBENCH_CONTEXT_H

#include <stddef.h>

struct context_entry {
	char *key;
	char *value;
};

struct context {
	struct context_entry *items;
	size_t count, capacity;
};

/* Set (or replace) key to a printf-formatted value. 0 or -1. */
int context_set(struct context *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *context_get(const struct context *c, const char *key);
/* Append a warning to the "warnings" key. */
void context_warn(struct context *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void context_free(struct context *c);

/* Collect everything generic about this machine and boot. */
void context_collect(struct context *c);

/*
 * smapbench's application ID for the machine ID: what
 * `systemd-id128 machine-id --app-specific=CONTEXT_MACHINE_APP_ID` prints
 * is what a run records as machine_id_hash.
 */
#define CONTEXT_MACHINE_APP_ID "fa4e34770c8c48c3ac2d6fd0768d610d"
#define CONTEXT_MACHINE_ID_SIZE 33	/* 32 hex digits and a NUL */
/*
 * The machine ID a run may show, from /etc/machine-id's text (32 hex
 * digits, a newline after them allowed): that file is confidential
 * (machine-id(5)), so the run records the ID systemd derives from it for
 * one application (sd_id128_get_machine_app_specific(): HMAC-SHA256 keyed
 * with the machine ID, of the application's ID, its first 128 bits made a
 * version 4 UUID), as 32 hex digits. 0, or -1 (out "") when text is no
 * machine ID, such as "uninitialized".
 */
int context_machine_id_hash(const char *machine_id,
			    char out[CONTEXT_MACHINE_ID_SIZE]);

/* Read a small text file, trailing newline removed. 0 or -1. */
int context_read_file(const char *path, char *buf, size_t len);

/* Value of "field : value" in the first processor block of cpuinfo. */
int context_cpuinfo_field(const char *cpuinfo, const char *field,
			  char *out, size_t len);
/* 1 when word appears as a whole word in a space-separated list. */
int context_has_word(const char *list, const char *word);
/*
 * Find a kernel command line parameter: 1 when present (value, which
 * may be empty, copied to value), 0 when absent. Handles quoted
 * values and stops at "--" (the rest belongs to init).
 */
int context_cmdline_param(const char *cmdline, const char *name,
			  char *value, size_t len);
/* 1 when item is one of the comma-separated entries of list. */
int context_list_has(const char *list, const char *item);
/*
 * Classify virtualisation from the "hypervisor" cpu flag, the CPUID
 * 0x40000000 vendor string and the DMI system vendor:
 * "bare", "kvm", "tcg" or "other".
 */
const char *context_virt_kind(int hypervisor_flag, const char *cpuid_vendor,
			      const char *dmi_vendor);
/* CPUID 0x40000000 vendor signature (12 chars) or "" without one. */
void context_hypervisor_vendor(char *out, size_t len);

#endif /* SMAPBENCH_CONTEXT_H */
