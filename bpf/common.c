// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - the parts of the BPF loader that need no libbpf: names,
 * and the kernel facts every BPF figure should be read with.
 */
#include <stdio.h>
#include <string.h>

#include "bpf/loader.h"

const char *bpfbench_mode_name(enum bpfbench_mode mode)
{
	static const char *const names[BPFBENCH_MODE_COUNT] = {
		[BPFBENCH_MODE_SYSCALL] = "syscall",
		[BPFBENCH_MODE_RAW_TP] = "raw_tp",
		[BPFBENCH_MODE_IPI] = "raw_tp_ipi",
	};

	return (unsigned)mode < BPFBENCH_MODE_COUNT ? names[mode] : "?";
}

const char *bpfbench_op_name(enum bpfbench_op op)
{
	static const char *const names[BPFBENCH_OP_COUNT] = {
		[BPFBENCH_OP_EMPTY] = "empty",
		[BPFBENCH_OP_USER_READ] = "user_read",
		[BPFBENCH_OP_KERNEL_READ] = "kernel_read",
		[BPFBENCH_OP_KERNEL_MEMMOVE] = "kernel_memmove",
		[BPFBENCH_OP_USER_READ_STR] = "user_read_str",
		[BPFBENCH_OP_KERNEL_READ_STR] = "kernel_read_str",
		[BPFBENCH_OP_COPY_FROM_USER] = "copy_from_user",
		[BPFBENCH_OP_CALIB] = "calib",
		[BPFBENCH_OP_CALIB_IMUL] = "calib_imul",
	};

	return (unsigned)op < BPFBENCH_OP_COUNT ? names[op] : "?";
}

const char *bpfbench_status_name(enum bpfbench_status status)
{
	static const char *const names[] = {
		[BPFBENCH_OK] = "ok",
		[BPFBENCH_NOT_BUILT] = "not-built",
		[BPFBENCH_NO_BTF] = "no-btf",
		[BPFBENCH_PERMISSION] = "permission",
		[BPFBENCH_DISABLED] = "disabled",
		[BPFBENCH_TOO_OLD] = "too-old",
		[BPFBENCH_LOCKDOWN] = "lockdown",
		[BPFBENCH_VERIFIER] = "verifier",
		[BPFBENCH_UNSUPPORTED] = "unsupported",
		[BPFBENCH_INVALID] = "invalid",
		[BPFBENCH_FAILED] = "failed",
	};

	if ((unsigned)status < sizeof(names) / sizeof(names[0]) &&
	    names[status])
		return names[status];
	return "?";
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char *nl;

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

/* Whether /proc/kallsyms lists a function (names are visible to all). */
static int kernel_has_symbol(const char *symbol)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %255s", name) == 1 &&
		    strcmp(name, symbol) == 0)
			found = 1;
	fclose(f);
	return found;
}

/* Words of the "flags" line of /proc/cpuinfo that matter to a copy. */
static void copy_features(char *out, size_t len)
{
	static const char *const wanted[] = { "fsrm", "erms", "fzrm", "fsrs",
					      "smap", "smep" };
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];

	snprintf(out, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		out[0] = '\0';
		for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
			char word[16];
			size_t used = strlen(out);

			snprintf(word, sizeof(word), " %s", wanted[i]);
			if (strstr(line, word) &&
			    (strstr(line, word)[strlen(word)] == ' ' ||
			     strstr(line, word)[strlen(word)] == '\n'))
				snprintf(out + used, len - used, "%s%s",
					 used ? ";" : "", wanted[i]);
		}
		break;
	}
	fclose(f);
}

static void emit_file(void (*emit)(void *, const char *, const char *),
		      void *arg, const char *key, const char *path)
{
	char value[512];

	if (read_line(path, value, sizeof(value)) == 0)
		emit(arg, key, value);
	else
		emit(arg, key, "unknown");
}

/* The active lockdown mode: the bracketed word of securityfs's file. */
static void lockdown(void (*emit)(void *, const char *, const char *),
		     void *arg)
{
	char line[128], *open_bracket, *close_bracket;

	if (read_line("/sys/kernel/security/lockdown", line, sizeof(line)) != 0) {
		emit(arg, "bpf_lockdown",
		     "unknown (no /sys/kernel/security/lockdown: securityfs "
		     "not mounted or no lockdown LSM)");
		return;
	}
	open_bracket = strchr(line, '[');
	close_bracket = open_bracket ? strchr(open_bracket, ']') : NULL;
	if (open_bracket && close_bracket) {
		*close_bracket = '\0';
		emit(arg, "bpf_lockdown", open_bracket + 1);
	} else {
		emit(arg, "bpf_lockdown", line);
	}
}

void bpfbench_context(void (*emit)(void *arg, const char *key,
				   const char *value), void *arg)
{
	static const char vulnerabilities[] =
		"/sys/devices/system/cpu/vulnerabilities/";
	/* Mitigations that change a call or a return on the copy path. */
	static const char *const return_path[] = {
		"retbleed", "spec_rstack_overflow", "indirect_target_selection",
		"spectre_v2",
	};
	char value[1024], path[256], cmdline[4096] = "";
	int has;

	emit_file(emit, arg, "bpf_jit_enable", "/proc/sys/net/core/bpf_jit_enable");
	emit_file(emit, arg, "bpf_jit_harden", "/proc/sys/net/core/bpf_jit_harden");
	emit_file(emit, arg, "bpf_unprivileged_disabled",
		  "/proc/sys/kernel/unprivileged_bpf_disabled");
	lockdown(emit, arg);

	/* Built in (the symbol exists) and not turned off on the command line. */
	read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	has = kernel_has_symbol("__check_object_size");
	emit(arg, "bpf_hardened_usercopy",
	     has < 0 ? "unknown" :
	     !has ? "off (not built)" :
	     strstr(cmdline, "hardened_usercopy=off") ? "off (command line)" :
	     "on");

	value[0] = '\0';
	for (size_t i = 0; i < sizeof(return_path) / sizeof(return_path[0]); i++) {
		char state[256];
		size_t used = strlen(value);

		snprintf(path, sizeof(path), "%s%s", vulnerabilities,
			 return_path[i]);
		if (read_line(path, state, sizeof(state)) != 0)
			continue;
		snprintf(value + used, sizeof(value) - used, "%s%s=%s",
			 used ? "; " : "", return_path[i], state);
	}
	emit(arg, "bpf_return_mitigations", value[0] ? value : "unknown");

	copy_features(value, sizeof(value));
	emit(arg, "bpf_copy_features", value);
}
