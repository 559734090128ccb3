// SPDX-License-Identifier: GPL-2.0
/* pin.c - CPU pinning with hwloc or sysfs; see pin.h. */
#include "measure/pin.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/context.h"

#ifdef HAVE_HWLOC
#include <hwloc.h>
#endif

#define LONG_BITS (sizeof(unsigned long) * CHAR_BIT)

int pin_parse_cpu_list(const char *list, unsigned long *mask, size_t words)
{
	const char *p = list;

	memset(mask, 0, words * sizeof(*mask));
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi;

		if (end == p || lo < 0)
			return -1;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo)
				return -1;
			p = end;
		}
		for (long i = lo; i <= hi; i++) {
			if ((size_t)i >= words * LONG_BITS)
				return -1;
			mask[i / LONG_BITS] |= 1UL << (i % LONG_BITS);
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
		else
			break;
	}
	return 0;
}

static void siblings_of(int cpu, char *out, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 cpu);
	if (context_read_file(path, out, len))
		snprintf(out, len, "%d", cpu);
}

static int verify(int cpu, struct pin_result *r)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		snprintf(r->why, sizeof(r->why), "sched_getaffinity: %s",
			 strerror(errno));
		return -1;
	}
	if (CPU_COUNT(&set) != 1 || !CPU_ISSET(cpu, &set)) {
		snprintf(r->why, sizeof(r->why),
			 "binding to CPU %d did not hold (affinity has %d CPUs)",
			 cpu, CPU_COUNT(&set));
		return -1;
	}
	return 0;
}

/* Pick the first thread of the last core we may run on (sysfs). */
static int choose_sysfs(const cpu_set_t *allowed)
{
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--) {
		char list[128];
		unsigned long mask[1024 / LONG_BITS];
		int first = -1;

		if (!CPU_ISSET(cpu, allowed))
			continue;
		siblings_of(cpu, list, sizeof(list));
		if (pin_parse_cpu_list(list, mask, 1024 / LONG_BITS))
			return cpu;
		for (int i = 0; i < 1024; i++)
			if ((mask[i / LONG_BITS] >> (i % LONG_BITS)) & 1) {
				first = i;
				break;
			}
		if (first >= 0 && CPU_ISSET(first, allowed))
			return first;
		return cpu;
	}
	return -1;
}

#ifdef HAVE_HWLOC
static int choose_hwloc(hwloc_topology_t topo, const cpu_set_t *allowed)
{
	int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);

	for (int i = cores - 1; i >= 0; i--) {
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, i);
		int pu;

		if (!core || !core->cpuset)
			continue;
		pu = hwloc_bitmap_first(core->cpuset);
		if (pu >= 0 && pu < CPU_SETSIZE && CPU_ISSET(pu, allowed))
			return pu;
	}
	return -1;
}

const char *pin_topology_source(void)
{
	return "hwloc";
}
#else
const char *pin_topology_source(void)
{
	return "sysfs";
}
#endif

int pin_to_core(int cpu, struct pin_result *r)
{
	cpu_set_t allowed, set;

	memset(r, 0, sizeof(*r));
	r->cpu = -1;
	r->method = "sched_setaffinity";
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(r->why, sizeof(r->why), "sched_getaffinity: %s",
			 strerror(errno));
		return -1;
	}
	if (cpu >= 0 && (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed))) {
		snprintf(r->why, sizeof(r->why),
			 "CPU %d is not online or not in this process's affinity mask",
			 cpu);
		return -2;
	}
#ifdef HAVE_HWLOC
	hwloc_topology_t topo;

	if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
		if (cpu < 0)
			cpu = choose_hwloc(topo, &allowed);
		if (cpu >= 0) {
			hwloc_bitmap_t one = hwloc_bitmap_alloc();

			hwloc_bitmap_only(one, (unsigned)cpu);
			if (hwloc_set_cpubind(topo, one, HWLOC_CPUBIND_THREAD |
					      HWLOC_CPUBIND_STRICT) == 0)
				r->method = "hwloc";
			hwloc_bitmap_free(one);
		}
		hwloc_topology_destroy(topo);
	}
#endif
	if (cpu < 0)
		cpu = choose_sysfs(&allowed);
	if (cpu < 0) {
		snprintf(r->why, sizeof(r->why), "no CPU to pin to");
		return -1;
	}
	if (strcmp(r->method, "hwloc")) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			snprintf(r->why, sizeof(r->why),
				 "sched_setaffinity(CPU %d): %s", cpu,
				 strerror(errno));
			return -1;
		}
	}
	if (verify(cpu, r))
		return -1;
	r->cpu = cpu;
	siblings_of(cpu, r->siblings, sizeof(r->siblings));
	return 0;
}

static int read_cpu_times(int cpu, unsigned long long *busy,
			  unsigned long long *total)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512], name[16];
	int found = -1;

	if (!f)
		return -1;
	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };

		if (strncmp(line, name, strlen(name)))
			continue;
		if (sscanf(line + strlen(name), "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) < 4)
			break;
		*total = 0;
		for (int i = 0; i < 8; i++)
			*total += v[i];
		/* idle and iowait are not busy */
		*busy = *total - v[3] - v[4];
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

double pin_cpu_busy(int cpu, unsigned ms)
{
	unsigned long long b0, t0, b1, t1;
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	if (read_cpu_times(cpu, &b0, &t0))
		return -1;
	nanosleep(&ts, NULL);
	if (read_cpu_times(cpu, &b1, &t1) || t1 <= t0)
		return -1;
	return (double)(b1 - b0) / (double)(t1 - t0);
}

int pin_realtime(char *why, size_t whylen)
{
	struct sched_param p = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &p)) {
		snprintf(why, whylen, "SCHED_FIFO: %s%s", strerror(errno),
			 errno == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
		return -1;
	}
	return 0;
}
