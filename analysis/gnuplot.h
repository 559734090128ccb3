/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gnuplot.h - running gnuplot on the scripts in plots/: finding both,
 * passing variables with -e, drawing one PNG and one SVG per call.
 *
 * gnuplot runs in the C.UTF-8 locale whatever the caller's: the scripts
 * are UTF-8 (set encoding utf8), and under LC_ALL=C gnuplot warns once
 * per plot that it cannot convert the degree sign.
 */
#ifndef SMAPBENCH_GNUPLOT_H
#define SMAPBENCH_GNUPLOT_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct gnuplot {
	char program[PATH_MAX];	/* $SMAPBENCH_GNUPLOT, or gnuplot in PATH */
	char scripts[PATH_MAX];	/* plots/, absolute */
	char **env;		/* the environment, LC_ALL=C.UTF-8 */
};

/*
 * Find gnuplot and the scripts ($SMAPBENCH_PLOTS, or plots/ next to the
 * program). 0, or -1 after saying why on stderr as "smapbench WHO: ...".
 */
int gnuplot_find(struct gnuplot *gp, const char *who);
void gnuplot_free(struct gnuplot *gp);
/*
 * Draw dir/name.png and dir/name.svg from dir/name.dat with
 * scripts/script, the variables of settings set first (and plotsdir,
 * out, term, datafile). A stop signal ends gnuplot too (atomic_dir.h).
 * 0, or -1 after saying why, naming the plot and the script.
 */
int gnuplot_draw(const struct gnuplot *gp, const char *who,
		 const char *script, const char *dir, const char *name,
		 const char *settings);

/* Append the assignment var='value'; (quotes doubled) to settings. */
void gnuplot_set_string(char *settings, size_t len, const char *var,
			const char *value);
/*
 * A run's text (a host, a CPU model, a benchmark name) as a double-quoted
 * string in a data file, at most max bytes of it: a double quote becomes
 * ', a backslash /, a control byte a space, so that no text of a run can
 * end the string or the line.
 */
void gnuplot_data_string(FILE *f, const char *s, size_t max);
/* The same without the quotes, for a string made of several texts. */
void gnuplot_data_text(FILE *f, const char *s, size_t max);
/* Append var=value; ("%.10g"). */
void gnuplot_set_number(char *settings, size_t len, const char *var,
			double value);

#endif /* SMAPBENCH_GNUPLOT_H */
