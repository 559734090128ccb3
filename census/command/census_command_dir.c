// SPDX-License-Identifier: GPL-2.0
/*
 * census_command_dir.c - the census directory of a command, put in place
 * whole: its files (census_command_data.h), each boot's plugin output
 * under raw/, and its name, by host, date and the command
 * (census_command.h).
 *
 * Everything in it is made from the plugin's rows (census_load_plugin_output)
 * and the inputs, so a directory's files follow from its raw/ and
 * context.csv.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "census/command/census_command_data.h"
#include "rundata/atomic_dir.h"
#include "rundata/rundir.h"

/* The command as one line: arguments quoted for a shell where needed. */
static void command_text(char *const *argv, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (char *const *a = argv; *a && used + 4 < len; a++) {
		int plain = **a != '\0';

		for (const char *p = *a; *p; p++)
			plain &= !!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%^", *p);
		if (used)
			out[used++] = ' ';
		if (plain) {
			used += (size_t)snprintf(out + used, len - used, "%s", *a);
		} else {
			out[used++] = '\'';
			for (const char *p = *a; *p && used + 6 < len; p++) {
				if (*p == '\'') {
					memcpy(out + used, "'\\''", 4);
					used += 4;
				} else {
					out[used++] = *p;
				}
			}
			out[used++] = '\'';
		}
		if (used >= len)
			used = len - 1;
		out[used] = '\0';
	}
}

static const struct atomic_dir_kind census_command_dir = { .name = "census-command" };

/* The command's program, as a directory name's last part. */
static void name_part(char *const *argv, char *out, size_t len)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	size_t n = 0;

	for (const char *p = base; *p && n + 1 < len && n < 32; p++)
		out[n++] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p) ?
			   *p : '_';
	out[n] = '\0';
	if (!n || out[0] == '.' || out[0] == '-')
		snprintf(out, len, "command");
}

int census_command_write_dir(const struct census *census,
			     const struct census_boot_file *files, size_t nfiles,
			     const struct census_command_inputs *in,
			     const char *out, char *written, size_t writtenlen,
			     FILE *summary, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		atomic_dir_writer *write;
	} tables[] = {
		{ "census.csv", census_command_write_census_csv },
		{ "sites.csv", census_command_write_sites_csv },
		{ "syscalls.csv", census_command_write_syscalls_csv },
		{ "context.csv", census_command_write_context },
	};
	struct command_census cc;
	struct atomic_dir dir;
	char command[4096], name[512], host[256] = "", date[64], part[40],
	     state[64], path[PATH_MAX + 64];
	struct outputs o = {
		.census = census, .cc = &cc, .in = in, .command = command,
		.date = in->date, .host = in->host,
	};
	time_t now = time(NULL);

	if (!o.date) {
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		o.date = date;
	}
	if (!o.host) {
		gethostname(host, sizeof(host) - 1);
		o.host = host;
	}

	if (nfiles != census->nboots) {
		snprintf(err, errlen, "%zu plugin outputs for %zu boots", nfiles,
			 census->nboots);
		return -1;
	}
	if (census_command_derive(census, files, in, &cc, err, errlen))
		return -1;
	command_text(in->argv, command, sizeof(command));
	if (atomic_dir_begin_in(&dir, out, &census_command_dir, err, errlen))
		goto fail_early;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (atomic_dir_write(&dir, tables[i].name, tables[i].write, &o,
				     err, errlen))
			goto fail;
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir.tmp, i ? "plots" : "raw");
		if (mkdir(path, 0777)) {
			snprintf(err, errlen, "cannot create %.900s: %s", path,
				 strerror(errno));
			goto fail;
		}
	}
	for (size_t i = 0; i < nfiles; i++) {
		char raw[600], kernel[256] = "";

		sscanf(census->boots[i], "%255s %63s", kernel, state);
		snprintf(raw, sizeof(raw), "raw/%s-%s.tsv", kernel, state);
		if (atomic_dir_copy_in(&dir, files[i].path, raw, err, errlen))
			goto fail;
	}
	if (!atomic_dir_write(&dir, "plots/census-sites.dat",
			      census_command_write_plot_data, &o, err, errlen))
		o.has_plot = !census_command_render_plot(dir.tmp, &o);
	else
		fprintf(stderr, "smapbench census: no window above the baseline in a SMAP boot: no plot\n");
	if (atomic_dir_write(&dir, "report.md", census_command_write_report, &o, err, errlen))
		goto fail;
	name_part(in->argv, part, sizeof(part));
	snprintf(state, sizeof(state), "census-%s", part);
	if (run_dir_name_dated(name, sizeof(name), o.host, o.date, state)) {
		snprintf(err, errlen, "the date '%s' is not YYYY-mm-ddTHH:MM:SSZ", o.date);
		goto fail;
	}
	if (atomic_dir_commit_new(&dir, out, name, err, errlen))
		goto fail_early;
	snprintf(written, writtenlen, "%s", dir.target);
	if (summary)
		census_command_print_summary(&o, summary);
	census_command_free_derived(&cc);
	return 0;
fail:
	atomic_dir_abort(&dir);
fail_early:
	census_command_free_derived(&cc);
	return -1;
}

