// SPDX-License-Identifier: GPL-2.0
/*
 * census_plugin.c - a QEMU TCG plugin that counts what a guest kernel
 * executes: STAC, CLAC, POPF and all instructions in kernel mode, in
 * intervals the guest marks (census_protocol.h).
 *
 *   qemu-system-x86_64 -accel tcg -smp 1 ... \
 *       -plugin build/vm/census/libcensus.so,out=FILE
 *
 * Kernel mode is told by address: an instruction in the upper half of
 * the address space is kernel code (x86-64, 4- and 5-level paging), so
 * no register needs reading (plugin API version 1 has no way to).
 * Every kernel instruction bumps an inline counter; every STAC, CLAC and
 * POPF calls back, to be added to the totals and to the scope of the
 * declared function the CPU executed last: a kmod loop's own STAC/CLAC,
 * including those of the kernel functions it calls, are told apart from
 * the RUN ioctl's copies around it. A CLAC in declared entry code
 * (interrupts, exceptions) is also counted as an entry CLAC: noise, not
 * the operation. Each STAC, CLAC and POPF instruction (its site) has a
 * counter of its own, so that the STACs of an interval can be reported
 * by place, named from the kernel symbols the guest declared.
 *
 * System calls: user-mode SYSCALL instructions are counted inline, and
 * the entry function of each system call the guest declares
 * (__x64_sys_*) calls back when it runs. A STAC is attributed to the
 * system call whose function ran last, as long as no user code ran
 * since (an inline counter of user blocks tells): what a page fault or
 * an interrupt from user mode opens belongs to no system call.
 * Each task keeps its own across a context switch (on_switch_done()).
 *
 * One vCPU: counters are plain, not atomic (-smp 1; a callback from
 * another vCPU is reported as an error). Built against the qemu-plugin.h
 * of QEMU 7.2 (plugin API version 1), the QEMU Debian 12 ships: Debian
 * packages no such header, so scripts/fetch-qemu-plugin-header.sh takes
 * it from Debian's source of that QEMU, verified, into a cache.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "census/census_protocol.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_FUNCS	2048
#define MAX_POINTS	1024
#define MAX_ENTRIES	512
/* Open addressing: a power of two, well above the sites a kernel runs. */
#define MAX_SITES	(1 << 14)
#define NAME_MAX_LEN	96
/* x86-64 has about 460 system calls; room for a kernel with more. */
#define MAX_SYSCALLS	1024
/* (STAC site, system call) pairs: open addressing, a power of two. */
#define MAX_VIAS	(1 << 16)
/* Attributed to no system call (see the header comment). */
#define NO_SYSCALL	(-1)

enum bracket {
	BRACKET_NONE,
	BRACKET_STAC,
	BRACKET_CLAC,
	BRACKET_POPF,
};
/* In a site's what, with the bracket: the instruction is in entry code. */
#define BRACKET_ENTRY	0x10

struct counts {
	uint64_t stac, clac, entry_clac, popf;
};

struct func {
	char name[NAME_MAX_LEN];
	uint64_t start, end;
	uint64_t calls, calls_begin;
	struct counts in, in_begin;
};

struct point {
	char name[NAME_MAX_LEN];
	uint64_t addr;
	uint64_t executions, executions_begin;
};

struct range {
	uint64_t start, end;
};

/* A kernel text symbol, to name the STAC sites outside declared functions. */
struct symbol {
	uint64_t addr;
	char *name;
};

/* A STAC, CLAC or POPF instruction of the kernel, and its executions. */
struct site {
	uint64_t vaddr;
	unsigned int what;		/* enum bracket, BRACKET_ENTRY */
	uint64_t count, count_begin;
};

/* A system call's entry function, and how often it ran. */
struct syscall_entry {
	uint64_t addr;
	char name[NAME_MAX_LEN];
	uint64_t calls, calls_begin;
};

/* The executions of one STAC site while in one system call. */
struct via {
	const struct site *site;	/* NULL: a free slot */
	int syscall;			/* index in syscalls[], or NO_SYSCALL */
	uint64_t count, count_begin;
};

