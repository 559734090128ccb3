// SPDX-License-Identifier: GPL-2.0
/*
 * probe: masked_user_access_begin(), x86-64 since 6.12
 * tree: arch/x86/include/asm/uaccess_64.h define masked_user_access_begin
 * without: no masked rows
 *
 * Merged for 6.12 ("x86: support user address masking instead of
 * non-speculative conditional"); can_do_masked_user_access() says whether
 * the architecture has it. Without it there is no masked variant.
 */
#include <linux/build_bug.h>
#include <linux/uaccess.h>

int smapbench_probe_masked(u32 __user *p);

int smapbench_probe_masked(u32 __user *p)
{
	u32 x;

	BUILD_BUG_ON(!can_do_masked_user_access());
	p = masked_user_access_begin(p);
	unsafe_get_user(x, p, efault);
	user_access_end();
	return x;
efault:
	user_access_end();
	return -EFAULT;
}
