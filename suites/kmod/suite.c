// SPDX-License-Identifier: GPL-2.0
/*
 * suite.c - the kmod suite: every op x variant x size of
 * /dev/smapbench (kmod/uapi/smapbench.h), timed by the module in ring 0.
 *
 * The module returns per-sample TSC ticks (and core cycles when it has
 * a PMU counter); a sample's per-operation value is its total divided
 * by iterations_done. Counter "kmod-tsc" reports ticks, "kmod-pmu" core
 * cycles. Combinations the module or CPU cannot run are reported as
 * skipped with the reason (no device, ABI mismatch, op or variant not
 * built, no SMAP in CPUID for raw STAC/CLAC, -EOPNOTSUPP, or -E2BIG: one
 * iteration too long for the module's interrupts-off bound).
 *
 * The table comes from the catalogue (catalogue.h): every op in every
 * variant kmod/uapi/smapbench_ops.def lists, at each size of its sweep
 * (sweep.h), batched and masked at each of its batch sizes (a block of K
 * items: accesses for most ops, whole frames for sigframe). The module's
 * timer overhead (median of an empty timed region) is recorded from the
 * calib run, never subtracted. The module's calib and calib_imul ops (1024
 * dependent `add r, r` and `imul r, r` per iteration) give core cycles per
 * TSC tick for the context when the two agree (measure/calib.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kmod/uapi/smapbench.h"
#include "measure/calib.h"
#include "measure/stats.h"
#include "suites/kmod/catalogue.h"
#include "suites/kmod/suite.h"
#include "suites/suite.h"

#define KMOD_MAX_BENCHMARKS 512

struct kmod_arg {
	unsigned op, variant;
};

static struct {
	const char *path;
	int probed, fd;
	char why[256];
	struct smapbench_info info;
	const char *counter;		/* requested, or NULL */
	double cycles_per_tick;		/* PMU or agreed chains, else 0 */
	int pmu_trusted;		/* the PMU read the chains right */
	double tsc_hz;			/* to convert ticks to ns */
} dev = { .path = SMAPBENCH_DEVICE, .fd = -1 };

static struct benchmark table[KMOD_MAX_BENCHMARKS];
static struct kmod_arg args[KMOD_MAX_BENCHMARKS];
static char names[KMOD_MAX_BENCHMARKS][64];
static char groups[KMOD_MAX_BENCHMARKS][48];

void kmod_suite_counter(const char *name)
{
	dev.counter = name;
}

void kmod_suite_device(const char *path)
{
	dev.path = path;
	dev.probed = 0;
}

static int probe(void)
{
	if (dev.probed)
		return dev.fd >= 0 ? 0 : -1;
	dev.probed = 1;
	dev.fd = open(dev.path, O_RDWR | O_CLOEXEC);
	if (dev.fd < 0) {
		if (errno == ENOENT)
			snprintf(dev.why, sizeof(dev.why),
				 "%s is absent: load smapbench.ko first (sudo ./run-bench.sh builds and loads it)",
				 dev.path);
		else
			snprintf(dev.why, sizeof(dev.why),
				 "cannot open %s: %s%s", dev.path,
				 strerror(errno),
				 errno == EACCES ? " (run as root)" : "");
		return -1;
	}
	memset(&dev.info, 0, sizeof(dev.info));
	if (ioctl(dev.fd, SMAPBENCH_IOC_INFO, &dev.info)) {
		if (errno == EPERM)
			snprintf(dev.why, sizeof(dev.why),
				 "%s needs CAP_PERFMON or CAP_SYS_ADMIN (run as root)",
				 dev.path);
		else
			snprintf(dev.why, sizeof(dev.why),
				 "%s does not answer SMAPBENCH_IOC_INFO: %s (not the smapbench module, or an incompatible one)",
				 dev.path, strerror(errno));
		goto fail;
	}
	/* INFO keeps its layout across versions; everything else may not. */
	if (dev.info.abi_version != SMAPBENCH_ABI_VERSION) {
		snprintf(dev.why, sizeof(dev.why),
			 "the loaded smapbench.ko speaks ABI version %u, this smapbench only version %u: build and load the module of this tree (make module)",
			 dev.info.abi_version, SMAPBENCH_ABI_VERSION);
		goto fail;
	}
	return 0;
fail:
	close(dev.fd);
	dev.fd = -1;
	return -1;
}

