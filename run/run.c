// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - one run: select, pin, pick a counter, record the context, run
 * the benchmarks and write the run directory atomically (run.h).
 *
 * A stop request (a signal the caller caught) ends the run at the next
 * sample boundary. The benchmarks that finished a repetition are then
 * kept, in a run directory whose context says status=interrupted, so
 * that no reader takes it for a complete run; with none finished, or
 * after a second signal (discard), the temporary directory is removed
 * and nothing is kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/calib.h"
#include "measure/context.h"
#include "measure/counter.h"
#include "measure/pin.h"
#include "measure/registry.h"
#include "measure/runner.h"
#include "measure/stats.h"
#include "rundata/report.h"
#include "rundata/rundir.h"
#include "run/run.h"
#include "suites/command.h"
#include "suites/kmod/suite.h"
#include "suites/suite.h"
#include "system/run_context.h"
#include "system/version.h"

/* Options that select nothing, a --cpu that cannot be had. */
#define RUN_EXIT_USAGE 2

/*
 * The command of --command: the registry points at its row, so it lives
 * as long as the program (one run, or one worker, per process).
 */
static struct command_spec run_command;
static int run_has_command;

/* One file of the run directory: which report writer makes it, from what. */
struct run_file {
	const char *name;
	int (*write)(FILE *f, const struct report *rep);
	const struct report *rep;
};

static int write_run_file(FILE *f, const void *arg)
{
	const struct run_file *file = arg;

	return file->write(f, file->rep);
}

/* The context's ";"-separated warnings, one per line. */
static void print_warnings(FILE *f, const char *warnings)
{
	const char *w = warnings;

	if (!*w)
		return;
	fprintf(f, "warnings:\n");
	while (*w) {
		size_t len = strcspn(w, ";");

		fprintf(f, "  - %.*s\n", (int)len, w);
		w += len + (w[len] == ';');
	}
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGHUP ? "SIGHUP" : "SIGTERM";
}

static int interrupted(struct run_dir_writer *d, int sig, const char *why)
{
	run_dir_abort(d);
	fprintf(stderr, "\nsmapbench run: interrupted by %s, nothing written (%s)\n",
		signal_name(sig), why);
	return 128 + sig;
}

/*
 * An interrupted run's context: status=interrupted, by which signal,
 * and a warning first among the warnings, which report.md puts at its
 * top.
 */
static void mark_interrupted(struct context *ctx,
			       const struct run_results *results, int sig)
{
	const char *old = context_get(ctx, "warnings");
	size_t finished = 0, not_run = 0;

	for (size_t i = 0; i < results->count; i++) {
		const struct result *res = &results->items[i];

		finished += !res->skipped && res->nsamples;
		not_run += res->skipped && !strcmp(res->reason, "interrupted");
	}
	context_set(ctx, "status", "interrupted");
	context_set(ctx, "interrupted_by", "%s", signal_name(sig));
	context_set(ctx, "warnings",
		    "interrupted by %s: not a complete run, %zu benchmarks kept (their whole repetitions only), %zu not run (skipped.csv: interrupted)%s%s",
		    signal_name(sig), finished, not_run,
		    old && *old ? ";" : "", old ? old : "");
}

static size_t finished_benchmarks(const struct run_results *results)
{
	size_t n = 0;

	for (size_t i = 0; i < results->count; i++)
		n += !results->items[i].skipped && results->items[i].nsamples;
	return n;
}

