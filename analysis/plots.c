// SPDX-License-Identifier: GPL-2.0
/*
 * plots.c - the table of plots and the renderer: for each plot, its
 * select function writes the .dat files, then gnuplot draws its script.
 * Everything is built in a temporary directory next to plots/ and
 * swapped in when complete; see plots.h.
 */
#include "analysis/plots.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/gnuplot.h"
#include "analysis/headline.h"
#include "analysis/plot_select.h"
#include "analysis/run_input.h"
#include "rundata/atomic_dir.h"

const struct plot plots[] = {
	{ "delta-kmod",
	  "kmod suite: difference between the runs in percent of A, coloured by "
	  "verdict; grey band: the ±margin relevance threshold",
	  "delta-kmod.gp", plot_select_delta, "kmod" },
	{ "delta-syscall",
	  "Syscall suite: difference between the runs in percent of A, coloured by "
	  "verdict; grey band: the ±margin relevance threshold",
	  "delta-syscall.gp", plot_select_delta, "syscall" },
	{ "delta-bpf",
	  "bpf suite: difference of the user - kernel overhead in percent of A, "
	  "coloured by verdict; grey band: the ±margin relevance threshold",
	  "delta-bpf.gp", plot_select_delta, "bpf" },
	{ "ops", "Cost per operation with 95% CI error bars",
	  "ops.gp", plot_select_ops, NULL },
	{ "copy", "copy_to_user / copy_from_user against copy size",
	  "copy.gp", plot_select_size_sweep, "copy_to_user copy_from_user" },
	{ "batch", "Cost per access: one pair per access (kapi) against one per K",
	  "batch.gp", plot_select_batch, NULL },
	{ "sigframe", "Signal frame: a pair per field against one pair per frame",
	  "sigframe.gp", plot_select_sigframe, NULL },
	{ "dist", "Sample distributions of the headline benchmarks",
	  "dist.gp", plot_select_dist, NULL },
	{ "syscall",
	  "Syscall suite, nanoseconds per call, beside baselines that open no STAC/CLAC window",
	  "syscall.gp", plot_select_syscall, NULL },
	{ "bpf",
	  "bpf suite: user against kernel reads in ring 0; their difference is an upper bound of the STAC/CLAC cost",
	  "bpf.gp", plot_select_bpf, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

/* ------------------------------------------------------------ context */

static const char *ctx(const struct run_dir *run, const char *key)
{
	return rundir_context_or(run, key, "?");
}

/*
 * The counters the run's results came from, "+"-joined in order of first
 * use (kmod-tsc+rdtscp+bpf-ktime): the context's counter key names only
 * the user-space one.
 */
static void counters_of(char *buf, size_t len, const struct run_dir *run)
{
	buf[0] = '\0';
	for (size_t i = 0; i < run->count; i++) {
		const char *c = run->bench[i].counter;
		size_t clen = strlen(c);
		const char *at = buf;
		int seen = 0;

		if (!*c)
			continue;
		while ((at = strstr(at, c))) {
			if ((at == buf || at[-1] == '+') &&
			    (at[clen] == '\0' || at[clen] == '+')) {
				seen = 1;
				break;
			}
			at += clen;
		}
		if (!seen && strlen(buf) + clen + 2 < len)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 *buf ? "+" : "", c);
	}
	if (!*buf)
		snprintf(buf, len, "%s", ctx(run, "counter"));
}

/*
 * The second line of every title: "CPU · kernel · counters · virt"; of
 * two runs, "x / y" where they differ.
 */
static void context_line(char *buf, size_t len,
			 const struct run_dir *const *runs, size_t nruns)
{
	static const char *const keys[] = {
		"cpu_model", "kernel_release", "counter", "virt",
	};
	char counters[PLOT_MAX_RUNS][128];
	size_t used = 0;

	for (size_t r = 0; r < nruns; r++)
		counters_of(counters[r], sizeof(counters[r]), runs[r]);
	buf[0] = '\0';
	for (size_t i = 0; i < 4 && used < len; i++) {
		const char *x = i == 2 ? counters[0] : ctx(runs[0], keys[i]);
		const char *y = nruns < 2 ? x : i == 2 ? counters[1]
						       : ctx(runs[1], keys[i]);

		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s",
					 i ? " · " : "", x,
					 strcmp(x, y) ? " / " : "",
					 strcmp(x, y) ? y : "");
	}
}

