// SPDX-License-Identifier: GPL-2.0
/*
 * run_context.c - the context keys every run records, and `info` and the
 * census print: the generic ones (measure/context.c), the SMAP state of
 * this boot, this build and the TSC rate; see run_context.h.
 */
#include "system/run_context.h"

#include "measure/context.h"
#include "measure/counter.h"
#include "system/smap_context.h"
#include "system/version.h"

static const char *features(void)
{
	return "libperf="
#ifdef HAVE_LIBPERF
		"1"
#else
		"0"
#endif
		" libpfm="
#ifdef HAVE_LIBPFM
		"1"
#else
		"0"
#endif
		" hwloc="
#ifdef HAVE_HWLOC
		"1"
#else
		"0"
#endif
		" cpucycles="
#ifdef HAVE_CPUCYCLES
		"1"
#else
		"0"
#endif
		;
}

void run_context_collect(struct context *c)
{
	const char *hint_source;
	double hint;

	context_collect(c);
	smap_context(c);
	context_set(c, "smapbench_version", "%s", SMAPBENCH_VERSION);
	context_set(c, "git_revision", "%s", SMAPBENCH_GIT_REVISION);
	context_set(c, "build_features", "%s", features());
	context_set(c, "tsc_hz", "%.0f", counter_measure_tsc_hz(80));
	hint = counter_tsc_hz_hint(&hint_source);
	context_set(c, "tsc_hz_hint", "%.0f", hint);
	context_set(c, "tsc_hz_hint_source", "%s", hint_source);
}
