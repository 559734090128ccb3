/* SPDX-License-Identifier: GPL-2.0 */
/*
 * command.h - a command of the user's as a benchmark row:
 * `smapbench run --command CMD`.
 *
 * One row, command/<name>, timed by the harness as any other: an
 * operation is one execution of `sh -c CMD` in a fresh process (fork,
 * exec, wait), so a sample of n iterations times n whole executions with
 * the run's counter, after the run's warm-up, in every repetition's
 * worker. The child keeps the run's CPU (affinity is inherited) but not
 * its real-time priority: a command of several processes pinned to one
 * CPU at SCHED_FIFO could starve itself. Its standard input is
 * /dev/null; its output and errors are appended to the run's
 * command.log. An execution that exits non-zero or is killed fails the
 * sample: the row is skipped with what happened, and the run says that
 * the command failed (command_status in context.csv).
 */
#ifndef SMAPBENCH_SUITES_COMMAND_H
#define SMAPBENCH_SUITES_COMMAND_H

#include <limits.h>
#include <stddef.h>

#include "measure/context.h"
#include "measure/registry.h"
#include "measure/runner.h"
#include "measure/sha256.h"

/* The longest command taken, in bytes. */
#define COMMAND_TEXT_MAX	4096
/* The longest name made of its words, before "-" and 8 digits of its sum. */
#define COMMAND_WORDS_MAX	32
/* The log of its output, in the run directory. */
#define COMMAND_LOG		"command.log"

struct command_spec {
	char text[COMMAND_TEXT_MAX];
	char sha256[SHA256_HEX_SIZE];
	char op[COMMAND_WORDS_MAX + 16];	/* words, "-", 8 hex digits */
	char name[COMMAND_WORDS_MAX + 32];	/* "command/" op */
	char log[PATH_MAX + 64];	/* where its output goes; "": /dev/null */
	struct benchmark bench;
};

/*
 * Take text as the command: 0, or -1 with why in err (empty, only
 * blanks, too long, a control character such as a newline: one line,
 * as context.csv records it).
 */
int command_spec_init(struct command_spec *c, const char *text, char *err,
		      size_t errlen);

/* The row's op made of a command: its words and 8 digits of its sum. */
void command_op_name(const char *text, const char *sha256, char *out,
		     size_t len);

/* Where its output goes from now on ("" or NULL: /dev/null). */
void command_set_log(struct command_spec *c, const char *path);

/* Add its row to r: 0, or -1 (no memory). */
int command_register(struct registry *r, struct command_spec *c);

/* Its keys of context.csv, before the run (docs/schema.md). */
void command_context(struct context *ctx, const struct command_spec *c);

/*
 * Why its row has no result in r, the reason the runner gave ("failed:
 * sh -c exited with status 2"), or NULL when it ran; "interrupted" when
 * a stop came first.
 */
const char *command_failure(const struct command_spec *c,
			    const struct run_results *r);

/* command_status in context.csv, after the run: ok, or what failed. */
void command_results_context(struct context *ctx,
			     const struct command_spec *c,
			     const struct run_results *r);

#endif /* SMAPBENCH_SUITES_COMMAND_H */
