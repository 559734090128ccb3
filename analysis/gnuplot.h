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
/* Append var=value; ("%.10g"). */
void gnuplot_set_number(char *settings, size_t len, const char *var,
			double value);

#endif /* SMAPBENCH_GNUPLOT_H */