/*
 * Fixed arrays: inline operations hold pointers to these counters for
 * as long as the translated code lives.
 */
static struct func funcs[MAX_FUNCS];
static struct point points[MAX_POINTS];
static struct range entries[MAX_ENTRIES];
static size_t nfuncs, npoints, nentries;
static struct site sites[MAX_SITES];
static size_t nsites;
static struct symbol *symbols;
static size_t nsymbols, symbols_cap;
static bool symbols_sorted;
/* Bounds of everything declared: most code is outside, found fast. */
static uint64_t declared_low = UINT64_MAX, declared_high;

/* Sorted by address at ready; only looked up from then on. */
static struct syscall_entry syscalls[MAX_SYSCALLS];
static size_t nsyscalls;
static bool syscalls_sorted;
static struct via vias[MAX_VIAS];
static size_t nvias;
static bool vias_full;

static uint64_t kinsn, kinsn_begin;
static struct counts total, total_begin;
static struct func *scope;
/* User-mode SYSCALL instructions executed, and user blocks executed. */
static uint64_t user_syscalls, user_syscalls_begin, user_blocks;
/* The system call entered last, and user_blocks at that moment. */
static int current_syscall = NO_SYSCALL;
static uint64_t user_blocks_at_syscall;

static FILE *out;
static char line[CENSUS_LINE_MAX + 1];
static size_t line_len;
static bool line_too_long, in_interval, other_vcpu_seen, sites_full;
/* The translated code was flushed after the declarations (ready). */
static bool flushing, flushed;
static qemu_plugin_id_t self;
static char label[CENSUS_LINE_MAX + 1];
static uint64_t rows;

static bool kernel_address(uint64_t va)
{
	return va >> 63;
}

static void record(const char *kind, const char *text)
{
	fprintf(out, "%s\t%s\n", kind, text);
	fflush(out);
}

/* STAC 0f 01 cb, CLAC 0f 01 ca, POPF 9d, after any prefixes. */
static enum bracket bracket_of(const uint8_t *b, size_t len)
{
	size_t i = 0;

