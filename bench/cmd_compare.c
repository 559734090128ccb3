// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_compare.c - `smapbench compare RUN_A RUN_B`: per benchmark, is B
 * faster, slower or the same as A, by how much, and how sure are we.
 *
 * Writes DIR/compare.csv (docs/schema.md) and DIR/plots/, DIR being
 * built as a temporary directory and renamed when complete, and prints
 * the table. The usual order is A = the SMAP-off boot, B = the SMAP
 * boot: then every delta is what SMAP costs.
 */
#include "analysis.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_dir.h"
#include "commands.h"
#include "csv.h"
#include "parallel.h"
#include "stats.h"

static const char *pvalue(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 1e-4)
		snprintf(buf, len, "<1e-4");
	else
		snprintf(buf, len, "%.4f", p);
	return buf;
}

/* "Verdicts for B: kmod 30 slower, 4 faster, 37 same; syscall ..." */
static void print_tally(FILE *f, const struct compare_result *res,
			int markdown)
{
	const char *suites[8];
	size_t count[8][4] = { { 0 } }, nsuites = 0;
	static const enum compare_verdict order[] = {
		COMPARE_SLOWER, COMPARE_FASTER, COMPARE_SAME, COMPARE_UNKNOWN,
	};

	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		size_t s;

		for (s = 0; s < nsuites && strcmp(suites[s], r->a->suite); s++)
			;
		if (s == nsuites) {
			if (nsuites == 8)
				continue;
			suites[nsuites++] = r->a->suite;
		}
		count[s][r->verdict]++;
	}
	fprintf(f, "%sVerdicts for B:", markdown ? "\n" : "");
	for (size_t s = 0; s < nsuites; s++) {
		int first = 1;

		fprintf(f, "%s %s", s ? ";" : "", *suites[s] ? suites[s] : "(no suite)");
		for (size_t v = 0; v < 4; v++)
			if (count[s][order[v]]) {
				fprintf(f, "%s %zu %s", first ? "" : ",",
					count[s][order[v]],
					compare_verdict_name(order[v]));
				first = 0;
			}
	}
	fprintf(f, ".\n");
}

void compare_print(FILE *f, const struct run_dir *a, const struct run_dir *b,
		   const struct compare_result *res, double alpha,
		   int markdown)
{
	struct atable t;
	size_t from_reps = 0, untested = 0;

	(void)a;
	(void)b;
	atable_init(&t, 10, "lrrlrrrrrl");
	atable_add(&t, (const char *const[]){ "benchmark", "A", "B", "unit",
		   "B-A", "B-A ns", "B-A %", markdown ? "CI of B-A" : "CI of B-A",
		   "p (U test)", "verdict" });
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];
		char ma[32], mb[32], d[32], dns[32], rel[32], ci[80], p[32];

		if (!strcmp(r->method, "repetitions"))
			from_reps++;
		if (r->verdict == COMPARE_UNKNOWN)
			untested++;
		fmt_pct(rel, sizeof(rel), r->relative);
		atable_add(&t, (const char *const[]){ r->a->name,
			   fmt_num(ma, sizeof(ma), r->median_a),
			   fmt_num(mb, sizeof(mb), r->median_b), r->unit,
			   fmt_num(d, sizeof(d), r->delta),
			   fmt_num(dns, sizeof(dns), r->delta_ns), rel,
			   fmt_ci(ci, sizeof(ci), r->ci_low, r->ci_high),
			   pvalue(p, sizeof(p), r->mw.p),
			   compare_verdict_name(r->verdict) });
	}
	atable_print(f, &t, markdown);
	atable_free(&t);
	fprintf(f, "%sB-A is B's median minus A's; CI: %.0f%% bootstrap interval "
		"of that difference; verdict at alpha %g (\"same\" when p >= alpha "
		"or the CI holds 0).\n", markdown ? "\n" : "",
		100 * (1 - alpha), alpha);
	if (from_reps)
		fprintf(f, "%s%zu benchmarks have no raw samples: CI and U test "
			"use one value per repetition.\n", markdown ? "\n" : "",
			from_reps);
	if (untested)
		fprintf(f, "%s%zu benchmarks have fewer than %d values on a side: "
			"CI and U test unavailable, verdict \"unknown\".\n",
			markdown ? "\n" : "", untested, COMPARE_MIN_VALUES);
	print_tally(f, res, markdown);
	for (size_t i = 0, differ = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];

		if (!strcmp(r->a->counter, r->b->counter))
			continue;
		if (!differ++)
			fprintf(f, "%sTimed with different counters (first: %s, "
				"A %s, B %s): compared in %s, a difference of "
				"counters is part of each delta.\n",
				markdown ? "\n" : "", r->a->name, r->a->counter,
				r->b->counter, r->unit);
	}
	if (res->only_a_count || res->only_b_count)
		fprintf(f, "%sNot compared: %zu benchmarks only in A, %zu only in B "
			"(or in units that do not convert).\n", markdown ? "\n" : "",
			res->only_a_count, res->only_b_count);
}

