/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census.h - the instruction census (docs/census.md): how many STAC,
 * CLAC and POPF each benchmark's operation executes in the kernel, as
 * counted by the QEMU plugin of census/plugin/ in a guest.
 *
 *   measure  (guest) run the benchmarks between the plugin's markers
 *   load     (host) the plugin's output of one boot, as rows
 *   csv      census.csv, written and read back (docs/schema.md)
 *   check    the oracle: every kmod loop executes what the catalogue
 *            says, and a SMAP-off boot executes no STAC/CLAC at all
 */
#ifndef SMAPBENCH_CENSUS_H
#define SMAPBENCH_CENSUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct census_measure_options {
	const char *suite;	/* "all", "syscall", "kmod", "bpf" */
	const char *filter;	/* POSIX ERE on names, or NULL */
	double min_time;	/* guest seconds per benchmark (run, bpf) */
	unsigned samples;	/* kmod: samples of the one RUN */
	int quick;		/* leave out the extended benchmarks */
};

/* In the guest: all selected benchmarks, once each; exit status. */
int census_measure(const struct census_measure_options *o);

/* Counts of a scope or an interval. */
struct census_counts {
	uint64_t stac, clac, entry_clac, popf;
};

struct census_row {
	char *kernel, *state;		/* release; smap, clearcpuid, cpu-off */
	char *name, *suite, *op, *variant;
	unsigned long size, batch;
	uint64_t ops;			/* operations the counts cover */
	struct census_counts total;	/* everything between the markers */
	uint64_t kinsn;			/* kernel instructions, same interval */
	int has_loop;			/* kmod: the loop function was found */
	uint64_t loop_calls;		/* kmod: calls of the loop function */
	struct census_counts loop;	/* kmod: run in the loop's scope */
	char *status;			/* "ok", "skipped: why", "failed: why" */
	/* Where its STACs ran: "function+0xoff", or an address (plugin output only). */
	struct census_site {
		char *where;
		uint64_t stac;
	} *sites;
	size_t nsites;
	/*
	 * Protocol 2 (plugin output only): SYSCALL instructions run in user
	 * mode, each declared system call's calls, and each STAC site's
	 * executions per system call it ran in ("-": none).
	 */
	int has_syscalls;
	uint64_t user_syscalls;
	struct census_syscall {
		char *name;
		uint64_t calls;
	} *syscalls;
	size_t nsyscalls;
	struct census_via {
		char *where, *syscall;
		uint64_t stac;
	} *vias;
	size_t nvias;
};

struct census {
	struct census_row *rows;
	size_t count, capacity;
	/* One line per boot loaded: "kernel state key=value ..." notes. */
	char **boots;
	size_t nboots;
};

/* The SMAP states a census boots, in order. */
extern const char *const census_states[];

/*
 * Add the rows of one boot's plugin output (the out= file). state is
 * what the boot was meant to be; the guest's own notes must agree.
 * 0, or -1 with a message naming the file in err.
 */
int census_load_plugin_output(struct census *c, const char *state,
			      const char *path, char *err, size_t errlen);
/*
 * The function of a STAC site as the plugin names it: "copy_to_user+0x1a"
 * is copy_to_user, "p9_client_read[9pnet]+0x40" p9_client_read[9pnet]; a
 * bare address (no symbol knew it) stays itself.
 */
void census_site_function(const char *where, char *out, size_t len);
/* census-sites.csv: where each row's STACs ran. 0 or -1. */
int census_write_sites_csv(const struct census *c, FILE *f);
/* census.csv; 0 or -1 (a write error). */
int census_write_csv(const struct census *c, FILE *f);
/* Read census.csv back; 0, or -1 with a message in err. */
int census_load_csv(struct census *c, const char *path, char *err,
		    size_t errlen);
/*
 * The oracle, as TAP lines ("ok - census ...") on out; returns how many
 * are "not ok".
 */
int census_check(const struct census *c, FILE *out);
/* Markdown table of the syscall rows: STAC and CLAC per call per kernel. */
void census_table(const struct census *c, FILE *out);
/*
 * The pairs-per-operation plot's data: syscall rows of SMAP boots, one
 * column of STAC per operation per kernel. 0 or -1.
 */
int census_write_plot_data(const struct census *c, FILE *f);
/*
 * The census as a run directory under out (docs/schema.md), named by
 * host and date, never replacing one; files are the collect arguments
 * STATE=FILE whose plugin outputs census holds, in order. 0 with the
 * directory's path in written, or -1 with the reason in err.
 */
int census_write_dir(const struct census *census, char **files, int nfiles,
		     const char *out, char *written, size_t writtenlen,
		     char *err, size_t errlen);
/* The row of name in a boot of kernel and state, or NULL. */
const struct census_row *census_find_row(const struct census *c,
					 const char *kernel, const char *state,
					 const char *name);
void census_free(struct census *c);

#endif /* SMAPBENCH_CENSUS_H */
