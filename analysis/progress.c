// SPDX-License-Identifier: GPL-2.0
/* progress.c - a stage line on a terminal; see progress.h. */
#include "analysis/progress.h"

#include <stdarg.h>
#include <stdio.h>

void progress_line(int tty, const char *fmt, ...)
{
	va_list ap;

	if (!tty)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}
