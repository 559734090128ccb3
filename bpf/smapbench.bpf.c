// SPDX-License-Identifier: GPL-2.0
/*
 * smapbench.bpf.c - ring-0 timing of the kernel's user-copy helpers.
 *
 * Where no module can be loaded (lockdown, distribution kernels without
 * module support), BPF programs still run in ring 0. Each helper timed
 * here is a thin wrapper around a kernel copy routine:
 *
 *   bpf_probe_read_user()       copy_from_user_nofault(): access check,
 *                               nmi_uaccess_okay(), hardened usercopy,
 *                               then STAC; rep movsb; CLAC
 *   bpf_probe_read_kernel()     copy_from_kernel_nofault(): 8-byte moves,
 *                               no STAC/CLAC
 *   bpf_dynptr_read()           memmove() on a kernel buffer: the same
 *                               rep movsb as the user copy, no STAC/CLAC
 *   bpf_probe_read_{user,kernel}_str()  the string variants
 *   bpf_copy_from_user()        copy_from_user(), sleepable programs only
 *
 * so "user read minus kernel memmove" is what the user-access path adds
 * to the same copy loop. The same body is built twice: as a SEC("syscall")
 * program (sleepable, preemptible, migration disabled) and as a
 * SEC("raw_tp") program (preemption off; interrupts off too when the
 * loader runs it on another CPU with BPF_F_TEST_RUN_ON_CPU).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "bpf/bpfbench.h"

#define EINVAL		22
#define EOPNOTSUPP	95

char LICENSE[] SEC("license") = "GPL";

/* Map values (the .bss map): big buffers cannot live on the BPF stack. */
char kernel_source[BPFBENCH_BUFFER_SIZE] __attribute__((aligned(4096)));
char destination[BPFBENCH_BUFFER_SIZE] __attribute__((aligned(4096)));
struct bpfbench_result result;

struct loop_state {
	__u64 size;
	const void *user;
	struct bpf_dynptr *source;
	__u64 faults;
	__s64 first_error;
	__u64 sink;		/* keeps the calib chain's result */
};

static __always_inline void count_fault(struct loop_state *state, long ret)
{
	state->faults++;
	if (!state->first_error)
		state->first_error = ret;
}

/* Each callback re-checks the size: the verifier needs the bound here. */
static long loop_empty(__u64 index, struct loop_state *state)
{
	return 0;
}

static long loop_user_read(__u64 index, struct loop_state *state)
{
	__u64 size = state->size;
	long ret;

	if (size > BPFBENCH_MAX_SIZE)
		return 1;
	ret = bpf_probe_read_user(destination, size, state->user);
	if (ret < 0)
		count_fault(state, ret);
	return 0;
}

static long loop_kernel_read(__u64 index, struct loop_state *state)
{
	__u64 size = state->size;
	long ret;

	if (size > BPFBENCH_MAX_SIZE)
		return 1;
	ret = bpf_probe_read_kernel(destination, size, kernel_source);
	if (ret < 0)
		count_fault(state, ret);
	return 0;
}

static long loop_kernel_memmove(__u64 index, struct loop_state *state)
{
	__u64 size = state->size;
	long ret;

	if (size > BPFBENCH_MAX_SIZE)
		return 1;
	ret = bpf_dynptr_read(destination, size, state->source, 0, 0);
	if (ret < 0)
		count_fault(state, ret);
	return 0;
}

static long loop_user_read_str(__u64 index, struct loop_state *state)
{
	__u64 size = state->size;
	long ret;

	if (size > BPFBENCH_MAX_SIZE)
		return 1;
	ret = bpf_probe_read_user_str(destination, size, state->user);
	if (ret < 0)
		count_fault(state, ret);
	return 0;
}

static long loop_kernel_read_str(__u64 index, struct loop_state *state)
{
	__u64 size = state->size;
	long ret;

	if (size > BPFBENCH_MAX_SIZE)
		return 1;
	ret = bpf_probe_read_kernel_str(destination, size, kernel_source);
	if (ret < 0)
		count_fault(state, ret);
	return 0;
}

/*
 * The calibration chains: the operand is a register whose value comes from
 * the loop index, so neither the verifier nor the core knows it before it
 * executes; the JIT emits `add r64, r64` and `imul r64, r64` (docs/bpf.md).
 * Each iteration's chain starts from the one before (state->sink): chains
 * that started afresh would overlap in the out-of-order window, and 1024
 * adds took 965 cycles on a Zen 4 core. The store and load that carry it
 * add a few cycles per iteration, 0.5% of the add chain.
 */
static long loop_calib(__u64 index, struct loop_state *state)
{
	__u64 chain = state->sink, operand = index | 1;

#pragma unroll
	for (int i = 0; i < BPFBENCH_CALIB_OPS; i++)
		asm volatile("%[chain] += %[operand]"
			     : [chain] "+r"(chain) : [operand] "r"(operand));
	state->sink = chain;
	return 0;
}

