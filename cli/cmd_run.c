// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - `smapbench run`: pin, pick a counter, record the context,
 * run the selected benchmarks and write the run directory atomically.
 *
 * SIGINT, SIGTERM and SIGHUP stop the run at the next sample boundary;
 * the temporary directory is then removed and the exit status is 130,
 * 143 or 129. The last line on stdout is "run directory: PATH"; --run-dir-file
 * gives scripts the same path without parsing messages.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "measure/calib.h"
#include "measure/context.h"
#include "measure/counter.h"
#include "measure/pin.h"
#include "measure/registry.h"
#include "measure/runner.h"
#include "rundata/report.h"
#include "rundata/rundir.h"
#include "suites/kmod/suite.h"
#include "suites/suite.h"
#include "system/run_context.h"
#include "system/version.h"

static volatile sig_atomic_t stop_signal;

/* The first signal names the interruption: Ctrl-C, then a launcher's TERM. */
static void on_stop(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	/*
	 * Each blocks the others: with two pending, the kernel would otherwise
	 * stack SIGTERM's handler on top of SIGINT's and run it first.
	 */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* a closed terminal, too */
}

struct progress {
	int tty;
	size_t width;
};

static void show_progress(void *arg, size_t done, size_t total,
			  const char *name, unsigned repetition)
{
	struct progress *p = arg;

	if (!p->tty)
		return;
	if (done == 0)
		fprintf(stderr, "\r\033[Ksizing %s", name);
	else
		fprintf(stderr, "\r\033[K[%zu/%zu] repetition %u: %s", done,
			total, repetition + 1, name);
	fflush(stderr);
}

static void list_benchmarks(const struct registry *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct benchmark *b = r->items[i];
		char why[256] = "";

		const char *family = r->families[i] ? r->families[i] : "-";

		if (b->valid && b->valid(b, why, sizeof(why)))
			printf("%-44s %-8s skip: %s\n", b->name, family, why);
		else
			printf("%-44s %-8s %s\n", b->name, family,
			       b->summary ? b->summary : "");
	}
}

static int write_file(struct run_dir_writer *d, const char *name,
		      int (*fn)(FILE *, const struct report *),
		      const struct report *rep, char *err, size_t errlen)
{
	FILE *f = run_dir_open(d, name, err, errlen);

	if (!f)
		return -1;
	if (fn(f, rep)) {
		fclose(f);
		snprintf(err, errlen, "writing %s failed", name);
		return -1;
	}
	return run_dir_close(f, name, err, errlen);
}

/* The context's ";"-separated warnings, one per line. */
static void print_warnings(const char *warnings)
{
	const char *w = warnings;

	if (!*w)
		return;
	printf("warnings:\n");
	while (*w) {
		size_t len = strcspn(w, ";");

		printf("  - %.*s\n", (int)len, w);
		w += len + (w[len] == ';');
	}
}

/*
 * The --run-dir-file is created empty before the run, so that a bad path
 * fails in a second rather than after the run, and so that a run that
 * kept nothing leaves it empty.
 */
static FILE *open_run_dir_file(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "smapbench run: --run-dir-file: cannot create '%s': %s\n",
			path, strerror(errno));
	return f;
}

static int write_run_dir_file(FILE *f, const char *path, const char *run_dir)
{
	char absolute[PATH_MAX];
	const char *name = realpath(run_dir, absolute) ? absolute : run_dir;
	int failed = fprintf(f, "%s\n", name) < 0;

	failed |= fclose(f) != 0;
	if (failed)
		fprintf(stderr, "smapbench run: --run-dir-file: writing '%s' failed: %s (the run directory is %s)\n",
			path, strerror(errno), name);
	return failed ? -1 : 0;
}

static int interrupted(struct run_dir_writer *d)
{
	int sig = stop_signal;

	run_dir_abort(d);
	fprintf(stderr, "\nsmapbench run: interrupted by %s, nothing written\n",
		sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM");
	return 128 + sig;
}

/*
 * The benchmarks the options select into reg: 0, or the exit status
 * after saying why none are left (reg is then freed).
 */
static int select_benchmarks(struct registry *reg, const struct run_options *opt)
{
	char err[512];

	if (suite_register_all(reg)) {
		fprintf(stderr, "smapbench run: out of memory\n");
		return 1;
	}
	registry_keep_suite(reg, opt->suite);
	if (opt->quick)
		registry_drop_extended(reg);
	if (!opt->full)
		registry_drop_full_only(reg);
	if (opt->filter &&
	    registry_keep_matching(reg, opt->filter, err, sizeof(err))) {
		fprintf(stderr, "smapbench run: %s\n", err);
		registry_free(reg);
		return EXIT_USAGE;
	}
	if (reg->count == 0) {
		fprintf(stderr, "smapbench run: no benchmark matches --suite %s%s%s\n",
			opt->suite, opt->filter ? " --filter " : "",
			opt->filter ? opt->filter : "");
		registry_free(reg);
		return EXIT_USAGE;
	}
	return 0;
}

/* A warning for each SMT sibling of the pinned CPU that is busy. */
static void warn_busy_siblings(struct context *ctx, const struct pin_result *pin)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))];

	if (pin_parse_cpu_list(pin->siblings, mask,
			       sizeof(mask) / sizeof(mask[0])))
		return;
	for (int cpu = 0; cpu < 1024; cpu++) {
		if (cpu == pin->cpu ||
		    !((mask[cpu / (8 * sizeof(long))] >>
		       (cpu % (8 * sizeof(long)))) & 1))
			continue;
		double busy = pin_cpu_busy(cpu, 100);

		if (busy > 0.1)
			context_warn(ctx, "SMT sibling CPU %d of CPU %d is %.0f%% busy",
				     cpu, pin->cpu, busy * 100);
	}
}

