/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfm_event.h - event names to perf_event_attr type/config through
 * libpfm4 (HAVE_LIBPFM). Kept apart from counter_perf.c because
 * libpfm4 ships its own copy of <linux/perf_event.h>.
 */
#ifndef SMAPBENCH_PFM_EVENT_H
#define SMAPBENCH_PFM_EVENT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Encode event name (e.g. "cycles") for user (and kernel when
 * kernel != 0) mode. 0, or -1 with the reason in why; without libpfm4
 * at build time always -1.
 */
int pfm_event_encode(const char *name, int kernel, uint32_t *type,
		     uint64_t *config, char *fullname, size_t fullnamelen,
		     char *why, size_t whylen);

#endif /* SMAPBENCH_PFM_EVENT_H */
