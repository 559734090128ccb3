// SPDX-License-Identifier: GPL-2.0
/*
 * bpf.c - the bpf suite: the kernel's user-copy helpers timed in
 * ring 0 by BPF programs (bpf/), for machines that cannot load the
 * module. See docs/bpf.md.
 *
 * Benchmarks are bpf/<op>/<mode>/<size>, the mode in the variant
 * column: syscall (sleepable program), raw_tp (preemption off) and
 * raw_tp_ipi (sent by IPI: interrupts off). Select modes with --filter,
 * e.g. '^bpf/[^/]+/raw_tp/'. Ops at every size of 1 B .. 4 KiB:
 *
 *   user_read        bpf_probe_read_user()
 *   kernel_read      bpf_probe_read_kernel()
 *   kernel_memmove   bpf_dynptr_read(): the user read's copy loop
 *   user_read_str    bpf_probe_read_user_str()
 *   kernel_read_str  bpf_probe_read_kernel_str()
 *   copy_from_user   bpf_copy_from_user() (syscall mode only)
 *   empty            the loop alone (size 0)
 *   overhead         user_read - kernel_memmove, paired per sample
 *   copy_from_user_overhead  copy_from_user - kernel_memmove (syscall)
 *   calib            BPFBENCH_CALIB_OPS dependent add r, r - empty
 *                    (size 0): ns per 1024 core cycles
 *   calib_imul       BPFBENCH_CALIB_OPS dependent imul r, r - empty: ns per
 *                    3072 core cycles; the two must agree (measure/calib.h)
 *
 * A sample is the elapsed bpf_ktime_get_ns() of its accesses, in ns.
 * A sample is cut into program runs of at most BPF_RUN_BUDGET_NS each
 * (preemption or interrupts are off for a whole raw_tp run, and a long
 * sleepable run would hog its CPU on a kernel without preemption); the
 * sample is the sum of its runs. Failed accesses are never
 * averaged in: a sample with any fault fails the benchmark, saying how
 * many and why.
 *
 * The overhead rows take, for each sample, one run of each loop of the
 * same length, alternating which goes first, and report the difference:
 * the harness's center and interval are then those of the paired
 * per-access differences. A sample where the kernel loop was slower
 * keeps its negative value (BENCH_SAMPLE_NEGATIVE); such samples are
 * counted in the context and on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/loader.h"
#include "suites/suite.h"

#define BPF_MAX_BENCHMARKS	320
/* Longest run with preemption or interrupts off, as the module's. */
#define BPF_RUN_BUDGET_NS	800000ULL
#define BPF_CALIBRATION_ITERATIONS 64
/*
 * The harness sizes a sample on its value, which for a difference row is
 * the difference: where it is near 0 the iterations would grow without
 * end. A difference sample (both loops) is cut at this length instead,
 * and marked clamped.
 */
#define BPF_DIFFERENCE_SAMPLE_NS 250000000ULL
/*
 * In raw_tp_ipi, a run whose interrupt landed on another task (ours was
 * preempted) fails every user access at nmi_uaccess_okay(): such a run
 * measured nothing of the user path. It is run again, at most this many
 * times in a row, and counted in the context (bpf_ipi_runs_repeated).
 */
#define BPF_IPI_REPEATS		20

enum bpf_row {
	BPF_ROW_PLAIN,		/* one op */
	BPF_ROW_DIFFERENCE,	/* op minus base, paired */
};

struct bpf_arg {
	enum bpf_row row;
	enum bpfbench_mode mode;
	enum bpfbench_op op;
	enum bpfbench_op base;	/* BPF_ROW_DIFFERENCE only */
};

struct bpf_state {
	const struct bpf_arg *arg;
	uint32_t size;
	uint64_t run_iterations;	/* most iterations per program run */
	uint64_t sample_iterations;	/* difference rows: most per sample */
	unsigned long ipi_repeats;	/* runs repeated, see BPF_IPI_REPEATS */
};

static const unsigned sizes[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
				  1024, 2048, 4096 };
/*
 * What only --full runs, so that the default run of syscall + bpf stays
 * near two minutes (docs/harness.md): every size but the headline 8 B
 * and a page, and the string helpers. The default keeps every mode, the
 * overhead rows and the reads they are made of.
 */
static int full_only(enum bpfbench_op op, unsigned size)
{
	return (size != 0 && size != 8 && size != 4096) ||
	       op == BPFBENCH_OP_USER_READ_STR ||
	       op == BPFBENCH_OP_KERNEL_READ_STR;
}

