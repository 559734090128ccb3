# Shell functions shared by the vm/*.sh scripts (sourced); run-bench.sh
# and the test stages source it too.
# shellcheck shell=bash disable=SC2034
#
# Nothing here runs on its own: sourcing sets VM_* variables and defines
# vm_* functions, nothing else. Every function reports errors on stderr
# with what to do about them and returns non-zero; callers decide. Only
# vm_die and vm_usage end the script.

# The 9p mount tag and the guest mount point of the result share.
VM_SHARE_TAG=smapbench
# isa-debug-exit: a guest write of k to this port ends QEMU with 2k+1.
VM_DEBUG_EXIT_PORT=0xf4
# Kernel parameters of every boot. no_timer_check: under TCG on a loaded
# host the IO-APIC timer probe can miss its window and panic the guest
# ("IO-APIC + timer doesn't work") before /init; the probe proves nothing
# about the module.
VM_BASE_CMDLINE="console=ttyS0 panic=-1 no_timer_check"
# Lines of a kernel log that must not appear in a healthy boot.
VM_BAD_LOG_RE='BUG:|WARNING:|Oops|general protection fault|soft lockup|hard LOCKUP|blocked for more than|Call Trace|RIP:|Kernel panic|UBSAN|KASAN|Tainted:|Disabling lock debugging|kernel BUG|invalid opcode|double fault|stack-protector'

# ------------------------------------------------------------ scripts
# vm_script_init NAME [HELP_END]: the start of every vm/*.sh. Sets here
# (vm/), top (the checkout), BUILD (default build) and build (BUILD, under
# top unless absolute). NAME starts vm_die's messages; vm_help prints the
# script's header comment from its second line to the one that starts
# with "# HELP_END". Not run on sourcing: run-bench.sh has its own here.
vm_script_init() {
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	top=$(cd "$here/.." && pwd)
	BUILD=${BUILD:-build}
	case $BUILD in /*) build=$BUILD ;; *) build=$top/$BUILD ;; esac
	VM_SCRIPT=$1
	VM_HELP_END=${2:-}
}

vm_help() {
	sed -n "2,/^# $VM_HELP_END/s/^# \{0,1\}//p" "$0"
}

# Bad usage: the help on stderr, exit status 2.
vm_usage() {
	vm_help >&2
	exit 2
}

vm_die() {
	echo "${VM_SCRIPT:-run-vm}: error: $*" >&2
	exit 2
}

vm_note() {
	echo "# $*"
}

# Kernel release of a bzImage, read from its setup header: the 16-bit
# word at 0x20e is the offset (minus 0x200) of a NUL-terminated string
# that starts with the release.
vm_image_release() {
	local image=$1 offset
	[ -r "$image" ] || return 1
	offset=$(od -An -t u2 -j 526 -N 2 "$image" | tr -d ' ')
	[ -n "$offset" ] && [ "$offset" -gt 0 ] || return 1
	dd if="$image" bs=1 skip=$((offset + 512)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d ' ' -f 1
}

# Kernel release a header tree was configured for (UTS_RELEASE: Debian's
# 6.1 include/config/kernel.release holds the upstream version instead).
vm_headers_release() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$1/include/generated/utsrelease.h" 2>/dev/null | grep .
}

# vm_module_closure MODDIR NAME...: the files to load for module names
# (e.g. 9pnet_virtio), in the order modprobe would load them (what each
# depends on first), each once; modules built into the kernel are left
# out. Prints paths relative to MODDIR. modprobe looks only in
# BASE/lib/modules/RELEASE, at the index depmod makes (modules.dep.bin):
# any other MODDIR is reached through a link in a temporary BASE.
# -C /dev/null: this machine's modprobe.d is about its own kernel.
vm_module_closure() {
	local moddir=$1 modprobe release base tmp prefix name kind path rel
	local rc=0 seen=" "
	shift
	# modprobe lives in /sbin, which a user's PATH may lack.
	modprobe=$(PATH=$PATH:/usr/sbin:/sbin command -v modprobe) || {
		echo "run-vm: error: modprobe not found: apt-get install kmod" >&2
		return 1
	}
	moddir=$(cd "$moddir" && pwd) || return 1
	[ -r "$moddir/modules.dep.bin" ] || {
		echo "run-vm: error: $moddir has no modules.dep.bin, the index" \
			"modprobe reads: run depmod for that tree" >&2
		return 1
	}
	tmp=$(mktemp -d) || return 1
	release=${moddir##*/}
	base=${moddir%/lib/modules/"$release"}
	if [ "$base" = "$moddir" ]; then
		base=$tmp/base
		if ! mkdir -p "$base/lib/modules" ||
			! ln -s "$moddir" "$base/lib/modules/$release"; then
			rm -rf "$tmp"
			return 1
		fi
	fi
	# modprobe prints BASE/lib/modules/RELEASE/PATH, with // for a BASE of /.
	prefix=$base/lib/modules/$release/
	for name in "$@"; do
		if ! "$modprobe" -C /dev/null -d "${base:-/}" -S "$release" \
			--show-depends "$name" >"$tmp/out" 2>"$tmp/err"; then
			if grep -q 'not found in directory' "$tmp/err"; then
				echo "run-vm: error: module $name is neither in" \
					"$moddir/modules.dep nor built in" >&2
			else
				echo "run-vm: error: modprobe --show-depends $name" \
					"failed for $moddir:" >&2
				cat "$tmp/err" >&2
			fi
			rc=1
			break
		fi
		cat "$tmp/err" >&2
		while read -r kind path _; do
			case $kind in
			builtin) continue ;;
			insmod) rel=${path#"$prefix"} ;;
			*) rel=$path ;; # no file to copy: refused below
			esac
			if [ "$rel" = "$path" ]; then
				echo "run-vm: error: modprobe --show-depends $name said" \
					"'$kind $path', not a module file under $moddir" >&2
				rc=1
				break 2
			fi
			case $seen in *" $rel "*) continue ;; esac
			seen="$seen$rel "
			echo "$rel"
		done < <(sed 's|^\(insmod \)//*|\1/|' "$tmp/out")
	done
	rm -rf "$tmp"
	return "$rc"
}

