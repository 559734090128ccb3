/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_plan.h - the first stage of `compare` and `report RUN_A
 * RUN_B`: from the command line's request to the plan of the
 * comparison, decided once before a number is computed. The runs of
 * each side are loaded and checked against each other (the catalogue's
 * context rules), the sides' SMAP states give what B - A means, the
 * calibration is chosen (given, found beside run A, or none), the
 * design is counted by boot_id and decides whether verdicts can be
 * given, and the output directory is known to be ours to write.
 * analysis/compare_compute.h computes from the plan; compare_dir.c
 * writes what was computed.
 */
#ifndef SMAPBENCH_COMPARE_PLAN_H
#define SMAPBENCH_COMPARE_PLAN_H

#include <stddef.h>

#include "analysis/calibrate.h"
#include "analysis/compare_stats.h"
#include "rundata/rundir.h"

/* The runs a side may have: RUN_A1,RUN_A2,... */
#define COMPARE_MAX_RUNS_A_SIDE	16

/* What the command line asks (cli/compare_options.c parses it). */
struct compare_request {
	const char *who;		/* the command: compare or report */
	/* each side's runs, run directories or JSON files; the first pairs */
	const char *runs_a[COMPARE_MAX_RUNS_A_SIDE];
	const char *runs_b[COMPARE_MAX_RUNS_A_SIDE];
	size_t na, nb;
	const char *out;		/* NULL: compare-A-vs-B next to A */
	struct compare_settings settings;	/* alpha, margin, seed, ... */
	int force;			/* across machines, kernels, ... too */
	int plots;			/* draw plots/ */
	int report;			/* write report.md */
	const char *calibration;	/* sigma_u from this file */
	int no_calibration;		/* assume sigma_u, read no file */
	const char *census;		/* census of the SMAP kernel, or NULL */
	unsigned fail_on;		/* 1 << verdict: exit COMPARE_EXIT_FAIL_ON
					 * when a row has one of them */
};

/*
 * What B - A means, from the sides' smap_state: SMAP's cost (A the
 * SMAP-off boot), minus it (the order reversed), or nothing of SMAP at
 * all (both sides of one state: noise or drift between boots).
 */
enum compare_pairing {
	COMPARE_PAIRING_ORDERED,	/* A nosmap, B smap */
	COMPARE_PAIRING_REVERSED,	/* A smap, B nosmap */
	COMPARE_PAIRING_SAME_STATE,	/* both smap, or both nosmap */
	COMPARE_PAIRING_UNKNOWN,	/* a state missing or neither of those */
};

enum compare_pairing compare_pairing_of(const char *state_a,
					const char *state_b);
/* "ordered", "reversed", "same-state", "unknown" (compare.json). */
const char *compare_pairing_name(enum compare_pairing p);
/*
 * The sentence that says it, one line without a newline, naming no text
 * of the runs but the two known states: the same on the console, in
 * compare.json and in report.md.
 */
void compare_pairing_sentence(char *buf, size_t len, const char *state_a,
			      const char *state_b);
/*
 * The smap_state of a side of n runs: states[0] when they all agree,
 * NULL when they differ (a side mixing SMAP states is refused).
 */
const char *compare_side_state(const char *const *states, size_t n);

/* What is wrong with comparing a and b as two runs (the same run), or NULL. */
const char *same_run_warning(const struct run_dir *a, const struct run_dir *b);

/* The runs of the two sides, each side's smap_state ("" unrecorded). */
struct compare_sides {
	const struct run_dir *const *a, *const *b;
	size_t na, nb;
	const char *state_a, *state_b;
	/* what B - A means: compare_sides_pairing() */
	enum compare_pairing pairing;
	const char *order;	/* its name: compare_pairing_name() */
	char sentence[256];
};

/* sides->pairing and sentence from its states. */
void compare_sides_pairing(struct compare_sides *sides);

/*
 * What the catalogue found comparing two runs' contexts (A with B, or a
 * side's run with the side's first), as its roles have it
 * (rundata/catalogue.h): the plan decides with it, and its voice says
 * it.
 */
struct compare_context_check {
	const struct run_dir *a, *b;
	const struct context_diff *diffs;	/* every key that differs */
	size_t count;
	char unchecked[512];	/* not recorded by both: "key (not B), ..." */
	int blocking;		/* a difference blocks a comparison */
	int incomplete;		/* a run is interrupted, and force is not set */
	int force;		/* --force: what blocks is let through */
};

/*
 * How the plan's findings are said as it makes them, in the order it
 * makes them (analysis/compare_output.h has the console's); a member,
 * or the voice, NULL says nothing.
 */
struct compare_plan;
struct compare_plan_voice {
	/* A and B are loaded: plan->pair, and plan->same */
	void (*pair)(const struct compare_plan *plan);
	void (*context)(const char *who, const struct compare_context_check *check);
	/* what B - A means is known: plan->sides */
	void (*pairing)(const struct compare_plan *plan);
	/* the calibration beside A is left out: why */
	void (*calibration_left)(const char *path, const char *why);
};

/*
 * Check the contexts of a and b, told to voice. Returns 1 when a
 * difference blocks and force is not set, or a run is incomplete (or
 * after saying there is no memory).
 */
int compare_check_contexts(const char *who, const struct run_dir *a,
			   const struct run_dir *b, int force,
			   const struct compare_plan_voice *voice);

/* The comparison, decided: what compute and write read, never change. */
struct compare_plan {
	struct compare_request req;	/* as asked */
	const char *who;		/* req.who */
	const struct compare_plan_voice *voice;	/* says its findings */
	int tty;			/* stderr is a terminal: progress lines
				 * (analysis/progress.h) */
	/*
	 * The request's settings with the calibration (settings.model
	 * points into cal) and the design: runs and boots a side, one
	 * boot or not, where sigma_u comes from, whether and why verdicts
	 * are withheld (compare_design()).
	 */
	struct compare_settings settings;
	struct calibration cal;
	char *calibration_path;		/* the file used, or NULL */
	struct run_dir runs[2 * COMPARE_MAX_RUNS_A_SIDE];
	size_t loaded;			/* of runs[]: runs[0] is A, runs[1] B */
	const struct run_dir *side_a[COMPARE_MAX_RUNS_A_SIDE];
	const struct run_dir *side_b[COMPARE_MAX_RUNS_A_SIDE];
	struct compare_sides sides;	/* points into side_a, side_b */
	const struct run_dir *pair[2];	/* A and B: the first run a side */
	const struct run_dir *smap;	/* whose within-boot tables to show */
	const char *same;	/* why A and B are one run, or NULL */
	char *dir;			/* the output directory */
};

/* What cli/commands.h calls EXIT_USAGE: an output that is not ours. */
#define COMPARE_STATUS_NOT_OURS	2

/*
 * Build the plan of req into plan (which must not move afterwards: it
 * points into itself), telling voice what it found (the runs, their
 * contexts, what B - A means, a calibration left out) and saying on
 * stderr what it refused. Returns 0; 1 after saying what failed (a run not
 * read, a context that blocks, a side mixing SMAP states, a calibration
 * refused); COMPARE_STATUS_NOT_OURS when the output directory is not
 * ours to replace. compare_plan_free() it whatever it returned.
 */
int compare_plan_build(const struct compare_request *req,
		       const struct compare_plan_voice *voice,
		       struct compare_plan *plan);
void compare_plan_free(struct compare_plan *plan);

#endif /* SMAPBENCH_COMPARE_PLAN_H */
