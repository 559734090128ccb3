// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_census.c - `smapbench census`: the instruction census
 * (docs/census.md). vm/census.sh boots each kernel in each SMAP state
 * with the census plugin and calls these:
 *
 *   measure   in the guest: every benchmark once, between markers
 *   collect   on the host: the plugin's outputs -> a run directory with
 *             census.csv, the plugin's raw output and the plot
 *   check     the oracle over a census.csv, as TAP lines
 *   table     the syscall rows as a Markdown table (for docs)
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/gnuplot.h"
#include "census/census.h"
#include "cli/commands.h"
#include "rundata/atomic_dir.h"
#include "rundata/rundir.h"
#include "suites/suite.h"
#include "system/version.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: smapbench census measure [--suite NAME] [--filter REGEX] [--quick]\n"
		"                                [--min-time SECONDS] [--samples N]\n"
		"       smapbench census collect [--out DIR] STATE=FILE...\n"
		"       smapbench census check CENSUS\n"
		"       smapbench census table CENSUS\n"
		"\n"
		"The instruction census: how many STAC, CLAC and POPF the kernel executes\n"
		"per operation of each benchmark, counted by the QEMU plugin of vm/census/.\n"
		"vm/census.sh runs all of it; docs/census.md explains the counts.\n"
		"\n"
		"measure   (in a guest under the plugin) run each benchmark once between\n"
		"          markers. --suite all|syscall|kmod|bpf (default all), --filter\n"
		"          keeps names matching a POSIX extended regex, --quick leaves out\n"
		"          the extended ones, --min-time guest seconds per syscall or bpf\n"
		"          benchmark (default 0.05), --samples the kmod RUN's (default 8)\n"
		"collect   read the plugin's output of each boot, STATE one of smap,\n"
		"          clearcpuid, cpu-off, and write a run directory under --out\n"
		"          (default data/) with census.csv, census-sites.csv (where each\n"
		"          STAC ran) and plots/; prints its path\n"
		"check     the oracle on CENSUS (a census.csv or the directory holding\n"
		"          it): TAP lines; exit status 1 if any is not ok\n"
		"table     STAC, CLAC and kernel instructions per call of the syscall\n"
		"          benchmarks on each kernel's SMAP boot, as Markdown\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "smapbench census: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see smapbench census --help)\n");
	return EXIT_USAGE;
}

/* ------------------------------------------------------------ measure */

