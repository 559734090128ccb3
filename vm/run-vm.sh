#!/bin/bash
# Boots kernels in QEMU with SMAP on and off, with a busybox initramfs
# holding the module, its selftest, the ioctl fuzzer, the canary and a
# static smapbench, and judges what comes back.
#
#   vm/run-vm.sh check [options]     end-to-end tests: every boot of
#                                    vm/matrix on each kernel; TAP lines
#   vm/run-vm.sh initramfs [options] only build the initramfs
#
# Benchmark runs in QEMU (run-bench.sh --vm) boot this machine's own
# userland instead: vm/hostroot.sh.
#
# Options:
#   --kernel KERNEL   the kernel to boot: an image, a Debian kernel .deb, a
#                     release or a Debian suite such as sid (vm/kernel.sh
#                     fetches and unpacks packages); default: Debian's
#                     linux-image-amd64, and check also boots
#                     linux-image-6.12-amd64 and linux-image-6.12-rt-amd64
#   --headers H       headers matching --kernel, to build the modules: a
#                     directory or a linux-headers .deb (default: those of
#                     a package, or /lib/modules/<release>/build)
#   --build-root B    where modules for --kernel are built when this
#                     machine cannot (vm/kernel.sh): a root directory or a
#                     Debian suite (default: the suite it came from)
#   --modules-dir DIR the kernel's modules, for 9p and pvpanic
#                     (default: those of a package, or /lib/modules/<release>)
#   --accel A         auto (default, or SMAPBENCH_ACCEL), kvm or tcg: auto
#                     boots each kernel under KVM to user space first
#                     (cached in build/vm/accel/), else takes TCG
#   --jobs N          boots run at once (default 2)
#   --boots LIST      only these boots of vm/matrix (comma separated)
#   --timeout S       seconds one boot may take (default 300)
#
# Exit status: 0 everything passed, 1 a test or boot failed, 2 a missing
# prerequisite or bad usage. docs/vm.md explains the boots and verdicts.
set -uo pipefail
# shellcheck source=vm/lib.sh
. "$(dirname "$0")/lib.sh"
# Set by vm_script_init; declared for shellcheck, which may not follow lib.sh.
declare here top build
vm_script_init run-vm prerequisite

# ------------------------------------------------------------ arguments
mode=${1:-}
[ $# -gt 0 ] && shift
case $mode in
check | initramfs) ;;
-h | --help) vm_help; exit 0 ;;
*) vm_usage ;;
esac
kernel="" headers="" build_root="" moddir="" accel=auto jobs=2 boot_timeout=300 only=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?--kernel needs an image, a .deb, a release or a suite}; shift ;;
	--headers) headers=${2:?--headers needs a directory or a .deb}; shift ;;
	--build-root) build_root=${2:?--build-root needs a directory or a suite}; shift ;;
	--modules-dir) moddir=${2:?--modules-dir needs a directory}; shift ;;
	--accel) accel=${2:?--accel needs auto, kvm or tcg}; shift ;;
	--jobs) jobs=${2:?--jobs needs a number}; shift ;;
	--boots) only=${2:?--boots needs a list of boot names}; shift ;;
	--timeout) boot_timeout=${2:?--timeout needs seconds}; shift ;;
	-h | --help) vm_help; exit 0 ;;
	*) vm_die "unknown argument '$1' (see $0 --help)" ;;
	esac
	shift
done
accel=$(vm_accel_request "$accel") || exit 2
[[ $jobs =~ ^[1-9][0-9]*$ ]] || vm_die "--jobs must be a positive number"
if { [ -n "$headers" ] || [ -n "$build_root" ]; } && [ -z "$kernel" ]; then
	vm_die "--headers and --build-root need --kernel: they must match the kernel booted"
fi
[[ $boot_timeout =~ ^[1-9][0-9]*$ ]] || vm_die "--timeout must be a number of seconds"
command -v qemu-system-x86_64 >/dev/null ||
	vm_die "qemu-system-x86_64 not found: apt-get install --no-install-recommends qemu-system-x86"

