// SPDX-License-Identifier: GPL-2.0
/*
 * smap_context.c - how SMAP stands on this boot.
 *
 * "nosmap" was removed from Linux in 2022 (6.1 ignores it with a
 * warning); "clearcpuid=smap" (or its number, 308) clears the feature
 * bit; a CPU model without SMAP has neither CPUID bit nor feature. The
 * state is what /proc/cpuinfo says (the kernel's feature bit, which
 * decides whether STAC/CLAC are patched in); the method is inferred
 * from the command line and CPUID.
 */
#include "system/smap_context.h"

#include <cpuid.h>
#include <string.h>

int smap_requested_off(const char *cmdline, const char **how)
{
	char value[1024];

	if (context_cmdline_param(cmdline, "clearcpuid", value, sizeof(value)) &&
	    (context_list_has(value, "smap") ||
	     context_list_has(value, SMAP_FEATURE_NUMBER))) {
		*how = "clearcpuid";
		return 1;
	}
	if (context_cmdline_param(cmdline, "nosmap", value, sizeof(value))) {
		*how = "nosmap";
		return 1;
	}
	*how = "none";
	return 0;
}

void smap_evaluate(const char *cmdline, const char *cpu_flags, int cpuid,
		   struct smap_state *s)
{
	const char *how;

	memset(s, 0, sizeof(*s));
	s->cpuinfo = context_has_word(cpu_flags, "smap");
	s->cpuid = cpuid;
	s->requested_off = smap_requested_off(cmdline, &how);
	if (s->cpuinfo) {
		s->state = "smap";
		s->method = "none";
		if (s->requested_off)
			s->warning = "SMAP off was requested on the command line but /proc/cpuinfo still lists smap: this kernel ignored it";
		return;
	}
	s->state = "nosmap";
	if (s->requested_off)
		s->method = how;
	else if (!cpuid)
		s->method = "cpu-model";
	else
		s->method = "unknown";
}

int smap_cpuid(void)
{
	unsigned a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	return !!(b & (1U << 20));
}

void smap_context(struct context *c)
{
	const char *cmdline = context_get(c, "cmdline");
	const char *flags = context_get(c, "cpu_flags");
	struct smap_state s;

	smap_evaluate(cmdline ? cmdline : "", flags ? flags : "", smap_cpuid(),
		      &s);
	context_set(c, "smap_cpuinfo", "%d", s.cpuinfo);
	context_set(c, "smap_cpuid", "%d", s.cpuid);
	context_set(c, "smap_requested_off", "%d", s.requested_off);
	context_set(c, "smap_state", "%s", s.state);
	context_set(c, "smap_off_method", "%s", s.method);
	context_set(c, "smep_cpuinfo", "%d",
		    flags ? context_has_word(flags, "smep") : 0);
	if (s.warning)
		context_warn(c, "%s", s.warning);
}
