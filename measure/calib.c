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
#include <time.h>

#include "measure/context.h"

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

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * One chain, `reps` times CALIB_CHAIN_OPS (1 or 2) operations per
 * iteration, n iterations. The operand of add and imul is a register
 * whose value the core learns only at execution; the chain runs through
 * acc. 64-bit imul, as the bpf JIT emits for "r *= r".
 */
#define CHAIN_LOOP(body, acc, other, n)					\
	__asm__ __volatile__("1:\n\t"						\
		     ".rept " CHAIN_REPT "\n\t"				\
		     body "\n\t"					\
		     ".endr\n\t"					\
		     "dec %[n]\n\t"					\
		     "jnz 1b\n"						\
		     : [acc] "+r" (acc), [n] "+r" (n)			\
		     : [other] "r" (other)				\
		     : "cc")

#define CHAIN_REPT "1024"
static void add_1x(uint64_t n)
{
	uint64_t acc = n, other = n | 1;

	CHAIN_LOOP("add %[other], %[acc]", acc, other, n);
}

static void imul_1x(uint64_t n)
{
	uint64_t acc = n | 1, other = 3;

	CHAIN_LOOP("imul %[other], %[acc]", acc, other, n);
}

static void add_immediate_1x(uint64_t n)
{
	uint64_t acc = n, other = 0;

	CHAIN_LOOP("add $1, %[acc]", acc, other, n);
}
#undef CHAIN_REPT
#define CHAIN_REPT "2048"
static void add_2x(uint64_t n)
{
	uint64_t acc = n, other = n | 1;

	CHAIN_LOOP("add %[other], %[acc]", acc, other, n);
}

static void imul_2x(uint64_t n)
{
	uint64_t acc = n | 1, other = 3;

	CHAIN_LOOP("imul %[other], %[acc]", acc, other, n);
}

static void add_immediate_2x(uint64_t n)
{
	uint64_t acc = n, other = 0;

	CHAIN_LOOP("add $1, %[acc]", acc, other, n);
}
#undef CHAIN_REPT

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
		uint64_t t0 = now_ns();

		one(CALIB_ITERATIONS);
		uint64_t t1 = now_ns();

		two(CALIB_ITERATIONS);
		uint64_t t2 = now_ns();
		/* Interference only adds: the least of each run is its own. */
		if ((double)(t1 - t0) < best1)
			best1 = (double)(t1 - t0);
		if ((double)(t2 - t1) < best2)
			best2 = (double)(t2 - t1);
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

int calib_measure_user_add_immediate(unsigned blocks, double *ns)
{
	return least_difference(add_immediate_1x, add_immediate_2x, blocks, ns);
}

/* Blocks per chain in a run's calibration: about 20 ms in all. */
#define CALIB_CONTEXT_BLOCKS 200

void calib_context_user(struct context *c)
{
	double add_ns = 0, imul_ns = 0;
	struct calib_verdict v;

	if (calib_measure_user(CALIB_CONTEXT_BLOCKS, &add_ns, &imul_ns))
		add_ns = imul_ns = 0;
	calib_judge(add_ns, imul_ns, &v);
	context_set(c, "calib_user_add_ns", "%.6g", add_ns);
	context_set(c, "calib_user_imul_ns", "%.6g", imul_ns);
	context_set(c, "calib_user_add_ghz", "%.6g", v.add_ghz);
	context_set(c, "calib_user_imul_ghz", "%.6g", v.imul_ghz);
	context_set(c, "calib_user_disagreement", "%.4g", v.disagreement);
	context_set(c, "calib_user_consistent", "%d", v.consistent);
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