# ------------------------------------------------------------ kernels
# kernels[i]: "release image headers modules-dir build-root", one per
# kernel to boot ("-" for no build root).
kernels=()
add_kernel() {
	local spec=$1 hdr=$2 mods=$3 root=$4
	vm_kernel "$spec" "$hdr" "$root" || exit 2
	[ -n "$VM_KERNEL_HEADERS" ] ||
		vm_die "no headers for $VM_KERNEL_RELEASE: apt-get install" \
			"linux-headers-$VM_KERNEL_RELEASE, or pass --headers"
	[[ "$VM_KERNEL_IMAGE$VM_KERNEL_HEADERS${mods:-$VM_KERNEL_MODULES}$VM_KERNEL_BUILD_ROOT" != *" "* ]] ||
		vm_die "$VM_KERNEL_RELEASE: a path with a space (kernel, headers, modules or build root) is not supported"
	kernels+=("$VM_KERNEL_RELEASE $VM_KERNEL_IMAGE $VM_KERNEL_HEADERS ${mods:-$VM_KERNEL_MODULES} ${VM_KERNEL_BUILD_ROOT:--}")
}

skipped_kernels=()
if [ -n "$kernel" ]; then
	add_kernel "$kernel" "$headers" "$moddir" "$build_root"
else
	release=$(vm_debian_release linux-image-amd64)
	[ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ] ||
		vm_die "Debian's default kernel is not installed:" \
			"apt-get install linux-image-amd64 linux-headers-amd64"
	add_kernel "/boot/vmlinuz-$release" "" "$moddir" ""
	if [ "$mode" = check ]; then
		release=$(vm_debian_release linux-image-6.12-amd64)
		if [ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ]; then
			add_kernel "/boot/vmlinuz-$release" "" "" ""
		else
			skipped_kernels+=("6.12 (linux-image-6.12-amd64 not installed)")
		fi
		# PREEMPT_RT: the module's lower interrupts-off budget.
		release=$(vm_debian_release linux-image-6.12-rt-amd64)
		if [ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ]; then
			add_kernel "/boot/vmlinuz-$release" "" "" ""
		else
			skipped_kernels+=("6.12-rt (linux-image-6.12-rt-amd64 not installed)")
		fi
	fi
fi

# ------------------------------------------------------------ guest files
# Builds what the guest runs and prints the initramfs path of a kernel.
# The module is built per kernel by the project's own rule (mk/kmod.mk);
# SMAPBENCH_KMOD_DIR (holding <release>/smapbench.ko), KMOD_SELFTEST,
# and SMAPBENCH_STATIC name prebuilt files instead.
make_quiet() {
	make -C "$top" --no-print-directory -s BUILD="$BUILD" "$@"
}

