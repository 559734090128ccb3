// SPDX-License-Identifier: GPL-2.0
/*
 * test_bpf_loader.c - the BPF loader's error paths: each way BPF can be
 * unavailable must come back as its own status with a message that says
 * what happened and what to do. Timings are never asserted on.
 *
 * Tests that need BPF to work (root, BTF) skip where it does not.
 */
#include <errno.h>
#include <grp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#include "bpf/loader.h"

#define NOBODY	65534

static void assert_message_contains(const struct bpfbench_error *err,
				    const char *needle)
{
	if (!strstr(err->message, needle))
		fail_msg("message \"%s\" should contain \"%s\"", err->message,
			 needle);
}

/* Skip where this binary was built without BPF. */
static void skip_unless_built(void)
{
	struct bpfbench_error err;
	struct bpfbench *b;

	if (bpfbench_open(NULL, &b, &err) == 0) {
		bpfbench_close(b);
		return;
	}
	if (err.status == BPFBENCH_NOT_BUILT) {
		print_message("%s\n", err.message);
		skip();
	}
}

/* Open with default options, or skip the test where BPF cannot run. */
static struct bpfbench *open_or_skip(void)
{
	struct bpfbench_error err;
	struct bpfbench *b;

	if (bpfbench_open(NULL, &b, &err) != 0) {
		print_message("BPF unavailable here (%s): %s\n",
			      bpfbench_status_name(err.status), err.message);
		skip();
	}
	return b;
}

static void test_names(void **state)
{
	(void)state;
	for (int m = 0; m < BPFBENCH_MODE_COUNT; m++)
		assert_string_not_equal(bpfbench_mode_name(m), "?");
	for (int op = 0; op < BPFBENCH_OP_COUNT; op++)
		assert_string_not_equal(bpfbench_op_name(op), "?");
	assert_string_equal(bpfbench_mode_name(BPFBENCH_MODE_COUNT), "?");
	assert_string_equal(bpfbench_status_name(BPFBENCH_VERIFIER), "verifier");
}

static void test_missing_btf(void **state)
{
	struct bpfbench_options opts = {
		.btf_path = "/nonexistent/smapbench/vmlinux",
	};
	struct bpfbench_error err;
	struct bpfbench *b = (void *)1;

	(void)state;
	skip_unless_built();
	assert_int_equal(bpfbench_open(&opts, &b, &err), -1);
	assert_null(b);
	assert_int_equal(err.status, BPFBENCH_NO_BTF);
	assert_int_equal(err.error, ENOENT);
	assert_message_contains(&err, "/nonexistent/smapbench/vmlinux");
	assert_message_contains(&err, "CONFIG_DEBUG_INFO_BTF");
}

/*
 * In a child without capabilities (root turned into nobody, which
 * clears them all; an unprivileged user has none to begin with), the
 * open must fail as a permission problem, not as a load error.
 */
static void test_permission_denied(void **state)
{
	struct bpfbench_error err;
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	(void)state;
	skip_unless_built();
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct bpfbench *b;

		close(pipefd[0]);
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)))
			_exit(2);
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		memset(&err, 0, sizeof(err));
		if (bpfbench_open(NULL, &b, &err) == 0)
			err.status = BPFBENCH_OK;
		n = write(pipefd[1], &err, sizeof(err));
		_exit(n == (ssize_t)sizeof(err) ? 0 : 3);
	}
	close(pipefd[1]);
	n = read(pipefd[0], &err, sizeof(err));
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(n, sizeof(err));
	if (err.status == BPFBENCH_NO_BTF || err.status == BPFBENCH_DISABLED) {
		print_message("cannot test permissions: %s\n", err.message);
		skip();
	}
	if (err.status != BPFBENCH_PERMISSION)
		fail_msg("expected a permission error, got %s: %s",
			 bpfbench_status_name(err.status), err.message);
	assert_true(err.error == EPERM || err.error == EACCES);
	assert_message_contains(&err, "permission denied");
	assert_message_contains(&err, "CAP_BPF");
	assert_message_contains(&err, "run as root");
}

static void test_verifier_rejection(void **state)
{
	struct bpfbench_options opts = { .load_rejected_program = true };
	struct bpfbench_error err;
	struct bpfbench *b;

	(void)state;
	bpfbench_close(open_or_skip());
	assert_int_equal(bpfbench_open(&opts, &b, &err), -1);
	assert_null(b);
	if (err.status != BPFBENCH_VERIFIER)
		fail_msg("expected a verifier rejection, got %s: %s",
			 bpfbench_status_name(err.status), err.message);
	assert_message_contains(&err, "verifier rejected");
	assert_message_contains(&err, "reject_unchecked_index");
	/* The verifier's own reason follows, not just an errno. */
	assert_true(strlen(strstr(err.message, "': ")) > 10);
}

