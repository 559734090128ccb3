// SPDX-License-Identifier: GPL-2.0
/*
 * smapbench_main.c - /dev/smapbench: the INFO and RUN ioctls and the
 * timing engine around the loops of smapbench_ops.c.
 *
 * A RUN validates its request, pre-faults the user buffer, pins itself to
 * the current CPU (migrate_disable()) and takes its samples there. Each
 * sample is one interrupts-off window: preemption, interrupts and page
 * faults off, TSC (and the PMU cycle counter) read, the loop run, read
 * again. Between windows interrupts are on and the task may reschedule,
 * so a long run never starves the CPU.
 *
 * The bound on a window is enforced, not hoped for: the iteration count
 * is sized with interrupts on, a request whose single iteration would not
 * fit is refused (-E2BIG) before any window opens, every window is timed
 * from right after interrupts go off to right before they come back on,
 * and one that ran over the budget is discarded, never returned.
 *
 * Nothing here is shared between callers: every RUN allocates its own
 * state, so concurrent callers need no lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/objtool.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <asm/cpufeature.h>
#include <asm/irqflags.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/processor-flags.h>
#include <asm/smap.h>
#include <asm/special_insns.h>
#include <asm/tsc.h>

#include "smapbench_ops.h"
/* cpuid_count(), cpuid_ecx(): 7.x declares them here only. */
#if SMAPBENCH_HAVE_CPUID_API_H
#include <asm/cpuid/api.h>
#endif

/* Empty timed regions whose median is the reported timer overhead. */
#define SMAPBENCH_OVERHEAD_RUNS		64
/* The interrupts-on probe stops doubling at this fraction of the budget. */
#define SMAPBENCH_PROBE_FRACTION		8
/* Probes of one iteration whose minimum decides a refusal (-E2BIG). */
#define SMAPBENCH_PROBE_REPEATS		4
/* Windows are sized to 1 / SMAPBENCH_WINDOW_FRACTION of the budget. */
#define SMAPBENCH_WINDOW_FRACTION		2
/* Warm-up windows spent correcting the estimate, and its growth per step. */
#define SMAPBENCH_WARMUP_TRIES		8
#define SMAPBENCH_WARMUP_GROWTH		16
/* Re-faults in a row one window tolerates before -EAGAIN. */
#define SMAPBENCH_REFAULT_LIMIT		4
/* Windows over the budget in a row that halve the iteration count. */
#define SMAPBENCH_OVERRUN_LIMIT		2
/* Deadline checks per budget: a window overruns by a chunk at most. */
#define SMAPBENCH_CHUNKS			64
/* Windows in a row an NMI or SMI may disturb before -EBUSY. */
#define SMAPBENCH_DISTURB_LIMIT		8
/*
 * General-purpose and fixed counters are 48 bits wide on every x86 PMU
 * smapbench targets; deltas are taken modulo that width.
 */
#define SMAPBENCH_PMC_MASK		GENMASK_ULL(47, 0)

#define SMAPBENCH_CPUID_7_EBX_SMEP	BIT(7)
#define SMAPBENCH_CPUID_7_EBX_SMAP	BIT(20)
#define SMAPBENCH_CPUID_1_ECX_HYPERVISOR	BIT(31)

/*
 * The longest interrupts-off window: on PREEMPT_RT a tenth, because there
 * a task of higher priority must not wait a millisecond for this CPU.
 */
static u32 smapbench_budget_ns(void)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT) ? SMAPBENCH_SAMPLE_BUDGET_NS_RT :
					       SMAPBENCH_SAMPLE_BUDGET_NS;
}

/* SMAP in CPUID, read once: it decides whether raw STAC/CLAC #UD. */
static bool smapbench_smap_cpuid;

static unsigned int smapbench_inject_ac_leak;
module_param_named(inject_ac_leak, smapbench_inject_ac_leak, uint, 0600);
MODULE_PARM_DESC(inject_ac_leak,
		 "For tests: the next N windows end with EFLAGS.AC set, to exercise its recovery (RUN then fails with EIO)");

/**
 * struct smapbench_clock - the two clocks of a sample
 * @event: pinned per-CPU core-cycle counter, NULL without a PMU.
 * @cycles: @event was readable at every read so far.
 */
struct smapbench_clock {
	struct perf_event *event;
	bool cycles;
};

struct smapbench_stamp {
	u64 tsc;
	u64 cycles;
};

/**
 * struct smapbench_run_state - one RUN in progress
 * @req: the validated request.
 * @desc: the op's entry in the op table.
 * @loop: the op x variant loop.
 * @ctx: what @loop works on.
 * @samples: kernel copy of the samples, copied out at the end.
 * @clock: TSC and cycle counter.
 * @budget_tsc: smapbench_budget_ns() in TSC ticks.
 * @window_max_tsc: longest interrupts-off window so far.
 * @over_budget: windows that ran over @budget_tsc.
 * @refaults: times the buffer had to be faulted in again.
 * @disturbed: windows discarded because an NMI or SMI ran inside.
 * @chunk: iterations between two deadline checks (smapbench_run_chunks()).
 * @overhead: scratch for the timer-overhead median.
 */
