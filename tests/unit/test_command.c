// SPDX-License-Identifier: GPL-2.0
/*
 * test_command.c - a command as a benchmark row (suites/command.h): its
 * name, the commands it refuses, and its executions, real ones of
 * /bin/sh: one per operation, output to the log, a non-zero status or a
 * signal failing the sample with what happened (through the runner, as
 * a run sees it), and the child out of the caller's real-time policy.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/counter.h"
#include "measure/registry.h"
#include "measure/runner.h"
#include "measure/sha256.h"
#include "suites/command.h"
#include "unit.h"

/* The lines of a file, or -1 when it cannot be read. */
static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, ch;

	if (!f)
		return -1;
	while ((ch = fgetc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

static void names_from_words_and_sum(void **state)
{
	static const struct {
		const char *text, *words;
	} cases[] = {
		{ "make -j2", "make-j2" },
		{ "  /usr/bin/gzip -9 < big > /dev/null  ", "usr-bin-gzip-9-big-dev-null" },
		{ "tar cf - . | wc -c", "tar-cf-.-wc-c" },
		{ "'!!' ; :", "sh" },
		{ "git_status.v2+x", "git_status.v2+x" },
		/* cut at 32 bytes, no '-' left at the end */
		{ "abcdefghijklmnopqrstuvwxyz01234 6789", "abcdefghijklmnopqrstuvwxyz01234" },
	};
	char want[128], sum[SHA256_HEX_SIZE];
	struct command_spec c;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int(command_spec_init(&c, cases[i].text, err, sizeof(err)), 0,
			   cases[i].text);
		sha256_hex(cases[i].text, strlen(cases[i].text), sum);
		assert_str(c.sha256, sum, "its sum is the SHA-256 of the text");
		snprintf(want, sizeof(want), "%s-%.8s", cases[i].words, sum);
		assert_str(c.op, want, cases[i].text);
		snprintf(want, sizeof(want), "command/%s-%.8s", cases[i].words, sum);
		assert_str(c.name, want, "the row's name");
		assert_str(c.text, cases[i].text, "the text, as given");
	}
	/* two commands with the same words are two rows */
	assert_int(command_spec_init(&c, "make -j2", err, sizeof(err)), 0, "make -j2");
	snprintf(want, sizeof(want), "%s", c.op);
	assert_int(command_spec_init(&c, "make  -j2", err, sizeof(err)), 0, "make  -j2");
	assert_true(strcmp(c.op, want) != 0);
}

static void refuses_what_is_no_command(void **state)
{
	char long_text[COMMAND_TEXT_MAX + 8];
	struct command_spec c;
	char err[256];

	(void)state;
	assert_int(command_spec_init(&c, "", err, sizeof(err)), -1, "empty");
	assert_non_null(strstr(err, "empty"));
	assert_int(command_spec_init(&c, " \t ", err, sizeof(err)), -1, "blanks");
	assert_int(command_spec_init(&c, "true\nfalse", err, sizeof(err)), -1,
		   "a newline");
	assert_non_null(strstr(err, "one line"));
	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	assert_int(command_spec_init(&c, long_text, err, sizeof(err)), -1,
		   "too long");
	long_text[COMMAND_TEXT_MAX - 1] = '\0';
	assert_int(command_spec_init(&c, long_text, err, sizeof(err)), 0,
		   "the longest taken");
}

/* c's row, registered and set up with its log in the temporary directory. */
static const struct benchmark *set_up(struct command_spec *c,
				      struct registry *r, const char *text,
				      const char *log, void **bench_state)
{
	char err[256], path[PATH_MAX];

	assert_int(command_spec_init(c, text, err, sizeof(err)), 0, text);
	snprintf(path, sizeof(path), "%s/%s", unit_tmpdir, log);
	unlink(path);
	command_set_log(c, path);
	memset(r, 0, sizeof(*r));
	assert_int(command_register(r, c), 0, "register");
	assert_int(r->count, 1, "one row");
	assert_str(r->items[0]->suite, "command", "its suite");
	assert_int(r->items[0]->setup(r->items[0], bench_state, err, sizeof(err)),
		   0, err);
	return r->items[0];
}

static void each_operation_one_process(void **state)
{
	struct command_spec c;
	struct registry r;
	const struct benchmark *b;
	void *s = NULL;
	char path[PATH_MAX], cmd[2 * PATH_MAX + 128];

	(void)state;
	/* $$ is each shell's own pid: three processes, three lines */
	b = set_up(&c, &r, "echo $$; echo to-stderr >&2", "ok.log", &s);
	assert_int(b->run(s, 3), 0, "three executions of a command that succeeds");
	b->teardown(b, s);
	snprintf(path, sizeof(path), "%s/ok.log", unit_tmpdir);
	assert_int(count_lines(path), 6, "its output and its errors, appended");
	snprintf(cmd, sizeof(cmd), "test $(grep -c to-stderr '%s') -eq 3"
		 " && test $(grep -v to-stderr '%s' | sort -u | wc -l) -eq 3", path, path);
	assert_int(system(cmd), 0, "three distinct shells");
	registry_free(&r);
}

/* Through runner_sample(), as a run meets a failure: the reason it gives. */
static void sample_why(const char *text, char *why, size_t len)
{
	struct command_spec c;
	struct registry r;
	struct runner_options o;
	struct bench_sample sample;
	const struct benchmark *b;
	char fallback[256];
	double seconds;
	void *s = NULL;

	b = set_up(&c, &r, text, "fail.log", &s);
	runner_defaults(&o);
	o.counter = counter_select("monotonic", fallback, sizeof(fallback));
	assert_non_null(o.counter);
	why[0] = '\0';
	assert_int(runner_sample(b, s, &o, 2, &sample, &seconds, why, len), -1,
		   text);
	b->teardown(b, s);
	o.counter->close(o.counter);
	registry_free(&r);
}

static void a_failure_says_what_happened(void **state)
{
	char why[256];

	(void)state;
	sample_why("echo before; exit 3", why, sizeof(why));
	assert_non_null(strstr(why, "failed: the command exited with status 3"));
	sample_why("kill -KILL $$", why, sizeof(why));
	assert_non_null(strstr(why, "failed: the command was killed by signal 9"));
}

static void out_of_the_real_time_policy(void **state)
{
	struct sched_param fifo = { .sched_priority = 1 }, before;
	int policy = sched_getscheduler(0);
	struct command_spec c;
	struct registry r;
	const struct benchmark *b;
	void *s = NULL;

	(void)state;
	sched_getparam(0, &before);
	if (sched_setscheduler(0, SCHED_FIFO, &fifo)) {
		skip();	/* not permitted here: nothing to reset */
		return;
	}
	/* policy 0 is SCHED_OTHER in /proc/PID/sched */
	b = set_up(&c, &r, "grep -Eq '^policy +: +0$' /proc/$$/sched", "sched.log", &s);
	assert_int(b->run(s, 1), 0, "the command runs at SCHED_OTHER");
	b->teardown(b, s);
	registry_free(&r);
	sched_setscheduler(0, policy, &before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_from_words_and_sum),
		cmocka_unit_test(refuses_what_is_no_command),
		cmocka_unit_test(each_operation_one_process),
		cmocka_unit_test(a_failure_says_what_happened),
		cmocka_unit_test(out_of_the_real_time_policy),
	};

	return cmocka_run_group_tests(tests, unit_make_tmpdir, unit_remove_tmpdir);
}
