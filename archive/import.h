/* SPDX-License-Identifier: GPL-2.0 */
/*
 * import.h - `smapbench import`: an archive of `smapbench pack` is
 * untrusted input, checked in full before anything is written, then
 * extracted into a temporary directory under DIR and renamed into place
 * (import.c says what each pass checks). On any refusal DIR holds what
 * it held before.
 */
#ifndef SMAPBENCH_IMPORT_H
#define SMAPBENCH_IMPORT_H

#include <stddef.h>

/*
 * Import archive under data (whose missing parents are made, and
 * removed again on failure): 0 with the run's path in final, or -1 with
 * the reason in err, which may quote the archive's own text.
 */
int run_import(const char *archive, const char *data, char *final,
	       size_t finallen, char *err, size_t errlen);

#endif /* SMAPBENCH_IMPORT_H */
