/* SPDX-License-Identifier: GPL-2.0 */
/*
 * error.h - the error convention of the run-data and archive code: a
 * function that can fail takes (char *err, size_t errlen) and, on
 * failure, leaves there one line that says what happened and what to do.
 */
#ifndef SMAPBENCH_ERROR_H
#define SMAPBENCH_ERROR_H

#include <stddef.h>

/* printf into err; nothing when err is NULL or errlen 0. */
void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* SMAPBENCH_ERROR_H */
