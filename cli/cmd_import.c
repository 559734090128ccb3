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
#include "cli/options.h"
#include "rundata/atomic_dir.h"

struct import_options {
	const char *data;
};

static const struct option_def import_options[] = {
	OPT_TEXT("data", "DIR", struct import_options, data, "directory name",
		 "where the runs are (default: data)"),
	OPT_HELP(),
	OPT_END(),
};

static const struct option_table import_table = {
	.command = "import",
	.synopsis = "ARCHIVE... [--data DIR]",
	.about = "Checks each archive written by `smapbench pack` and places its run\n"
		 "at DIR/HOST-DATE-STATE (the name `smapbench run` gives it), DIR\n"
		 "being data by default. Refused, with the reason, and DIR left as it\n"
		 "was: a damaged or truncated archive; links, devices or paths out of\n"
		 "the run; a file missing from the MANIFEST, or not matching its size\n"
		 "or SHA-256; an unknown format or schema version; a context without\n"
		 "the keys the table needs; results.csv disagreeing with samples.csv;\n"
		 "a run DIR already has (same name or same samples.csv).\n"
		 "Prints \"imported: DIR/NAME\" per archive (docs/contributing-runs.md).\n",
	.options = import_options,
};

int cmd_import(int argc, char **argv)
{
	struct import_options o = { "data" };
	const char *data;
	char dir[PATH_MAX], final[PATH_MAX + 64], err[2048];
	struct option_result r;
	int refused = 0;
	size_t len;

	if (options_parse(&import_table, argc, argv, &o, &r, err, sizeof(err)))
		return options_refuse(&import_table, err);
	if (r.help) {
		options_usage(stdout, &import_table);
		return 0;
	}
	if (r.first == argc)
		return options_refuse(&import_table, "needs at least one archive (NAME.smapbench.tar from smapbench pack)");
	data = o.data;
	len = strlen(data);
	while (len > 1 && data[len - 1] == '/')
		len--;
	if (len >= sizeof(dir) - RUN_ARCHIVE_MAX_NAME - 64) {
		fprintf(stderr, "smapbench import: --data: path too long\n");
		return EXIT_USAGE;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)len, data);
	atomic_dir_cleanup_on_signals();

	for (int i = r.first; i < argc; i++) {
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
