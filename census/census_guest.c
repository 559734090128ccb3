// SPDX-License-Identifier: GPL-2.0
/*
 * census_guest.c - the guest side's link to the census plugin; see
 * census_guest.h and census_protocol.h.
 *
 * Symbols come from /proc/kallsyms, not from the kernel's System.map:
 * kallsyms gives the addresses the running kernel really has (after
 * KASLR moved it, and for the modules loaded in this guest, whose
 * addresses no file on disk holds), so every site is named exactly.
 */
#include "census/census_guest.h"

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
#include <unistd.h>

#include "census/census_protocol.h"
#include "kmod/uapi/smapbench.h"
#include "measure/context.h"
#include "system/run_context.h"

/* Longest name /proc/kallsyms prints, with room to spare. */
#define KSYM_NAME 256
#define LOOP_PREFIX "smapbench_loop_"
/* The entry function of system call <name> on x86-64. */
#define SYSCALL_PREFIX "__x64_sys_"

/*
 * Work on the way back to user space that opens windows of its own,
 * declared like system calls under a bracketed name, so that its windows
 * are told apart from those of the call (or the fault) it follows: rseq's
 * update after the task slept or was preempted (on 9p, open and close
 * sleep), and signal delivery.
 */
static const struct {
	const char *symbol, *name;
} return_work[] = {
	{ "__rseq_handle_notify_resume", "[rseq]" },
	{ "arch_do_signal_or_restart", "[signal]" },
};

/* ---- the marker page ---------------------------------------------- */

int census_guest_open(char *why, size_t whylen)
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
	census_guest_send("hello %d", CENSUS_PROTOCOL_VERSION);
	return 0;
}

/* One byte to the plugin: a call of the RET at its offset. */
static void send_byte(unsigned char byte)
{
	void (*marker)(void) = (void (*)(void))(uintptr_t)
			       (CENSUS_MARKER_BASE + byte);

	marker();
}

void census_guest_send(const char *fmt, ...)
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
	uint64_t switch_asm, switch_c;	/* __switch_to_asm, __switch_to */
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

/* Padding and CFI symbols before a function: boundaries, not code. */
static int is_prefix_symbol(const char *name)
{
	return !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6);
}

/*
 * Reads the text symbols, and sends the kernel's own and other modules'
 * to the plugin as it goes: it names the STAC sites it reports with them.
 * System calls' entry functions are declared as such too.
 */
static int read_kallsyms(struct ksyms *k, struct census_declared *d,
			 char *why, size_t whylen)
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
		if (n == 4) {
			/* another module's: named with it, not an entry */
			if (!is_prefix_symbol(name)) {
				census_guest_send("sym %" PRIx64 " %s[%s]", addr,
						  name, owner);
				d->symbols++;
			}
			continue;
		}
		/* named, so that the plugin can say where a STAC ran */
		if (!is_prefix_symbol(name)) {
			census_guest_send("sym %" PRIx64 " %s", addr, name);
			d->symbols++;
		}
		if (!strncmp(name, SYSCALL_PREFIX, strlen(SYSCALL_PREFIX))) {
			census_guest_send("syscall %" PRIx64 " %s", addr,
					  name + strlen(SYSCALL_PREFIX));
			d->syscalls++;
		}
		for (size_t i = 0; i < sizeof(return_work) / sizeof(return_work[0]); i++)
			if (!strcmp(name, return_work[i].symbol))
				census_guest_send("syscall %" PRIx64 " %s", addr,
						  return_work[i].name);
		if (!strcmp(name, "__switch_to_asm"))
			k->switch_asm = addr;
		if (!strcmp(name, "__switch_to"))
			k->switch_c = addr;
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

/* The first core text address above addr, or 0. */
static uint64_t next_core(const struct ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->ncore;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->core[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->ncore ? k->core[lo] : 0;
}

/*
 * Declares the kernel's entry code (each up to the next text symbol),
 * the module's functions (each up to the next symbol that is not a loop
 * label) and its loop heads.
 */
static void declare_ranges(const struct ksyms *k, struct census_declared *d)
{
	for (size_t i = 0; i < k->nentry; i++) {
		uint64_t end = next_core(k, k->entry[i].addr);

		if (end) {
			census_guest_send("entry %" PRIx64 " %" PRIx64,
					  k->entry[i].addr, end);
			d->entries++;
		}
	}
	/* the context switch, so that each task keeps its system call */
	if (k->switch_asm && k->switch_c && next_core(k, k->switch_asm))
		census_guest_send("switch %" PRIx64 " %" PRIx64 " %" PRIx64,
				  k->switch_asm, next_core(k, k->switch_asm),
				  k->switch_c);
	for (size_t i = 0; i < k->nmodule; i++) {
		const struct ksym *s = &k->module[i];
		uint64_t end = 0;

		if (is_loop_head(s->name)) {
			census_guest_send("point %s %" PRIx64, s->name, s->addr);
			d->loop_heads++;
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
		census_guest_send("func %s %" PRIx64 " %" PRIx64, s->name,
				  s->addr, end);
		d->functions++;
	}
}

int census_guest_declare(struct census_declared *d, char *why, size_t whylen)
{
	struct ksyms k = { 0 };
	int rc = 0;

	memset(d, 0, sizeof(*d));
	if (read_kallsyms(&k, d, why, whylen)) {
		census_guest_send("note error %s", why);
		rc = -1;
	} else {
		declare_ranges(&k, d);
		/* Everything translated so far is translated again, knowing them. */
		census_guest_send("ready");
	}
	free(k.module);
	free(k.core);
	free(k.entry);
	return rc;
}

/* ---- what the guest is ---------------------------------------------- */

void census_guest_send_context(void)
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

		census_guest_send("note %s %s", keys[i], v ? v : "");
	}
	context_free(&c);

	fd = open(SMAPBENCH_DEVICE, O_RDWR | O_CLOEXEC);
	memset(&info, 0, sizeof(info));
	if (fd >= 0 && !ioctl(fd, SMAPBENCH_IOC_INFO, &info))
		census_guest_send("note kmod_smap cpuid=%d feature=%d cr4=%d abi=%u",
				  !!(info.flags & SMAPBENCH_INFO_SMAP_CPUID),
				  !!(info.flags & SMAPBENCH_INFO_SMAP_FEATURE),
				  !!(info.flags & SMAPBENCH_INFO_SMAP_CR4),
				  info.abi_version);
	else
		census_guest_send("note kmod_smap none");
	if (fd >= 0)
		close(fd);
}
