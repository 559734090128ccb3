/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loader.h - load the BPF timing programs and run them, one sample per
 * BPF_PROG_TEST_RUN.
 *
 * The whole BPF dependency (libbpf, the generated skeleton) stays behind
 * this interface: a build without clang or libbpf links loader_stub.c,
 * whose bpfbench_open() fails with BPFBENCH_NOT_BUILT and says why.
 *
 * Every failure fills a struct bpfbench_error: a status a caller can
 * branch on (skip the suite, or report an error) and one line a person
 * can act on ("permission denied: ... run as root").
 */
#ifndef SMAPBENCH_BPF_LOADER_H
#define SMAPBENCH_BPF_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "bpf/bpfbench.h"

/* Where and how the program runs. */
enum bpfbench_mode {
	/* SEC("syscall"): sleepable, preemptible, migration disabled. */
	BPFBENCH_MODE_SYSCALL = 0,
	/* SEC("raw_tp") on the caller's CPU: preemption off. */
	BPFBENCH_MODE_RAW_TP = 1,
	/*
	 * SEC("raw_tp") sent to the caller's CPU from a helper thread on
	 * another CPU (BPF_F_TEST_RUN_ON_CPU): runs in the IPI handler with
	 * interrupts off, while the caller spins there so that its address
	 * space is the one loaded. Needs two CPUs.
	 */
	BPFBENCH_MODE_IPI = 2,
	BPFBENCH_MODE_COUNT
};

enum bpfbench_status {
	BPFBENCH_OK = 0,
	BPFBENCH_NOT_BUILT,	/* smapbench was built without BPF */
	BPFBENCH_NO_BTF,	/* no kernel BTF to relocate against */
	BPFBENCH_PERMISSION,	/* no CAP_BPF + CAP_PERFMON */
	BPFBENCH_DISABLED,	/* no bpf() system call */
	BPFBENCH_TOO_OLD,	/* a program type or helper is missing */
	BPFBENCH_LOCKDOWN,	/* lockdown forbids reading kernel memory */
	BPFBENCH_VERIFIER,	/* the verifier rejected a program */
	BPFBENCH_UNSUPPORTED,	/* this mode/op cannot run here */
	BPFBENCH_INVALID,	/* bad request */
	BPFBENCH_FAILED,	/* anything else */
};

struct bpfbench_error {
	enum bpfbench_status status;
	int error;		/* errno behind it, 0 if none */
	char message[768];
};

struct bpfbench_options {
	/* Kernel BTF; NULL means /sys/kernel/btf/vmlinux. */
	const char *btf_path;
	/* Also load a program the verifier must refuse (tests only). */
	bool load_rejected_program;
};

struct bpfbench_request {
	enum bpfbench_mode mode;
	enum bpfbench_op op;
	uint32_t size;		/* bytes per access, <= BPFBENCH_MAX_SIZE */
	uint64_t iterations;	/* per sample, <= BPFBENCH_MAX_ITERATIONS */
	/*
	 * Source of the user reads; NULL: the loader's own page-aligned,
	 * locked, pre-faulted buffer (the benchmark case). Tests pass bad
	 * addresses here to see faults counted.
	 */
	const void *user_buffer;
};

/* One run of the program: totals over req->iterations accesses. */
struct bpfbench_sample {
	uint64_t elapsed_ns;
	uint64_t iterations;
	uint64_t faults;	/* accesses that failed (counted, not hidden) */
	int64_t first_error;	/* the first failure's return value */
	int cpu;		/* CPU the program ran on */
};

struct bpfbench;

/* Load the programs; 0, or -1 with err filled (b is then NULL). */
int bpfbench_open(const struct bpfbench_options *opts, struct bpfbench **b,
		  struct bpfbench_error *err);
void bpfbench_close(struct bpfbench *b);

/* Whether mode and op can run here; 0, or -1 with err filled. */
int bpfbench_supported(const struct bpfbench *b, enum bpfbench_mode mode,
		       enum bpfbench_op op, struct bpfbench_error *err);

/*
 * n samples, one program run each, on the calling thread's current CPU
 * (pin the caller first). 0, or -1 with err filled.
 */
int bpfbench_run(struct bpfbench *b, const struct bpfbench_request *req,
		 struct bpfbench_sample *samples, size_t n,
		 struct bpfbench_error *err);

const char *bpfbench_mode_name(enum bpfbench_mode mode);
const char *bpfbench_op_name(enum bpfbench_op op);
const char *bpfbench_status_name(enum bpfbench_status status);

/*
 * Facts of this kernel that shape what the BPF figures contain (JIT,
 * hardened usercopy, return thunks, copy instructions, lockdown), as
 * key/value pairs with keys starting "bpf_". Works without BPF.
 */
void bpfbench_context(void (*emit)(void *arg, const char *key,
				   const char *value), void *arg);

#endif /* SMAPBENCH_BPF_LOADER_H */
