/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Overlay: kernels before 6.12 have no masked_user_access_begin() and
 * no can_do_masked_user_access() (both came with "x86: support user
 * address masking instead of non-speculative conditional", 6.12).
 */
#include_next <linux/uaccess.h>
#undef can_do_masked_user_access
#undef masked_user_access_begin
#undef mask_user_address
