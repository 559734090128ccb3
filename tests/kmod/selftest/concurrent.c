// SPDX-License-Identifier: GPL-2.0
/*
 * concurrent.c - two CPUs running the module at once.
 */

#include "tests/kmod/selftest/selftest.h"

/* ---- two CPUs at once --------------------------------------------- */

struct worker {
	int cpu;
	int failures;
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
		if (got) {
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
		   "concurrent RUNs pinned to CPU %d: %d failures%s%s, %d on another CPU",
		   w[i].cpu, w[i].failures, w[i].failures ? " last " : "",
		   w[i].why, w[i].wrong_cpu);
}

