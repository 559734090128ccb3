// SPDX-License-Identifier: GPL-2.0
/* command.c - a command of the user's as a benchmark row; see command.h. */
#include "suites/command.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/spawn.h"

#define COMMAND_SHELL	"/bin/sh"

struct command_state {
	const struct command_spec *spec;
	int null_fd, log_fd;
	char failure[256];
};

static int word_byte(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '+';
}

void command_op_name(const char *text, const char *sha256, char *out,
		     size_t len)
{
	char words[COMMAND_WORDS_MAX + 1];
	size_t n = 0;

	/* runs of anything else become one '-'; none leads or trails */
	for (const char *p = text; *p && n < COMMAND_WORDS_MAX; p++) {
		if (word_byte((unsigned char)*p))
			words[n++] = *p;
		else if (n && words[n - 1] != '-')
			words[n++] = '-';
	}
	while (n && words[n - 1] == '-')
		n--;
	words[n] = '\0';
	snprintf(out, len, "%s-%.8s", n ? words : "sh", sha256);
}

int command_spec_init(struct command_spec *c, const char *text, char *err,
		      size_t errlen)
{
	size_t len = strlen(text), blanks = strspn(text, " \t");

	memset(c, 0, sizeof(*c));
	if (blanks == len) {
		snprintf(err, errlen, "--command: an empty command");
		return -1;
	}
	if (len >= sizeof(c->text)) {
		snprintf(err, errlen, "--command: %zu bytes, more than the %d taken",
			 len, COMMAND_TEXT_MAX - 1);
		return -1;
	}
	for (const char *p = text; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t') {
			snprintf(err, errlen,
				 "--command: a control character (byte %d at %zu): one line, as context.csv records it",
				 *p, (size_t)(p - text));
			return -1;
		}
	memcpy(c->text, text, len + 1);
	sha256_hex(c->text, len, c->sha256);
	command_op_name(c->text, c->sha256, c->op, sizeof(c->op));
	snprintf(c->name, sizeof(c->name), "command/%s", c->op);
	return 0;
}

void command_set_log(struct command_spec *c, const char *path)
{
	snprintf(c->log, sizeof(c->log), "%s", path ? path : "");
}

static int command_setup(const struct benchmark *b, void **state, char *why,
			 size_t whylen)
{
	const struct command_spec *c = b->arg;
	struct command_state *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	s->spec = c;
	s->log_fd = -1;
	s->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (s->null_fd < 0) {
		snprintf(why, whylen, "cannot open /dev/null: %s", strerror(errno));
		free(s);
		return -1;
	}
	if (c->log[0]) {
		s->log_fd = open(c->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
				 0644);
		if (s->log_fd < 0) {
			snprintf(why, whylen, "cannot open its log %s: %s", c->log,
				 strerror(errno));
			close(s->null_fd);
			free(s);
			return -1;
		}
	}
	*state = s;
	return 0;
}

static void command_teardown(const struct benchmark *b, void *state)
{
	struct command_state *s = state;

	(void)b;
	if (!s)
		return;
	close(s->null_fd);
	if (s->log_fd >= 0)
		close(s->log_fd);
	free(s);
}

/* One execution: 0, or -errno with the words in s->failure. */
static int execute_once(struct command_state *s)
{
	char *argv[] = { "sh", "-c", (char *)s->spec->text, NULL };
	int out = s->log_fd >= 0 ? s->log_fd : s->null_fd;
	struct spawn sp = {
		.path = COMMAND_SHELL, .argv = argv, .stdin_fd = s->null_fd,
		.stdout_fd = out, .stderr_fd = out, .die_with_parent = 1,
		.reset_scheduling = 1,
	};
	int exec_errno, status;
	pid_t pid;

	if (spawn_start(&sp, &pid, &exec_errno)) {
		int e = errno;

		snprintf(s->failure, sizeof(s->failure), "cannot start %s: %s",
			 COMMAND_SHELL, strerror(e));
		return -e;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			int e = errno;

			snprintf(s->failure, sizeof(s->failure),
				 "cannot wait for sh -c: %s", strerror(e));
			return -e;
		}
	if (exec_errno) {
		snprintf(s->failure, sizeof(s->failure), "cannot execute %s: %s",
			 COMMAND_SHELL, strerror(exec_errno));
		return -exec_errno;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		snprintf(s->failure, sizeof(s->failure),
			 "the command exited with status %d (its output: %s)",
			 WEXITSTATUS(status), COMMAND_LOG);
	else
		snprintf(s->failure, sizeof(s->failure),
			 "the command was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	return -ECHILD;
}

static int command_run(void *state, uint64_t iterations)
{
	for (uint64_t i = 0; i < iterations; i++) {
		int rc = execute_once(state);

		if (rc)
			return rc;
	}
	return 0;
}

static const char *command_failure_words(void *state)
{
	struct command_state *s = state;

	return s->failure[0] ? s->failure : NULL;
}

int command_register(struct registry *r, struct command_spec *c)
{
	c->bench = (struct benchmark){
		.name = c->name, .suite = "command", .op = c->op,
		.variant = "none", .arg = c,
		.summary = "the command of --command (sh -c), a fresh process each time",
		.setup = command_setup, .teardown = command_teardown,
		.run = command_run, .failure = command_failure_words,
		.headline = 1,
	};
	return registry_add_family(r, "command", &c->bench, 1);
}

void command_context(struct context *ctx, const struct command_spec *c)
{
	context_set(ctx, "command", "%s", c->text);
	context_set(ctx, "command_sha256", "%s", c->sha256);
	context_set(ctx, "command_row", "%s", c->name);
	context_set(ctx, "command_log", "%s", COMMAND_LOG);
	context_set(ctx, "command_shell", "%s", COMMAND_SHELL);
}

const char *command_failure(const struct command_spec *c,
			    const struct run_results *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct result *res = &r->items[i];

		if (res->bench != &c->bench)
			continue;
		if (res->skipped)
			return res->reason;
		return res->nsamples ? NULL : "no sample";
	}
	return "not run";
}

void command_results_context(struct context *ctx,
			     const struct command_spec *c,
			     const struct run_results *r)
{
	const char *why = command_failure(c, r);

	if (why)
		context_set(ctx, "command_status", "%s", why);
	else
		context_set(ctx, "command_status", "ok");
}
