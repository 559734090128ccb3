// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_plot.c - `smapbench plot RUN`: PNG and SVG plots of a run, and the
 * renderer `compare` uses for two runs side by side.
 *
 * The C side only selects and writes small whitespace-separated .dat
 * files; gnuplot scripts in plots/ do the drawing, called once per plot
 * and terminal with -e settings. Everything is built in a temporary
 * directory next to the target and renamed to plots/ when complete.
 */
#include "analysis.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_dir.h"
#include "commands.h"
#include "kmod_catalogue.h"
#include "stats.h"

extern char **environ;

#define MAX_RUNS	2
#define MAX_SERIES	4

const char *const plot_names[] = {
	"delta-kmod", "delta-syscall", "delta-bpf", "ops", "copy", "batch",
	"sigframe", "dist",
	"syscall", "bpf", NULL,
};

const char *plot_caption(const char *name)
{
	if (!strcmp(name, "delta-kmod"))
		return "kmod suite: difference between the runs, in percent of A";
	if (!strcmp(name, "delta-bpf"))
		return "bpf suite: difference of the user - kernel overhead, in percent of A";
	if (!strcmp(name, "delta-syscall"))
		return "Syscall suite: difference between the runs, in percent of A";
	if (!strcmp(name, "ops"))
		return "Cost per operation with 95% CI error bars";
	if (!strcmp(name, "copy"))
		return "copy_to_user / copy_from_user against copy size";
	if (!strcmp(name, "batch"))
		return "Cost per access: one pair per access (kapi) against one per K";
	if (!strcmp(name, "bpf"))
		return "bpf suite: user against kernel reads in ring 0";
	if (!strcmp(name, "sigframe"))
		return "Signal frame: a pair per field against one pair per frame";
	if (!strcmp(name, "dist"))
		return "Sample distributions of the headline benchmarks";
	if (!strcmp(name, "syscall"))
		return "Syscall suite, nanoseconds per call";
	return name;
}

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

void context_line(char *buf, size_t len, const struct run_dir *run)
{
	char counters[128];

	counters_of(counters, sizeof(counters), run);
	snprintf(buf, len, "%s · %s · %s · %s", ctx(run, "cpu_model"),
		 ctx(run, "kernel_release"), counters, ctx(run, "virt"));
}

static void context_line2(char *buf, size_t len, const struct run_dir *a,
			  const struct run_dir *b)
{
	static const char *const keys[] = {
		"cpu_model", "kernel_release", "counter", "virt",
	};
	char ca[128], cb[128];
	size_t used = 0;

	counters_of(ca, sizeof(ca), a);
	counters_of(cb, sizeof(cb), b);
	buf[0] = '\0';
	for (size_t i = 0; i < 4 && used < len; i++) {
		const char *x = i == 2 ? ca : ctx(a, keys[i]);
		const char *y = i == 2 ? cb : ctx(b, keys[i]);

		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s",
					 i ? " · " : "", x,
					 strcmp(x, y) ? " / " : "",
					 strcmp(x, y) ? y : "");
	}
}

const char *run_title(const struct run_dir *const *runs, size_t nruns,
		      size_t index)
{
	static const char *const letters[] = { "A", "B" };
	const char *state = rundir_context(runs[index], "smap_state");

	if (nruns < 2)
		return state && *state ? state : "run";
	for (size_t i = 0; i < nruns; i++) {
		const char *s = rundir_context(runs[i], "smap_state");

		if (!s || !*s || strchr(s, ' ') || (i != index && !strcmp(s, state ? state : "")))
			return letters[index < 2 ? index : 1];
	}
	return state;
}

/* ------------------------------------------------------------ helpers */

/* Append a gnuplot assignment name='value' (quotes doubled). */
static void gp_str(char *buf, size_t len, const char *name, const char *value)
{
	size_t used = strlen(buf);

	used += (size_t)snprintf(buf + used, len > used ? len - used : 0,
				 "%s='", name);
	for (const char *p = value; *p && used + 3 < len; p++) {
		if (*p == '\'')
			buf[used++] = '\'';
		buf[used++] = *p;
	}
	if (used + 3 < len) {
		buf[used++] = '\'';
		buf[used++] = ';';
		buf[used++] = ' ';
		buf[used] = '\0';
	}
}

static void gp_num(char *buf, size_t len, const char *name, double value)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len > used ? len - used : 0, "%s=%.10g; ", name,
		 value);
}

static void put_value(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.6g", v);
	else
		fputs(" NaN", f);
}

/* Label for a bar: name without the suite and a trailing "/0". */
static void short_label(char *buf, size_t len, const struct run_bench *b,
			int keep_variant)
{
	if (keep_variant)
		snprintf(buf, len, "%s/%s", b->op, b->variant);
	else
		snprintf(buf, len, "%s", b->op);
	if (b->size)
		snprintf(buf + strlen(buf), len - strlen(buf), "/%lu", b->size);
	if (b->batch)
		snprintf(buf + strlen(buf), len - strlen(buf), "/%lu", b->batch);
}

static int find_in_path(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;
	int found = 0;

	if (strchr(prog, '/')) {
		snprintf(out, len, "%s", prog);
		return access(out, X_OK) == 0;
	}
	if (!path || !(copy = strdup(path)))
		return 0;
	for (char *dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", *dir ? dir : ".", prog);
		found = access(out, X_OK) == 0;
	}
	free(copy);
	return found;
}

/* plots/ with the .gp scripts: $SMAPBENCH_PLOTS, or next to the program. */
static int find_scripts(char *out, size_t len)
{
	const char *env = getenv("SMAPBENCH_PLOTS");
	char exe[PATH_MAX], test[PATH_MAX + 32];
	ssize_t n;
	static const char *const rel[] = { "/../plots", "/plots", "/../share/smapbench/plots" };

	if (env && *env) {
		snprintf(out, len, "%s", env);
		snprintf(test, sizeof(test), "%s/bars.gp", out);
		return access(test, R_OK) == 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		for (size_t i = 0; i < sizeof(rel) / sizeof(*rel); i++) {
			snprintf(out, len, "%s%s", exe, rel[i]);
			snprintf(test, sizeof(test), "%s/bars.gp", out);
			if (access(test, R_OK) == 0)
				return 1;
		}
	}
	snprintf(out, len, "plots");
	return access("plots/bars.gp", R_OK) == 0;
}

