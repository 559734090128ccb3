// SPDX-License-Identifier: GPL-2.0
/*
 * census_command.c - `smapbench census -- COMMAND`: the census of a
 * command (census_command.h, docs/census.md). On this machine: find
 * COMMAND, resolve the pair's cost, time COMMAND natively; then
 * vm/census.sh --command boots each kernel in each SMAP state with this
 * machine's root filesystem under the plugin, where `census exec` runs
 * the baseline and COMMAND; then the boots' counts become a census
 * directory. Any failure of COMMAND, here or in a guest, ends it with a
 * message and no directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "census/census.h"
#include "census/command/census_command.h"
#include "census/command/census_cost.h"
#include "census/command/census_spawn.h"
#include "measure/spawn.h"
#include "measure/stats.h"
#include "rundata/atomic_dir.h"

extern char **environ;

#define WHO "smapbench census"
/* Lines of COMMAND's output shown when it failed natively. */
#define OUTPUT_TAIL_LINES 20

static void show_tail(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long lines = 0, skip, i = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		lines += strchr(line, '\n') != NULL;
	if (!lines) {
		fclose(f);
		return;
	}
	skip = lines > OUTPUT_TAIL_LINES ? lines - OUTPUT_TAIL_LINES : 0;
	rewind(f);
	fprintf(stderr, "%s: the last lines of its output:\n", WHO);
	while (fgets(line, sizeof(line), f)) {
		if (i >= skip)
			fprintf(stderr, "  %s%s", line, strchr(line, '\n') ? "" : "\n");
		i += strchr(line, '\n') != NULL;
	}
	fclose(f);
}

/*
 * COMMAND's wall time here: one warm-up run (caches, the page cache of
 * what it reads), then o->native_runs timed ones, each as the guest
 * runs it: standard input /dev/null, output to a file.
 */
static int time_natively(const struct census_command_options *o,
			 const char *path, const char *work,
			 struct census_native *n)
{
	char output[PATH_MAX + 32], why[512], text[512];
	double switches[CENSUS_NATIVE_MAX_RUNS];
	struct census_program p = {
		.path = path, .argv = o->argv, .timeout = o->timeout,
		.own_group = 1,
	};
	struct census_outcome r;
	int rc = -1;

	memset(n, 0, sizeof(*n));
	snprintf(output, sizeof(output), "%s/native.out", work);
	p.stdin_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	p.output_fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (p.stdin_fd < 0 || p.output_fd < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", WHO,
			p.stdin_fd < 0 ? "/dev/null" : output, strerror(errno));
		goto out;
	}
	printf("census: timing %s natively: a warm-up and %u runs\n", o->argv[0],
	       o->native_runs);
	fflush(stdout);
	for (unsigned i = 0; i <= o->native_runs; i++) {
		if (ftruncate(p.output_fd, 0) || lseek(p.output_fd, 0, SEEK_SET)) {
			fprintf(stderr, "%s: cannot empty %s: %s\n", WHO, output,
				strerror(errno));
			goto out;
		}
		if (census_run_program(&p, &r, why, sizeof(why))) {
			fprintf(stderr, "%s: %s\n", WHO, why);
			goto out;
		}
		if (!census_outcome_ok(&r)) {
			census_outcome_text(&r, o->timeout, text, sizeof(text));
			fprintf(stderr, "%s: %s %s when run natively (%s run): nothing was counted\n",
				WHO, o->argv[0], text, i ? "a timed" : "the warm-up");
			show_tail(output);
			goto out;
		}
		if (i) {
			switches[n->runs] = (double)r.context_switches;
			n->seconds[n->runs++] = r.seconds;
		}
	}
	census_native_summarise(n);
	n->context_switches = stats_median(switches, n->runs);
	printf("census: %s takes %.3f s natively (median of %zu, %.3f to %.3f s)\n",
	       o->argv[0], n->median, n->runs, n->min, n->max);
	rc = 0;
out:
	if (p.stdin_fd >= 0)
		close(p.stdin_fd);
	if (p.output_fd >= 0)
		close(p.output_fd);
	return rc;
}

/* The directory of this program, e.g. build/ (absolute). */
static int program_dir(char *out, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", out, len - 1);

	if (n <= 0)
		return -1;
	out[n] = '\0';
	*strrchr(out, '/') = '\0';
	return 0;
}

/* vm/census.sh: $SMAPBENCH_VM/census.sh, or vm/ beside the build directory. */
static int find_boot_script(const char *build, char *out, size_t len)
{
	const char *env = getenv("SMAPBENCH_VM");

	if (env && *env)
		snprintf(out, len, "%s/census.sh", env);
	else
		snprintf(out, len, "%s/../vm/census.sh", build);
	return access(out, X_OK);
}

