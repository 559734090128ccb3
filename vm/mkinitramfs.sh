#!/bin/bash
# Builds the initramfs of a smapbench QEMU guest for one kernel.
#
#   vm/mkinitramfs.sh --release R --out FILE [--modules-dir DIR]
#                     [--init FILE] [--kernel-module NAME]...
#                     [--module KO]... [--program FILE=NAME]...
#
# Contents: busybox-static with its applet links, --init (default
# vm/init) as /init, the kernel's own modules named by --kernel-module
# (default: those for the 9p share and pvpanic) with their dependencies,
# from --modules-dir (default /lib/modules/R), uncompressed and listed in
# load order in /etc/modules.list; every --module KO in /lib/modules/,
# every --program FILE as /bin/NAME (static binaries or scripts). Prints
# nothing on success.
set -euo pipefail
# shellcheck source=vm/lib.sh
. "$(dirname "$0")/lib.sh"
# Set by vm_script_init; declared for shellcheck, which may not follow lib.sh.
declare here
vm_script_init run-vm

# Modules the busybox guest needs from the kernel: the 9p transport and
# the panic notifier. Built-in ones are skipped.
VM_KERNEL_MODULES="virtio_pci 9pnet_virtio 9p pvpanic-mmio"

release="" out="" moddir="" init=$here/init
kernel_modules=() modules=() programs=()
while [ $# -gt 0 ]; do
	case $1 in
	--release) release=$2; shift ;;
	--out) out=$2; shift ;;
	--modules-dir) moddir=$2; shift ;;
	--init) init=$2; shift ;;
	--kernel-module) kernel_modules+=("$2"); shift ;;
	--module) modules+=("$2"); shift ;;
	--program) programs+=("$2"); shift ;;
	*) vm_die "mkinitramfs: unknown argument $1" ;;
	esac
	shift
done
[ -n "$release" ] && [ -n "$out" ] ||
	vm_die "usage: $0 --release R --out FILE [--modules-dir DIR]" \
		"[--init FILE] [--kernel-module NAME]... [--module KO]..." \
		"[--program FILE=NAME]..."
[ ${#kernel_modules[@]} -gt 0 ] || read -r -a kernel_modules <<<"$VM_KERNEL_MODULES"
[ -r "$init" ] || vm_die "mkinitramfs: --init $init not found"
moddir=${moddir:-/lib/modules/$release}
[ -r "$moddir/modules.dep" ] ||
	vm_die "$moddir/modules.dep not found: pass --modules-dir, or" \
		"install linux-image-$release"
busybox=$(command -v busybox) ||
	vm_die "busybox not found: apt-get install busybox-static"
vm_check_static "$busybox" ||
	vm_die "$busybox is not static: apt-get install busybox-static"

root=$(mktemp -d "${out%/*}/.root.XXXXXX")
packed=""
trap 'rm -rf "$root" "$packed"' EXIT
mkdir -p "$root"/{bin,dev,etc,proc,sys,tmp,host,lib/modules}
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
cp "$init" "$root/init"
chmod 755 "$root/init"

closure=$(vm_module_closure "$moddir" "${kernel_modules[@]}")
: >"$root/etc/modules.list"
for path in $closure; do
	name=${path##*/}
	name=${name%%.ko*}.ko
	vm_copy_module "$moddir/$path" "$root/lib/modules/$name"
	echo "$name" >>"$root/etc/modules.list"
done

for module in "${modules[@]}"; do
	[ -r "$module" ] || vm_die "module $module not found"
	cp "$module" "$root/lib/modules/"
done
for program in "${programs[@]}"; do
	file=${program%%=*}
	name=${program#*=}
	[ -x "$file" ] || vm_die "program $file not found or not executable"
	vm_check_static "$file" || exit 2
	cp "$file" "$root/bin/$name"
done

# A name of its own: two boots of one kernel may build at once.
packed=$(mktemp "$out.XXXXXX")
(cd "$root" && find . -print0 | cpio --null -o -H newc --owner=0:0 \
	--quiet | gzip -1) >"$packed"
chmod 644 "$packed"
mv "$packed" "$out"