/*
 * The context of this run (docs/schema.md): the system's, the counter,
 * the pinning and the options; flags gets the run's flags (unpinned,
 * tcg).
 */
static void record_context(struct context *ctx, const struct run_options *opt,
			   const struct counter *counter, const char *fallback,
			   const struct pin_result *pin, char *flags,
			   size_t flagslen)
{
	run_context_collect(ctx);
	/* what the files of this run mean: docs/schema.md */
	context_set(ctx, "schema_version", "%d", RUN_SCHEMA_VERSION);
	context_set(ctx, "counter", "%s", counter->name);
	context_set(ctx, "counter_unit", "%s", counter->unit);
	context_set(ctx, "counter_hz", "%.0f", counter->hz);
	context_set(ctx, "counter_note", "%s", counter->note);
	context_set(ctx, "counter_fallback", "%s", fallback);
	if (fallback[0])
		fprintf(stderr, "smapbench run: using counter %s (%s)\n",
			counter->name, fallback);
	context_set(ctx, "pinning", "%s",
		    pin->cpu >= 0 ? pin->method : "none");
	context_set(ctx, "topology", "%s", pin_topology_source());
	if (pin->cpu >= 0) {
		context_set(ctx, "cpu_pinned", "%d", pin->cpu);
		context_set(ctx, "cpu_siblings", "%s", pin->siblings);
		warn_busy_siblings(ctx, pin);
	} else {
		context_set(ctx, "cpu_pinned", "none");
		context_warn(ctx, "not pinned: %s", pin->why);
		snprintf(flags, flagslen, "unpinned");
	}
	if (!strcmp(context_get(ctx, "virt"), "tcg"))
		snprintf(flags + strlen(flags), flagslen - strlen(flags),
			 "%stcg", flags[0] ? ";" : "");
	context_set(ctx, "suite", "%s", opt->suite);
	context_set(ctx, "filter", "%s", opt->filter ? opt->filter : "");
	context_set(ctx, "min_time", "%g", opt->min_time);
	context_set(ctx, "repetitions", "%u", opt->repetitions);
	context_set(ctx, "samples_per_repetition", "%u", opt->samples);
	context_set(ctx, "seed", "%llu", (unsigned long long)opt->seed);
	context_set(ctx, "quick", "%d", opt->quick);
	context_set(ctx, "sweep", "%s",
		    opt->quick ? "quick" : opt->full ? "full" : "default");
	context_set(ctx, "bootstrap_resamples", "%d", STATS_BOOTSTRAP_RESAMPLES);
	calib_context_user(ctx);
	suite_context(ctx, opt->suite);
	calib_context_judge(ctx);
	if (!context_get(ctx, "warnings"))
		context_set(ctx, "warnings", "%s", "");
}

/* Run the benchmarks: runner_run()'s status, with the progress shown. */
static int run_benchmarks(const struct registry *reg, const struct run_options *opt,
			  struct counter *counter, struct run_results *results)
{
	struct runner_options ro;
	struct progress progress = { 0 };
	int rc;

	runner_defaults(&ro);
	ro.min_time = opt->min_time;
	ro.repetitions = opt->repetitions;
	ro.samples = opt->samples;
	ro.seed = opt->seed;
	ro.counter = counter;
	ro.stop = &stop_signal;
	progress.tty = isatty(STDERR_FILENO);
	ro.progress = show_progress;
	ro.progress_arg = &progress;
	rc = runner_run(reg, &ro, results);
	if (progress.tty)
		fprintf(stderr, "\r\033[K");
	return rc;
}

/* The files of the run directory: 0, or -1 with the reason in err. */
static int write_run_files(struct run_dir_writer *dir, const struct report *rep,
			   char *err, size_t errlen)
{
	return write_file(dir, "results.csv", report_results_csv, rep, err, errlen) ||
	       write_file(dir, "samples.csv", report_samples_csv, rep, err, errlen) ||
	       write_file(dir, "context.csv", report_context_csv, rep, err, errlen) ||
	       write_file(dir, "skipped.csv", report_skipped_csv, rep, err, errlen) ||
	       write_file(dir, "results.json", report_json, rep, err, errlen) ? -1 : 0;
}

