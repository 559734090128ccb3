// SPDX-License-Identifier: GPL-2.0
/*
 * probe: irq_stat.counts[IRQ_COUNT_NMI], the NMIs this CPU took (7.2)
 * exports: irq_stat
 * tree: arch/x86/include/asm/hardirq.h IRQ_COUNT_NMI
 * without: windows see NMIs only if the other NMI probe answers
 *
 * 7.2 keeps x86's per-CPU interrupt counts in an array indexed by
 * enum irq_stat_counts, and its NMI handler counts there; the
 * __nmi_count member (probe nmi_count) is gone. irq_stat is still
 * exported to modules.
 */
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <asm/hardirq.h>

unsigned int smapbench_probe_irq_count_nmi(void);

unsigned int smapbench_probe_irq_count_nmi(void)
{
	return this_cpu_read(irq_stat.counts[IRQ_COUNT_NMI]);
}