	while (i < len && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf0 ||
			   b[i] == 0xf2 || b[i] == 0xf3 || b[i] == 0x2e ||
			   b[i] == 0x36 || b[i] == 0x3e || b[i] == 0x26 ||
			   b[i] == 0x64 || b[i] == 0x65))
		i++;
	if (i < len && (b[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (len - i == 3 && b[i] == 0x0f && b[i + 1] == 0x01)
		return b[i + 2] == 0xcb ? BRACKET_STAC :
		       b[i + 2] == 0xca ? BRACKET_CLAC : BRACKET_NONE;
	if (len - i == 1 && b[i] == 0x9d)
		return BRACKET_POPF;
	return BRACKET_NONE;
}

static void count_into(struct counts *c, unsigned int what)
{
	switch (what & ~BRACKET_ENTRY) {
	case BRACKET_STAC:
		c->stac++;
		break;
	case BRACKET_CLAC:
		c->clac++;
		if (what & BRACKET_ENTRY)
			c->entry_clac++;
		break;
	case BRACKET_POPF:
		c->popf++;
		break;
	}
}

/* The counter of a STAC site in a system call, made when first needed. */
static struct via *via_of(const struct site *s, int syscall)
{
	uint64_t key = (uint64_t)(uintptr_t)s * 31 + (uint64_t)(syscall + 1);
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 48) & (MAX_VIAS - 1);

	for (size_t probes = 0; probes < MAX_VIAS; probes++) {
		struct via *v = &vias[(i + probes) & (MAX_VIAS - 1)];

		if (v->site == s && v->syscall == syscall)
			return v;
		if (!v->site) {
			if (nvias == MAX_VIAS / 2)
				return NULL;
			v->site = s;
			v->syscall = syscall;
			nvias++;
			return v;
		}
	}
	return NULL;
}

/* The system call a STAC runs in: entered last, and no user code since. */
static int syscall_now(void)
{
	return user_blocks == user_blocks_at_syscall ? current_syscall :
	       NO_SYSCALL;
}

static void on_bracket(unsigned int vcpu, void *arg)
{
	struct site *s = arg;

	if (vcpu)
		other_vcpu_seen = true;
	s->count++;
	count_into(&total, s->what);
	if (scope)
		count_into(&scope->in, s->what);
	if (in_interval && s->what == BRACKET_STAC) {
		struct via *v = via_of(s, syscall_now());

		if (v)
			v->count++;
		else
			vias_full = true;
	}
}

/*
 * Context switches. The system call a STAC is attributed to is that of
 * the task running it: with several tasks in system calls at once (a
 * parent in wait4() while its child sleeps in execve(), threads), the
 * last entry the CPU ran is another task's. __switch_to_asm pushes the
 * callee-saved registers on the previous task's kernel stack and pops
 * them from the next one's, then jumps to __switch_to; kernel stacks are
 * THREAD_SIZE-aligned, so the first and the last address it accesses,
 * shifted by STACK_SHIFT, name the two tasks. Each task's system call is
 * kept while it is switched out.
 */
#define STACK_SHIFT	14	/* THREAD_SIZE: 16 KiB on x86-64 without KASAN */
#define MAX_TASKS	(1 << 14)

struct task_slot {
	uint64_t stack;		/* 0: a free slot */
	int syscall;
};

static struct task_slot tasks[MAX_TASKS];
static size_t ntasks;
/* __switch_to_asm [start, end) and __switch_to's entry; 0: not declared */
static uint64_t switch_start, switch_end, switch_done;
static uint64_t switch_first, switch_last;

static struct task_slot *task_slot(uint64_t stack, bool create)
{
	size_t i = (size_t)((stack * 0x9e3779b97f4a7c15ULL) >> 40) & (MAX_TASKS - 1);

	for (size_t probes = 0; probes < MAX_TASKS; probes++) {
		struct task_slot *t = &tasks[(i + probes) & (MAX_TASKS - 1)];

		if (t->stack == stack)
			return t;
		if (!t->stack) {
			if (!create || ntasks == MAX_TASKS / 2)
				return NULL;
			t->stack = stack;
			ntasks++;
			return t;
		}
	}
	return NULL;
}

static void on_switch_begin(unsigned int vcpu, void *unused)
{
	(void)vcpu;
	(void)unused;
	switch_first = switch_last = 0;
}

static void on_switch_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
			     uint64_t vaddr, void *unused)
{
	(void)vcpu;
	(void)info;
	(void)unused;
	if (!switch_first)
		switch_first = vaddr >> STACK_SHIFT;
	switch_last = vaddr >> STACK_SHIFT;
}

/* __switch_to: the previous task's system call kept, the next one's back. */
static void on_switch_done(unsigned int vcpu, void *unused)
{
	struct task_slot *prev, *next;

	(void)vcpu;
	(void)unused;
	if (!switch_first || switch_first == switch_last)
		return;
	prev = task_slot(switch_first, true);
	if (prev)
		prev->syscall = syscall_now();
	next = task_slot(switch_last, false);
	current_syscall = next ? next->syscall : NO_SYSCALL;
	user_blocks_at_syscall = user_blocks;
}

static void on_syscall_entry(unsigned int vcpu, void *arg)
{
	struct syscall_entry *e = arg;

	if (vcpu)
		other_vcpu_seen = true;
	e->calls++;
	current_syscall = (int)(e - syscalls);
	user_blocks_at_syscall = user_blocks;
}

/* The declared system call entered at va, or NULL. */
static struct syscall_entry *syscall_at(uint64_t va)
{
	size_t lo = 0, hi = nsyscalls;

