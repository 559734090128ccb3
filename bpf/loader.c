// SPDX-License-Identifier: GPL-2.0
/*
 * loader.c - libbpf side of the BPF timing programs: checks that BPF can
 * run here (and says precisely why not), loads the skeleton, and runs
 * one BPF_PROG_TEST_RUN per sample in the requested mode.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/loader.h"
#include "measure/context.h"
#include "smapbench.skel.h"

#define DEFAULT_BTF_PATH	"/sys/kernel/btf/vmlinux"
#define VERIFIER_LOG_SIZE	(256 * 1024)
#define LIBBPF_LOG_SIZE		4096

struct bpfbench {
	struct smapbench_bpf *skel;
	char *user_buffer;		/* BPFBENCH_BUFFER_SIZE, locked */
	bool have_dynptr;
	int cpus;			/* online CPUs */
};

static int fail(struct bpfbench_error *err, enum bpfbench_status status,
		int error, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct bpfbench_error *err, enum bpfbench_status status,
		int error, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->status = status;
	err->error = error;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -1;
}

/* libbpf's own messages, kept so that a failure can quote them. */
static char libbpf_log[LIBBPF_LOG_SIZE];
static size_t libbpf_log_len;

static int capture_libbpf(enum libbpf_print_level level, const char *fmt,
			  va_list ap)
{
	char line[512];
	int len;

	if (level == LIBBPF_DEBUG)
		return 0;
	len = vsnprintf(line, sizeof(line), fmt, ap);
	if (len <= 0)
		return 0;
	if ((size_t)len >= sizeof(line))
		len = sizeof(line) - 1;
	if (libbpf_log_len + len >= sizeof(libbpf_log))
		libbpf_log_len = 0;	/* keep the latest messages */
	memcpy(libbpf_log + libbpf_log_len, line, len);
	libbpf_log_len += len;
	libbpf_log[libbpf_log_len] = '\0';
	return 0;
}

/* Whether a log line says why, rather than tracing instructions. */
static bool telling_line(const char *line, size_t len)
{
	static const char *const noise[] = { "processed ", "verification time",
					     "stack depth", "-- " };

	if (len == 0 || (line[0] >= '0' && line[0] <= '9') || line[0] == ';')
		return false;
	for (size_t i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
		if (strncmp(line, noise[i], strlen(noise[i])) == 0)
			return false;
	return true;
}

/*
 * The last `lines` lines of a verifier or libbpf log that say why it
 * failed (instruction traces and statistics left out), joined by "; ".
 */
static void log_tail(const char *log, unsigned lines, char *out,
		     size_t outlen)
{
	const char *picked[8], *end = log + strlen(log);
	size_t picked_len[8];
	unsigned found = 0;

	if (lines > 8)
		lines = 8;
	while (end > log && found < lines) {
		const char *start = end;
		size_t len;

		while (start > log && start[-1] != '\n')
			start--;
		len = end - start;
		if (len && start[len - 1] == '\n')
			len--;
		if (telling_line(start, len)) {
			picked[found] = start;
			picked_len[found++] = len;
		}
		end = start > log ? start - 1 : log;
	}
	out[0] = '\0';
	while (found--) {
		size_t used = strlen(out);

		snprintf(out + used, outlen - used, "%s%.*s", used ? "; " : "",
			 (int)picked_len[found], picked[found]);
	}
}

/* "prog 'name': failed to load" from libbpf's messages, if any. */
static void failed_program(char *name, size_t len)
{
	const char *p = strstr(libbpf_log, "prog '");
	const char *q;

	snprintf(name, len, "?");
	if (!p)
		return;
	p += strlen("prog '");
	q = strchr(p, '\'');
	if (q)
		snprintf(name, len, "%.*s", (int)(q - p), p);
}

static int permission_denied(struct bpfbench_error *err, int error,
			     const char *what)
{
	char unpriv[16] = "?";

	context_read_file("/proc/sys/kernel/unprivileged_bpf_disabled", unpriv,
			  sizeof(unpriv));
	return fail(err, BPFBENCH_PERMISSION, error,
		    "permission denied %s: BPF timing programs need CAP_BPF and "
		    "CAP_PERFMON (or CAP_SYS_ADMIN), and this process has not "
		    "got them (kernel.unprivileged_bpf_disabled=%s); run as root",
		    what, unpriv);
}

/* Everything that can be said before loading anything. */
static int check_environment(const char *btf_path, struct bpfbench_error *err)
{
	char lockdown[128];
	int fd;

	if (access(btf_path, R_OK) != 0)
		return fail(err, BPFBENCH_NO_BTF, errno,
			    "no kernel BTF at %s (%s): the programs are relocated "
			    "against it (CO-RE); the kernel needs "
			    "CONFIG_DEBUG_INFO_BTF=y", btf_path, strerror(errno));

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "smapbench_probe", 4, 4, 1,
			    NULL);
	if (fd < 0) {
		int error = errno;

		if (error == ENOSYS)
			return fail(err, BPFBENCH_DISABLED, error,
				    "BPF is disabled: the kernel has no bpf() "
				    "system call (CONFIG_BPF_SYSCALL=n) or a "
				    "seccomp filter forbids it");
		if (error == EPERM || error == EACCES)
			return permission_denied(err, error,
						 "creating a BPF map");
		return fail(err, BPFBENCH_FAILED, error,
			    "cannot create a BPF map: %s", strerror(error));
	}
	close(fd);

	if (context_read_file("/sys/kernel/security/lockdown", lockdown,
			      sizeof(lockdown)) == 0 &&
	    strstr(lockdown, "[confidentiality]"))
		return fail(err, BPFBENCH_LOCKDOWN, EPERM,
			    "kernel lockdown is 'confidentiality': "
			    "bpf_probe_read_kernel(), the baseline of every "
			    "user read, is forbidden");
	return 0;
}