int run_register_benchmarks(struct registry *reg, const struct run_options *opt)
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
		return RUN_EXIT_USAGE;
	}
	/* the command is not a suite's: every --suite and --filter keep it */
	if (opt->command) {
		if (command_spec_init(&run_command, opt->command, err, sizeof(err))) {
			fprintf(stderr, "smapbench run: %s\n", err);
			registry_free(reg);
			return RUN_EXIT_USAGE;
		}
		if (command_register(reg, &run_command)) {
			fprintf(stderr, "smapbench run: out of memory\n");
			registry_free(reg);
			return 1;
		}
		run_has_command = 1;
	}
	if (reg->count == 0) {
		fprintf(stderr, "smapbench run: no benchmark matches --suite %s%s%s\n",
			opt->suite, opt->filter ? " --filter " : "",
			opt->filter ? opt->filter : "");
		registry_free(reg);
		return RUN_EXIT_USAGE;
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
			   const struct pin_result *pin, int realtime,
			   const char *realtime_why, char *flags,
			   size_t flagslen)
{
	run_context_collect(ctx);
	/* what the files of this run mean: docs/schema.md */
	context_set(ctx, "schema_version", "%d", RUN_SCHEMA_VERSION);
	/* until a stop makes it "interrupted" */
	context_set(ctx, "status", "complete");
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
	context_set(ctx, "sched_policy", "%s", realtime ? "fifo" : "other");
	if (!realtime)
		context_warn(ctx, "not at real-time priority: %s; other tasks can preempt samples on a busy machine",
			     realtime_why);
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
	calib_context_user(ctx);
	suite_context(ctx, opt->suite);
	if (run_has_command)
		command_context(ctx, &run_command);
	calib_context_judge(ctx);
	if (!context_get(ctx, "warnings"))
		context_set(ctx, "warnings", "%s", "");
}

/*
 * What the run will take, before it starts, by the sweep's arithmetic:
 * said on stderr, with the numbers it comes from.
 */
static void print_estimate(const struct registry *reg,
			   const struct runner_options *ro)
{
	size_t rows;
	double seconds = runner_estimate(reg, ro, &rows);

	if (!isfinite(seconds))
		return;
	fprintf(stderr, "smapbench run: %zu benchmarks x %u repetitions x (%u + %u warm-up) samples of %g s (or the benchmark's shorter cap): about %.0fm%02.0fs\n",
		rows, ro->repetitions, ro->samples, ro->warmup, ro->min_time,
		floor(seconds / 60), floor(fmod(seconds, 60)));
}

/*
 * Run the benchmarks: runner_run()'s status. Each repetition is a
 * "smapbench run-worker" of this very program (run_worker()), with the
 * counters this run chose.
 */
static int run_benchmarks(const struct registry *reg,
			  const struct run_options *opt,
			  const struct run_hooks *hooks,
			  struct counter *counter, const char *kmod_counter,
			  struct run_results *results)
{
	char *worker[] = {
		"/proc/self/exe", "run-worker", "--counter",
		(char *)counter->name, "--kmod-counter",
		(char *)(kmod_counter ? kmod_counter : ""),
		run_has_command ? "--command" : NULL, run_command.text,
		"--command-log", run_command.log, NULL,
	};
	struct runner_options ro;

	runner_defaults(&ro);
	ro.worker_argv = worker;
	ro.min_time = opt->min_time;
	ro.repetitions = opt->repetitions;
	ro.samples = opt->samples;
	ro.seed = opt->seed;
	ro.counter = counter;
	ro.stop = hooks->stop;
	ro.progress = hooks->progress;
	ro.progress_arg = hooks->progress_arg;
	print_estimate(reg, &ro);
	return runner_run(reg, &ro, results);
}

