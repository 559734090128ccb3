// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_run.c - `smapbench run`: parse, catch the stop signals, show the
 * progress, and hand the run to run/run.c.
 *
 * SIGINT, SIGTERM and SIGHUP stop the run at the next sample boundary:
 * the benchmarks that finished a repetition are kept in a run directory
 * marked status=interrupted, and the exit status is 130, 143 or 129 all
 * the same. A second signal discards the run: the temporary directory
 * is removed. The last line on stdout is "run directory: PATH" (for an
 * interrupted run too); --run-dir-file gives scripts the same path
 * without parsing messages, and stays empty when nothing was kept.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "measure/registry.h"
#include "measure/runner.h"
#include "run/run.h"

static volatile sig_atomic_t stop_signal, discard_signal;

/*
 * The first signal names the interruption and keeps what finished; a
 * second one (Ctrl-C again) discards the run. A signal from the parent
 * after the first is that first one relayed, not a second request: a
 * launcher (run-bench.sh) forwards the user's Ctrl-C as SIGTERM to a
 * child the terminal has already sent SIGINT. write() and getppid() are
 * async-signal-safe: the user learns at once what a second Ctrl-C does.
 */
static void on_stop(int sig, siginfo_t *info, void *context)
{
	static const char stopping[] =
		"\nsmapbench run: stopping; the finished benchmarks will be kept (a second signal discards them)\n";
	int saved = errno;

	if (!stop_signal) {
		stop_signal = sig;
		if (write(STDERR_FILENO, stopping, sizeof(stopping) - 1) < 0)
			errno = saved;
	} else if (!(info && info->si_code <= 0 && info->si_pid == getppid())) {
		discard_signal = sig;
	}
	(void)context;
	errno = saved;
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO;
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
	unsigned repetitions;	/* of the run, for the lines off a terminal */
	int last_repetition;	/* the last one a line was printed for, or -1 */
};

/*
 * Off a terminal (a log, a pipe, CI), a line when the sizing starts and
 * when each repetition starts, rather than the terminal's line redrawn
 * per stretch: a few lines that say the run is alive and how far it is.
 */
static void log_progress(struct progress *p, const struct runner_progress *r)
{
	if (r->event == RUNNER_SIZING && r->done == 0)
		fprintf(stderr, "sizing %zu benchmarks\n", r->total);
	if (r->event != RUNNER_STRETCH || (int)r->repetition == p->last_repetition)
		return;
	p->last_repetition = (int)r->repetition;
	fprintf(stderr, "repetition %u of %u: from stretch %zu of %zu",
		r->repetition + 1, p->repetitions, r->done, r->total);
	if (r->seconds_left >= 0)
		fprintf(stderr, ", about %.0fm%02.0fs left",
			floor(r->seconds_left / 60),
			floor(fmod(r->seconds_left, 60)));
	fputc('\n', stderr);
}

static void show_progress(void *arg, const struct runner_progress *r)
{
	struct progress *p = arg;
	char left[48] = "";

	if (r->name && r->event == RUNNER_SIZED) {
		/* a line of its own, on a terminal or not */
		fprintf(stderr, "%ssized; by the sizing's own samples the repetitions take about %.0fm%02.0fs\n",
			p->tty ? "\r\033[K" : "", floor(r->seconds_left / 60),
			floor(fmod(r->seconds_left, 60)));
		return;
	}
	if (!p->tty) {
		if (r->name)
			log_progress(p, r);
		return;
	}
	if (r->seconds_left >= 0)
		snprintf(left, sizeof(left), ", %.0fm%02.0fs left",
			 floor(r->seconds_left / 60),
			 floor(fmod(r->seconds_left, 60)));
	if (!r->name)
		fprintf(stderr, "\r\033[K");
	else if (r->event == RUNNER_SIZING)
		fprintf(stderr, "\r\033[Ksizing [%zu/%zu] %s", r->done + 1,
			r->total, r->name);
	else
		fprintf(stderr, "\r\033[K[%zu/%zu] repetition %u: %s%s",
			r->done, r->total, r->repetition + 1, r->name, left);
	fflush(stderr);
}

/*
 * A row's role as --list shows it: what compare takes it for (a base or
 * a control nets the others; "-" where the suite does not say).
 */
static const char *role_name(enum bench_role role)
{
	switch (role) {
	case BENCH_ROLE_BASE:
		return "base";
	case BENCH_ROLE_CONTROL:
		return "control";
	case BENCH_ROLE_EFFECT:
		return "effect";
	case BENCH_ROLE_UNSET:
		break;
	}
	return "-";
}

static void list_benchmarks(const struct registry *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct benchmark *b = r->items[i];
		char why[256] = "";

		const char *family = r->families[i] ? r->families[i] : "-";

		if (b->valid && b->valid(b, why, sizeof(why)))
			printf("%-44s %-8s %-7s skip: %s\n", b->name, family,
			       role_name(b->role), why);
		else
			printf("%-44s %-8s %-7s %s\n", b->name, family,
			       role_name(b->role), b->summary ? b->summary : "");
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

int cmd_run(int argc, char **argv)
{
	struct run_options opt;
	struct registry reg = { 0 };
	struct progress progress = {
		.tty = isatty(STDERR_FILENO), .last_repetition = -1,
	};
	struct run_hooks hooks = {
		.stop = &stop_signal, .discard = &discard_signal,
		.progress = show_progress,
		.progress_arg = &progress,
	};
	struct run_kept kept;
	FILE *run_dir_file = NULL;
	char err[512];
	int rc, status;

	rc = run_parse_options(argc, argv, &opt, err, sizeof(err));
	if (rc)
		return run_refuse(err);
	if (opt.help) {
		run_usage(stdout);
		return 0;
	}
	progress.repetitions = opt.repetitions;
	install_handlers();

	rc = run_register_benchmarks(&reg, &opt);
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

	status = run_execute(&reg, &opt, &hooks, &kept);
	/* a complete run, or an interrupted one kept (status 128 + signal) */
	if (!status || kept.dir[0]) {
		run_kept_print(stdout, &kept);
		if (run_dir_file) {
			if (write_run_dir_file(run_dir_file, opt.run_dir_file,
					       kept.dir) && !status)
				status = 1;
			run_dir_file = NULL;
		}
		run_kept_free(&kept);
	}
	if (run_dir_file)
		fclose(run_dir_file);
	registry_free(&reg);
	return status;
}
