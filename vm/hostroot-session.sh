#!/bin/bash
# PID 1 of the host-root guest once vm/hostroot-init has switched to the
# overlay root; vm/hostroot.sh copies it into the share as session.sh.
#
# Runs the share's job.sh with bash, as root, and leaves in the share:
#   job.out    what the job printed (also copied to the console)
#   job.rc     its exit status
#   dmesg.txt, tainted, cmdline, release, cpuflags, then "done"
# and powers the guest off. PID 1 must never exit: the kernel would panic.
share=/run/smapbench
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 TERM=dumb SHELL=/bin/bash
umask 022

# What udev and systemd would add to devtmpfs: bash's <(...) needs /dev/fd.
mkdir -p /dev/pts /dev/shm
mount -t devpts -o gid=5,mode=620 devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
ln -sfn /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
[ -r "$share/hostname" ] && hostname "$(cat "$share/hostname")"
# No network, but loopback as on any machine: the UDP benchmark needs it.
ip link set lo up 2>/dev/null || ifconfig lo up 2>/dev/null
# Headers of a kernel that is not installed where run-bench.sh looks:
# linked in as a user would install them. The link lives in the overlay.
if [ -r "$share/headers" ]; then
	release=$(uname -r)
	mkdir -p "/lib/modules/$release"
	ln -sfn "$(cat "$share/headers")" "/lib/modules/$release/build"
fi

# The image of a kernel not installed on the host, where an installed
# one would lie (a boot series kexecs /boot/vmlinuz-<release>).
if [ -r "$share/image" ]; then
	ln -sfn "$(cat "$share/image")" "/boot/vmlinuz-$(uname -r)"
fi

echo "smapbench-hostroot: running job.sh"
# Appended: a boot series (run-bench.sh --boots) runs the job on every
# boot of the guest, and each boot's output stays.
bash "$share/job.sh" </dev/null 2>&1 | tee -a "$share/job.out" >/dev/console
echo "${PIPESTATUS[0]}" >"$share/job.rc"
echo "smapbench-hostroot: job.sh exit status $(cat "$share/job.rc")"

dmesg >"$share/dmesg.txt"
cat /proc/sys/kernel/tainted >"$share/tainted"
cat /proc/cmdline >"$share/cmdline"
uname -r >"$share/release"
grep -m 1 '^flags' /proc/cpuinfo >"$share/cpuflags"
echo finished >"$share/done"
sync
umount "$share" 2>/dev/null
echo o >/proc/sysrq-trigger
while :; do sleep 60; done