# Copy a module to DEST uncompressed (busybox insmod reads plain ELF).
vm_copy_module() {
	local src=$1 dest=$2
	case $src in
	*.ko.xz) xz -dc "$src" >"$dest" ;;
	*.ko.zst) zstd -qdc "$src" >"$dest" ;;
	*.ko.gz) gzip -dc "$src" >"$dest" ;;
	*) cp "$src" "$dest" ;;
	esac
}

# Fails for an ELF file that needs a dynamic loader: the initramfs has
# none. Scripts and static binaries pass.
vm_check_static() {
	local file=$1
	if head -c 4 "$file" | grep -q 'ELF' &&
		readelf -l "$file" 2>/dev/null | grep -q 'INTERP'; then
		echo "run-vm: error: $file is dynamically linked; the guest" \
			"has no libc: build it with -static" >&2
		return 1
	fi
}

# ------------------------------------------------------------ accelerator
# Which accelerator a boot uses. A /dev/kvm that runs a real-mode sector
# proves nothing: on some nested hosts KVM runs real mode, then hangs a
# Linux kernel before long mode. So the probe boots the kernel the run
# will use, with an initramfs whose /init prints a marker from user space,
# and says kvm only when the marker arrives.
VM_KVM_DEVICE=${SMAPBENCH_KVM_DEVICE:-/dev/kvm}
# Seconds the probe's guest has to reach user space under KVM (it needs
# about one); seconds any KVM boot has to print its first kernel line.
VM_KVM_PROBE_SECONDS=${SMAPBENCH_KVM_PROBE_SECONDS:-20}
VM_KVM_FIRST_LINE_SECONDS=${SMAPBENCH_KVM_FIRST_LINE_SECONDS:-30}
# Printed by the probe's /init, never by the kernel (not in its command line).
VM_PROBE_MARKER="smapbench-probe: user space reached"