static struct benchmark table[BPF_MAX_BENCHMARKS];
static struct bpf_arg args[BPF_MAX_BENCHMARKS];
static char names[BPF_MAX_BENCHMARKS][64];

static struct {
	int opened;
	struct bpfbench *handle;
	struct bpfbench_error error;
} loader;

static void close_loader(void)
{
	bpfbench_close(loader.handle);
	loader.handle = NULL;
}

/* Load the programs once, on first use; the reason stays for skips. */
static struct bpfbench *bpf(void)
{
	if (!loader.opened) {
		loader.opened = 1;
		if (bpfbench_open(NULL, &loader.handle, &loader.error) == 0)
			atexit(close_loader);
	}
	return loader.handle;
}

static int bpf_valid(const struct benchmark *b, char *why, size_t whylen)
{
	const struct bpf_arg *a = b->arg;
	struct bpfbench_error err;

	if (!bpf()) {
		snprintf(why, whylen, "%s", loader.error.message);
		return -1;
	}
	if (bpfbench_supported(loader.handle, a->mode, a->op, &err) ||
	    (a->row == BPF_ROW_DIFFERENCE &&
	     bpfbench_supported(loader.handle, a->mode, a->base, &err))) {
		snprintf(why, whylen, "%s", err.message);
		return -1;
	}
	return 0;
}

/* Time `iterations` accesses, in runs no longer than the state allows. */
static int timed(struct bpf_state *s, enum bpfbench_op op,
		 uint64_t iterations, struct bpfbench_sample *total,
		 char *why, size_t whylen)
{
	struct bpfbench_request req = {
		.mode = s->arg->mode, .op = op, .size = s->size,
	};
	struct bpfbench_error err;
	unsigned repeats = 0;

	memset(total, 0, sizeof(*total));
	while (iterations > 0) {
		struct bpfbench_sample run;

		req.iterations = iterations < s->run_iterations ?
				 iterations : s->run_iterations;
		if (bpfbench_run(loader.handle, &req, &run, 1, &err)) {
			snprintf(why, whylen, "%s: %s", bpfbench_op_name(op),
				 err.message);
			return -1;
		}
		if (run.faults && run.faults == run.iterations &&
		    s->arg->mode == BPFBENCH_MODE_IPI &&
		    repeats < BPF_IPI_REPEATS) {
			repeats++;
			s->ipi_repeats++;
			continue;
		}
		repeats = 0;
		if (run.faults) {
			snprintf(why, whylen,
				 "%s: %llu of %llu accesses failed (first: %lld, %s)%s",
				 bpfbench_op_name(op),
				 (unsigned long long)run.faults,
				 (unsigned long long)run.iterations,
				 (long long)run.first_error,
				 strerror((int)-run.first_error),
				 s->arg->mode == BPFBENCH_MODE_IPI ?
				 "; in raw_tp_ipi the interrupted task must be "
				 "this process: keep its CPU otherwise idle" : "");
			return -1;
		}
		total->elapsed_ns += run.elapsed_ns;
		total->iterations += run.iterations;
		iterations -= req.iterations;
	}
	return 0;
}

static int bpf_setup(const struct benchmark *b, void **state, char *why,
		     size_t whylen)
{
	const struct bpf_arg *a = b->arg;
	struct bpf_state *s = calloc(1, sizeof(*s));
	enum bpfbench_op ops[2] = { a->op, a->base };
	unsigned nops = a->row == BPF_ROW_DIFFERENCE ? 2 : 1;
	uint64_t slowest = 1, both = 0;

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	s->arg = a;
	s->size = b->size;
	/* Size the runs and the samples from each loop's cost per access. */
	s->run_iterations = BPF_CALIBRATION_ITERATIONS;
	for (unsigned i = 0; i < nops; i++) {
		struct bpfbench_sample t;

		if (timed(s, ops[i], BPF_CALIBRATION_ITERATIONS, &t, why,
			  whylen)) {
			free(s);
			return -1;
		}
		if (t.elapsed_ns > slowest)
			slowest = t.elapsed_ns;
		both += t.elapsed_ns;
	}
	s->run_iterations = BPF_RUN_BUDGET_NS * BPF_CALIBRATION_ITERATIONS /
			    slowest;
	if (s->run_iterations < 1)
		s->run_iterations = 1;
	if (s->run_iterations > BPFBENCH_MAX_ITERATIONS)
		s->run_iterations = BPFBENCH_MAX_ITERATIONS;
	if (a->row == BPF_ROW_DIFFERENCE)
		s->sample_iterations = BPF_DIFFERENCE_SAMPLE_NS *
				       BPF_CALIBRATION_ITERATIONS /
				       (both ? both : 1) + 1;
	*state = s;
	return 0;
}