/* This process's environment, NUL-separated, for the guest's COMMAND. */
static int write_environment(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	for (char **e = environ; *e; e++)
		fwrite(*e, 1, strlen(*e) + 1, f);
	return fclose(f);
}

/* Arguments of vm/census.sh, NULL-ended; free the array only. */
static char **boot_arguments(const struct census_command_options *o,
			     const char *script, const char *work,
			     const char *self, const char *cwd, char *timeout)
{
	size_t argc = 0, max = 24 + 2 * o->nkernels;
	char **a;

	for (char **p = o->argv; *p; p++)
		max++;
	a = calloc(max, sizeof(*a));
	if (!a)
		return NULL;
	a[argc++] = (char *)script;
	a[argc++] = "--command";
	a[argc++] = "--work";
	a[argc++] = (char *)work;
	a[argc++] = "--smapbench";
	a[argc++] = (char *)self;
	a[argc++] = "--cd";
	a[argc++] = (char *)cwd;
	a[argc++] = "--states";
	a[argc++] = (char *)o->states;
	a[argc++] = "--command-timeout";
	a[argc++] = timeout;
	for (size_t i = 0; i < o->nkernels; i++) {
		a[argc++] = "--kernel";
		a[argc++] = o->kernels[i];
	}
	a[argc++] = "--";
	for (char **p = o->argv; *p; p++)
		a[argc++] = *p;
	return a;
}

/*
 * This process's environment with BUILD=build, by which the script finds
 * the plugin and the guest program in our build; NULL-ended. Free the
 * last entry and the array. NULL on no memory.
 */
static char **boot_environment(const char *build, size_t *count)
{
	size_t n = 0;
	char **env;

	for (char **e = environ; *e; e++)
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "BUILD=", 6))
			env[n++] = *e;
	env[n] = malloc(strlen(build) + 7);
	if (!env[n]) {
		free(env);
		return NULL;
	}
	sprintf(env[n], "BUILD=%s", build);
	*count = n;
	return env;
}

/*
 * The boots vm/census.sh listed in list ("STATE PATH SECONDS" a line),
 * each one's plugin output loaded into census, in boot order. 0, or 1
 * after saying why.
 */
static int read_boot_list(const char *list, const char *work,
			  struct census *census,
			  struct census_boot_file **files, size_t *nfiles)
{
	char *line = NULL, err[2048];
	FILE *f = fopen(list, "r");
	size_t cap = 0;
	int rc = 0;

	while (f && !rc && getline(&line, &cap, f) > 0) {
		char state[32], path[PATH_MAX];
		double seconds = NAN;
		struct census_boot_file *nf;

		if (sscanf(line, "%31s %4095s %lf", state, path, &seconds) < 2)
			continue;
		if (census_load_plugin_output(census, state, path, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", WHO, err);
			fprintf(stderr, "%s: the boots' files are in %s\n", WHO, work);
			rc = 1;
			break;
		}
		nf = realloc(*files, (*nfiles + 1) * sizeof(*nf));
		if (nf)
			*files = nf;
		if (!nf || !(nf[*nfiles].path = strdup(path))) {
			fprintf(stderr, "%s: out of memory\n", WHO);
			rc = 1;
			break;
		}
		nf[*nfiles].seconds = seconds;
		(*nfiles)++;
	}
	if (f)
		fclose(f);
	free(line);
	return rc;
}

/*
 * Boot every kernel and state (vm/census.sh --command), then load what
 * each boot's plugin counted, in boot order. 0, or 1 after saying why.
 */
static int boot_all(const struct census_command_options *o, const char *build,
		    const char *work, const char *cwd, struct census *census,
		    struct census_boot_file **files, size_t *nfiles)
{
	char script[PATH_MAX + 32], self[PATH_MAX], list[PATH_MAX + 32],
	     envfile[PATH_MAX + 32], timeout[32], why[1024];
	char **args, **env;
	struct census_program p = { .stdin_fd = -1, .output_fd = -1 };
	struct census_outcome r;
	size_t nenv = 0;
	ssize_t len;
	int rc = 1;

