// SPDX-License-Identifier: GPL-2.0
/*
 * test_context.c - context parsing on fixture strings: cpuinfo fields,
 * kernel command lines (the SMAP-off method), virtualisation.
 */
#include <stdio.h>
#include <string.h>

#include "measure/context.h"
#include "system/smap_context.h"
#include "unit.h"

static const char cpuinfo[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"cpu family\t: 6\n"
	"model\t\t: 85\n"
	"model name\t: Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz\n"
	"stepping\t: 4\n"
	"microcode\t: 0x2006e05\n"
	"flags\t\t: fpu vme smep bmi2 erms smap clflushopt\n"
	"\n"
	"processor\t: 1\n"
	"model\t\t: 99\n";

static void cpuinfo_fields(void **unused)
{
	char v[256];

	(void)unused;
	assert_int(context_cpuinfo_field(cpuinfo, "model", v, sizeof(v)), 0, "model");
	assert_str(v, "85", "'model' is not 'model name', first block only");
	context_cpuinfo_field(cpuinfo, "model name", v, sizeof(v));
	assert_str(v, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz", "model name");
	context_cpuinfo_field(cpuinfo, "microcode", v, sizeof(v));
	assert_str(v, "0x2006e05", "microcode");
	assert_int(context_cpuinfo_field(cpuinfo, "bogus", v, sizeof(v)), -1,
		   "missing field");
	context_cpuinfo_field(cpuinfo, "flags", v, sizeof(v));
	assert_int(context_has_word(v, "smap"), 1, "smap flag");
	assert_int(context_has_word(v, "sma"), 0, "prefix is not a flag");
	assert_int(context_has_word(v, "fpu"), 1, "first flag");
	assert_int(context_has_word(v, "clflushopt"), 1, "last flag");
}

static void cmdline_params(void **unused)
{
	char v[128];

	(void)unused;
	assert_int(context_cmdline_param("ro quiet nosmap", "nosmap", v, sizeof(v)),
		   1, "bare parameter");
	assert_str(v, "", "bare parameter value");
	assert_int(context_cmdline_param("ro nosmapx", "nosmap", v, sizeof(v)),
		   0, "prefix only");
	assert_int(context_cmdline_param("a=1 clearcpuid=\"pku,smap\" b",
					 "clearcpuid", v, sizeof(v)), 1, "quoted");
	assert_str(v, "pku,smap", "quotes removed");
	assert_int(context_cmdline_param("quiet -- nosmap", "nosmap", v, sizeof(v)),
		   0, "after -- belongs to init");
	assert_int(context_list_has("pku,SMAP", "smap"), 1, "case-insensitive");
	assert_int(context_list_has("smapx,pku", "smap"), 0, "whole entries");
}

static void smap_off_method(void **unused)
{
	static const struct {
		const char *cmdline, *flags;
		int cpuid, requested;
		const char *state, *method;
		int warning;
	} cases[] = {
		{ "ro quiet", "fpu smap smep", 1, 0, "smap", "none", 0 },
		{ "ro nosmap", "fpu smap smep", 1, 1, "smap", "none", 1 },
		{ "ro nosmap", "fpu smep", 1, 1, "nosmap", "nosmap", 0 },
		{ "clearcpuid=smap", "fpu smep", 1, 1, "nosmap", "clearcpuid", 0 },
		{ "clearcpuid=pku,308", "fpu", 1, 1, "nosmap", "clearcpuid", 0 },
		{ "clearcpuid=smep", "fpu smap", 1, 0, "smap", "none", 0 },
		{ "console=ttyS0", "fpu smep", 0, 0, "nosmap", "cpu-model", 0 },
		{ "console=ttyS0", "fpu smep", 1, 0, "nosmap", "unknown", 0 },
		{ "init=/x -- clearcpuid=smap", "fpu smap", 1, 0, "smap", "none", 0 },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct smap_state s;
		char what[256];

		smap_evaluate(cases[i].cmdline, cases[i].flags, cases[i].cpuid, &s);
		snprintf(what, sizeof(what), "cmdline \"%s\", flags \"%s\"",
			 cases[i].cmdline, cases[i].flags);
		assert_int(s.requested_off, cases[i].requested, what);
		assert_str(s.state, cases[i].state, what);
		assert_str(s.method, cases[i].method, what);
		assert_int(s.warning != NULL, cases[i].warning, what);
	}
}

static void virt_kinds(void **unused)
{
	(void)unused;
	assert_str(context_virt_kind(1, "TCGTCGTCGTCG", "QEMU"), "tcg", "TCG");
	assert_str(context_virt_kind(1, "KVMKVMKVM", "QEMU"), "kvm", "KVM");
	assert_str(context_virt_kind(1, "Microsoft Hv", ""), "other", "Hyper-V");
	assert_str(context_virt_kind(0, "", "Dell Inc."), "bare", "bare metal");
	assert_str(context_virt_kind(0, "", "QEMU"), "other", "hidden hypervisor");
}

static void context_store(void **unused)
{
	struct context c = { 0 };

	(void)unused;
	context_set(&c, "a", "%d", 1);
	context_set(&c, "a", "%s", "two");
	assert_int(c.count, 1, "replace keeps one entry");
	assert_str(context_get(&c, "a"), "two", "replaced value");
	context_warn(&c, "first; with semicolon");
	context_warn(&c, "second");
	assert_str(context_get(&c, "warnings"), "first, with semicolon;second",
		   "warnings are ;-separated");
	assert_null(context_get(&c, "missing"));
	context_free(&c);
}

/*
 * The machine ID a run records is systemd's ID for our application:
 * `systemd-id128 machine-id --app-specific=CONTEXT_MACHINE_APP_ID` (systemd
 * 252) printed these on machines with the machine IDs given.
 */
static void machine_id_as_systemd_derives_it(void **unused)
{
	char out[CONTEXT_MACHINE_ID_SIZE];

	(void)unused;
	assert_int(context_machine_id_hash("3d1219c7c4c5404aaa1f6d2a48adfda4\n", out),
		   0, "a machine-id file's text");
	assert_str(out, "f3ee3813a13d42248879674508441737", "systemd-id128's answer");
	assert_int(context_machine_id_hash("00000000000000000000000000000001", out),
		   0, "without a newline");
	assert_str(out, "bb2a414c0a7541aeb9f325543fb419c0", "systemd-id128's answer");
	assert_int(context_machine_id_hash("uninitialized\n", out), -1,
		   "systemd's first-boot placeholder");
	assert_str(out, "", "no ID for it");
	assert_int(context_machine_id_hash("3D1219C7C4C5404AAA1F6D2A48ADFDA4", out),
		   -1, "upper case is no machine-id(5)");
	assert_int(context_machine_id_hash("3d1219c7c4c5404aaa1f6d2a48adfda4x", out),
		   -1, "a trailing byte");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpuinfo_fields),
		cmocka_unit_test(cmdline_params),
		cmocka_unit_test(smap_off_method),
		cmocka_unit_test(virt_kinds),
		cmocka_unit_test(context_store),
		cmocka_unit_test(machine_id_as_systemd_derives_it),
	};

	return cmocka_run_group_tests_name("context", tests, NULL, NULL);
}