static int check_kernel_features(struct bpfbench *b,
				 struct bpfbench_error *err)
{
	int ret;

	errno = 0;
	ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SYSCALL, NULL);
	/* The probe says "no" for a refused load too: tell the two apart. */
	if (ret <= 0 && (errno == EPERM || errno == EACCES))
		return permission_denied(err, errno, "loading a probe program");
	if (ret <= 0)
		return fail(err, BPFBENCH_TOO_OLD, EOPNOTSUPP,
			    "kernel too old: no BPF_PROG_TYPE_SYSCALL programs "
			    "(Linux 5.14 or later)");
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT,
				    BPF_FUNC_loop, NULL) <= 0)
		return fail(err, BPFBENCH_TOO_OLD, EOPNOTSUPP,
			    "kernel too old: no bpf_loop() helper "
			    "(Linux 5.17 or later)");
	b->have_dynptr = libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT,
						 BPF_FUNC_dynptr_read,
						 NULL) > 0;
	return 0;
}

static int load_programs(struct bpfbench *b, const struct bpfbench_options *opts,
			 const char *btf_path, struct bpfbench_error *err)
{
	char *verifier_log = calloc(1, VERIFIER_LOG_SIZE);
	LIBBPF_OPTS(bpf_object_open_opts, open_opts,
		    .btf_custom_path = opts->btf_path ? btf_path : NULL,
		    .kernel_log_buf = verifier_log,
		    .kernel_log_size = VERIFIER_LOG_SIZE);
	char reason[512], program[64];
	int ret, error;

	if (!verifier_log)
		return fail(err, BPFBENCH_FAILED, ENOMEM, "out of memory");
	b->skel = smapbench_bpf__open_opts(&open_opts);
	if (!b->skel) {
		error = errno;
		free(verifier_log);
		log_tail(libbpf_log, 2, reason, sizeof(reason));
		return fail(err, BPFBENCH_FAILED, error,
			    "cannot open the BPF object: %s (%s)",
			    strerror(error), reason);
	}
	if (opts->load_rejected_program)
		bpf_program__set_autoload(b->skel->progs.reject_unchecked_index,
					  true);

	ret = smapbench_bpf__load(b->skel);
	if (ret == 0) {
		free(verifier_log);
		if (!b->skel->bss)
			return fail(err, BPFBENCH_TOO_OLD, EOPNOTSUPP,
				    "kernel too old: global variables cannot be "
				    "memory-mapped (Linux 5.5 or later)");
		return 0;
	}
	error = -ret;
	failed_program(program, sizeof(program));
	if (error == EPERM) {
		free(verifier_log);
		return permission_denied(err, error, "loading the programs");
	}
	if (verifier_log[0]) {
		log_tail(verifier_log, 2, reason, sizeof(reason));
		free(verifier_log);
		return fail(err, BPFBENCH_VERIFIER, error,
			    "the verifier rejected program '%s': %s", program,
			    reason);
	}
	free(verifier_log);
	log_tail(libbpf_log, 2, reason, sizeof(reason));
	return fail(err, BPFBENCH_FAILED, error,
		    "cannot load program '%s': %s (%s)", program,
		    strerror(error), reason);
}

