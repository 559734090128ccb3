#!/bin/bash
# run-bench.sh - the one entry point: install what is missing, build, load
# the module, run the suite pinned, unload, plot, and say where it all is.
#
# Run it once on a normal boot and once on a boot with SMAP off, then
# compare the two run directories (see README.md).
set -u

here=$(cd "$(dirname "$0")" && pwd)
prog=$(basename "$0")

usage() {
	cat <<EOF
usage: sudo ./$prog [options]

Builds smapbench, loads smapbench.ko, runs the benchmark suites pinned to
one core, unloads the module and writes a run directory with results and
plots under data/ (or --out).

options:
  --suite NAME     syscall, kmod, bpf or all (default: all that can run here)
  --quick          short run (fewer sizes, short samples): minutes, not tens
  --out DIR        parent directory of the run directory (default: data)
  --cpu N          pin to CPU N (default: chosen by smapbench)
  --vm             boot this project's kernels in QEMU with SMAP on and off
                   and run the suites there (no host reboot needed)
  --kernel PATH    with --vm: kernel image to boot (default: Debian's)
  --headers DIR    with --vm: headers matching --kernel, to build the module
  --no-install     do not apt-get install missing packages
  -h, --help       this text

SMAP off: on Linux >= 5.19 add 'clearcpuid=smap' to the kernel command line
(older kernels: 'nosmap'), reboot, and run this script again.
EOF
}

say() { printf '%s: %s\n' "$prog" "$*"; }
warn() { printf '%s: warning: %s\n' "$prog" "$*" >&2; }
die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}
bad_usage() {
	printf '%s: %s (see --help)\n' "$prog" "$*" >&2
	exit 2
}
banner() {
	# Loud, boxed: for states that make results mean something else.
	local line
	printf '\n' >&2
	printf '%s\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
	for line in "$@"; do printf '!! %s\n' "$line" >&2; done
	printf '%s\n\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
}

suite="" quick=0 out="$here/data" cpu="" vm=0 kernel="" headers="" install=1
while [ $# -gt 0 ]; do
	case "$1" in
	--suite)
		[ $# -ge 2 ] || bad_usage "--suite needs a value"
		case "$2" in syscall | kmod | bpf | all) suite=$2 ;;
		*) bad_usage "unknown suite '$2': use syscall, kmod, bpf or all" ;;
		esac
		shift 2 ;;
	--quick) quick=1; shift ;;
	--out)
		[ $# -ge 2 ] || bad_usage "--out needs a directory"
		out=$2; shift 2 ;;
	--cpu)
		[ $# -ge 2 ] || bad_usage "--cpu needs a CPU number"
		[[ "$2" =~ ^[0-9]+$ ]] || bad_usage "--cpu '$2' is not a CPU number"
		cpu=$2; shift 2 ;;
	--vm) vm=1; shift ;;
	--kernel)
		[ $# -ge 2 ] || bad_usage "--kernel needs a path"
		kernel=$2; shift 2 ;;
	--headers)
		[ $# -ge 2 ] || bad_usage "--headers needs a directory"
		headers=$2; shift 2 ;;
	--no-install) install=0; shift ;;
	-h | --help) usage; exit 0 ;;
	*) bad_usage "unknown option '$1'" ;;
	esac
done
if [ "$vm" -eq 0 ] && { [ -n "$kernel" ] || [ -n "$headers" ]; }; then
	bad_usage "--kernel and --headers only make sense with --vm"
fi
if [ -n "$kernel" ] && [ ! -f "$kernel" ]; then
	bad_usage "--kernel '$kernel' does not exist"
fi
if [ -n "$headers" ] && [ ! -d "$headers" ]; then
	bad_usage "--headers '$headers' is not a directory"
fi

[ "$(id -u)" -eq 0 ] || die "run me as root (sudo ./$prog): loading the module, pinning and installing packages need it"

