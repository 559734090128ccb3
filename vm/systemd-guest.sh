#!/bin/bash
# A Debian 12 guest with systemd as PID 1, for what only a real init
# shows: a boot series' unit, systemctl kexec, the journal (stage
# 48-series-systemd). Its root is a disk image of its own, made with
# mmdebstrap and cached; this checkout, built for it, is a second disk.
#
#   vm/systemd-guest.sh image            make (or find) the cached image;
#                                        print its directory
#   vm/systemd-guest.sh checkout DIR     DIR/srv.img: this checkout built
#                                        in the image's root (/srv/smapbench)
#                                        and DIR/job (/srv/job), cached by
#                                        the sources' hash
#   vm/systemd-guest.sh boot [options]   boot the guest once
#
# boot's options:
#   --image DIR       the image directory (default: `image`'s)
#   --root FILE       the root disk (default DIR/disk.img, its writes
#                     thrown away at the end: QEMU's snapshot=on)
#   --srv FILE        the /srv disk (written to)
#   --append PARAMS   the kernel command line (default: root=/dev/vda rw
#                     console=ttyS0,115200 quiet)
#   --serial FILE     the console's log (default: --srv's directory)
#   --timeout S       seconds the guest may run (default 1800)
#   --kill-on TEXT    kill QEMU (SIGKILL: a power loss) once the console
#                     shows TEXT; exit status 137
#
# The image: mmdebstrap --variant=minbase of bookworm with systemd-sysv,
# udev, kmod, linux-image-amd64, initramfs-tools, kexec-tools, and every
# package `scripts/deps.sh list run` names for such a guest (it has BTF
# and loads modules) with its kernel's headers; apt's lists kept (the
# guest has no network, and a run finds everything installed); the
# journal on disk; the unit smapbench-guest-job.service, which runs
# /srv/job/job.sh on every boot when it exists. It lives in
# $SMAPBENCH_CACHE/systemd-guest/<key>/ (default /var/cache/smapbench),
# the key a hash of what made it, with root/ (for the checkout's build),
# disk.img (mkfs.ext4 -d of root/), vmlinuz and initrd.img.
#
# Exit status: boot gives QEMU's (0: the guest powered off; 124 the
# timeout; 137 --kill-on); 2 bad usage or a missing prerequisite.
set -uo pipefail
# shellcheck source=vm/lib.sh
. "$(dirname "$0")/lib.sh"
declare top
vm_script_init systemd-guest 'Exit status'

cache=${SMAPBENCH_CACHE:-/var/cache/smapbench}/systemd-guest
suite=bookworm
sources=("deb http://deb.debian.org/debian $suite main"
	"deb http://deb.debian.org/debian $suite-updates main"
	"deb http://deb.debian.org/debian-security $suite-security main")

# The run set of a guest whose kernel has BTF, loads modules and has no
# PMU, as scripts/deps.sh decides it there; its headers added, as
# deps.sh would name linux-headers-<release> of the running kernel.
run_packages() {
	local fake
	fake=$(mktemp -d) || return 1
	mkdir -p "$fake/sys/kernel/btf" "$fake/proc/sys/kernel"
	: >"$fake/sys/kernel/btf/vmlinux"
	: >"$fake/proc/modules"
	echo 0 >"$fake/proc/sys/kernel/modules_disabled"
	SMAPBENCH_DEPS_SYSFS=$fake/sys SMAPBENCH_DEPS_PROCFS=$fake/proc \
		"$top/scripts/deps.sh" list run | grep -v '^linux-headers-'
	echo linux-headers-amd64
	rm -rf "$fake"
}

# The unit of the image that runs the job of the /srv disk.
job_unit() {
	cat <<'EOF'
[Unit]
Description=smapbench test guest: the job on /srv/job
After=multi-user.target
RequiresMountsFor=/srv
ConditionPathExists=/srv/job/job.sh

[Service]
Type=exec
ExecStart=/bin/bash /srv/job/job.sh
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
EOF
}

