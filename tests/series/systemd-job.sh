#!/bin/bash
# The job of the systemd guest (stage 48-series-systemd; vm/systemd-guest.sh
# runs /srv/job/job.sh on every boot, after multi-user.target). Four boot
# series, as a user starts them, each through the real unit, one after
# the other on the boot where the one before ended:
#   1. run-bench.sh --boots 2: it must end by itself, back on the original
#      command line;
#   2. run-bench.sh --boots 2 --out data2, and --boots-abort while boot 1
#      runs: the step stops before its kexec, no reboot;
#   3. run-bench.sh --boots 2 --out data3 with a failure injected in boot 2
#      (SMAP off, under the unit): it must return to the original command
#      line and end there;
#   4. run-bench.sh --boots 3 --out data4: the stage kills QEMU during its
#      boot 2 (a power loss) and boots the original command line again;
#      it must end there.
# After each, what the machine shows goes to /srv/job/out; at the end the
# guest powers off. Progress is kept in /srv/job/out, so that any boot
# knows where the job stands.
set -u
out=/srv/job/out
mkdir -p "$out"
boot=$(($(cat "$out/boots" 2>/dev/null || echo 0) + 1))
echo "$boot" >"$out/boots"
cp /proc/cmdline "$out/cmdline-$boot"
printf '%s %s\n' "$(cat /proc/sys/kernel/random/boot_id)" "$(cut -d' ' -f1 /proc/uptime)" >"$out/boot-$boot"
say() { echo "smapbench-guest-job: boot $boot: $*"; }
pending() { [ -e /var/lib/smapbench/boot-series/series ]; }
# Until no series is pending and its unit has finished (a hand-over
# stops this job with the machine).
wait_series() {
	local start=$SECONDS
	while pending && [ $((SECONDS - start)) -lt 3000 ]; do sleep 2; done
	while systemctl -q is-active smapbench-series.service; do sleep 1; done
}
# collect N: what the machine shows after series N.
collect() {
	local n=$1
	cp /proc/cmdline "$out/cmdline-end-$n"
	cat /proc/sys/kernel/random/boot_id >"$out/boot-id-end-$n"
	journalctl -t smapbench-series -o short-iso --no-pager >"$out/journal-$n.txt" 2>&1
	journalctl --list-boots --no-pager >"$out/list-boots-$n.txt" 2>&1
	systemctl list-unit-files --no-legend 'smapbench*' >"$out/units-$n.txt" 2>&1
	find /etc/systemd/system /run/systemd/system -name 'smapbench-series*' >"$out/unit-files-$n.txt" 2>&1
	find /var/lib/smapbench >"$out/state-$n.txt" 2>/dev/null
	cat /sys/kernel/kexec_loaded >"$out/kexec-loaded-$n.txt" 2>&1
	# SMAP as the kernel set it up on this boot
	if grep -qw smap /proc/cpuinfo; then echo on; else echo off; fi >"$out/smap-$n.txt"
	systemctl is-system-running >"$out/system-$n.txt" 2>&1
	say "series $n collected"
	touch "$out/series-$n.collected"
}
# series N ARGS...: start series N once, whichever boot the job is on.
series() {
	local n=$1
	shift
	[ -e "$out/series-$n.started" ] && return 0
	touch "$out/series-$n.started"
	say "starting series $n: run-bench.sh $*"
	./run-bench.sh "$@" >"$out/series-$n.start.log" 2>&1
	echo "$?" >"$out/series-$n.start.rc"
}
one=(--quick --suite syscall --filter '^syscall/getppid$' --yes)

cd /srv/smapbench || exit 1
series 1 --boots 2 "${one[@]}"
wait_series
[ -e "$out/series-1.collected" ] || collect 1

if [ ! -e "$out/series-2.collected" ]; then
	if [ ! -e "$out/series-2.started" ]; then
		cat /proc/sys/kernel/random/boot_id >"$out/boot-id-start-2"
		series 2 --boots 2 "${one[@]}" --out /srv/smapbench/data2 &
		start=$SECONDS
		until grep -qs '^running boot 1 of 2' /srv/smapbench/data2/series-*/status ||
			[ $((SECONDS - start)) -ge 600 ]; do
			sleep 0.5
		done
		./run-bench.sh --boots-abort >"$out/series-2.abort.log" 2>&1
		echo "$?" >"$out/series-2.abort.rc"
		wait
	fi
	wait_series
	collect 2
fi

SMAPBENCH_SERIES_FAIL_AT=2 series 3 --boots 2 "${one[@]}" --out /srv/smapbench/data3
wait_series
[ -e "$out/series-3.collected" ] || collect 3

series 4 --boots 3 "${one[@]}" --out /srv/smapbench/data4
wait_series
collect 4
sync
say "done; powering off"
systemctl poweroff
