/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib.h - core cycles from time, by two dependent chains the core
 * cannot shortcut.
 *
 * A chain of 1024 dependent `add $1, %reg` is not 1024 cycles on every
 * x86 core: recent Intel cores fold an add-immediate at rename and retire
 * several per cycle (41 ns per 1024 on a 4.16 GHz Golden Cove-class
 * Xeon). The chains here take their operand from a register, so nothing
 * is known at rename: `add %r, %r` (1 cycle of latency) and
 * `imul %r64, %r64` (3 cycles), the latencies Intel's and AMD's
 * optimisation manuals and Agner Fog's tables give for every Intel core
 * since Nehalem and every AMD Zen (AMD K10 takes 4 for imul, family 15h
 * 6: there the two disagree, which is what the check is for). Each chain implies a core frequency; when
 * the two agree within CALIB_TOLERANCE the run converts time to cycles,
 * else it gives time only and says why. docs/methodology.md.
 */
#ifndef SMAPBENCH_CALIB_H
#define SMAPBENCH_CALIB_H

/* Dependent operations per block of a chain. */
#define CALIB_CHAIN_OPS		1024
/* Latencies, core cycles per operation. */
#define CALIB_ADD_LATENCY	1
#define CALIB_IMUL_LATENCY	3
/* How far apart the two chains' frequencies may be: 2%. */
#define CALIB_TOLERANCE		0.02

struct calib_verdict {
	double add_ghz, imul_ghz;	/* frequency each chain implies */
	double ghz;			/* the agreed one, or 0 */
	double disagreement;		/* |add - imul| / imul */
	int consistent;			/* 1 when within the tolerance */
};

/*
 * Judge two chains' time per CALIB_CHAIN_OPS operations (ns): the
 * frequency each implies at its latency, and whether they agree within
 * CALIB_TOLERANCE. The agreed frequency is their mean. A chain that did
 * not run (ns <= 0 or not finite) gives consistent = 0, ghz = 0.
 */
void calib_judge(double add_ns, double imul_ns, struct calib_verdict *v);

/*
 * Time both chains on the calling thread (pin it first): per chain the
 * least ns per CALIB_CHAIN_OPS operations over `blocks` timed blocks,
 * a block being the difference of a run of 2 and a run of 1 chain
 * lengths (so that the loop's own cost cancels). 0 or -1.
 */
int calib_measure_user(unsigned blocks, double *add_ns, double *imul_ns);

/* How far a cycle counter's reading of a chain may be from its latency. */
#define CALIB_COUNTER_TOLERANCE	0.005

struct calib_counter_verdict {
	double add_ratio, imul_ratio;	/* counted / expected cycles */
	int trusted;			/* both within the tolerance */
	char why[160];			/* why not, when not */
};

/*
 * Judge a cycle counter (a PMU) by the two chains it counted, as cycles
 * per CALIB_CHAIN_OPS operations: they must read CALIB_CHAIN_OPS times
 * their latency (1024 and 3072) within CALIB_COUNTER_TOLERANCE, else the
 * counter does not count core cycles of this code (a hypervisor's
 * virtual PMU, a counter of another event, a frequency domain apart) and
 * the caller keeps time and the chains' frequency instead. A chain that
 * did not run (<= 0 or not finite) leaves the counter untrusted.
 */
void calib_judge_counter(double add_cycles, double imul_cycles,
			 struct calib_counter_verdict *v);

struct context;

/*
 * Time both chains here (the caller is pinned) and record what each
 * implies: calib_user_{add,imul}_{ns,ghz}, calib_user_disagreement,
 * calib_user_consistent.
 */
void calib_context_user(struct context *c);

/*
 * Judge two chains (calib_judge, into *v) and record them under prefix:
 * <prefix>{add,imul}_{ns,ghz}, <prefix>disagreement, <prefix>consistent.
 * The user-space chains use "calib_user_", the module's "kmod_calib_".
 */
void calib_context_record(struct context *c, const char *prefix,
			  double add_ns, double imul_ns, struct calib_verdict *v);

/*
 * The run's verdict from the chains recorded so far (user space, and the
 * module's kmod_calib_* where it ran): calib_ghz (the agreed core
 * frequency, empty when none), calib_consistent, calib_method,
 * calib_kmod_vs_user, calib_note (why no cycles), and a warning when the
 * run must give time only.
 */
void calib_context_judge(struct context *c);

#endif