struct plotter {
	const struct run_dir *const *runs;
	size_t nruns;
	const char *tmp;		/* where files are built */
	char gnuplot[PATH_MAX];
	char scripts[PATH_MAX];
	char context[512];
	const char *watermark;
	const char *who;		/* the command, for messages */
	int rendered;
};

static FILE *open_dat(struct plotter *p, const char *name)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.dat", p->tmp, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "smapbench %s: cannot write %s: %s\n", p->who, path,
			strerror(errno));
	return f;
}

static int close_dat(const struct plotter *p, FILE *f, const char *name)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "smapbench %s: writing %s/%s.dat failed: %s\n",
			p->who, p->tmp, name, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

/*
 * Start gnuplot with the stop signals unblocked and default (it must die
 * of them as usual), watched so that our own stop handler can end it
 * before removing the directory it writes into.
 */
static int spawn_watched(struct plotter *p, pid_t *pid, char **argv)
{
	posix_spawnattr_t attr;
	sigset_t none, stop, old;
	int rc;

	sigemptyset(&none);
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &stop);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	sigprocmask(SIG_BLOCK, &stop, &old);
	rc = posix_spawn(pid, p->gnuplot, NULL, &attr, argv, environ);
	if (!rc)
		atomic_dir_watch_child(*pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	posix_spawnattr_destroy(&attr);
	return rc;
}

/* Run gnuplot on script with settings, once per terminal. */
static int gnuplot_run(struct plotter *p, const char *script, const char *name,
		       const char *settings)
{
	static const char *const terms[] = { "png", "svg" };

	for (size_t t = 0; t < 2; t++) {
		char set[8192] = "", path[PATH_MAX + 64], gp[PATH_MAX + 64];
		char *argv[5];
		pid_t pid;
		int status, rc;

		snprintf(path, sizeof(path), "%s/%s", p->tmp, name);
		gp_str(set, sizeof(set), "plotsdir", p->scripts);
		gp_str(set, sizeof(set), "out", path);
		gp_str(set, sizeof(set), "term", terms[t]);
		gp_str(set, sizeof(set), "context", p->context);
		gp_str(set, sizeof(set), "watermark", p->watermark);
		snprintf(path, sizeof(path), "%s/%s.dat", p->tmp, name);
		gp_str(set, sizeof(set), "datafile", path);
		snprintf(set + strlen(set), sizeof(set) - strlen(set), "%s",
			 settings);
		snprintf(gp, sizeof(gp), "%s/%s", p->scripts, script);
		argv[0] = p->gnuplot;
		argv[1] = "-e";
		argv[2] = set;
		argv[3] = gp;
		argv[4] = NULL;
		rc = spawn_watched(p, &pid, argv);
		if (rc) {
			fprintf(stderr, "smapbench %s: cannot run %s: %s\n", p->who,
				p->gnuplot, strerror(rc));
			return -1;
		}
		while ((rc = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		atomic_dir_unwatch_child(pid);
		if (rc < 0) {
			fprintf(stderr, "smapbench %s: waiting for gnuplot: %s\n",
				p->who, strerror(errno));
			return -1;
		}
		if (WIFSIGNALED(status)) {
			fprintf(stderr, "smapbench %s: gnuplot, drawing %s.%s with "
				"%s, was killed by signal %d (%s)\n", p->who, name,
				terms[t], script, WTERMSIG(status),
				strsignal(WTERMSIG(status)));
			return -1;
		}
		if (WEXITSTATUS(status)) {
			fprintf(stderr, "smapbench %s: gnuplot failed drawing %s.%s "
				"with %s/%s (exit status %d; its own message, if "
				"any, is above)\n", p->who, name, terms[t],
				p->scripts, script, WEXITSTATUS(status));
			return -1;
		}
	}
	p->rendered++;
	return 0;
}

/* ------------------------------------------------------------ plots */

/* Bars of selected benchmarks: one cluster per label, one bar per series. */
struct bar_cluster {
	char label[96];
	const struct run_bench *bench[MAX_SERIES];
	double scale[MAX_SERIES];	/* unit conversion; 0 means 1 */
};

/*
 * Room for labels turned by 35 degrees and right-aligned at their tic:
 * below (sin 35 of the longest, in character heights of about two
 * widths) and to the left, where the first labels reach past the axis
 * (cos 35 of their length, less their distance from it).
 */
static void label_margins(char *set, size_t len, const char *const *labels,
			  size_t n, double width_px)
{
	double across = width_px / 7.5, bottom = 9, left = 10, column;
	size_t longest = 0;

	if (!n)
		return;
	column = (across - left - 4) / (double)n;
	for (size_t i = 0; i < n; i++) {
		double reach = 0.75 * (double)strlen(labels[i]) -
			       ((double)i + 0.5) * column;

		if (strlen(labels[i]) > longest)
			longest = strlen(labels[i]);
		if (reach + 2 > left)
			left = reach + 2;
	}
	if (2 + 0.3 * (double)longest > bottom)
		bottom = 2 + 0.3 * (double)longest;
	gp_num(set, len, "bmargin_chars", bottom);
	gp_num(set, len, "lmargin_chars", left);
}

static int bars_write(struct plotter *p, const char *name,
		      const struct bar_cluster *c, size_t n,
		      const char *const *titles, size_t nseries,
		      const char *title, const char *ylabel, int logy)
{
	char set[2048] = "";
	size_t used[MAX_SERIES], nused = 0;
	FILE *f;

	/*
	 * A series with no value in any cluster (inline and nopad on a CPU
	 * without SMAP) is left out: gnuplot refuses an all-NaN column.
	 */
	for (size_t s = 0; s < nseries; s++)
		for (size_t i = 0; i < n; i++)
			if (c[i].bench[s]) {
				used[nused++] = s;
				break;
			}
	if (!nused)
		return 0;
	f = open_dat(p, name);
	if (!f)
		return -1;
	fputs("label", f);
	for (size_t u = 0; u < nused; u++)
		fprintf(f, " \"%s\" low high", titles[used[u]]);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "\"%s\"", c[i].label);
		for (size_t u = 0; u < nused; u++) {
			size_t s = used[u];
			const struct run_bench *b = c[i].bench[s];
			double k = c[i].scale[s] ? c[i].scale[s] : 1;

			put_value(f, b ? k * b->median : NAN);
			put_value(f, b ? k * b->ci_low : NAN);
			put_value(f, b ? k * b->ci_high : NAN);
		}
		fputc('\n', f);
	}
	if (close_dat(p, f, name))
		return -1;
	gp_str(set, sizeof(set), "title", title);
	gp_str(set, sizeof(set), "ylabel", ylabel);
	gp_num(set, sizeof(set), "nseries", (double)nused);
	gp_num(set, sizeof(set), "logy", logy);
	gp_num(set, sizeof(set), "rotate", n > 6);
	if (n > 6) {
		const char *labels[64];

		for (size_t i = 0; i < n && i < 64; i++)
			labels[i] = c[i].label;
		label_margins(set, sizeof(set), labels, n < 64 ? n : 64, 1200);
	}
	return gnuplot_run(p, "bars.gp", name, set);
}