struct smapbench_run_state {
	struct smapbench_run req;
	const struct smapbench_op_desc *desc;
	smapbench_loop_t loop;
	struct smapbench_ctx ctx;
	struct smapbench_sample *samples;
	struct smapbench_clock clock;
	u64 budget_tsc;
	u64 window_max_tsc;
	u32 over_budget;
	u32 refaults;
	u32 disturbed;
	u32 chunk;
	u64 overhead[SMAPBENCH_OVERHEAD_RUNS];
};

static bool smapbench_cpuid_smap(void)
{
	u32 eax, ebx, ecx, edx;

	if (boot_cpu_data.cpuid_level < 7)
		return false;
	cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
	return ebx & SMAPBENCH_CPUID_7_EBX_SMAP;
}

#ifdef CONFIG_PERF_EVENTS
/*
 * rdpmc of the counter @ev is scheduled on. perf_event_read_local() would
 * be the API, but it is not exported to modules; with interrupts off on
 * the event's own CPU its counter assignment cannot change, so reading
 * the assigned counter directly is exact. The exception entry turns an
 * unexpected #GP (a PMU without rdpmc) into "no cycles".
 */
static bool smapbench_pmc_read(struct perf_event *ev, u64 *val)
{
	u32 lo, hi, bad = 1;

	lockdep_assert_irqs_disabled();
	if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(ev->oncpu) != smp_processor_id())
		return false;
	asm volatile("1:	rdpmc\n"
		     "	xorl %[bad], %[bad]\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : "=a" (lo), "=d" (hi), [bad] "+r" (bad)
		     : "c" (ev->hw.event_base_rdpmc));
	*val = ((u64)hi << 32) | lo;
	return !bad;
}
#else
/* No perf events, no counter to read. */
static bool smapbench_pmc_read(struct perf_event *ev, u64 *val)
{
	return false;
}
#endif

/* Cycles first, TSC last at the start; mirrored at the end. */
static __always_inline void smapbench_clock_start(struct smapbench_clock *c,
						  struct smapbench_stamp *s)
{
	s->cycles = 0;
	if (c->event && !smapbench_pmc_read(c->event, &s->cycles))
		c->cycles = false;
	s->tsc = rdtsc_ordered();
}

static __always_inline void smapbench_clock_stop(struct smapbench_clock *c,
						 struct smapbench_stamp *s)
{
	s->tsc = rdtsc_ordered();
	s->cycles = 0;
	if (c->event && !smapbench_pmc_read(c->event, &s->cycles))
		c->cycles = false;
}

/*
 * Called pinned to @cpu; leaves the clock TSC-only when no PMU helps,
 * and in a kernel built without perf events.
 */
#ifdef CONFIG_PERF_EVENTS
static void smapbench_clock_open(struct smapbench_clock *c, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.size = sizeof(attr),
		.pinned = 1,
	};
	struct perf_event *ev;
	struct smapbench_stamp s;
	unsigned long flags;

	c->event = NULL;
	c->cycles = false;
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return;
	c->event = ev;
	c->cycles = true;
	local_irq_save(flags);
	smapbench_clock_start(c, &s);
	local_irq_restore(flags);
	if (!c->cycles) {
		perf_event_release_kernel(ev);
		c->event = NULL;
	}
}

static void smapbench_clock_close(struct smapbench_clock *c)
{
	if (c->event)
		perf_event_release_kernel(c->event);
	c->event = NULL;
}
#else
static void smapbench_clock_open(struct smapbench_clock *c, int cpu)
{
	c->event = NULL;
	c->cycles = false;
}

static void smapbench_clock_close(struct smapbench_clock *c)
{
}
#endif

/*
 * Sets or clears EFLAGS.AC with the instruction this CPU has: STAC/CLAC
 * when CPUID reports SMAP (with clearcpuid=smap too), else POPF, which
 * sets AC on every x86-64. The stack-frame annotation keeps objtool's
 * uaccess check away: these two change AC where objtool believes it
 * already is what they make it.
 */
static noinline void smapbench_ac_clear(void)
{
	if (smapbench_smap_cpuid)
		asm volatile(SMAPBENCH_ASM_CLAC : : : "memory");
	else
		asm volatile("pushf\n\t"
			     "andl %[noac], (%%rsp)\n\t"
			     "popf"
			     : : [noac] "i" (~(u32)X86_EFLAGS_AC)
			     : "memory", "cc");
}
STACK_FRAME_NON_STANDARD(smapbench_ac_clear);

