#!/bin/bash
# A boot series that cannot reboot by itself, checked inside a host-root
# guest (stage 46-boot-series) with SMAPBENCH_NO_KEXEC set: the first boot
# runs and the series then waits for a boot by hand; meanwhile a second
# --boots is refused, --series-status says where the series stands, and
# --boots-abort ends it with its run kept. Prints TAP lines.
#
#   SMAPBENCH_NO_KEXEC=1 tests/vm/boot-series-manual.sh OUT
set -u
out=${1:?usage: $0 OUT}
args=(--quick --suite syscall --no-install --out "$out")
log=$(mktemp -d)
status=0
ok() { echo "ok - manual: $*"; }
not_ok() {
	echo "not ok - manual: $*"
	status=1
}
show() { sed 's/^/#   /' "$1" | tail -n 15; }

./run-bench.sh --boots 2 "${args[@]}" >"$log/start.out" 2>&1
rc=$?
series=$(cat "$out/.series-active" 2>/dev/null)
dir=$out/series-$series
if [ "$rc" -eq 0 ] && [ -n "$series" ] && grep -q '^boot 2 of 2 pending' "$dir/status" &&
	grep -q 'boot this kernel once with this command line' "$log/start.out" &&
	grep -q 'clearcpuid=smap smapbench.series=' "$log/start.out"; then
	ok "boot 1 ran, and the series names the command line to boot by hand ($(cat "$dir/status"))"
else
	show "$log/start.out"
	not_ok "boot 1 of a series without kexec: status $rc, series '$series'"
fi

./run-bench.sh --boots 2 "${args[@]}" >"$log/second.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'a boot series is pending' "$log/second.out"; then
	ok "a second --boots is refused while one is pending (status 2)"
else
	show "$log/second.out"
	not_ok "a second --boots while one is pending: status $rc"
fi

./run-bench.sh --series-status --out "$out" >"$log/status.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q "series $series: boot 2 of 2 pending" "$log/status.out"; then
	ok "--series-status says where the series stands"
else
	show "$log/status.out"
	not_ok "--series-status: status $rc"
fi

./run-bench.sh "${args[@]}" >"$log/plain.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'a boot series is pending' "$log/plain.out" &&
	[ "$(cat "$dir/status")" = "boot 2 of 2 pending (SMAP off)" ]; then
	ok "a plain run meanwhile runs, says a series is pending, and leaves it be"
else
	show "$log/plain.out"
	not_ok "a plain run while a series is pending: status $rc, series status '$(cat "$dir/status")'"
fi

./run-bench.sh --boots-abort --out "$out" >"$log/abort.out" 2>&1
rc=$?
runs=$(find "$dir/runs" -mindepth 1 -maxdepth 1 -type d | grep -c .)
if [ "$rc" -eq 0 ] && ! [ -e "$out/.series-active" ] &&
	grep -q '^aborted at boot 2 of 2' "$dir/status" && [ "$runs" -eq 1 ] &&
	[ "$(tail -n 1 "$dir/final.csv" | cut -d, -f3)" = 1 ]; then
	ok "--boots-abort ends it: its run kept, the original command line ($(cat "$dir/status"))"
else
	show "$log/abort.out"
	not_ok "--boots-abort: status $rc, $runs runs, series status '$(cat "$dir/status")'"
fi
exit "$status"
