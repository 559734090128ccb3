// SPDX-License-Identifier: GPL-2.0
/* run_input.c - the runs a command names; see run_input.h. */
#include "analysis/run_input.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/parallel.h"

int run_input_load(const char *who, const char *path, const char *needs,
		   struct run_dir *run)
{
	char err[PATH_MAX + 256];

	if (rundir_load(path, run, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", who, err);
		return 1;
	}
	if (needs && run->from_json) {
		fprintf(stderr, "smapbench %s: %s: %s\n", who, path, needs);
		rundir_free(run);
		return 1;
	}
	return 0;
}

int run_input_check_complete(const char *who, const char *side,
			     const struct run_dir *run, int force)
{
	const char *status = rundir_incomplete(run);

	if (!status)
		return 0;
	fprintf(stderr, "smapbench %s: %s %s (%s) is not a complete run "
		"(context.csv: status %s): an interrupted run keeps the "
		"benchmarks that finished, with fewer repetitions than asked "
		"and some not at all, so its figures do not stand beside a "
		"complete run's%s\n", who,
		force ? "warning (--force):" : "refusing:", side, run->path,
		status, force ? "" : "; rerun it, or --force to compare anyway");
	return !force;
}

struct load_job {
	const char *path;
	struct run_dir *run;
	char err[PATH_MAX + 256];
};

static int run_load_job(void *arg, size_t i)
{
	struct load_job *job = &((struct load_job *)arg)[i];

	return rundir_load(job->path, job->run, job->err, sizeof(job->err));
}

int run_input_load_two(const char *who, const char *path_a,
		       const char *path_b, struct run_dir *a, struct run_dir *b,
		       char *messages, size_t len)
{
	struct load_job load[2] = { { path_a, a, "" }, { path_b, b, "" } };
	int failed;

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	messages[0] = '\0';
	failed = parallel_for(&(struct parallel_jobs){
		.count = 2, .run = run_load_job, .arg = load }, 0);
	if (!failed)
		return 0;
	for (int r = 0; r < 2; r++)
		if (*load[r].err)
			snprintf(messages + strlen(messages), len - strlen(messages),
				 "smapbench %s: %s\n", who, load[r].err);
	/* rundir_load leaves a failed run empty: freeing both is safe */
	rundir_free(a);
	rundir_free(b);
	return 1;
}