static noinline void smapbench_ac_set(void)
{
	if (smapbench_smap_cpuid)
		asm volatile(SMAPBENCH_ASM_STAC : : : "memory");
	else
		asm volatile("pushf\n\t"
			     "orl %[ac], (%%rsp)\n\t"
			     "popf"
			     : : [ac] "i" ((u32)X86_EFLAGS_AC)
			     : "memory", "cc");
}
STACK_FRAME_NON_STANDARD(smapbench_ac_set);

/*
 * After a loop: every loop must leave EFLAGS.AC clear, fault paths
 * included. If one did not, clear AC at once, before anything else runs
 * with SMAP open, and say so: a kernel WARNING for a bug, a log line for
 * an injected leak. Returns whether AC was set.
 */
static bool smapbench_ac_recover(bool injected)
{
	unsigned long before = native_save_fl(), after;

	if (likely(!(before & X86_EFLAGS_AC)))
		return false;
	smapbench_ac_clear();
	after = native_save_fl();
	if (injected)
		pr_info("injected EFLAGS.AC leak: cleared with %s, EFLAGS %#lx -> %#lx\n",
			smapbench_smap_cpuid ? "CLAC" : "POPF", before, after);
	else
		WARN_ONCE(1, "a loop returned with EFLAGS.AC set: cleared with %s, EFLAGS %#lx -> %#lx\n",
			  smapbench_smap_cpuid ? "CLAC" : "POPF",
			  before, after);
	return true;
}

/* Whether this window should end with AC set (inject_ac_leak). */
static bool smapbench_ac_leak_wanted(void)
{
	unsigned int left = READ_ONCE(smapbench_inject_ac_leak);

	if (likely(!left))
		return false;
	WRITE_ONCE(smapbench_inject_ac_leak, left - 1);
	return true;
}

/*
 * What else ran on this CPU while a window held interrupts off: an NMI
 * (perf, the watchdog, a machine check) or an SMI (firmware), which no
 * interrupts-off window can keep out. Their counts are read before and
 * after each window; a window with either inside is discarded.
 */
struct smapbench_marks {
	u32 nmi;
	u32 smi;
};

/* MSR_SMI_COUNT answered at load (Intel from Nehalem; not AMD). */
static bool smapbench_smi_count_ok;

/* The SMIs this CPU took, or false where rdmsr faults (#GP). */
static bool smapbench_read_smi_count(u32 *count)
{
	u32 lo, hi, bad = 1;

	asm volatile("1:	rdmsr\n"
		     "	xorl %[bad], %[bad]\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : "=a" (lo), "=d" (hi), [bad] "+r" (bad)
		     : "c" (MSR_SMI_COUNT));
	*count = lo;
	return !bad;
}

/*
 * The NMI count is irq_stat.__nmi_count in 6.1 and 6.12, and
 * irq_stat.counts[IRQ_COUNT_NMI] in 7.2 (kmod/probes/); with neither,
 * INFO says that windows cannot see NMIs (SMAPBENCH_INFO_NMI_COUNT).
 */
static __always_inline void smapbench_marks_read(struct smapbench_marks *m)
{
#if SMAPBENCH_HAVE_NMI_COUNT
	m->nmi = this_cpu_read(irq_stat.__nmi_count);
#elif SMAPBENCH_HAVE_IRQ_COUNT_NMI
	m->nmi = this_cpu_read(irq_stat.counts[IRQ_COUNT_NMI]);
#else
	m->nmi = 0;
#endif
	m->smi = 0;
	if (smapbench_smi_count_ok && !smapbench_read_smi_count(&m->smi))
		m->smi = 0;
}

/*
 * The loop in chunks of st->chunk iterations, the TSC read between
 * them: a chunk that would end past @deadline, judged by the one before
 * it, is not started, and the window ends with -ETIME (then discarded
 * like one over the budget). So a window overruns the budget only by a
 * chunk that ran far slower than the one before it (a budget /
 * SMAPBENCH_CHUNKS of iterations at the probed speed), not by the whole
 * count. The same code runs for every op and variant, inside the timed
 * region: it cancels in inline - nopad. A window whose chunks ran over
 * halves them (smapbench_bounded_window()).
 */
static __always_inline int smapbench_run_chunks(struct smapbench_run_state *st,
						u32 n, u64 deadline)
{
	u64 now, prev = rdtsc();
	u32 k, done = 0;
	int ret;

	for (;;) {
		k = min(n - done, st->chunk);
		st->ctx.first = done;
		ret = st->loop(&st->ctx, k);
		done += k;
		if (ret || done == n)
			return ret;
		now = rdtsc();
		if (now + (now - prev) > deadline)
			return -ETIME;
		prev = now;
	}
}

/*
 * One interrupts-off window around @n iterations. @out gets the sample
 * and the window's own length: from right after local_irq_save() to
 * right before local_irq_restore(), clock reads and checks included.
 * Returns -ETIME for a window stopped at its deadline and -EBUSY for one
 * an NMI or SMI disturbed; neither sample is usable.
 */
