// SPDX-License-Identifier: GPL-2.0
/*
 * smapbench_canary - proves that SMAP is enforced, for the QEMU tests only.
 *
 * A write to /dev/smapbench_canary makes the kernel read the caller's
 * buffer with a plain load, deliberately without STAC and without the
 * exception table: exactly the bug SMAP exists to catch. With SMAP on the
 * load faults and the writer oopses ("#PF: supervisor read access in
 * kernel mode", "permissions violation", CR4 bit 21 set, EFLAGS.AC
 * clear). With SMAP off (clearcpuid=smap, or a CPU without SMAP) the load
 * succeeds and a read of the device returns the bytes written.
 *
 * Never load this module on a machine you care about; run-bench.sh does
 * not install it. vm/run-vm.sh loads it only in a boot of its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define CANARY_MAX	32

static DEFINE_MUTEX(canary_lock);
static char canary_value[CANARY_MAX];
static size_t canary_len;

/*
 * Copy @len bytes from user @ubuf with plain loads. The __force cast
 * is the whole point: no STAC, no fixup. Nothing is locked while the
 * loads run, so an oops here leaves the rest of the kernel usable.
 */
static void canary_unprotected_read(char *dst, const char __user *ubuf,
				    size_t len)
{
	const char *src = (const char __force *)ubuf;
	size_t i;

	for (i = 0; i < len; i++)
		dst[i] = READ_ONCE(src[i]);
}

static ssize_t canary_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char value[CANARY_MAX];
	size_t len = min_t(size_t, count, CANARY_MAX);

	pr_info("reading %zu user bytes without STAC\n", len);
	canary_unprotected_read(value, ubuf, len);

	mutex_lock(&canary_lock);
	memcpy(canary_value, value, len);
	canary_len = len;
	mutex_unlock(&canary_lock);

	pr_info("read %zu bytes without STAC: SMAP did not fault\n", len);
	return count;
}

static ssize_t canary_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char value[CANARY_MAX];
	size_t len;

	mutex_lock(&canary_lock);
	len = canary_len;
	memcpy(value, canary_value, len);
	mutex_unlock(&canary_lock);

	return simple_read_from_buffer(ubuf, count, ppos, value, len);
}

static const struct file_operations canary_fops = {
	.owner = THIS_MODULE,
	.read = canary_read,
	.write = canary_write,
	.llseek = noop_llseek,
};

static struct miscdevice canary_device = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "smapbench_canary",
	.fops = &canary_fops,
	.mode = 0600,
};

module_misc_device(canary_device);

MODULE_DESCRIPTION("Test-only: reads user memory without STAC to prove SMAP faults");
MODULE_LICENSE("GPL");
