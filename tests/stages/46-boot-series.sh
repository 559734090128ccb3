#!/bin/bash
# The boot series (docs/boot-series.md) as a user runs it in QEMU: the
# host-root guest runs `run-bench.sh --boots 4` and reboots itself with
# kexec for real (run-bench.sh --vm --boots 4): runs on, off, on, off,
# each on a boot of its own, comparisons, and the last boot back on the
# original command line. The series' systemd unit passes systemd-analyze
# verify.
#
# What else a series must survive is shown elsewhere: every row of the
# hazard table in stage 47-series-sandbox (failures, abort, Ctrl-C, power
# loss, the distributions' /boot), the real unit under systemd, and QEMU
# killed mid-series, in stage 48-series-systemd. The series here uses
# --quick --suite syscall: the stage checks the path, not the figures
# (TCG emulates them). BOOT_SERIES_KERNELS="6.1 6.12" adds kernels.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=vm/lib.sh
. vm/lib.sh
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
# shellcheck source=tests/lib/guest.sh
. tests/lib/guest.sh
# shellcheck source=tests/series/phases.sh
. tests/series/phases.sh

build=${BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
work=$build/boot-series-check
kernels=${BOOT_SERIES_KERNELS:-6.1}

if command -v systemd-analyze >/dev/null; then
	unit_dir=$(mktemp -d)
	scripts/boot-series.sh unit "$PWD/data/series-host-20260101-000000" >"$unit_dir/smapbench-series.service"
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
need_guest_tools "boot series" qemu-system-x86_64 kexec
rm -rf "$work"
mkdir -p "$work"

# The series directory a --vm series left under OUT.
series_in() {
	local d found=""
	for d in "$1"/vm-series-*/; do
		[ -d "$d" ] && found=${d%/}
	done
	echo "$found"
}

# series KERNEL LABEL N [ENV...]: run-bench.sh --vm --boots N into
# $work/LABEL; prints its status and leaves the log there.
series() {
	local image=$1 label=$2 n=$3 start=$SECONDS rc
	shift 3
	env "$@" ./run-bench.sh --vm --boots "$n" --quick --suite syscall --no-install \
		--kernel "$image" --out "$work/$label" >"$work/$label.log" 2>&1
	rc=$?
	echo "# $label: series of $n boots took $((SECONDS - start)) s, status $rc"
}

# The series as it should end: N boots in turn, distinct boot_ids, each
# run from its own boot, the comparisons, the original command line.
check_complete() {
	local label=$1 dir=$2 n=$3 states ids final original k want bid_col run_col state_col
	if [ -z "$dir" ] || ! [ -f "$dir/boots.csv" ]; then
		show <"$work/$label.log"
		not_ok "$label: no series directory with boots.csv"
		return
	fi
	state_col=$(csv_column smap_got "$dir/boots.csv")
	bid_col=$(csv_column boot_id "$dir/boots.csv")
	run_col=$(csv_column run "$dir/boots.csv")
	states=$(tail -n +2 "$dir/boots.csv" | cut -d, -f"$state_col" | tr '\n' ' ')
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
	ids=$( (tail -n +2 "$dir/boots.csv" | cut -d, -f"$bid_col"; tail -n +2 "$dir/final.csv" | cut -d, -f1) |
		sort -u | grep -c .)
	if [ "$ids" -eq $((n + 1)) ]; then
		ok "$label: each of the $n runs and the boot after them has a boot_id of its own"
	else
		not_ok "$label: $ids distinct boot_ids for $n runs and the final boot"
	fi
	local bad=0 run bid
	while IFS= read -r row; do
		bid=$(cut -d, -f"$bid_col" <<<"$row")
		run=$(cut -d, -f"$run_col" <<<"$row")
		[ "$(sed -n 's/^"\{0,1\}boot_id"\{0,1\},//p' "$dir/$run/context.csv" | tr -d '"')" = "$bid" ] ||
			bad=$((bad + 1))
	done < <(tail -n +2 "$dir/boots.csv")
	if [ "$bad" -eq 0 ]; then
		ok "$label: each run's context names the boot it ran on"
	else
		not_ok "$label: $bad runs whose context boot_id is not their boot's"
	fi
	# final.csv: boot_id, the command line quoted, restored (0 or 1)
	final=$(tail -n 1 "$dir/final.csv" | sed 's/^[^,]*,"\(.*\)",[01]$/\1/; s/""/"/g')
	original=$(sed -n 's/^original_cmdline=//p' "$dir/plan")
	if [ "$(tail -n 1 "$dir/final.csv" | sed 's/.*,//')" = 1 ] && [ "$final" = "$original" ]; then
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
	# The guest's machine state went with the series.
	local state_left
	state_left=$(find "$work/$label.share-state" -mindepth 1 2>/dev/null | head -n 3)
	if ! [ -d "$work/$label.share-state" ]; then
		not_ok "$label: no copy of the guest's /var/lib/smapbench to look in"
	elif [ -z "$state_left" ]; then
		ok "$label: nothing of the series left in the guest's /var/lib/smapbench"
	else
		not_ok "$label: the guest's /var/lib/smapbench still holds $state_left"
	fi
}

# The phase times (phases.csv, report.md's table; docs/boot-series.md):
# every phase once and in turn, back to back, summed by the table. The
# reboots here are real ones through kexec, so each of them, the return
# too, is split at the kernel's start: a hand-over row on the wall clock,
# then a boot row on /proc/uptime.
check_phases() {
	local label=$1 dir=$2 n=$3 problems unsplit
	problems=$(phases_problems "$dir" "$n")
	if [ -z "$problems" ]; then
		ok "$label: phases.csv has each boot's phases in turn, back to back, $(phases_total "$dir") s in all, as report.md's table sums them"
	else
		show <<<"$problems"
		not_ok "$label: the phase times of phases.csv and report.md's table"
	fi
	if [ -f "$dir/phases.csv" ]; then
		unsplit=$(awk -F, -v n="$n" '
			NR > 1 && ($2 == "handover" || $2 == "boot") { clock[$1, $2] = clock[$1, $2] " " $5 }
			END {
				for (k = 2; k <= n + 1; k++) {
					s = k <= n ? k : "end"
					if (clock[s, "handover"] != " wall" || clock[s, "boot"] != " uptime")
						printf " %s (handover:%s; boot:%s)", s, clock[s, "handover"], clock[s, "boot"]
				}
			}' "$dir/phases.csv")
	else
		unsplit=" all (no phases.csv)"
	fi
	if [ -z "$unsplit" ]; then
		ok "$label: each of the $n reboots is a hand-over on the wall clock, then a boot on /proc/uptime (boot 2's: $(phase_seconds "$dir" 2 handover) s and $(phase_seconds "$dir" 2 boot) s)"
	else
		show 40 <"$dir/phases.csv" 2>/dev/null
		not_ok "$label: reboots not split into a wall-clock hand-over and an uptime boot:$unsplit"
	fi
}

for kernel in $kernels; do
	release=$(debian_kernel "$kernel")
	image=/boot/vmlinuz-$release
	if [ -z "$release" ]; then
		not_ok "boot series on $kernel: Debian's $kernel kernel is not installed"
		continue
	fi
	series "$image" "$kernel-four" 4
	# The guest's /var/lib/smapbench (run-bench.sh --vm binds it there).
	cp -r "$PWD/build/vm/run-bench/series/share/series-state" "$work/$kernel-four.share-state" 2>/dev/null
	check_complete "$kernel-four" "$(series_in "$work/$kernel-four")" 4
	check_phases "$kernel-four" "$(series_in "$work/$kernel-four")" 4
done
stage_exit
