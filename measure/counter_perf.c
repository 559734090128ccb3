// SPDX-License-Identifier: GPL-2.0
/*
 * counter_perf.c - core cycles of this thread from a perf event, read in
 * user space: libperf maps the event's page (perf_evsel__mmap) and
 * perf_evsel__read() then uses RDPMC instead of a read() system call.
 * Kernel cycles are counted too when perf_event_paranoid or our
 * capabilities allow it; the note says which. The event is named
 * through libpfm4 when available, else the generic
 * PERF_COUNT_HW_CPU_CYCLES. Unit: core cycles.
 */
#include "measure/counter.h"
#include "measure/pfm_event.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBPERF
#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <x86intrin.h>

static struct perf_evsel *evsel;
static struct perf_thread_map *threads;

static int quiet(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static uint64_t perf_read(void)
{
	struct perf_counts_values counts = { 0 };

	_mm_lfence();
	perf_evsel__read(evsel, 0, 0, &counts);
	_mm_lfence();
	return counts.val;
}

static int read_int(const char *path, long *value)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", value) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set. */
static int has_perf_capability(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long caps = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return !!(caps & ((1ULL << 38) | (1ULL << 21)));
}

static int try_open(struct perf_event_attr *attr)
{
	evsel = perf_evsel__new(attr);
	if (!evsel)
		return -ENOMEM;
	int rc = perf_evsel__open(evsel, NULL, threads);

	if (rc) {
		perf_evsel__delete(evsel);
		evsel = NULL;
	}
	return rc;
}

static int perf_open(struct counter *c, char *why, size_t whylen)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *page;
	char event[128] = "PERF_COUNT_HW_CPU_CYCLES", pfm_why[128] = "";
	long paranoid = 2;
	int kernel, rc;
	uint32_t type;
	uint64_t config;

	libperf_init(quiet);
	read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	kernel = paranoid <= 1 || has_perf_capability();

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	if (pfm_event_encode("cycles", kernel, &type, &config, event,
			     sizeof(event), pfm_why, sizeof(pfm_why)) == 0) {
		attr.type = type;
		attr.config = config;
	}
	attr.exclude_hv = 1;
	attr.exclude_kernel = !kernel;

	threads = perf_thread_map__new_dummy();
	if (!threads) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	perf_thread_map__set_pid(threads, 0, 0);
	rc = try_open(&attr);
	if (rc && kernel) {
		/* Capabilities said yes, the kernel said no: user only. */
		attr.exclude_kernel = 1;
		kernel = 0;
		rc = try_open(&attr);
	}
	if (rc) {
		snprintf(why, whylen,
			 "perf_event_open(%s) failed: %s%s", event, strerror(-rc),
			 -rc == ENOENT || -rc == EOPNOTSUPP ?
			 " (no hardware cycle counter exposed, e.g. under a hypervisor)" : "");
		goto fail;
	}
	if (perf_evsel__mmap(evsel, 0)) {
		snprintf(why, whylen, "perf_evsel__mmap failed: no user-space read");
		goto fail;
	}
	page = perf_evsel__mmap_base(evsel, 0, 0);
	if (!page || !page->cap_user_rdpmc) {
		snprintf(why, whylen,
			 "RDPMC not allowed in user space (/sys/bus/event_source/devices/cpu/rdpmc)");
		goto fail;
	}
	/* The counter must run: two reads around some work must differ. */
	uint64_t first = perf_read();

	for (volatile int spin = 0; spin < 10000; spin++)
		;
	if (perf_read() <= first) {
		snprintf(why, whylen, "the cycle counter does not advance");
		goto fail;
	}
	c->hz = counter_measure_hz(c, 60);
	snprintf(c->note, sizeof(c->note), "%s, %s (perf_event_paranoid=%ld%s)",
		 event, kernel ? "user+kernel cycles" : "user cycles only",
		 paranoid, kernel ? "" : ", no CAP_PERFMON: kernel cycles not counted");
	return 0;
fail:
	if (evsel) {
		perf_evsel__close(evsel);
		perf_evsel__delete(evsel);
		evsel = NULL;
	}
	perf_thread_map__put(threads);
	threads = NULL;
	return -1;
}

static void perf_close(struct counter *c)
{
	(void)c;
	if (evsel) {
		perf_evsel__munmap(evsel);
		perf_evsel__close(evsel);
		perf_evsel__delete(evsel);
		evsel = NULL;
	}
	if (threads)
		perf_thread_map__put(threads);
	threads = NULL;
}
#else
static uint64_t perf_read(void)
{
	return 0;
}

static int perf_open(struct counter *c, char *why, size_t whylen)
{
	(void)c;
	snprintf(why, whylen, "built without libperf");
	return -1;
}

static void perf_close(struct counter *c)
{
	(void)c;
}
#endif

struct counter counter_perf = {
	.name = "perf",
	.unit = "cycles",
	.summary = "core cycles, perf event read with RDPMC (libperf)",
	.open = perf_open,
	.close = perf_close,
	.begin = perf_read,
	.end = perf_read,
};