static int cluster_index(struct bar_cluster *c, size_t *n, size_t max,
			 const char *label)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(c[i].label, label))
			return (int)i;
	if (*n == max)
		return -1;
	memset(&c[*n], 0, sizeof(c[*n]));
	snprintf(c[*n].label, sizeof(c[*n].label), "%s", label);
	return (int)(*n)++;
}

/*
 * The ops plot: the catalogue's ops whose iteration is one access or none
 * (not the calib loop), one per access (no block), up to 64 B.
 */
static int in_ops_plot(const struct run_bench *b)
{
	int op = kmod_op_find(b->op), variant = kmod_variant_find(b->variant);

	return !strcmp(b->suite, "kmod") && op >= 0 && variant >= 0 &&
	       op != SMAPBENCH_OP_CALIB && kmod_ops[op].accesses <= 1 &&
	       !kmod_variant_is_block((unsigned)variant) && b->size <= 64;
}

static const char *unit_of(const struct run_dir *const *runs, size_t nruns,
			   const char *suite)
{
	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r]->count; i++)
			if (!strcmp(runs[r]->bench[i].suite, suite))
				return runs[r]->bench[i].unit;
	return "";
}

static int plot_ops(struct plotter *p)
{
	struct bar_cluster c[64];
	size_t n = 0, nseries;
	const char *titles[MAX_SERIES];
	char ylabel[64], title[160];

	if (p->nruns == 1) {
		static const char *const variants[] = { "kapi", "inline", "nopad" };
		const struct run_dir *run = p->runs[0];

		nseries = 3;
		titles[0] = "kapi (or the op alone)";
		titles[1] = "inline";
		titles[2] = "nopad";
		for (size_t i = 0; i < run->count; i++) {
			const struct run_bench *b = &run->bench[i];
			char label[96];
			int k;

			if (!in_ops_plot(b))
				continue;
			short_label(label, sizeof(label), b, 0);
			k = cluster_index(c, &n, 64, label);
			if (k < 0)
				break;
			for (size_t s = 0; s < 3; s++)
				if (!strcmp(b->variant, variants[s]) ||
				    (s == 0 && !strcmp(b->variant, "none")))
					c[k].bench[s] = b;
		}
		snprintf(title, sizeof(title),
			 "Cost per operation by variant (median, 95%% CI) — %s",
			 p->runs[0]->label);
	} else {
		nseries = p->nruns;
		for (size_t r = 0; r < p->nruns; r++)
			titles[r] = run_title(p->runs, p->nruns, r);
		for (size_t r = 0; r < p->nruns; r++)
			for (size_t i = 0; i < p->runs[r]->count; i++) {
				const struct run_bench *b = &p->runs[r]->bench[i];
				char label[96];
				int k;

				if (!in_ops_plot(b) || !strcmp(b->variant, "inline") ||
				    !strcmp(b->variant, "nopad"))
					continue;
				short_label(label, sizeof(label), b, 0);
				k = cluster_index(c, &n, 64, label);
				if (k < 0)
					break;
				c[k].bench[r] = b;
			}
		snprintf(title, sizeof(title),
			 "Cost per operation, kernel API as built (median, 95%% CI): %s vs %s",
			 titles[0], titles[1]);
	}
	if (!n)
		return 0;
	snprintf(ylabel, sizeof(ylabel), "%s per operation",
		 unit_of(p->runs, p->nruns, "kmod"));
	return bars_write(p, "ops", c, n, titles, nseries, title, ylabel, 0);
}

static int plot_sigframe(struct plotter *p)
{
	struct bar_cluster c[8];
	size_t n = 0;
	const char *titles[MAX_SERIES];
	char ylabel[64], title[160];

	for (size_t r = 0; r < p->nruns; r++) {
		titles[r] = run_title(p->runs, p->nruns, r);
		for (size_t i = 0; i < p->runs[r]->count; i++) {
			const struct run_bench *b = &p->runs[r]->bench[i];
			char label[96];
			int k;

			if (strcmp(b->suite, "kmod") ||
			    strcmp(b->op, kmod_ops[SMAPBENCH_OP_SIGFRAME].name))
				continue;
			if (b->batch)
				snprintf(label, sizeof(label), "%s (K=%lu)",
					 b->variant, b->batch);
			else if (!strcmp(b->variant, "kapi"))
				snprintf(label, sizeof(label), "kapi (per field)");
			else if (!strcmp(b->variant, "inline"))
				snprintf(label, sizeof(label), "inline (per field)");
			else if (!strcmp(b->variant, "nopad"))
				snprintf(label, sizeof(label), "nopad (NOPs per field)");
			else
				snprintf(label, sizeof(label), "%s", b->variant);
			k = cluster_index(c, &n, 8, label);
			if (k >= 0)
				c[k].bench[r] = b;
		}
	}
	if (!n)
		return 0;
	snprintf(ylabel, sizeof(ylabel), "%s per signal frame (%u fields)",
		 unit_of(p->runs, p->nruns, "kmod"),
		 kmod_ops[SMAPBENCH_OP_SIGFRAME].accesses);
	snprintf(title, sizeof(title),
		 "Signal frame: STAC/CLAC per field against one pair per frame (median, 95%% CI)");
	return bars_write(p, "sigframe", c, n, titles, p->nruns, title, ylabel, 0);
}

