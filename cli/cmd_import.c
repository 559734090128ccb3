// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_import.c - `smapbench import ARCHIVE... [--data DIR]`: check each
 * archive of `smapbench pack` and place its run under DIR
 * (archive/import.h says how, and what is refused).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "archive/import.h"
#include "archive/run_archive.h"
#include "cli/commands.h"
#include "rundata/atomic_dir.h"

static void import_usage(FILE *f)
{
	fputs("usage: smapbench import ARCHIVE... [--data DIR]\n"
	      "\n"
	      "Checks each archive written by `smapbench pack` and places its run\n"
	      "at DIR/HOST-DATE-STATE (the name `smapbench run` gives it), DIR\n"
	      "being data by default. Refused, with the reason, and DIR left as it\n"
	      "was: a damaged or truncated archive; links, devices or paths out of\n"
	      "the run; a file missing from the MANIFEST, or not matching its size\n"
	      "or SHA-256; an unknown format or schema version; a context without\n"
	      "the keys the table needs; results.csv disagreeing with samples.csv;\n"
	      "a run DIR already has (same name or same samples.csv).\n"
	      "Prints \"imported: DIR/NAME\" per archive (docs/contributing-runs.md).\n"
	      "\n"
	      "  --data DIR   where the runs are (default: data)\n",
	      f);
}

int cmd_import(int argc, char **argv)
{
	const char *data = "data";
	char dir[PATH_MAX], final[PATH_MAX + 64], err[2048];
	int archives = 0, refused = 0;
	size_t len;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			import_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--data")) {
			if (i + 1 >= argc || !*argv[i + 1]) {
				fprintf(stderr, "smapbench import: --data needs a directory\n");
				return EXIT_USAGE;
			}
			data = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "smapbench import: unknown option '%s'\n"
				"(see smapbench import --help)\n", argv[i]);
			return EXIT_USAGE;
		} else {
			archives++;
		}
	}
	if (!archives) {
		fprintf(stderr, "smapbench import: needs at least one archive "
			"(NAME.smapbench.tar from smapbench pack)\n"
			"(see smapbench import --help)\n");
		return EXIT_USAGE;
	}
	len = strlen(data);
	while (len > 1 && data[len - 1] == '/')
		len--;
	if (len >= sizeof(dir) - RUN_ARCHIVE_MAX_NAME - 64) {
		fprintf(stderr, "smapbench import: --data: path too long\n");
		return EXIT_USAGE;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)len, data);
	atomic_dir_cleanup_on_signals();

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--data")) {
			i++;
			continue;
		}
		if (run_import(argv[i], dir, final, sizeof(final), err, sizeof(err))) {
			/* the archive's text, quoted in err: no terminal escapes */
			for (char *p = err; *p; p++)
				if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
					*p = '?';
			fprintf(stderr, "smapbench import: %s: refused: %s\n", argv[i], err);
			refused++;
			continue;
		}
		const char *note = run_status_note(final);

		printf("imported: %s\n", final);
		if (note)
			printf("  warning: %s\n", note);
		fflush(stdout);
	}
	return refused ? 1 : 0;
}