static void test_bad_requests(void **state)
{
	struct bpfbench *b = open_or_skip();
	struct bpfbench_request req = {
		.mode = BPFBENCH_MODE_RAW_TP,
		.op = BPFBENCH_OP_KERNEL_READ,
		.size = BPFBENCH_MAX_SIZE + 1,
		.iterations = 10,
	};
	struct bpfbench_sample sample;
	struct bpfbench_error err;

	(void)state;
	assert_int_equal(bpfbench_run(b, &req, &sample, 1, &err), -1);
	assert_int_equal(err.status, BPFBENCH_INVALID);
	assert_message_contains(&err, "out of range");

	req.size = 8;
	req.iterations = 0;
	assert_int_equal(bpfbench_run(b, &req, &sample, 1, &err), -1);
	assert_int_equal(err.status, BPFBENCH_INVALID);

	req.iterations = 10;
	req.op = BPFBENCH_OP_COPY_FROM_USER;
	assert_int_equal(bpfbench_run(b, &req, &sample, 1, &err), -1);
	assert_int_equal(err.status, BPFBENCH_UNSUPPORTED);
	assert_message_contains(&err, "sleepable");

	req.op = BPFBENCH_OP_COUNT;
	assert_int_equal(bpfbench_run(b, &req, &sample, 1, &err), -1);
	assert_int_equal(err.status, BPFBENCH_INVALID);
	bpfbench_close(b);
}

/* Every op runs in every mode it supports, and reports what it did. */
static void test_every_op_runs(void **state)
{
	struct bpfbench *b = open_or_skip();
	struct bpfbench_sample samples[2];
	struct bpfbench_error err;

	(void)state;
	for (int mode = 0; mode < BPFBENCH_MODE_COUNT; mode++) {
		for (int op = 0; op < BPFBENCH_OP_COUNT; op++) {
			struct bpfbench_request req = {
				.mode = mode, .op = op, .size = 8,
				.iterations = 100,
			};

			if (bpfbench_supported(b, mode, op, &err))
				continue;
			if (bpfbench_run(b, &req, samples, 2, &err))
				fail_msg("%s/%s: %s", bpfbench_mode_name(mode),
					 bpfbench_op_name(op), err.message);
			for (int i = 0; i < 2; i++) {
				assert_int_equal(samples[i].iterations, 100);
				assert_int_equal(samples[i].faults, 0);
				assert_true(samples[i].elapsed_ns > 0);
			}
		}
	}
	bpfbench_close(b);
}

/* A user read from an unmapped address is a counted fault, not a crash. */
static void test_faults_are_counted(void **state)
{
	struct bpfbench *b = open_or_skip();
	struct bpfbench_request req = {
		.mode = BPFBENCH_MODE_SYSCALL,
		.op = BPFBENCH_OP_USER_READ,
		.size = 8,
		.iterations = 50,
		.user_buffer = (const void *)16,
	};
	struct bpfbench_sample sample;
	struct bpfbench_error err;

	(void)state;
	for (int mode = 0; mode < BPFBENCH_MODE_COUNT; mode++) {
		req.mode = mode;
		if (bpfbench_supported(b, req.mode, req.op, &err))
			continue;
		assert_int_equal(bpfbench_run(b, &req, &sample, 1, &err), 0);
		assert_int_equal(sample.iterations, 50);
		assert_int_equal(sample.faults, 50);
		assert_int_equal(sample.first_error, -EFAULT);
	}
	req.mode = BPFBENCH_MODE_SYSCALL;
	req.op = BPFBENCH_OP_COPY_FROM_USER;
	assert_int_equal(bpfbench_run(b, &req, &sample, 1, &err), 0);
	assert_int_equal(sample.faults, 50);
	bpfbench_close(b);
}
static void test_not_built_is_explained(void **state)
{
	struct bpfbench_error err;
	struct bpfbench *b = (void *)1;

	(void)state;
	if (bpfbench_open(NULL, &b, &err) == 0 ||
	    err.status != BPFBENCH_NOT_BUILT) {
		bpfbench_close(b);
		skip();
	}
	assert_null(b);
	assert_message_contains(&err, "without BPF support");
	assert_true(strlen(err.message) > strlen("smapbench was built without BPF support: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_missing_btf),
		cmocka_unit_test(test_permission_denied),
		cmocka_unit_test(test_verifier_rejection),
		cmocka_unit_test(test_bad_requests),
		cmocka_unit_test(test_every_op_runs),
		cmocka_unit_test(test_faults_are_counted),
		cmocka_unit_test(test_not_built_is_explained),
	};

	return cmocka_run_group_tests_name("bpf_loader", tests, NULL, NULL);
}