build_guest_files() {
	local release=$1 hdr=$2 mods=$3 root=$4 dir ko canary programs=()
	[ "$root" = - ] && root=""
	dir=$build/vm/$release
	mkdir -p "$dir" || return 2
	[ -r "$hdr/Makefile" ] || {
		echo "run-vm: error: no kernel headers at $hdr: apt-get install" \
			"linux-headers-$release, or pass --headers" >&2
		return 2
	}

	ko=${SMAPBENCH_KMOD_DIR:-$build/kmod}/$release/smapbench.ko
	if [ -z "${SMAPBENCH_KMOD_DIR:-}" ]; then
		# Where the kernel's own kbuild runs: here, or in its build root.
		vm_kbuild "$root" "$hdr" -- make -C "$top" --no-print-directory -s \
			BUILD="$BUILD" module KDIR="$hdr" >"$dir/kmod-build.log" 2>&1 || {
			tail -n 30 "$dir/kmod-build.log" >&2
			echo "run-vm: error: building the module for $release failed" \
				"(make module KDIR=$hdr${root:+, in the build root $root})" >&2
			return 2
		}
	fi
	[ -r "$ko" ] || { echo "run-vm: error: $ko was not built" >&2; return 2; }

	# The canary: built out of tree from a copy, so the checkout stays clean.
	canary=$dir/canary
	mkdir -p "$canary" &&
		cp -p "$top/tests/kmod/canary/Kbuild" \
			"$top/tests/kmod/canary/smapbench_canary.c" "$canary/" ||
		return 2
	# Kbuild cannot take an M= with a space in it: build through a link.
	local canary_m=$canary alias="" canary_rc
	if [[ $canary == *" "* ]]; then
		alias=$(mktemp -d) && ln -s "$canary" "$alias/canary" || return 2
		canary_m=$alias/canary
	fi
	vm_kbuild "$root" "$hdr" ${alias:+"$alias"} -- make -C "$hdr" M="$canary_m" -s modules \
		>"$canary/build.log" 2>&1
	canary_rc=$?
	[ -z "$alias" ] || rm -rf "$alias"
	[ "$canary_rc" -eq 0 ] || {
		cat "$canary/build.log" >&2
		echo "run-vm: error: building the canary module for $release failed" >&2
		return 2
	}

	local selftest=${KMOD_SELFTEST:-$build/tests/kmod_selftest}
	local smapbench=${SMAPBENCH_STATIC:-$build/smapbench-static}
	local targets=()
	[ -n "${KMOD_SELFTEST:-}" ] || targets+=("${selftest#"$top"/}")
	[ -n "${SMAPBENCH_STATIC:-}" ] || targets+=("${smapbench#"$top"/}")
	if [ ${#targets[@]} -gt 0 ]; then
		make_quiet "${targets[@]}" >"$dir/programs-build.log" 2>&1 || {
			tail -n 30 "$dir/programs-build.log" >&2
			echo "run-vm: error: building ${targets[*]} failed" >&2
			return 2
		}
	fi
	programs=(--program "$selftest=kmod_selftest"
		--program "$smapbench=smapbench")

	"$here/mkinitramfs.sh" --release "$release" --modules-dir "$mods" \
		--out "$dir/initramfs.cpio.gz" --module "$ko" \
		--module "$canary/smapbench_canary.ko" "${programs[@]}" >&2 ||
		return 2
	echo "$dir/initramfs.cpio.gz"
}

# ------------------------------------------------------------ one boot
# boot_vm DIR IMAGE INITRAMFS CPU APPEND TIMEOUT ACCEL
# DIR/share must hold job.sh. Leaves DIR/serial.log, DIR/qemu.rc (124:
# timed out) and DIR/seconds (wall time of the boot).
boot_vm() {
	local dir=$1 image=$2 initramfs=$3 cpu=$4 append=$5 limit=$6 accel=$7
	echo "$append" >"$dir/cmdline"
	vm_run_qemu "$dir" "$limit" -accel "$accel" -cpu "$cpu" \
		-m "${VM_MEMORY:-1024}" -smp "${VM_SMP:-2}" \
		-virtfs "local,path=$dir/share,mount_tag=$VM_SHARE_TAG,security_model=none,id=share" \
		-kernel "$image" -initrd "$initramfs" -append "$append"
}

# The kernel command line of a boot. oops=panic turns any oops into a
# pvpanic exit, except in canary boots, whose oops is the expected result.
kernel_cmdline() {
	local append=$1 steps=$2 accel=$3 why=$4 cmdline=$VM_BASE_CMDLINE
	case ",$steps," in *,canary,*) ;; *) cmdline="$cmdline oops=panic" ;; esac
	[ "$append" = - ] || cmdline="$cmdline ${append//,/ }"
	# The guest's smapbench reads this to mark its results.
	echo "$cmdline SMAPBENCH_VIRT=$accel SMAPBENCH_ACCEL_WHY=$why"
}

# write_job DIR EXPECT STEPS BENCH_ARGS
write_job() {
	mkdir -p "$1/share"
	cat >"$1/share/job.sh" <<-EOF
		STEPS="${3//,/ }"
		EXPECT="$2"
		BENCH_ARGS="$4"
		FUZZ_ARGS="--calls 3000 --seconds 20 --seed $RANDOM"
	EOF
}

# What a QEMU exit status means (isa-debug-exit k -> 2k+1; see vm/init).
qemu_status_text() {
	case $1 in
	0) echo "guest powered off" ;;
	1) echo "guest kernel panicked (pvpanic)" ;;
	3) echo "a guest test step failed" ;;
	5) echo "the guest could not mount the 9p result share" ;;
	7) echo "a module did not load in the guest" ;;
	124 | 137) echo "guest hung, killed by the timeout" ;;
	*) echo "QEMU failed (status $1)" ;;
	esac
}

show_serial_tail() {
	local dir=$1
	echo "#   last lines of $dir/serial.log:"
	grep -a . "$dir/serial.log" 2>/dev/null | tr -d '\r' |
		sed 's/\x1b[[c0-9;?]*[a-zA-Z]\{0,1\}//g' | tail -n "${2:-25}" |
		sed 's/^/#     /'
	[ -s "$dir/qemu.out" ] && sed 's/^/#   qemu: /' "$dir/qemu.out"
}

# ------------------------------------------------------------ verdicts
failures=0
# result STATUS TEXT: one TAP line for the boot being judged ($prefix).
result() {
	if [ "$1" -eq 0 ]; then
		echo "ok - $prefix $2"
	else
		echo "not ok - $prefix $2"
		failures=$((failures + 1))
	fi
}