static int plot_syscall(struct plotter *p)
{
	struct bar_cluster c[64];
	int in_ns = 1;
	size_t n = 0;
	const char *titles[MAX_SERIES];
	char ylabel[64];

	for (size_t r = 0; r < p->nruns; r++) {
		titles[r] = run_title(p->runs, p->nruns, r);
		for (size_t i = 0; i < p->runs[r]->count; i++) {
			const struct run_bench *b = &p->runs[r]->bench[i];
			char label[96];
			int k;

			if (strcmp(b->suite, "syscall"))
				continue;
			double ns = rundir_ns_per_unit(p->runs[r], b);

			/* the name without "syscall/": sizes as the run named them */
			snprintf(label, sizeof(label), "%s", b->name + strlen(b->suite) + 1);
			k = cluster_index(c, &n, 64, label);
			if (k < 0)
				continue;
			c[k].bench[r] = b;
			/* nanoseconds when the run says how to convert */
			c[k].scale[r] = isfinite(ns) ? ns : 1;
			in_ns &= isfinite(ns);
		}
	}
	if (!in_ns)	/* one unit for all bars */
		for (size_t i = 0; i < n; i++)
			for (size_t r = 0; r < MAX_SERIES; r++)
				c[i].scale[r] = 1;
	if (!n)
		return 0;
	snprintf(ylabel, sizeof(ylabel), "%s per call (log scale)",
		 in_ns ? "ns" : unit_of(p->runs, p->nruns, "syscall"));
	return bars_write(p, "syscall", c, n, titles, p->nruns,
			  "Syscall suite: paths with STAC/CLAC inside (median, 95% CI)",
			  ylabel, 1);
}

/* Sizes of one suite/op/variant in a run, ascending (size 0 left out). */
static size_t sweep(const struct run_dir *run, const char *suite, const char *op,
		    const char *variant, const struct run_bench **out,
		    size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < run->count && n < max; i++) {
		const struct run_bench *b = &run->bench[i];
		size_t k;

		if (strcmp(b->suite, suite) || strcmp(b->op, op) ||
		    strcmp(b->variant, variant) || b->batch || !b->size)
			continue;
		for (k = n++; k > 0 && out[k - 1]->size > b->size; k--)
			out[k] = out[k - 1];
		out[k] = b;
	}
	return n;
}

static void sweep_block(FILE *f, const struct run_bench *const *s, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "%lu", s[k]->size);
		put_value(f, s[k]->median);
		put_value(f, s[k]->ci_low);
		put_value(f, s[k]->ci_high);
		fputc('\n', f);
	}
	if (!n)	/* keep block numbering: one invisible point */
		fputs("1 NaN NaN NaN\n", f);
	fputs("\n\n", f);
}

/* Percent share: 100 * (x - base) / base with a bootstrap CI. */
static int share_block(FILE *f, const struct run_bench *const *x,
		       const struct run_bench *const *base, size_t n,
		       int *all_positive, double *min_share)
{
	size_t rows = 0;

	for (size_t k = 0; k < n; k++) {
		double v, lo = NAN, hi = NAN;

		if (!x[k] || !base[k] || !(base[k]->median > 0))
			continue;
		v = 100 * (x[k]->median - base[k]->median) / base[k]->median;
		if (x[k]->count >= COMPARE_MIN_VALUES &&
		    base[k]->count >= COMPARE_MIN_VALUES) {
			if (compare_bootstrap_diff(base[k]->values, base[k]->count, 1,
						   x[k]->values, x[k]->count, 1,
						   STATS_BOOTSTRAP_RESAMPLES, 0.95,
						   COMPARE_DEFAULT_SEED, &lo, &hi))
				return -1;
			lo = 100 * lo / base[k]->median;
			hi = 100 * hi / base[k]->median;
		}
		if (!(v > 0))
			*all_positive = 0;
		else if (v < *min_share)
			*min_share = v;
		fprintf(f, "%lu", x[k]->size);
		put_value(f, v);
		put_value(f, lo);
		put_value(f, hi);
		fputc('\n', f);
		rows++;
	}
	if (!rows)
		fputs("1 NaN NaN NaN\n", f);
	fputs("\n\n", f);
	return 0;
}

/* The sibling of b at the same size in a list, or NULL. */
static const struct run_bench *at_size(const struct run_bench *const *s,
				       size_t n, unsigned long size)
{
	for (size_t k = 0; k < n; k++)
		if (s[k]->size == size)
			return s[k];
	return NULL;
}

/* Benchmarks of op, variant and size, ascending in batch (K >= 1). */
static size_t batch_sweep(const struct run_dir *run, const char *op,
			  unsigned long size, const struct run_bench **out,
			  size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < run->count && n < max; i++) {
		const struct run_bench *b = &run->bench[i];
		size_t k;

		if (strcmp(b->suite, "kmod") || strcmp(b->op, op) ||
		    strcmp(b->variant, "batched") || !b->batch || b->size != size)
			continue;
		for (k = n++; k > 0 && out[k - 1]->batch > b->batch; k--)
			out[k] = out[k - 1];
		out[k] = b;
	}
	return n;
}

/*
 * Cost per access against K, the accesses per STAC/CLAC pair: the batched
 * block divided by K, and the kernel API (a pair per access) as a dashed
 * reference level. One panel per op that has at least two K.
 */
