// SPDX-License-Identifier: GPL-2.0
/*
 * pread_loop.c - the known workload of the census of a command (stage
 * 43-census-command): exactly PREADS pread(fd, buf, 64, 0) of a file on
 * tmpfs, each one user-access window (one copy to user, docs/census.md),
 * and little else: a static program, so no dynamic loader opens files
 * first. The file is an unnamed O_TMPFILE in DIR (default /dev/shm),
 * which must be tmpfs.
 *
 *   pread-loop [DIR]
 */
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#define PREADS 1000
#define SIZE 64

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/dev/shm";
	char buf[SIZE];
	struct statfs fs;
	int fd;

	if (statfs(dir, &fs) || fs.f_type != TMPFS_MAGIC) {
		fprintf(stderr, "pread-loop: %s is not tmpfs\n", dir);
		return 1;
	}
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	memset(buf, 'x', sizeof(buf));
	if (fd < 0 || write(fd, buf, sizeof(buf)) != SIZE) {
		perror("pread-loop: a 64-byte file in tmpfs");
		return 1;
	}
	for (int i = 0; i < PREADS; i++)
		if (pread(fd, buf, SIZE, 0) != SIZE) {
			perror("pread-loop: pread");
			return 1;
		}
	return 0;
}