int bpfbench_open(const struct bpfbench_options *opts, struct bpfbench **out,
		  struct bpfbench_error *err)
{
	static const struct bpfbench_options defaults;
	libbpf_print_fn_t previous;
	const char *btf_path;
	struct bpfbench *b;
	int ret;

	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!opts)
		opts = &defaults;
	btf_path = opts->btf_path ? opts->btf_path : DEFAULT_BTF_PATH;

	b = calloc(1, sizeof(*b));
	if (!b)
		return fail(err, BPFBENCH_FAILED, ENOMEM, "out of memory");
	b->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);

	libbpf_log_len = 0;
	libbpf_log[0] = '\0';
	previous = libbpf_set_print(capture_libbpf);
	ret = check_environment(btf_path, err);
	if (!ret)
		ret = check_kernel_features(b, err);
	if (!ret)
		ret = load_programs(b, opts, btf_path, err);
	libbpf_set_print(previous);
	if (ret)
		goto failed;

	b->user_buffer = mmap(NULL, BPFBENCH_BUFFER_SIZE,
			      PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (b->user_buffer == MAP_FAILED) {
		b->user_buffer = NULL;
		fail(err, BPFBENCH_FAILED, errno, "cannot map the user buffer: %s",
		     strerror(errno));
		goto failed;
	}
	/*
	 * Resident pages: the nofault helpers run with page faults disabled
	 * and would count a fault instead of reading. Without the lock
	 * (RLIMIT_MEMLOCK) the populated pages are still there.
	 */
	mlock(b->user_buffer, BPFBENCH_BUFFER_SIZE);
	memset(b->user_buffer, 'u', BPFBENCH_BUFFER_SIZE);
	*out = b;
	return 0;

failed:
	bpfbench_close(b);
	return -1;
}

void bpfbench_close(struct bpfbench *b)
{
	if (!b)
		return;
	smapbench_bpf__destroy(b->skel);
	if (b->user_buffer)
		munmap(b->user_buffer, BPFBENCH_BUFFER_SIZE);
	free(b);
}

int bpfbench_supported(const struct bpfbench *b, enum bpfbench_mode mode,
		       enum bpfbench_op op, struct bpfbench_error *err)
{
	if ((unsigned)mode >= BPFBENCH_MODE_COUNT ||
	    (unsigned)op >= BPFBENCH_OP_COUNT)
		return fail(err, BPFBENCH_INVALID, EINVAL,
			    "unknown mode %d or op %d", mode, op);
	if (op == BPFBENCH_OP_COPY_FROM_USER && mode != BPFBENCH_MODE_SYSCALL)
		return fail(err, BPFBENCH_UNSUPPORTED, EOPNOTSUPP,
			    "bpf_copy_from_user() may sleep: only the sleepable "
			    "syscall program can call it");
	if (op == BPFBENCH_OP_KERNEL_MEMMOVE && !b->have_dynptr)
		return fail(err, BPFBENCH_TOO_OLD, EOPNOTSUPP,
			    "kernel too old: no bpf_dynptr_read() (Linux 5.19 "
			    "or later)");
	if (mode == BPFBENCH_MODE_IPI && b->cpus < 2)
		return fail(err, BPFBENCH_UNSUPPORTED, EOPNOTSUPP,
			    "raw_tp_ipi needs a second online CPU to send the "
			    "interrupt from; %d online", b->cpus);
	return 0;
}