static int smapbench_window(struct smapbench_run_state *st, u32 n,
			    struct smapbench_sample *out)
{
	bool leak = smapbench_ac_leak_wanted();
	struct smapbench_marks m0, m1;
	struct smapbench_stamp t0, t1;
	unsigned long flags;
	u64 w0, w1;
	bool ac;
	int ret;

	if (WARN_ON_ONCE(!n))
		return -EINVAL;
	preempt_disable();
	local_irq_save(flags);
	w0 = rdtsc_ordered();
	smapbench_marks_read(&m0);
	pagefault_disable();
	smapbench_clock_start(&st->clock, &t0);
	ret = smapbench_run_chunks(st, n, w0 + st->budget_tsc);
	smapbench_clock_stop(&st->clock, &t1);
	if (unlikely(leak))
		smapbench_ac_set();
	ac = smapbench_ac_recover(leak);
	pagefault_enable();
	smapbench_marks_read(&m1);
	w1 = rdtsc_ordered();
	local_irq_restore(flags);
	preempt_enable();

	out->tsc = t1.tsc - t0.tsc;
	out->cycles = (t1.cycles - t0.cycles) & SMAPBENCH_PMC_MASK;
	out->window_tsc = w1 - w0;
	st->window_max_tsc = max(st->window_max_tsc, out->window_tsc);
	if (ac)
		return -EIO;
	if (!ret && (m0.nmi != m1.nmi || m0.smi != m1.smi))
		return -EBUSY;
	return ret;
}

/*
 * @n iterations with interrupts on (and preemption: a preempted probe is
 * only slower, which errs towards fewer iterations): what the sizing
 * measures before any window may hold interrupts off.
 */
static int smapbench_probe(struct smapbench_run_state *st, u32 n, u64 *ticks)
{
	u64 t0;
	int ret;

	pagefault_disable();
	t0 = rdtsc_ordered();
	st->ctx.first = 0;
	ret = st->loop(&st->ctx, n);
	*ticks = rdtsc_ordered() - t0;
	if (smapbench_ac_recover(false))
		ret = -EIO;
	pagefault_enable();
	return ret;
}

/*
 * Writes every byte the loops will touch (and the string strncpy reads),
 * with page faults allowed: afterwards the loops find the pages present
 * and writable. A bad buffer fails here, before any timing.
 */
static int smapbench_prefault(struct smapbench_run_state *st)
{
	struct smapbench_ctx *c = &st->ctx;

	if (!c->span)
		return 0;
	if (clear_user(c->ubuf, c->span))
		return -EFAULT;
	if (st->desc->flags & SMAPBENCH_OPF_STRING) {
		memset(c->kbuf, 'x', c->size - 1);
		((char *)c->kbuf)[c->size - 1] = '\0';
		if (copy_to_user(c->ubuf, c->kbuf, c->size))
			return -EFAULT;
	}
	return 0;
}

/*
 * A window (or with @sample NULL, a probe) whose loop faulted because a
 * page was reclaimed, migrated or unmapped while interrupts were on:
 * fault the buffer in again and repeat, at most SMAPBENCH_REFAULT_LIMIT
 * times in a row. A buffer that cannot be faulted in is -EFAULT; one
 * that keeps losing pages is -EAGAIN, never mistaken for a bad address.
 */
static int smapbench_measure(struct smapbench_run_state *st, u32 n,
			     struct smapbench_sample *sample, u64 *ticks)
{
	int tries, ret;

	for (tries = 0;; tries++) {
		ret = sample ? smapbench_window(st, n, sample) :
			       smapbench_probe(st, n, ticks);
		if (ret != -EFAULT)
			return ret;
		if (tries == SMAPBENCH_REFAULT_LIMIT)
			return -EAGAIN;
		st->refaults++;
		ret = smapbench_prefault(st);
		if (ret)
			return ret;
	}
}

/* Between windows: let the CPU go, and stop when the caller is killed. */
static int smapbench_breathe(void)
{
	if (fatal_signal_pending(current))
		return -EINTR;
	cond_resched();
	return 0;
}

/*
 * One window that counts. A window over the budget, or stopped at its
 * deadline, is discarded and taken again; SMAPBENCH_OVERRUN_LIMIT of them
 * in a row halve *@n (the caller then starts its samples again), and at
 * one iteration end the run: -E2BIG. A window an NMI or SMI disturbed is
 * discarded and taken again, SMAPBENCH_DISTURB_LIMIT times in a row at
 * most: then -EBUSY (something fires NMIs at every window: perf
 * sampling, say).
 */
static int smapbench_bounded_window(struct smapbench_run_state *st, u32 *n,
				    struct smapbench_sample *out)
{
	int overruns = 0, disturbed = 0, ret;
	bool stopped;