image() {
	local packages args key dir log started
	command -v mmdebstrap >/dev/null || vm_die "mmdebstrap is not installed (scripts/deps.sh install test)"
	command -v mkfs.ext4 >/dev/null || vm_die "mkfs.ext4 is not installed (e2fsprogs)"
	packages=$(run_packages | tr '\n' ',') || vm_die "cannot list the run packages"
	args=(--mode=root --variant=minbase --format=directory
		--include="systemd-sysv,udev,kmod,linux-image-amd64,initramfs-tools,kexec-tools,${packages%,}"
		--skip=cleanup/apt/lists
		--customize-hook='echo smapbench-guest >"$1/etc/hostname"'
		--customize-hook='printf "/dev/vda / ext4 rw,relatime 0 1\n/dev/vdb /srv ext4 rw,relatime,nofail 0 2\n" >"$1/etc/fstab"'
		--customize-hook='mkdir -p "$1/var/log/journal" "$1/srv"'
		# No network: nothing may try it at boot.
		--customize-hook='for t in apt-daily.timer apt-daily-upgrade.timer; do ln -sf /dev/null "$1/etc/systemd/system/$t"; done'
		"$suite")
	key=$( (printf '%s\n' "${args[@]}" "${sources[@]}"; job_unit) | sha256sum | cut -c1-16)
	dir=$cache/$key
	if [ -f "$dir/done" ]; then
		echo "$dir"
		return 0
	fi
	mkdir -p "$cache" || vm_die "cannot create $cache"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	log=$dir.tmp/mmdebstrap.log
	started=$SECONDS
	vm_note "making the systemd guest's root (mmdebstrap, $(wc -w <<<"${packages//,/ }") run packages): $log" >&2
	# mmdebstrap mounts inside the root while it works: its mounts stay in
	# this namespace.
	if ! unshare --mount --propagation private \
		mmdebstrap "${args[@]}" "$dir.tmp/root" "${sources[@]}" >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		vm_die "mmdebstrap failed (log: $log)"
	fi
	job_unit >"$dir.tmp/root/etc/systemd/system/smapbench-guest-job.service"
	ln -sf /etc/systemd/system/smapbench-guest-job.service \
		"$dir.tmp/root/etc/systemd/system/multi-user.target.wants/smapbench-guest-job.service"
	cp -L "$dir.tmp"/root/boot/vmlinuz-* "$dir.tmp/vmlinuz" &&
		cp -L "$dir.tmp"/root/boot/initrd.img-* "$dir.tmp/initrd.img" ||
		vm_die "the guest's root has no kernel and initrd in /boot"
	vm_note "mmdebstrap took $((SECONDS - started)) s; the root disk (mkfs.ext4 -d)" >&2
	mkfs.ext4 -q -L root -d "$dir.tmp/root" "$dir.tmp/disk.img" 4G >>"$log" 2>&1 ||
		vm_die "mkfs.ext4 of the root disk failed (log: $log)"
	touch "$dir.tmp/done"
	mv "$dir.tmp" "$dir" || vm_die "cannot move $dir.tmp to $dir"
	# Images made from other settings are of no further use.
	for old in "$cache"/*/; do
		[ "${old%/}" = "$dir" ] || rm -rf "${old%/}"
	done
	vm_note "the systemd guest's image took $((SECONDS - started)) s: $dir" >&2
	echo "$dir"
}

# checkout DIR: this checkout's tracked and new files, built in the
# image's root as the guest will find it (/srv/smapbench), and the /srv
# disk DIR/srv.img with it and DIR/job. The build is kept by the sources'
# hash in the cache.
checkout() {
	local out=$1 img key src rev log
	img=$(image) || exit 2
	mkdir -p "$out" || vm_die "cannot create $out"
	rev=$(cd "$top" && git describe --always --dirty 2>/dev/null || echo unknown)
	key=$(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 sha256sum 2>/dev/null |
		sha256sum | cut -c1-16)
	src=$img/checkout-$key
	if [ ! -f "$src.done" ]; then
		rm -rf "$img"/checkout-*
		mkdir -p "$src/smapbench"
		(cd "$top" && git ls-files -co --exclude-standard -z |
			xargs -0 cp --parents -t "$src/smapbench" 2>/dev/null)
		echo "$rev" >"$src/smapbench/REVISION"
		log=$src/build.log
		vm_note "building this checkout in the guest's root (log: $log)" >&2
		# The root's view for the build: its /srv is this copy; /proc,
		# /sys and /dev for the kernel build (objtool reads /proc), in a
		# namespace of their own.
		# shellcheck disable=SC2016 # expanded by the inner shell
		if ! unshare --mount --propagation private bash -c '
			root=$1 src=$2
			mount --bind "$src" "$root/srv" &&
				mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" &&
				mount --rbind /dev "$root/dev" && mount -t tmpfs tmpfs "$root/tmp" || exit 1
			release=$(ls "$root/lib/modules" | head -n 1)
			chroot "$root" make -C /srv/smapbench -s -j"$(nproc)" all \
				KDIR="/lib/modules/$release/build"' build "$img/root" "$src" >"$log" 2>&1; then
			tail -n 20 "$log" >&2
			vm_die "the build in the guest's root failed (log: $log)"
		fi
		touch "$src.done"
	fi
	rm -rf "$out/srv" "$out/srv.img"
	mkdir -p "$out/srv/job/out"
	cp -a "$src/smapbench" "$out/srv/smapbench" || vm_die "cannot copy the build to $out/srv"
	[ -d "$out/job" ] && cp -a "$out/job/." "$out/srv/job/"
	mkfs.ext4 -q -L srv -d "$out/srv" "$out/srv.img" 2G >/dev/null 2>&1 ||
		vm_die "mkfs.ext4 of $out/srv.img failed"
	rm -rf "$out/srv"
	echo "$out/srv.img"
}

boot() {
	local img="" root="" srv="" append="root=/dev/vda rw console=ttyS0,115200 quiet" serial="" limit=1800
	local kill_on="" qemu watcher="" rc drive
	while [ $# -gt 0 ]; do
		case $1 in
		--image) img=${2:?--image needs a directory}; shift ;;
		--root) root=${2:?--root needs a file}; shift ;;
		--srv) srv=${2:?--srv needs a file}; shift ;;
		--append) append=${2?--append needs kernel parameters}; shift ;;
		--serial) serial=${2:?--serial needs a file}; shift ;;
		--timeout) limit=${2:?--timeout needs seconds}; shift ;;
		--kill-on) kill_on=${2:?--kill-on needs a text}; shift ;;
		*) vm_die "boot: unknown argument '$1'" ;;
		esac
		shift
	done
	[ -n "$srv" ] || vm_die "boot needs --srv"
	[ -n "$img" ] || img=$(image) || exit 2
	serial=${serial:-$(dirname "$srv")/serial.log}
	drive=file=${root:-$img/disk.img},format=raw,if=virtio
	[ -n "$root" ] || drive+=,snapshot=on
	: >"$serial"
	timeout -k 10 "$limit" qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 2048 \
		-nographic -no-reboot -serial "file:$serial" -monitor none \
		-kernel "$img/vmlinuz" -initrd "$img/initrd.img" -append "$append" \
		-drive "$drive" -drive "file=$srv,format=raw,if=virtio" &
	qemu=$!
	if [ -n "$kill_on" ]; then
		# A power loss: SIGKILL, the moment the console shows the text.
		(
			until grep -aqF -- "$kill_on" "$serial" 2>/dev/null; do
				kill -0 "$qemu" 2>/dev/null || exit 0
				sleep 0.5
			done
			pkill -KILL -P "$qemu" 2>/dev/null
			kill -KILL "$qemu" 2>/dev/null
		) &
		watcher=$!
	fi
	wait "$qemu"
	rc=$?
	[ -n "$watcher" ] && { kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null; }
	return "$rc"
}

mode=${1:-}
[ $# -gt 0 ] && shift
[ "$(id -u)" -eq 0 ] || vm_die "needs root (mmdebstrap, chroot, mounts)"
case $mode in
image) image ;;
checkout) checkout "${1:?checkout needs a directory}" ;;
boot) boot "$@" ;;
-h | --help) vm_help ;;
*) vm_usage ;;
esac
