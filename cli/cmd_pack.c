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
#include "rundata/atomic_dir.h"

static void pack_usage(FILE *f)
{
	fputs("usage: smapbench pack RUN [--out FILE]\n"
	      "\n"
	      "Writes RUN (a directory of `smapbench run`) as one POSIX tar archive,\n"
	      "NAME.smapbench.tar in the current directory (NAME: RUN's directory\n"
	      "name), or FILE: NAME/MANIFEST (format, versions, each file's size and\n"
	      "SHA-256) first, then every file of the run under NAME/. RUN is checked\n"
	      "as `smapbench import` will check it. An existing FILE is never\n"
	      "replaced. Prints \"archive: PATH\".\n"
	      "\n"
	      "  --out FILE   where to write the archive\n",
	      f);
}

int cmd_pack(int argc, char **argv)
{
	const char *run = NULL, *out = NULL, *note;
	char written[PATH_MAX], err[PATH_MAX * 2 + 512];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			pack_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--out")) {
			if (i + 1 >= argc || !*argv[i + 1]) {
				fprintf(stderr, "smapbench pack: --out needs a file name\n");
				return EXIT_USAGE;
			}
			out = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "smapbench pack: unknown option '%s'\n"
				"(see smapbench pack --help)\n", argv[i]);
			return EXIT_USAGE;
		} else if (run) {
			fprintf(stderr, "smapbench pack: takes one run directory, "
				"got '%s' and '%s'\n", run, argv[i]);
			return EXIT_USAGE;
		} else {
			run = argv[i];
		}
	}
	if (!run) {
		fprintf(stderr, "smapbench pack: needs a run directory\n"
			"(see smapbench pack --help)\n");
		return EXIT_USAGE;
	}
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