static int write_compare_csv(const char *dir, const struct compare_result *res)
{
	static const char *const header[] = {
		"name", "suite", "op", "variant", "size", "batch", "unit",
		"n_a", "n_b", "median_a", "median_b", "delta", "delta_ns",
		"relative", "ci_low", "ci_high", "u", "p_value", "exact",
		"verdict", "method",
	};
	char path[PATH_MAX + 64];
	struct csv_writer w;
	FILE *f;
	int err;

	if ((size_t)snprintf(path, sizeof(path), "%s/compare.csv", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	csv_writer_init(&w, f);
	csv_row(&w, header, sizeof(header) / sizeof(*header));
	for (size_t i = 0; i < res->count; i++) {
		const struct compare_row *r = &res->rows[i];

		csv_field(&w, r->a->name);
		csv_field(&w, r->a->suite);
		csv_field(&w, r->a->op);
		csv_field(&w, r->a->variant);
		csv_field_uint(&w, r->a->size);
		csv_field_uint(&w, r->a->batch);
		csv_field(&w, r->unit);
		csv_field_uint(&w, r->na);
		csv_field_uint(&w, r->nb);
		csv_field_double(&w, r->median_a);
		csv_field_double(&w, r->median_b);
		csv_field_double(&w, r->delta);
		csv_field_double(&w, r->delta_ns);
		csv_field_double(&w, r->relative);
		csv_field_double(&w, r->ci_low);
		csv_field_double(&w, r->ci_high);
		csv_field_double(&w, r->mw.u);
		csv_field_double(&w, r->mw.p);
		if (isnan(r->mw.p))
			csv_field(&w, "");
		else
			csv_field_int(&w, r->mw.exact);
		csv_field(&w, compare_verdict_name(r->verdict));
		csv_field(&w, r->method);
		csv_end_row(&w);
	}
	err = csv_writer_error(&w);
	if (fclose(f) || err)
		return -1;
	return 0;
}

/* Print the context differences; returns 1 when they block. */
static int check_contexts(const char *name, const struct run_dir *a,
			  const struct run_dir *b, int force)
{
	const struct run_dir *runs[2] = { a, b };
	struct compare_field_diff *d;
	char unchecked[512] = "";
	size_t n;
	int blocking = compare_contexts(a, b, &d, &n);

	if (blocking < 0) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		return 1;
	}
	/* What could not be checked is said, never passed over. */
	for (int r = 0; r < 2; r++)
		if (!runs[r]->from_json && !runs[r]->has_context_file)
			fprintf(stderr, "smapbench %s: warning: %s (%s) has no "
				"context.csv: whether both runs come from one "
				"machine, kernel and counter was not checked\n",
				name, r ? "B" : "A", runs[r]->path);
	for (size_t i = 0; compare_blocking_fields[i]; i++) {
		const char *key = compare_blocking_fields[i];
		int in_a = rundir_context(a, key) != NULL;
		int in_b = rundir_context(b, key) != NULL;

		if ((in_a && in_b) || (!a->context_count && !a->from_json) ||
		    (!b->context_count && !b->from_json))
			continue;
		snprintf(unchecked + strlen(unchecked),
			 sizeof(unchecked) - strlen(unchecked), "%s%s (%s)",
			 *unchecked ? ", " : "", key,
			 !in_a && !in_b ? "neither run" : in_a ? "not B" : "not A");
	}
	if (*unchecked)
		fprintf(stderr, "smapbench %s: warning: not checked, as not "
			"recorded by both runs: %s\n", name, unchecked);
	if (blocking) {
		fprintf(stderr, "smapbench %s: %s the two runs differ in "
			"what makes numbers comparable:\n", name,
			force ? "warning (--force):" : "refusing:");
		for (size_t i = 0; i < n; i++)
			if (d[i].kind == COMPARE_FIELD_BLOCKING)
				fprintf(stderr, "  %-16s A: %s\n  %-16s B: %s\n",
					d[i].key, d[i].a, "", d[i].b);
		if (!force)
			fprintf(stderr, "A comparison across machines, CPUs, "
				"microcode, kernels, counters or virtualisation "
				"measures those differences too; rerun with "
				"--force to compare anyway.\n");
	}
	for (int kind = COMPARE_FIELD_EXPECTED; kind <= COMPARE_FIELD_INFO; kind++) {
		size_t shown = 0;

		for (size_t i = 0; i < n; i++) {
			if ((int)d[i].kind != kind)
				continue;
			if (!shown++)
				printf(kind == COMPARE_FIELD_EXPECTED
				       ? "context differs as expected between boots:"
				       : "context also differs (check it does not matter):");
			printf(" %s", d[i].key);
		}
		if (shown)
			printf("\n");
	}
	free(d);
	return blocking && !force;
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

char *compare_default_dir(const struct run_dir *a, const struct run_dir *b)
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

/* A stage of the work, on a terminal only: "\r" overwrites it. */
static void stage(int tty, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void stage(int tty, const char *fmt, ...)
{
	va_list ap;

	if (!tty)
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

static void show_compared(void *arg, size_t done, size_t total)
{
	stage(*(int *)arg, "comparing: %zu/%zu benchmarks", done, total);
}

static void compare_usage(FILE *f, const char *name)
{
	fprintf(f,
		"usage: smapbench %s RUN_A RUN_B [--out DIR] [--alpha A] [--force] [--no-plots]\n"
		"\n"
		"Pairs the benchmarks of two runs by name and reports, per pair, both\n"
		"medians, B-A in the unit and in ns, B-A in percent, a bootstrap CI of\n"
		"B-A, a Mann-Whitney U p-value and a verdict (faster/slower/same for B).\n"
		"RUN is a run directory or a Google Benchmark JSON file. Put the SMAP-off\n"
		"run first: deltas are then SMAP's cost.\n"
		"\n"
		"  --out DIR    output directory (default: compare-A-vs-B next to RUN_A);\n"
		"               an existing DIR is replaced only if smapbench compare\n"
		"               wrote it, anything else is refused (status 2)\n"
		"  --alpha A    significance level, 0.001 <= A < 0.5 (default 0.05)\n"
		"  --force      compare runs of different machines, CPUs, microcode,\n"
		"               kernels, counters or virtualisation anyway (it never\n"
		"               lets compare replace a directory it did not write)\n"
		"  --no-plots   write compare.csv%s only, no plots/\n",
		name, strcmp(name, "report") ? "" : " and report.md");
}

/* The two runs are read at once: big samples.csv take seconds each. */
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
	return EXIT_USAGE;
}

int compare_pipeline(int argc, char **argv, int with_report)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-plots", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = argv[0], *out = NULL, *same;
	double alpha = COMPARE_DEFAULT_ALPHA;
	int force = 0, plots = 1, opt, rc = 1, tty = isatty(STDERR_FILENO);
	int plotted = 0, have_tables = 0;
	struct run_dir a = { 0 }, b = { 0 };
	const struct run_dir *runs[2] = { &a, &b };
	struct compare_result res = { 0 };
	struct atomic_dir target;
	struct derived d;
	char err[PATH_MAX + 256], *dir = NULL;
	char *end;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:a:fnh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (!*optarg) {
				fprintf(stderr, "smapbench %s: --out: empty directory "
					"name\n", name);
				return EXIT_USAGE;
			}
			out = optarg;
			break;
		case 'a':
			errno = 0;
			alpha = strtod(optarg, &end);
			/* below 2 / resamples the interval is the extremes */
			if (errno || *end || end == optarg ||
			    !(alpha >= 2.0 / STATS_BOOTSTRAP_RESAMPLES && alpha < 0.5)) {
				fprintf(stderr, "smapbench %s: --alpha '%s' is not a "
					"number in [%g, 0.5)\n", name, optarg,
					2.0 / STATS_BOOTSTRAP_RESAMPLES);
				return EXIT_USAGE;
			}
			break;
		case 'f':
			force = 1;
			break;
		case 'n':
			plots = 0;
			break;
		case 'h':
			compare_usage(stdout, name);
			return 0;
		case ':':
			fprintf(stderr, "smapbench %s: option '%s' needs a value\n\n",
				name, argv[optind - 1]);
			compare_usage(stderr, name);
			return EXIT_USAGE;
		default:
			fprintf(stderr, "smapbench %s: unknown option '%s'\n\n",
				name, argv[optind - 1]);
			compare_usage(stderr, name);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "smapbench %s: needs two runs, got %d\n\n", name,
			argc - optind);
		compare_usage(stderr, name);
		return EXIT_USAGE;
	}
	if (out && (rc = check_out(name, out, 1)))
		return rc;
	rc = 1;
	atomic_dir_cleanup_on_signals();
	stage(tty, "reading %s and %s", argv[optind], argv[optind + 1]);
	{
		struct load_job load[2] = {
			{ argv[optind], &a, "" }, { argv[optind + 1], &b, "" },
		};
		int failed = parallel_for(&(struct parallel_jobs){
			.count = 2, .run = run_load_job, .arg = load }, 0);

		stage(tty, "%s", "");
		for (int r = 0; failed && r < 2; r++)
			if (*load[r].err)
				fprintf(stderr, "smapbench %s: %s\n", name, load[r].err);
		if (failed)
			goto out;
	}
	printf("A: %s (%s)\nB: %s (%s)\n", a.path,
	       rundir_context_or(&a, "smap_state", "state unknown"), b.path,
	       rundir_context_or(&b, "smap_state", "state unknown"));
	same = same_run_warning(&a, &b);
	if (same)
		fprintf(stderr, "smapbench %s: WARNING: %s.\n", name, same);
	for (int r = 0; r < 2; r++)
		if (runs[r]->orphan_samples)
			fprintf(stderr, "smapbench %s: note: %s's samples.csv has "
				"%zu samples of benchmarks its results.csv does "
				"not list: not used\n", name, r ? "B" : "A",
				runs[r]->orphan_samples);
	for (int r = 0; r < 2; r++)
		if (runs[r]->aggregates_only)
			fprintf(stderr, "smapbench %s: note: %s has %zu benchmarks "
				"with a median only (Google Benchmark's "
				"--benchmark_report_aggregates_only): no CI or test "
				"for them, verdict \"unknown\"\n", name,
				r ? "B" : "A", runs[r]->aggregates_only);
	if (check_contexts(name, &a, &b, force))
		goto out;
	dir = out ? strdup(out) : compare_default_dir(&a, &b);
	if (!dir) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		goto out;
	}
	if (!out && (rc = check_out(name, dir, 0)))
		goto out;
	rc = 1;
	if (compare_runs_with(&a, &b, alpha, COMPARE_DEFAULT_SEED, 0,
			      show_compared, &tty, &res)) {
		stage(tty, "%s", "");
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		goto out;
	}
	stage(tty, "%s", "");
	if (!res.count) {
		fprintf(stderr, "smapbench %s: no benchmark is in both runs (A "
			"has %zu, B has %zu): names must match exactly, in "
			"units that convert to each other\n", name, a.count,
			b.count);
		goto out;
	}

	/* Build everything beside DIR, then swap it in. */
	if (atomic_dir_begin(&target, dir, &atomic_dir_compare, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		goto out;
	}
	if (write_compare_csv(target.tmp, &res)) {
		fprintf(stderr, "smapbench %s: cannot write %s/compare.csv: %s\n",
			name, target.tmp, strerror(errno));
		atomic_dir_abort(&target);
		goto out;
	}

	compare_print(stdout, &a, &b, &res, alpha, 0);
	stage(tty, "within-boot tables of %s", smap_run(&a, &b)->label);
	have_tables = !derived_compute(smap_run(&a, &b), &d);
	stage(tty, "%s", "");
	if (have_tables)
		derived_print(stdout, smap_run(&a, &b), &d, 0);
	stage(tty, "%s", "");
	rc = 0;
	if (plots) {
		int p;

		stage(tty, "plots");
		p = plots_render(name, runs, 2, target.tmp);
		stage(tty, "%s", "");
		if (p == PLOTS_NONE) {
			printf("\nno plots: the runs have no kmod, syscall or bpf results\n");
		} else if (p) {
			fprintf(stderr, "smapbench %s: plots not rendered (see "
				"above); compare.csv is complete\n", name);
			rc = 1;
		} else {
			plotted = 1;
		}
	}
	if (with_report && report_write(target.tmp, runs, 2, &res,
					have_tables ? &d : NULL, alpha, err,
					sizeof(err))) {
		fprintf(stderr, "smapbench %s: cannot write report.md: %s\n", name,
			err);
		rc = 1;
	}
	if (atomic_dir_commit(&target, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		rc = 1;
		goto out;
	}
	printf("\nwritten: %s/compare.csv%s%s\n", dir, plotted ? ", plots/" : "",
	       with_report ? ", report.md" : "");
	if (same)
		fprintf(stderr, "smapbench %s: WARNING: %s.\n", name, same);
out:
	if (have_tables)
		derived_free(&d);
	compare_result_free(&res);
	free(dir);
	rundir_free(&a);
	rundir_free(&b);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	return compare_pipeline(argc, argv, 0);
}