	*files = NULL;
	*nfiles = 0;
	if (find_boot_script(build, script, sizeof(script))) {
		fprintf(stderr, "%s: %s is not there: run smapbench from its checkout's build directory, or set SMAPBENCH_VM to the checkout's vm/\n",
			WHO, script);
		return 1;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		fprintf(stderr, "%s: cannot find this program: %s\n", WHO, strerror(errno));
		return 1;
	}
	self[len] = '\0';
	snprintf(envfile, sizeof(envfile), "%s/command.env", work);
	snprintf(list, sizeof(list), "%s/boots.list", work);
	if (write_environment(envfile)) {
		fprintf(stderr, "%s: cannot write %s: %s\n", WHO, envfile, strerror(errno));
		return 1;
	}
	snprintf(timeout, sizeof(timeout), "%.0f", ceil(o->timeout));
	args = boot_arguments(o, script, work, self, cwd, timeout);
	env = boot_environment(build, &nenv);
	if (!args || !env) {
		fprintf(stderr, "%s: out of memory\n", WHO);
		goto out;
	}
	p.path = script;
	p.argv = args;
	p.envp = env;
	if (census_run_program(&p, &r, why, sizeof(why))) {
		fprintf(stderr, "%s: cannot run %s: %s\n", WHO, script, why);
		goto out;
	}
	if (read_boot_list(list, work, census, files, nfiles))
		goto out;
	if (!census_outcome_ok(&r) || !*nfiles) {
		census_outcome_text(&r, 0, why, sizeof(why));
		fprintf(stderr, "%s: the census boots failed (vm/census.sh %s; the boots' files are in %s)\n",
			WHO, why, work);
		goto out;
	}
	rc = 0;
out:
	free(args);
	if (env)
		free(env[nenv]);
	free(env);
	return rc;
}

int census_command(const struct census_command_options *o)
{
	struct census census = { 0 };
	struct census_pair_cost cost;
	struct census_native native;
	struct census_boot_file *files = NULL;
	char program[PATH_MAX], build[PATH_MAX], work[PATH_MAX],
	     cwd[PATH_MAX], err[2048], written[PATH_MAX];
	size_t nfiles = 0;
	int rc, keep_work = 0;

	if (spawn_find_program(o->argv[0], getenv("PATH"), program, sizeof(program))) {
		fprintf(stderr, "%s: %s: %s (not an executable file%s): nothing was counted\n",
			WHO, o->argv[0], strerror(errno),
			strchr(o->argv[0], '/') ? "" : " in PATH");
		return 1;
	}
	rc = census_cost_resolve(&o->cost, &cost, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: %s\n", WHO, err);
		return rc == -2 ? 2 : 1;
	}
	if (cost.known)
		printf("census: pair cost (%s): %s; core frequency: %s\n",
		       census_cost_kind_name(cost.kind), cost.source, cost.ghz_source);
	else
		printf("census: no estimate: %s\n", cost.source);
	if (!getcwd(cwd, sizeof(cwd)) || program_dir(build, sizeof(build))) {
		fprintf(stderr, "%s: cannot find the working or the build directory: %s\n",
			WHO, strerror(errno));
		return 1;
	}
	/* the boots' files: build/census/command-XXXXXX */
	if ((size_t)snprintf(work, sizeof(work), "%s/census", build) >= sizeof(work) - 16 ||
	    atomic_dir_make_parents(work)) {
		fprintf(stderr, "%s: cannot create %s: %s\n", WHO, work, strerror(errno));
		return 1;
	}
	strcat(work, "/command-XXXXXX");
	if (!mkdtemp(work)) {
		fprintf(stderr, "%s: cannot create %s: %s\n", WHO, work, strerror(errno));
		return 1;
	}
	rc = 1;
	if (o->native_seconds > 0) {
		memset(&native, 0, sizeof(native));
		native.given = 1;
		native.median = native.min = native.max = o->native_seconds;
		native.context_switches = NAN;
	} else if (time_natively(o, program, work, &native)) {
		goto out;
	}
	/* From here on, the boots' files explain a failure: they are kept. */
	keep_work = 1;
	if (boot_all(o, build, work, cwd, &census, &files, &nfiles))
		goto out;
	{
		struct census_command_inputs in = {
			.argv = o->argv, .cwd = cwd, .native = &native,
			.cost = &cost, .top = o->top, .timeout = o->timeout,
		};

		/* An interruption now removes the directory being built. */
		atomic_dir_cleanup_on_signals();
		if (census_command_write_dir(&census, files, nfiles, &in, o->out,
					     written, sizeof(written), stdout, err,
					     sizeof(err))) {
			fprintf(stderr, "%s: %s\n", WHO, err);
			goto out;
		}
	}
	printf("census directory: %s\n", written);
	keep_work = 0;
	rc = 0;
out:
	if (!keep_work)
		atomic_dir_remove_tree(work);
	if (rc)
		fprintf(stderr, "%s: no census directory written\n", WHO);
	for (size_t i = 0; i < nfiles; i++)
		free((char *)files[i].path);
	free(files);
	census_free(&census);
	return rc;
}