static long loop_calib_imul(__u64 index, struct loop_state *state)
{
	__u64 chain = state->sink | 1, operand = (index >> 1) | 3;

#pragma unroll
	for (int i = 0; i < BPFBENCH_CALIB_OPS; i++)
		asm volatile("%[chain] *= %[operand]"
			     : [chain] "+r"(chain) : [operand] "r"(operand));
	state->sink = chain;
	return 0;
}

static long loop_copy_from_user(__u64 index, struct loop_state *state)
{
	__u64 size = state->size;
	long ret;

	if (size > BPFBENCH_MAX_SIZE)
		return 1;
	ret = bpf_copy_from_user(destination, size, state->user);
	if (ret < 0)
		count_fault(state, ret);
	return 0;
}

/*
 * One call site per callback: the verifier inlines bpf_loop() into a
 * plain loop with a direct call only when a call site always passes the
 * same callback, and clang would otherwise merge the switch's calls into
 * one site with the callback in a register (an indirect call, through a
 * retpoline where those are on, in every iteration).
 */
#define TIMED_LOOP(callback)						\
static __noinline long run_##callback(__u64 iterations,			\
				      struct loop_state *state)		\
{									\
	return bpf_loop(iterations, callback, state, 0);		\
}

TIMED_LOOP(loop_empty)
TIMED_LOOP(loop_user_read)
TIMED_LOOP(loop_kernel_read)
TIMED_LOOP(loop_kernel_memmove)
TIMED_LOOP(loop_user_read_str)
TIMED_LOOP(loop_kernel_read_str)
TIMED_LOOP(loop_copy_from_user)
TIMED_LOOP(loop_calib)
TIMED_LOOP(loop_calib_imul)

/*
 * One sample. Everything between the two clock reads is the loop: no
 * map lookups (globals are direct map-value pointers) and, once the
 * verifier has inlined bpf_loop(), one direct call per iteration.
 */
static __always_inline int time_loop(const struct bpfbench_args *args,
				     bool sleepable)
{
	struct loop_state state = {};
	struct bpf_dynptr source;
	__u64 op = args->op;
	__u64 size = args->size;
	__u64 iterations = args->iterations;
	__u64 start, end;
	long done;

	result.runs++;
	if (size > BPFBENCH_MAX_SIZE || iterations == 0 ||
	    iterations > BPFBENCH_MAX_ITERATIONS) {
		result.status = -EINVAL;
		return 0;
	}
	state.size = size;
	state.user = (const void *)args->user_buffer;
	state.source = &source;
	/*
	 * CO-RE: the running kernel's BTF says whether dynptrs exist (5.19);
	 * where they do not, the memmove branch is dead and never verified.
	 */
	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_dynptr_read))
		bpf_dynptr_from_mem(kernel_source, sizeof(kernel_source), 0,
				    &source);

	start = bpf_ktime_get_ns();
	switch (op) {
	case BPFBENCH_OP_EMPTY:
		done = run_loop_empty(iterations, &state);
		break;
	case BPFBENCH_OP_USER_READ:
		done = run_loop_user_read(iterations, &state);
		break;
	case BPFBENCH_OP_KERNEL_READ:
		done = run_loop_kernel_read(iterations, &state);
		break;
	case BPFBENCH_OP_KERNEL_MEMMOVE:
		if (!bpf_core_enum_value_exists(enum bpf_func_id,
						BPF_FUNC_dynptr_read)) {
			result.status = -EOPNOTSUPP;
			return 0;
		}
		done = run_loop_kernel_memmove(iterations, &state);
		break;
	case BPFBENCH_OP_USER_READ_STR:
		done = run_loop_user_read_str(iterations, &state);
		break;
	case BPFBENCH_OP_KERNEL_READ_STR:
		done = run_loop_kernel_read_str(iterations, &state);
		break;
	case BPFBENCH_OP_COPY_FROM_USER:
		if (!sleepable) {
			result.status = -EOPNOTSUPP;
			return 0;
		}
		done = run_loop_copy_from_user(iterations, &state);
		break;
	case BPFBENCH_OP_CALIB:
		done = run_loop_calib(iterations, &state);
		break;
	case BPFBENCH_OP_CALIB_IMUL:
		done = run_loop_calib_imul(iterations, &state);
		break;
	default:
		result.status = -EINVAL;
		return 0;
	}
	end = bpf_ktime_get_ns();

	result.elapsed_ns = end - start;
	result.iterations = done < 0 ? 0 : done;
	result.faults = state.faults;
	result.first_error = state.first_error;
	result.status = done < 0 ? done : 0;
	return 0;
}

SEC("syscall")
int time_syscall(struct bpfbench_args *args)
{
	return time_loop(args, true);
}

SEC("raw_tp")
int time_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	return time_loop((const struct bpfbench_args *)ctx->args, false);
}

/*
 * Not loaded unless the loader is asked to: an index straight from the
 * caller, unchecked, which the verifier must refuse. The loader's tests
 * use it to prove that a rejection reaches the user with its reason.
 */
SEC("?syscall")
int reject_unchecked_index(struct bpfbench_args *args)
{
	return kernel_source[args->size];
}
