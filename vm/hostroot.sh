#!/bin/bash
# Boots a kernel with this machine's own root filesystem and runs one
# command in it as root. The guest is then a real machine with this
# userland: run-bench.sh builds, loads and unloads the module there as on
# any host that loads modules. docs/vm.md, "The host-root guest".
#
#   vm/hostroot.sh boot [options] -- COMMAND [ARGUMENT]...
#   vm/hostroot.sh initramfs [--kernel KERNEL] [--modules-dir DIR]
#   vm/hostroot.sh accel [--kernel KERNEL] [--accel A]
#                      print the line that says which accelerator a boot
#                      of that kernel gets, and why
#
# Options:
#   --kernel KERNEL    the kernel: an image, a Debian kernel .deb, a release
#                      or a Debian suite such as sid (vm/kernel.sh fetches
#                      and unpacks packages; default: Debian's
#                      linux-image-amd64)
#   --headers H        headers of that kernel, when they are not at
#                      /lib/modules/<release>/build (linked there in the
#                      guest): a directory or a linux-headers .deb
#   --modules-dir DIR  its modules (default: those of a package, or
#                      /lib/modules/<release>)
#   --dir DIR          where the boot's files go (default build/vm/hostroot/boot)
#   --share DIR        the host directory the guest sees at /run/smapbench
#                      (default: DIR/share, emptied first; one given here
#                      keeps its contents, so that boots can share runs)
#   --cpu MODEL        QEMU -cpu model (default max)
#   --append PARAMS    extra kernel parameters, e.g. clearcpuid=smap
#   --cd DIR           the command's working directory (default: this checkout)
#   --hostname NAME    the guest's host name (default smapbench-vm)
#   --accel A          auto (default, or SMAPBENCH_ACCEL), kvm or tcg: auto
#                      boots the kernel under KVM to user space first
#                      (cached in build/vm/accel/), else takes TCG
#   --memory MIB       guest memory (default 2048)
#   --smp N            guest CPUs (default 2, or VM_SMP)
#   --plugin SPEC      a QEMU TCG plugin and its arguments (QEMU -plugin),
#                      e.g. the census plugin (vm/census.sh --command)
#   --timeout S        seconds the whole boot may take (default 1800)
#   --quiet            do not show the command's output while it runs
#
# The host's / is the guest's lower layer, read-only; the guest's writes
# go to a tmpfs and vanish, except under /run/smapbench (the share). The
# command's output is also kept in the share's job.out.
#
# Exit status: the command's; 125 when the guest did not report one
# (panic, hang, failed mount: DIR/serial.log says why); 2 bad usage or a
# missing prerequisite.
set -uo pipefail
# shellcheck source=vm/lib.sh
. "$(dirname "$0")/lib.sh"
# Set by vm_script_init; declared for shellcheck, which may not follow lib.sh.
declare here top build
# Its errors say run-vm, as those of the library's functions do.
vm_script_init run-vm 'missing prerequisite'

# The modules the guest needs before it can mount its root: the 9p
# transport, the overlay and the panic notifier (with their dependencies).
HOSTROOT_MODULES="virtio_pci 9pnet_virtio 9p overlay pvpanic-mmio"