static void bpf_teardown(const struct benchmark *b, void *state)
{
	(void)b;
	free(state);
}

static int bpf_measure(void *state, uint64_t iterations, size_t n,
		       struct bench_sample *out, char *why, size_t whylen)
{
	struct bpf_state *s = state;
	const struct bpf_arg *a = s->arg;

	for (size_t i = 0; i < n; i++) {
		struct bpfbench_sample op, base;
		unsigned long repeats = s->ipi_repeats;
		uint64_t count;

		memset(&out[i], 0, sizeof(out[i]));
		if (a->row == BPF_ROW_PLAIN) {
			if (timed(s, a->op, iterations, &op, why, whylen))
				return -1;
			out[i].value = op.elapsed_ns;
			out[i].iterations = op.iterations;
			out[i].repeats = (uint32_t)(s->ipi_repeats - repeats);
			continue;
		}
		count = iterations;
		if (s->sample_iterations && count > s->sample_iterations) {
			count = s->sample_iterations;
			out[i].flags = BENCH_SAMPLE_CLAMPED;
		}
		/* Alternate the order so that neither loop always goes first. */
		if (i % 2 == 0 &&
		    (timed(s, a->op, count, &op, why, whylen) ||
		     timed(s, a->base, count, &base, why, whylen)))
			return -1;
		if (i % 2 == 1 &&
		    (timed(s, a->base, count, &base, why, whylen) ||
		     timed(s, a->op, count, &op, why, whylen)))
			return -1;
		/*
		 * A negative difference is kept as it is (its magnitude and
		 * a sign flag): noise around a small overhead falls on both
		 * sides of it, and cutting one side at 0 would raise the
		 * median. The count goes to the context.
		 */
		if (op.elapsed_ns >= base.elapsed_ns) {
			out[i].value = op.elapsed_ns - base.elapsed_ns;
		} else {
			out[i].value = base.elapsed_ns - op.elapsed_ns;
			out[i].flags |= BENCH_SAMPLE_NEGATIVE;
		}
		out[i].iterations = op.iterations;
		out[i].repeats = (uint32_t)(s->ipi_repeats - repeats);
	}
	return 0;
}

static void bpf_timer(void *state, struct bench_timer *t)
{
	(void)state;
	t->counter = "bpf-ktime";
	t->unit = "ns";
	t->hz = 1e9;
}

static const char *const summaries[BPFBENCH_OP_COUNT] = {
	[BPFBENCH_OP_EMPTY] = "bpf_loop() iteration alone, in ring 0",
	[BPFBENCH_OP_USER_READ] = "bpf_probe_read_user(): STAC/CLAC path",
	[BPFBENCH_OP_KERNEL_READ] = "bpf_probe_read_kernel(): no STAC/CLAC",
	[BPFBENCH_OP_KERNEL_MEMMOVE] = "bpf_dynptr_read(): kernel memmove, same copy as user_read",
	[BPFBENCH_OP_USER_READ_STR] = "bpf_probe_read_user_str()",
	[BPFBENCH_OP_KERNEL_READ_STR] = "bpf_probe_read_kernel_str()",
	[BPFBENCH_OP_COPY_FROM_USER] = "bpf_copy_from_user(): copy_from_user() from a sleepable program",
};

static void add(struct bench_family *f, enum bpf_row row,
		enum bpfbench_mode mode, enum bpfbench_op op,
		enum bpfbench_op base, unsigned size)
{
	size_t i = f->count;
	const char *op_name = bpfbench_op_name(op);

