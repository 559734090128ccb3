// SPDX-License-Identifier: GPL-2.0
/*
 * census_measure.c - `smapbench census measure`: the guest side of the
 * instruction census (docs/census.md). Runs every selected benchmark once
 * between two markers of the census plugin (census/census_protocol.h),
 * which counts the STAC, CLAC, POPF and instructions the kernel executes
 * in between.
 *
 * Before any benchmark runs, the guest declares to the plugin, from
 * /proc/kallsyms: every function of smapbench.ko (a kmod loop's
 * STAC/CLAC are counted in its function's scope, apart from the ioctl's
 * own copies), every loop head smapbench_loop_* (its executions are the
 * iterations), and the kernel's exception and interrupt entry code
 * (asm_*), whose CLAC is counted apart as entry noise.
 *
 * An operation is one call of the benchmark's run() for harness-timed
 * benchmarks (syscall), one loop iteration for kmod (counted by the
 * plugin at the loop head), one counted iteration for bpf. Each
 * benchmark runs long enough (min_time of guest time) that interrupts
 * show as a fraction of an instruction per operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "census/census.h"
#include "census/census_protocol.h"
#include "kmod/uapi/smapbench.h"
#include "measure/context.h"
#include "measure/registry.h"
#include "suites/suite.h"
#include "system/run_context.h"

/* Longest name /proc/kallsyms prints, with room to spare. */
#define KSYM_NAME 256
#define LOOP_PREFIX "smapbench_loop_"

/* ---- the marker page ---------------------------------------------- */

