// SPDX-License-Identifier: GPL-2.0
/*
 * loader_stub.c - the loader of a build without BPF support (no clang,
 * bpftool or libbpf at build time): everything fails with the reason.
 */
#include <stdio.h>
#include <string.h>

#include "bpf/loader.h"

#ifndef BPFBENCH_STUB_REASON
#define BPFBENCH_STUB_REASON "clang, bpftool, libbpf or kernel BTF missing at build time"
#endif

static int not_built(struct bpfbench_error *err)
{
	if (err) {
		memset(err, 0, sizeof(*err));
		err->status = BPFBENCH_NOT_BUILT;
		snprintf(err->message, sizeof(err->message),
			 "smapbench was built without BPF support: %s",
			 BPFBENCH_STUB_REASON);
	}
	return -1;
}

int bpfbench_open(const struct bpfbench_options *opts, struct bpfbench **b,
		  struct bpfbench_error *err)
{
	(void)opts;
	*b = NULL;
	return not_built(err);
}

void bpfbench_close(struct bpfbench *b)
{
	(void)b;
}

int bpfbench_supported(const struct bpfbench *b, enum bpfbench_mode mode,
		       enum bpfbench_op op, struct bpfbench_error *err)
{
	(void)b;
	(void)mode;
	(void)op;
	return not_built(err);
}

int bpfbench_run(struct bpfbench *b, const struct bpfbench_request *req,
		 struct bpfbench_sample *samples, size_t n,
		 struct bpfbench_error *err)
{
	(void)b;
	(void)req;
	(void)samples;
	(void)n;
	return not_built(err);
}