# vm_accel_request [ARGUMENT]: the accelerator asked for, auto when none
# was: the argument (--accel) first, then SMAPBENCH_ACCEL. Fails on
# anything but auto, kvm or tcg.
vm_accel_request() {
	local want=${1:-auto}
	[ "$want" = auto ] && want=${SMAPBENCH_ACCEL:-auto}
	case $want in
	auto | kvm | tcg) echo "$want" ;;
	*)
		echo "run-vm: error: accelerator '$want' (--accel or" \
			"SMAPBENCH_ACCEL) is not auto, kvm or tcg" >&2
		return 1
		;;
	esac
}

# The probe's initramfs: busybox and an /init that prints the marker and
# powers off. Built once per build directory.
vm_probe_initramfs() {
	local out=$1 busybox root
	[ -s "$out" ] && { echo "$out"; return 0; }
	busybox=$(command -v busybox) || {
		echo "run-vm: error: busybox not found: apt-get install busybox-static" >&2
		return 1
	}
	vm_check_static "$busybox" || return 1
	root=$(mktemp -d "${out%/*}/.probe-root.XXXXXX") || return 1
	mkdir -p "$root/bin" "$root/dev" "$root/proc"
	cp "$busybox" "$root/bin/busybox"
	printf '%s\n' '#!/bin/busybox sh' \
		"/bin/busybox echo '$VM_PROBE_MARKER'" \
		'/bin/busybox poweroff -f' >"$root/init"
	chmod 755 "$root/init"
	(cd "$root" && find . -print0 | cpio --null -o -H newc --owner=0:0 \
		--quiet | gzip -1) >"$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$root"
	[ -s "$out" ] && echo "$out"
}

# What the cached answer depends on: the host's CPU and kernel, QEMU, and
# the guest kernel image.
vm_accel_cache_key() {
	local image=$1
	{
		grep -m4 -E '^(vendor_id|cpu family|model|model name)[[:space:]]*:' /proc/cpuinfo
		uname -r
		qemu-system-x86_64 --version | head -n 1
		stat -L -c '%n %s %Y' "$image"
	} 2>/dev/null | sha256sum | cut -c1-16
}

# vm_kvm_probe IMAGE DIR PREFIX: boots IMAGE under KVM with the probe's
# initramfs. Prints "kvm" or "tcg REASON" (REASON a code, see
# vm_accel_text), leaving PREFIX.serial and PREFIX.qemu.
vm_kvm_probe() {
	local image=$1 dir=$2 prefix=$3 initramfs pid deadline rc
	initramfs=$(vm_probe_initramfs "$dir/probe-initramfs.cpio.gz") || {
		echo "tcg probe-unbuilt"
		return
	}
	rm -f "$prefix.serial"
	qemu-system-x86_64 -accel kvm -cpu max -M pc -nodefaults \
		-display none -no-reboot -m 256 -smp 1 \
		-serial "file:$prefix.serial" -kernel "$image" \
		-initrd "$initramfs" -append "console=ttyS0 panic=-1" \
		>"$prefix.qemu" 2>&1 </dev/null &
	pid=$!
	# Poll: a working KVM gets there in about a second. The limit is of
	# wall time, not of polls, which a loaded host makes slower.
	deadline=$((SECONDS + VM_KVM_PROBE_SECONDS))
	while kill -0 "$pid" 2>/dev/null; do
		grep -aqF "$VM_PROBE_MARKER" "$prefix.serial" 2>/dev/null && break
		[ "$SECONDS" -ge "$deadline" ] && break
		sleep 0.25
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	if grep -aqF "$VM_PROBE_MARKER" "$prefix.serial" 2>/dev/null; then
		echo kvm
	elif [ "$SECONDS" -lt "$deadline" ] && [ "$rc" -ne 137 ]; then
		echo "tcg kvm-failed"
	elif grep -aq 'Linux version' "$prefix.serial" 2>/dev/null; then
		echo "tcg kvm-no-userspace"
	else
		echo "tcg kvm-no-kernel"
	fi
}