	for (;;) {
		ret = smapbench_measure(st, *n, out, NULL);
		if (ret == -EBUSY) {
			st->disturbed++;
			if (++disturbed > SMAPBENCH_DISTURB_LIMIT)
				return -EBUSY;
			ret = smapbench_breathe();
			if (ret)
				return ret;
			continue;
		}
		stopped = ret == -ETIME;
		if (stopped)
			ret = 0;
		if (!ret)
			ret = smapbench_breathe();
		if (ret)
			return ret;
		if (!stopped && out->window_tsc <= st->budget_tsc)
			return 0;
		st->over_budget++;
		/* Slower than sized: check the deadline sooner. */
		st->chunk = max(st->chunk / 2, 1U);
		if (++overruns < SMAPBENCH_OVERRUN_LIMIT)
			continue;
		if (*n == 1)
			return -E2BIG;
		*n /= 2;
		overruns = 0;
	}
}

static int smapbench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median of empty windows: what the clock reads themselves cost. */
static void smapbench_measure_overhead(struct smapbench_run_state *st, u64 *tsc,
				       u64 *cycles)
{
	struct smapbench_stamp t0, t1;
	unsigned long flags;
	int i;

	for (i = 0; i < SMAPBENCH_OVERHEAD_RUNS; i++) {
		local_irq_save(flags);
		smapbench_clock_start(&st->clock, &t0);
		smapbench_clock_stop(&st->clock, &t1);
		local_irq_restore(flags);
		st->overhead[i] = t1.tsc - t0.tsc;
	}
	sort(st->overhead, SMAPBENCH_OVERHEAD_RUNS, sizeof(u64),
	     smapbench_cmp_u64, NULL);
	*tsc = st->overhead[SMAPBENCH_OVERHEAD_RUNS / 2];

	*cycles = 0;
	if (!st->clock.cycles)
		return;
	for (i = 0; i < SMAPBENCH_OVERHEAD_RUNS; i++) {
		local_irq_save(flags);
		smapbench_clock_start(&st->clock, &t0);
		smapbench_clock_stop(&st->clock, &t1);
		local_irq_restore(flags);
		st->overhead[i] = (t1.cycles - t0.cycles) & SMAPBENCH_PMC_MASK;
	}
	sort(st->overhead, SMAPBENCH_OVERHEAD_RUNS, sizeof(u64),
	     smapbench_cmp_u64, NULL);
	*cycles = st->overhead[SMAPBENCH_OVERHEAD_RUNS / 2];
}

/*
 * How many iterations fit in a window, found with interrupts on: the loop
 * runs 1, 2, 4, ... iterations until one run takes a
 * SMAPBENCH_PROBE_FRACTION of the budget (or reaches the request). One
 * iteration that takes more than the window target (half the budget)
 * even at its fastest of SMAPBENCH_PROBE_REPEATS tries is refused:
 * -E2BIG, no window opened. The count is sized to the target, then
 * warm-up windows, discarded, correct it: a first pass that was slow
 * (cold caches, or an emulator translating the code) makes it low, a
 * disturbed one high, so it is corrected both ways until a window lands
 * between half the target and the budget (or the count reaches 1 or
 * @want).
 */
static int smapbench_size_iterations(struct smapbench_run_state *st, u32 *done)
{
	u64 target = div_u64(st->budget_tsc, SMAPBENCH_WINDOW_FRACTION);
	u32 want = st->req.iterations, n = 1;
	struct smapbench_sample s;
	u64 ticks, t, next;
	int ret, tries;

	for (;;) {
		ret = smapbench_measure(st, n, NULL, &ticks);
		if (!ret)
			ret = smapbench_breathe();
		if (ret)
			return ret;
		if (n >= want ||
		    ticks >= div_u64(st->budget_tsc, SMAPBENCH_PROBE_FRACTION))
			break;
		n = min_t(u64, (u64)n * 2, want);
	}
	for (tries = 1;
	     n == 1 && ticks > target && tries < SMAPBENCH_PROBE_REPEATS;
	     tries++) {
		ret = smapbench_measure(st, 1, NULL, &t);
		if (!ret)
			ret = smapbench_breathe();
		if (ret)
			return ret;
		ticks = min(ticks, t);
	}
	st->req.iteration_tsc = max_t(u64, DIV_ROUND_UP_ULL(ticks, n), 1);
	st->chunk = clamp_t(u64,
			    div64_u64(div_u64(st->budget_tsc, SMAPBENCH_CHUNKS),
				      st->req.iteration_tsc), 1, U32_MAX);
	if (n == 1 && ticks > target)
		return -E2BIG;
	*done = clamp_t(u64, div64_u64(target, st->req.iteration_tsc), 1, want);

	for (tries = 0; tries < SMAPBENCH_WARMUP_TRIES; tries++) {
		ret = smapbench_bounded_window(st, done, &s);
		if (ret)
			return ret;
		t = max_t(u64, s.window_tsc, 1);
		if (t > target && *done > 1)
			next = max_t(u64, div64_u64((u64)*done * target, t), 1);
		else if (t < target / 2 && *done < want &&
			 tries < SMAPBENCH_WARMUP_TRIES - 1)
			next = min3((u64)want,
				    (u64)*done * SMAPBENCH_WARMUP_GROWTH,
				    div64_u64((u64)*done * target, t));
		else
			break;
		*done = next;
	}
	return 0;
}