	if (!syscalls_sorted)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syscalls[mid].addr == va)
			return &syscalls[mid];
		if (syscalls[mid].addr < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The site of an instruction, made on its first translation; NULL if full. */
static struct site *site_of(uint64_t va, unsigned int what)
{
	size_t i = (size_t)((va * 0x9e3779b97f4a7c15ULL) >> 50) & (MAX_SITES - 1);

	for (size_t probes = 0; probes < MAX_SITES; probes++) {
		struct site *s = &sites[(i + probes) & (MAX_SITES - 1)];

		if (s->vaddr == va) {
			s->what = what;
			return s;
		}
		if (!s->vaddr) {
			if (nsites == MAX_SITES / 2)
				return NULL;
			s->vaddr = va;
			s->what = what;
			nsites++;
			return s;
		}
	}
	return NULL;
}

static void enter_scope(unsigned int vcpu, void *func)
{
	(void)vcpu;
	scope = func;
}

static struct func *func_containing(uint64_t va)
{
	if (va < declared_low || va >= declared_high)
		return NULL;
	for (size_t i = 0; i < nfuncs; i++)
		if (va >= funcs[i].start && va < funcs[i].end)
			return &funcs[i];
	return NULL;
}

static bool in_entry_code(uint64_t va)
{
	for (size_t i = 0; i < nentries; i++)
		if (va >= entries[i].start && va < entries[i].end)
			return true;
	return false;
}

static void instrument_kernel(struct qemu_plugin_tb *tb, size_t n)
{
	struct func *f = func_containing(qemu_plugin_tb_vaddr(tb));

	if (f)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, enter_scope,
						     QEMU_PLUGIN_CB_NO_REGS, f);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		enum bracket b = bracket_of(qemu_plugin_insn_data(insn),
					    qemu_plugin_insn_size(insn));

		struct syscall_entry *e = syscall_at(va);

		qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, &kinsn, 1);
		if (e)
			qemu_plugin_register_vcpu_insn_exec_cb(insn,
				on_syscall_entry, QEMU_PLUGIN_CB_NO_REGS, e);
		if (switch_start) {
			if (va == switch_start)
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					on_switch_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
			if (va >= switch_start && va < switch_end)
				qemu_plugin_register_vcpu_mem_cb(insn,
					on_switch_access, QEMU_PLUGIN_CB_NO_REGS,
					QEMU_PLUGIN_MEM_RW, NULL);
			if (va == switch_done)
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					on_switch_done, QEMU_PLUGIN_CB_NO_REGS, NULL);
		}
		if (b != BRACKET_NONE) {
			unsigned int what = b;
			struct site *s;

			if (b == BRACKET_CLAC && in_entry_code(va))
				what |= BRACKET_ENTRY;
			s = site_of(va, what);
			if (s)
				qemu_plugin_register_vcpu_insn_exec_cb(insn,
					on_bracket, QEMU_PLUGIN_CB_NO_REGS, s);
			else
				sites_full = true;
		}
		if (va < declared_low || va >= declared_high)
			continue;
		for (size_t k = 0; k < nfuncs; k++)
			if (funcs[k].start == va)
				qemu_plugin_register_vcpu_insn_exec_inline(insn,
						QEMU_PLUGIN_INLINE_ADD_U64,
						&funcs[k].calls, 1);
		for (size_t k = 0; k < npoints; k++)
			if (points[k].addr == va)
				qemu_plugin_register_vcpu_insn_exec_inline(insn,
						QEMU_PLUGIN_INLINE_ADD_U64,
						&points[k].executions, 1);
	}
}

static void on_marker(unsigned int vcpu, void *byte);

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (kernel_address(qemu_plugin_tb_vaddr(tb))) {
		instrument_kernel(tb, n);
		return;
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &user_blocks, 1);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);

		/* SYSCALL: 0f 05 */
		if (qemu_plugin_insn_size(insn) == 2 && bytes[0] == 0x0f &&
		    bytes[1] == 0x05)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
					QEMU_PLUGIN_INLINE_ADD_U64, &user_syscalls, 1);
		if (va >= CENSUS_MARKER_BASE &&
		    va < CENSUS_MARKER_BASE + CENSUS_MARKER_BYTES)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
					QEMU_PLUGIN_CB_NO_REGS,
					(void *)(uintptr_t)(va - CENSUS_MARKER_BASE));
	}
}

