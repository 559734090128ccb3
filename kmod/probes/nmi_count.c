// SPDX-License-Identifier: GPL-2.0
/*
 * probe: irq_stat.__nmi_count, the NMIs this CPU took (6.1, 6.12)
 * exports: irq_stat
 * tree: arch/x86/include/asm/hardirq.h __nmi_count;
 * without: windows see NMIs only if the other NMI probe answers
 *
 * x86 counts every NMI per CPU in irq_stat, which it exports to
 * modules. Without it a window cannot tell that an NMI ran inside it.
 */
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <asm/hardirq.h>

unsigned int smapbench_probe_nmi_count(void);

unsigned int smapbench_probe_nmi_count(void)
{
	return this_cpu_read(irq_stat.__nmi_count);
}