/*
 * Both sources hold size - 1 non-zero bytes and a NUL, so the string
 * helpers copy exactly size bytes, as the others do.
 */
static void prepare_sources(struct bpfbench *b, uint32_t size)
{
	char *kernel_source = b->skel->bss->kernel_source;

	memset(b->user_buffer, 'u', BPFBENCH_BUFFER_SIZE);
	memset(kernel_source, 'k', BPFBENCH_BUFFER_SIZE);
	if (size) {
		b->user_buffer[size - 1] = '\0';
		kernel_source[size - 1] = '\0';
	}
}

struct run_job {
	struct bpfbench *b;
	int prog_fd;
	struct bpfbench_args args;
	__u32 flags;			/* BPF_F_TEST_RUN_ON_CPU or 0 */
	int cpu;			/* where the program runs */
	struct bpfbench_sample *samples;
	size_t n;
	struct bpfbench_error *err;
	int ret;
	atomic_bool done;
};

static int run_once(struct run_job *job, struct bpfbench_sample *sample)
{
	struct bpfbench_result *result = &job->b->skel->bss->result;
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .ctx_in = &job->args,
		    .ctx_size_in = sizeof(job->args),
		    .flags = job->flags,
		    .cpu = job->flags ? (__u32)job->cpu : 0);
	int ret;

	memset(result, 0, sizeof(*result));
	ret = bpf_prog_test_run_opts(job->prog_fd, &opts);
	if (ret < 0) {
		int error = errno;

		if (error == EPERM)
			return permission_denied(job->err, error,
						 "running the program");
		return fail(job->err, BPFBENCH_FAILED, error,
			    "BPF_PROG_TEST_RUN failed: %s", strerror(error));
	}
	if (result->runs != 1)
		return fail(job->err, BPFBENCH_FAILED, EIO,
			    "the program ran %llu times instead of once",
			    (unsigned long long)result->runs);
	if (result->status)
		return fail(job->err, BPFBENCH_FAILED, (int)-result->status,
			    "the program refused the request: %s",
			    strerror((int)-result->status));
	sample->elapsed_ns = result->elapsed_ns;
	sample->iterations = result->iterations;
	sample->faults = result->faults;
	sample->first_error = result->first_error;
	sample->cpu = job->flags ? job->cpu : sched_getcpu();
	return 0;
}

static void *run_samples(void *arg)
{
	struct run_job *job = arg;

	job->ret = 0;
	for (size_t i = 0; i < job->n && !job->ret; i++)
		job->ret = run_once(job, &job->samples[i]);
	atomic_store_explicit(&job->done, true, memory_order_release);
	return NULL;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#endif
}

/*
 * raw_tp_ipi: a helper thread on another CPU sends every run to this
 * CPU, where this thread spins meanwhile, so the interrupted task is
 * ours and user addresses resolve in our address space.
 */