# vm_accel_text ACCEL REASON: the one line that says what was chosen, why.
vm_accel_text() {
	local accel=$1 why=$2 dev=$VM_KVM_DEVICE qemu_said
	case $why in
	asked)
		if [ "$accel" = kvm ]; then
			echo "accelerator: KVM, as asked (--accel or SMAPBENCH_ACCEL); a Linux guest reached user space under it"
		else
			echo "accelerator: TCG, as asked (--accel or SMAPBENCH_ACCEL): emulated timings, functional only"
		fi
		;;
	kvm-ok) echo "accelerator: KVM ($dev ran a Linux guest to user space): timings are the guest's own" ;;
	no-device) echo "accelerator: TCG: $dev is absent or not readable and writable (emulated timings)" ;;
	probe-unbuilt) echo "accelerator: TCG: the KVM probe's initramfs could not be built (busybox-static missing?) (emulated timings)" ;;
	kvm-failed)
		# QEMU says why in its first line, e.g. an MSR it cannot set.
		qemu_said=$(grep -m1 . "${VM_ACCEL_PROBE:-/nonexistent}.qemu" 2>/dev/null | cut -c1-120)
		echo "accelerator: TCG: $dev is present, but QEMU failed under KVM at once${qemu_said:+ ($qemu_said)} (emulated timings)"
		;;
	kvm-no-kernel) echo "accelerator: TCG: $dev is present, but a Linux guest printed no kernel line in ${VM_KVM_PROBE_SECONDS} s under KVM (emulated timings)" ;;
	kvm-no-userspace) echo "accelerator: TCG: $dev is present, but a Linux guest did not reach user space in ${VM_KVM_PROBE_SECONDS} s under KVM (emulated timings)" ;;
	kvm-silent) echo "accelerator: TCG: the boot under KVM printed no kernel line in ${VM_KVM_FIRST_LINE_SECONDS} s, so it was stopped and taken again under TCG (emulated timings)" ;;
	*) echo "accelerator: $accel ($why)" ;;
	esac
}

# vm_accel_choose REQUEST IMAGE BUILD_DIR: sets VM_ACCEL (kvm or tcg),
# VM_ACCEL_WHY (a reason code, which boots pass to the guest as
# SMAPBENCH_ACCEL_WHY so that it lands in the run's context) and
# VM_ACCEL_LINE (vm_accel_text). auto probes IMAGE under KVM, with the
# answer cached under BUILD_DIR/accel per host and kernel; kvm that cannot
# boot fails, saying why. REQUEST comes from vm_accel_request.
vm_accel_choose() {
	local request=$1 image=$2 dir=$3/accel cache answer why
	VM_ACCEL="" VM_ACCEL_WHY="" VM_ACCEL_LINE="" VM_ACCEL_PROBE=""
	if [ "$request" = tcg ]; then
		VM_ACCEL=tcg VM_ACCEL_WHY=asked
		VM_ACCEL_LINE=$(vm_accel_text tcg asked)
		return 0
	fi
	if ! [ -r "$VM_KVM_DEVICE" ] || ! [ -w "$VM_KVM_DEVICE" ]; then
		answer="tcg no-device"
	else
		mkdir -p "$dir" || return 1
		cache=$dir/$(vm_image_release "$image")-$(vm_accel_cache_key "$image")
		VM_ACCEL_PROBE=$cache
		if [ -r "$cache" ]; then
			answer=$(cat "$cache")
		else
			answer=$(vm_kvm_probe "$image" "$dir" "$cache")
			# Not a fact about the host: not kept.
			[ "$answer" = "tcg probe-unbuilt" ] ||
				{ echo "$answer" >"$cache.tmp" && mv "$cache.tmp" "$cache"; }
		fi
	fi
	read -r VM_ACCEL why <<<"$answer"
	VM_ACCEL_WHY=${why:-kvm-ok}
	if [ "$request" = kvm ] && [ "$VM_ACCEL" != kvm ]; then
		echo "run-vm: error: --accel kvm (or SMAPBENCH_ACCEL=kvm), but" \
			"$(vm_accel_text tcg "$VM_ACCEL_WHY" | sed 's/^accelerator: TCG: //; s/ (emulated timings)$//')" \
			"(the probe's console: ${cache:-$dir/*}.serial; rm -f ${cache:-$dir/*} to probe again)" >&2
		return 1
	fi
	[ "$request" = kvm ] && VM_ACCEL_WHY=asked
	VM_ACCEL_LINE=$(vm_accel_text "$VM_ACCEL" "$VM_ACCEL_WHY")
	return 0
}