static int cmd_measure(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "suite", required_argument, NULL, 's' },
		{ "filter", required_argument, NULL, 'f' },
		{ "quick", no_argument, NULL, 'q' },
		{ "min-time", required_argument, NULL, 't' },
		{ "samples", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct census_measure_options o = {
		.suite = "all", .min_time = 0.05, .samples = 8,
	};
	int c, known;
	char *end;

	optind = 1;
	opterr = 0;	/* our message names the option */
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			known = 0;
			for (size_t i = 0; suite_names[i]; i++)
				known |= !strcmp(suite_names[i], optarg);
			if (!known)
				return bad_usage("--suite: no suite '%s' (all, syscall, kmod, bpf)",
						 optarg);
			o.suite = optarg;
			break;
		case 'f':
			o.filter = optarg;
			break;
		case 'q':
			o.quick = 1;
			break;
		case 't':
			errno = 0;
			o.min_time = strtod(optarg, &end);
			if (errno || *end || !(o.min_time > 0 && o.min_time <= 60))
				return bad_usage("--min-time: '%s' is not a number of seconds in (0, 60]",
						 optarg);
			break;
		case 'n': {
			unsigned long n;

			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || *end || n < 1 || n > 4096)
				return bad_usage("--samples: '%s' is not a number from 1 to 4096",
						 optarg);
			o.samples = (unsigned)n;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			return bad_usage("%s: unknown option of census measure",
					 argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad_usage("measure takes no argument '%s'", argv[optind]);
	return census_measure(&o);
}

/* ------------------------------------------------------------ collect */

/*
 * plots/census-pairs.{png,svg} from plots/census-pairs.dat (a CSV with a
 * header line: gnuplot reads it with census.gp's separator).
 */
static int render_plot(const char *dir, size_t nkernels, const char *context)
{
	struct gnuplot gp;
	char settings[4096] = "", plots[PATH_MAX + 64];
	int rc;

	if (gnuplot_find(&gp, "census")) {
		fprintf(stderr, "smapbench census: no plot written\n");
		return -1;
	}
	gnuplot_set_string(settings, sizeof(settings), "title",
			   "STAC/CLAC pairs per call of each syscall benchmark (SMAP boot)");
	gnuplot_set_string(settings, sizeof(settings), "context", context);
	gnuplot_set_number(settings, sizeof(settings), "nseries",
			   (double)nkernels);
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	rc = gnuplot_draw(&gp, "census", "census.gp", plots, "census-pairs",
			  settings);
	gnuplot_free(&gp);
	return rc;
}

/* Copy a file into the census directory being built. */
static int copy_into(const struct atomic_dir *d, const char *from,
		     const char *name, char *err, size_t errlen)
{
	FILE *in = fopen(from, "r"), *out;
	char buf[65536];
	size_t n;

	if (!in) {
		snprintf(err, errlen, "cannot read %s: %s", from, strerror(errno));
		return -1;
	}
	out = atomic_dir_open(d, name, err, errlen);
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return atomic_dir_close(out, name, err, errlen);
}

static int write_context(const struct atomic_dir *d, const struct census *c,
			 char *err, size_t errlen)
{
	FILE *f = atomic_dir_open(d, "context.csv", err, errlen);
	char host[256] = "", date[64];
	time_t now = time(NULL);

	if (!f)
		return -1;
	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fprintf(f, "key,value\ndate,%s\nhost,%s\nkind,census\nsmapbench_version,%s\ngit_revision,%s\nvirt,tcg\n",
		date, host, SMAPBENCH_VERSION, SMAPBENCH_GIT_REVISION);
	for (size_t i = 0; i < c->nboots; i++) {
		fprintf(f, "boot_%zu,\"", i + 1);
		for (const char *p = c->boots[i]; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fprintf(f, "\"\n");
	}
	return atomic_dir_close(f, "context.csv", err, errlen);
}

/* A file written by one of census.h's writers (0 or -1). */
static int write_with(const struct atomic_dir *d, const char *name,
		      int (*writer)(const struct census *, FILE *),
		      const struct census *c, char *err, size_t errlen)
{
	FILE *f = atomic_dir_open(d, name, err, errlen);

	if (!f)
		return -1;
	if (writer(c, f)) {
		fclose(f);
		snprintf(err, errlen, "writing %s failed", name);
		return -1;
	}
	return atomic_dir_close(f, name, err, errlen);
}

/*
 * The census directory: its own kind of output, never replaced (a new
 * one takes a new name), marked "smapbench census".
 */
static const struct atomic_dir_kind census_dir = { .name = "census" };

static int write_census(const struct census *census, char **files,
			int nfiles, const char *out, char *err, size_t errlen)
{
	struct atomic_dir dir;
	static const char *const subdirs[] = { "raw", "plots" };
	char name[512], host[256] = "", path[PATH_MAX + 64];
	size_t kernels = 0;

	if (atomic_dir_begin_in(&dir, out, &census_dir, err, errlen))
		return -1;
	if (write_with(&dir, "census.csv", census_write_csv, census, err, errlen) ||
	    write_with(&dir, "census-sites.csv", census_write_sites_csv, census,
		       err, errlen) ||
	    write_context(&dir, census, err, errlen))
		goto fail;
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir.tmp, subdirs[i]);
		if (mkdir(path, 0777)) {
			snprintf(err, errlen, "cannot create %.900s: %s", path,
				 strerror(errno));
			goto fail;
		}
	}
	/* Each file loaded one boot, in order: "kernel state ...". */
	for (int i = 0; i < nfiles; i++) {
		char raw[600], kernel[256] = "", state[32] = "";

		sscanf(census->boots[i], "%255s %31s", kernel, state);
		snprintf(raw, sizeof(raw), "raw/%s-%s.tsv", kernel, state);
		if (copy_into(&dir, strchr(files[i], '=') + 1, raw, err, errlen))
			goto fail;
	}
	if (write_with(&dir, "plots/census-pairs.dat", census_write_plot_data,
		       census, err, errlen)) {
		fprintf(stderr, "smapbench census: no syscall row of a SMAP boot: no plot\n");
	} else {
		for (size_t i = 0; i < census->nboots; i++)
			kernels += strstr(census->boots[i], " smap rows=") != NULL;
		render_plot(dir.tmp, kernels,
			    "counted by the census plugin in QEMU TCG, -cpu max (docs/census.md)");
	}
	gethostname(host, sizeof(host) - 1);
	run_dir_name(name, sizeof(name), host, "census");
	if (atomic_dir_commit_new(&dir, out, name, err, errlen))
		return -1;
	printf("census directory: %s\n", dir.target);
	return 0;
fail:
	atomic_dir_abort(&dir);
	return -1;
}

