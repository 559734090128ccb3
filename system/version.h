/* SPDX-License-Identifier: GPL-2.0 */
/* version.h - the smapbench release; the git revision is baked in at build. */
#ifndef SMAPBENCH_VERSION_H
#define SMAPBENCH_VERSION_H

#define SMAPBENCH_VERSION "0.1.0"

#if __has_include("smapbench_revision.h")
#include "smapbench_revision.h"
#endif
#ifndef SMAPBENCH_GIT_REVISION
#define SMAPBENCH_GIT_REVISION "unknown"
#endif

#endif /* SMAPBENCH_VERSION_H */
