/* SPDX-License-Identifier: GPL-2.0 */
/*
 * census_protocol.h - how a guest program talks to the census plugin
 * (census_plugin.c) without any device: by executing code at agreed
 * user addresses, which the plugin sees at translation time.
 *
 * The guest maps CENSUS_MARKER_BYTES bytes of RET instructions at
 * CENSUS_MARKER_BASE and calls CENSUS_MARKER_BASE + b to send the byte b.
 * The plugin collects bytes into lines and acts on each '\n'. Only user
 * code runs to send a byte, so a marker adds no kernel instruction to
 * what is counted (an interrupt that lands meanwhile does, as anywhere).
 *
 * Lines the guest sends (addresses in hex, without 0x):
 *
 *   hello <version>          first line; the plugin checks the version
 *   func <name> <start> <end> a kernel function [start, end): counts the
 *                            calls of start, and the STAC/CLAC/POPF run
 *                            while it is the innermost declared function
 *                            the CPU executed last (its "scope")
 *   sym <addr> <name>        a kernel text symbol, to name STAC sites
 *                            (a module's as <name>[<module>])
 *   syscall <addr> <name>    the entry function of a system call
 *                            (__x64_sys_<name>), or of work on the way
 *                            back to user space under a bracketed name
 *                            ([rseq], [signal]): its runs are the calls,
 *                            and the STACs until user code runs again, or
 *                            another is entered, are attributed to it
 *   switch <start> <end> <c> __switch_to_asm [start, end) and __switch_to
 *                            (c): each task keeps its system call while it
 *                            is switched out (census_plugin.c)
 *   point <name> <addr>      counts executions of the instruction at addr
 *                            (a loop head: iterations)
 *   entry <start> <end>      exception and interrupt entry code: a CLAC in
 *                            it is an entry CLAC, counted apart
 *   ready                    the declarations are complete: the plugin
 *                            flushes all translated code, so that code
 *                            translated before (entry code, at boot) is
 *                            instrumented again knowing them
 *   begin <label>            start an interval
 *   end <ops>                end it; ops is the operations the guest did
 *                            in it (0: the count comes from a point)
 *   note <text>, skip <text> passed through to the output as they are
 *
 * Declarations come first, then ready, then intervals: a begin before
 * the flush completed, or a declaration after ready, is an error record.
 *
 * Output, one record per line, tab separated (the plugin's out= file):
 *
 *   census <version>
 *   note <text> | skip <text>
 *   row <label> <ops> <stac> <clac> <entry_clac> <popf> <kinsn>
 *       [f:<name>=<calls>/<stac>/<clac>/<entry_clac>/<popf>]...
 *       [p:<name>=<executions>]...
 *       [s:<site>=<executions>]...
 *       u:syscall=<executions>
 *       [y:<syscall>=<calls>]...
 *       [x:<site>@<syscall>=<executions>]...
 *   error <text>
 *   exit <rows>
 *
 * Counts are kernel-mode executions (instruction address in the upper
 * half) within the interval; clac includes entry_clac; functions and
 * points appear only when their counts changed. An s: field is a STAC
 * instruction that ran in the interval, as <function>+<offset> of a
 * declared function or a sym, else as its address in hex. u:syscall is
 * the SYSCALL instructions executed in user mode; y: a declared system
 * call's calls; x: a STAC site's executions in one system call, "-" for
 * none (a fault or an interrupt from user mode, or before any call).
 * Version 1 had no syscall or switch line and no u:, y: or x: fields;
 * readers take both.
 */
#ifndef CENSUS_PROTOCOL_H
#define CENSUS_PROTOCOL_H

#define CENSUS_PROTOCOL_VERSION	2
/* The oldest version whose output the host still reads. */
#define CENSUS_PROTOCOL_OLDEST	1
/* A user address far from what a static program or its mmaps use. */
#define CENSUS_MARKER_BASE	0x5a0000000000ULL
#define CENSUS_MARKER_BYTES	256
/* Longest line either side accepts, '\n' excluded. */
#define CENSUS_LINE_MAX		1000

#endif /* CENSUS_PROTOCOL_H */
