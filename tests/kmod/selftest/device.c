// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the device: INFO and the SMAP state it reports, who may open it, rmmod while open.
 */

#include "tests/kmod/selftest/selftest.h"

/* ---- INFO --------------------------------------------------------- */


static void check_bit(const char *name, uint32_t flag, int want)
{
	int got = !!(info.flags & flag);

	if (want < 0)
		ok(true, "INFO %s = %d (no expectation)", name, got);
	else
		ok(got == want, "INFO %s = %d (expected %d for %s)", name, got,
		   want, expect_mode);
}

void test_info(void)
{
	int cpuid = -1, feature = -1, cr4 = -1;
	struct utsname u;
	bool masked, rt;
	int smep[3];

	info_ok = ioctl(dev, SMAPBENCH_IOC_INFO, &info) == 0;
	ok(info_ok, "INFO ioctl succeeds%s%s", info_ok ? "" : ": ",
	   info_ok ? "" : strerror(errno));
	if (!info_ok)
		return;

	/* Nothing but INFO is known to work with another version. */
	if (info.abi_version != SMAPBENCH_ABI_VERSION) {
		ok(false, "INFO: the module speaks ABI version %u, this kmod_selftest only version %u",
		   info.abi_version, SMAPBENCH_ABI_VERSION);
		info_ok = false;
		return;
	}
	ok(true, "INFO abi_version %u", info.abi_version);

	if (!strcmp(expect_mode, "on") || !strcmp(expect_mode, "nosmap-ignored")) {
		cpuid = 1;
		feature = 1;
		cr4 = 1;
	} else if (!strcmp(expect_mode, "clearcpuid")) {
		cpuid = 1;
		feature = 0;
		cr4 = 0;
	} else if (!strcmp(expect_mode, "cpu-off")) {
		cpuid = 0;
		feature = 0;
		cr4 = 0;
	}
	check_bit("SMAP cpuid", SMAPBENCH_INFO_SMAP_CPUID, cpuid);
	check_bit("SMAP feature", SMAPBENCH_INFO_SMAP_FEATURE, feature);
	check_bit("SMAP cr4", SMAPBENCH_INFO_SMAP_CR4, cr4);

	/* Every SMAP state here keeps SMEP: it must be on all three ways. */
	smep[0] = !!(info.flags & SMAPBENCH_INFO_SMEP_CPUID);
	smep[1] = !!(info.flags & SMAPBENCH_INFO_SMEP_FEATURE);
	smep[2] = !!(info.flags & SMAPBENCH_INFO_SMEP_CR4);
	if (!strcmp(expect_mode, "any"))
		ok(smep[0] == smep[1] && smep[1] == smep[2],
		   "INFO SMEP cpuid=%d feature=%d cr4=%d agree", smep[0],
		   smep[1], smep[2]);
	else
		ok(smep[0] && smep[1] && smep[2],
		   "INFO SMEP cpuid=%d feature=%d cr4=%d (expected 1 1 1)",
		   smep[0], smep[1], smep[2]);

	ok(uname(&u) == 0 && info.release[0] &&
	   !strncmp(info.release, u.release, sizeof(info.release)),
	   "INFO release \"%.72s\" equals uname -r \"%s\"", info.release,
	   u.release);
	rt = strstr(u.version, "PREEMPT_RT") != NULL;
	ok(info.tsc_khz > 0, "INFO tsc_khz %llu > 0",
	   (unsigned long long)info.tsc_khz);
	ok(info.max_samples == SMAPBENCH_MAX_SAMPLES &&
	   info.max_iterations == SMAPBENCH_MAX_ITERATIONS &&
	   info.max_size == SMAPBENCH_MAX_SIZE &&
	   info.max_batch == SMAPBENCH_MAX_BATCH &&
	   info.sample_budget_ns == (rt ? SMAPBENCH_SAMPLE_BUDGET_NS_RT :
				     SMAPBENCH_SAMPLE_BUDGET_NS) &&
	   !!(info.flags & SMAPBENCH_INFO_PREEMPT_RT) == rt,
	   "INFO bounds match the header for a%s kernel (%u %u %u %u %u, flags %#x)",
	   rt ? " PREEMPT_RT" : "n ordinary", info.max_samples,
	   info.max_iterations, info.max_size, info.max_batch,
	   info.sample_budget_ns, info.flags);
	ok(info.ops_mask == (1ULL << SMAPBENCH_OP_COUNT) - 1,
	   "INFO ops_mask %#llx has all %d ops",
	   (unsigned long long)info.ops_mask, SMAPBENCH_OP_COUNT);

	masked = kernel_at_least(6, 12);
	ok(!!(info.flags & SMAPBENCH_INFO_MASKED_UACCESS) == masked &&
	   !!(info.variants_mask & (1U << SMAPBENCH_VARIANT_MASKED)) == masked,
	   "INFO masked variant %s on this kernel (flags %#x variants %#x)",
	   masked ? "built" : "absent", info.flags, info.variants_mask);
	/* Every kernel booted here is 5.19 or later, and exports irq_stat. */
	ok(!!(info.flags & SMAPBENCH_INFO_FUTEX_BLOCKS) == kernel_at_least(5, 19),
	   "INFO futex blocks (unsafe_try_cmpxchg_user()) %s on this kernel",
	   info.flags & SMAPBENCH_INFO_FUTEX_BLOCKS ? "built" : "absent");
	ok(info.flags & SMAPBENCH_INFO_NMI_COUNT,
	   "INFO windows see NMIs (irq_stat); SMIs: %s",
	   info.flags & SMAPBENCH_INFO_SMI_COUNT ? "MSR_SMI_COUNT readable" :
	   "no MSR_SMI_COUNT on this CPU");
	ok(info.sample_size == sizeof(struct smapbench_sample) &&
	   info.sample_flags == SMAPBENCH_SAMPLE_WINDOW,
	   "INFO sample_size %u and sample_flags %#x match the header",
	   info.sample_size, info.sample_flags);
	ok(!info.reserved[0] && !info.reserved[1] && !info.reserved[2],
	   "INFO reserved fields are zero");
	printf("# INFO flags %#x tsc_khz %llu pmu_cycles %d hypervisor %d\n",
	       info.flags, (unsigned long long)info.tsc_khz,
	       !!(info.flags & SMAPBENCH_INFO_PMU_CYCLES),
	       !!(info.flags & SMAPBENCH_INFO_HYPERVISOR));
}