static int needs_smap_cpuid(unsigned variant)
{
	return variant == SMAPBENCH_VARIANT_INLINE ||
	       variant == SMAPBENCH_VARIANT_NOPAD;
}

static int kmod_valid(const struct benchmark *b, char *why, size_t whylen)
{
	const struct kmod_arg *a = b->arg;
	const struct smapbench_info *info = &dev.info;

	if (probe()) {
		snprintf(why, whylen, "%s", dev.why);
		return -1;
	}
	if (!(info->ops_mask & (1ULL << a->op))) {
		snprintf(why, whylen, "op %s is not built into this module",
			 kmod_ops[a->op].name);
		return -1;
	}
	if (!(info->variants_mask & (1U << a->variant))) {
		snprintf(why, whylen, "variant %s is not built into this module",
			 kmod_variant_name(a->variant));
		return -1;
	}
	if (needs_smap_cpuid(a->variant) &&
	    !(info->flags & SMAPBENCH_INFO_SMAP_CPUID)) {
		snprintf(why, whylen,
			 "raw STAC/CLAC need SMAP in CPUID (they would raise #UD on this CPU model)");
		return -1;
	}
	if ((kmod_ops[a->op].flags & SMAPBENCH_OPF_RAW) &&
	    !(info->flags & SMAPBENCH_INFO_SMAP_CPUID)) {
		snprintf(why, whylen,
			 "STAC/CLAC need SMAP in CPUID (they would raise #UD on this CPU model)");
		return -1;
	}
	if (a->variant == SMAPBENCH_VARIANT_MASKED &&
	    !(info->flags & SMAPBENCH_INFO_MASKED_UACCESS)) {
		snprintf(why, whylen,
			 "masked_user_access_begin() is not in this kernel (6.12 and later)");
		return -1;
	}
	if (a->op == SMAPBENCH_OP_FUTEX && kmod_variant_is_block(a->variant) &&
	    !(info->flags & SMAPBENCH_INFO_FUTEX_BLOCKS)) {
		snprintf(why, whylen,
			 "unsafe_try_cmpxchg_user() is not in this kernel (5.19 and later): no futex %s block",
			 kmod_variant_name(a->variant));
		return -1;
	}
	if (b->size > info->max_size || b->batch > info->max_batch) {
		snprintf(why, whylen, "size %u or batch %u above the module's limits",
			 b->size, b->batch);
		return -1;
	}
	return 0;
}

struct kmod_state {
	const struct kmod_arg *arg;
	uint32_t size, batch;
	void *buffer;
	size_t buffer_len;
	struct smapbench_sample *samples;
	size_t capacity;
	int decided, use_pmu;
};