cd "$here" || die "cannot enter $here"
made=()
[ -d "$out" ] || made+=("$out")
mkdir -p "$out" 2>/dev/null || die "cannot create output directory '$out'"
[ -w "$out" ] || die "output directory '$out' is not writable"
out=$(cd "$out" && pwd)
[ ${#made[@]} -eq 0 ] || made=("$out")

module_loaded=0
unload_module() {
	if [ "$module_loaded" -eq 1 ]; then
		rmmod smapbench 2>/dev/null || warn "could not unload smapbench.ko (rmmod smapbench)"
		module_loaded=0
	fi
}
# Under sudo, hand what this run created back to the caller, so that a
# later `make` or `rm` in their checkout works without root.
give_back() {
	if [ -n "${SUDO_UID:-}" ] && [ "$SUDO_UID" != 0 ]; then
		chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$here/build" "${made[@]}" 2>/dev/null
	fi
}
trap 'unload_module; give_back' EXIT
trap 'unload_module; give_back; exit 130' INT
trap 'unload_module; give_back; exit 143' TERM

# ---------------------------------------------------------------- set-up
if [ "$install" -eq 1 ]; then
	if [ "$vm" -eq 1 ]; then
		./scripts/deps.sh install test || die "package installation failed (see above); rerun with --no-install to skip it"
	else
		./scripts/deps.sh install run || die "package installation failed (see above); rerun with --no-install to skip it"
	fi
fi

say "building"
make -s -j"$(nproc)" all >"$out/.build.log" 2>&1 || {
	tail -n 30 "$out/.build.log" >&2
	die "build failed; full log: $out/.build.log"
}
rm -f "$out/.build.log"
smapbench="$here/build/smapbench"
[ -x "$smapbench" ] || die "build produced no $smapbench"

# ---------------------------------------------------------------- VM mode
if [ "$vm" -eq 1 ]; then
	args=(bench --out "$out")
	[ "$quick" -eq 1 ] && args+=(--quick)
	[ -n "$kernel" ] && args+=(--kernel "$kernel")
	[ -n "$headers" ] && args+=(--headers "$headers")
	[ -n "$suite" ] && args+=(--suite "$suite")
	say "VM mode: booting QEMU with SMAP on, clearcpuid=smap and a CPU without SMAP"
	runs=$("$here/vm/run-vm.sh" "${args[@]}" | tee /dev/stderr | sed -n 's/^run directory: //p')
	[ -n "$runs" ] || die "VM mode produced no run directory (see the messages above)"
	# shellcheck disable=SC2206
	made+=($runs)
	smap_run=$(grep -- '-smap$' <<<"$runs" | head -n 1)
	# clearcpuid=smap is the boot comparable to a host's SMAP-off boot.
	nosmap_run=$(grep -- '-clearcpuid-nosmap$' <<<"$runs" | head -n 1)
	for r in $runs; do
		"$smapbench" plot "$r" >/dev/null 2>&1 || warn "plotting $r failed"
		"$smapbench" report "$r" >/dev/null 2>&1 || warn "report.md for $r failed"
	done
	say "run directories:"
	printf '  %s\n' $runs
	if [ -n "$smap_run" ] && [ -n "$nosmap_run" ]; then
		# report A B = compare A B (compare.csv, plots) + report.md
		if cmp_out=$("$smapbench" report "$nosmap_run" "$smap_run" 2>&1); then
			cmp_dir=$(sed -n 's/^written: \(.*\)\/compare.csv, .*/\1/p' <<<"$cmp_out" | tail -n 1)
			[ -n "$cmp_dir" ] && made+=("$cmp_dir")
			say "SMAP on versus clearcpuid=smap: ${cmp_dir:-see above}"
			[ -f "$cmp_dir/report.md" ] &&
				sed -n '/^## Headline/,/^## [^H]/p' "$cmp_dir/report.md" | sed '$d'
		else
			printf '%s\n' "$cmp_out" >&2
			warn "the comparison failed"
		fi
	fi
	exit 0
fi

# ------------------------------------------------- what this boot really is
cmdline=$(cat /proc/cmdline 2>/dev/null)
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
has_flag() { [[ " ${flags#*:} " == *" $1 "* ]]; }
kver=$(uname -r)
kmajor=${kver%%.*} kminor=${kver#*.}
kminor=${kminor%%[!0-9]*}
# nosmap was removed in Linux 5.19; clearcpuid took names from 5.19 on.
if [ "$kmajor" -gt 5 ] || { [ "$kmajor" -eq 5 ] && [ "$kminor" -ge 19 ]; }; then
	off_param="clearcpuid=smap"
else
	off_param="nosmap (or clearcpuid=308)"
fi
requested_off=0
for word in $cmdline; do
	case "$word" in
	nosmap) requested_off=1 ;;
	clearcpuid=*)
		IFS=, read -r -a ids <<<"${word#clearcpuid=}"
		for id in "${ids[@]}"; do
			case "$id" in smap | 308) requested_off=1 ;; esac
		done ;;
	esac
done
if has_flag smap; then
	state=smap
else
	state=nosmap
fi
if [ "$requested_off" -eq 1 ] && [ "$state" = smap ]; then
	banner "The kernel command line asks for SMAP off, but SMAP is still ON." \
		"This kernel ($kver) ignores the parameter you used." \
		"Use '$off_param' instead, reboot, and run again." \
		"These results are recorded as a SMAP-on run."
elif [ "$state" = nosmap ] && [ "$requested_off" -eq 0 ]; then
	warn "this CPU (or VM CPU model) has no SMAP: the kmod suite's raw STAC/CLAC variants cannot run; the syscall suite still shows the cost of a kernel without SMAP"
