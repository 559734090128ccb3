/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Overlay: x86 before 5.19 has no unsafe_try_cmpxchg_user() (it came
 * with "x86/uaccess: Implement unsafe_try_cmpxchg_user()", for 5.19's
 * futex and KVM users). The rest of the header is the base tree's.
 */
#include_next <asm/uaccess.h>
#undef unsafe_try_cmpxchg_user
