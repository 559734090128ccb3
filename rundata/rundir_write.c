// SPDX-License-Identifier: GPL-2.0
/*
 * rundir_write.c - writing a run directory; see rundir.h. Built in
 * PARENT/.tmp-XXXXXX and renamed (never over anything) only when
 * complete, through atomic_dir.h.
 */
#include "rundata/rundir.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int run_dir_create(struct run_dir_writer *d, const char *parent, char *err,
		   size_t errlen)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->parent, sizeof(d->parent), "%s", parent);
	return atomic_dir_begin_in(&d->dir, parent, &atomic_dir_run, err, errlen);
}

int run_dir_commit(struct run_dir_writer *d, const char *name, char *err,
		   size_t errlen)
{
	if (atomic_dir_commit_new(&d->dir, d->parent, name, err, errlen))
		return -1;
	snprintf(d->final, sizeof(d->final), "%s", d->dir.target);
	return 0;
}

void run_dir_abort(struct run_dir_writer *d)
{
	atomic_dir_abort(&d->dir);
}

/*
 * HOST-STAMP-STATE, canonical: scripts, Makefiles and globs take it as it
 * is, whatever host a stranger's run claims. Every byte of the host but
 * [A-Za-z0-9._-] becomes _, the host is cut so that the name is at most
 * RUN_DIR_MAX_NAME bytes, and a leading - or . becomes _ (no option, no
 * hidden file).
 */
static void name_at(char *buf, size_t len, const char *host,
		    const struct tm *tm, const char *state)
{
	char stamp[32], canon[RUN_DIR_MAX_NAME + 1];
	size_t n = 0, room;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", tm);
	if (!host || !*host)
		host = "host";
	room = RUN_DIR_MAX_NAME - strlen(stamp) - strlen(state) - 2;
	for (; host[n] && n < room && n < sizeof(canon) - 1; n++) {
		unsigned char c = (unsigned char)host[n];

		canon[n] = isalnum(c) || c == '.' || c == '_' || c == '-' ?
			   (char)c : '_';
	}
	canon[n] = '\0';
	if (canon[0] == '-' || canon[0] == '.')
		canon[0] = '_';
	snprintf(buf, len, "%s-%s-%s", canon, stamp, state);
}

void run_dir_name(char *buf, size_t len, const char *host, const char *state)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	name_at(buf, len, host, &tm, state);
}

int run_dir_name_dated(char *buf, size_t len, const char *host,
		       const char *date, const char *state)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = date ? strptime(date, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	if (!end || *end || strlen(date) != 20)
		return -1;
	name_at(buf, len, host, &tm, state);
	return 0;
}