static int plot_batch(struct plotter *p)
{
	const char *ops[4];
	unsigned long sizes[4];
	size_t nops = 0;
	char opsw[128] = "", titles[256] = "", styles[32] = "", colourof[32] = "";
	char set[2048] = "", ylabel[64];
	FILE *f;

	/* ops with a batched sweep in the first run, at their largest size */
	for (size_t i = 0; i < p->runs[0]->count && nops < 4; i++) {
		const struct run_bench *b = &p->runs[0]->bench[i], *s[64];
		size_t k;

		if (strcmp(b->suite, "kmod") || strcmp(b->variant, "batched"))
			continue;
		for (k = 0; k < nops && strcmp(ops[k], b->op); k++)
			;
		if (k < nops) {
			if (b->size > sizes[k])
				sizes[k] = b->size;
			continue;
		}
		if (batch_sweep(p->runs[0], b->op, b->size, s, 64) < 2)
			continue;
		ops[nops] = b->op;
		sizes[nops++] = b->size;
	}
	if (!nops)
		return 0;
	f = open_dat(p, "batch");
	if (!f)
		return -1;
	for (size_t j = 0; j < nops; j++) {
		snprintf(opsw + strlen(opsw), sizeof(opsw) - strlen(opsw),
			 "%s%s/%lu", j ? " " : "", ops[j], sizes[j]);
		/* batched series of every run, then the kapi references */
		for (int ref = 0; ref < 2; ref++)
			for (size_t r = 0; r < p->nruns; r++) {
				const struct run_bench *s[64];
				const struct bench_key key = { "kmod", ops[j], "kapi",
							       sizes[j], 0 };
				const struct run_bench *kapi = bench_match(p->runs[r], &key);
				size_t n = batch_sweep(p->runs[r], ops[j], sizes[j], s, 64);
				size_t rows = 0;

				for (size_t k = 0; k < n; k++) {
					const struct run_bench *b = ref ? kapi : s[k];
					/* per access: a block is K items */
					double per = b ? (double)kmod_row_accesses(b->op,
							b->variant, b->batch) : 0;

					if (!(per > 0))
						continue;
					fprintf(f, "%lu", s[k]->batch);
					put_value(f, b->median / per);
					put_value(f, b->ci_low / per);
					put_value(f, b->ci_high / per);
					fputc('\n', f);
					rows++;
				}
				if (!rows)
					fputs("1 NaN NaN NaN\n", f);
				fputs("\n\n", f);
			}
	}
	if (close_dat(p, f, "batch"))
		return -1;
	for (int ref = 0; ref < 2; ref++)
		for (size_t r = 0; r < p->nruns; r++) {
			size_t used = strlen(titles);

			if (p->nruns == 1)
				snprintf(titles + used, sizeof(titles) - used, "%s",
					 ref ? " kapi" : "batched");
			else
				snprintf(titles + used, sizeof(titles) - used,
					 "%s%s:%s", used ? " " : "",
					 run_title(p->runs, p->nruns, r),
					 ref ? "kapi" : "batched");
			snprintf(styles + strlen(styles), sizeof(styles) - strlen(styles),
				 "%s%s", strlen(styles) ? " " : "", ref ? "d" : "l");
			snprintf(colourof + strlen(colourof),
				 sizeof(colourof) - strlen(colourof), "%s%zu",
				 strlen(colourof) ? " " : "",
				 p->nruns == 1 ? (size_t)ref + 1 : r + 1);
		}
	snprintf(ylabel, sizeof(ylabel), "%s per access",
		 unit_of(p->runs, p->nruns, "kmod"));
	gp_str(set, sizeof(set), "title",
	       "Cost per access against accesses per STAC/CLAC pair (median, 95% CI)");
	gp_str(set, sizeof(set), "ops", opsw);
	gp_str(set, sizeof(set), "titles", titles);
	gp_str(set, sizeof(set), "styles", styles);
	gp_str(set, sizeof(set), "colourof", colourof);
	gp_str(set, sizeof(set), "xlabel", "K, accesses per STAC/CLAC pair");
	gp_str(set, sizeof(set), "ylabel", ylabel);
	gp_str(set, sizeof(set), "keypos", "top right");
	gp_num(set, sizeof(set), "nseries", 2.0 * (double)p->nruns);
	gp_num(set, sizeof(set), "height", 560);
	return gnuplot_run(p, "sweep.gp", "batch", set);
}

/* Whether any run has a benchmark of this suite and op. */
static int has_op(const struct plotter *p, const char *suite, const char *op)
{
	for (size_t r = 0; r < p->nruns; r++)
		for (size_t i = 0; i < p->runs[r]->count; i++)
			if (!strcmp(p->runs[r]->bench[i].suite, suite) &&
			    !strcmp(p->runs[r]->bench[i].op, op))
				return 1;
	return 0;
}

/*
 * bpf suite: ns per access against size, one panel per mode (syscall,
 * raw_tp, raw_tp_ipi). One run: every op, the derived overhead
 * (user_read - kernel_memmove) dashed. Two runs: user_read and overhead
 * of each run.
 */