static int smapbench_take_samples(struct smapbench_run_state *st)
{
	struct smapbench_run *r = &st->req;
	u32 i, done = 0, count;
	int cpu, ret;

	/*
	 * Pinned for the whole run, so all samples, the counter and the
	 * reported CPU agree; sleeping (faults, cond_resched) stays allowed.
	 */
	migrate_disable();
	cpu = smp_processor_id();
	smapbench_clock_open(&st->clock, cpu);
	smapbench_measure_overhead(st, &r->timer_overhead_tsc,
				   &r->timer_overhead_cycles);

	ret = smapbench_size_iterations(st, &done);
	for (i = 0; !ret && i < r->samples; i++) {
		count = done;
		ret = smapbench_bounded_window(st, &done, &st->samples[i]);
		/* All samples share one count: a halved one starts again. */
		if (!ret && done != count)
			i = -1;
	}

	r->cpu = cpu;
	r->iterations_done = ret ? 0 : done;
	r->result_flags = 0;
	if (r->iterations_done && r->iterations_done < r->iterations)
		r->result_flags |= SMAPBENCH_RUN_CLAMPED;
	if (st->clock.cycles) {
		r->result_flags |= SMAPBENCH_RUN_CYCLES;
	} else {
		/* The counter went away mid-run: no sample has valid cycles. */
		r->timer_overhead_cycles = 0;
		for (i = 0; i < r->samples; i++)
			st->samples[i].cycles = 0;
	}
	smapbench_clock_close(&st->clock);
	migrate_enable();
	r->window_max_tsc = st->window_max_tsc;
	r->over_budget = st->over_budget;
	r->refaults = st->refaults;
	r->disturbed = st->disturbed;
	return ret;
}

static bool smapbench_all_zero(const u32 *v, size_t n)
{
	while (n--)
		if (*v++)
			return false;
	return true;
}

/*
 * Structural checks first (-EINVAL: the same answer on every machine),
 * then what this CPU and kernel cannot do (-EOPNOTSUPP), then addresses
 * (-EFAULT). Fills in the descriptor, loop and context geometry.
 */
static int smapbench_check_run(struct smapbench_run_state *st)
{
	struct smapbench_run *r = &st->req;
	const struct smapbench_op_desc *d;
	bool blocks;
	u32 op, variant, unit, batch;

	if (!smapbench_all_zero(r->reserved, ARRAY_SIZE(r->reserved)))
		return -EINVAL;
	if (r->op >= SMAPBENCH_OP_COUNT ||
	    r->variant >= SMAPBENCH_VARIANT_COUNT)
		return -EINVAL;
	op = array_index_nospec(r->op, SMAPBENCH_OP_COUNT);
	variant = array_index_nospec(r->variant, SMAPBENCH_VARIANT_COUNT);
	d = &smapbench_ops[op];
	if (!(d->variants & BIT(variant)))
		return -EINVAL;

	if (d->min_size == d->max_size) {
		/* a fixed unit, which size 0 selects too */
		if (r->size && r->size != d->min_size)
			return -EINVAL;
		unit = d->min_size;
	} else {
		if (r->size < d->min_size || r->size > d->max_size)
			return -EINVAL;
		if ((d->flags & SMAPBENCH_OPF_POW2) && !is_power_of_2(r->size))
			return -EINVAL;
		unit = r->size;
	}

	blocks = SMAPBENCH_VARIANTS_BLOCK & BIT(variant);
	if (blocks ? r->batch < 1 || r->batch > SMAPBENCH_MAX_BATCH : r->batch)
		return -EINVAL;
	batch = blocks ? r->batch : 1;
	if (r->iterations < 1 || r->iterations > SMAPBENCH_MAX_ITERATIONS)
		return -EINVAL;
	if (r->samples < 1 || r->samples > SMAPBENCH_MAX_SAMPLES)
		return -EINVAL;

	if (r->sample_size < SMAPBENCH_SAMPLE_SIZE_MIN ||
	    r->sample_size > SMAPBENCH_MAX_SAMPLE_SIZE || r->sample_size % 8)
		return -EINVAL;
	if (r->sample_flags & ~SMAPBENCH_SAMPLE_WINDOW)
		return -EINVAL;
	if ((r->sample_flags & SMAPBENCH_SAMPLE_WINDOW) &&
	    r->sample_size < offsetofend(struct smapbench_sample, window_tsc))
		return -EINVAL;

	st->ctx.size = unit;
	st->ctx.batch = batch;
	st->ctx.span = (unsigned long)unit * batch;
	if (st->ctx.span) {
		if (r->buffer_len < st->ctx.span ||
		    r->buffer_len > SMAPBENCH_MAX_BUFFER)
			return -EINVAL;
		if (r->buffer % d->align)
			return -EINVAL;
	}

	if (!d->loop[variant])
		return -EOPNOTSUPP;
	if (((d->flags & SMAPBENCH_OPF_RAW) ||
	     variant == SMAPBENCH_VARIANT_INLINE ||
	     variant == SMAPBENCH_VARIANT_NOPAD) && !smapbench_smap_cpuid)
		return -EOPNOTSUPP;
	st->desc = d;
	st->loop = d->loop[variant];

	if (st->ctx.span) {
		st->ctx.ubuf = u64_to_user_ptr(r->buffer);
		if (!access_ok(st->ctx.ubuf, r->buffer_len))
			return -EFAULT;
	}
	if (!access_ok(u64_to_user_ptr(r->samples_ptr),
		       (unsigned long)r->samples * r->sample_size))
		return -EFAULT;
	return 0;
}

