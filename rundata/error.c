// SPDX-License-Identifier: GPL-2.0
/* error.c - the one error formatter; see error.h. */
#include "rundata/error.h"

#include <stdarg.h>
#include <stdio.h>

void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
