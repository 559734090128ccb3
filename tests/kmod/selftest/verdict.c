// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - what a successful or refused RUN must look like, for every check.
 */

#include "tests/kmod/selftest/selftest.h"

static bool needs_raw(unsigned int op, unsigned int variant)
{
	return op == SMAPBENCH_OP_PAIR || op == SMAPBENCH_OP_STAC ||
	       op == SMAPBENCH_OP_CLAC || variant == SMAPBENCH_VARIANT_INLINE ||
	       variant == SMAPBENCH_VARIANT_NOPAD;
}

int expected_errno(unsigned int op, unsigned int variant)
{
	if (needs_raw(op, variant) && !(info.flags & SMAPBENCH_INFO_SMAP_CPUID))
		return EOPNOTSUPP;
	if (variant == SMAPBENCH_VARIANT_MASKED &&
	    !(info.flags & SMAPBENCH_INFO_MASKED_UACCESS))
		return EOPNOTSUPP;
	if (op == SMAPBENCH_OP_FUTEX &&
	    (variant == SMAPBENCH_VARIANT_BATCHED ||
	     variant == SMAPBENCH_VARIANT_MASKED) &&
	    !(info.flags & SMAPBENCH_INFO_FUTEX_BLOCKS))
		return EOPNOTSUPP;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The budget in TSC ticks, as the module must compute it. */
static uint64_t budget_ticks(void)
{
	return (uint64_t)info.sample_budget_ns * info.tsc_khz / 1000000;
}

/* What a successful run must look like; NULL if it does. */
const char *insane(const struct smapbench_run *r)
{
	uint64_t limit = info.tsc_khz * 1000 * 10; /* 10 s of TSC */
	unsigned int i;

	if (r->iterations_done < 1 || r->iterations_done > r->iterations)
		return "iterations_done out of range";
	if (!!(r->result_flags & SMAPBENCH_RUN_CLAMPED) !=
	    (r->iterations_done < r->iterations))
		return "CLAMPED flag disagrees with iterations_done";
	if (r->result_flags & ~(SMAPBENCH_RUN_CLAMPED | SMAPBENCH_RUN_CYCLES))
		return "unknown result_flags";
	if (r->cpu >= (unsigned int)sysconf(_SC_NPROCESSORS_CONF))
		return "cpu out of range";
	if (r->reserved[0] || r->reserved[1] || r->reserved[2] ||
	    r->reserved[3])
		return "reserved field set on output";
	if (r->timer_overhead_tsc > limit)
		return "timer overhead beyond 10 s";
	if (r->budget_tsc != budget_ticks())
		return "budget_tsc is not INFO's sample_budget_ns at tsc_khz";
	if (!r->iteration_tsc)
		return "iteration_tsc zero";
	if (!r->window_max_tsc ||
	    (r->window_max_tsc > r->budget_tsc && !r->over_budget))
		return "window_max_tsc zero, or over the budget with over_budget 0";
	for (i = 0; i < r->samples; i++) {
		if (!samples[i].tsc || samples[i].tsc > limit)
			return "sample tsc zero or beyond 10 s";
		if (!samples[i].window_tsc ||
		    samples[i].window_tsc > r->budget_tsc ||
		    samples[i].window_tsc < samples[i].tsc)
			return "a sample's window is zero, shorter than the sample or over the budget";
		if (!(r->result_flags & SMAPBENCH_RUN_CYCLES) &&
		    samples[i].cycles)
			return "cycles set without SMAPBENCH_RUN_CYCLES";
		if ((r->result_flags & SMAPBENCH_RUN_CYCLES) &&
		    !samples[i].cycles)
			return "cycles zero with SMAPBENCH_RUN_CYCLES";
	}
	return NULL;
}

/*
 * A refusal must be what the ABI says: one iteration, measured with
 * interrupts on, longer than half the budget, and no window opened (or
 * windows of one iteration that ran over it). NULL if it is.
 */
const char *bad_refusal(const struct smapbench_run *r)
{
	if (r->budget_tsc != budget_ticks())
		return "budget_tsc not filled in";
	if (r->iterations_done)
		return "iterations_done set";
	if (r->window_max_tsc == 0)
		return r->iteration_tsc > r->budget_tsc / 2 ? NULL :
		       "iteration_tsc within half the budget";
	return r->over_budget && r->window_max_tsc > r->budget_tsc ? NULL :
	       "windows opened but none over the budget";
}

/*
 * E2BIG for a loop that fits its window many times over is a refusal
 * only a virtual CPU may give: its host can stop it inside any window
 * (interrupts off or not), and a busy host does it often enough that
 * every window of one iteration ends over the budget. On a real CPU the
 * same refusal is a bug. Either way the refusal's fields must hold.
 */
bool vcpu_refusal(int got, const struct smapbench_run *r)
{
	return got == E2BIG && (info.flags & SMAPBENCH_INFO_HYPERVISOR) &&
	       !bad_refusal(r);
}

/* Checks what an op left in the buffer, where it is observable. */
static const char *content(const struct smapbench_run *r)
{
	const unsigned char *b = arena;
	uint64_t v;
	unsigned int i;

	switch (r->op) {
	case SMAPBENCH_OP_PUT_USER:
		if (r->size != 8)
			return NULL;
		memcpy(&v, b, 8);
		return v == r->iterations_done - 1 ?
		       NULL : "put_user did not leave the last iteration's value";
	case SMAPBENCH_OP_SIGFRAME: {
		/*
		 * Field k (from 1) holds k, cs 0x33, the padding stays 0:
		 * the frame of every variant, byte for byte.
		 */
		unsigned char want[SMAPBENCH_SIGFRAME_BYTES] = { 0 };
		uint64_t field;
		unsigned int off = 0, k;

		for (k = 1; k <= 24; k++) {
			field = k;
			memcpy(want + off, &field, k == 5 ? 4 : 8);
			off += 8;
		}
		want[192] = 0x33;
		return memcmp(b, want, sizeof(want)) ?
		       "sigframe frame differs from the 25 stores' values" : NULL;
	}
	case SMAPBENCH_OP_STRNCPY_FROM_USER:
		for (i = 0; i + 1 < r->size; i++)
			if (b[i] != 'x')
				return "strncpy source string not written";
		return b[r->size - 1] ? "strncpy string not terminated" : NULL;
	case SMAPBENCH_OP_CLEAR_USER:
		for (i = 0; i < r->size; i++)
			if (b[i])
				return "clear_user left a non-zero byte";
		return NULL;
	default:
		return NULL;
	}
}

void run_case(unsigned int op, unsigned int variant, unsigned int size,
	      unsigned int batch)
{
	struct smapbench_run r;
	uint64_t tsc[64];
	const char *why;
	char name[96];
	int want, got;
	unsigned int i;

	snprintf(name, sizeof(name), "RUN %s/%s size %u batch %u",
		 kmod_ops[op].name, kmod_variant_name(variant), size, batch);
	request(&r, op, variant, size, batch, 16, 8);
	/* Dirty the buffer so clear_user and the module's writes show. */
	memset(arena, 0xa5, 65536 * 2);
	want = expected_errno(op, variant);
	got = run(&r);
	if (!want && got == E2BIG) {
		why = bad_refusal(&r);
		ok(!why, "%s refused with E2BIG: one iteration %llu ticks, budget %llu%s%s",
		   name, (unsigned long long)r.iteration_tsc,
		   (unsigned long long)r.budget_tsc, why ? ": " : "",
		   why ? why : "");
		return;
	}
	if (want || got) {
		ok(got == want, "%s returns %s (expected %s)", name,
		   errname(got), errname(want));
		return;
	}
	why = insane(&r);
	if (!why)
		why = content(&r);
	ok(!why, "%s returns sane samples%s%s", name, why ? ": " : "",
	   why ? why : "");
	for (i = 0; i < r.samples; i++)
		tsc[i] = samples[i].tsc;
	qsort(tsc, r.samples, sizeof(tsc[0]), cmp_u64);
	printf("#   iterations %u/%u cpu %u median %llu tsc/sample = %.1f tsc/iteration, timer overhead %llu, flags %#x, longest window %llu of %llu\n",
	       r.iterations_done, r.iterations, r.cpu,
	       (unsigned long long)tsc[r.samples / 2],
	       (double)tsc[r.samples / 2] / r.iterations_done,
	       (unsigned long long)r.timer_overhead_tsc, r.result_flags,
	       (unsigned long long)r.window_max_tsc,
	       (unsigned long long)r.budget_tsc);
}

/* A combination the module must refuse with EINVAL, on every machine. */
void run_refused(unsigned int op, unsigned int variant, unsigned int size,
		 unsigned int batch, const char *why)
{
	struct smapbench_run r;
	int got;

	request(&r, op, variant, size, batch, 16, 8);
	got = run(&r);
	ok(got == EINVAL, "RUN %s/%s size %u batch %u, %s, returns EINVAL (got %s)",
	   kmod_ops[op].name, kmod_variant_name(variant), size, batch, why,
	   errname(got));
}

/* Whether value is among the first n of v. */
bool memchr_u32(const unsigned int *v, unsigned int n, unsigned int value)
{
	while (n--)
		if (*v++ == value)
			return true;
	return false;
}

/*
 * Every op in every variant the catalogue lists, at the sizes of a quick
 * run's sweep; batched and masked with blocks of 4 items. The variants it
 * does not list must be refused.
 */