static int plot_bpf(struct plotter *p)
{
	static const char *const ops_one[] = {
		"user_read", "kernel_memmove", "kernel_read", "user_read_str",
		"kernel_read_str", "copy_from_user", "overhead",
	};
	static const char *const ops_two[] = { "overhead", "user_read" };
	const char *modes[4];
	size_t nmodes = 0, nseries = 0;
	char modesw[64] = "", titles[256] = "", styles[64] = "",
	     colourof[64] = "", set[2048] = "";
	FILE *f;

	for (size_t i = 0; i < p->runs[0]->count && nmodes < 4; i++) {
		const struct run_bench *b = &p->runs[0]->bench[i];
		size_t k;

		if (strcmp(b->suite, "bpf") || !b->size)
			continue;
		for (k = 0; k < nmodes && strcmp(modes[k], b->variant); k++)
			;
		if (k == nmodes)
			modes[nmodes++] = b->variant;
	}
	if (!nmodes)
		return 0;
	f = open_dat(p, "bpf");
	if (!f)
		return -1;
	for (size_t j = 0; j < nmodes; j++) {
		snprintf(modesw + strlen(modesw), sizeof(modesw) - strlen(modesw),
			 "%s%s", j ? " " : "", modes[j]);
		for (size_t o = 0; o < (p->nruns == 1 ? 7 : 2); o++) {
			const char *op = p->nruns == 1 ? ops_one[o] : ops_two[o];

			if (!has_op(p, "bpf", op))
				continue;
			for (size_t r = 0; r < p->nruns; r++) {
				const struct run_bench *s[64];
				size_t n = sweep(p->runs[r], "bpf", op, modes[j], s, 64);

				sweep_block(f, (const struct run_bench *const *)s, n);
				if (j)
					continue;
				snprintf(titles + strlen(titles), sizeof(titles) - strlen(titles),
					 "%s%s%s%s", nseries ? " " : "",
					 p->nruns == 1 ? "" : run_title(p->runs, 2, r),
					 p->nruns == 1 ? "" : ":", op);
				snprintf(styles + strlen(styles), sizeof(styles) - strlen(styles),
					 "%s%s", nseries ? " " : "",
					 !strcmp(op, "overhead") == (p->nruns == 1) ? "d" : "l");
				snprintf(colourof + strlen(colourof),
					 sizeof(colourof) - strlen(colourof), "%s%zu",
					 nseries ? " " : "",
					 p->nruns == 1 ? (o == 6 ? 8 : o + 1) : r + 1);
				nseries++;
			}
		}
	}
	if (close_dat(p, f, "bpf"))
		return -1;
	gp_str(set, sizeof(set), "title",
	       "bpf suite: user against kernel reads in ring 0, per access (median, 95% CI)");
	gp_str(set, sizeof(set), "ops", modesw);
	gp_str(set, sizeof(set), "titles", titles);
	gp_str(set, sizeof(set), "styles", styles);
	gp_str(set, sizeof(set), "colourof", colourof);
	gp_str(set, sizeof(set), "xlabel", "bytes per access");
	gp_str(set, sizeof(set), "ylabel", "ns per access (log scale)");
	gp_num(set, sizeof(set), "nseries", (double)nseries);
	gp_num(set, sizeof(set), "height", 620);
	return gnuplot_run(p, "sweep.gp", "bpf", set);
}

static int plot_copy(struct plotter *p)
{
	const char *const ops_all[] = {
		kmod_ops[SMAPBENCH_OP_COPY_TO_USER].name,
		kmod_ops[SMAPBENCH_OP_COPY_FROM_USER].name,
	};
	const char *ops[2];
	size_t nops = 0, nseries;
	char opsw[64] = "", titles[128] = "", pcttitles[64], set[2048] = "";
	char ylabel[64];
	int positive = 1;
	double min_share = INFINITY;
	FILE *f, *g;

	for (size_t j = 0; j < 2; j++) {
		const struct run_bench *s[64];

		for (size_t r = 0; r < p->nruns; r++)
			if (sweep(p->runs[r], "kmod", ops_all[j], "kapi", s, 64) +
			    sweep(p->runs[r], "kmod", ops_all[j], "inline", s, 64) >= 2) {
				ops[nops++] = ops_all[j];
				break;
			}
	}
	if (!nops)
		return 0;
	f = open_dat(p, "copy");
	g = open_dat(p, "copy-share");
	if (!f || !g) {
		if (f)
			fclose(f);
		if (g)
			fclose(g);
		return -1;
	}
	for (size_t j = 0; j < nops; j++) {
		const struct run_bench *s[MAX_RUNS][3][64];
		size_t n[MAX_RUNS][3];
		static const char *const variants[] = { "kapi", "inline", "nopad" };

		snprintf(opsw + strlen(opsw), sizeof(opsw) - strlen(opsw), "%s%s",
			 j ? " " : "", ops[j]);
		for (size_t r = 0; r < p->nruns; r++)
			for (size_t v = 0; v < 3; v++)
				n[r][v] = sweep(p->runs[r], "kmod", ops[j], variants[v],
						 s[r][v], 64);
		if (p->nruns == 1) {
			const struct run_bench *in[64], *nop[64];

			for (size_t v = 0; v < 3; v++)
				sweep_block(f, s[0][v], n[0][v]);
			for (size_t k = 0; k < n[0][1]; k++) {
				in[k] = s[0][1][k];
				nop[k] = at_size(s[0][2], n[0][2], in[k]->size);
			}
			if (share_block(g, in, nop, n[0][1], &positive, &min_share))
				goto fail;
		} else {
			const struct run_bench *x[64], *base[64];

			for (size_t r = 0; r < p->nruns; r++)
				sweep_block(f, s[r][0], n[r][0]);
			for (size_t k = 0; k < n[1][0]; k++) {
				x[k] = s[1][0][k];
				base[k] = at_size(s[0][0], n[0][0], x[k]->size);
			}
			if (share_block(g, x, base, n[1][0], &positive, &min_share))
				goto fail;
		}
	}
	if (close_dat(p, f, "copy") | close_dat(p, g, "copy-share"))
		return -1;
	if (p->nruns == 1) {
		nseries = 3;
		snprintf(titles, sizeof(titles), "kapi inline nopad");
		snprintf(pcttitles, sizeof(pcttitles), "inline-nopad");
		gp_str(set, sizeof(set), "pctlabel", "pair cost (inline − nopad) / nopad");
	} else {
		nseries = p->nruns;
		snprintf(titles, sizeof(titles), "%s %s", run_title(p->runs, 2, 0),
			 run_title(p->runs, 2, 1));
		snprintf(pcttitles, sizeof(pcttitles), "%s−%s",
			 run_title(p->runs, 2, 1), run_title(p->runs, 2, 0));
		gp_str(set, sizeof(set), "pctlabel", "kapi difference as a share of the copy");
	}
	snprintf(ylabel, sizeof(ylabel), "%s per copy",
		 unit_of(p->runs, p->nruns, "kmod"));
	gp_str(set, sizeof(set), "title",
	       p->nruns == 1 ? "User copies against size (median, 95% CI)"
			     : "User copies against size, kernel API as built (median, 95% CI)");
	gp_str(set, sizeof(set), "ylabel", ylabel);
	gp_str(set, sizeof(set), "titles", titles);
	gp_str(set, sizeof(set), "pcttitles", pcttitles);
	gp_str(set, sizeof(set), "ops", opsw);
	gp_num(set, sizeof(set), "nseries", (double)nseries);
	gp_num(set, sizeof(set), "npct", 1);
	gp_num(set, sizeof(set), "pctlog", positive);
	if (positive && isfinite(min_share))
		gp_num(set, sizeof(set), "pctmin", min_share / 4);
	{
		char path[PATH_MAX + 64];

		snprintf(path, sizeof(path), "%s/copy-share.dat", p->tmp);
		gp_str(set, sizeof(set), "pctfile", path);
	}
	return gnuplot_run(p, "sweep.gp", "copy", set);
fail:
	fclose(f);
	fclose(g);
	return -1;
}

