// SPDX-License-Identifier: GPL-2.0
/* gnuplot.c - running gnuplot on the scripts of plots/; see gnuplot.h. */
#include "analysis/gnuplot.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/spawn.h"
#include "rundata/atomic_dir.h"

extern char **environ;

/* A locale every glibc has (built in since 2.35, Debian's long before). */
#define GNUPLOT_LOCALE "LC_ALL=C.UTF-8"
/* A file every scripts directory has: how it is recognised. */
#define SCRIPTS_MARK "lib/common.gp"

/* A run's text inside a double-quoted string of a data file (gnuplot.h). */
void gnuplot_data_text(FILE *f, const char *s, size_t max)
{
	for (size_t n = 0; s && s[n] && n < max; n++) {
		unsigned char c = (unsigned char)s[n];

		fputc(c < 0x20 || c == 0x7f ? ' ' : c == '"' ? '\'' :
		      c == '\\' ? '/' : c, f);
	}
}

void gnuplot_data_string(FILE *f, const char *s, size_t max)
{
	fputc('"', f);
	gnuplot_data_text(f, s, max);
	fputc('"', f);
}

void gnuplot_set_string(char *settings, size_t len, const char *var,
			const char *value)
{
	size_t used = strlen(settings);

	used += (size_t)snprintf(settings + used, len > used ? len - used : 0,
				 "%s='", var);
	for (const char *p = value; *p && used + 3 < len; p++) {
		if (*p == '\'')
			settings[used++] = '\'';
		settings[used++] = *p;
	}
	if (used + 3 < len) {
		settings[used++] = '\'';
		settings[used++] = ';';
		settings[used++] = ' ';
		settings[used] = '\0';
	}
}

void gnuplot_set_number(char *settings, size_t len, const char *var,
			double value)
{
	size_t used = strlen(settings);

	snprintf(settings + used, len > used ? len - used : 0, "%s=%.10g; ",
		 var, value);
}

static int has_scripts(const char *dir)
{
	char mark[PATH_MAX + 32];

	snprintf(mark, sizeof(mark), "%s/" SCRIPTS_MARK, dir);
	return access(mark, R_OK) == 0;
}

/* plots/ with the .gp scripts: $SMAPBENCH_PLOTS, or next to the program. */
static int find_scripts(char *out, size_t len)
{
	static const char *const rel[] = {
		"/../plots", "/plots", "/../share/smapbench/plots",
	};
	const char *env = getenv("SMAPBENCH_PLOTS");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return has_scripts(out);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		for (size_t i = 0; i < sizeof(rel) / sizeof(*rel); i++) {
			snprintf(out, len, "%s%s", exe, rel[i]);
			if (has_scripts(out))
				return 1;
		}
	}
	snprintf(out, len, "plots");
	return has_scripts(out);
}

/* environ without LC_ALL, then LC_ALL=C.UTF-8: it overrides LANG, LC_*. */
static char **utf8_environment(void)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7))
			env[k++] = environ[i];
	env[k] = (char *)GNUPLOT_LOCALE;
	return env;
}

int gnuplot_find(struct gnuplot *gp, const char *who)
{
	const char *program = getenv("SMAPBENCH_GNUPLOT");
	char abs[PATH_MAX];

	memset(gp, 0, sizeof(*gp));
	if (spawn_find_program(program && *program ? program : "gnuplot",
			       getenv("PATH"), gp->program, sizeof(gp->program))) {
		fprintf(stderr,
			"smapbench %s: gnuplot not found%s%s; no plots written. "
			"Install it (apt-get install gnuplot-nox) and run "
			"'smapbench plot' again\n", who,
			program && *program ? " at " : " in PATH",
			program && *program ? program : "");
		return -1;
	}
	if (!find_scripts(gp->scripts, sizeof(gp->scripts))) {
		fprintf(stderr,
			"smapbench %s: the gnuplot scripts (plots/*.gp) are not "
			"next to the program; set SMAPBENCH_PLOTS to their "
			"directory\n", who);
		return -1;
	}
	if (realpath(gp->scripts, abs))
		memcpy(gp->scripts, abs, sizeof(abs));
	gp->env = utf8_environment();
	if (!gp->env) {
		fprintf(stderr, "smapbench %s: out of memory\n", who);
		return -1;
	}
	return 0;
}

void gnuplot_free(struct gnuplot *gp)
{
	free(gp->env);
	gp->env = NULL;
}

/*
 * Start gnuplot, watched so that our own stop handler can end it before
 * removing the directory it writes into: the stop signals stay blocked
 * here until it is watched (spawn_start gives it their defaults). 0, or
 * an errno value.
 */
static int spawn_watched(const struct gnuplot *gp, pid_t *pid, char **argv)
{
	struct spawn s = {
		.path = gp->program, .argv = argv, .envp = gp->env,
		.stdin_fd = -1, .stdout_fd = -1, .stderr_fd = -1,
	};
	sigset_t stop, old;
	int rc, exec_errno;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	rc = spawn_start(&s, pid, &exec_errno) ? errno : 0;
	if (!rc && exec_errno) {
		waitpid(*pid, NULL, 0);
		rc = exec_errno;
	}
	if (!rc)
		atomic_dir_watch_child(*pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int gnuplot_draw(const struct gnuplot *gp, const char *who,
		 const char *script, const char *dir, const char *name,
		 const char *settings)
{
	static const char *const terms[] = { "png", "svg" };

	for (size_t t = 0; t < 2; t++) {
		char set[16384] = "", path[PATH_MAX + 64], file[PATH_MAX + 64];
		char *argv[5];
		pid_t pid;
		int status, rc;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		gnuplot_set_string(set, sizeof(set), "plotsdir", gp->scripts);
		gnuplot_set_string(set, sizeof(set), "out", path);
		gnuplot_set_string(set, sizeof(set), "term", terms[t]);
		snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
		gnuplot_set_string(set, sizeof(set), "datafile", path);
		snprintf(set + strlen(set), sizeof(set) - strlen(set), "%s",
			 settings);
		snprintf(file, sizeof(file), "%s/%s", gp->scripts, script);
		argv[0] = (char *)gp->program;
		argv[1] = "-e";
		argv[2] = set;
		argv[3] = file;
		argv[4] = NULL;
		rc = spawn_watched(gp, &pid, argv);
		if (rc) {
			fprintf(stderr, "smapbench %s: cannot run %s: %s\n", who,
				gp->program, strerror(rc));
			return -1;
		}
		while ((rc = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		atomic_dir_unwatch_child(pid);
		if (rc < 0) {
			fprintf(stderr, "smapbench %s: waiting for gnuplot: %s\n",
				who, strerror(errno));
			return -1;
		}
		if (WIFSIGNALED(status)) {
			fprintf(stderr, "smapbench %s: gnuplot, drawing %s.%s with "
				"%s, was killed by signal %d (%s)\n", who, name,
				terms[t], script, WTERMSIG(status),
				strsignal(WTERMSIG(status)));
			return -1;
		}
		if (WEXITSTATUS(status)) {
			fprintf(stderr, "smapbench %s: gnuplot failed drawing %s.%s "
				"with %s/%s (exit status %d; its own message, if "
				"any, is above)\n", who, name, terms[t],
				gp->scripts, script, WEXITSTATUS(status));
			return -1;
		}
	}
	return 0;
}
