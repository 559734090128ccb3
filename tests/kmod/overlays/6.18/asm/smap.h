/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Overlay: from 6.15 asm/smap.h writes the stac and clac mnemonics
 * (binutils 2.25 became the minimum) and no longer defines the byte
 * strings __ASM_STAC and __ASM_CLAC. Its stac()/clac() and ASM_STAC/
 * ASM_CLAC stay; the inline functions were expanded above, before the
 * names went away.
 */
#include_next <asm/smap.h>
#undef __ASM_STAC
#undef __ASM_CLAC
