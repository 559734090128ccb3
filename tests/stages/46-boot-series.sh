#!/bin/bash
# The boot series (docs/boot-series.md) as a user runs it, in QEMU: the
# host-root guest runs `run-bench.sh --boots N` and reboots itself with
# kexec for real (run-bench.sh --vm --boots N).
#
#   6.1, 6.12   --boots 4: runs on, off, on, off, each on a boot of its
#               own, comparisons, and the last boot back on the original
#               command line
#   6.1         a failure injected in boot 3 ends the series: two runs
#               kept, the original command line
#   6.1         no kexec (SMAPBENCH_NO_KEXEC): the series waits for a
#               boot by hand; a second --boots is refused; --series-status
#               says where it stands; --boots-abort ends it
# The series' systemd unit passes systemd-analyze verify. Each series uses
# --quick --suite syscall: the stage checks the path, not the figures
# (TCG emulates them). BOOT_SERIES_KERNELS="6.1" runs only some kernels.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=vm/lib.sh
. vm/lib.sh
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

build=${BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
work=$build/boot-series-check
kernels=${BOOT_SERIES_KERNELS:-6.1 6.12}

if command -v systemd-analyze >/dev/null; then
	unit_dir=$(mktemp -d)
	scripts/boot-series.sh unit "$PWD/data" >"$unit_dir/smapbench-series.service"
	if out=$(systemd-analyze verify --man=no "$unit_dir/smapbench-series.service" 2>&1); then
		ok "boot series: its systemd unit passes systemd-analyze verify"
	else
		show <<<"$out"
		not_ok "boot series: systemd-analyze verify rejects the unit"
	fi
	rm -rf "$unit_dir"
else
	skip "boot series: systemd-analyze verify of its unit" "no systemd-analyze here"
fi
if ! command -v qemu-system-x86_64 >/dev/null || ! command -v kexec >/dev/null; then
	not_ok "boot series: qemu-system-x86_64 or kexec not installed (scripts/deps.sh install test)"
	exit 1
fi
rm -rf "$work"
mkdir -p "$work"

image_of() { # 6.1 | 6.12: Debian's image of that series
	local pkg=linux-image-amd64 release
	[ "$1" = 6.12 ] && pkg=linux-image-6.12-amd64
	release=$(vm_debian_release "$pkg")
	[ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ] && echo "/boot/vmlinuz-$release"
}
# The series directory a --vm series left under OUT.
series_in() {
	local d found=""
	for d in "$1"/vm-series-*/; do
		[ -d "$d" ] && found=${d%/}
	done
	echo "$found"
}
csv_rows() { tail -n +2 "$1" | grep -c .; }

# series KERNEL LABEL N [ENV...]: run-bench.sh --vm --boots N into
# $work/LABEL; prints its status and leaves the log there.
series() {
	local image=$1 label=$2 n=$3 start=$SECONDS
	shift 3
	env "$@" ./run-bench.sh --vm --boots "$n" --quick --suite syscall --no-install \
		--kernel "$image" --out "$work/$label" >"$work/$label.log" 2>&1
	echo "# $label: series of $n boots took $((SECONDS - start)) s, status $?"
}

# The series as it should end: N boots in turn, distinct boot_ids, each
# run from its own boot, the comparisons, the original command line.
check_complete() {
	local label=$1 dir=$2 n=$3 states ids final original k want
	if [ -z "$dir" ] || ! [ -f "$dir/boots.csv" ]; then
		show <"$work/$label.log"
		not_ok "$label: no series directory with boots.csv"
		return
	fi
	states=$(tail -n +2 "$dir/boots.csv" | cut -d, -f3 | tr '\n' ' ')
	want=""
	for ((k = 0; k < n; k++)); do
		[ $((k % 2)) -eq 0 ] && want+="smap " || want+="nosmap "
	done
	if [ "$states" = "$want" ]; then
		ok "$label: $n runs, SMAP states in turn: $states"
	else
		show <"$work/$label.log"
		not_ok "$label: SMAP states '$states', expected '$want'"
	fi
	ids=$( (tail -n +2 "$dir/boots.csv" | cut -d, -f4; tail -n +2 "$dir/final.csv" | cut -d, -f1) |
		sort -u | grep -c .)
	if [ "$ids" -eq $((n + 1)) ]; then
		ok "$label: each of the $n runs and the boot after them has a boot_id of its own"
	else
		not_ok "$label: $ids distinct boot_ids for $n runs and the final boot"
	fi
	local bad=0 run bid
	while IFS=, read -r _ _ _ bid _ _ run; do
		[ "$(sed -n 's/^"\{0,1\}boot_id"\{0,1\},//p' "$dir/$run/context.csv" | tr -d '"')" = "$bid" ] ||
			bad=$((bad + 1))
	done < <(tail -n +2 "$dir/boots.csv")
	if [ "$bad" -eq 0 ]; then
		ok "$label: each run's context names the boot it ran on"
	else
		not_ok "$label: $bad runs whose context boot_id is not their boot's"
	fi
	final=$(tail -n 1 "$dir/final.csv" | cut -d, -f2)
	original=$(sed -n 's/^original_cmdline=//p' "$dir/plan")
	if [ "$(tail -n 1 "$dir/final.csv" | cut -d, -f3)" = 1 ] && [ "$final" = "$original" ]; then
		ok "$label: the last boot has the original command line ($original)"
	else
		not_ok "$label: the last boot's command line '$final' is not the original '$original'"
	fi
	if [ -f "$dir/report.md" ] && [ -f "$dir/compare-$((n / 2))/compare.csv" ] &&
		grep -q '^done' "$dir/status"; then
		ok "$label: done, with $((n / 2)) comparisons and the series' report.md"
	else
		not_ok "$label: status '$(cat "$dir/status" 2>/dev/null)', comparisons or report.md missing"
	fi
	# All boots at once, each a unit: how the variance between boots
	# entered the interval is recorded (estimated from the runs, a
	# calibration, or assumed where the runs give too few df).
	local source
	source=$(sed -n 's/^"\{0,1\}boot_sd_source"\{0,1\},//p' "$dir/compare-all/compare-settings.csv" 2>/dev/null | tr -d '"')
	if [ -f "$dir/compare-all/compare.csv" ] && [ -n "$source" ] &&
		grep -q "the $((n / 2)) SMAP-off runs against the $((n / 2)) SMAP-on runs" "$dir/report.md"; then
		ok "$label: all boots compared at once, each boot a unit (boot variance: $source)"
	else
		not_ok "$label: no comparison of all boots with the boot-level statistics (compare-all)"
	fi
}

for kernel in $kernels; do
	image=$(image_of "$kernel")
	if [ -z "$image" ]; then
		not_ok "boot series on $kernel: Debian's $kernel kernel is not installed"
		continue
	fi
	series "$image" "$kernel-four" 4
	check_complete "$kernel-four" "$(series_in "$work/$kernel-four")" 4
done

image=$(image_of 6.1)
if [ -n "$image" ]; then
	# A failure in boot 3 (SMAP on: the original command line).
	series "$image" fail-at-3 4 SMAPBENCH_SERIES_FAIL_AT=3
	dir=$(series_in "$work/fail-at-3")
	if [ -n "$dir" ] && grep -q '^failed at boot 3 of 4' "$dir/status" &&
		[ "$(csv_rows "$dir/boots.csv")" -eq 2 ] &&
		[ "$(find "$dir/runs" -mindepth 1 -maxdepth 1 -type d | grep -c .)" -eq 2 ] &&
		[ "$(tail -n 1 "$dir/final.csv" | cut -d, -f3)" = 1 ] &&
		! [ -e "$dir/.series-active" ]; then
		ok "fail-at-3: the series ended at boot 3 with its two runs kept, on the original command line ($(cat "$dir/status"))"
	else
		show <"$work/fail-at-3.log"
		not_ok "fail-at-3: status '$(cat "$dir/status" 2>/dev/null)', $(csv_rows "$dir/boots.csv" 2>/dev/null) boots recorded"
	fi

	# No kexec: the series waits; a second one is refused; status; abort.
	share=$work/manual/share
	mkdir -p "$share"
	vm/hostroot.sh boot --kernel "$image" --dir "$work/manual" --share "$share" \
		--quiet --timeout 1800 -- env SMAPBENCH_NO_KEXEC=1 \
		bash tests/vm/boot-series-manual.sh /run/smapbench/runs >"$work/manual.log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		relay <"$share/job.out"
	else
		show <"$work/manual.log"
		[ -f "$share/job.out" ] && relay <"$share/job.out"
		not_ok "manual: the guest's checks ended with status $rc"
	fi
fi
stage_exit
