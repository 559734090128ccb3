// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_workload.c - libFuzzer target: the readers of `smapbench workload`
 * (census/command/census_workload_read.h) on the files of a comparison
 * and a command's census, all in one input. Its sections, split at each
 * line "@@": the --kernel (one line; empty: none), census.csv, sites.csv,
 * compare.csv and pair-fit.csv; a section left out is a file absent.
 * The --kernel line is also read as census.csv's command, for the shell
 * words of `sh -c 'TEXT'`. A crash, a leak, or a census row or call site
 * of another boot than the one asked for is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "census/command/census_workload_read.h"
#include "remove_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SECTIONS	5
static const char *const files[SECTIONS] = {
	NULL, "census.csv", "sites.csv", "compare.csv", "pair-fit.csv",
};
static char work[64];

static void remove_work(void)
{
	remove_tree(work);
}

/* work/name holding data[0..size), or absent when data is NULL. */
static void put(const char *name, const uint8_t *data, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", work, name);
	if (!data) {
		unlink(path);
		return;
	}
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

/* A copy of exactly its bytes on the heap, so that reading past it is seen. */
static char *copy(const char *text)
{
	char *c = strdup(text);

	if (!c)
		abort();
	return c;
}

static void sh_c(const char *command)
{
	char text[4096], small[8];
	char *c = copy(command);

	workload_sh_c_text(c, text, sizeof(text));
	workload_sh_c_text(c, small, sizeof(small));
	free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *at[SECTIONS] = { 0 }, *p = data, *end = data + size, *nl;
	size_t len[SECTIONS] = { 0 };
	char kernel[256], err[8192];
	struct workload_sites s;
	struct workload w;
	int n = 0;

	if (!size)
		return 0;
	/* the sections, each up to the next "\n@@\n" */
	while (n < SECTIONS) {
		const uint8_t *mark = memmem(p, (size_t)(end - p), "\n@@\n", 4);

		at[n] = p;
		len[n] = (size_t)((mark ? mark : end) - p);
		n++;
		if (!mark)
			break;
		p = mark + 4;
	}
	nl = memchr(at[0], '\n', len[0]);
	snprintf(kernel, sizeof(kernel), "%.*s",
		 (int)(nl ? (size_t)(nl - at[0]) : len[0] < 255 ? len[0] : 255),
		 (const char *)at[0]);
	for (int i = 1; i < SECTIONS; i++)
		put(files[i], at[i], len[i]);
	if (!work[0])
		abort();

	sh_c(kernel);
	memset(&w, 0, sizeof(w));
	workload_read_measured(work, &w, err, sizeof(err));
	if (!workload_read_census(work, *kernel ? kernel : NULL, &w, err, sizeof(err))) {
		if (*kernel && strlen(kernel) < sizeof(w.kernel) && strcmp(w.kernel, kernel))
			abort();
		sh_c(w.census_command);
		if (!workload_read_sites(work, w.kernel, &s)) {
			if (s.count < 0 || s.count > WORKLOAD_SITES)
				abort();
			for (int i = 0; i < s.count; i++)
				if (!s.site[i].function || !s.site[i].pairs)
					abort();
			workload_sites_free(&s);
		}
	}
	workload_read_series(work, &w.p[WORKLOAD_SERIES]);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(work, sizeof(work), "/tmp/smapbench-fuzz-workload-XXXXXX");
	if (!mkdtemp(work))
		abort();
	atexit(remove_work);
	return 0;
}