static int marker_open(char *why, size_t whylen)
{
	void *page = mmap((void *)(uintptr_t)CENSUS_MARKER_BASE,
			  CENSUS_MARKER_BYTES, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			  -1, 0);

	if (page == MAP_FAILED) {
		snprintf(why, whylen, "cannot map the marker page at %#llx: %s",
			 (unsigned long long)CENSUS_MARKER_BASE, strerror(errno));
		return -1;
	}
	memset(page, 0xc3, CENSUS_MARKER_BYTES);	/* RET */
	if (mprotect(page, CENSUS_MARKER_BYTES, PROT_READ | PROT_EXEC)) {
		snprintf(why, whylen, "cannot make the marker page executable: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* One byte to the plugin: a call of the RET at its offset. */
static void send_byte(unsigned char byte)
{
	void (*marker)(void) = (void (*)(void))(uintptr_t)
			       (CENSUS_MARKER_BASE + byte);

	marker();
}

static void send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void send(const char *fmt, ...)
{
	char line[CENSUS_LINE_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (const char *p = line; *p; p++)
		send_byte(*p == '\n' ? ' ' : (unsigned char)*p);
	send_byte('\n');
}

/* ---- declarations from /proc/kallsyms ----------------------------- */

struct ksym {
	uint64_t addr;
	char name[KSYM_NAME];
};

struct ksyms {
	struct ksym *module;	/* smapbench.ko's text symbols */
	size_t nmodule, module_cap;
	uint64_t *core;		/* the kernel's text symbol addresses */
	size_t ncore, core_cap;
	struct ksym *entry;	/* asm_* entry code */
	size_t nentry, entry_cap;
};

static int grow(void **array, size_t *cap, size_t count, size_t size)
{
	void *p;

	if (count < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 256;
	p = realloc(*array, *cap * size);
	if (!p)
		return -1;
	*array = p;
	return 0;
}

static int compare_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int is_prefix_symbol(const char *name);

/*
 * Reads the text symbols, and sends the kernel's own to the plugin as it
 * goes: it names the STAC sites it reports with them.
 */
static int read_kallsyms(struct ksyms *k, char *why, size_t whylen)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[KSYM_NAME], owner[KSYM_NAME];
	uint64_t addr, nonzero = 0;
	char type;

	if (!f) {
		snprintf(why, whylen, "cannot read /proc/kallsyms: %s",
			 strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%" SCNx64 " %c %255s [%255[^]]]", &addr,
			       &type, name, owner);

		if (n < 3 || (type != 't' && type != 'T'))
			continue;
		nonzero |= addr;
		if (n == 4 && !strcmp(owner, "smapbench")) {
			if (grow((void **)&k->module, &k->module_cap,
				 k->nmodule, sizeof(*k->module)))
				goto nomem;
			k->module[k->nmodule].addr = addr;
			snprintf(k->module[k->nmodule].name, KSYM_NAME, "%s", name);
			k->nmodule++;
			continue;
		}
		if (n == 4)
			continue;	/* other modules */
		/* named, so that the plugin can say where a STAC ran */
		if (!is_prefix_symbol(name))
			send("sym %" PRIx64 " %s", addr, name);
		if (grow((void **)&k->core, &k->core_cap, k->ncore,
			 sizeof(*k->core)))
			goto nomem;
		k->core[k->ncore++] = addr;
		if (!strncmp(name, "asm_", 4)) {
			if (grow((void **)&k->entry, &k->entry_cap, k->nentry,
				 sizeof(*k->entry)))
				goto nomem;
			k->entry[k->nentry].addr = addr;
			snprintf(k->entry[k->nentry].name, KSYM_NAME, "%s", name);
			k->nentry++;
		}
	}
	fclose(f);
	if (!nonzero) {
		snprintf(why, whylen,
			 "/proc/kallsyms shows no addresses (kernel.kptr_restrict): run as root with kptr_restrict 0 or 1");
		return -1;
	}
	qsort(k->module, k->nmodule, sizeof(*k->module), compare_ksym);
	qsort(k->core, k->ncore, sizeof(*k->core), compare_u64);
	return 0;
nomem:
	fclose(f);
	snprintf(why, whylen, "out of memory reading /proc/kallsyms");
	return -1;
}

static int is_loop_head(const char *name)
{
	size_t len = strlen(name);

	return !strncmp(name, LOOP_PREFIX, strlen(LOOP_PREFIX)) &&
	       !(len > 4 && !strcmp(name + len - 4, "_end"));
}

static int is_loop_label(const char *name)
{
	return !strncmp(name, LOOP_PREFIX, strlen(LOOP_PREFIX));
}

/* Padding and CFI symbols before a function: boundaries, not code. */
static int is_prefix_symbol(const char *name)
{
	return !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6);
}

/*
 * Declares the module's functions (each up to the next symbol that is
 * not a loop label), its loop heads, and the kernel's entry code (each
 * up to the next text symbol). Returns the functions declared.
 */
static size_t declare(const struct ksyms *k)
{
	size_t funcs = 0;

	for (size_t i = 0; i < k->nentry; i++) {
		const uint64_t *next = NULL;
		size_t lo = 0, hi = k->ncore;

		/* first core address above the symbol's */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (k->core[mid] <= k->entry[i].addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < k->ncore)
			next = &k->core[lo];
		if (next)
			send("entry %" PRIx64 " %" PRIx64, k->entry[i].addr, *next);
	}
	for (size_t i = 0; i < k->nmodule; i++) {
		const struct ksym *s = &k->module[i];
		uint64_t end = 0;

		if (is_loop_head(s->name)) {
			send("point %s %" PRIx64, s->name, s->addr);
			continue;
		}
		if (is_loop_label(s->name) || is_prefix_symbol(s->name))
			continue;
		for (size_t j = i + 1; j < k->nmodule && !end; j++)
			if (k->module[j].addr > s->addr &&
			    !is_loop_label(k->module[j].name))
				end = k->module[j].addr;
		if (!end)
			end = s->addr + 1;	/* the last one: its calls only */
		send("func %s %" PRIx64 " %" PRIx64, s->name, s->addr, end);
		funcs++;
	}
	return funcs;
}

/* ---- what the guest is ---------------------------------------------- */

static void send_context(void)
{
	static const char *const keys[] = {
		"kernel_release", "cmdline", "smap_cpuinfo", "smap_cpuid",
		"smap_state", "smap_off_method", "virt", "cpu_model",
		"smapbench_version", "git_revision",
	};
	struct context c = { 0 };
	struct smapbench_info info;
	int fd;

	run_context_collect(&c);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = context_get(&c, keys[i]);

		send("note %s %s", keys[i], v ? v : "");
	}
	context_free(&c);

	fd = open(SMAPBENCH_DEVICE, O_RDWR | O_CLOEXEC);
	memset(&info, 0, sizeof(info));
	if (fd >= 0 && !ioctl(fd, SMAPBENCH_IOC_INFO, &info))
		send("note kmod_smap cpuid=%d feature=%d cr4=%d abi=%u",
		     !!(info.flags & SMAPBENCH_INFO_SMAP_CPUID),
		     !!(info.flags & SMAPBENCH_INFO_SMAP_FEATURE),
		     !!(info.flags & SMAPBENCH_INFO_SMAP_CR4),
		     info.abi_version);
	else
		send("note kmod_smap none");
	if (fd >= 0)
		close(fd);
}

/* ---- running one benchmark ------------------------------------------ */

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* run() n operations, in calls no longer than the benchmark allows. */
static int run_ops(const struct benchmark *b, void *state, uint64_t n)
{
	while (n) {
		uint64_t chunk = b->max_iterations && n > b->max_iterations ?
				 b->max_iterations : n;
		int rc = b->run(state, chunk);

		if (rc)
			return rc;
		n -= chunk;
	}
	return 0;
}

#define MAX_OPS (1ULL << 32)
/* At least this many operations, however slow: a rate needs a few. */
#define MIN_OPS 200

static uint64_t ops_for(uint64_t n, double t, double min_time)
{
	double want = t > 0 ? (double)n * min_time / t : (double)n;

	if (want < (double)n)
		want = (double)n;
	if (want < MIN_OPS)
		want = MIN_OPS;
	return want > (double)MAX_OPS ? MAX_OPS : (uint64_t)want;
}

/*
 * Operations that take about min_time, found by runs that are not
 * counted, after one that warms the path up (a first UDP datagram, page
 * faults). 0 when a run failed.
 */
static uint64_t size_run(const struct benchmark *b, void *state,
			 double min_time)
{
	if (run_ops(b, state, 1))
		return 0;
	for (uint64_t n = 1;; n *= 4) {
		double t = seconds();

		if (run_ops(b, state, n))
			return 0;
		t = seconds() - t;
		if (t >= min_time / 4 || n >= MAX_OPS / 4)
			return ops_for(n, t, min_time);
	}
}

/* The same for a self-timed benchmark: iterations of one sample. */
static uint64_t size_measure(const struct benchmark *b, void *state,
			     double min_time, struct bench_sample *sample,
			     char *why, size_t whylen)
{
	if (b->measure(state, 16, 1, sample, why, whylen))
		return 0;
	for (uint64_t n = 16;; n *= 4) {
		double t = seconds();

		if (b->measure(state, n, 1, sample, why, whylen))
			return 0;
		t = seconds() - t;
		if (t >= min_time / 4 || n >= MAX_OPS / 4)
			return ops_for(n, t, min_time);
	}
}

static void measure_one(const struct benchmark *b,
			const struct census_measure_options *o)
{
	struct bench_sample *samples = NULL;
	char why[512] = "";
	void *state = NULL;
	uint64_t ops = 0;
	int failed = 0, refused = 0;
	double start = seconds();

	if (b->valid && b->valid(b, why, sizeof(why))) {
		send("skip %s\t%s", b->name, why);
		printf("census: %s: skipped: %s\n", b->name, why);
		return;
	}
	if (b->setup && b->setup(b, &state, why, sizeof(why))) {
		send("skip %s\t%s", b->name, why);
		printf("census: %s: skipped: %s\n", b->name, why);
		return;
	}
	samples = calloc(o->samples ? o->samples : 1, sizeof(*samples));
	if (!samples) {
		snprintf(why, sizeof(why), "out of memory");
		failed = 1;
	} else if (b->run) {
		uint64_t n = size_run(b, state, o->min_time);

		if (!n) {
			snprintf(why, sizeof(why), "a sizing run failed");
			failed = 1;
		} else {
			send("begin %s %s %s %s %u %u", b->name, b->suite, b->op,
			     b->variant, b->size, b->batch);
			failed = run_ops(b, state, n) != 0;
			ops = failed ? 0 : n;
			send("end %" PRIu64, ops);
			if (failed)
				snprintf(why, sizeof(why), "run() failed");
		}
	} else if (!strcmp(b->suite, "kmod")) {
		/* The iterations are the loop head's executions. */
		send("begin %s %s %s %s %u %u", b->name, b->suite, b->op,
		     b->variant, b->size, b->batch);
		failed = b->measure(state, b->max_iterations ? b->max_iterations :
				    1U << 20, o->samples, samples, why,
				    sizeof(why)) != 0;
		/*
		 * What the module refuses by design (one iteration longer
		 * than its interrupts-off bound, or not on this CPU) is a
		 * refusal, not a failure.
		 */
		refused = failed && (errno == E2BIG || errno == EOPNOTSUPP);
		send("end 0");
	} else {
		uint64_t n = size_measure(b, state, o->min_time, samples, why,
					  sizeof(why));

		if (!n) {
			failed = 1;
		} else {
			send("begin %s %s %s %s %u %u", b->name, b->suite, b->op,
			     b->variant, b->size, b->batch);
			failed = b->measure(state, n, 1, samples, why,
					    sizeof(why)) != 0;
			ops = failed ? 0 : samples[0].iterations;
			send("end %" PRIu64, ops);
		}
	}
	if (refused) {
		send("skip %s\t%s", b->name, why);
		printf("census: %s: refused: %s\n", b->name, why);
	} else if (failed) {
		send("skip %s\tfailed: %s", b->name, why);
		printf("census: %s: failed: %s\n", b->name, why);
	} else {
		printf("census: %s: %" PRIu64 " ops%s, %.2f s\n", b->name, ops,
		       ops ? "" : " (counted at the loop head)",
		       seconds() - start);
	}
	fflush(stdout);
	free(samples);
	if (b->teardown)
		b->teardown(b, state);
}

int census_measure(const struct census_measure_options *o)
{
	struct registry reg = { 0 };
	struct ksyms k = { 0 };
	char why[512], err[512];
	size_t funcs;
	int status = 1;

	if (marker_open(why, sizeof(why))) {
		fprintf(stderr, "smapbench census: %s\n", why);
		return 1;
	}
	send("hello %d", CENSUS_PROTOCOL_VERSION);
	double start = seconds();

	if (read_kallsyms(&k, why, sizeof(why))) {
		send("note error %s", why);
		fprintf(stderr, "smapbench census: %s\n", why);
		goto out;
	}
	funcs = declare(&k);
	/* Everything translated so far is translated again, knowing them. */
	send("ready");
	send_context();
	send("note declared %zu smapbench.ko functions, %zu entry symbols",
	     funcs, k.nentry);
	printf("census: declared %zu functions of smapbench.ko and %zu entry symbols in %.1f s\n",
	       funcs, k.nentry, seconds() - start);

	if (suite_register_all(&reg)) {
		fprintf(stderr, "smapbench census: out of memory\n");
		goto out;
	}
	registry_keep_suite(&reg, o->suite);
	if (o->quick)
		registry_drop_extended(&reg);
	if (o->filter && registry_keep_matching(&reg, o->filter, err, sizeof(err))) {
		fprintf(stderr, "smapbench census: %s\n", err);
		status = 2;
		goto out;
	}
	for (size_t i = 0; i < reg.count; i++)
		measure_one(reg.items[i], o);
	send("note finished %zu benchmarks", reg.count);
	status = 0;
out:
	registry_free(&reg);
	free(k.module);
	free(k.core);
	free(k.entry);
	return status;
}
