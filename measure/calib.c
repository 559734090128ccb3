// SPDX-License-Identifier: GPL-2.0
/*
 * calib.c - the two calibration chains in user space, and the check that
 * they agree (calib.h).
 */
#include "measure/calib.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "measure/context.h"
#include "measure/counter.h"

void calib_judge(double add_ns, double imul_ns, struct calib_verdict *v)
{
	*v = (struct calib_verdict){ 0 };
	if (isfinite(add_ns) && add_ns > 0)
		v->add_ghz = CALIB_CHAIN_OPS * CALIB_ADD_LATENCY / add_ns;
	if (isfinite(imul_ns) && imul_ns > 0)
		v->imul_ghz = CALIB_CHAIN_OPS * CALIB_IMUL_LATENCY / imul_ns;
	if (v->add_ghz <= 0 || v->imul_ghz <= 0)
		return;
	v->disagreement = fabs(v->add_ghz - v->imul_ghz) / v->imul_ghz;
	v->consistent = v->disagreement <= CALIB_TOLERANCE;
	if (v->consistent)
		v->ghz = (v->add_ghz + v->imul_ghz) / 2;
}

void calib_judge_counter(double add_cycles, double imul_cycles,
			 struct calib_counter_verdict *v)
{
	const double add_want = CALIB_CHAIN_OPS * CALIB_ADD_LATENCY;
	const double imul_want = CALIB_CHAIN_OPS * CALIB_IMUL_LATENCY;

	*v = (struct calib_counter_verdict){ 0 };
	if (!isfinite(add_cycles) || add_cycles <= 0 ||
	    !isfinite(imul_cycles) || imul_cycles <= 0) {
		snprintf(v->why, sizeof(v->why),
			 "the calibration chains did not run under the counter");
		return;
	}
	v->add_ratio = add_cycles / add_want;
	v->imul_ratio = imul_cycles / imul_want;
	v->trusted = fabs(v->add_ratio - 1) <= CALIB_COUNTER_TOLERANCE &&
		     fabs(v->imul_ratio - 1) <= CALIB_COUNTER_TOLERANCE;
	if (!v->trusted)
		snprintf(v->why, sizeof(v->why),
			 "the counter read %.1f and %.1f cycles for the add and imul chains, not %.0f and %.0f within %.1f%%",
			 add_cycles, imul_cycles, add_want, imul_want,
			 100 * CALIB_COUNTER_TOLERANCE);
}

/*
 * One chain function: n iterations of `ops` (1024 or 2048) dependent
 * operations. The operand of add and imul is a register whose value the
 * core learns only at execution; the chain runs through acc. 64-bit imul,
 * as the bpf JIT emits for "r *= r".
 */
#define DEFINE_CHAIN(name, ops, body, acc_start, operand)		\
static void name(uint64_t n)						\
{									\
	uint64_t acc = (acc_start), other = (operand);			\
									\
	__asm__ __volatile__("1:\n\t"					\
			     ".rept " #ops "\n\t"			\
			     body "\n\t"				\
			     ".endr\n\t"				\
			     "dec %[n]\n\t"				\
			     "jnz 1b\n"					\
			     : [acc] "+r" (acc), [n] "+r" (n)		\
			     : [other] "r" (other)			\
			     : "cc");					\
}

DEFINE_CHAIN(add_1x, 1024, "add %[other], %[acc]", n, n | 1)
DEFINE_CHAIN(add_2x, 2048, "add %[other], %[acc]", n, n | 1)
DEFINE_CHAIN(imul_1x, 1024, "imul %[other], %[acc]", n | 1, 3)
DEFINE_CHAIN(imul_2x, 2048, "imul %[other], %[acc]", n | 1, 3)

/* Iterations per timed run: about 0.1 ms of the slower (imul) chain. */
#define CALIB_ITERATIONS 32

static int least_difference(void (*one)(uint64_t), void (*two)(uint64_t),
			    unsigned blocks, double *ns)
{
	double best1 = INFINITY, best2 = INFINITY;

	if (!blocks)
		return -1;
	one(CALIB_ITERATIONS);		/* warm: code in the caches */
	two(CALIB_ITERATIONS);
	for (unsigned b = 0; b < blocks; b++) {
		double t0 = counter_raw_ns();

		one(CALIB_ITERATIONS);
		double t1 = counter_raw_ns();

		two(CALIB_ITERATIONS);
		double t2 = counter_raw_ns();
		/* Interference only adds: the least of each run is its own. */
		if (t1 - t0 < best1)
			best1 = t1 - t0;
		if (t2 - t1 < best2)
			best2 = t2 - t1;
	}
	if (!(best2 > best1))
		return -1;
	*ns = (best2 - best1) / CALIB_ITERATIONS;
	return 0;
}