# Relays a guest program's TAP lines with the kernel and boot in front.
# Its other lines are shown as comments when the program failed.
relay_tap() {
	local file=$1 what=$2 rc=$3 lines
	lines=$(sed -nE "s/^(not ok|ok)( [0-9]+)?( -)? ?(.*)$/\1 - $prefix $what: \4/p" \
		"$file" 2>/dev/null)
	if [ -n "$lines" ]; then
		echo "$lines"
		failures=$((failures + $(grep -c '^not ok' <<<"$lines")))
	fi
	if [ "$rc" != 0 ] || [ "$what" = fuzz ]; then
		grep -avE '^(not ok|ok)\b' "$file" 2>/dev/null | head -n 40 |
			sed 's/^/#   /'
	fi
	[ -n "$lines" ]
}

# Lines of an oops report after its end-of-trace marker.
OOPS_DUMP_RE='(RIP|Code|RSP|RAX|RDX|RBP|R10|R13|FS|CS|CR2|PKRU):|note: .* exited with irqs disabled'

# The kernel log without the canary's oops: from its first line to the
# end-of-trace marker and the register dump the kernel repeats after it.
log_without_canary_oops() {
	awk -v dump="$OOPS_DUMP_RE" '
		/BUG: unable to handle page fault/ && !seen { skip = 1; seen = 1 }
		after && $0 !~ dump { after = 0; skip = 0 }
		!skip { print }
		skip && /---\[ end trace/ { after = 1 }' "$1"
}

# The canary's oops alone.
canary_oops() {
	sed -n '/BUG: unable to handle page fault/,/---\[ end trace/p' "$1"
}

# hex_bit_set HEX BIT
hex_bit_set() {
	[ -n "$1" ] && (((16#$1 >> $2) & 1))
}

judge_canary() {
	local share=$1 smap=$2 log=$1/dmesg.txt value wrc cr4 eflags
	value=$(cat "$share/canary.value" 2>/dev/null)
	wrc=$(cat "$share/canary.write.rc" 2>/dev/null)
	if [ "$smap" = on ]; then
		local oops
		oops=$(canary_oops "$log")
		grep -q '#PF: supervisor read access in kernel mode' <<<"$oops"
		result $? "canary: unprotected user read faults (#PF: supervisor read access in kernel mode)"
		grep -q '#PF: error_code(0x0001) - permissions violation' <<<"$oops"
		result $? "canary: the fault is a permissions violation on a present page"
		grep -qE 'RIP: 0010:canary_[a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+ \[smapbench_canary\]' <<<"$oops"
		result $? "canary: the faulting instruction is in smapbench_canary"
		cr4=$(sed -n 's/.*CR4: \([0-9a-f]*\).*/\1/p' <<<"$oops" | head -n 1)
		eflags=$(sed -n 's/.*EFLAGS: \([0-9a-f]*\).*/\1/p' <<<"$oops" | head -n 1)
		hex_bit_set "$cr4" 21
		result $? "canary: CR4.SMAP (bit 21) set at the fault (CR4 ${cr4:-missing})"
		[ -n "$eflags" ] && ! hex_bit_set "$eflags" 18
		result $? "canary: EFLAGS.AC clear at the fault (EFLAGS ${eflags:-missing})"
		[ -n "$wrc" ] && [ "$wrc" != 0 ] && [ -z "$value" ]
		result $? "canary: the writer was killed and nothing was read (status ${wrc:-none})"
	else
		[ "$wrc" = 0 ] && [ "$value" = SMAPBENCH-CANARY ]
		result $? "canary: unprotected user read succeeds without SMAP (read '$value', status ${wrc:-none})"
		grep -q 'smapbench_canary: read 16 bytes without STAC' "$log"
		result $? "canary: the module logged the read"
	fi
}

judge_bench() {
	local share=$1 state=$2 method=$3 got key want
	local reader=${SMAPBENCH_STATIC:-$build/smapbench-static}
	if [ "$(cat "$share/bench.rc" 2>/dev/null)" != 0 ] ||
		! "$reader" info --format=kv "$share/run" >"$share/run.kv" 2>&1; then
		result 1 "smapbench run: run directory produced (status $(cat "$share/bench.rc" 2>/dev/null))"
		tail -n 20 "$share/bench.out" "$share/run.kv" 2>/dev/null | sed 's/^/#   /'
		return
	fi
	result 0 "smapbench run: run directory $(cat "$share/run.name") produced"
	for key in smap_state smap_off_method virt; do
		case $key in
		smap_state) want=$state ;;
		smap_off_method) want=$method ;;
		virt) want=$(cat "$share/../accel" 2>/dev/null) ;;
		esac
		got=$(sed -n "s/^$key=//p" "$share/run.kv" | head -n 1)
		[ "$got" = "$want" ]
		result $? "smapbench run: context $key=${got:-missing} (want $want)"
	done
	[ "$(grep -c . "$share/run/results.csv" 2>/dev/null)" -ge 2 ]
	result $? "smapbench run: results.csv has results"
}

# judge_boot DIR RELEASE BOOT SMAP CPU APPEND EXPECT STEPS
judge_boot() {
	local dir=$1 release=$2 boot=$3 smap=$4 cpu=$5 append=$6 steps=$8
	local share=$1/share rc seconds step allowed tainted log method
	prefix="$release $boot"
	rc=$(cat "$dir/qemu.rc" 2>/dev/null || echo 255)
	seconds=$(cat "$dir/seconds" 2>/dev/null)
	echo "# $prefix: $(cat "$dir/accel" 2>/dev/null) boot ${seconds}s$([ -s "$dir/accel-why" ] && echo " (after a silent KVM boot)"), -cpu $cpu, $(cat "$dir/cmdline" 2>/dev/null)"
	# A run that failed a step still reports; any other exit loses data.
	if { [ "$rc" != 0 ] && [ "$rc" != 3 ]; } || ! [ -e "$share/done" ]; then
		result 1 "boot: $(qemu_status_text "$rc") after ${seconds}s, results incomplete"
		show_serial_tail "$dir"
		return
	fi
	result 0 "boot: results came back over 9p ($(qemu_status_text "$rc"))"

	if [ "$smap" = on ]; then
		grep -qw smap "$share/cpuflags"
		result $? "SMAP enforced: smap in /proc/cpuinfo"
	else
		! grep -qw smap "$share/cpuflags"
		result $? "SMAP off: no smap in /proc/cpuinfo"
	fi

	if [[ ,$append, == *,nosmap,* ]]; then
		grep -qE 'Unknown kernel command line parameters ".*\<nosmap\>' "$share/dmesg.txt"
		result $? "nosmap: the kernel does not know the parameter (Unknown kernel command line parameters)"
	fi

	for step in ${steps//,/ }; do
		case $step in
		selftest | fuzz)
			local src=kmod_selftest
			[ "$step" = fuzz ] && src=fuzz
			relay_tap "$share/$step.out" "$src" \
				"$(cat "$share/$step.rc" 2>/dev/null)"
			result $? "$src: printed test results"
			[ "$(cat "$share/$step.rc" 2>/dev/null)" = 0 ]
			result $? "$src: exit status $(cat "$share/$step.rc" 2>/dev/null)"
			;;
		bench)
			method=none
			[[ $append == *clearcpuid=smap* ]] && method=clearcpuid
			[[ $cpu == *-smap* ]] && method="cpu-model"
			if [ "$smap" = on ]; then
				judge_bench "$share" smap "$method"
			else
				judge_bench "$share" nosmap "$method"
			fi
			;;
		canary)
			judge_canary "$share" "$smap"
			;;
		esac
	done

	# Kernel log: nothing bad, apart from the canary's own oops.
	log=$share/dmesg.txt
	if [ "$smap" = on ] && [[ ,$steps, == *,canary,* ]]; then
		[ "$(grep -c 'BUG: unable to handle page fault' "$log")" = 1 ]
		result $? "guest kernel log: exactly one oops, the canary's"
		log=$dir/dmesg-without-canary.txt
		log_without_canary_oops "$share/dmesg.txt" >"$log"
	fi
	if grep -qE "$VM_BAD_LOG_RE" "$log"; then
		result 1 "guest kernel log clean (no BUG, WARNING, oops, lockup)"
		grep -E -m 20 "$VM_BAD_LOG_RE" "$log" | sed 's/^/#   /'
	else
		result 0 "guest kernel log clean (no BUG, WARNING, oops, lockup)"
	fi

	# Taint: O and E (out-of-tree, unsigned) always; S from clearcpuid;
	# D (died) only from the canary's expected oops.
	allowed=$((4096 | 8192))
	[[ $append == *clearcpuid* ]] && allowed=$((allowed | 4))
	[ "$smap" = on ] && [[ ,$steps, == *,canary,* ]] && allowed=$((allowed | 128))
	tainted=$(cat "$share/tainted" 2>/dev/null)
	[ -n "$tainted" ] && (((tainted & ~allowed) == 0))
	result $? "guest kernel taint ${tainted:-unknown} within the expected mask $allowed"
}

