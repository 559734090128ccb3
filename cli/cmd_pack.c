// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_pack.c - `smapbench pack RUN [--out FILE]`: a run directory as one
 * checked archive (archive/pack.h) to send to whoever keeps the cross-CPU
 * table.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "archive/pack.h"
#include "archive/run_archive.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "rundata/atomic_dir.h"

struct pack_options {
	const char *out;
};

static const struct option_def pack_options[] = {
	OPT_TEXT("out", "FILE", struct pack_options, out, "file name",
		 "where to write the archive (default: NAME.smapbench.tar here)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table pack_table = {
	.command = "pack",
	.synopsis = "RUN [--out FILE]",
	.about = "Writes RUN (a directory of `smapbench run`) as one POSIX tar archive,\n"
		 "NAME.smapbench.tar in the current directory (NAME: RUN's directory\n"
		 "name), or FILE: NAME/MANIFEST (format, versions, each file's size and\n"
		 "SHA-256) first, then every file of the run under NAME/. RUN is checked\n"
		 "as `smapbench import` will check it. An existing FILE is never\n"
		 "replaced. Prints \"archive: PATH\".\n",
	.options = pack_options,
};

int cmd_pack(int argc, char **argv)
{
	struct pack_options o = { NULL };
	const char *run, *out, *note;
	char written[PATH_MAX], err[PATH_MAX * 2 + 512];
	struct option_result r;

	if (options_parse(&pack_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&pack_table, err);
	if (r.help) {
		options_usage(stdout, &pack_table);
		return 0;
	}
	if (argc - r.first != 1) {
		snprintf(err, sizeof(err), argc == r.first ? "needs a run directory" :
			 "takes one run directory, got %d", argc - r.first);
		return options_refuse(&pack_table, err);
	}
	run = argv[r.first];
	out = o.out;
	atomic_dir_cleanup_on_signals();
	if (run_pack(run, out, written, sizeof(written), err, sizeof(err))) {
		fprintf(stderr, "smapbench pack: %s\n", err);
		return 1;
	}
	note = run_status_note(run);
	printf("archive: %s\n", written);
	if (note)
		printf("  warning: %s\n", note);
	return 0;
}
