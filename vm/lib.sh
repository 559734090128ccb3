# Shell functions shared by vm/run-vm.sh and vm/mkinitramfs.sh (sourced).
# shellcheck shell=bash disable=SC2034
#
# Nothing here runs on its own. Every function reports errors on stderr
# with what to do about them and returns non-zero; callers decide.

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

vm_die() {
	echo "run-vm: error: $*" >&2
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

# Resolve module names (as in modules.dep, e.g. 9pnet_virtio) to the
# files to load, dependencies first, each once; modules built into the
# kernel are left out. Prints paths relative to the modules directory.
vm_module_closure() {
	local moddir=$1 name line path dep deps seen=" "
	shift
	for name in "$@"; do
		line=$(grep -E "(^|/)${name}\.ko(\.xz|\.zst|\.gz)?:" \
			"$moddir/modules.dep" | head -n 1)
		if [ -z "$line" ]; then
			if grep -qE "(^|/)${name}\.ko$" \
				"$moddir/modules.builtin" 2>/dev/null; then
				continue
			fi
			echo "run-vm: error: module $name is neither in" \
				"$moddir/modules.dep nor built in" >&2
			return 1
		fi
		path=${line%%:*}
		# modules.dep lists the whole closure, the module loaded
		# last first: walk it backwards.
		read -r -a deps <<<"${line#*:}"
		for ((dep = ${#deps[@]} - 1; dep >= 0; dep--)); do
			case $seen in *" ${deps[dep]} "*) continue ;; esac
			seen="$seen${deps[dep]} "
			echo "${deps[dep]}"
		done
		case $seen in *" $path "*) continue ;; esac
		seen="$seen$path "
		echo "$path"
	done
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

# A 512-byte boot sector that writes 1 to the debug-exit port: QEMU
# exits with status 3 as soon as the guest has run one instruction.
vm_write_probe_image() {
	local image=$1
	{
		# mov al, 1; out 0xf4, al; hlt; jmp $-1
		printf '\260\001\346\364\364\353\375'
		head -c 503 /dev/zero
		printf '\125\252'
	} >"$image"
}

# Prints "kvm" when /dev/kvm runs a guest with the CPU model we boot,
# else "tcg". Some hosts expose a /dev/kvm that cannot (nested setups
# without VMX/SVM): QEMU then aborts or hangs, hence the timeout.
vm_detect_accel() {
	local probe_dir=$1 rc
	if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
		echo tcg
		return
	fi
	vm_write_probe_image "$probe_dir/kvm-probe.img"
	# The subshell keeps the shell's "Aborted" notice off stderr.
	rc=$( (timeout -k 2 10 qemu-system-x86_64 -accel kvm -cpu max -M pc \
		-nodefaults -display none -m 64 -no-reboot \
		-device "isa-debug-exit,iobase=$VM_DEBUG_EXIT_PORT,iosize=0x04" \
		-drive "file=$probe_dir/kvm-probe.img,format=raw,if=ide" \
		-boot c >"$probe_dir/kvm-probe.log" 2>&1
		echo $?) 2>/dev/null)
	if [ "$rc" -eq 3 ]; then
		echo kvm
	else
		echo tcg
	fi
}

# The release of a Debian kernel package's image, e.g. linux-image-amd64
# -> 6.1.0-57-amd64; empty when the package is not installed.
vm_debian_release() {
	dpkg-query -W -f='${Status} ${Depends}\n' "$1" 2>/dev/null |
		sed -n 's/^install ok installed linux-image-\([^ ,]*\).*/\1/p'
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
# DIR/qemu.out, DIR/qemu.rc (124: timed out) and DIR/seconds;
# DIR/timeout.pid exists while QEMU runs, so that an interrupted caller
# can stop it (timeout passes SIGTERM on to QEMU).
vm_run_qemu() {
	local dir=$1 limit=$2 attempt
	shift 2
	for attempt in 1 2 3; do
		vm_run_qemu_once "$dir" "$limit" "$@"
		[ "$attempt" -lt 3 ] && vm_tcg_text_poke_race "$dir" || return 0
		mv "$dir/serial.log" "$dir/serial.log.tcg-race-$attempt"
		vm_note "$(basename "$dir"): the guest died of QEMU TCG's text-patching race before init (serial.log.tcg-race-$attempt); booting again"
	done
}

vm_run_qemu_once() {
	local dir=$1 limit=$2 start end rc
	shift 2
	start=$(date +%s.%N)
	# timeout -k: a QEMU that ignores SIGTERM is killed 5 s later.
	timeout -k 5 "$limit" qemu-system-x86_64 -M pc -nodefaults \
		-display none -no-reboot -serial "file:$dir/serial.log" \
		-device pvpanic -action panic=exit-failure \
		-device "isa-debug-exit,iobase=$VM_DEBUG_EXIT_PORT,iosize=0x04" \
		"$@" >"$dir/qemu.out" 2>&1 </dev/null &
	echo $! >"$dir/timeout.pid"
	wait $!
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
