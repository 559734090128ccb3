/* SPDX-License-Identifier: GPL-2.0 */
/*
 * remove_tree.h - the fuzz targets' scratch directories, removed with
 * everything under them after each input.
 */
#ifndef SMAPBENCH_FUZZ_REMOVE_TREE_H
#define SMAPBENCH_FUZZ_REMOVE_TREE_H

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

static int remove_tree_one(const char *path, const struct stat *st, int type,
			   struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* dir and everything under it; no symbolic link is followed. */
static void remove_tree(const char *dir)
{
	nftw(dir, remove_tree_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