/*
 * The samples in the caller's layout: sample_size bytes each, of which
 * the fields both sides know are filled and the rest was zeroed before.
 */
static int smapbench_copy_samples(struct smapbench_run_state *st)
{
	struct smapbench_run *r = &st->req;
	void __user *out = u64_to_user_ptr(r->samples_ptr);
	size_t len = min_t(size_t, r->sample_size, sizeof(*st->samples));
	u32 i;

	if (!(r->sample_flags & SMAPBENCH_SAMPLE_WINDOW))
		len = min_t(size_t, len,
			    offsetof(struct smapbench_sample, window_tsc));
	for (i = 0; i < r->samples; i++) {
		if (copy_to_user(out, &st->samples[i], len))
			return -EFAULT;
		out += r->sample_size;
	}
	return 0;
}

static long smapbench_ioctl_run(struct smapbench_run __user *arg)
{
	struct smapbench_run_state *st;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	/* No deadline checks until the sizing knows an iteration's length. */
	st->chunk = U32_MAX;
	ret = -EFAULT;
	if (copy_from_user(&st->req, arg, sizeof(st->req)))
		goto out;
	ret = smapbench_check_run(st);
	if (ret)
		goto out;

	/* A bad samples_ptr fails now, not after the whole run. */
	ret = -EFAULT;
	if (clear_user(u64_to_user_ptr(st->req.samples_ptr),
		       (size_t)st->req.samples * st->req.sample_size))
		goto out;

	ret = -ENOMEM;
	st->samples = kvcalloc(st->req.samples, sizeof(*st->samples),
			       GFP_KERNEL);
	if (!st->samples)
		goto out;
	/* The copies' kernel side, or where the string is made. */
	if (st->desc->flags & (SMAPBENCH_OPF_KBUF | SMAPBENCH_OPF_STRING)) {
		st->ctx.kbuf = kzalloc(st->ctx.size, GFP_KERNEL);
		if (!st->ctx.kbuf)
			goto out;
	}

	ret = smapbench_prefault(st);
	if (ret)
		goto out;
	st->budget_tsc = div_u64((u64)smapbench_budget_ns() *
				 (tsc_khz ? tsc_khz : 1000000), 1000000);
	st->req.budget_tsc = st->budget_tsc;
	ret = smapbench_take_samples(st);
	if (!ret)
		ret = smapbench_copy_samples(st);
	/*
	 * Only the documented (out) fields change; reserved stay zero. A
	 * refusal or a vanishing buffer reports its figures too.
	 */
	if ((!ret || ret == -E2BIG || ret == -EAGAIN || ret == -EBUSY) &&
	    copy_to_user(arg, &st->req, sizeof(st->req)))
		ret = -EFAULT;
out:
	kfree(st->ctx.kbuf);
	kvfree(st->samples);
	kfree(st);
	return ret;
}