/* ---- capabilities -------------------------------------------------- */

/*
 * In a child: drop the given capabilities from the effective set, then
 * INFO and RUN on the already open device. Exit status: bit 0 set when
 * INFO failed with EPERM, bit 1 for RUN, bit 2 when an unknown command
 * did not give ENOTTY, 8 when capset itself failed.
 */
static int without_caps(unsigned long long drop)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	struct smapbench_run r;
	pid_t pid = fork();
	int status, result = 0;

	if (pid < 0)
		return -1;
	if (pid > 0)
		return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ?
		       WEXITSTATUS(status) : -1;

	if (syscall(SYS_capget, &hdr, data))
		_exit(8);
	data[0].effective &= ~(uint32_t)drop;
	data[1].effective &= ~(uint32_t)(drop >> 32);
	if (syscall(SYS_capset, &hdr, data))
		_exit(8);
	if (ioctl(dev, SMAPBENCH_IOC_INFO, &info) && errno == EPERM)
		result |= 1;
	request(&r, SMAPBENCH_OP_GET_USER, SMAPBENCH_VARIANT_KAPI, 8, 0, 4, 2);
	if (run(&r) == EPERM)
		result |= 2;
	if (ioctl(dev, _IO(SMAPBENCH_IOC_MAGIC, 7), NULL) == 0 || errno != ENOTTY)
		result |= 4;
	_exit(result);
}

void test_permission(void)
{
	const unsigned long long perfmon = 1ULL << CAP_PERFMON;
	const unsigned long long sys_admin = 1ULL << CAP_SYS_ADMIN;
	int got;

	if (geteuid() != 0) {
		skip("INFO and RUN need CAP_PERFMON or CAP_SYS_ADMIN",
		     "not running as root");
		return;
	}
	got = without_caps(perfmon | sys_admin);
	ok(got == 3, "without CAP_PERFMON and CAP_SYS_ADMIN, INFO and RUN on an open device return EPERM, unknown commands still ENOTTY (child status %d, want 3)",
	   got);
	got = without_caps(sys_admin);
	ok(got == 0, "with CAP_PERFMON alone INFO and RUN work (child status %d)",
	   got);
	got = without_caps(perfmon);
	ok(got == 0, "with CAP_SYS_ADMIN alone INFO and RUN work (child status %d)",
	   got);
}


/* ---- rmmod while open ---------------------------------------------- */

void test_rmmod_busy(void)
{
	int got = syscall(SYS_delete_module, "smapbench", O_NONBLOCK) ?
		  errno : 0;

	if (got == EPERM || got == ENOENT) {
		skip("rmmod while /dev/smapbench is open is refused",
		     got == EPERM ? "not permitted here" : "module not loaded by name");
		return;
	}
	ok(got == EAGAIN || got == EBUSY,
	   "rmmod while /dev/smapbench is open is refused (got %s)",
	   errname(got));
}

