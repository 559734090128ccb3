/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_command_data.h - what the census directory of a command is made
 * of, shared by the files that write it: each boot's counts, COMMAND's
 * minus the baseline's (census_command_derive.c), and the writers of its
 * CSV files, context, report, console summary and plot.
 */
#ifndef SMAPBENCH_CENSUS_COMMAND_DATA_H
#define SMAPBENCH_CENSUS_COMMAND_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "census/census.h"
#include "census/command/census_command.h"

#define NAME_LEN 160
/* System calls named beside each function. */
#define VIA_SHOWN 3
/* The label of windows opened in no system call (census_protocol.h). */
#define NO_SYSCALL "-"
/* rseq's update on the way back to user space (census_guest.c) */
#define RSEQ "[rseq]"
/* Kernels and functions the plot shows at most. */
#define PLOT_SERIES 8
#define PLOT_ROWS 64

/* What a function of the kernel opened, in both intervals. */
struct function_count {
	char name[NAME_LEN];
	uint64_t stac, baseline_stac;
	/* its pairs (COMMAND minus the baseline) by the system call they ran in */
	struct via_count {
		char syscall[NAME_LEN];
		int64_t pairs;
	} *via;
	size_t nvia;
};

/* One system call: how often each program made it, and what it opened. */
struct syscall_count {
	char name[NAME_LEN];
	uint64_t calls, baseline_calls, stac, baseline_stac;
};

/* One kernel and SMAP state. */
struct command_boot {
	const struct census_row *baseline, *command;
	double boot_seconds, guest_seconds;
	/* COMMAND minus the baseline */
	int64_t pairs, clac, entry_clac, popf, kinsn, system_calls;
	/* of pairs, rseq's on the way back to user space, and its updates */
	int64_t rseq_pairs, rseq_updates;
	double context_switches;
	/* rseq as natively, and the pairs the estimate takes (model_pairs()) */
	double rseq_pairs_per_update, native_rseq_pairs, model_pairs;
	struct function_count *functions;	/* by pairs, most first */
	size_t nfunctions;
	struct syscall_count *syscalls;		/* by pairs, then calls */
	size_t nsyscalls;
	/* the estimate: share of the native time, and its interval */
	double estimate_seconds, fraction, fraction_low, fraction_high;
};

struct command_census {
	struct command_boot *boots;
	size_t nboots;
};

/* What the files of the directory are written from. */
struct outputs {
	const struct census *census;
	const struct command_census *cc;
	const struct census_command_inputs *in;
	const char *command;	/* the command line, quoted for a shell */
	const char *date, *host;	/* when and where it was counted */
	int has_plot;
};

static inline int64_t difference(uint64_t a, uint64_t b)
{
	return (int64_t)a - (int64_t)b;
}

static inline int64_t function_pairs(const struct function_count *f)
{
	return difference(f->stac, f->baseline_stac);
}

static inline int64_t syscall_pairs(const struct syscall_count *s)
{
	return difference(s->stac, s->baseline_stac);
}

/* Every pair a boot's functions opened above the baseline. */
static inline int64_t total_pairs(const struct command_boot *b)
{
	int64_t sum = 0;

	for (size_t i = 0; i < b->nfunctions; i++)
		sum += function_pairs(&b->functions[i]);
	return sum;
}

/*
 * Each boot of census against its baseline, with the estimate of in,
 * into cc (freed by census_command_free_derived). 0, or -1 with the
 * reason in err.
 */
int census_command_derive(const struct census *c,
			  const struct census_boot_file *files,
			  const struct census_command_inputs *in,
			  struct command_census *cc, char *err, size_t errlen);
void census_command_free_derived(struct command_census *cc);

/* The files of the directory, each an atomic_dir_writer of outputs. */
int census_command_write_census_csv(FILE *f, const void *outputs);
int census_command_write_sites_csv(FILE *f, const void *outputs);
int census_command_write_syscalls_csv(FILE *f, const void *outputs);
int census_command_write_context(FILE *f, const void *outputs);
int census_command_write_report(FILE *f, const void *outputs);
/* plots/census-sites.dat; -1 also when no SMAP boot has a pair to show. */
int census_command_write_plot_data(FILE *f, const void *outputs);

/* plots/census-sites.{png,svg} in dir from its .dat. 0, or -1 (said). */
int census_command_render_plot(const char *dir, const struct outputs *o);
/* The counts, the estimate and the warning, for the terminal. */
void census_command_print_summary(const struct outputs *o, FILE *f);

#endif /* SMAPBENCH_CENSUS_COMMAND_DATA_H */
