// SPDX-License-Identifier: GPL-2.0
/*
 * compare_plan.c - the plan of a comparison, decided once: the sides'
 * runs, their contexts, what B - A means, the calibration, the design
 * and the output directory; see compare_plan.h.
 */
#include "analysis/compare_plan.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/calibrate_dir.h"
#include "analysis/compare_boots.h"
#include "analysis/progress.h"
#include "analysis/run_input.h"
#include "rundata/atomic_dir.h"
#include "rundata/catalogue.h"

/* Where a run is: its directory, also for DIR/results.json. */
static char *run_location(const struct run_dir *run)
{
	char *path = strdup(run->path);
	size_t len;

	if (!path)
		return NULL;
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	if (len > 13 && !strcmp(path + len - 13, "/results.json"))
		path[len - 13] = '\0';
	return path;
}

/* Default output directory for comparing a and b (malloc'ed). */
static char *default_dir(const struct run_dir *a, const struct run_dir *b)
{
	char *parent = run_location(a), *slash, *dir;
	size_t len;

	if (!parent)
		return NULL;
	slash = strrchr(parent, '/');
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	len = strlen(parent) + strlen(a->label) + strlen(b->label) + 32;
	dir = malloc(len);
	if (dir)
		snprintf(dir, len, "%s/compare-%s-vs-%s", parent, a->label,
			 b->label);
	free(parent);
	return dir;
}

/* The run whose within-boot tables to show: the SMAP one, else B. */
static const struct run_dir *smap_run(const struct run_dir *a,
				      const struct run_dir *b)
{
	if (!strcmp(rundir_context_or(b, "smap_state", ""), "smap"))
		return b;
	if (!strcmp(rundir_context_or(a, "smap_state", ""), "smap"))
		return a;
	return b;
}

/* Refuse an output directory we may not replace, before any work. */
static int check_out(const char *name, const char *dir, int given)
{
	char err[PATH_MAX + 256];

	if (!atomic_dir_check(dir, &atomic_dir_compare, err, sizeof(err)))
		return 0;
	fprintf(stderr, "smapbench %s: will not write %s%s: %s.\n"
		"Nothing was changed. Give --out a new directory, or one "
		"smapbench compare wrote.\n", name, dir,
		given ? "" : " (the default output directory)", err);
	return COMPARE_STATUS_NOT_OURS;
}

int compare_check_contexts(const char *who, const struct run_dir *a,
			   const struct run_dir *b, int force,
			   const struct compare_plan_voice *voice)
{
	struct compare_context_check check = { .a = a, .b = b, .force = force };
	struct context_diff *d;
	int blocking = context_diffs(a, b, &d, &check.count);

	if (blocking < 0) {
		fprintf(stderr, "smapbench %s: out of memory\n", who);
		return 1;
	}
	context_comparison_unrecorded(a, b, check.unchecked,
				      sizeof(check.unchecked));
	check.diffs = d;
	check.blocking = blocking;
	/* an interrupted run is refused as a context mismatch is */
	check.incomplete = (rundir_incomplete(a) || rundir_incomplete(b)) &&
			   !force;
	if (voice && voice->context)
		voice->context(who, &check);
	free(d);
	return (blocking && !force) || check.incomplete;
}

enum compare_pairing compare_pairing_of(const char *state_a,
					const char *state_b)
{
	int on_a = !strcmp(state_a, "smap"), off_a = !strcmp(state_a, "nosmap");
	int on_b = !strcmp(state_b, "smap"), off_b = !strcmp(state_b, "nosmap");

	if (!(on_a || off_a) || !(on_b || off_b))
		return COMPARE_PAIRING_UNKNOWN;
	if (on_a == on_b)
		return COMPARE_PAIRING_SAME_STATE;
	return off_a ? COMPARE_PAIRING_ORDERED : COMPARE_PAIRING_REVERSED;
}

const char *compare_pairing_name(enum compare_pairing p)
{
	static const char *const names[] = {
		"ordered", "reversed", "same-state", "unknown",
	};

	return p <= COMPARE_PAIRING_UNKNOWN ? names[p] : "unknown";
}