static void widen_declared(uint64_t start, uint64_t end)
{
	if (start < declared_low)
		declared_low = start;
	if (end > declared_high)
		declared_high = end;
}

static void declare_symbol(const char *args)
{
	char name[NAME_MAX_LEN];
	uint64_t addr;

	if (sscanf(args, "%" SCNx64 " %95s", &addr, name) != 2) {
		record("error", "malformed sym line");
		return;
	}
	if (nsymbols == symbols_cap) {
		size_t cap = symbols_cap ? symbols_cap * 2 : 65536;
		struct symbol *p = realloc(symbols, cap * sizeof(*p));

		if (!p) {
			record("error", "out of memory for sym lines");
			return;
		}
		symbols = p;
		symbols_cap = cap;
	}
	symbols[nsymbols].addr = addr;
	symbols[nsymbols].name = strdup(name);
	if (symbols[nsymbols].name)
		nsymbols++;
	symbols_sorted = false;
}

static int compare_symbol(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The symbol at or before va, or NULL. */
static const struct symbol *symbol_at(uint64_t va)
{
	size_t lo = 0, hi = nsymbols;

	if (!symbols_sorted) {
		qsort(symbols, nsymbols, sizeof(*symbols), compare_symbol);
		symbols_sorted = true;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (symbols[mid].addr <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &symbols[lo - 1] : NULL;
}

static void declare(const char *kind, const char *args)
{
	char name[NAME_MAX_LEN];
	uint64_t start, end;

	if (!strcmp(kind, "sym")) {
		declare_symbol(args);
	} else if (!strcmp(kind, "syscall")) {
		if (sscanf(args, "%" SCNx64 " %95s", &start, name) != 2 ||
		    !kernel_address(start)) {
			record("error", "malformed syscall line");
		} else if (nsyscalls == MAX_SYSCALLS) {
			record("error", "too many syscall lines");
		} else {
			struct syscall_entry *e = &syscalls[nsyscalls++];

			e->addr = start;
			snprintf(e->name, sizeof(e->name), "%s", name);
		}
	} else if (!strcmp(kind, "switch")) {
		uint64_t done;

		if (sscanf(args, "%" SCNx64 " %" SCNx64 " %" SCNx64, &start, &end,
			   &done) != 3 || end <= start || !kernel_address(start) ||
		    !kernel_address(done)) {
			record("error", "malformed switch line");
		} else {
			switch_start = start;
			switch_end = end;
			switch_done = done;
		}
	} else if (!strcmp(kind, "func")) {
		if (sscanf(args, "%95s %" SCNx64 " %" SCNx64, name, &start, &end) != 3 ||
		    end <= start || !kernel_address(start)) {
			record("error", "malformed func line");
		} else if (nfuncs == MAX_FUNCS) {
			record("error", "too many func lines");
		} else {
			struct func *f = &funcs[nfuncs++];

			snprintf(f->name, sizeof(f->name), "%s", name);
			f->start = start;
			f->end = end;
			widen_declared(start, end);
		}
	} else if (!strcmp(kind, "point")) {
		if (sscanf(args, "%95s %" SCNx64, name, &start) != 2 ||
		    !kernel_address(start)) {
			record("error", "malformed point line");
		} else if (npoints == MAX_POINTS) {
			record("error", "too many point lines");
		} else {
			struct point *p = &points[npoints++];

			snprintf(p->name, sizeof(p->name), "%s", name);
			p->addr = start;
			widen_declared(start, start + 1);
		}
	} else {
		if (sscanf(args, "%" SCNx64 " %" SCNx64, &start, &end) != 2 ||
		    end <= start) {
			record("error", "malformed entry line");
		} else if (nentries == MAX_ENTRIES) {
			record("error", "too many entry lines");
		} else {
			entries[nentries].start = start;
			entries[nentries].end = end;
			nentries++;
		}
	}
}

static void begin(const char *text)
{
	if (!flushed) {
		record("error", "begin before the declarations took effect (send ready first)");
		return;
	}
	if (in_interval) {
		record("error", "begin inside an interval");
		return;
	}
	snprintf(label, sizeof(label), "%s", text);
	for (size_t i = 0; i < nfuncs; i++) {
		funcs[i].calls_begin = funcs[i].calls;
		funcs[i].in_begin = funcs[i].in;
	}
	for (size_t i = 0; i < npoints; i++)
		points[i].executions_begin = points[i].executions;
	for (size_t i = 0; i < MAX_SITES; i++)
		sites[i].count_begin = sites[i].count;
	for (size_t i = 0; i < nsyscalls; i++)
		syscalls[i].calls_begin = syscalls[i].calls;
	for (size_t i = 0; i < MAX_VIAS; i++)
		vias[i].count_begin = vias[i].count;
	user_syscalls_begin = user_syscalls;
	total_begin = total;
	scope = NULL;
	in_interval = true;
	kinsn_begin = kinsn;
}

static struct counts since(const struct counts *now, const struct counts *then)
{
	return (struct counts){
		.stac = now->stac - then->stac,
		.clac = now->clac - then->clac,
		.entry_clac = now->entry_clac - then->entry_clac,
		.popf = now->popf - then->popf,
	};
}

/*
 * A STAC site as the output names it: <function>+<offset> of a declared
 * function or a sym, else its address in hex.
 */
static void print_site(const struct site *s)
{
	const struct func *f = func_containing(s->vaddr);
	const struct symbol *sym = f ? NULL : symbol_at(s->vaddr);

	if (f)
		fprintf(out, "%s+%#" PRIx64, f->name, s->vaddr - f->start);
	else if (sym)
		fprintf(out, "%s+%#" PRIx64, sym->name, s->vaddr - sym->addr);
	else
		fprintf(out, "%" PRIx64, s->vaddr);
}

static void end(const char *text)
{
	uint64_t instructions = kinsn - kinsn_begin;
	struct counts c = since(&total, &total_begin);
	unsigned long long ops;
	char *rest;

	if (!in_interval) {
		record("error", "end without begin");
		return;
	}
	in_interval = false;
	scope = NULL;
	ops = strtoull(text, &rest, 10);
	if (rest == text || *rest)
		record("error", "end needs the operation count");
	fprintf(out, "row\t%s\t%llu\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64, label, ops, c.stac, c.clac,
		c.entry_clac, c.popf, instructions);
	for (size_t i = 0; i < nfuncs; i++) {
		struct func *f = &funcs[i];
		struct counts in = since(&f->in, &f->in_begin);
		uint64_t calls = f->calls - f->calls_begin;

		if (calls || in.stac || in.clac || in.popf)
			fprintf(out, "\tf:%s=%" PRIu64 "/%" PRIu64 "/%" PRIu64
				"/%" PRIu64 "/%" PRIu64, f->name, calls,
				in.stac, in.clac, in.entry_clac, in.popf);
	}
	for (size_t i = 0; i < npoints; i++) {
		uint64_t runs = points[i].executions - points[i].executions_begin;

		if (runs)
			fprintf(out, "\tp:%s=%" PRIu64, points[i].name, runs);
	}
	for (size_t i = 0; i < MAX_SITES; i++) {
		const struct site *s = &sites[i];
		uint64_t runs = s->count - s->count_begin;

		if (!runs || s->what != BRACKET_STAC)
			continue;
		fputs("\ts:", out);
		print_site(s);
		fprintf(out, "=%" PRIu64, runs);
	}
	fprintf(out, "\tu:syscall=%" PRIu64, user_syscalls - user_syscalls_begin);
	for (size_t i = 0; i < nsyscalls; i++) {
		uint64_t calls = syscalls[i].calls - syscalls[i].calls_begin;

		if (calls)
			fprintf(out, "\ty:%s=%" PRIu64, syscalls[i].name, calls);
	}
	for (size_t i = 0; i < MAX_VIAS; i++) {
		const struct via *v = &vias[i];
		uint64_t runs = v->count - v->count_begin;

		if (!v->site || !runs)
			continue;
		fputs("\tx:", out);
		print_site(v->site);
		fprintf(out, "@%s=%" PRIu64, v->syscall == NO_SYSCALL ? "-" :
			syscalls[v->syscall].name, runs);
	}
	fputc('\n', out);
	fflush(out);
	rows++;
}

static void at_qemu_exit(qemu_plugin_id_t id, void *unused);

static void register_callbacks(qemu_plugin_id_t id)
{
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, at_qemu_exit, NULL);
}

/*
 * The reset flushed all translated code: from now on every block is
 * instrumented knowing all declarations.
 */
static void on_flushed(qemu_plugin_id_t id)
{
	register_callbacks(id);
	flushing = false;
	flushed = true;
}

static int compare_syscall(const void *a, const void *b)
{
	const struct syscall_entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void take_line(void)
{
	char *args = strchr(line, ' ');
	const char *kind = line;

	if (args)
		*args++ = '\0';
	else
		args = line + strlen(line);
	if (!strcmp(kind, "hello")) {
		if (atoi(args) != CENSUS_PROTOCOL_VERSION)
			record("error", "the guest speaks another census protocol version");
	} else if (!strcmp(kind, "func") || !strcmp(kind, "point") ||
		   !strcmp(kind, "entry") || !strcmp(kind, "sym") ||
		   !strcmp(kind, "syscall") || !strcmp(kind, "switch")) {
		if (flushing || flushed)
			record("error", "a declaration after ready");
		else
			declare(kind, args);
	} else if (!strcmp(kind, "ready")) {
		if (!flushing && !flushed) {
			qsort(syscalls, nsyscalls, sizeof(*syscalls),
			      compare_syscall);
			syscalls_sorted = true;
			flushing = true;
			qemu_plugin_reset(self, on_flushed);
		}
	} else if (!strcmp(kind, "begin")) {
		begin(args);
	} else if (!strcmp(kind, "end")) {
		end(args);
	} else if (!strcmp(kind, "note") || !strcmp(kind, "skip")) {
		record(kind, args);
	} else {
		record("error", "unknown line from the guest");
	}
}

static void on_marker(unsigned int vcpu, void *byte)
{
	char c = (char)(uintptr_t)byte;

	if (vcpu)
		other_vcpu_seen = true;
	if (c != '\n') {
		if (line_len < CENSUS_LINE_MAX)
			line[line_len++] = c;
		else
			line_too_long = true;
		return;
	}
	line[line_len] = '\0';
	if (line_too_long)
		record("error", "a line from the guest was too long");
	else
		take_line();
	line_len = 0;
	line_too_long = false;
}

static void at_qemu_exit(qemu_plugin_id_t id, void *unused)
{
	(void)id;
	(void)unused;
	if (other_vcpu_seen)
		record("error", "more than one vCPU: boot with -smp 1");
	if (sites_full)
		record("error", "more STAC/CLAC/POPF sites than the plugin holds: some went uncounted");
	if (vias_full)
		record("error", "more (STAC site, system call) pairs than the plugin holds: some went unattributed");
	if (in_interval)
		record("error", "the guest stopped inside an interval");
	fprintf(out, "exit\t%" PRIu64 "\n", rows);
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;

	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			path = argv[i] + 4;
		} else {
			qemu_plugin_outs("census plugin: unknown argument (it takes out=FILE)\n");
			return -1;
		}
	}
	if (!path || !*path) {
		qemu_plugin_outs("census plugin: needs out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		qemu_plugin_outs("census plugin: cannot open the out= file\n");
		return -1;
	}
	fprintf(out, "census\t%d\n", CENSUS_PROTOCOL_VERSION);
	fflush(out);
	self = id;
	register_callbacks(id);
	return 0;
}