# The release of a Debian kernel package's image, e.g. linux-image-amd64
# -> 6.1.0-57-amd64; empty when the package is not installed.
vm_debian_release() {
	dpkg-query -W -f='${Status} ${Depends}\n' "$1" 2>/dev/null |
		sed -n 's/^install ok installed linux-image-\([^ ,]*\).*/\1/p'
}

# vm_kernel SPEC [HEADERS] [BUILD_ROOT]: the kernel SPEC names (an image,
# a .deb, a release, a Debian suite: vm/kernel.sh), fetched and unpacked
# when it must be; BUILD_ROOT "none" looks for no build root. Sets VM_KERNEL_RELEASE, _IMAGE, _MODULES, _HEADERS
# (empty when there are none), _BUILD_ROOT (empty: this machine builds its
# modules), _COMPILER and _SOURCE. Returns vm/kernel.sh's status: 2 for
# bad input, which it has explained.
vm_kernel() {
	local spec=$1 hdr=${2:-} root=${3:-} out key value args=()
	[ -n "$hdr" ] && args+=(--headers "$hdr")
	case $root in
	"") ;;
	none) args+=(--no-build-root) ;;
	*) args+=(--build-root "$root") ;;
	esac
	out=$("$(dirname "${BASH_SOURCE[0]}")/kernel.sh" resolve "${args[@]}" "$spec") ||
		return
	VM_KERNEL_RELEASE="" VM_KERNEL_IMAGE="" VM_KERNEL_MODULES=""
	VM_KERNEL_HEADERS="" VM_KERNEL_BUILD_ROOT="" VM_KERNEL_COMPILER=""
	VM_KERNEL_SOURCE=""
	while IFS= read -r line; do
		key=${line%%=*}
		value=${line#*=}
		case $key in
		release) VM_KERNEL_RELEASE=$value ;;
		image) VM_KERNEL_IMAGE=$value ;;
		modules) VM_KERNEL_MODULES=$value ;;
		headers) VM_KERNEL_HEADERS=$value ;;
		build_root) VM_KERNEL_BUILD_ROOT=$value ;;
		compiler) VM_KERNEL_COMPILER=$value ;;
		source) VM_KERNEL_SOURCE=$value ;;
		esac
	done <<<"$out"
}

