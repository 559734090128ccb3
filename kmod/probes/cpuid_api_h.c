// SPDX-License-Identifier: GPL-2.0
/*
 * probe: <asm/cpuid/api.h>, the header of cpuid_count() and cpuid_ecx()
 * tree: arch/x86/include/asm/cpuid/api.h cpuid_count
 * without: nothing left out, <asm/processor.h> declares them there
 *
 * The CPUID helpers lived in <asm/processor.h> (6.1) and <asm/cpuid.h>
 * (6.12), both included by <asm/processor.h>; 7.x keeps them in
 * <asm/cpuid/api.h>, which nothing the module includes pulls in any
 * more. Where it exists the module includes it itself.
 */
#include <linux/types.h>
#include <asm/cpuid/api.h>

u32 smapbench_probe_cpuid_api_h(void);

u32 smapbench_probe_cpuid_api_h(void)
{
	u32 eax, ebx, ecx, edx;

	cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
	return ebx ^ cpuid_ecx(1);
}
