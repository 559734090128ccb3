// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_info.c - `smapbench info`: this machine's context, which counters
 * work here (and why the others do not), and the module's INFO when
 * /dev/smapbench exists.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "context.h"
#include "counter.h"
#include "kmod_suite.h"
#include "pin.h"

int cmd_info(int argc, char **argv)
{
	struct context ctx = { 0 };

	(void)argv;
	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			printf("usage: smapbench info\n"
			       "Prints the run context, the counters and the module's INFO.\n");
			return 0;
		}
		fprintf(stderr, "smapbench info: unexpected argument '%s'\n",
			argv[1]);
		return EXIT_USAGE;
	}
	bench_collect_context(&ctx);
	printf("context:\n");
	for (size_t i = 0; i < ctx.count; i++)
		printf("  %-32s %s\n", ctx.items[i].key, ctx.items[i].value);
	printf("topology: %s\ncounters:\n", pin_topology_source());
	for (int i = 0; counter_backends[i]; i++) {
		struct counter *c = counter_backends[i];
		char why[256] = "";

		if (c->open(c, why, sizeof(why)) == 0) {
			printf("  %-10s ok     %s, %.0f %s/s; %s\n", c->name,
			       c->summary, c->hz, c->unit, c->note);
			c->close(c);
		} else {
			printf("  %-10s no     %s\n", c->name, why);
		}
	}
	kmod_suite_print_info(stdout);
	context_free(&ctx);
	return 0;
}