void compare_pairing_sentence(char *buf, size_t len, const char *state_a,
			      const char *state_b)
{
	switch (compare_pairing_of(state_a, state_b)) {
	case COMPARE_PAIRING_ORDERED:
		snprintf(buf, len, "Differences are B - A: A is the SMAP-off "
			 "boot and B the SMAP boot, so they are what SMAP costs.");
		break;
	case COMPARE_PAIRING_REVERSED:
		snprintf(buf, len, "Differences are B - A. Order reversed: A is "
			 "the SMAP boot; the deltas are minus SMAP's cost.");
		break;
	case COMPARE_PAIRING_SAME_STATE:
		snprintf(buf, len, "A/A comparison: both sides are SMAP %s (%s); "
			 "the deltas are noise or drift between boots, not SMAP.",
			 strcmp(state_a, "smap") ? "off" : "on",
			 strcmp(state_a, "smap") ? "nosmap" : "smap");
		break;
	default:
		snprintf(buf, len, "Differences are B - A. The SMAP state of %s "
			 "is not recorded as smap or nosmap: whether the deltas "
			 "are SMAP's cost cannot be told.",
			 compare_pairing_of(state_a, "smap") ==
			 COMPARE_PAIRING_UNKNOWN ?
			 (compare_pairing_of("smap", state_b) ==
			  COMPARE_PAIRING_UNKNOWN ? "either side" : "A") : "B");
		break;
	}
}

const char *compare_side_state(const char *const *states, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(states[i], states[0]))
			return NULL;
	return n ? states[0] : NULL;
}


/*
 * The boot variance of this comparison's rows into plan->settings, from
 * the calibration asked for, else from calibration.csv beside run A when
 * it is of both runs' machine, kernel and counter; else none. plan->cal
 * gets the calibration (settings.model points into it), and
 * plan->calibration_path the file used. 0, or 1 after saying why a file
 * asked for cannot be used.
 */
static int use_calibration(struct compare_plan *plan)
{
	const struct compare_request *req = &plan->req;
	const struct run_dir *a = plan->pair[0], *b = plan->pair[1];
	struct compare_settings *set = &plan->settings;
	struct calibration *cal = &plan->cal;
	char **path = &plan->calibration_path;
	const char *name = req->who;
	char err[PATH_MAX + 512];
	int given = req->calibration != NULL;

	*path = NULL;
	memset(cal, 0, sizeof(*cal));
	if (req->no_calibration)
		return 0;
	*path = given ? strdup(req->calibration) : calibration_default_path(a);
	if (!*path) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		return 1;
	}
	if (!given && access(*path, F_OK)) {
		free(*path);
		*path = NULL;
		return 0;
	}
	if (calibration_read(*path, cal, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s%s\n", name, err,
			given ? "" : " (the default calibration; --no-calibration "
			"leaves it)");
		return 1;
	}
	if (calibration_mismatch(cal, a, err, sizeof(err)) ||
	    calibration_mismatch(cal, b, err, sizeof(err))) {
		if (given && !req->force) {
			calibration_free(cal);
			fprintf(stderr, "smapbench %s: refusing calibration %s: "
				"it is of another machine or kernel (%s); --force "
				"uses it anyway\n", name, *path, err);
			return 1;
		}
		if (!given) {
			calibration_free(cal);
			if (plan->voice && plan->voice->calibration_left)
				plan->voice->calibration_left(*path, err);
			free(*path);
			*path = NULL;
			return 0;
		}
	}
	set->model = &cal->model;
	set->boot_source = COMPARE_BOOT_CALIBRATION;
	set->boot_estimate_sd = cal->bv.sd;
	set->boot_df = cal->bv.common_df;
	set->boot_common_sd = cal->bv.common_sd;
	set->calibration = *path;
	return 0;
}

/*
 * Load the runs after the first of a side into plan->runs, each checked against the side's first; 0, or 1 after saying why.
 */
static int load_more_runs(struct compare_plan *plan,
			  const char *const *paths, size_t n,
			  const struct run_dir *first,
			  const struct run_dir **side)
{
	side[0] = first;
	for (size_t k = 1; k < n; k++) {
		struct run_dir *run = &plan->runs[plan->loaded];

		if (run_input_load(plan->who, paths[k], NULL, run))
			return 1;
		side[k] = run;
		plan->loaded++;
		if (compare_check_contexts(plan->who, first, run,
					   plan->req.force, plan->voice))
			return 1;
	}
	return 0;
}

/*
 * The smap_state of the n runs of side ("A" or "B") into *state: 0, or 1
 * after saying that they mix states, whose deltas would mean nothing.
 */
static int side_state(const char *who, const char *side,
		      const struct run_dir *const *runs, size_t n,
		      const char **state)
{
	const char *states[COMPARE_MAX_RUNS_A_SIDE] = { NULL };

	for (size_t k = 0; k < n; k++)
		states[k] = rundir_context_or(runs[k], "smap_state", "");
	*state = compare_side_state(states, n);
	if (*state)
		return 0;
	fprintf(stderr, "smapbench %s: refusing: side %s mixes SMAP states:\n",
		who, side);
	for (size_t k = 0; k < n; k++)
		fprintf(stderr, "  %s (%s)\n", runs[k]->path,
			*states[k] ? states[k] : "state unknown");
	fprintf(stderr, "The runs of a side are boots of one SMAP state; give "
		"the others as the other side.\n");
	return 1;
}

