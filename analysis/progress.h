/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - the line that says, on a terminal, which stage a long
 * command is in: drawn on stderr over the previous one.
 */
#ifndef SMAPBENCH_PROGRESS_H
#define SMAPBENCH_PROGRESS_H

/*
 * When tty (stderr is a terminal), the stage, overwriting the line ("\r");
 * progress_line(tty, "%s", "") clears it. Nothing off a terminal.
 */
void progress_line(int tty, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* SMAPBENCH_PROGRESS_H */