static int cmd_collect(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct census census = { 0 };
	const char *out = "data";
	char err[1024];
	int c, status;

	optind = 1;
	opterr = 0;	/* our message names the option */
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return bad_usage("%s: unknown option of census collect",
					 argv[optind - 1]);
		}
	}
	if (optind == argc)
		return bad_usage("%s", "collect needs STATE=FILE arguments, one per boot");
	for (int i = optind; i < argc; i++) {
		char state[32];
		const char *eq = strchr(argv[i], '=');
		int known = 0;

		if (!eq || (size_t)(eq - argv[i]) >= sizeof(state))
			return bad_usage("'%s' is not STATE=FILE", argv[i]);
		snprintf(state, sizeof(state), "%.*s", (int)(eq - argv[i]), argv[i]);
		for (size_t k = 0; census_states[k]; k++)
			known |= !strcmp(census_states[k], state);
		if (!known)
			return bad_usage("'%s': the state must be smap, clearcpuid or cpu-off",
					 argv[i]);
		if (census_load_plugin_output(&census, state, eq + 1, err, sizeof(err))) {
			fprintf(stderr, "smapbench census: %s\n", err);
			census_free(&census);
			return 1;
		}
	}
	/* An interruption removes the directory being built, and gnuplot. */
	atomic_dir_cleanup_on_signals();
	status = write_census(&census, argv + optind, argc - optind, out, err,
			      sizeof(err)) ? 1 : 0;
	if (status)
		fprintf(stderr, "smapbench census: %s\n", err);
	census_free(&census);
	return status;
}

/* ------------------------------------------------------------ check, table */

static int load_census(const char *path, struct census *c)
{
	char file[PATH_MAX], err[1024];
	struct stat st;

	if (stat(path, &st)) {
		fprintf(stderr, "smapbench census: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		snprintf(file, sizeof(file), "%s/census.csv", path);
	else
		snprintf(file, sizeof(file), "%s", path);
	if (census_load_csv(c, file, err, sizeof(err))) {
		fprintf(stderr, "smapbench census: %s\n", err);
		return -1;
	}
	if (!c->count) {
		fprintf(stderr, "smapbench census: %s has no rows\n", file);
		return -1;
	}
	return 0;
}

static int cmd_check_or_table(int argc, char **argv, int table)
{
	struct census c = { 0 };
	int failures;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 2)
		return bad_usage("%s needs one census.csv or census directory",
				 argv[0]);
	if (load_census(argv[1], &c))
		return 1;
	if (table) {
		census_table(&c, stdout);
		census_free(&c);
		return 0;
	}
	failures = census_check(&c, stdout);
	census_free(&c);
	return failures ? 1 : 0;
}

int cmd_census(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "measure"))
		return cmd_measure(argc - 1, argv + 1);
	if (!strcmp(argv[1], "collect"))
		return cmd_collect(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check_or_table(argc - 1, argv + 1, 0);
	if (!strcmp(argv[1], "table"))
		return cmd_check_or_table(argc - 1, argv + 1, 1);
	return bad_usage("no census command '%s' (measure, collect, check, table)",
			 argv[1]);
}