static long smapbench_ioctl_info(struct smapbench_info __user *arg)
{
	struct smapbench_info info;
	u32 eax, ebx, ecx, edx;
	unsigned long cr4;
	struct smapbench_clock c;
	int op, v;

	memset(&info, 0, sizeof(info));
	info.abi_version = SMAPBENCH_ABI_VERSION;

	if (boot_cpu_data.cpuid_level >= 7) {
		cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
		if (ebx & SMAPBENCH_CPUID_7_EBX_SMAP)
			info.flags |= SMAPBENCH_INFO_SMAP_CPUID;
		if (ebx & SMAPBENCH_CPUID_7_EBX_SMEP)
			info.flags |= SMAPBENCH_INFO_SMEP_CPUID;
	}
	if (cpuid_ecx(1) & SMAPBENCH_CPUID_1_ECX_HYPERVISOR)
		info.flags |= SMAPBENCH_INFO_HYPERVISOR;
	if (boot_cpu_has(X86_FEATURE_SMAP))
		info.flags |= SMAPBENCH_INFO_SMAP_FEATURE;
	if (boot_cpu_has(X86_FEATURE_SMEP))
		info.flags |= SMAPBENCH_INFO_SMEP_FEATURE;
	cr4 = __read_cr4();
	if (cr4 & X86_CR4_SMAP)
		info.flags |= SMAPBENCH_INFO_SMAP_CR4;
	if (cr4 & X86_CR4_SMEP)
		info.flags |= SMAPBENCH_INFO_SMEP_CR4;

	migrate_disable();
	smapbench_clock_open(&c, smp_processor_id());
	if (c.cycles)
		info.flags |= SMAPBENCH_INFO_PMU_CYCLES;
	smapbench_clock_close(&c);
	migrate_enable();

	if (SMAPBENCH_HAVE_MASKED)
		info.flags |= SMAPBENCH_INFO_MASKED_UACCESS;
	if (SMAPBENCH_HAVE_TRY_CMPXCHG_USER)
		info.flags |= SMAPBENCH_INFO_FUTEX_BLOCKS;
	if (SMAPBENCH_HAVE_NMI_COUNT || SMAPBENCH_HAVE_IRQ_COUNT_NMI)
		info.flags |= SMAPBENCH_INFO_NMI_COUNT;
	if (smapbench_smi_count_ok)
		info.flags |= SMAPBENCH_INFO_SMI_COUNT;

	info.tsc_khz = tsc_khz;
	for (op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		for (v = 0; v < SMAPBENCH_VARIANT_COUNT; v++) {
			if (!smapbench_ops[op].loop[v])
				continue;
			info.ops_mask |= BIT_ULL(op);
			info.variants_mask |= BIT(v);
		}
	}
	info.max_samples = SMAPBENCH_MAX_SAMPLES;
	info.max_iterations = SMAPBENCH_MAX_ITERATIONS;
	info.max_size = SMAPBENCH_MAX_SIZE;
	info.max_batch = SMAPBENCH_MAX_BATCH;
	info.sample_budget_ns = smapbench_budget_ns();
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		info.flags |= SMAPBENCH_INFO_PREEMPT_RT;
	info.sample_size = sizeof(struct smapbench_sample);
	info.sample_flags = SMAPBENCH_SAMPLE_WINDOW;
	strscpy(info.release, utsname()->release, sizeof(info.release));

	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

/*
 * Both commands need CAP_PERFMON (or CAP_SYS_ADMIN): they create a
 * pinned CPU-wide cycle counter, which perf_event_paranoid would
 * otherwise govern, and RUN holds interrupts off. The file mode (0600)
 * is the first gate, the capability of the caller the second.
 */
static long smapbench_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	if (cmd != SMAPBENCH_IOC_INFO && cmd != SMAPBENCH_IOC_RUN)
		return -ENOTTY;
	if (!perfmon_capable())
		return -EPERM;
	if (cmd == SMAPBENCH_IOC_INFO)
		return smapbench_ioctl_info((void __user *)arg);
	return smapbench_ioctl_run((void __user *)arg);
}

/*
 * .owner makes every open file hold a module reference: rmmod fails with
 * EBUSY while /dev/smapbench is open, so no ioctl can outlive the code.
 * The structures have one layout for 32- and 64-bit callers, whose
 * pointers travel as __u64: only the argument itself needs converting.
 */
static const struct file_operations smapbench_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = smapbench_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice smapbench_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "smapbench",
	.fops = &smapbench_fops,
	.mode = 0600,
};

static int __init smapbench_init(void)
{
	u32 smis;
	int ret = smapbench_ops_check();

	if (ret)
		return ret;
	smapbench_smap_cpuid = smapbench_cpuid_smap();
	smapbench_smi_count_ok = smapbench_read_smi_count(&smis);
	ret = misc_register(&smapbench_dev);
	if (ret)
		return ret;
	pr_info("ready: SMAP cpuid=%d feature=%d cr4=%d, tsc_khz=%u, masked=%d, futex blocks=%d, NMIs seen=%d, windows of at most %u ns%s\n",
		smapbench_smap_cpuid, boot_cpu_has(X86_FEATURE_SMAP),
		!!(__read_cr4() & X86_CR4_SMAP), tsc_khz, SMAPBENCH_HAVE_MASKED,
		SMAPBENCH_HAVE_TRY_CMPXCHG_USER,
		SMAPBENCH_HAVE_NMI_COUNT || SMAPBENCH_HAVE_IRQ_COUNT_NMI,
		smapbench_budget_ns(),
		IS_ENABLED(CONFIG_PREEMPT_RT) ? " (PREEMPT_RT)" : "");
	return 0;
}

static void __exit smapbench_exit(void)
{
	misc_deregister(&smapbench_dev);
}

module_init(smapbench_init);
module_exit(smapbench_exit);

MODULE_DESCRIPTION("Times STAC/CLAC and user accesses for the smapbench benchmark");
MODULE_LICENSE("GPL");
