// SPDX-License-Identifier: GPL-2.0
/*
 * census_exec.c - `smapbench census exec`: the guest side of the census
 * of a command (census_command.h). After the declarations every census
 * guest makes, it runs `true` and then COMMAND, each once, between two
 * markers of the plugin, with the same environment, standard input
 * (/dev/null) and output file: the first is the baseline that the host
 * subtracts from the second. Everything this program does between the
 * markers (fork, wait) it does the same way for both.
 *
 * Nothing is printed while a program is counted: the guest's output goes
 * through a pipe to a process that copies it over 9p, which would open
 * windows of its own in the interval.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "census/command/census_command.h"
#include "census/census_guest.h"
#include "census/command/census_spawn.h"
#include "measure/spawn.h"

extern char **environ;

/* An environment file larger than this is not one. */
#define ENV_FILE_MAX (4 << 20)
/* Lines of COMMAND's output shown when it failed. */
#define OUTPUT_TAIL_LINES 20

/* NUL-separated NAME=VALUE strings as an environment; NULL on error. */
static char **read_environment(const char *path, char **text, char *why,
			       size_t whylen)
{
	FILE *f = fopen(path, "rb");
	size_t len, n = 0, k = 0;
	char **env;

	*text = NULL;
	if (!f) {
		snprintf(why, whylen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	*text = malloc(ENV_FILE_MAX + 1);
	if (!*text) {
		fclose(f);
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	len = fread(*text, 1, ENV_FILE_MAX + 1, f);
	fclose(f);
	if (len > ENV_FILE_MAX) {
		snprintf(why, whylen, "%s is over %d bytes", path, ENV_FILE_MAX);
		return NULL;
	}
	(*text)[len] = '\0';
	for (size_t i = 0; i < len; i++)
		n += !(*text)[i];
	env = calloc(n + 2, sizeof(*env));
	if (!env) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < len; i += strlen(*text + i) + 1)
		if ((*text)[i])
			env[k++] = *text + i;
	return env;
}

static const char *env_value(char **env, const char *name)
{
	size_t len = strlen(name);

	for (; *env; env++)
		if (!strncmp(*env, name, len) && (*env)[len] == '=')
			return *env + len + 1;
	return NULL;
}

/*
 * 1 when path is an ELF executable without an interpreter (static), 0
 * when it has one or is a script (#!), -1 when it cannot be read.
 */
static int is_static_executable(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	int has_interp = 0;

	if (!f)
		return -1;
	if (fread(&eh, sizeof(eh), 1, f) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(Elf64_Phdr)) {
		fclose(f);
		return 0;
	}
	for (unsigned i = 0; i < eh.e_phnum && !has_interp; i++) {
		Elf64_Phdr ph;

		if (fseek(f, (long)(eh.e_phoff + i * sizeof(ph)), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1) {
			fclose(f);
			return -1;
		}
		has_interp = ph.p_type == PT_INTERP;
	}
	fclose(f);
	return !has_interp;
}

/*
 * The baseline: `true` started the way COMMAND is, i.e. a static one
 * (beside this program, census/true-static) for a static COMMAND, else
 * the `true` of COMMAND's PATH, which the dynamic loader starts as it
 * starts COMMAND. 0, or -1 with the reason in why.
 */
static int find_baseline(const char *command, char **env, char *out,
			 size_t len, char *why, size_t whylen)
{
	char self[4096];
	ssize_t n;

	if (is_static_executable(command) != 1) {
		if (!spawn_find_program("true", env_value(env, "PATH"), out, len))
			return 0;
		snprintf(why, whylen, "true, the baseline, is not in the command's PATH");
		return -1;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		snprintf(why, whylen, "cannot find this program: %s", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	if ((size_t)snprintf(out, len, "%s/census/true-static", self) >= len ||
	    access(out, X_OK)) {
		snprintf(why, whylen, "%.200s/census/true-static, the baseline of a static command, is not built (make census-true-static)",
			 self);
		return -1;
	}
	return 0;
}

/* The last lines of the output file, to stderr. */
static void show_tail(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long lines = 0, skip;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		lines += strchr(line, '\n') != NULL;
	skip = lines > OUTPUT_TAIL_LINES ? lines - OUTPUT_TAIL_LINES : 0;
	rewind(f);
	fprintf(stderr, "census exec: the last lines of its output:\n");
	for (long i = 0; fgets(line, sizeof(line), f);) {
		if (i >= skip)
			fprintf(stderr, "  %s%s", line, strchr(line, '\n') ? "" : "\n");
		i += strchr(line, '\n') != NULL;
	}
	fclose(f);
}

/*
 * Run p once with the output file emptied; counted between the markers
 * when label is given (its last part names the row). A failure is said
 * in a note to the plugin and on stderr (which may then open windows:
 * nothing more is counted). 0 with its wall time in seconds, or -1.
 */
static int run_once(struct census_program *p, const char *what,
		    const char *label, const char *output, double *seconds)
{
	struct census_outcome r;
	char why[512], text[512];
	int rc;

	if (ftruncate(p->output_fd, 0) || lseek(p->output_fd, 0, SEEK_SET)) {
		census_guest_send("note error cannot empty %s: %s", output,
				  strerror(errno));
		fprintf(stderr, "census exec: cannot empty %s: %s\n", output,
			strerror(errno));
		return -1;
	}
	if (label)
		census_guest_send("begin %s command %s none 0 0", label,
				  strrchr(label, '/') + 1);
	rc = census_run_program(p, &r, why, sizeof(why));
	if (label)
		census_guest_send("end 1");
	if (rc) {
		census_guest_send("note error %s could not start: %s", what, why);
		fprintf(stderr, "census exec: %s could not start: %s\n", what, why);
		return -1;
	}
	if (!census_outcome_ok(&r)) {
		census_outcome_text(&r, p->timeout, text, sizeof(text));
		census_guest_send("note error %s %s in the guest", what, text);
		fprintf(stderr, "census exec: %s %s\n", what, text);
		show_tail(output);
		return -1;
	}
	if (label) {
		census_guest_send("note %s_seconds %.3f", strrchr(label, '/') + 1,
				  r.seconds);
		census_guest_send("note %s_context_switches %ld",
				  strrchr(label, '/') + 1, r.context_switches);
	}
	*seconds = r.seconds;
	return 0;
}

int census_exec(const struct census_exec_options *o)
{
	char *env_text = NULL, **env = environ, command_path[4096],
	     true_path[4096], why[1024], line[2048];
	char *true_argv[] = { "true", NULL };
	struct census_program command = { .stdin_fd = -1, .output_fd = -1 },
			      baseline;
	struct census_declared d;
	double seconds[4];
	int status = 1;
	size_t used = 0;

	if (o->env_file) {
		env = read_environment(o->env_file, &env_text, why, sizeof(why));
		if (!env) {
			fprintf(stderr, "census exec: %s\n", why);
			free(env_text);
			return 1;
		}
	}
	if (census_guest_open(why, sizeof(why))) {
		fprintf(stderr, "census exec: %s\n", why);
		goto out;
	}
	if (census_guest_declare(&d, why, sizeof(why))) {
		fprintf(stderr, "census exec: %s\n", why);
		goto out;
	}
	census_guest_send_context();
	census_guest_send("note declared %zu symbols, %zu system calls, %zu entry symbols",
			  d.symbols, d.syscalls, d.entries);
	for (char **a = o->argv; *a && used < sizeof(line); a++)
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s",
					 used ? " " : "", *a);
	census_guest_send("note command %s", line);

	if (spawn_find_program(o->argv[0], env_value(env, "PATH"), command_path,
				sizeof(command_path))) {
		snprintf(why, sizeof(why), "%s: not found in the guest (%s)",
			 o->argv[0], strerror(errno));
		goto failed;
	}
	if (find_baseline(command_path, env, true_path, sizeof(true_path), why,
			  sizeof(why)))
		goto failed;
	census_guest_send("note baseline %s", true_path);
	command.stdin_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	command.output_fd = open(o->output, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
				 0644);
	if (command.stdin_fd < 0 || command.output_fd < 0) {
		snprintf(why, sizeof(why), "cannot open %s: %s",
			 command.stdin_fd < 0 ? "/dev/null" : o->output,
			 strerror(errno));
		goto failed;
	}
	command.envp = env;
	command.timeout = o->timeout;
	command.own_group = 1;
	baseline = command;
	command.path = command_path;
	command.argv = o->argv;
	baseline.path = true_path;
	baseline.argv = true_argv;
	/*
	 * Each runs once before it is counted, as it does natively before
	 * it is timed: the counts are those of a warm page cache, not of the
	 * first reads of its files over 9p, whose waits add windows (rseq's,
	 * on every return to user space after a sleep).
	 */
	if (run_once(&baseline, "the baseline", NULL, o->output, &seconds[0]) ||
	    run_once(&command, o->argv[0], NULL, o->output, &seconds[1]) ||
	    run_once(&baseline, "the baseline", "command/baseline", o->output,
		     &seconds[2]) ||
	    run_once(&command, o->argv[0], "command/command", o->output,
		     &seconds[3]))
		goto out;
	/* only now: the guest's output crosses 9p, opening windows */
	printf("census exec: %s (baseline): %.2f s, then %.2f s counted\n",
	       true_path, seconds[0], seconds[2]);
	printf("census exec: %s: %.2f s, then %.2f s counted\n", o->argv[0],
	       seconds[1], seconds[3]);
	census_guest_send("note finished 2 programs");
	status = 0;
	goto out;
failed:
	census_guest_send("note error %s", why);
	fprintf(stderr, "census exec: %s\n", why);
out:
	if (command.stdin_fd >= 0)
		close(command.stdin_fd);
	if (command.output_fd >= 0)
		close(command.output_fd);
	if (env != environ)
		free(env);
	free(env_text);
	return status;
}
