// SPDX-License-Identifier: GPL-2.0
/*
 * ops.c - every op runs: each listed op x variant x size, the catalogue's sizes, the sample layout.
 */

#include "tests/kmod/selftest/selftest.h"

/*
 * Every op in every variant the catalogue lists, at the sizes of a quick
 * run's sweep; batched and masked with blocks of 4 items. The variants it
 * does not list must be refused.
 */
void test_matrix(void)
{
	unsigned int op, v, i;

	for (op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];

		for (v = 0; v < SMAPBENCH_VARIANT_COUNT; v++) {
			unsigned int batch = kmod_variant_is_block(v) ? 4 : 0;

			if (!(o->variants & (1U << v))) {
				run_refused(op, v, o->quick_sizes.value[0], batch,
					    "a variant the catalogue does not list");
				continue;
			}
			for (i = 0; i < o->quick_sizes.count; i++)
				run_case(op, v, o->quick_sizes.value[i], batch);
		}
	}
	/* The largest block the ABI allows: 64 x 64 KiB = the whole buffer. */
	run_case(SMAPBENCH_OP_COPY_TO_USER, SMAPBENCH_VARIANT_BATCHED, 65536,
		 SMAPBENCH_MAX_BATCH);
	run_case(SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_BATCHED, 8,
		 SMAPBENCH_MAX_BATCH);
}

/*
 * The catalogue's size rule of every op against the module's, at the
 * edges: each size it calls invalid is -EINVAL, each valid one runs (one
 * iteration, one sample, in the op's first variant; EOPNOTSUPP where
 * this machine cannot run that variant).
 */
void test_catalogue_sizes(void)
{
	unsigned int op, v, i;

	for (op = 0; op < SMAPBENCH_OP_COUNT; op++) {
		const struct kmod_op *o = &kmod_ops[op];
		const unsigned int probes[] = {
			0, 1, 2, 3, 4, 5, 8, 9, 16, o->min_size - 1, o->min_size,
			o->min_size + 1, o->max_size - 1, o->max_size,
			o->max_size + 1, SMAPBENCH_MAX_SIZE + 1,
		};
		unsigned int bad = 0, good = 0, wrong = 0;
		char what[160] = "";

		for (v = 0; !(o->variants & (1U << v)); v++)
			;
		for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			unsigned int size = probes[i];
			int want = kmod_size_accepted(op, size) ?
				   expected_errno(op, v) : EINVAL;
			struct smapbench_run r;
			int got;

			if (memchr_u32(probes, i, size))
				continue;
			request(&r, op, v, size, kmod_variant_is_block(v) ? 1 : 0,
				1, 1);
			got = run(&r);
			want == EINVAL ? bad++ : good++;
			/* Valid, but one iteration too slow here: still accepted. */
			if (!want && got == E2BIG && !bad_refusal(&r))
				got = 0;
			if (got != want) {
				wrong++;
				snprintf(what + strlen(what), sizeof(what) - strlen(what),
					 " size %u: %s not %s;", size, errname(got),
					 errname(want));
			}
		}
		ok(!wrong, "RUN %s/%s at the edges of the catalogue's sizes: %u refused with EINVAL and %u accepted, as it says%s",
		   o->name, kmod_variant_name(v), bad, good, what);
	}
}


/* ---- the sample's size and flags ---------------------------------- */

void test_sample_layout(void)
{
	static struct {
		struct smapbench_sample s;
		uint64_t beyond;
	} wide[4];
	struct smapbench_run r;
	unsigned int i;
	bool good;
	int got;

	/* A caller of 16-byte samples: tsc and cycles only. */
	memset(wide, 0xff, sizeof(wide));
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 4);
	r.sample_size = 16;
	r.sample_flags = 0;
	r.samples_ptr = (uintptr_t)wide;
	got = run(&r);
	good = !got;
	for (i = 0; good && i < 4; i++) {
		uint64_t *u = (uint64_t *)((char *)wide + 16 * i);

		good = u[0] && u[0] != ~0ULL;
	}
	good = good && ((uint64_t *)wide)[8] == ~0ULL;
	ok(good, "RUN with 16-byte samples fills 4 x 16 bytes and nothing beyond (%s)",
	   errname(got));

	/* A caller of bigger samples than the module knows: zeroed tail. */
	memset(wide, 0xff, sizeof(wide));
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 4);
	r.sample_size = sizeof(wide[0]);
	r.samples_ptr = (uintptr_t)wide;
	got = run(&r);
	good = !got;
	for (i = 0; good && i < 4; i++)
		good = wide[i].s.tsc && wide[i].s.window_tsc >= wide[i].s.tsc &&
		       wide[i].s.window_tsc <= r.budget_tsc && !wide[i].beyond;
	ok(good, "RUN with %zu-byte samples and SMAPBENCH_SAMPLE_WINDOW fills the window and zeroes the rest (%s)",
	   sizeof(wide[0]), errname(got));

	/* Without the flag the window field stays zero. */
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	r.sample_flags = 0;
	got = run(&r);
	ok(!got && samples[0].tsc && !samples[0].window_tsc && !samples[1].window_tsc,
	   "RUN without SMAPBENCH_SAMPLE_WINDOW leaves window_tsc zero (%s)",
	   errname(got));
}

