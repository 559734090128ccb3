// SPDX-License-Identifier: GPL-2.0
/*
 * faults.c - page faults inside the timed loops, EAGAIN on a fault that cannot be served, EFLAGS.AC left set.
 */

#include "tests/kmod/selftest/selftest.h"

/* ---- EFLAGS.AC left set -------------------------------------------- */

#define INJECT_PARAM "/sys/module/smapbench/parameters/inject_ac_leak"

/*
 * The module's own check after every loop: the parameter makes the next
 * window end with AC set. RUN must fail with EIO, and the log line the
 * module writes after clearing AC must show EFLAGS with AC before and
 * without it after, cleared with CLAC where CPUID has SMAP, else POPF.
 */
void test_ac_recovery(void)
{
	const char *insn = info.flags & SMAPBENCH_INFO_SMAP_CPUID ? "CLAC" : "POPF";
	unsigned long before = 0, after = ~0UL;
	char used[8] = "", line[160] = "";
	struct smapbench_run r;
	char *log, *p, *last = NULL;
	FILE *f;
	int got, len;

	f = fopen(INJECT_PARAM, "w");
	if (!f) {
		skip("RUN with EFLAGS.AC left set fails with EIO and AC is cleared",
		     INJECT_PARAM " not writable");
		return;
	}
	fputs("1\n", f);
	fclose(f);
	request(&r, SMAPBENCH_OP_PUT_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	got = run(&r);
	ok(got == EIO, "RUN with an injected EFLAGS.AC leak returns EIO (got %s)",
	   errname(got));

	f = fopen(INJECT_PARAM, "r");
	if (f && fgets(line, sizeof(line), f))
		line[strcspn(line, "\n")] = '\0';
	ok(f && line[0] && atoi(line) == 0,
	   "the injection was used once (inject_ac_leak now %s)", line);
	if (f)
		fclose(f);

	len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	log = len > 0 ? calloc(1, (size_t)len + 1) : NULL;
	if (log && klogctl(3, log, len) > 0) {	/* SYSLOG_ACTION_READ_ALL */
		for (p = log; (p = strstr(p, "injected EFLAGS.AC leak")); p++)
			last = p;
	}
	if (last)
		sscanf(last, "injected EFLAGS.AC leak: cleared with %7s EFLAGS %lx -> %lx",
		       used, &before, &after);
	if (used[0] && used[strlen(used) - 1] == ',')
		used[strlen(used) - 1] = '\0';
	ok(last && (before & (1UL << 18)) && !(after & (1UL << 18)) &&
	   !strcmp(used, insn),
	   "the module cleared AC with %s: EFLAGS %#lx -> %#lx (expected %s, AC bit 18 set before and clear after)",
	   used[0] ? used : "?", before, after, insn);
	free(log);

	request(&r, SMAPBENCH_OP_PUT_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	got = run(&r);
	ok(!got, "RUN works again after the recovery (%s)", errname(got));
}


/* ---- page faults inside the timed loops --------------------------- */

static volatile bool zapping;

/* Drops the buffer's pages over and over: the loops then fault. */
static void *zapper(void *arg)
{
	(void)arg;
	while (zapping)
		madvise(arena, 2 * PAGE, MADV_DONTNEED);
	return NULL;
}

/*
 * While another thread drops the buffer's pages, a run re-faults them
 * between windows; a window that keeps finding them gone ends the run
 * with EAGAIN. Never EFAULT: the buffer is valid all along.
 */
void test_fault_paths(void)
{
	unsigned int v, k, eagain_total = 0;
	pthread_t t;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("RUN while another thread drops the buffer's pages",
		     "needs 2 CPUs");
		return;
	}
	zapping = true;
	if (pthread_create(&t, NULL, zapper, NULL)) {
		ok(false, "pthread_create for the page zapper");
		return;
	}
	for (v = 0; v < SMAPBENCH_VARIANT_NONE; v++) {
		unsigned int ok_runs = 0, eagain = 0, faults = 0, other = 0;
		unsigned int refused = 0;
		unsigned long refaults = 0;
		int want = expected_errno(SMAPBENCH_OP_GET_USER, v);
		int last_other = 0;

		if (want) {
			struct smapbench_run r;
			int got;

			request(&r, SMAPBENCH_OP_GET_USER, v, 8,
				v == SMAPBENCH_VARIANT_MASKED ? 2 : 0, 64, 32);
			got = run(&r);
			ok(got == want, "RUN %s while pages are dropped returns %s (got %s)",
			   kmod_variant_name(v), errname(want), errname(got));
			continue;
		}

		for (k = 0; k < 20; k++) {
			struct smapbench_run r;
			int got;

			request(&r, k & 1 ? SMAPBENCH_OP_COPY_FROM_USER :
				SMAPBENCH_OP_GET_USER, v, k & 1 ? 4096 : 8,
				v == SMAPBENCH_VARIANT_BATCHED ||
				v == SMAPBENCH_VARIANT_MASKED ? 2 : 0, 64, 32);
			got = run(&r);
			if (!got || got == EAGAIN)
				refaults += r.refaults;
			if (!got)
				ok_runs++;
			else if (got == EAGAIN)
				eagain++;
			else if (got == EFAULT)
				faults++;
			else if (vcpu_refusal(got, &r))
				refused++;
			else {
				other++;
				last_other = got;
			}
		}
		eagain_total += eagain;
		ok(!faults && !other,
		   "RUN %s while pages are dropped: %u ok, %u EAGAIN, %u EFAULT, %u refused by a virtual CPU (E2BIG), %u other%s%s; %lu re-faults",
		   kmod_variant_name(v), ok_runs, eagain, faults, refused,
		   other, other ? ", last " : "",
		   other ? errname(last_other) : "", refaults);
	}
	zapping = false;
	pthread_join(t, NULL);
	printf("# EAGAIN from the dropper on the other CPU: %u runs\n",
	       eagain_total);
}

/*
 * A dropper that never misses: the buffer is registered with userfaultfd,
 * so this thread serves every fault the module takes while it faults the
 * buffer in again, from the first page to the last. Serving the first
 * page it drops the last, serving the last it drops the first, which the
 * module wrote a moment before: every window then finds the first page
 * gone, and the run must end with EAGAIN after the 4 re-faults a window
 * allows, never with EFAULT.
 */
#define DROPPED_SPAN	16384

static unsigned char *dropped;
static int uffd = -1;

static void *refault_dropper(void *arg)
{
	static unsigned char zeroes[PAGE] __attribute__((aligned(4096)));
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	(void)arg;
	while (zapping) {
		struct uffdio_copy copy = { .len = PAGE, .src = (uintptr_t)zeroes,
					    .mode = UFFDIO_COPY_MODE_DONTWAKE };
		struct uffdio_range wake = { .len = PAGE };
		unsigned char *page;

		if (poll(&pfd, 1, 100) <= 0 ||
		    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		page = (unsigned char *)(uintptr_t)
		       (msg.arg.pagefault.address & ~(PAGE - 1));
		copy.dst = (uintptr_t)page;
		ioctl(uffd, UFFDIO_COPY, &copy);
		madvise(page == dropped ? dropped + DROPPED_SPAN - PAGE : dropped,
			PAGE, MADV_DONTNEED);
		wake.start = (uintptr_t)page;
		ioctl(uffd, UFFDIO_WAKE, &wake);
	}
	return NULL;
}

void test_eagain(void)
{
	unsigned int k, eagain = 0, efault = 0, other = 0, done = 0;
	unsigned int refused = 0;
	const char *what = "RUN ends with EAGAIN while a thread keeps dropping the page it just faulted in";
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	unsigned long refaults = 0;
	pthread_t t;
	int got = 0;

	dropped = mmap(NULL, DROPPED_SPAN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (dropped == MAP_FAILED || uffd < 0 || ioctl(uffd, UFFDIO_API, &api)) {
		skip(what, "no userfaultfd here");
		goto out;
	}
	reg.range.start = (uintptr_t)dropped;
	reg.range.len = DROPPED_SPAN;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		skip(what, "cannot register the buffer with userfaultfd");
		goto out;
	}
	zapping = true;
	if (pthread_create(&t, NULL, refault_dropper, NULL)) {
		zapping = false;
		ok(false, "pthread_create for the re-fault dropper");
		goto out;
	}
	for (k = 0; k < 5 && !eagain; k++) {
		struct smapbench_run r;

		request(&r, SMAPBENCH_OP_COPY_FROM_USER, SMAPBENCH_VARIANT_KAPI,
			DROPPED_SPAN, 0, 16, 16);
		r.buffer = (uintptr_t)dropped;
		r.buffer_len = DROPPED_SPAN;
		got = run(&r);
		if (!got || got == EAGAIN)
			refaults += r.refaults;
		if (got == EAGAIN)
			eagain++;
		else if (got == EFAULT)
			efault++;
		else if (!got)
			done++;
		else if (vcpu_refusal(got, &r))
			refused++;
		else
			other++;
	}
	zapping = false;
	pthread_join(t, NULL);
	ok(eagain && !efault && !other,
	   "%s: %u EAGAIN after %u ok, %u EFAULT, %u refused by a virtual CPU (E2BIG), %u other (last %s); %lu re-faults",
	   what, eagain, done, efault, refused, other, errname(got),
	   refaults);
out:
	if (uffd >= 0)
		close(uffd);
	if (dropped != MAP_FAILED)
		munmap(dropped, DROPPED_SPAN);
}

