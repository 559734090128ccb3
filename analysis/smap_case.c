// SPDX-License-Identifier: GPL-2.0
/*
 * smap_case.c - the SMAP state of a run's boot, in words; see
 * smap_case.h.
 *
 * The run records three things apart (system/smap_context.c): whether
 * the kernel uses SMAP (smap_state, from /proc/cpuinfo's flag, which
 * decides whether its STAC/CLAC are patched in), whether the CPU has it
 * (CPUID) and whether the command line asks for it off. A kernel can
 * keep SMAP off with none of that asked: a paravirtual kernel, or one a
 * hypervisor provides; the run's smap_off_method then says "unknown",
 * and this file says what is known.
 */
#include "analysis/smap_case.h"

#include <stdio.h>
#include <string.h>

#include "rundata/rundir.h"

static int is(const char *value, const char *want)
{
	return value && !strcmp(value, want);
}

enum smap_case smap_case_read(const char *state, const char *requested_off,
			      const char *method, const char *cpuid)
{
	if (is(state, "smap"))
		return is(requested_off, "1") ? SMAP_CASE_ON_IGNORED : SMAP_CASE_ON;
	if (!is(state, "nosmap"))
		return SMAP_CASE_UNRECORDED;
	if (is(method, "clearcpuid") || is(method, "nosmap") ||
	    is(requested_off, "1"))
		return SMAP_CASE_OFF_ASKED;
	if (is(method, "cpu-model") || is(cpuid, "0"))
		return SMAP_CASE_OFF_NO_CPU;
	if (is(cpuid, "1"))
		return SMAP_CASE_OFF_BY_KERNEL;
	return SMAP_CASE_OFF_UNTOLD;
}

enum smap_case smap_case_of_run(const struct run_dir *run)
{
	const char *cpuid = rundir_context(run, "smap_cpuid");

	if (!cpuid || !*cpuid)
		cpuid = rundir_context(run, "kmod_smap_cpuid");
	return smap_case_read(rundir_context(run, "smap_state"),
			      rundir_context(run, "smap_requested_off"),
			      rundir_context(run, "smap_off_method"), cpuid);
}

int smap_case_kernel_uses_smap(enum smap_case c)
{
	return c == SMAP_CASE_ON || c == SMAP_CASE_ON_IGNORED;
}

/* The parameter a run's smap_off_method names. */
static const char *parameter(const char *method)
{
	return is(method, "nosmap") ? "nosmap" : "clearcpuid=smap";
}

const char *smap_case_sentence(enum smap_case c, const char *method,
			       char *buf, size_t len)
{
	switch (c) {
	case SMAP_CASE_UNRECORDED:
		snprintf(buf, len, "the run does not record whether SMAP was on (no smap_state)");
		break;
	case SMAP_CASE_ON:
		snprintf(buf, len, "SMAP is on in this boot: the kernel uses it (smap in /proc/cpuinfo), so its user accesses run STAC/CLAC");
		break;
	case SMAP_CASE_ON_IGNORED:
		snprintf(buf, len, "SMAP is on in this boot although the command line asks for it off: this kernel ignored the parameter, so its user accesses run STAC/CLAC");
		break;
	case SMAP_CASE_OFF_ASKED:
		snprintf(buf, len, "SMAP is off in this boot: the command line turned it off (%s), so the kernel's STAC/CLAC are patched to NOPs",
			 parameter(method));
		break;
	case SMAP_CASE_OFF_BY_KERNEL:
		snprintf(buf, len, "SMAP is off in this boot: the CPU has SMAP (smap_cpuid=1) but this kernel does not use it (smap_cpuinfo=0), and no parameter on the command line turned it off: a paravirtual or hypervisor-provided kernel (or one older than Linux 5.19 built without CONFIG_X86_SMAP), which runs no STAC/CLAC");
		break;
	case SMAP_CASE_OFF_NO_CPU:
		snprintf(buf, len, "SMAP is off in this boot: the CPU (or the virtual machine's CPU model) has no SMAP (smap_cpuid=0), so the kernel runs no STAC/CLAC and raw ones would fault (#UD)");
		break;
	case SMAP_CASE_OFF_UNTOLD:
		snprintf(buf, len, "SMAP is off in this boot (smap_cpuinfo=0) and no parameter turned it off; the run does not record whether the CPU has it (no smap_cpuid): the kernel runs no STAC/CLAC");
		break;
	}
	return buf;
}

const char *smap_case_where_smap_is_used(enum smap_case c, const char *method)
{
	switch (c) {
	case SMAP_CASE_OFF_ASKED:
		return is(method, "nosmap") ?
		       "a boot without nosmap (`sudo ./run-bench.sh --boots 4` takes both kinds, docs/boot-series.md)" :
		       "a boot without clearcpuid=smap (`sudo ./run-bench.sh --boots 4` takes both kinds, docs/boot-series.md)";
	case SMAP_CASE_OFF_BY_KERNEL:
		return "another kernel on this CPU, or another machine: this kernel keeps SMAP off with no parameter to take away, so no boot of it uses SMAP";
	case SMAP_CASE_OFF_NO_CPU:
		return "a CPU with SMAP (Intel Broadwell, AMD Zen and later)";
	case SMAP_CASE_OFF_UNTOLD:
		return "a boot whose /proc/cpuinfo lists smap";
	case SMAP_CASE_UNRECORDED:
	case SMAP_CASE_ON:
	case SMAP_CASE_ON_IGNORED:
		break;
	}
	return "";
}