mode=${1:-}
[ $# -gt 0 ] && shift
case $mode in
boot | initramfs | accel) ;;
-h | --help) vm_help; exit 0 ;;
*) vm_usage ;;
esac
kernel="" headers="" moddir="" dir="$build/vm/hostroot/boot" share="" cpu=max
append="" workdir=$top hostname=smapbench-vm accel=auto memory=2048
limit=1800 quiet=0 smp=${VM_SMP:-2} plugin=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?--kernel needs an image, a .deb, a release or a suite}; shift ;;
	--headers) headers=${2:?--headers needs a directory or a .deb}; shift ;;
	--modules-dir) moddir=${2:?--modules-dir needs a directory}; shift ;;
	--dir) dir=${2:?--dir needs a directory}; shift ;;
	--share) share=${2:?--share needs a directory}; shift ;;
	--cpu) cpu=${2:?--cpu needs a QEMU CPU model}; shift ;;
	--append) append=${2?--append needs kernel parameters}; shift ;;
	--cd) workdir=${2:?--cd needs a directory}; shift ;;
	--hostname) hostname=${2:?--hostname needs a name}; shift ;;
	--accel) accel=${2:?--accel needs auto, kvm or tcg}; shift ;;
	--memory) memory=${2:?--memory needs MiB}; shift ;;
	--smp) smp=${2:?--smp needs a number of CPUs}; shift ;;
	--plugin) plugin=(-plugin "${2:?--plugin needs a plugin and its arguments}"); shift ;;
	--timeout) limit=${2:?--timeout needs seconds}; shift ;;
	--quiet) quiet=1 ;;
	--) shift; break ;;
	-h | --help) vm_help; exit 0 ;;
	*) vm_die "unknown argument '$1' (see $0 --help)" ;;
	esac
	shift
