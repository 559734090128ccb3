/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpfbench.h - the contract between the BPF timing programs and their
 * loader. Included by bpf/smapbench.bpf.c (after vmlinux.h) and by
 * bpf/loader.c (after <linux/types.h>), so it uses only __u64.
 *
 * One program run is one sample: the program reads struct bpfbench_args
 * from its context, reads the clock, runs `iterations` accesses through
 * bpf_loop(), reads the clock again and leaves the elapsed nanoseconds
 * and the number of failed accesses in struct bpfbench_result, a global
 * variable the loader reads through the memory-mapped .bss map.
 */
#ifndef SMAPBENCH_BPFBENCH_H
#define SMAPBENCH_BPFBENCH_H

/* Largest access; buffers are twice this so a string always ends. */
#define BPFBENCH_MAX_SIZE	4096
#define BPFBENCH_BUFFER_SIZE	(2 * BPFBENCH_MAX_SIZE)
/* bpf_loop() refuses more than 1 << 23 iterations. */
#define BPFBENCH_MAX_ITERATIONS	(1U << 23)
/*
 * Dependent operations per iteration of the calib ops, which give the
 * core's cycle time where BPF has no cycle counter: (calib - empty) is
 * BPFBENCH_CALIB_OPS `add r, r` (1 cycle each), (calib_imul - empty) as
 * many `imul r, r` (3 cycles). Both take their operand from a register:
 * an add of an immediate is folded at rename on recent Intel cores and
 * retires several per cycle. The two must agree (measure/calib.h).
 */
#define BPFBENCH_CALIB_OPS	1024

/*
 * What one iteration of the timed loop does. Sources are a user buffer
 * of the calling process and a kernel buffer (a map value); the
 * destination is always the same kernel buffer (another map value).
 */
enum bpfbench_op {
	BPFBENCH_OP_EMPTY = 0,		/* nothing: the loop's own cost */
	BPFBENCH_OP_USER_READ = 1,	/* bpf_probe_read_user() */
	BPFBENCH_OP_KERNEL_READ = 2,	/* bpf_probe_read_kernel() */
	BPFBENCH_OP_KERNEL_MEMMOVE = 3,	/* bpf_dynptr_read(): memmove() */
	BPFBENCH_OP_USER_READ_STR = 4,	/* bpf_probe_read_user_str() */
	BPFBENCH_OP_KERNEL_READ_STR = 5, /* bpf_probe_read_kernel_str() */
	BPFBENCH_OP_COPY_FROM_USER = 6,	/* bpf_copy_from_user(), sleepable */
	BPFBENCH_OP_CALIB = 7,		/* BPFBENCH_CALIB_OPS dependent add r, r */
	BPFBENCH_OP_CALIB_IMUL = 8,	/* BPFBENCH_CALIB_OPS dependent imul r, r */
	BPFBENCH_OP_COUNT
};

/* Context of one run: an array of u64, as raw_tp test runs pass it. */
struct bpfbench_args {
	__u64 op;		/* enum bpfbench_op */
	__u64 size;		/* bytes per access, 0..BPFBENCH_MAX_SIZE */
	__u64 iterations;	/* 1..BPFBENCH_MAX_ITERATIONS */
	__u64 user_buffer;	/* address of the caller's source buffer */
};

/* Set by each run; the loader zeroes it before the run. */
struct bpfbench_result {
	__u64 elapsed_ns;	/* bpf_ktime_get_ns() after minus before */
	__u64 iterations;	/* iterations bpf_loop() reported done */
	__u64 faults;		/* accesses whose helper returned < 0 */
	__s64 first_error;	/* the first such return value, else 0 */
	__s64 status;		/* 0, or -EINVAL / -EOPNOTSUPP for the args */
	__u64 runs;		/* incremented by every run: proves it ran */
};

#endif /* SMAPBENCH_BPFBENCH_H */
