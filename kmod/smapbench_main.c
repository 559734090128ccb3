// SPDX-License-Identifier: GPL-2.0
/*
 * smapbench_main.c - /dev/smapbench: the INFO and RUN ioctls and the
 * timing engine around the loops of smapbench_ops.c.
 *
 * A RUN validates its request, pre-faults the user buffer, pins itself to
 * the current CPU (migrate_disable()) and takes its samples there. Each
 * sample is one interrupts-off window: preemption, interrupts and page
 * faults off, TSC (and the PMU cycle counter) read, the loop run, read
 * again. Between samples interrupts are on and the task may reschedule,
 * so a long run never starves the CPU; a sample's window is bounded by
 * SMAPBENCH_SAMPLE_BUDGET_NS by sizing the iteration count first.
 *
 * Nothing here is shared between callers: every RUN allocates its own
 * state, so concurrent callers need no lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nospec.h>
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
#include <asm/special_insns.h>
#include <asm/tsc.h>

#include "smapbench_ops.h"

/* Empty timed regions whose median is the reported timer overhead. */
#define OVERHEAD_RUNS		64
/* The sizing probe stops doubling at this fraction of the budget. */
#define PROBE_FRACTION		8
/* Warm-up windows spent correcting the estimate, and its growth per step. */
#define WARMUP_TRIES		8
#define WARMUP_GROWTH		16
/* Re-faults of the buffer a run tolerates (page reclaim, migration). */
#define MAX_REFAULTS		16
/*
 * General-purpose and fixed counters are 48 bits wide on every x86 PMU
 * smapbench targets; deltas are taken modulo that width.
 */
#define PMC_MASK		GENMASK_ULL(47, 0)

#define CPUID_7_EBX_SMEP	BIT(7)
#define CPUID_7_EBX_SMAP	BIT(20)
#define CPUID_1_ECX_HYPERVISOR	BIT(31)

/**
 * struct clock - the two clocks of a sample
 * @event: pinned per-CPU core-cycle counter, NULL without a PMU.
 * @cycles: @event was readable at every read so far.
 */
struct clock {
	struct perf_event *event;
	bool cycles;
};

struct stamp {
	u64 tsc;
	u64 cycles;
};

/**
 * struct run_state - one RUN in progress
 * @req: the validated request.
 * @desc: the op's entry in the op table.
 * @loop: the op x variant loop.
 * @ctx: what @loop works on.
 * @samples: kernel copy of the samples, copied out at the end.
 * @clock: TSC and cycle counter.
 * @budget_tsc: SMAPBENCH_SAMPLE_BUDGET_NS in TSC ticks.
 * @refaults: times the buffer had to be faulted in again.
 * @overhead: scratch for the timer-overhead median.
 */
struct run_state {
	struct smapbench_run req;
	const struct smapbench_op_desc *desc;
	smapbench_loop_t loop;
	struct smapbench_ctx ctx;
	struct smapbench_sample *samples;
	struct clock clock;
	u64 budget_tsc;
	unsigned int refaults;
	u64 overhead[OVERHEAD_RUNS];
};

/* SMAP in CPUID decides whether raw STAC/CLAC execute or raise #UD. */
static bool cpuid_smap(void)
{
	u32 eax, ebx, ecx, edx;

	if (boot_cpu_data.cpuid_level < 7)
		return false;
	cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
	return ebx & CPUID_7_EBX_SMAP;
}

/*
 * rdpmc of the counter @ev is scheduled on. perf_event_read_local() would
 * be the API, but it is not exported to modules; with interrupts off on
 * the event's own CPU its counter assignment cannot change, so reading
 * the assigned counter directly is exact. The exception entry turns an
 * unexpected #GP (a PMU without rdpmc) into "no cycles".
 */
static bool pmc_read(struct perf_event *ev, u64 *val)
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

/* Cycles first, TSC last at the start; mirrored at the end. */
static __always_inline void clock_start(struct clock *c, struct stamp *s)
{
	s->cycles = 0;
	if (c->event && !pmc_read(c->event, &s->cycles))
		c->cycles = false;
	s->tsc = rdtsc_ordered();
}

