// SPDX-License-Identifier: GPL-2.0
/*
 * concurrent.c - two CPUs running the module at once.
 */

#include "tests/kmod/selftest/selftest.h"

/* ---- two CPUs at once --------------------------------------------- */

struct worker {
	int cpu;
	int failures;
	int refused;
	int wrong_cpu;
	char why[96];
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct smapbench_sample s[4];
	unsigned char *buf = malloc(65536);
	cpu_set_t set;
	int k;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (!buf || pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		w->failures = 1;
		snprintf(w->why, sizeof(w->why), "setup failed");
		free(buf);
		return NULL;
	}
	for (k = 0; k < 40; k++) {
		static const unsigned int ops[] = {
			SMAPBENCH_OP_GET_USER, SMAPBENCH_OP_COPY_TO_USER,
			SMAPBENCH_OP_FUTEX, SMAPBENCH_OP_SIGFRAME,
		};
		struct smapbench_run r;
		unsigned int op = ops[k % 4];
		int got;

		memset(&r, 0, sizeof(r));
		r.op = op;
		r.variant = k & 4 ? SMAPBENCH_VARIANT_BATCHED : SMAPBENCH_VARIANT_KAPI;
		r.batch = r.variant == SMAPBENCH_VARIANT_BATCHED ? 4 : 0;
		r.size = op == SMAPBENCH_OP_GET_USER ? 8 :
			 op == SMAPBENCH_OP_COPY_TO_USER ? 1024 :
			 op == SMAPBENCH_OP_FUTEX ? 4 : 0;
		r.iterations = 32;
		r.samples = 4;
		r.buffer = (uintptr_t)buf;
		r.buffer_len = 65536;
		r.samples_ptr = (uintptr_t)s;
		r.sample_size = sizeof(s[0]);
		got = ioctl(dev, SMAPBENCH_IOC_RUN, &r) ? errno : 0;
		if (vcpu_refusal(got, &r)) {
			w->refused++;
		} else if (got) {
			w->failures++;
			snprintf(w->why, sizeof(w->why), "%s/%s: %s",
				 kmod_ops[op].name, kmod_variant_name(r.variant),
				 errname(got));
		} else if ((int)r.cpu != w->cpu) {
			w->wrong_cpu++;
		}
	}
	free(buf);
	return NULL;
}

void test_concurrent(void)
{
	struct worker w[2] = { { .cpu = 0 }, { .cpu = 1 } };
	pthread_t t[2];
	int i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("two RUNs at once on two CPUs", "needs 2 CPUs");
		return;
	}
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker_main, &w[i])) {
			ok(false, "pthread_create for the concurrent test");
			return;
		}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++)
		ok(!w[i].failures && !w[i].wrong_cpu,
		   "concurrent RUNs pinned to CPU %d: %d failures%s%s, %d refused by a virtual CPU (E2BIG), %d on another CPU",
		   w[i].cpu, w[i].failures, w[i].failures ? " last " : "",
		   w[i].why, w[i].refused, w[i].wrong_cpu);
}


/* ---- a contended cache line --------------------------------------- */

static volatile bool hammering;

/*
 * Writes the futex word over and over from another CPU, with the same
 * lock prefix: each of the module's lock cmpxchg then waits for the line
 * to come back, and an iteration gets many times slower than the sizing
 * measured. Without the deadline checks inside a window, that window
 * would hold interrupts off for the whole slowed count.
 */
static void *hammer(void *arg)
{
	volatile uint32_t *word = arg;

	while (hammering)
		__atomic_fetch_add(word, 0, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * futex inline and kapi with the line contended: every run completes or
 * is refused as the ABI says, every returned window is within the
 * budget, and no window, discarded ones included, held interrupts off
 * past twice the budget (a window overruns by at most one chunk of
 * budget / 64 at the speed the chunk before it ran).
 */
void test_contention(void)
{
	static const unsigned int variants[] = {
		SMAPBENCH_VARIANT_INLINE, SMAPBENCH_VARIANT_KAPI,
	};
	cpu_set_t set, old;
	pthread_t t;
	unsigned int k;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("RUN futex with its line contended from another CPU",
		     "needs 2 CPUs");
		return;
	}
	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	hammering = true;
	if (pthread_create(&t, NULL, hammer, arena)) {
		ok(false, "pthread_create for the line hammer");
		sched_setaffinity(0, sizeof(old), &old);
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	pthread_setaffinity_np(t, sizeof(set), &set);
	for (k = 0; k < sizeof(variants) / sizeof(variants[0]); k++) {
		unsigned int v = variants[k];
		int want = expected_errno(SMAPBENCH_OP_FUTEX, v);
		struct smapbench_run r;
		const char *why;
		int got;

		request(&r, SMAPBENCH_OP_FUTEX, v, 4, 0,
			SMAPBENCH_MAX_ITERATIONS, 32);
		got = run(&r);
		if (want) {
			ok(got == want, "RUN futex %s contended returns %s (got %s)",
			   kmod_variant_name(v), errname(want), errname(got));
			continue;
		}
		why = got ? NULL : insane(&r);
		ok((!got && !why) || got == E2BIG,
		   "RUN futex %s with its line contended from CPU 1: %s%s, %u iterations a window, %u windows over the budget or stopped",
		   kmod_variant_name(v), errname(got), why ? why : "",
		   r.iterations_done, r.over_budget);
		/*
		 * A virtual CPU can be descheduled by its host inside any
		 * window, interrupts off or not: there the longest window
		 * says nothing about the module, only the samples do.
		 */
		if (info.flags & SMAPBENCH_INFO_HYPERVISOR) {
			printf("# futex %s contended: longest window %llu ticks, budget %llu\n",
			       kmod_variant_name(v),
			       (unsigned long long)r.window_max_tsc,
			       (unsigned long long)r.budget_tsc);
			skip("RUN futex contended: no window past twice the budget",
			     "a virtual CPU (CPUID hypervisor bit): the host may stop it inside any window");
			continue;
		}
		ok(r.window_max_tsc <= 2 * r.budget_tsc,
		   "RUN futex %s contended: longest window %llu ticks, within twice the budget of %llu",
		   kmod_variant_name(v), (unsigned long long)r.window_max_tsc,
		   (unsigned long long)r.budget_tsc);
	}
	hammering = false;
	pthread_join(t, NULL);
	sched_setaffinity(0, sizeof(old), &old);
}