static int plot_dist(struct plotter *p)
{
	const struct bench_key *headline = headline_benchmarks();
	char names[1024] = "", units[512] = "", titles[128] = "", set[4096] = "";
	size_t nb = 0;
	FILE *f = NULL;

	/* at most 9 panels (3 x 3): the first headline rows the runs have */
	for (size_t h = 0; headline[h].suite && nb < 9; h++) {
		const struct run_bench *b[MAX_RUNS] = { 0 };
		const char *name = NULL;
		int any = 1;

		/* every run needs samples: gnuplot cannot draw an empty box */
		for (size_t r = 0; r < p->nruns; r++) {
			b[r] = bench_match(p->runs[r], &headline[h]);
			any &= b[r] && b[r]->count > 0;
			if (b[r] && !name)
				name = b[r]->name;
		}
		if (!any)
			continue;
		if (!f && !(f = open_dat(p, "dist")))
			return -1;
		for (size_t r = 0; r < p->nruns; r++)
			for (size_t k = 0; b[r] && k < b[r]->count; k++)
				fprintf(f, "%zu %.6g\n", r + 1, b[r]->values[k]);
		fputs("\n\n", f);
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", nb ? " " : "", name);
		for (size_t r = 0; r < p->nruns; r++)
			if (b[r]) {
				snprintf(units + strlen(units),
					 sizeof(units) - strlen(units), "%s%s",
					 nb ? " " : "", b[r]->unit);
				break;
			}
		nb++;
	}
	if (!nb)
		return 0;
	if (close_dat(p, f, "dist"))
		return -1;
	for (size_t r = 0; r < p->nruns; r++)
		snprintf(titles + strlen(titles), sizeof(titles) - strlen(titles),
			 "%s%s", r ? " " : "", run_title(p->runs, p->nruns, r));
	gp_str(set, sizeof(set), "title",
	       "Sample distributions (box: quartiles, whiskers: 1.5 IQR, dots: single samples)");
	gp_str(set, sizeof(set), "names", names);
	gp_str(set, sizeof(set), "units", units);
	gp_str(set, sizeof(set), "titles", titles);
	/* about 280 pixels per row of three panels */
	gp_num(set, sizeof(set), "height", 240 + 280 * (double)((nb + 2) / 3));
	gp_num(set, sizeof(set), "nseries", (double)p->nruns);
	return gnuplot_run(p, "dist.gp", "dist", set);
}

/*
 * Two runs: (B - A) / A in percent with the bootstrap CI, per benchmark
 * of one suite (kmod: the kernel API and the bare instructions).
 */
static int plot_delta(struct plotter *p, const char *suite, const char *name)
{
	const struct run_dir *a, *b;
	char set[2048] = "", title[256], ylabel[96];
	size_t n = 0;
	const char *labels[256];
	FILE *f;

	if (p->nruns != 2)
		return 0;
	a = p->runs[0];
	b = p->runs[1];
	f = open_dat(p, name);
	if (!f)
		return -1;
	fprintf(f, "label \"%s vs %s\" low high\n", run_title(p->runs, 2, 1),
		run_title(p->runs, 2, 0));
	for (size_t i = 0; i < a->count; i++) {
		const struct run_bench *x = &a->bench[i], *y;
		double rel, lo = NAN, hi = NAN;

		/* what changes between boots: the kernel API, syscalls */
		if (strcmp(x->suite, suite) || (!strcmp(suite, "kmod") &&
		    (x->batch || kmod_op_find(x->op) == SMAPBENCH_OP_CALIB ||
		     (strcmp(x->variant, "kapi") && strcmp(x->variant, "none")))))
			continue;
		/* bpf: only the derived user - kernel rows, the SMAP-related ones */
		if (!strcmp(suite, "bpf") && !strstr(x->op, "overhead"))
			continue;
		y = rundir_find(b, x->name);
		if (!y || strcmp(x->unit, y->unit) || !(x->median > 0))
			continue;
		rel = 100 * (y->median - x->median) / x->median;
		if (x->count >= COMPARE_MIN_VALUES && y->count >= COMPARE_MIN_VALUES) {
			if (compare_bootstrap_diff(x->values, x->count, 1, y->values,
						   y->count, 1, STATS_BOOTSTRAP_RESAMPLES,
						   0.95, COMPARE_DEFAULT_SEED, &lo, &hi)) {
				fclose(f);
				return -1;
			}
			lo = 100 * lo / x->median;
			hi = 100 * hi / x->median;
		}
		fprintf(f, "\"%s\"", x->name + strlen(x->suite) + 1);
		if (n < 256)
			labels[n] = x->name + strlen(x->suite) + 1;
		put_value(f, rel);
		put_value(f, lo);
		put_value(f, hi);
		fputc('\n', f);
		n++;
	}
	if (close_dat(p, f, name))
		return -1;
	if (!n) {	/* nothing of this suite: no plot, no empty input */
		char path[PATH_MAX + 64];

		snprintf(path, sizeof(path), "%s/%s.dat", p->tmp, name);
		unlink(path);
		return 0;
	}
	snprintf(title, sizeof(title),
		 "%s against %s: difference of medians, %s (95%% CI)",
		 run_title(p->runs, 2, 1), run_title(p->runs, 2, 0),
		 !strcmp(suite, "kmod") ? "kmod suite, kernel API" :
		 !strcmp(suite, "bpf") ? "bpf suite, user - kernel overhead" : "syscall suite");
	snprintf(ylabel, sizeof(ylabel), "(%s - %s) / %s, percent",
		 run_title(p->runs, 2, 1), run_title(p->runs, 2, 0),
		 run_title(p->runs, 2, 0));
	gp_str(set, sizeof(set), "title", title);
	gp_str(set, sizeof(set), "ylabel", ylabel);
	gp_num(set, sizeof(set), "nseries", 1);
	gp_num(set, sizeof(set), "signed", 1);
	gp_num(set, sizeof(set), "rotate", 1);
	gp_num(set, sizeof(set), "width", n > 30 ? 1600 : 1200);
	label_margins(set, sizeof(set), labels, n < 256 ? n : 256,
		      n > 30 ? 1600 : 1200);
	return gnuplot_run(p, "bars.gp", name, set);
}