static __always_inline void clock_stop(struct clock *c, struct stamp *s)
{
	s->tsc = rdtsc_ordered();
	s->cycles = 0;
	if (c->event && !pmc_read(c->event, &s->cycles))
		c->cycles = false;
}

/* Called pinned to @cpu; leaves the clock TSC-only when no PMU helps. */
static void clock_open(struct clock *c, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.size = sizeof(attr),
		.pinned = 1,
	};
	struct perf_event *ev;
	struct stamp s;
	unsigned long flags;

	c->event = NULL;
	c->cycles = false;
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return;
	c->event = ev;
	c->cycles = true;
	local_irq_save(flags);
	clock_start(c, &s);
	local_irq_restore(flags);
	if (!c->cycles) {
		perf_event_release_kernel(ev);
		c->event = NULL;
	}
}

static void clock_close(struct clock *c)
{
	if (c->event)
		perf_event_release_kernel(c->event);
	c->event = NULL;
}

/* One interrupts-off window around @n iterations. */
static int timed(struct run_state *st, u32 n, struct smapbench_sample *out)
{
	struct stamp t0, t1;
	unsigned long flags;
	int ret;

	preempt_disable();
	local_irq_save(flags);
	pagefault_disable();
	clock_start(&st->clock, &t0);
	ret = st->loop(&st->ctx, n);
	clock_stop(&st->clock, &t1);
	/* Every loop must leave AC clear, fault paths included: check it. */
	if (WARN_ON_ONCE(native_save_fl() & X86_EFLAGS_AC))
		ret = -EIO;
	pagefault_enable();
	local_irq_restore(flags);
	preempt_enable();

	out->tsc = t1.tsc - t0.tsc;
	out->cycles = (t1.cycles - t0.cycles) & PMC_MASK;
	return ret;
}

/*
 * Writes every byte the loops will touch (and the string strncpy reads),
 * with page faults allowed: afterwards the loops find the pages present
 * and writable. A bad buffer fails here, before any timing.
 */
static int prefault(struct run_state *st)
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
 * A timed window; if the loop faulted (a page was reclaimed or migrated
 * while interrupts were on) fault the buffer in again and retry once.
 */
static int timed_retry(struct run_state *st, u32 n,
		       struct smapbench_sample *out)
{
	int ret = timed(st, n, out);

	if (ret != -EFAULT || st->refaults >= MAX_REFAULTS)
		return ret;
	st->refaults++;
	ret = prefault(st);
	if (ret)
		return ret;
	return timed(st, n, out);
}