fi
if [ "$state" = smap ]; then
	say "kernel $kver: SMAP is ON; for the SMAP-off run add '$off_param' to the kernel command line (README.md, 'Turning SMAP off'), reboot and run again"
else
	say "kernel $kver: SMAP is OFF"
fi
if has_flag hypervisor; then
	warn "running under a hypervisor: timings include virtualisation effects; SMAP itself runs natively under KVM, but TCG (software emulation) timings are not timings"
fi

# ---------------------------------------------------------------- module

want_kmod=1
case "$suite" in syscall | bpf) want_kmod=0 ;; esac
if [ "$want_kmod" -eq 1 ]; then
	ko="$here/build/kmod/$kver/smapbench.ko"
	if [ ! -e /proc/modules ]; then
		module_reason="this kernel was built without module support (CONFIG_MODULES is off)"
	elif [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 1 ]; then
		module_reason="module loading is disabled (kernel.modules_disabled=1, until reboot)"
	elif [ ! -d "/lib/modules/$kver/build" ]; then
		module_reason="no kernel headers for $kver: apt-get install linux-headers-$kver"
	elif ! make -s kmod-for KVER="$kver" >"$out/.kmod-build.log" 2>&1 || [ ! -f "$ko" ]; then
		module_reason="building the module for $kver failed (log: $out/.kmod-build.log)"
	else
		rm -f "$out/.kmod-build.log"
		# A module left loaded by an earlier, killed run is replaced.
		lsmod | grep -q '^smapbench ' && rmmod smapbench 2>/dev/null
		if insmod_err=$(insmod "$ko" 2>&1); then
			module_loaded=1
		elif grep -qs '\[integrity\]\|\[confidentiality\]' /sys/kernel/security/lockdown; then
			module_reason="the kernel is locked down (Secure Boot) and refuses an unsigned module ($insmod_err). Sign build/kmod/$kver/smapbench.ko with a key enrolled through mokutil (docs/methodology.md), or use --vm"
		else
			module_reason="insmod failed: $insmod_err"
		fi
	fi
	if [ -n "$module_reason" ]; then
		banner "The kernel module cannot be used here: $module_reason." \
			"The syscall suite still runs; the kmod suite (the direct STAC/CLAC" \
			"cost) needs a loadable module. Without rebooting: sudo ./$prog --vm"
		[ "$suite" = kmod ] && die "--suite kmod asked for, but the module cannot be loaded"
	fi
fi

# ---------------------------------------------------------------- run
args=(run --out "$out")
# Without the module, "all" still runs syscall and bpf, and the run
# records why kmod was skipped (skipped.csv).
args+=(--suite "${suite:-all}")
[ -n "$cpu" ] && args+=(--cpu "$cpu")
[ "$quick" -eq 1 ] && args+=(--min-time 0.01 --repetitions 3)
say "running: $smapbench ${args[*]}"
run_log=$(mktemp)
"$smapbench" "${args[@]}" | tee "$run_log"
rc=${PIPESTATUS[0]}
run_dir=$(sed -n 's/^run directory: //p' "$run_log" | tail -n 1)
rm -f "$run_log"
unload_module
[ "$rc" -eq 0 ] || die "smapbench run failed with status $rc; no run directory was kept"
[ -n "$run_dir" ] && [ -d "$run_dir" ] || die "smapbench reported no run directory"
made+=("$run_dir")

# ---------------------------------------------------------------- outputs
"$smapbench" plot "$run_dir" || warn "plotting failed; the CSV files are complete"
"$smapbench" report "$run_dir" >/dev/null || warn "report.md could not be written"

echo
say "run directory: $run_dir"
if [ -f "$run_dir/results.csv" ]; then
	say "headline (median per operation, 95% CI; every row: results.csv, report.md):"
	# Values are in the row's unit; median_ns converts the median, and
	# the same factor converts the interval.
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["name"] ~ /^kmod\/(pair|get_user\/(kapi|inline|nopad)\/8|copy_to_user\/kapi\/4096|sigframe\/(kapi|batched))/ ||
		$col["name"] ~ /^bpf\/.*overhead.*\/8$/ ||
		$col["name"] ~ /^syscall\/(getppid|write_read\/pipe\/64|futex\/wake|signal\/roundtrip)$/ {
			f = ($col["median"] > 0) ? $col["median_ns"] / $col["median"] : 0
			printf "  %-36s %9.1f ns  [%.1f .. %.1f]  %s\n", $col["name"],
				$col["median_ns"], $col["ci_low"] * f, $col["ci_high"] * f,
				$col["flags"]
		}' "$run_dir/results.csv" | head -n 20
fi
[ -d "$run_dir/plots" ] && say "plots: $run_dir/plots/"
[ "$state" = smap ] && say "next: reboot with '$off_param', run again, then: build/smapbench compare <nosmap-run> $run_dir"
exit 0