const char *same_run_warning(const struct run_dir *a, const struct run_dir *b)
{
	char *ra = realpath(a->path, NULL), *rb = realpath(b->path, NULL);
	int same = ra && rb && !strcmp(ra, rb);
	const char *date_a = rundir_context(a, "date");
	const char *date_b = rundir_context(b, "date");

	free(ra);
	free(rb);
	if (same)
		return "A and B are the same run: every difference is 0 by "
		       "construction, and says nothing";
	if (date_a && date_b && *date_a && !strcmp(date_a, date_b) &&
	    !strcmp(rundir_context_or(a, "host", ""),
		    rundir_context_or(b, "host", "")) && a->count == b->count) {
		for (size_t i = 0; i < a->count; i++)
			if (a->bench[i].median != b->bench[i].median ||
			    strcmp(a->bench[i].name, b->bench[i].name))
				return NULL;
		return "A and B have the same host, start time and results: "
		       "copies of one run, so every difference is 0 by "
		       "construction";
	}
	return NULL;
}
void compare_sides_pairing(struct compare_sides *sides)
{
	sides->pairing = compare_pairing_of(sides->state_a, sides->state_b);
	sides->order = compare_pairing_name(sides->pairing);
	compare_pairing_sentence(sides->sentence, sizeof(sides->sentence),
				 sides->state_a, sides->state_b);
}

/*
 * A and B, the first run a side, loaded into plan->runs[0] and [1], and
 * told to the voice; the other runs of each side loaded and checked against the
 * side's first, each side of one SMAP state. 0, or 1 after saying why.
 */
static int load_sides(struct compare_plan *plan)
{
	const struct compare_request *req = &plan->req;
	struct run_dir *a = &plan->runs[0], *b = &plan->runs[1];
	const char *name = plan->who;
	char err[2 * PATH_MAX + 512];
	int rc;

	progress_line(plan->tty, "reading %s and %s", req->runs_a[0],
			   req->runs_b[0]);
	rc = run_input_load_two(name, req->runs_a[0], req->runs_b[0], a, b,
				err, sizeof(err));
	progress_line(plan->tty, "%s", "");
	if (rc) {
		fputs(err, stderr);
		return 1;
	}
	plan->loaded = 2;
	plan->pair[0] = a;
	plan->pair[1] = b;
	plan->same = same_run_warning(a, b);
	if (plan->voice && plan->voice->pair)
		plan->voice->pair(plan);
	return compare_check_contexts(name, a, b, req->force, plan->voice) ||
	       load_more_runs(plan, req->runs_a, req->na, a, plan->side_a) ||
	       load_more_runs(plan, req->runs_b, req->nb, b, plan->side_b) ||
	       side_state(name, "A", plan->side_a, req->na, &plan->sides.state_a) ||
	       side_state(name, "B", plan->side_b, req->nb, &plan->sides.state_b);
}

int compare_plan_build(const struct compare_request *req,
		       const struct compare_plan_voice *voice,
		       struct compare_plan *plan)
{
	const char *name = req->who;
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->req = *req;
	plan->voice = voice;
	plan->who = name;
	plan->tty = isatty(STDERR_FILENO);
	plan->settings = req->settings;
	if (req->out && (rc = check_out(name, req->out, 1)))
		return rc;
	if (load_sides(plan))
		return 1;
	plan->sides.a = plan->side_a;
	plan->sides.b = plan->side_b;
	plan->sides.na = req->na;
	plan->sides.nb = req->nb;
	compare_sides_pairing(&plan->sides);
	if (plan->voice && plan->voice->pairing)
		plan->voice->pairing(plan);
	plan->smap = smap_run(plan->pair[0], plan->pair[1]);
	if (use_calibration(plan))
		return 1;
	plan->dir = req->out ? strdup(req->out) :
		    default_dir(plan->pair[0], plan->pair[1]);
	if (!plan->dir) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		return 1;
	}
	if (!req->out && (rc = check_out(name, plan->dir, 0)))
		return rc;
	compare_design(plan->side_a, req->na, plan->side_b, req->nb,
		       &plan->settings);
	return 0;
}

void compare_plan_free(struct compare_plan *plan)
{
	free(plan->dir);
	free(plan->calibration_path);
	calibration_free(&plan->cal);
	for (size_t k = 0; k < plan->loaded; k++)
		rundir_free(&plan->runs[k]);
	memset(plan, 0, sizeof(*plan));
}
