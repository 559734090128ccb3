// SPDX-License-Identifier: GPL-2.0
/* pfm_event.c - libpfm4 event encoding; see pfm_event.h. */
#include "measure/pfm_event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

int pfm_event_encode(const char *name, int kernel, uint32_t *type,
		     uint64_t *config, char *fullname, size_t fullnamelen,
		     char *why, size_t whylen)
{
	static int initialised;
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int rc;

	if (!initialised) {
		rc = pfm_initialize();
		if (rc != PFM_SUCCESS) {
			snprintf(why, whylen, "libpfm4: %s", pfm_strerror(rc));
			return -1;
		}
		initialised = 1;
	}
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	rc = pfm_get_os_event_encoding(name, PFM_PLM3 | (kernel ? PFM_PLM0 : 0),
				       PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(why, whylen, "libpfm4 cannot encode \"%s\": %s", name,
			 pfm_strerror(rc));
		return -1;
	}
	*type = attr.type;
	*config = attr.config;
	snprintf(fullname, fullnamelen, "%s", fstr ? fstr : name);
	free(fstr);
	return 0;
}
#else
int pfm_event_encode(const char *name, int kernel, uint32_t *type,
		     uint64_t *config, char *fullname, size_t fullnamelen,
		     char *why, size_t whylen)
{
	(void)name;
	(void)kernel;
	(void)type;
	(void)config;
	(void)fullname;
	(void)fullnamelen;
	snprintf(why, whylen, "built without libpfm4");
	return -1;
}
#endif
