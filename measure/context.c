// SPDX-License-Identifier: GPL-2.0
/* context.c - machine and boot description; see context.h. */
#include "measure/context.h"

#include <cpuid.h>
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "measure/sha256.h"

int context_set(struct context *c, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *value;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&value, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	for (size_t i = 0; i < c->count; i++) {
		if (!strcmp(c->items[i].key, key)) {
			free(c->items[i].value);
			c->items[i].value = value;
			return 0;
		}
	}
	if (c->count == c->capacity) {
		size_t cap = c->capacity ? c->capacity * 2 : 64;
		struct context_entry *items =
			realloc(c->items, cap * sizeof(*items));

		if (!items) {
			free(value);
			return -1;
		}
		c->items = items;
		c->capacity = cap;
	}
	c->items[c->count].key = strdup(key);
	c->items[c->count].value = value;
	if (!c->items[c->count].key) {
		free(value);
		return -1;
	}
	c->count++;
	return 0;
}

const char *context_get(const struct context *c, const char *key)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->items[i].key, key))
			return c->items[i].value;
	return NULL;
}

void context_warn(struct context *c, const char *fmt, ...)
{
	const char *old = context_get(c, "warnings");
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* ';' separates warnings: keep it out of the messages. */
	for (char *p = msg; *p; p++)
		if (*p == ';')
			*p = ',';
	if (old && *old)
		context_set(c, "warnings", "%s;%s", old, msg);
	else
		context_set(c, "warnings", "%s", msg);
}

void context_free(struct context *c)
{
	for (size_t i = 0; i < c->count; i++) {
		free(c->items[i].key);
		free(c->items[i].value);
	}
	free(c->items);
	memset(c, 0, sizeof(*c));
}

int context_read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s), start = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[start]))
		start++;
	memmove(s, s + start, n - start + 1);
}

int context_cpuinfo_field(const char *cpuinfo, const char *field,
			  char *out, size_t len)
{
	size_t flen = strlen(field);

	for (const char *line = cpuinfo; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t llen = end ? (size_t)(end - line) : strlen(line);

		if (llen == 0)
			break;	/* end of the first processor block */
		if (llen > flen && !strncmp(line, field, flen) &&
		    (line[flen] == ' ' || line[flen] == '\t' ||
		     line[flen] == ':')) {
			const char *colon = memchr(line, ':', llen);

			if (colon) {
				size_t vlen = llen - (size_t)(colon + 1 - line);

				if (vlen >= len)
					vlen = len - 1;
				memcpy(out, colon + 1, vlen);
				out[vlen] = '\0';
				trim(out);
				return 0;
			}
		}
		line = end ? end + 1 : NULL;
	}
	if (len)
		out[0] = '\0';
	return -1;
}

int context_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && (p = strstr(p, word)); p += n) {
		int starts = p == list || isspace((unsigned char)p[-1]);
		int ends = p[n] == '\0' || isspace((unsigned char)p[n]);

		if (starts && ends)
			return 1;
	}
	return 0;
}

int context_cmdline_param(const char *cmdline, const char *name,
			  char *value, size_t len)
{
	size_t n = strlen(name);
	const char *p = cmdline;

	while (p && *p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		const char *start = p;
		int quoted = 0;

		while (*p && (quoted || !isspace((unsigned char)*p))) {
			if (*p == '"')
				quoted = !quoted;
			p++;
		}
		size_t tlen = (size_t)(p - start);

		if (tlen == 2 && !strncmp(start, "--", 2))
			break;	/* the rest is for init */
		if (tlen >= n && !strncmp(start, name, n) &&
		    (tlen == n || start[n] == '=')) {
			const char *v = tlen == n ? start + n : start + n + 1;
			size_t vlen = (size_t)(p - v), o = 0;

			for (size_t i = 0; i < vlen && o + 1 < len; i++)
				if (v[i] != '"')
					value[o++] = v[i];
			if (len)
				value[o] = '\0';
			return 1;
		}
	}
	return 0;
}

int context_list_has(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncasecmp(p, item, n))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

const char *context_virt_kind(int hypervisor_flag, const char *cpuid_vendor,
			      const char *dmi_vendor)
{
	if (cpuid_vendor && !strncmp(cpuid_vendor, "TCGTCGTCGTCG", 12))
		return "tcg";
	if (cpuid_vendor && !strncmp(cpuid_vendor, "KVMKVMKVM", 9))
		return "kvm";
	if (hypervisor_flag)
		return "other";
	/* No hypervisor bit, yet a virtual machine's firmware. */
	if (dmi_vendor && (strstr(dmi_vendor, "QEMU") ||
			   strstr(dmi_vendor, "innotek") ||
			   strstr(dmi_vendor, "VMware")))
		return "other";
	return "bare";
}