	if (i >= BPF_MAX_BENCHMARKS)
		return;
	args[i] = (struct bpf_arg){ row, mode, op, base };
	if (row == BPF_ROW_DIFFERENCE)
		op_name = op == BPFBENCH_OP_USER_READ ? "overhead" :
			  op == BPFBENCH_OP_CALIB ? "calib" :
			  op == BPFBENCH_OP_CALIB_IMUL ? "calib_imul" :
			  "copy_from_user_overhead";
	if (size)
		snprintf(names[i], sizeof(names[i]), "bpf/%s/%s/%u", op_name,
			 bpfbench_mode_name(mode), size);
	else
		snprintf(names[i], sizeof(names[i]), "bpf/%s/%s", op_name,
			 bpfbench_mode_name(mode));
	table[i] = (struct benchmark){
		.name = names[i], .suite = "bpf", .op = op_name,
		.variant = bpfbench_mode_name(mode), .size = size,
		.arg = &args[i],
		.summary = row != BPF_ROW_DIFFERENCE ? summaries[op] :
			   op == BPFBENCH_OP_CALIB ?
			   "ns per 1024 dependent add r, r (1 core cycle each), loop excluded" :
			   op == BPFBENCH_OP_CALIB_IMUL ?
			   "ns per 1024 dependent imul r, r (3 core cycles each), loop excluded" :
			   "user-access path minus the same kernel copy, per access",
		.valid = bpf_valid, .setup = bpf_setup,
		.teardown = bpf_teardown, .measure = bpf_measure,
		.timer = bpf_timer,
		/* --quick runs what the default runs, shorter */
		.extended = full_only(op, size),
		.full_only = full_only(op, size),
		/* the SMAP-related difference, 8 B in the main mode (docs/bpf.md) */
		.headline = row == BPF_ROW_DIFFERENCE &&
			    op == BPFBENCH_OP_USER_READ &&
			    mode == BPFBENCH_MODE_RAW_TP && size == 8,
	};
	f->count++;
}

static int bpf_init(struct bench_family *f)
{
	f->table = table;
	f->count = 0;
	for (int mode = 0; mode < BPFBENCH_MODE_COUNT; mode++) {
		add(f, BPF_ROW_PLAIN, mode, BPFBENCH_OP_EMPTY, 0, 0);
		add(f, BPF_ROW_DIFFERENCE, mode, BPFBENCH_OP_CALIB,
		    BPFBENCH_OP_EMPTY, 0);
		add(f, BPF_ROW_DIFFERENCE, mode, BPFBENCH_OP_CALIB_IMUL,
		    BPFBENCH_OP_EMPTY, 0);
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			for (int op = BPFBENCH_OP_USER_READ;
			     op < BPFBENCH_OP_COUNT; op++) {
				if (op == BPFBENCH_OP_CALIB ||
				    op == BPFBENCH_OP_CALIB_IMUL)
					continue;
				if (op == BPFBENCH_OP_COPY_FROM_USER &&
				    mode != BPFBENCH_MODE_SYSCALL)
					continue;
				add(f, BPF_ROW_PLAIN, mode, op, 0, sizes[s]);
			}
			add(f, BPF_ROW_DIFFERENCE, mode, BPFBENCH_OP_USER_READ,
			    BPFBENCH_OP_KERNEL_MEMMOVE, sizes[s]);
			if (mode == BPFBENCH_MODE_SYSCALL)
				add(f, BPF_ROW_DIFFERENCE, mode,
				    BPFBENCH_OP_COPY_FROM_USER,
				    BPFBENCH_OP_KERNEL_MEMMOVE, sizes[s]);
		}
	}
	return 0;
}

static void set_key(void *arg, const char *key, const char *value)
{
	context_set(arg, key, "%s", value);
}

static void bpf_context(struct context *c)
{
	bpfbench_context(set_key, c);
	if (bpf()) {
		context_set(c, "bpf_status", "ok");
	} else {
		context_set(c, "bpf_status", "%s",
			    bpfbench_status_name(loader.error.status));
		context_set(c, "bpf_reason", "%s", loader.error.message);
	}
	context_set(c, "bpf_run_budget_ns", "%llu", BPF_RUN_BUDGET_NS);
}

/*
 * What the samples met, counted by the runner in whichever process took
 * them (measure/runner.h): runs repeated because the interrupt landed on
 * another task, and differences below 0. Said per benchmark, summed in
 * the context.
 */
static void bpf_results_context(struct context *c, const struct run_results *r)
{
	unsigned long long repeats = 0, negative = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct result *res = &r->items[i];

		if (res->skipped || strcmp(res->bench->suite, "bpf"))
			continue;
		if (res->negative)
			fprintf(stderr,
				"smapbench: %s: %zu samples had the kernel loop slower "
				"than the user loop (kept, negative)\n",
				res->bench->name, res->negative);
		if (res->repeats)
			fprintf(stderr,
				"smapbench: %s: %llu runs repeated: the interrupt "
				"landed on another task\n", res->bench->name,
				(unsigned long long)res->repeats);
		repeats += res->repeats;
		negative += res->negative;
	}
	context_set(c, "bpf_ipi_runs_repeated", "%llu", repeats);
	context_set(c, "bpf_overhead_samples_negative", "%llu", negative);
}

struct bench_family family_bpf = {
	.suite = "bpf", .name = "bpf",
	.init = bpf_init, .context = bpf_context,
	.results_context = bpf_results_context,
};
