// SPDX-License-Identifier: GPL-2.0
/*
 * limits.c - the interrupts-off bound and the ABI's limits.
 */

#include "tests/kmod/selftest/selftest.h"

/* ---- the interrupts-off bound ----------------------------------- */

/*
 * The requests whose single iteration is longest: each either runs with
 * every returned window within the budget, or is refused with E2BIG
 * before any window opened. The ticks are printed: under TCG the big
 * ones are refused, on hardware they run.
 */
void test_bound(void)
{
	static const struct {
		unsigned int op, variant, size, batch;
	} big[] = {
		{ SMAPBENCH_OP_COPY_FROM_USER, SMAPBENCH_VARIANT_BATCHED, 65536, 64 },
		{ SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_BATCHED, 65536, 64 },
		{ SMAPBENCH_OP_CLEAR_USER, SMAPBENCH_VARIANT_BATCHED, 65536, 64 },
		{ SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_KAPI, 65536, 0 },
		{ SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_NOPAD, 65536, 0 },
		{ SMAPBENCH_OP_COPY_FROM_USER, SMAPBENCH_VARIANT_INLINE, 65536, 0 },
	};
	unsigned int k, i;

	for (k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
		struct smapbench_run r;
		uint64_t longest = 0;
		const char *why;
		char name[96];
		int got, want;

		snprintf(name, sizeof(name), "%s/%s %u x %u",
			 kmod_ops[big[k].op].name,
			 kmod_variant_name(big[k].variant), big[k].size,
			 big[k].batch ? big[k].batch : 1);
		want = expected_errno(big[k].op, big[k].variant);
		request(&r, big[k].op, big[k].variant, big[k].size,
			big[k].batch, 1, 8);
		got = run(&r);
		if (want) {
			ok(got == want, "bound: %s returns %s (expected %s)", name,
			   errname(got), errname(want));
			continue;
		}
		if (got == E2BIG) {
			why = bad_refusal(&r);
			ok(!why, "bound: %s refused with E2BIG before any window: one iteration %llu ticks with interrupts on, budget %llu ticks, windows opened: longest %llu%s%s",
			   name, (unsigned long long)r.iteration_tsc,
			   (unsigned long long)r.budget_tsc,
			   (unsigned long long)r.window_max_tsc,
			   why ? ": " : "", why ? why : "");
			continue;
		}
		why = got ? errname(got) : insane(&r);
		for (i = 0; !got && i < r.samples; i++)
			if (samples[i].window_tsc > longest)
				longest = samples[i].window_tsc;
		ok(!why, "bound: %s runs within the budget: samples' longest window %llu ticks of %llu, %u discarded over it%s%s",
		   name, (unsigned long long)longest,
		   (unsigned long long)r.budget_tsc, r.over_budget,
		   why ? ": " : "", why ? why : "");
	}
}


/* ---- limits ------------------------------------------------------- */

void test_limits(void)
{
	struct smapbench_sample *many;
	struct smapbench_run r;
	struct timespec t0, t1;
	double secs;
	int got;

	request(&r, SMAPBENCH_OP_CALIB, SMAPBENCH_VARIANT_NONE, 0, 0,
		SMAPBENCH_MAX_ITERATIONS, 2);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	got = run(&r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ok(!got && !insane(&r) && (r.result_flags & SMAPBENCH_RUN_CLAMPED) &&
	   r.iterations_done < r.iterations,
	   "RUN calib with %u iterations is clamped to the sample budget (%s, %u done, flags %#x, longest window %llu of %llu ticks, %.2f s)",
	   SMAPBENCH_MAX_ITERATIONS, errname(got), r.iterations_done,
	   r.result_flags, (unsigned long long)r.window_max_tsc,
	   (unsigned long long)r.budget_tsc, secs);
	if (!got)
		printf("# calib clamp: %llu tsc for %u iterations; budget %u ns at %llu kHz\n",
		       (unsigned long long)samples[0].tsc, r.iterations_done,
		       info.sample_budget_ns,
		       (unsigned long long)info.tsc_khz);

	many = calloc(SMAPBENCH_MAX_SAMPLES, sizeof(*many));
	if (!many) {
		ok(false, "calloc for %u samples", SMAPBENCH_MAX_SAMPLES);
		return;
	}
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 1,
		SMAPBENCH_MAX_SAMPLES);
	r.samples_ptr = (uintptr_t)many;
	got = run(&r);
	ok(!got && many[SMAPBENCH_MAX_SAMPLES - 1].tsc > 0,
	   "RUN with the maximum of %u samples fills them all (%s)",
	   SMAPBENCH_MAX_SAMPLES, errname(got));
	free(many);

	/* Unaligned accesses are allowed for everything but futex. */
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	r.buffer = (uintptr_t)arena + 1;
	r.buffer_len = 64;
	got = run(&r);
	ok(!got, "RUN get_user/kapi size 8 at an odd address succeeds (%s)",
	   errname(got));
}

