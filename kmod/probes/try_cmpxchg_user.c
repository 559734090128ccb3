// SPDX-License-Identifier: GPL-2.0
/*
 * probe: unsafe_try_cmpxchg_user(), x86 since 5.19
 * tree: arch/x86/include/asm/uaccess.h define unsafe_try_cmpxchg_user
 * without: no futex batched and masked rows
 *
 * A lock cmpxchg on user memory inside a user_access_begin() block,
 * merged for 5.19 ("x86/uaccess: Implement unsafe_try_cmpxchg_user()").
 * Without it futex has no batched and no masked variant.
 */
#include <linux/uaccess.h>

int smapbench_probe_try_cmpxchg_user(u32 __user *p);

int smapbench_probe_try_cmpxchg_user(u32 __user *p)
{
	u32 old = 0;

	if (!user_access_begin(p, sizeof(*p)))
		return -EFAULT;
	unsafe_try_cmpxchg_user(p, &old, 1, efault);
	user_access_end();
	return old;
efault:
	user_access_end();
	return -EFAULT;
}