/* The files of the run directory: 0, or -1 with the reason in err. */
static int write_run_files(struct run_dir_writer *dir, const struct report *rep,
			   char *err, size_t errlen)
{
	const struct run_file files[] = {
		{ "results.csv", report_results_csv, rep },
		{ "samples.csv", report_samples_csv, rep },
		{ "context.csv", report_context_csv, rep },
		{ "skipped.csv", report_skipped_csv, rep },
		{ "results.json", report_json, rep },
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (atomic_dir_write(&dir->dir, files[i].name, write_run_file,
				     &files[i], err, errlen))
			return -1;
	return 0;
}

/* The path of this program, which results.json names. */
static void executable_path(char *path, size_t len)
{
	ssize_t got = readlink("/proc/self/exe", path, len - 1);

	path[got > 0 ? got : 0] = '\0';
	if (got <= 0)
		snprintf(path, len, "smapbench");
}

/*
 * Write the run's files, name the directory and put it in place: 0, or
 * the exit status with nothing left on disk.
 */
static int keep_run(struct run_dir_writer *dir, struct run_kept *kept,
		    const struct run_hooks *hooks)
{
	char executable[4096], err[512], name[512];
	const struct context *ctx = &kept->context;

	executable_path(executable, sizeof(executable));
	struct report rep = {
		.results = &kept->results, .context = ctx,
		.run_flags = kept->flags, .executable = executable,
		.repetitions = kept->repetitions,
	};

	if (write_run_files(dir, &rep, err, sizeof(err))) {
		fprintf(stderr, "smapbench run: %s; nothing kept\n", err);
		run_dir_abort(dir);
		return 1;
	}
	/*
	 * A first signal from here on finds the measuring over: the run is
	 * kept as what it is. A second one discards it, up to the rename.
	 */
	if (hooks->discard && *hooks->discard)
		return interrupted(dir, *hooks->stop ? *hooks->stop :
				   *hooks->discard, "a second signal");
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
	snprintf(kept->dir, sizeof(kept->dir), "%s", dir->final);
	return 0;
}

int run_execute(const struct registry *reg, const struct run_options *opt,
		const struct run_hooks *hooks, struct run_kept *kept)
{
	struct run_dir_writer dir = { 0 };
	struct counter *counter = NULL;
	struct pin_result pin;
	char err[512], fallback[1024], realtime_why[128] = "";
	const char *counter_name;
	int rc, status = 1, realtime = 0;

	memset(kept, 0, sizeof(*kept));
	kept->repetitions = opt->repetitions;
	if (pin_to_core(opt->cpu, &pin) == -2) {
		fprintf(stderr, "smapbench run: --cpu %d: %s\n", opt->cpu, pin.why);
		return RUN_EXIT_USAGE;
	}
	/* before the calibration: it is measured too */
	if (opt->no_realtime)
		snprintf(realtime_why, sizeof(realtime_why), "--no-realtime");
	else
		realtime = !pin_realtime(realtime_why, sizeof(realtime_why));

	/* kmod-* names choose the module's counter, not ours. */
	counter_name = opt->counter && strncmp(opt->counter, "kmod-", 5) ?
		       opt->counter : NULL;
	kmod_suite_counter(opt->counter && !counter_name ? opt->counter : NULL);
	counter = counter_select(counter_name, fallback, sizeof(fallback));
	if (!counter) {
		fprintf(stderr, "smapbench run: counter %s cannot be used here: %s\n",
			counter_name ? counter_name : "(any)", fallback);
		return 1;
	}

	/* Create the directory before the long part: fail early. */
	if (run_dir_create(&dir, opt->out, err, sizeof(err))) {
		fprintf(stderr, "smapbench run: %s\n", err);
		goto out;
	}
	/* the command's output goes into the run directory, renamed with it */
	if (run_has_command) {
		char log[sizeof(run_command.log)];

		snprintf(log, sizeof(log), "%s/%s", dir.dir.tmp, COMMAND_LOG);
		command_set_log(&run_command, log);
	}

	record_context(&kept->context, opt, counter, fallback, &pin, realtime,
		       realtime_why, kept->flags, sizeof(kept->flags));
	if (*hooks->stop) {
		status = interrupted(&dir, *hooks->stop, "before the first benchmark");
		goto out;
	}

	rc = run_benchmarks(reg, opt, hooks, counter, kmod_suite_worker_counter(),
			    &kept->results);
	if (hooks->progress)
		hooks->progress(hooks->progress_arg,
				&(struct runner_progress){ .name = NULL });
	if (rc < 0) {
		fprintf(stderr, "smapbench run: the benchmarks could not run to the end (above: why); nothing kept\n");
		run_dir_abort(&dir);
		goto out;
	}
	if (rc > 0) {
		int sig = *hooks->stop ? *hooks->stop : SIGINT;

		if (hooks->discard && *hooks->discard) {
			status = interrupted(&dir, sig, "a second signal");
			goto out;
		}
		if (!finished_benchmarks(&kept->results)) {
			status = interrupted(&dir, sig, "no benchmark had finished a repetition");
			goto out;
		}
		mark_interrupted(&kept->context, &kept->results, sig);
		suite_results_context(&kept->context, opt->suite, &kept->results);
		if (run_has_command)
			command_results_context(&kept->context, &run_command,
						&kept->results);
		status = keep_run(&dir, kept, hooks);
		if (status)
			goto out;
		fprintf(stderr, "\nsmapbench run: interrupted by %s: the %zu finished benchmarks are kept in %s, marked status=interrupted (not a complete run)\n",
			signal_name(sig), finished_benchmarks(&kept->results),
			kept->dir);
		/* non-zero, as for a signal, with the run kept: kept->dir says so */
		counter->close(counter);
		return 128 + sig;
	}
	suite_results_context(&kept->context, opt->suite, &kept->results);
	if (run_has_command)
		command_results_context(&kept->context, &run_command,
					&kept->results);
	status = keep_run(&dir, kept, hooks);
	if (!status && run_has_command &&
	    command_failure(&run_command, &kept->results)) {
		/* kept, as evidence; the status tells a script it failed */
		fprintf(stderr, "smapbench run: %s %s; the run is kept in %s\n",
			run_command.name,
			command_failure(&run_command, &kept->results),
			kept->dir);
		counter->close(counter);
		return 1;
	}
out:
	counter->close(counter);
	if (status) {
		run_kept_free(kept);
		kept->dir[0] = '\0';
	}
	return status;
}

void run_kept_print(FILE *f, const struct run_kept *kept)
{
	struct report rep = {
		.results = &kept->results, .context = &kept->context,
		.run_flags = kept->flags, .repetitions = kept->repetitions,
	};

	report_console(f, &rep);
	print_warnings(f, context_get(&kept->context, "warnings"));
	fprintf(f, "run directory: %s\n", kept->dir);
	fflush(f);
}

void run_kept_free(struct run_kept *kept)
{
	run_results_free(&kept->results);
	context_free(&kept->context);
}

int run_worker(const char *counter_name, const char *kmod_counter,
	       const char *command, const char *command_log)
{
	struct registry reg = { 0 };
	struct runner_options ro;
	struct counter *counter;
	char fallback[1024];
	FILE *out;
	int proto, rc;

	/* the protocol gets stdout; anything else printed goes to stderr */
	proto = dup(STDOUT_FILENO);
	if (proto < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 ||
	    !(out = fdopen(proto, "w"))) {
		perror("smapbench run-worker");
		return 1;
	}
	kmod_suite_counter(kmod_counter && *kmod_counter ? kmod_counter : NULL);
	counter = counter_select(counter_name, fallback, sizeof(fallback));
	if (!counter || strcmp(counter->name, counter_name)) {
		fprintf(stderr, "smapbench run-worker: counter %s cannot be used: %s\n",
			counter_name, fallback);
		if (counter)
			counter->close(counter);
		fclose(out);
		return 1;
	}
	if (suite_register_all(&reg)) {
		fprintf(stderr, "smapbench run-worker: out of memory\n");
		counter->close(counter);
		fclose(out);
		return 1;
	}
	if (command) {
		char err[256];

		if (command_spec_init(&run_command, command, err, sizeof(err)) ||
		    command_register(&reg, &run_command)) {
			fprintf(stderr, "smapbench run-worker: %s\n",
				run_command.text[0] ? "out of memory" : err);
			counter->close(counter);
			registry_free(&reg);
			fclose(out);
			return 1;
		}
		command_set_log(&run_command, command_log);
	}
	runner_defaults(&ro);
	ro.counter = counter;
	rc = runner_worker(&reg, &ro, stdin, out);
	if (fclose(out))
		rc = 1;
	counter->close(counter);
	registry_free(&reg);
	return rc;
}