static int run_by_interrupt(struct run_job *job)
{
	pthread_attr_t attr;
	pthread_t thread;
	cpu_set_t set, old_set;
	struct sched_param old_param;
	int ret = -1, pinned, realtime, old_policy;
	int cpus = (int)sysconf(_SC_NPROCESSORS_CONF);

	/*
	 * The interrupt must find this thread on job->cpu: an unpinned
	 * caller could be moved away while it spins, and the program would
	 * then read user memory of whatever task took the CPU.
	 */
	pinned = !pthread_getaffinity_np(pthread_self(), sizeof(old_set),
					&old_set);
	CPU_ZERO(&set);
	CPU_SET(job->cpu, &set);
	if (pinned && pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		pinned = 0;
	/*
	 * Nor may another task take the CPU while we wait: the interrupt
	 * would then find that task. A real-time class keeps ordinary tasks
	 * off for the few milliseconds of the wait (root has it; without it,
	 * the suite's retries are left to cope).
	 */
	realtime = !pthread_getschedparam(pthread_self(), &old_policy,
					  &old_param) &&
		   !pthread_setschedparam(pthread_self(), SCHED_FIFO,
					  &(struct sched_param){
						  .sched_priority = 1 });

	if (cpus > CPU_SETSIZE)
		cpus = CPU_SETSIZE;
	/* Offline CPUs refuse the affinity: try the next. */
	for (int other = 0; other < cpus && ret; other++) {
		if (other == job->cpu)
			continue;
		CPU_ZERO(&set);
		CPU_SET(other, &set);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		/* The sender needs no real-time class: it only waits. */
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
		pthread_attr_setschedparam(&attr,
					   &(struct sched_param){ 0 });
		atomic_store(&job->done, false);
		ret = pthread_create(&thread, &attr, run_samples, job);
		pthread_attr_destroy(&attr);
	}
	if (ret) {
		if (realtime)
			pthread_setschedparam(pthread_self(), old_policy,
					      &old_param);
		if (pinned)
			pthread_setaffinity_np(pthread_self(), sizeof(old_set),
					       &old_set);
		return fail(job->err, BPFBENCH_UNSUPPORTED, ret,
			    "cannot start a thread on a CPU other than %d: %s",
			    job->cpu, strerror(ret));
	}
	while (!atomic_load_explicit(&job->done, memory_order_acquire))
		cpu_relax();
	pthread_join(thread, NULL);
	if (realtime)
		pthread_setschedparam(pthread_self(), old_policy, &old_param);
	if (pinned)
		pthread_setaffinity_np(pthread_self(), sizeof(old_set), &old_set);
	return job->ret;
}

int bpfbench_run(struct bpfbench *b, const struct bpfbench_request *req,
		 struct bpfbench_sample *samples, size_t n,
		 struct bpfbench_error *err)
{
	struct run_job job = {
		.b = b,
		.samples = samples,
		.n = n,
		.err = err,
	};

	if (err)
		memset(err, 0, sizeof(*err));
	if (bpfbench_supported(b, req->mode, req->op, err))
		return -1;
	if (req->size > BPFBENCH_MAX_SIZE || req->iterations == 0 ||
	    req->iterations > BPFBENCH_MAX_ITERATIONS)
		return fail(err, BPFBENCH_INVALID, EINVAL,
			    "size %u or iterations %llu out of range (size <= %u, "
			    "1 <= iterations <= %u)", req->size,
			    (unsigned long long)req->iterations,
			    BPFBENCH_MAX_SIZE, BPFBENCH_MAX_ITERATIONS);

	prepare_sources(b, req->size);
	job.args.op = req->op;
	job.args.size = req->size;
	job.args.iterations = req->iterations;
	job.args.user_buffer = (__u64)(uintptr_t)(req->user_buffer ?
						    req->user_buffer :
						    b->user_buffer);
	job.cpu = sched_getcpu();
	if (req->mode == BPFBENCH_MODE_SYSCALL) {
		job.prog_fd = bpf_program__fd(b->skel->progs.time_syscall);
	} else {
		job.prog_fd = bpf_program__fd(b->skel->progs.time_raw_tp);
		if (req->mode == BPFBENCH_MODE_IPI)
			job.flags = BPF_F_TEST_RUN_ON_CPU;
	}
	if (job.flags)
		return run_by_interrupt(&job);
	run_samples(&job);
	return job.ret;
}
