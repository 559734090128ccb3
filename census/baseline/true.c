// SPDX-License-Identifier: GPL-2.0
/*
 * true.c - `true`, linked statically: the baseline of the census of a
 * static command (command/census_exec.c). Debian's /usr/bin/true is dynamic, and
 * its loader opens, reads and maps libc, tens of windows that a static
 * command never opens; subtracting them would count too few.
 */
int main(void)
{
	return 0;
}