/* The variables every script gets (plot_job.h). */
static void common_settings(char *buf, size_t len,
			    const struct run_dir *const *runs, size_t nruns)
{
	char context[512], titles[256] = "";
	const char *watermark = "";

	for (size_t r = 0; r < nruns; r++)
		if (!strcmp(rundir_context_or(runs[r], "virt", ""), "tcg"))
			watermark = "functional only (TCG)";
	context_line(context, sizeof(context), runs, nruns);
	gnuplot_set_string(buf, len, "context", context);
	gnuplot_set_string(buf, len, "watermark", watermark);
	for (size_t r = 0; r < nruns; r++)
		plot_word_add(titles, sizeof(titles), run_title(runs, nruns, r));
	gnuplot_set_number(buf, len, "nruns", (double)nruns);
	gnuplot_set_string(buf, len, "runs", titles);
	gnuplot_set_string(buf, len, "runlabel", runs[0]->label);
}

/* ------------------------------------------------------------ driver */

static int render(const char *who, const struct run_dir *const *runs,
		  size_t nruns, const struct compare_result *res,
		  const struct compare_settings *set, const char *dir)
{
	struct gnuplot gp = { 0 };
	struct atomic_dir out;
	char final[PATH_MAX + 8], err[PATH_MAX + 256], common[2048] = "";
	size_t drawn = 0;
	int rc = 1;

	if (nruns < 1 || nruns > PLOT_MAX_RUNS || gnuplot_find(&gp, who)) {
		gnuplot_free(&gp);
		return 1;
	}
	common_settings(common, sizeof(common), runs, nruns);

	/* Built beside DIR/plots, swapped in only when every plot rendered. */
	snprintf(final, sizeof(final), "%s/plots", dir);
	if (atomic_dir_begin(&out, final, &atomic_dir_plots, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: no plots written: %s\n", who, err);
		goto out;
	}
	for (const struct plot *p = plots; p->name; p++) {
		struct plot_job job = { .runs = runs, .nruns = nruns,
					.dir = out.tmp, .name = p->name,
					.arg = p->arg, .who = who,
					.compare = res, .compare_settings = set };
		int selected;

		snprintf(job.settings, sizeof(job.settings), "%s", common);
		selected = p->select(&job);
		if (selected < 0 ||
		    (selected == PLOT_DRAW &&
		     gnuplot_draw(&gp, who, p->script, out.tmp, p->name,
				  job.settings))) {
			atomic_dir_abort(&out);
			goto out;
		}
		drawn += selected == PLOT_DRAW;
	}
	if (!drawn) {
		atomic_dir_abort(&out);
		rc = PLOTS_NONE;
	} else if (atomic_dir_commit(&out, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", who, err);
	} else {
		rc = 0;
	}
out:
	gnuplot_free(&gp);
	return rc;
}

int plots_render(const char *who, const struct run_dir *const *runs,
		 size_t nruns, const char *dir)
{
	return render(who, runs, nruns, NULL, NULL, dir);
}

int plots_render_compare(const char *who, const struct run_dir *const *runs,
			 const struct compare_result *res,
			 const struct compare_settings *set, const char *dir)
{
	return render(who, runs, 2, res, set, dir);
}

/* Whether a run's rows are its command's alone (run --suite none --command). */
static int command_only(const struct run_dir *run)
{
	for (size_t i = 0; i < run->count; i++)
		if (!headline_run_row(run->bench[i].suite))
			return 0;
	return run->count > 0;
}

int plots_render_run(const char *who, const char *path)
{
	struct run_dir run;
	const struct run_dir *runs[1] = { &run };
	int rc;

	atomic_dir_cleanup_on_signals();
	if (run_input_load(who, path, "plots need a run directory with results.csv",
			   &run))
		return 1;
	rc = plots_render(who, runs, 1, run.path);
	if (rc == PLOTS_NONE && command_only(&run)) {
		/* a run of --command alone: nothing is missing */
		printf("smapbench %s: %s holds its command's row alone, which no plot draws (results.csv, report.md)\n",
		       who, run.path);
		rc = 0;
	} else if (rc == PLOTS_NONE)
		fprintf(stderr, "smapbench %s: nothing to plot in %s: no kmod, "
			"syscall or bpf results\n", who, run.path);
	else if (!rc)
		printf("plots: %s/plots/\n", run.path);
	rundir_free(&run);
	return rc ? 1 : 0;
}
