/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pack.h - `smapbench pack`: a run directory as one ustar archive,
 * NAME/MANIFEST (format, versions, each file's size and SHA-256) first,
 * then every file of the run under NAME/ (run_archive.h has the format).
 */
#ifndef SMAPBENCH_PACK_H
#define SMAPBENCH_PACK_H

#include <stddef.h>

/*
 * Check run as import will and write it to out (NULL: NAME.smapbench.tar
 * in the current directory, NAME being run's directory name), never
 * replacing a file. 0 with the archive's path in written, or -1 with
 * the reason in err.
 */
int run_pack(const char *run, const char *out, char *written,
	     size_t writtenlen, char *err, size_t errlen);

#endif /* SMAPBENCH_PACK_H */
