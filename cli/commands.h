/* SPDX-License-Identifier: GPL-2.0 */
/*
 * commands.h - the subcommands of smapbench.
 *
 * Each subcommand is one file defining cmd_<name>(argc, argv), argv[0]
 * being the subcommand's name, returning the exit status (0 ok, 1
 * failure, 2 bad command line). Adding one is that file plus a line in
 * the table of cli/main.c.
 */
#ifndef SMAPBENCH_COMMANDS_H
#define SMAPBENCH_COMMANDS_H

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	int hidden;	/* run by smapbench itself, not listed */
};

int cmd_run(int argc, char **argv);	/* cli/cmd_run.c */
int cmd_info(int argc, char **argv);	/* cli/cmd_info.c */
int cmd_compare(int argc, char **argv);	/* cli/cmd_compare.c */
int cmd_calibrate(int argc, char **argv);	/* cli/cmd_calibrate.c */
int cmd_plan(int argc, char **argv);	/* cli/cmd_plan.c */
int cmd_plot(int argc, char **argv);	/* cli/cmd_plot.c */
int cmd_report(int argc, char **argv);	/* cli/cmd_report.c */
int cmd_census(int argc, char **argv);	/* cli/cmd_census.c */
int cmd_workload(int argc, char **argv);	/* cli/cmd_workload.c */
int cmd_table(int argc, char **argv);	/* cli/cmd_table.c */
int cmd_pack(int argc, char **argv);	/* cli/cmd_pack.c */
int cmd_import(int argc, char **argv);	/* cli/cmd_import.c */
int cmd_run_worker(int argc, char **argv);	/* cli/cmd_run_worker.c */

/* Exit statuses shared by all subcommands. */
#define EXIT_USAGE 2

#endif /* SMAPBENCH_COMMANDS_H */