done
accel=$(vm_accel_request "$accel") || exit 2
[[ $memory =~ ^[1-9][0-9]*$ ]] || vm_die "--memory must be a number of MiB"
[[ $smp =~ ^[1-9][0-9]*$ ]] || vm_die "--smp must be a number of CPUs"
[ ${#plugin[@]} -eq 0 ] || [ "$accel" = tcg ] ||
	vm_die "--plugin needs --accel tcg: QEMU runs plugins under TCG only"
[[ $limit =~ ^[1-9][0-9]*$ ]] || vm_die "--timeout must be a number of seconds"
if [ "$mode" = boot ] && [ $# -eq 0 ]; then
	vm_die "boot needs a command after --"
fi
command -v qemu-system-x86_64 >/dev/null ||
	vm_die "qemu-system-x86_64 not found: apt-get install --no-install-recommends qemu-system-x86"

if [ -z "$kernel" ]; then
	release=$(vm_debian_release linux-image-amd64)
	[ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ] ||
		vm_die "Debian's default kernel is not installed:" \
			"apt-get install linux-image-amd64 linux-headers-amd64"
	kernel=/boot/vmlinuz-$release
fi
# The guest only links the headers in: no build root is asked for.
vm_kernel "$kernel" "$headers" none || exit 2
kernel=$VM_KERNEL_IMAGE
release=$VM_KERNEL_RELEASE
moddir=${moddir:-$VM_KERNEL_MODULES}
if [ -n "$VM_KERNEL_HEADERS" ] &&
	[ "$VM_KERNEL_HEADERS" != "$(readlink -f "/lib/modules/$release/build")" ]; then
	headers=$VM_KERNEL_HEADERS
elif [ -z "$VM_KERNEL_HEADERS" ] && [ "$mode" = boot ]; then
	vm_note "warning: no headers at /lib/modules/$release/build:" \
		"the module cannot be built in the guest (apt-get install" \
		"linux-headers-$release, or pass --headers)"
fi

if [ "$mode" = accel ]; then
	mkdir -p "$build/vm" || vm_die "cannot create $build/vm"
	vm_accel_choose "$accel" "$kernel" "$build/vm" || exit 2
	echo "$VM_ACCEL_LINE"
	exit 0
fi

# ------------------------------------------------------------ initramfs
initramfs=$build/vm/hostroot/$release/initramfs.cpio.gz
mkdir -p "${initramfs%/*}" || vm_die "cannot create ${initramfs%/*}"
module_args=()
for module in $HOSTROOT_MODULES; do
	module_args+=(--kernel-module "$module")
done
"$here/mkinitramfs.sh" --release "$release" --modules-dir "$moddir" \
	--init "$here/hostroot-init" --out "$initramfs" "${module_args[@]}" ||
	exit 2
if [ "$mode" = initramfs ]; then
	echo "$initramfs"
	exit 0
fi

# ------------------------------------------------------------ boot
# The guest sees the host's tree, but mounts its own /run, /proc, /sys
# and /dev: a working directory there would not be this machine's.
workdir=$(cd "$workdir" && pwd) || vm_die "--cd $workdir: no such directory"
case $workdir/ in
/run/* | /proc/* | /sys/* | /dev/*)
	vm_die "--cd $workdir: the guest mounts its own /run, /proc, /sys and /dev" ;;
esac

mkdir -p "$dir" || vm_die "cannot create $dir"
dir=$(cd "$dir" && pwd)
rm -f "$dir/serial.log" "$dir/qemu.rc" "$dir/seconds"
if [ -z "$share" ]; then
	share=$dir/share
	rm -rf "$share"
fi
mkdir -p "$share" || vm_die "cannot create $share"
share=$(cd "$share" && pwd)
# What an earlier boot left in a kept share must not pass for this one's.
rm -f "$share"/{session.sh,job.sh,job.out,job.rc,done,hostname,headers,image} \
	"$share"/{dmesg.txt,tainted,cmdline,release,cpuflags}
cp "$here/hostroot-session.sh" "$share/session.sh"
echo "$hostname" >"$share/hostname"
[ -n "$headers" ] && echo "$headers" >"$share/headers"
# A kernel not installed here (unpacked from its packages): its image is
# linked where an installed one lies, for what looks there (kexec).
[ "$(readlink -f "$kernel")" = "$(readlink -f "/boot/vmlinuz-$release")" ] ||
	readlink -f "$kernel" >"$share/image"
{
	echo "# Written by vm/hostroot.sh; run by session.sh in the guest."
	printf 'cd %q || exit 125\n' "$workdir"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$share/job.sh"

vm_accel_choose "$accel" "$kernel" "$build/vm" || exit 2
accel=$VM_ACCEL
vm_note "$release: $VM_ACCEL_LINE"
cmdline="$VM_BASE_CMDLINE oops=panic${append:+ $append} SMAPBENCH_VIRT=$accel SMAPBENCH_ACCEL_WHY=$VM_ACCEL_WHY"
echo "$cmdline" >"$dir/cmdline"

stop() {
	vm_stop_qemu "$dir"
	[ -n "${follower:-}" ] && kill "$follower" 2>/dev/null
	wait
	exit "$1"
}
trap 'stop 130' INT
trap 'stop 143' TERM

follower=""
if [ "$quiet" -eq 0 ]; then
	# The guest writes job.out through 9p: follow it until the boot ends.
	tail -n +1 -s 0.5 -F "$share/job.out" 2>/dev/null &
	follower=$!
fi
vm_run_qemu "$dir" "$limit" -accel "$accel" -cpu "$cpu" -m "$memory" \
	-smp "$smp" "${plugin[@]}" \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hostroot" \
	-virtfs "local,path=$share,mount_tag=$VM_SHARE_TAG,security_model=none,id=share" \
	-kernel "$kernel" -initrd "$initramfs" -append "$cmdline"
if [ -n "$follower" ]; then
	sleep 1
	kill "$follower" 2>/dev/null
	wait "$follower" 2>/dev/null
fi

rc=$(cat "$dir/qemu.rc")
if [ "$rc" = 0 ] && [ -e "$share/done" ] && [ -r "$share/job.rc" ]; then
	exit "$(cat "$share/job.rc")"
fi
case $rc in
0) why="the guest powered off before the command finished" ;;
1) why="the guest kernel panicked (oops=panic)" ;;
5) why="the guest could not mount its root or the share" ;;
7) why="a kernel module of the initramfs did not load" ;;
124 | 137) why="the boot took longer than --timeout $limit s" ;;
*) why="QEMU failed with status $rc" ;;
esac
{
	echo "hostroot: error: $release boot: $why; last lines of $dir/serial.log:"
	grep -a . "$dir/serial.log" 2>/dev/null | tr -d '\r' |
		sed 's/\x1b[[c0-9;?]*[a-zA-Z]\{0,1\}//g' | tail -n 25 | sed 's/^/  /'
	[ -s "$dir/qemu.out" ] && sed 's/^/  qemu: /' "$dir/qemu.out"
} >&2
exit 125