# ------------------------------------------------------------ main
# Interrupted: stop the guests still running (timeout passes the signal
# on to QEMU), then leave.
# This run's boots live under work_root.
work_root=$build/vm/$mode
stop_guests() {
	local dir
	for dir in "$work_root"/*/ "$work_root"/*/*/; do
		vm_stop_qemu "$dir"
	done
	exit 130
}
trap stop_guests INT TERM

mkdir -p "$build/vm" || vm_die "cannot create $build/vm"
# The accelerator of each kernel: "ACCEL REASON", by release.
declare -A kernel_accel=()
for entry in "${kernels[@]}"; do
	read -r release image _ <<<"$entry"
	vm_accel_choose "$accel" "$image" "$build/vm" || exit 2
	kernel_accel[$release]="$VM_ACCEL $VM_ACCEL_WHY"
	vm_note "$release: $VM_ACCEL_LINE"
done

# Boots described by vm/matrix lines: "boot smap cpu append expect steps".
matrix_lines() {
	local release=$1
	grep -vE '^[[:space:]]*(#|$)' "${VM_MATRIX:-$here/matrix}" |
		while read -r boot smap cpu append expect steps pattern; do
			[ -z "$only" ] || [[ ,$only, == *,$boot,* ]] || continue
			# shellcheck disable=SC2053
			[[ $release == $pattern ]] &&
				echo "$boot $smap $cpu $append $expect $steps"
		done
}