# vm_kbuild BUILD_ROOT HEADERS [DIR...] -- COMMAND...: runs COMMAND where
# modules for the kernel of HEADERS can be built. With no BUILD_ROOT,
# here. Else chrooted into BUILD_ROOT (a root of the kernel's
# distribution, with its compiler) in a mount namespace of its own: the
# root is the lower layer of an overlay (it is never written), with
# /proc, /dev, a fresh /tmp, and this checkout, the build directory, the
# kernel cache, HEADERS, the working directory and each DIR at their own
# paths. The namespace, and every mount in it, ends with COMMAND: nothing
# is left mounted, whatever stops it.
vm_kbuild() {
	local root=$1 hdr=$2 scratch rc binds=() here_top
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		binds+=("$1")
		shift
	done
	shift
	if [ -z "$root" ]; then
		"$@"
		return
	fi
	command -v unshare >/dev/null || {
		echo "run-vm: error: unshare not found: apt-get install util-linux" >&2
		return 1
	}
	here_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	binds+=("$here_top" "$PWD")
	[ -n "${build:-}" ] && binds+=("$build")
	[ -d "${SMAPBENCH_CACHE:-/var/cache/smapbench}/kernels" ] &&
		binds+=("$(cd "${SMAPBENCH_CACHE:-/var/cache/smapbench}/kernels" && pwd -P)")
	[ -n "$hdr" ] && binds+=("$hdr")
	scratch=$(mktemp -d) || return 1
	mkdir -p "$scratch/upper" "$scratch/work" "$scratch/root"
	unshare --mount --propagation private bash -c '
		set -e
		root=$1 scratch=$2 nbinds=$3
		shift 3
		m=$scratch/root
		mount -t overlay -o "lowerdir=$root,upperdir=$scratch/upper,workdir=$scratch/work" \
			overlay "$m"
		mount -t proc proc "$m/proc"
		mount --rbind /dev "$m/dev"
		mount -t tmpfs tmpfs "$m/tmp"
		for ((i = 0; i < nbinds; i++)); do
			mkdir -p "$m$1"
			mount --bind "$1" "$m$1"
			shift
		done
		exec chroot "$m" /usr/bin/env -C "$PWD" \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
	' vm-kbuild "$root" "$scratch" "${#binds[@]}" "${binds[@]}" "$@"
	rc=$?
	rm -rf "$scratch"
	return "$rc"
}

# Fails when a header tree was configured for another release than the
# image's (both given), saying so.
vm_check_headers() {
	local image=$1 release=$2 hdr=$3
	if [ -r "$hdr/include/generated/utsrelease.h" ] &&
		[ "$(vm_headers_release "$hdr")" != "$release" ]; then
		echo "run-vm: error: $hdr holds headers of" \
			"$(vm_headers_release "$hdr"), but $image is $release:" \
			"pass matching --headers" >&2
		return 1
	fi
}

# vm_run_qemu DIR LIMIT QEMU-ARGUMENT...
# QEMU 7.2's TCG can run a stale translation of kernel text that another
# vCPU is patching through text_poke_bp(): the guest then dies of an int3
# oops, at boot, in a function that holds no breakpoint (a known TCG
# cross-modifying-code bug, fixed in QEMU 8.1). True when DIR's boot died
# that way before the kernel started init, i.e. before anything of ours
# ran: such a boot is taken again, at most twice.
vm_tcg_text_poke_race() {
	local log=$1/serial.log
	grep -Eaq "(Oops: )?int3: 0000 \[#1\]" "$log" &&
		! grep -aq "as init process" "$log"
}