int calib_measure_user(unsigned blocks, double *add_ns, double *imul_ns)
{
	if (least_difference(add_1x, add_2x, blocks, add_ns) ||
	    least_difference(imul_1x, imul_2x, blocks, imul_ns))
		return -1;
	return 0;
}

void calib_context_record(struct context *c, const char *prefix,
			  double add_ns, double imul_ns, struct calib_verdict *v)
{
	char key[64];

	/* judged first: the keys hold the verdict's figures */
	calib_judge(add_ns, imul_ns, v);

	const struct {
		const char *name;
		int digits;
		double value;
	} keys[] = {
		{ "add_ns", 6, add_ns }, { "imul_ns", 6, imul_ns },
		{ "add_ghz", 6, v->add_ghz }, { "imul_ghz", 6, v->imul_ghz },
		{ "disagreement", 4, v->disagreement },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(key, sizeof(key), "%s%s", prefix, keys[i].name);
		context_set(c, key, "%.*g", keys[i].digits, keys[i].value);
	}
	snprintf(key, sizeof(key), "%sconsistent", prefix);
	context_set(c, key, "%d", v->consistent);
}

/* Blocks per chain in a run's calibration: about 20 ms in all. */
#define CALIB_CONTEXT_BLOCKS 200

void calib_context_user(struct context *c)
{
	double add_ns = 0, imul_ns = 0;
	struct calib_verdict v;

	if (calib_measure_user(CALIB_CONTEXT_BLOCKS, &add_ns, &imul_ns))
		add_ns = imul_ns = 0;
	calib_context_record(c, "calib_user_", add_ns, imul_ns, &v);
}

static double key_number(const struct context *c, const char *key)
{
	const char *v = context_get(c, key);

	return v && *v ? strtod(v, NULL) : NAN;
}

void calib_context_judge(struct context *c)
{
	double add = key_number(c, "calib_user_add_ns");
	double imul = key_number(c, "calib_user_imul_ns");
	const char *kmod = context_get(c, "kmod_calib_consistent");
	struct calib_verdict user;
	char note[256] = "";

	calib_judge(add, imul, &user);
	if (!user.consistent)
		snprintf(note, sizeof(note),
			 "the calibration chains disagree in user space (add r,r %.3f GHz, imul r,r %.3f GHz, %.1f%% apart, more than %.0f%%)",
			 user.add_ghz, user.imul_ghz, 100 * user.disagreement,
			 100 * CALIB_TOLERANCE);
	context_set(c, "calib_method", "%s",
		    kmod && *kmod ?
		    "chains add r,r and imul r,r: user space, module" :
		    "chains add r,r and imul r,r: user space");
	context_set(c, "calib_kmod_vs_user", "%s", "");
	if (kmod && *kmod && user.consistent) {
		struct calib_verdict k;

		calib_judge(key_number(c, "kmod_calib_add_ns"),
			    key_number(c, "kmod_calib_imul_ns"), &k);
		if (!k.consistent)
			snprintf(note, sizeof(note),
				 "the module's calibration chains disagree (add r,r %.3f GHz, imul r,r %.3f GHz, %.1f%% apart)",
				 k.add_ghz, k.imul_ghz, 100 * k.disagreement);
		else {
			double ratio = k.ghz / user.ghz;

			context_set(c, "calib_kmod_vs_user", "%.4f", ratio);
			if (fabs(ratio - 1) > CALIB_TOLERANCE)
				snprintf(note, sizeof(note),
					 "the module's chains (%.3f GHz) and user space's (%.3f GHz) disagree by %.1f%%",
					 k.ghz, user.ghz, 100 * fabs(ratio - 1));
		}
	}
	context_set(c, "calib_consistent", "%d", !note[0]);
	context_set(c, "calib_note", "%s", note);
	if (note[0]) {
		context_set(c, "calib_ghz", "%s", "");
		context_warn(c, "%s: times only, no cycle figures", note);
	} else {
		context_set(c, "calib_ghz", "%.6g", user.ghz);
	}
}