/* Between windows: let the CPU go, and stop when the caller is killed. */
static int breathe(void)
{
	if (fatal_signal_pending(current))
		return -EINTR;
	cond_resched();
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median of empty windows: what the clock reads themselves cost. */
static void measure_overhead(struct run_state *st, u64 *tsc, u64 *cycles)
{
	struct stamp t0, t1;
	unsigned long flags;
	int i;

	for (i = 0; i < OVERHEAD_RUNS; i++) {
		local_irq_save(flags);
		clock_start(&st->clock, &t0);
		clock_stop(&st->clock, &t1);
		local_irq_restore(flags);
		st->overhead[i] = t1.tsc - t0.tsc;
	}
	sort(st->overhead, OVERHEAD_RUNS, sizeof(u64), cmp_u64, NULL);
	*tsc = st->overhead[OVERHEAD_RUNS / 2];

	*cycles = 0;
	if (!st->clock.cycles)
		return;
	for (i = 0; i < OVERHEAD_RUNS; i++) {
		local_irq_save(flags);
		clock_start(&st->clock, &t0);
		clock_stop(&st->clock, &t1);
		local_irq_restore(flags);
		st->overhead[i] = (t1.cycles - t0.cycles) & PMC_MASK;
	}
	sort(st->overhead, OVERHEAD_RUNS, sizeof(u64), cmp_u64, NULL);
	*cycles = st->overhead[OVERHEAD_RUNS / 2];
}

/*
 * Finds how many iterations fit in the budget and runs the warm-up.
 * Doubling from one iteration, each probe window stays below about
 * 2 / PROBE_FRACTION of the budget (plus one iteration), so not even the
 * probe can hold interrupts off for long whatever was asked. The count is
 * then sized to 3/4 of the budget. Warm-up windows, discarded, check the
 * estimate: a first pass that was slow (cold caches, or an emulator
 * translating the code) makes it low, a disturbed one high, so it is
 * corrected both ways until a window at the final count lands between
 * half the target and the budget (or the count hits 1 or @want).
 */
static int size_iterations(struct run_state *st, u32 *done)
{
	u32 want = st->req.iterations, n = 1;
	struct smapbench_sample s;
	u64 target = st->budget_tsc * 3 / 4;
	u64 per_iter, next;
	int ret, tries;

	for (;;) {
		ret = timed_retry(st, n, &s);
		if (ret)
			return ret;
		ret = breathe();
		if (ret)
			return ret;
		if (n >= want || s.tsc >= st->budget_tsc / PROBE_FRACTION)
			break;
		n = min_t(u64, (u64)n * 2, want);
	}
	per_iter = max_t(u64, DIV_ROUND_UP_ULL(s.tsc, n), 1);
	*done = clamp_t(u64, div64_u64(target, per_iter), 1, want);

	for (tries = 0; tries < WARMUP_TRIES; tries++) {
		ret = timed_retry(st, *done, &s);
		if (ret)
			return ret;
		ret = breathe();
		if (ret)
			return ret;
		s.tsc = max_t(u64, s.tsc, 1);
		if (s.tsc > st->budget_tsc && *done > 1)
			next = max_t(u64, div64_u64((u64)*done * target, s.tsc),
				     1);
		else if (s.tsc < target / 2 && *done < want &&
			 tries < WARMUP_TRIES - 1)
			next = min3((u64)want, (u64)*done * WARMUP_GROWTH,
				    div64_u64((u64)*done * target, s.tsc));
		else
			break;
		*done = next;
	}
	return 0;
}

static int take_samples(struct run_state *st)
{
	struct smapbench_run *r = &st->req;
	u32 i, done = 0;
	int cpu, ret;

	/*
	 * Pinned for the whole run, so all samples, the counter and the
	 * reported CPU agree; sleeping (faults, cond_resched) stays allowed.
	 */
	migrate_disable();
	cpu = smp_processor_id();
	clock_open(&st->clock, cpu);
	measure_overhead(st, &r->timer_overhead_tsc,
			 &r->timer_overhead_cycles);

	ret = size_iterations(st, &done);
	for (i = 0; !ret && i < r->samples; i++) {
		ret = timed_retry(st, done, &st->samples[i]);
		if (!ret)
			ret = breathe();
	}

	r->cpu = cpu;
	r->iterations_done = done;
	r->result_flags = 0;
	if (done < r->iterations)
		r->result_flags |= SMAPBENCH_RUN_CLAMPED;
	if (st->clock.cycles) {
		r->result_flags |= SMAPBENCH_RUN_CYCLES;
	} else {
		/* The counter went away mid-run: no sample has valid cycles. */
		r->timer_overhead_cycles = 0;
		for (i = 0; i < r->samples; i++)
			st->samples[i].cycles = 0;
	}
	clock_close(&st->clock);
	migrate_enable();
	return ret;
}

static bool all_zero(const u32 *v, size_t n)
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
static int check_run(struct run_state *st)
{
	struct smapbench_run *r = &st->req;
	const struct smapbench_op_desc *d;
	bool blocks;
	u32 op, variant, unit, batch;

	if (!all_zero(r->reserved, ARRAY_SIZE(r->reserved)))
		return -EINVAL;
	if (r->op >= SMAPBENCH_OP_COUNT || r->variant >= SMAPBENCH_VARIANT_COUNT)
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
	     variant == SMAPBENCH_VARIANT_NOPAD) && !cpuid_smap())
		return -EOPNOTSUPP;
	st->desc = d;
	st->loop = d->loop[variant];

	if (st->ctx.span) {
		st->ctx.ubuf = u64_to_user_ptr(r->buffer);
		if (!access_ok(st->ctx.ubuf, r->buffer_len))
			return -EFAULT;
	}
	if (!access_ok(u64_to_user_ptr(r->samples_ptr),
		       (unsigned long)r->samples * sizeof(*st->samples)))
		return -EFAULT;
	return 0;
}