# One boot under timeout (again after the race above), with what every
# boot has: no display, no reboot, the serial console in DIR/serial.log,
# pvpanic (a panic exits with 1) and the debug-exit port. Leaves
# DIR/qemu.out, DIR/qemu.rc (124: timed out), DIR/seconds and DIR/accel
# (the accelerator the boot ended on); DIR/timeout.pid exists while QEMU
# runs, so that an interrupted caller can stop it (timeout passes SIGTERM
# on to QEMU).
#
# A boot under KVM that prints no kernel line in VM_KVM_FIRST_LINE_SECONDS
# is stopped and taken again under TCG, once: its -append gets
# SMAPBENCH_VIRT=tcg SMAPBENCH_ACCEL_WHY=kvm-silent, so that the guest's
# run says so, DIR/accel-why holds the reason and DIR/serial.log.kvm-silent
# what the silent boot printed.
vm_run_qemu() {
	local dir=$1 limit=$2 attempt=1 args=() i
	shift 2
	args=("$@")
	rm -f "$dir/accel-why" "$dir/kvm-silent"
	vm_qemu_accel "${args[@]}" >"$dir/accel"
	while :; do
		vm_run_qemu_once "$dir" "$limit" "${args[@]}"
		if [ -e "$dir/kvm-silent" ]; then
			rm -f "$dir/kvm-silent"
			mv "$dir/serial.log" "$dir/serial.log.kvm-silent" 2>/dev/null
			for ((i = 1; i < ${#args[@]}; i++)); do
				case ${args[i - 1]} in
				-accel) [ "${args[i]}" = kvm ] && args[i]=tcg ;;
				-append) args[i]=$(vm_cmdline_to_tcg "${args[i]}") ;;
				esac
			done
			[ -r "$dir/cmdline" ] &&
				vm_cmdline_to_tcg "$(cat "$dir/cmdline")" >"$dir/cmdline"
			echo tcg >"$dir/accel"
			echo kvm-silent >"$dir/accel-why"
			vm_note "$(basename "$dir"): $(vm_accel_text tcg kvm-silent)"
			continue
		fi
		[ "$attempt" -lt 3 ] && vm_tcg_text_poke_race "$dir" || return 0
		mv "$dir/serial.log" "$dir/serial.log.tcg-race-$attempt"
		vm_note "$(basename "$dir"): the guest died of QEMU TCG's text-patching race before init (serial.log.tcg-race-$attempt); booting again"
		attempt=$((attempt + 1))
	done
}

# The value of -accel in a QEMU argument list (tcg when none).
vm_qemu_accel() {
	local accel=tcg
	while [ $# -gt 1 ]; do
		[ "$1" = -accel ] && accel=$2
		shift
	done
	echo "$accel"
}

# A kernel command line of a KVM boot, for the same boot under TCG.
vm_cmdline_to_tcg() {
	local word out=""
	for word in $1; do
		case $word in
		SMAPBENCH_VIRT=*) word=SMAPBENCH_VIRT=tcg ;;
		SMAPBENCH_ACCEL_WHY=*) continue ;;
		esac
		out="$out${out:+ }$word"
	done
	echo "$out SMAPBENCH_ACCEL_WHY=kvm-silent"
}

vm_run_qemu_once() {
	local dir=$1 limit=$2 start end rc pid watch=0 deadline
	shift 2
	[ "$(vm_qemu_accel "$@")" = kvm ] && watch=1
	start=$(date +%s.%N)
	# timeout -k: a QEMU that ignores SIGTERM is killed 5 s later.
	timeout -k 5 "$limit" qemu-system-x86_64 -M pc -nodefaults \
		-display none -no-reboot -serial "file:$dir/serial.log" \
		-device pvpanic -action panic=exit-failure \
		-device "isa-debug-exit,iobase=$VM_DEBUG_EXIT_PORT,iosize=0x04" \
		"$@" >"$dir/qemu.out" 2>&1 </dev/null &
	pid=$!
	echo "$pid" >"$dir/timeout.pid"
	# Under KVM, the first kernel line must come soon: a host whose KVM
	# hangs Linux before long mode prints nothing, ever. Wall time, as in
	# vm_kvm_probe.
	deadline=$((SECONDS + VM_KVM_FIRST_LINE_SECONDS))
	while [ "$watch" -eq 1 ] && kill -0 "$pid" 2>/dev/null; do
		grep -aqm1 'Linux version' "$dir/serial.log" 2>/dev/null && break
		if [ "$SECONDS" -ge "$deadline" ]; then
			: >"$dir/kvm-silent"
			kill -TERM "$pid" 2>/dev/null
			break
		fi
		sleep 0.5
	done
	wait "$pid"
	rc=$?
	rm -f "$dir/timeout.pid"
	end=$(date +%s.%N)
	echo "$rc" >"$dir/qemu.rc"
	awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f\n", e - s }' \
		>"$dir/seconds"
}

# Stops the boot running in DIR, if any (see vm_run_qemu).
vm_stop_qemu() {
	[ -r "$1/timeout.pid" ] && kill -TERM "$(cat "$1/timeout.pid")" 2>/dev/null
}
