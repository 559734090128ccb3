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
#include "run_dir.h"
#include "analysis.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "csv.h"

char *compare_default_dir(const struct run_dir *a, const struct run_dir *b)
{
	char *parent = strdup(a->path), *slash, *dir;
	size_t len;

	if (!parent)
		return NULL;
	len = strlen(parent);
	while (len > 1 && parent[len - 1] == '/')
		parent[--len] = '\0';
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
		if (isnan(r->relative))
			snprintf(rel, sizeof(rel), "-");
		else
			snprintf(rel, sizeof(rel), "%+.1f%%", 100 * r->relative);
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
	char path[PATH_MAX + 32];
	struct csv_writer w;
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/compare.csv", dir);
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
static int check_contexts(const struct run_dir *a, const struct run_dir *b,
			  int force)
{
	struct compare_field_diff *d;
	size_t n;
	int blocking = compare_contexts(a, b, &d, &n);

	if (blocking < 0) {
		fprintf(stderr, "smapbench compare: out of memory\n");
		return 1;
	}
	if (blocking) {
		fprintf(stderr, "smapbench compare: %s the two runs differ in "
			"what makes numbers comparable:\n",
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
		"  --out DIR    output directory (default: compare-A-vs-B next to RUN_A)\n"
		"  --alpha A    significance level, 0 < A < 0.5 (default 0.05)\n"
		"  --force      compare runs of different machines, CPUs, microcode,\n"
		"               kernels, counters or virtualisation anyway\n"
		"  --no-plots   write compare.csv only\n",
		name);
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
	const char *name = argv[0], *out = NULL;
	double alpha = COMPARE_DEFAULT_ALPHA;
	int force = 0, plots = 1, opt, rc = 1;
	struct run_dir a, b;
	const struct run_dir *runs[2] = { &a, &b };
	struct compare_result res;
	struct derived d;
	char err[512], *dir = NULL, tmp[PATH_MAX], old[PATH_MAX] = "";
	char *end;
	struct stat st;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:a:fnh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'a':
			errno = 0;
			alpha = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(alpha > 0 && alpha < 0.5)) {
				fprintf(stderr, "smapbench %s: --alpha '%s' is not a "
					"number in (0, 0.5)\n",
					name, optarg);
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
		default:
			fprintf(stderr, "smapbench %s: unknown or incomplete option '%s'\n\n",
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
	if (rundir_load(argv[optind], &a, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		return 1;
	}
	if (rundir_load(argv[optind + 1], &b, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", name, err);
		rundir_free(&a);
		return 1;
	}
	printf("A: %s (%s)\nB: %s (%s)\n", a.path,
	       rundir_context_or(&a, "smap_state", "state unknown"), b.path,
	       rundir_context_or(&b, "smap_state", "state unknown"));
	if (check_contexts(&a, &b, force))
		goto out_runs;
	if (compare_runs(&a, &b, alpha, COMPARE_DEFAULT_SEED, &res)) {
		fprintf(stderr, "smapbench %s: out of memory\n", name);
		goto out_runs;
	}
	if (!res.count) {
		fprintf(stderr, "smapbench %s: the runs have no benchmark name in common\n",
			name);
		goto out_res;
	}
	dir = out ? strdup(out) : compare_default_dir(&a, &b);
	if (!dir)
		goto out_res;

	/* Build everything in a sibling temp dir, then swap it in. */
	{
		char *parent = strdup(dir), *slash;

		if (!parent)
			goto out_res;
		slash = strrchr(parent, '/');
		if (slash && slash != parent)
			*slash = '\0';
		else if (slash)
			parent[1] = '\0';
		else
			strcpy(parent, ".");
		if (make_dirs(parent)) {
			fprintf(stderr, "smapbench %s: cannot create %s: %s\n",
				name, parent, strerror(errno));
			free(parent);
			goto out_res;
		}
		snprintf(tmp, sizeof(tmp), "%s/.tmp-compare-XXXXXX", parent);
		free(parent);
	}
	if (!mkdtemp(tmp)) {
		fprintf(stderr, "smapbench %s: cannot create a temporary "
			"directory next to %s: %s\n",
			name, dir, strerror(errno));
		goto out_res;
	}
	run_dir_publish_mode(tmp, 1);
	if (write_compare_csv(tmp, &res)) {
		fprintf(stderr, "smapbench %s: cannot write %s/compare.csv: %s\n",
			name, tmp, strerror(errno));
		goto out_tmp;
	}

	compare_print(stdout, &a, &b, &res, alpha, 0);
	if (!derived_compute(smap_run(&a, &b), &d)) {
		derived_print(stdout, smap_run(&a, &b), &d, 0);
		derived_free(&d);
	}
	rc = 0;
	if (plots && plots_render(runs, 2, tmp)) {
		fprintf(stderr, "smapbench %s: plots not rendered (see above); "
			"compare.csv is complete\n", name);
		rc = 1;
	}
	if (with_report && report_write(tmp, runs, 2, &res, alpha)) {
		fprintf(stderr, "smapbench %s: cannot write report.md\n", name);
		rc = 1;
	}
	if (!lstat(dir, &st)) {
		snprintf(old, sizeof(old), "%s.old-XXXXXX", dir);
		if (!mkdtemp(old) || rename(dir, old)) {
			fprintf(stderr, "smapbench %s: cannot move the old %s aside: %s\n",
				name, dir, strerror(errno));
			rc = 1;
			goto out_tmp;
		}
	}
	if (rename(tmp, dir)) {
		fprintf(stderr, "smapbench %s: cannot rename %s to %s: %s\n",
			name, tmp, dir, strerror(errno));
		if (old[0])
			rename(old, dir);
		rc = 1;
		goto out_tmp;
	}
	if (old[0])
		remove_tree(old);
	printf("\nwritten: %s/compare.csv%s%s\n", dir,
	       plots && !rc ? ", plots/" : "", with_report ? ", report.md" : "");
	goto out_res;
out_tmp:
	remove_tree(tmp);
out_res:
	compare_result_free(&res);
out_runs:
	free(dir);
	rundir_free(&a);
	rundir_free(&b);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	return compare_pipeline(argc, argv, 0);
}
