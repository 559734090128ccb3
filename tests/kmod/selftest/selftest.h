/* SPDX-License-Identifier: GPL-2.0 */
/*
 * selftest.h - what the files of kmod_selftest share: the open device,
 * the TAP counters, the caller's buffers and the request helpers.
 *
 * Each file holds one concern (the device, every op, the limits, bad
 * inputs, faults, two CPUs, the fuzzer); main.c runs them in order.
 */
#ifndef SMAPBENCH_KMOD_SELFTEST_H
#define SMAPBENCH_KMOD_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/userfaultfd.h>

#include "suites/kmod/catalogue.h"
#include "kmod/uapi/smapbench.h"

#define PAGE		4096UL
/* The caller's buffer: the largest RUN buffer, and room to straddle. */
#define ARENA_BYTES	(SMAPBENCH_MAX_BUFFER + 2 * PAGE)
#define KERNEL_ADDR	0xffffffff81000000ULL

/* main.c: the device, the counters, the buffers every check uses. */
extern int dev;
extern struct smapbench_info info;
extern bool info_ok;
extern const char *expect_mode;
extern unsigned char *arena;
extern struct smapbench_sample samples[64];

void ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void skip(const char *what, const char *why);
const char *errname(int e);
int run(struct smapbench_run *r);
void request(struct smapbench_run *r, unsigned int op, unsigned int variant,
	     unsigned int size, unsigned int batch, unsigned int iterations,
	     unsigned int nsamples);
bool kernel_at_least(int major, int minor);

/* verdict.c: what a RUN must give back. */
int expected_errno(unsigned int op, unsigned int variant);
const char *insane(const struct smapbench_run *r);
const char *bad_refusal(const struct smapbench_run *r);
bool vcpu_refusal(int got, const struct smapbench_run *r);
bool memchr_u32(const unsigned int *v, unsigned int n, unsigned int value);
/* Runs one op x variant x size and judges what it gave back. */
void run_case(unsigned int op, unsigned int variant, unsigned int size,
	      unsigned int batch);
/* A combination the module must refuse with EINVAL, on every machine. */
void run_refused(unsigned int op, unsigned int variant, unsigned int size,
		 unsigned int batch, const char *why);

/* One function per concern, in the order main() runs them. */
void test_info(void);
void test_permission(void);
void test_matrix(void);
void test_bound(void);
void test_catalogue_sizes(void);
void test_limits(void);
void test_sample_layout(void);
void test_bad_inputs(void);
void test_ac_recovery(void);
void test_fault_paths(void);
void test_eagain(void);
void test_concurrent(void);
void test_contention(void);
void test_rmmod_busy(void);

/* fuzz.c: random ioctls, in this process or in several. */
struct fuzz_plan {
	unsigned long calls;	/* per process */
	double seconds;		/* per process, the calls' deadline */
	unsigned long seed;
	unsigned int jobs;	/* concurrent processes, 1..16 */
};

void test_fuzz(const struct fuzz_plan *plan);

#endif