static long ioctl_run(struct smapbench_run __user *arg)
{
	struct smapbench_sample __user *out;
	struct run_state *st;
	size_t out_len;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(&st->req, arg, sizeof(st->req)))
		goto out;
	ret = check_run(st);
	if (ret)
		goto out;

	out = u64_to_user_ptr(st->req.samples_ptr);
	out_len = (size_t)st->req.samples * sizeof(*st->samples);
	/* A bad samples_ptr fails now, not after the whole run. */
	ret = -EFAULT;
	if (clear_user(out, out_len))
		goto out;

	ret = -ENOMEM;
	st->samples = kvcalloc(st->req.samples, sizeof(*st->samples),
			       GFP_KERNEL);
	if (!st->samples)
		goto out;
	/* The copies' kernel side, or where the string is made. */
	if (st->desc->flags & (SMAPBENCH_OPF_KBUF | SMAPBENCH_OPF_STRING)) {
		st->ctx.kbuf = kvzalloc(st->ctx.size, GFP_KERNEL);
		if (!st->ctx.kbuf)
			goto out;
	}

	ret = prefault(st);
	if (ret)
		goto out;
	st->budget_tsc = div_u64((u64)SMAPBENCH_SAMPLE_BUDGET_NS *
				 (tsc_khz ? tsc_khz : 1000000), 1000000);
	ret = take_samples(st);
	if (ret)
		goto out;

	ret = -EFAULT;
	if (copy_to_user(out, st->samples, out_len))
		goto out;
	/* Only the documented (out) fields change; reserved stay zero. */
	if (copy_to_user(arg, &st->req, sizeof(st->req)))
		goto out;
	ret = 0;
out:
	kvfree(st->ctx.kbuf);
	kvfree(st->samples);
	kfree(st);
	return ret;
}

static long ioctl_info(struct smapbench_info __user *arg)
{
	struct smapbench_info info;
	u32 eax, ebx, ecx, edx;
	unsigned long cr4;
	struct clock c;
	int op, v;

	memset(&info, 0, sizeof(info));
	info.abi_version = SMAPBENCH_ABI_VERSION;

	if (boot_cpu_data.cpuid_level >= 7) {
		cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
		if (ebx & CPUID_7_EBX_SMAP)
			info.flags |= SMAPBENCH_INFO_SMAP_CPUID;
		if (ebx & CPUID_7_EBX_SMEP)
			info.flags |= SMAPBENCH_INFO_SMEP_CPUID;
	}
	if (cpuid_ecx(1) & CPUID_1_ECX_HYPERVISOR)
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
	clock_open(&c, smp_processor_id());
	if (c.cycles)
		info.flags |= SMAPBENCH_INFO_PMU_CYCLES;
	clock_close(&c);
	migrate_enable();

	if (SMAPBENCH_HAVE_MASKED)
		info.flags |= SMAPBENCH_INFO_MASKED_UACCESS;

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
	info.sample_budget_ns = SMAPBENCH_SAMPLE_BUDGET_NS;
	strscpy(info.release, utsname()->release, sizeof(info.release));

	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long smapbench_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	switch (cmd) {
	case SMAPBENCH_IOC_INFO:
		return ioctl_info((struct smapbench_info __user *)arg);
	case SMAPBENCH_IOC_RUN:
		return ioctl_run((struct smapbench_run __user *)arg);
	default:
		return -ENOTTY;
	}
}

/*
 * .owner makes every open file hold a module reference: rmmod fails with
 * EBUSY while /dev/smapbench is open, so no ioctl can outlive the code.
 */
static const struct file_operations smapbench_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = smapbench_ioctl,
};

static struct miscdevice smapbench_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "smapbench",
	.fops = &smapbench_fops,
	.mode = 0600,
};

static int __init smapbench_init(void)
{
	int ret = smapbench_ops_check();

	if (ret)
		return ret;
	ret = misc_register(&smapbench_dev);
	if (ret)
		return ret;
	pr_info("ready: SMAP cpuid=%d feature=%d cr4=%d, tsc_khz=%u, masked=%d\n",
		cpuid_smap(), boot_cpu_has(X86_FEATURE_SMAP),
		!!(__read_cr4() & X86_CR4_SMAP), tsc_khz, SMAPBENCH_HAVE_MASKED);
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