/* ------------------------------------------------------------ driver */

int plots_render(const char *who, const struct run_dir *const *runs,
		 size_t nruns, const char *dir)
{
	struct plotter p = { .runs = runs, .nruns = nruns, .watermark = "",
			     .who = who };
	struct atomic_dir out;
	char final[PATH_MAX + 8], err[PATH_MAX + 256];
	const char *gp = getenv("SMAPBENCH_GNUPLOT");

	if (!find_in_path(gp && *gp ? gp : "gnuplot", p.gnuplot,
			  sizeof(p.gnuplot))) {
		fprintf(stderr,
			"smapbench %s: gnuplot not found%s%s; no plots written. "
			"Install it (apt-get install gnuplot-nox) and run "
			"'smapbench plot' again\n", who,
			gp && *gp ? " at " : " in PATH", gp && *gp ? gp : "");
		return 1;
	}
	if (!find_scripts(p.scripts, sizeof(p.scripts))) {
		fprintf(stderr,
			"smapbench %s: the gnuplot scripts (plots/*.gp) are not "
			"next to the program; set SMAPBENCH_PLOTS to their "
			"directory\n", who);
		return 1;
	}
	{
		char abs[PATH_MAX];

		if (realpath(p.scripts, abs))
			memcpy(p.scripts, abs, sizeof(abs));
	}
	if (nruns == 1)
		context_line(p.context, sizeof(p.context), runs[0]);
	else
		context_line2(p.context, sizeof(p.context), runs[0], runs[1]);
	for (size_t r = 0; r < nruns; r++)
		if (!strcmp(rundir_context_or(runs[r], "virt", ""), "tcg"))
			p.watermark = "functional only (TCG)";

	/* Built beside DIR/plots, swapped in only when every plot rendered. */
	snprintf(final, sizeof(final), "%s/plots", dir);
	if (atomic_dir_begin(&out, final, &atomic_dir_plots, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: no plots written: %s\n", who, err);
		return 1;
	}
	p.tmp = out.tmp;
	if (plot_ops(&p) || plot_copy(&p) || plot_sigframe(&p) ||
	    plot_batch(&p) || plot_dist(&p) || plot_syscall(&p) || plot_bpf(&p) ||
	    plot_delta(&p, "kmod", "delta-kmod") ||
	    plot_delta(&p, "syscall", "delta-syscall") ||
	    plot_delta(&p, "bpf", "delta-bpf")) {
		atomic_dir_abort(&out);
		return 1;
	}
	if (!p.rendered) {
		atomic_dir_abort(&out);
		return PLOTS_NONE;
	}
	if (atomic_dir_commit(&out, err, sizeof(err))) {
		fprintf(stderr, "smapbench %s: %s\n", who, err);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ command */

static void plot_usage(FILE *f)
{
	fputs("usage: smapbench plot RUN\n"
	      "\n"
	      "Renders RUN's results into RUN/plots/ (PNG and SVG, and the .dat\n"
	      "files they were drawn from): cost per op by variant, copy size\n"
	      "sweep, signal frame, sample distributions, syscall suite.\n"
	      "Needs gnuplot; RUN/plots/ is replaced only when every plot rendered,\n"
	      "and only when smapbench wrote it (a plots/ holding other files is\n"
	      "left alone).\n",
	      f);
}

int cmd_plot(int argc, char **argv)
{
	struct run_dir run;
	const struct run_dir *runs[1] = { &run };
	char err[512];
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		plot_usage(stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		if (argc < 2)
			fprintf(stderr, "smapbench plot: needs a run directory\n\n");
		else if (argv[1][0] == '-')
			fprintf(stderr, "smapbench plot: unknown option '%s'\n\n",
				argv[1]);
		else
			fprintf(stderr, "smapbench plot: takes one run, got %d "
				"arguments\n\n", argc - 1);
		plot_usage(stderr);
		return EXIT_USAGE;
	}
	atomic_dir_cleanup_on_signals();
	if (rundir_load(argv[1], &run, err, sizeof(err))) {
		fprintf(stderr, "smapbench plot: %s\n", err);
		return 1;
	}
	if (run.from_json) {
		fprintf(stderr, "smapbench plot: %s: plots need a run directory with results.csv\n",
			argv[1]);
		rundir_free(&run);
		return 1;
	}
	rc = plots_render("plot", runs, 1, run.path);
	if (rc == PLOTS_NONE)
		fprintf(stderr, "smapbench plot: nothing to plot in %s: no kmod, "
			"syscall or bpf results\n", run.path);
	else if (!rc)
		printf("plots: %s/plots/\n", run.path);
	rundir_free(&run);
	return rc ? 1 : 0;
}