void context_hypervisor_vendor(char *out, size_t len)
{
	unsigned a, b, c, d;
	char sig[13];

	out[0] = '\0';
	__cpuid(1, a, b, c, d);
	if (!(c & (1U << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (int i = 0; i < 12; i++)
		if (sig[i] && !isprint((unsigned char)sig[i]))
			sig[i] = '?';
	snprintf(out, len, "%s", sig);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 16384;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static void collect_cpu(struct context *c)
{
	static const struct {
		const char *key, *field;
	} fields[] = {
		{ "cpu_model", "model name" },
		{ "cpu_family", "cpu family" },
		{ "cpu_model_number", "model" },
		{ "cpu_stepping", "stepping" },
		{ "microcode", "microcode" },
		{ "cpu_mhz", "cpu MHz" },
	};
	char *cpuinfo = slurp("/proc/cpuinfo");
	char value[4096];

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (!cpuinfo || context_cpuinfo_field(cpuinfo, fields[i].field,
						      value, sizeof(value)))
			snprintf(value, sizeof(value), "unknown");
		context_set(c, fields[i].key, "%s", value);
	}
	if (!cpuinfo || context_cpuinfo_field(cpuinfo, "flags", value,
					      sizeof(value)))
		value[0] = '\0';
	context_set(c, "cpu_flags", "%s", value);
	context_set(c, "pti", "%s", context_has_word(value, "pti") ? "on" : "off");
	free(cpuinfo);
	context_set(c, "cpus_online", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_vulnerabilities(struct context *c)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	DIR *d = opendir(dir);
	char *names[128];
	size_t n = 0;
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && n < 128)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), compare_names);
	for (size_t i = 0; i < n; i++) {
		char path[512], key[256], value[512];

		if (!names[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(key, sizeof(key), "vulnerability_%s", names[i]);
		if (context_read_file(path, value, sizeof(value)))
			snprintf(value, sizeof(value), "unreadable");
		context_set(c, key, "%s", value);
		free(names[i]);
	}
}

static void collect_frequency(struct context *c)
{
	char value[256];

	if (context_read_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
			      value, sizeof(value)) == 0) {
		context_set(c, "governor", "%s", value);
		if (strcmp(value, "performance"))
			context_warn(c, "cpufreq governor is %s, not performance",
				     value);
	} else {
		context_set(c, "governor", "none");
	}
	if (context_read_file("/sys/devices/system/cpu/intel_pstate/no_turbo",
			      value, sizeof(value)) == 0)
		snprintf(value, sizeof(value), "%s",
			 value[0] == '0' ? "on" : "off");
	else if (context_read_file("/sys/devices/system/cpu/cpufreq/boost",
				   value, sizeof(value)) == 0)
		snprintf(value, sizeof(value), "%s",
			 value[0] == '1' ? "on" : "off");
	else
		snprintf(value, sizeof(value), "unknown");
	context_set(c, "turbo", "%s", value);
	if (!strcmp(value, "on"))
		context_warn(c, "turbo/boost is on: frequency varies with load and temperature");

	if (context_read_file("/sys/devices/system/cpu/smt/control", value,
			      sizeof(value)))
		snprintf(value, sizeof(value), "unknown");
	context_set(c, "smt", "%s", value);
}

/*
 * Why a QEMU launcher took the accelerator it did (SMAPBENCH_ACCEL_WHY, a
 * code of vm/lib.sh): a KVM that could not boot Linux, so TCG, matters to
 * whoever reads the timings.
 */
static void collect_accel_why(struct context *c, const char *cmdline)
{
	char why[32] = "";

	if (cmdline)
		context_cmdline_param(cmdline, "SMAPBENCH_ACCEL_WHY", why,
				      sizeof(why));
	context_set(c, "virt_accel_why", "%s", why);
	if (!strncmp(why, "kvm-", 4) && strcmp(why, "kvm-ok"))
		context_warn(c, "the launcher found KVM unusable (%s) and took QEMU TCG instead",
			     why);
}

static void collect_virt(struct context *c)
{
	char vendor[16], dmi[128] = "";
	const char *flags = context_get(c, "cpu_flags");
	int hv = flags && context_has_word(flags, "hypervisor");
	const char *kind;

	context_hypervisor_vendor(vendor, sizeof(vendor));
	if (context_read_file("/sys/class/dmi/id/sys_vendor", dmi, sizeof(dmi)))
		dmi[0] = '\0';
	kind = context_virt_kind(hv, vendor, dmi);
	/*
	 * A launcher may say on the command line what it started us under
	 * (SMAPBENCH_VIRT=tcg|kvm): used when CPUID does not tell, e.g. TCG
	 * without the hypervisor bit.
	 */
	const char *cmdline = context_get(c, "cmdline");
	char hint[32] = "";

	if (cmdline && context_cmdline_param(cmdline, "SMAPBENCH_VIRT", hint,
					     sizeof(hint)) &&
	    (!strcmp(hint, "tcg") || !strcmp(hint, "kvm")) &&
	    (!strcmp(kind, "bare") || !strcmp(kind, "other")))
		kind = !strcmp(hint, "tcg") ? "tcg" : "kvm";
	context_set(c, "virt", "%s", kind);
	context_set(c, "virt_hint", "%s", hint);
	collect_accel_why(c, cmdline);
	context_set(c, "virt_vendor", "%s", vendor);
	context_set(c, "dmi_sys_vendor", "%s", dmi[0] ? dmi : "unknown");
	if (!strcmp(kind, "tcg"))
		context_warn(c, "running under QEMU TCG emulation: timings are functional only");
	else if (strcmp(kind, "bare"))
		context_warn(c, "running under a hypervisor (%s%s%s): timings include virtualisation effects",
			     kind, vendor[0] ? ", " : "", vendor);
}

/*
 * Which boot this is and how long it has been up: runs of one boot share
 * what a boot fixes (memory placement, the core clock), so comparisons
 * that treat the boot as the unit must tell boots apart; and a run right
 * after boot meets services still starting.
 */
static void collect_boot(struct context *c)
{
	char boot_id[64] = "";
	double uptime = -1;
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (f) {
		if (!fgets(boot_id, sizeof(boot_id), f))
			boot_id[0] = '\0';
		fclose(f);
	}
	boot_id[strcspn(boot_id, "\n")] = '\0';
	/* empty when unknown: calibrate and compare then refuse to tell boots apart */
	context_set(c, "boot_id", "%s", boot_id);
	f = fopen("/proc/uptime", "r");
	if (f) {
		if (fscanf(f, "%lf", &uptime) != 1)
			uptime = -1;
		fclose(f);
	}
	if (uptime >= 0)
		context_set(c, "uptime_s", "%.0f", uptime);
	else
		context_set(c, "uptime_s", "%s", "unknown");
}

static void collect_load(struct context *c)
{
	double load1 = 0, load5 = 0, load15 = 0;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf %lf %lf", &load1, &load5, &load15) != 3)
			load1 = load5 = load15 = 0;
		fclose(f);
	}
	context_set(c, "load_avg", "%.2f %.2f %.2f", load1, load5, load15);
	collect_boot(c);
	if (load1 > 0.5)
		context_warn(c, "load average %.2f is high: other work competes for the CPU",
			     load1);
}

/* 16 bytes from 32 hex digits: 0, or -1 when text is not that. */
static int id128_parse(const char *text, uint8_t id[16])
{
	for (int i = 0; i < 32; i++) {
		int d = text[i] >= '0' && text[i] <= '9' ? text[i] - '0' :
			text[i] >= 'a' && text[i] <= 'f' ? text[i] - 'a' + 10 : -1;

		if (d < 0)
			return -1;
		id[i / 2] = (uint8_t)(i % 2 ? id[i / 2] | d : d << 4);
	}
	return 0;
}

int context_machine_id_hash(const char *machine_id,
			    char out[CONTEXT_MACHINE_ID_SIZE])
{
	uint8_t key[16], app[16], digest[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];

	out[0] = '\0';
	if (strlen(machine_id) < 32 || id128_parse(machine_id, key) ||
	    (machine_id[32] && strcmp(machine_id + 32, "\n")) ||
	    id128_parse(CONTEXT_MACHINE_APP_ID, app))
		return -1;
	sha256_hmac(key, sizeof(key), app, sizeof(app), digest);
	/* a version 4, variant 1 UUID, as systemd makes it */
	digest[6] = (digest[6] & 0x0f) | 0x40;
	digest[8] = (digest[8] & 0x3f) | 0x80;
	sha256_to_hex(digest, hex);
	snprintf(out, CONTEXT_MACHINE_ID_SIZE, "%.32s", hex);
	return 0;
}

/*
 * Which machine this is, for "the same machine" (docs/schema.md): its
 * CPU and kernel alone do not tell two cloud VMs of one image apart.
 * Empty without a machine ID (an initramfs, a container without one).
 */
static void collect_machine_id(struct context *c)
{
	char text[64], hash[CONTEXT_MACHINE_ID_SIZE];

	if (context_read_file("/etc/machine-id", text, sizeof(text)) ||
	    context_machine_id_hash(text, hash))
		hash[0] = '\0';
	context_set(c, "machine_id_hash", "%s", hash);
}

void context_collect(struct context *c)
{
	struct utsname u;
	char date[64], buf[4096];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	context_set(c, "date", "%s", date);
	if (uname(&u) == 0) {
		context_set(c, "host", "%s", u.nodename);
		context_set(c, "kernel_release", "%s", u.release);
		context_set(c, "kernel_version", "%s", u.version);
		context_set(c, "machine", "%s", u.machine);
	}
	collect_machine_id(c);
	collect_cpu(c);
	if (context_read_file("/proc/cmdline", buf, sizeof(buf)))
		buf[0] = '\0';
	context_set(c, "cmdline", "%s", buf);
	collect_vulnerabilities(c);
	collect_frequency(c);
	collect_virt(c);
	collect_load(c);
}