run_check() {
	local entry release image hdr mods initramfs work line pids=()
	local boots=() start total
	start=$(date +%s)
	work=$work_root
	rm -rf "$work"
	for label in "${skipped_kernels[@]}"; do
		echo "ok - vm boots of kernel $label # SKIP not installed"
	done
	for entry in "${kernels[@]}"; do
		read -r release image hdr mods root <<<"$entry"
		prefix=$release
		if ! initramfs=$(build_guest_files "$release" "$hdr" "$mods" "$root"); then
			result 1 "guest files (module, canary, programs, initramfs) built"
			continue
		fi
		while read -r line; do
			boots+=("$release $image $initramfs $line")
		done < <(matrix_lines "$release")
	done

	# Up to --jobs boots at once; verdicts afterwards, in matrix order.
	local b boot smap cpu append expect steps dir running=0 boot_accel boot_why
	for b in "${boots[@]}"; do
		read -r release image initramfs boot smap cpu append expect steps <<<"$b"
		dir=$work/$release/$boot
		mkdir -p "$dir"
		write_job "$dir" "$expect" "$steps" "--suite kmod --quick"
		vm_note "booting $release $boot"
		read -r boot_accel boot_why <<<"${kernel_accel[$release]}"
		boot_vm "$dir" "$image" "$initramfs" "$cpu" \
			"$(kernel_cmdline "$append" "$steps" "$boot_accel" "$boot_why")" \
			"$boot_timeout" "$boot_accel" &
		pids+=($!)
		running=$((running + 1))
		if [ "$running" -ge "$jobs" ]; then
			wait -n
			running=$((running - 1))
		fi
	done
	wait
	for b in "${boots[@]}"; do
		read -r release image initramfs boot smap cpu append expect steps <<<"$b"
		judge_boot "$work/$release/$boot" "$release" "$boot" "$smap" \
			"$cpu" "$append" "$expect" "$steps"
	done
	total=$(($(date +%s) - start))
	vm_note "vm check: ${#boots[@]} boots in ${total}s ($jobs at once)"
	vm_note "vm check: accelerators: $(for r in "${!kernel_accel[@]}"; do printf "%s %s; " "$r" "${kernel_accel[$r]}"; done)files in $work"
	[ "$failures" -eq 0 ]
}

case $mode in
check) run_check ;;
initramfs)
	for entry in "${kernels[@]}"; do
		read -r release image hdr mods root <<<"$entry"
		build_guest_files "$release" "$hdr" "$mods" "$root" || exit 2
	done
	;;
esac