static int kmod_setup(const struct benchmark *b, void **state, char *why,
		      size_t whylen)
{
	struct kmod_state *s = calloc(1, sizeof(*s));
	const struct kmod_op *op = &kmod_ops[((const struct kmod_arg *)b->arg)->op];
	/* Room for one block; size 0 means the op's fixed unit (a frame). */
	size_t unit = b->size ? b->size : op->max_size;
	size_t len = (unit ? unit : 1) * (b->batch ? b->batch : 1);

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	s->arg = b->arg;
	s->size = b->size;
	s->batch = b->batch;
	s->buffer_len = (len + 4095) & ~(size_t)4095;
	s->buffer = aligned_alloc(4096, s->buffer_len);
	if (!s->buffer) {
		free(s);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	memset(s->buffer, 'x', s->buffer_len);	/* fault it in */
	*state = s;
	return 0;
}

static void kmod_teardown(const struct benchmark *b, void *state)
{
	struct kmod_state *s = state;

	(void)b;
	if (!s)
		return;
	free(s->buffer);
	free(s->samples);
	free(s);
}

static int run_ioctl(struct kmod_state *s, unsigned op, unsigned variant,
		     uint32_t size, uint32_t batch, uint64_t iterations,
		     size_t n, struct smapbench_run *run, char *why,
		     size_t whylen)
{
	if (n > s->capacity) {
		struct smapbench_sample *p = realloc(s->samples, n * sizeof(*p));

		if (!p) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
		s->samples = p;
		s->capacity = n;
	}
	if (iterations > dev.info.max_iterations)
		iterations = dev.info.max_iterations;
	/* A page dropped under a window again and again: try a few times. */
	for (int attempt = 0; attempt < 3; attempt++) {
		memset(run, 0, sizeof(*run));
		run->op = op;
		run->variant = variant;
		run->size = size;
		run->batch = batch;
		run->iterations = (uint32_t)iterations;
		run->samples = (uint32_t)n;
		run->buffer = (uintptr_t)s->buffer;
		run->buffer_len = s->buffer_len;
		run->samples_ptr = (uintptr_t)s->samples;
		run->sample_size = sizeof(*s->samples);
		if (ioctl(dev.fd, SMAPBENCH_IOC_RUN, run) == 0)
			return 0;
		if (errno != EAGAIN)
			break;
	}
	if (errno == EOPNOTSUPP)
		snprintf(why, whylen,
			 "not valid here: the module answered EOPNOTSUPP for this combination");
	else if (errno == EINVAL)
		snprintf(why, whylen, "the module rejected this combination (EINVAL)");
	else if (errno == E2BIG)
		snprintf(why, whylen,
			 "one iteration takes %llu TSC ticks, more than half the module's interrupts-off budget of %llu ticks (%u ns): too long to time here",
			 (unsigned long long)run->iteration_tsc,
			 (unsigned long long)run->budget_tsc,
			 dev.info.sample_budget_ns);
	else if (errno == EAGAIN)
		snprintf(why, whylen,
			 "the buffer's pages kept disappearing under the timed loop (EAGAIN, %u re-faults)",
			 run->refaults);
	else if (errno == EBUSY)
		snprintf(why, whylen,
			 "an NMI or SMI landed in every window (EBUSY after %u disturbed windows): is perf sampling this CPU?",
			 run->disturbed);
	else if (errno == EPERM)
		snprintf(why, whylen,
			 "SMAPBENCH_IOC_RUN needs CAP_PERFMON or CAP_SYS_ADMIN");
	else
		snprintf(why, whylen, "SMAPBENCH_IOC_RUN: %s", strerror(errno));
	return -1;
}

static int kmod_measure(void *state, uint64_t iterations, size_t n,
			struct bench_sample *out, char *why, size_t whylen)
{
	struct kmod_state *s = state;
	struct smapbench_run run;

	while (n > 0) {
		size_t chunk = n > dev.info.max_samples ? dev.info.max_samples : n;

		if (run_ioctl(s, s->arg->op, s->arg->variant, s->size, s->batch,
			      iterations, chunk, &run, why, whylen))
			return -1;
		if (!s->decided) {
			int cycles = !!(run.result_flags & SMAPBENCH_RUN_CYCLES);

			if (dev.counter && !strcmp(dev.counter, "kmod-pmu") &&
			    !cycles) {
				snprintf(why, whylen,
					 "--counter kmod-pmu: the module has no PMU cycle counter here");
				return -1;
			}
			/*
			 * The parent tells a worker "kmod-tsc" where the PMU
			 * failed its check (kmod_suite_worker_counter()).
			 */
			s->use_pmu = cycles && !(dev.counter &&
						 !strcmp(dev.counter, "kmod-tsc"));
			s->decided = 1;
		}
		for (size_t i = 0; i < chunk; i++) {
			out[i].value = s->use_pmu ? s->samples[i].cycles
						  : s->samples[i].tsc;
			out[i].iterations = run.iterations_done;
			out[i].flags = run.result_flags & SMAPBENCH_RUN_CLAMPED ?
				       BENCH_SAMPLE_CLAMPED : 0;
			/* Windows an NMI or SMI disturbed, taken again. */
			out[i].repeats = i ? 0 : run.disturbed;
		}
		out += chunk;
		n -= chunk;
	}
	return 0;
}

static void kmod_timer(void *state, struct bench_timer *t)
{
	struct kmod_state *s = state;
	double tsc_hz = dev.tsc_hz > 0 ? dev.tsc_hz : (double)dev.info.tsc_khz * 1e3;

	t->counter = s->use_pmu ? "kmod-pmu" : "kmod-tsc";
	t->unit = s->use_pmu ? "cycles" : "ticks";
	t->hz = s->use_pmu ? tsc_hz * dev.cycles_per_tick : tsc_hz;
}

static void add(struct bench_family *f, unsigned op, unsigned variant,
		unsigned size, unsigned batch)
{
	const struct kmod_op *o = &kmod_ops[op];
	const char *variant_name = kmod_variant_name(variant);
	size_t i = f->count;
	struct benchmark *b = &table[i];
	int n;

	if (i >= KMOD_MAX_BENCHMARKS)
		return;
	args[i] = (struct kmod_arg){ op, variant };
	n = snprintf(names[i], sizeof(names[i]), "kmod/%s", o->name);
	if (variant != SMAPBENCH_VARIANT_NONE)
		n += snprintf(names[i] + n, sizeof(names[i]) - (size_t)n, "/%s",
			      variant_name);
	if (size)
		n += snprintf(names[i] + n, sizeof(names[i]) - (size_t)n, "/%u",
			      size);
	if (batch)
		snprintf(names[i] + n, sizeof(names[i]) - (size_t)n, "/%u", batch);
	*b = (struct benchmark){
		.name = names[i], .suite = "kmod", .op = o->name,
		.variant = variant_name, .size = size, .batch = batch,
		.arg = &args[i], .summary = "timed in ring 0 by smapbench.ko",
		.valid = kmod_valid, .setup = kmod_setup,
		.teardown = kmod_teardown, .measure = kmod_measure,
		.timer = kmod_timer,
		.max_iterations = SMAPBENCH_MAX_ITERATIONS,
		/* Stay inside the module's interrupts-off budget. */
		.max_sample_seconds = SMAPBENCH_SAMPLE_BUDGET_NS * 0.5e-9,
		.extended = !kmod_list_has(&o->quick_sizes, size) ||
			    (batch && !kmod_list_has(&o->quick_batches, batch)),
		.headline = kmod_is_headline(op, variant, size, batch),
	};
	/*
	 * The variants of one op and size run side by side in every
	 * repetition: inline - nopad and kapi - batched are paired figures.
	 */
	if (variant != SMAPBENCH_VARIANT_NONE) {
		snprintf(groups[i], sizeof(groups[i]), "kmod/%s/%u", o->name,
			 size);
		b->group = groups[i];
	}
	f->count++;
}

/*
 * Every op of the catalogue in every variant it lists, in the order
 * kapi, inline, nopad, batched, masked (or none), each at every size of
 * its sweep, batched and masked at every batch size.
 */
static int kmod_init(struct bench_family *f)
{
	static const unsigned order[] = {
		SMAPBENCH_VARIANT_NONE, SMAPBENCH_VARIANT_KAPI,
		SMAPBENCH_VARIANT_INLINE, SMAPBENCH_VARIANT_NOPAD,
		SMAPBENCH_VARIANT_BATCHED, SMAPBENCH_VARIANT_MASKED,
	};

	f->count = 0;
	f->table = table;
	for (unsigned op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];

		for (size_t v = 0; v < sizeof(order) / sizeof(order[0]); v++) {
			unsigned variant = order[v];

			if (!(o->variants & (1U << variant)))
				continue;
			for (size_t s = 0; s < o->sizes.count; s++) {
				if (!kmod_variant_is_block(variant)) {
					add(f, op, variant, o->sizes.value[s], 0);
					continue;
				}
				for (size_t k = 0; k < o->batches.count; k++)
					add(f, op, variant, o->sizes.value[s],
					    o->batches.value[k]);
			}
		}
	}
	if (f->count == KMOD_MAX_BENCHMARKS) {
		fprintf(stderr, "smapbench: the catalogue has more kmod benchmarks than KMOD_MAX_BENCHMARKS (%d)\n",
			KMOD_MAX_BENCHMARKS);
		return -1;
	}
	return 0;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * One calibration chain in the module: the median TSC ticks of 15 samples
 * of 256 iterations, as ns per CALIB_CHAIN_OPS operations; with the PMU's
 * median cycles per tick, and per iteration (CALIB_CHAIN_OPS operations),
 * where the module counts cycles.
 */
static int calib_chain(unsigned op, double tsc_hz, double *ns,
		       double *per_tick_pmu, double *pmu_cycles,
		       struct smapbench_run *out, char *why, size_t whylen)
{
	struct kmod_state s = { 0 };
	struct smapbench_run run;
	uint64_t tsc[15], cycles[15];
	uint8_t byte;
	int rc;

	s.buffer = &byte;
	s.buffer_len = 1;
	rc = run_ioctl(&s, op, SMAPBENCH_VARIANT_NONE, 0, 0, 256, 15, &run,
		       why, whylen);
	if (rc == 0) {
		for (int i = 0; i < 15; i++) {
			tsc[i] = s.samples[i].tsc;
			cycles[i] = s.samples[i].cycles;
		}
		qsort(tsc, 15, sizeof(tsc[0]), compare_u64);
		qsort(cycles, 15, sizeof(cycles[0]), compare_u64);
		*ns = tsc[7] && run.iterations_done && tsc_hz > 0 ?
		      (double)tsc[7] / tsc_hz * 1e9 / run.iterations_done : 0;
		*per_tick_pmu = (run.result_flags & SMAPBENCH_RUN_CYCLES) &&
				tsc[7] ? (double)cycles[7] / (double)tsc[7] : 0;
		*pmu_cycles = (run.result_flags & SMAPBENCH_RUN_CYCLES) &&
			      run.iterations_done ?
			      (double)cycles[7] / run.iterations_done : 0;
		*out = run;
	}
	free(s.samples);
	return rc;
}

/*
 * Core cycles per TSC tick: the PMU's where the module counts cycles and
 * counts the chains right (1024 and 3072 cycles, calib_judge_counter());
 * else the agreed frequency of the two chains; else 0, and time only
 * (measure/calib.h). kmod_pmu_check says which, and why.
 */
static void kmod_calibrate(struct context *c)
{
	double add_ns = 0, imul_ns = 0, pmu = 0, pmu_imul = 0, chains;
	double add_cycles = 0, imul_cycles = 0;
	struct calib_counter_verdict counter;
	struct smapbench_run run, run_imul;
	struct calib_verdict v;
	char why[256];

	dev.pmu_trusted = 0;
	if (calib_chain(SMAPBENCH_OP_CALIB, dev.tsc_hz, &add_ns, &pmu,
			&add_cycles, &run, why, sizeof(why)) ||
	    calib_chain(SMAPBENCH_OP_CALIB_IMUL, dev.tsc_hz, &imul_ns,
			&pmu_imul, &imul_cycles, &run_imul, why, sizeof(why))) {
		context_set(c, "kmod_cycles_per_tick", "%s", "");
		context_set(c, "kmod_calib_consistent", "%s", "");
		context_set(c, "kmod_pmu_check", "%s",
			    "not checked: the calibration chains failed");
		context_warn(c, "kmod calib failed: %s", why);
		return;
	}
	context_set(c, "kmod_timer_overhead_tsc", "%llu",
		    (unsigned long long)run.timer_overhead_tsc);
	context_set(c, "kmod_timer_overhead_cycles", "%llu",
		    (unsigned long long)run.timer_overhead_cycles);
	calib_context_record(c, "kmod_calib_", add_ns, imul_ns, &v);
	chains = v.consistent && dev.tsc_hz > 0 ? v.ghz * 1e9 / dev.tsc_hz : 0;
	if (chains > 0)
		context_set(c, "kmod_cycles_per_tick", "%.6g", chains);
	else
		context_set(c, "kmod_cycles_per_tick", "%s", "");
	if (pmu > 0) {
		context_set(c, "kmod_cycles_per_tick_pmu", "%.6g", pmu);
		if (chains > 0)
			context_set(c, "kmod_calib_pmu_ratio", "%.4g",
				    pmu / chains);
		/* A PMU counts core cycles only if it counts the chains right. */
		calib_judge_counter(add_cycles, imul_cycles, &counter);
		dev.pmu_trusted = counter.trusted;
		if (counter.trusted) {
			context_set(c, "kmod_pmu_check",
				    "ok: %.1f and %.1f cycles for the add and imul chains",
				    add_cycles, imul_cycles);
		} else {
			context_set(c, "kmod_pmu_check", "failed: %s",
				    counter.why);
			context_warn(c, "the module's PMU cycle counter failed its check (%s): module rows are timed with the TSC%s",
				     counter.why, chains > 0 ?
				     ", converted to cycles with the chains' frequency" : "");
		}
	} else {
		context_set(c, "kmod_pmu_check", "%s",
			    "no PMU cycle counter in the module");
	}
	dev.cycles_per_tick = dev.pmu_trusted ? pmu : chains;
	if (!v.consistent && !dev.pmu_trusted)
		context_warn(c, "kmod calibration chains disagree (add r,r %.3f GHz, imul r,r %.3f GHz, %.1f%% apart): no cycle figures for the module",
			     v.add_ghz, v.imul_ghz, 100 * v.disagreement);
}

/*
 * Transparent huge pages: whether the benchmark's user buffer (4 KiB
 * aligned, at most a few pages) may sit in a huge page changes the TLB
 * behind every user access. The mode is recorded, not changed.
 */
static void kmod_context_thp(struct context *c)
{
	char mode[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (f) {
		if (!fgets(mode, sizeof(mode), f))
			mode[0] = '\0';
		fclose(f);
	}
	mode[strcspn(mode, "\n")] = '\0';
	context_set(c, "kmod_buffer_thp", "%s", mode[0] ? mode : "unknown");
}

/*
 * Windows the module discarded because an NMI or SMI ran inside them,
 * counted by the runner in whichever process took them (each kmod
 * sample's repeats): summed in the context, named per benchmark.
 */
static void kmod_results_context(struct context *c,
				 const struct run_results *r)
{
	unsigned long long disturbed = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct result *res = &r->items[i];

		if (res->skipped || strcmp(res->bench->suite, "kmod"))
			continue;
		if (res->repeats)
			fprintf(stderr,
				"smapbench: %s: %llu windows taken again: an NMI or SMI ran inside\n",
				res->bench->name,
				(unsigned long long)res->repeats);
		disturbed += res->repeats;
	}
	context_set(c, "kmod_windows_disturbed", "%llu", disturbed);
}

static void kmod_context(struct context *c)
{
	const struct smapbench_info *i = &dev.info;

	if (probe()) {
		context_set(c, "kmod_status", "%s", dev.why);
		return;
	}
	context_set(c, "kmod_status", "ok");
	context_set(c, "kmod_abi", "%u", i->abi_version);
	context_set(c, "kmod_smap_cpuid", "%d", !!(i->flags & SMAPBENCH_INFO_SMAP_CPUID));
	context_set(c, "kmod_smap_feature", "%d", !!(i->flags & SMAPBENCH_INFO_SMAP_FEATURE));
	context_set(c, "kmod_smap_cr4", "%d", !!(i->flags & SMAPBENCH_INFO_SMAP_CR4));
	context_set(c, "kmod_smep_cr4", "%d", !!(i->flags & SMAPBENCH_INFO_SMEP_CR4));
	context_set(c, "kmod_pmu_cycles", "%d", !!(i->flags & SMAPBENCH_INFO_PMU_CYCLES));
	context_set(c, "kmod_masked_uaccess", "%d",
		    !!(i->flags & SMAPBENCH_INFO_MASKED_UACCESS));
	context_set(c, "kmod_futex_blocks", "%d",
		    !!(i->flags & SMAPBENCH_INFO_FUTEX_BLOCKS));
	context_set(c, "kmod_preempt_rt", "%d",
		    !!(i->flags & SMAPBENCH_INFO_PREEMPT_RT));
	context_set(c, "kmod_sample_budget_ns", "%u", i->sample_budget_ns);
	/* Whether a window that an NMI or SMI disturbed can be told. */
	context_set(c, "kmod_sees_nmi", "%d",
		    !!(i->flags & SMAPBENCH_INFO_NMI_COUNT));
	if (!(i->flags & SMAPBENCH_INFO_NMI_COUNT))
		context_warn(c, "the module cannot see NMIs on this kernel (it found no NMI count it can read, kmod/README.md): a window an NMI ran inside is kept");
	context_set(c, "kmod_sees_smi", "%d",
		    !!(i->flags & SMAPBENCH_INFO_SMI_COUNT));
	kmod_context_thp(c);
	context_set(c, "kmod_tsc_khz", "%llu", (unsigned long long)i->tsc_khz);
	context_set(c, "kmod_release", "%.*s", (int)sizeof(i->release), i->release);
	/*
	 * The module reads the same TSC we measured against
	 * CLOCK_MONOTONIC_RAW. The kernel's tsc_khz can be far off where
	 * its calibration failed (seen under TCG) and the kernel then keeps
	 * time with another clock: trust the measurement, say when they differ.
	 */
	const char *measured = context_get(c, "tsc_hz");
	double kernel_hz = (double)i->tsc_khz * 1e3;

	dev.tsc_hz = measured ? atof(measured) : 0;
	if (dev.tsc_hz > 0 && kernel_hz > 0 &&
	    fabs(dev.tsc_hz - kernel_hz) > 0.01 * dev.tsc_hz)
		context_warn(c, "the kernel's tsc_khz (%llu) differs from the measured TSC frequency (%.0f Hz) by more than 1%%: ticks are converted with the measured one",
			     (unsigned long long)i->tsc_khz, dev.tsc_hz);
	kmod_calibrate(c);
	const char *cpuinfo = context_get(c, "smap_cpuinfo");

	if (cpuinfo && atoi(cpuinfo) != !!(i->flags & SMAPBENCH_INFO_SMAP_FEATURE))
		context_warn(c, "module's SMAP feature bit (%d) differs from /proc/cpuinfo (%s)",
			     !!(i->flags & SMAPBENCH_INFO_SMAP_FEATURE), cpuinfo);
}

int kmod_suite_print_info(void *file)
{
	FILE *f = file;
	const struct smapbench_info *i = &dev.info;

	if (probe()) {
		fprintf(f, "module: %s\n", dev.why);
		return -1;
	}
	fprintf(f, "module: %s, ABI %u, kernel %.*s\n", dev.path,
		i->abi_version, (int)sizeof(i->release), i->release);
	fprintf(f, "  SMAP: cpuid %d, feature %d, cr4 %d; SMEP: cpuid %d, feature %d, cr4 %d\n",
		!!(i->flags & SMAPBENCH_INFO_SMAP_CPUID),
		!!(i->flags & SMAPBENCH_INFO_SMAP_FEATURE),
		!!(i->flags & SMAPBENCH_INFO_SMAP_CR4),
		!!(i->flags & SMAPBENCH_INFO_SMEP_CPUID),
		!!(i->flags & SMAPBENCH_INFO_SMEP_FEATURE),
		!!(i->flags & SMAPBENCH_INFO_SMEP_CR4));
	fprintf(f, "  PMU cycles %d, masked uaccess %d, hypervisor %d, tsc_khz %llu\n",
		!!(i->flags & SMAPBENCH_INFO_PMU_CYCLES),
		!!(i->flags & SMAPBENCH_INFO_MASKED_UACCESS),
		!!(i->flags & SMAPBENCH_INFO_HYPERVISOR),
		(unsigned long long)i->tsc_khz);
	fprintf(f, "  ops mask %#llx, variants mask %#x, limits: samples %u, iterations %u, size %u, batch %u, budget %u ns\n",
		(unsigned long long)i->ops_mask, i->variants_mask,
		i->max_samples, i->max_iterations, i->max_size, i->max_batch,
		i->sample_budget_ns);
	return 0;
}

struct bench_family family_kmod = {
	.suite = "kmod", .name = "kmod",
	.init = kmod_init, .context = kmod_context,
	.results_context = kmod_results_context,
};

const char *kmod_suite_worker_counter(void)
{
	if (dev.counter)
		return dev.counter;
	/* Checked (kmod_calibrate()) and failed: time with the TSC. */
	if (dev.fd >= 0 && (dev.info.flags & SMAPBENCH_INFO_PMU_CYCLES) &&
	    !dev.pmu_trusted)
		return "kmod-tsc";
	return NULL;
}