/*
 * Write the run's files, name the directory and put it in place, then
 * show the results: the exit status.
 */
static int keep_run(struct run_dir_writer *dir, const struct run_results *results,
		    const struct context *ctx, const char *flags,
		    unsigned repetitions)
{
	char executable[4096], err[512], name[512];
	ssize_t len = readlink("/proc/self/exe", executable, sizeof(executable) - 1);

	executable[len > 0 ? len : 0] = '\0';
	if (len <= 0)
		snprintf(executable, sizeof(executable), "smapbench");
	struct report rep = {
		.results = results, .context = ctx, .run_flags = flags,
		.executable = executable, .repetitions = repetitions,
	};

	if (write_run_files(dir, &rep, err, sizeof(err))) {
		fprintf(stderr, "smapbench run: %s; nothing kept\n", err);
		run_dir_abort(dir);
		return 1;
	}
	if (stop_signal)
		return interrupted(dir);
	/* named by its start, as context.csv dates it: import names it the same */
	if (run_dir_name_dated(name, sizeof(name), context_get(ctx, "host"),
			       context_get(ctx, "date"),
			       context_get(ctx, "smap_state")))
		run_dir_name(name, sizeof(name), context_get(ctx, "host"),
			     context_get(ctx, "smap_state"));
	if (run_dir_commit(dir, name, err, sizeof(err))) {
		fprintf(stderr, "smapbench run: %s\n", err);
		run_dir_abort(dir);
		return 1;
	}
	report_console(stdout, &rep);
	print_warnings(context_get(ctx, "warnings"));
	printf("run directory: %s\n", dir->final);
	fflush(stdout);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_options opt;
	struct registry reg = { 0 };
	struct run_results results = { 0 };
	struct context ctx = { 0 };
	struct pin_result pin;
	struct run_dir_writer dir = { 0 };
	struct counter *counter = NULL;
	FILE *run_dir_file = NULL;
	char err[512], fallback[1024], flags[64] = "";
	const char *counter_name;
	int rc, status = 1;

	rc = run_parse_options(argc, argv, &opt, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "smapbench run: %s\n(see smapbench run --help)\n",
			err);
		return rc;
	}
	if (opt.help) {
		run_usage(stdout);
		return 0;
	}
	install_handlers();

	rc = select_benchmarks(&reg, &opt);
	if (rc)
		return rc;
	if (opt.list) {
		list_benchmarks(&reg);
		registry_free(&reg);
		return 0;
	}

	if (opt.run_dir_file) {
		run_dir_file = open_run_dir_file(opt.run_dir_file);
		if (!run_dir_file) {
			registry_free(&reg);
			return EXIT_USAGE;
		}
	}

	rc = pin_to_core(opt.cpu, &pin);
	if (rc == -2) {
		fprintf(stderr, "smapbench run: --cpu %d: %s\n", opt.cpu, pin.why);
		if (run_dir_file)
			fclose(run_dir_file);
		registry_free(&reg);
		return EXIT_USAGE;
	}

	/* kmod-* names choose the module's counter, not ours. */
	counter_name = opt.counter && strncmp(opt.counter, "kmod-", 5) ?
		       opt.counter : NULL;
	kmod_suite_counter(opt.counter && !counter_name ? opt.counter : NULL);
	counter = counter_select(counter_name, fallback, sizeof(fallback));
	if (!counter) {
		fprintf(stderr, "smapbench run: counter %s cannot be used here: %s\n",
			counter_name ? counter_name : "(any)", fallback);
		goto out;
	}

	/* Create the directory before the long part: fail early. */
	if (run_dir_create(&dir, opt.out, err, sizeof(err))) {
		fprintf(stderr, "smapbench run: %s\n", err);
		goto out;
	}

	record_context(&ctx, &opt, counter, fallback, &pin, flags, sizeof(flags));
	if (stop_signal) {
		status = interrupted(&dir);
		goto out;
	}

	rc = run_benchmarks(&reg, &opt, counter, &results);
	if (rc < 0) {
		fprintf(stderr, "smapbench run: out of memory\n");
		run_dir_abort(&dir);
		goto out;
	}
	if (rc > 0 || stop_signal) {
		status = interrupted(&dir);
		goto out;
	}

	status = keep_run(&dir, &results, &ctx, flags, opt.repetitions);
	if (status)
		goto out;
	if (run_dir_file) {
		status = write_run_dir_file(run_dir_file, opt.run_dir_file,
					    dir.final) ? 1 : 0;
		run_dir_file = NULL;
	}
out:
	if (run_dir_file)
		fclose(run_dir_file);
	if (counter)
		counter->close(counter);
	run_results_free(&results);
	context_free(&ctx);
	registry_free(&reg);
	return status;
}
