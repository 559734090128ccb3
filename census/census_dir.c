// SPDX-License-Identifier: GPL-2.0
/*
 * census_dir.c - a census run directory: census.csv, census-sites.csv,
 * context.csv, the plugin's raw output of each boot under raw/ and the
 * plot under plots/; see census.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/gnuplot.h"
#include "census/census.h"
#include "rundata/atomic_dir.h"
#include "rundata/rundir.h"
#include "system/version.h"

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

/* A file of the census directory: which of census.h's writers makes it. */
struct census_file {
	int (*write)(const struct census *c, FILE *f);
	const struct census *c;
};

static int write_census_file(FILE *f, const void *arg)
{
	const struct census_file *file = arg;

	return file->write(file->c, f);
}

/*
 * The census directory: its own kind of output, never replaced (a new
 * one takes a new name), marked "smapbench census".
 */
static const struct atomic_dir_kind census_dir = { .name = "census" };

int census_write_dir(const struct census *census, char **files, int nfiles,
		     const char *out, char *written, size_t writtenlen,
		     char *err, size_t errlen)
{
	struct atomic_dir dir;
	static const char *const subdirs[] = { "raw", "plots" };
	char name[512], host[256] = "", path[PATH_MAX + 64];
	size_t kernels = 0;

	if (atomic_dir_begin_in(&dir, out, &census_dir, err, errlen))
		return -1;
	if (atomic_dir_write(&dir, "census.csv", write_census_file,
			     &(struct census_file){ census_write_csv, census },
			     err, errlen) ||
	    atomic_dir_write(&dir, "census-sites.csv", write_census_file,
			     &(struct census_file){ census_write_sites_csv, census },
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
		if (atomic_dir_copy_in(&dir, strchr(files[i], '=') + 1, raw,
				       err, errlen))
			goto fail;
	}
	if (atomic_dir_write(&dir, "plots/census-pairs.dat", write_census_file,
			     &(struct census_file){ census_write_plot_data, census },
			     err, errlen)) {
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
	snprintf(written, writtenlen, "%s", dir.target);
	return 0;
fail:
	atomic_dir_abort(&dir);
	return -1;
}
