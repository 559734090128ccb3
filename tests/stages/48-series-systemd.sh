#!/bin/bash
# The boot series through its real systemd unit: a Debian 12 guest with
# systemd as PID 1 under QEMU (vm/systemd-guest.sh, its image cached), this
# checkout built in it, every run package installed (it has no network).
# Its job (tests/series/systemd-job.sh) runs, as a user would:
#   1. run-bench.sh --boots 2 --quick --suite syscall --yes: the unit
#      carries it through a kexec into boot 2 (SMAP off) and back. Checked:
#      both states in boots.csv with distinct boot_ids; settling under
#      30 s on each boot; the last boot's /proc/cmdline byte for byte the
#      first's (which has quotes, two spaces and commas); no smapbench unit
#      left, no state, no kexec image loaded; the journal (tag
#      smapbench-series) shows every step.
#   2. --boots 2 and --boots-abort while its boot 1 runs: no reboot, the
#      series ended, its unit gone;
#   3. --boots 2 with a failure injected in boot 2 (SMAP off, under the
#      unit): back to the original command line, ended there;
#   4. --boots 3: QEMU is killed (SIGKILL, a power loss) during its boot
#      2; the original command line is booted again and the series must
#      end in that boot: unit removed, its run kept.
# After each: SMAP on, the first boot's /proc/cmdline, no smapbench unit,
# no marker or state, no kexec image loaded.
# Each run is one benchmark (syscall/getppid, --quick): the stage checks
# the path, not the figures. Only when named (CHECK_STAGES=series-systemd)
# or with SMAPBENCH_CHECK_SYSTEMD set: its cost is below. Cold (no cached image) it makes the image
# first (mmdebstrap);
# the checkout's build in the image's root is cached by the sources' hash.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

# Hours cold, tens of minutes warm under TCG: longer than all the other
# stages together, so make check runs it only when asked by name.
if ! [[ " ${CHECK_STAGES:-} " == *" series-systemd "* ]] && [ -z "${SMAPBENCH_CHECK_SYSTEMD:-}" ]; then
	skip "boot series under systemd as PID 1" \
		"a long stage (about 1 h to make its image, then 15-40 min of TCG boots): CHECK_STAGES=series-systemd ./tests/check.sh runs it"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	skip "boot series under systemd" "needs root (mmdebstrap, chroot, mounts)"
	exit 0
fi
for tool in qemu-system-x86_64 mmdebstrap mkfs.ext4 debugfs unshare chroot git; do
	need_command "$tool" "scripts/deps.sh install test"
done
build=${BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
work=$build/series-systemd
rm -rf "$work"
mkdir -p "$work/job"
stage_start=$SECONDS

# ------------------------------------------------------------ the guest
start=$SECONDS
if ! img=$(vm/systemd-guest.sh image 2>"$work/image.err"); then
	show <"$work/image.err"
	not_ok "the systemd guest's image (vm/systemd-guest.sh image)"
	exit 1
fi
image_s=$((SECONDS - start))
start=$SECONDS
cp tests/series/systemd-job.sh "$work/job/job.sh"
if ! srv=$(vm/systemd-guest.sh checkout "$work" 2>"$work/checkout.err"); then
	show <"$work/checkout.err"
	not_ok "this checkout, built in the systemd guest's root (vm/systemd-guest.sh checkout)"
	exit 1
fi
checkout_s=$((SECONDS - start))
echo "# image ready in $image_s s ($img), the checkout built and on its disk in $checkout_s s"
# The root disk, kept across the two boots of QEMU as a disk would be.
cp --sparse=always "$img/disk.img" "$work/root.img" || { not_ok "cannot copy the root disk"; exit 1; }

original='root=/dev/vda rw console=ttyS0,115200 quiet sbtest.words="two  spaces" sbtest.list=a,b'
kill_text='running boot 2 of 3'
start=$SECONDS
vm/systemd-guest.sh boot --image "$img" --root "$work/root.img" --srv "$srv" \
	--append "$original" --serial "$work/serial-1.log" --timeout 3000 --kill-on "$kill_text"
rc=$?
first_s=$((SECONDS - start))
echo "# QEMU, first run: $first_s s, status $rc (137: killed during series 4's boot 2)"
if [ "$rc" -ne 137 ]; then
	grep -a 'smapbench' "$work/serial-1.log" | tr -d '\r' | show 30
	not_ok "QEMU was not killed during series 4's boot 2 (status $rc; console: $work/serial-1.log)"
fi
start=$SECONDS
vm/systemd-guest.sh boot --image "$img" --root "$work/root.img" --srv "$srv" \
	--append "$original" --serial "$work/serial-2.log" --timeout 1200
rc2=$?
second_s=$((SECONDS - start))
echo "# QEMU, second run (the original command line after the power loss): $second_s s, status $rc2"

# ------------------------------------------------------------ what it left
got=$work/got
mkdir -p "$got"
debugfs -R "rdump /job/out /smapbench/data /smapbench/data2 /smapbench/data3 /smapbench/data4 $got" "$srv" >/dev/null 2>&1
out=$got/out
series_dir() { find "$got/$1" -maxdepth 1 -name 'series-*' -type d 2>/dev/null | head -n 1; }
s1=$(series_dir data)
echo "# the guest's console: $work/serial-1.log, $work/serial-2.log; its job's files: $out"
if [ ! -d "$out" ] || [ -z "$s1" ]; then
	grep -a 'smapbench' "$work/serial-1.log" "$work/serial-2.log" 2>/dev/null | tr -d '\r' | show 40
	not_ok "the guest left no job output or no series directory"
	stage_exit
fi
# left N: what series N left on the machine, empty when nothing.
left() {
	local n=$1 what=""
	[ -f "$out/units-$n.txt" ] || { echo "no record of the machine after series $n"; return; }
	# Every smapbench unit but the guest's own job's.
	grep -v '^smapbench-guest-job\.service ' "$out/units-$n.txt" | grep -q . &&
		what+="unit: $(grep -v '^smapbench-guest-job\.service ' "$out/units-$n.txt" | head -n 1); "
	grep -q . "$out/unit-files-$n.txt" && what+="unit files: $(tr '\n' ' ' <"$out/unit-files-$n.txt"); "
	grep -q . "$out/state-$n.txt" && what+="state/marker: $(tr '\n' ' ' <"$out/state-$n.txt"); "
	[ "$(cat "$out/kexec-loaded-$n.txt")" = 0 ] || what+="a kexec image loaded; "
	[ "$(cat "$out/smap-$n.txt")" = on ] || what+="SMAP off; "
	cmp -s "$out/cmdline-1" "$out/cmdline-end-$n" || what+="command line '$(cat "$out/cmdline-end-$n")'; "
	echo "$what"
}
# journal N ID: series ID's lines in the journal after series N.
journal() { grep -F "series $2:" "$out/journal-$1.txt" | cut -c1-200 | sed 's/^/#   /'; }

# ---- series 1: two boots through the unit, and back
echo "# series 1: $(cat "$s1/status" 2>/dev/null)"
sed 's/^/#   /' "$s1/boots.csv"
state_col=$(csv_column smap_got "$s1/boots.csv")
bid_col=$(csv_column boot_id "$s1/boots.csv")
settle_col=$(csv_column settle_s "$s1/boots.csv")
states=$(tail -n +2 "$s1/boots.csv" | cut -d, -f"$state_col" | tr '\n' ' ')
ids=$(tail -n +2 "$s1/boots.csv" | cut -d, -f"$bid_col" | sort -u | grep -c .)
if [ "$states" = "smap nosmap " ] && [ "$ids" -eq 2 ] && grep -q '^done: 2 boots' "$s1/status"; then
	ok "series 1: boots.csv holds SMAP on and SMAP off, on two boot_ids; done"
else
	show <"$out/series-1.start.log"
	not_ok "series 1: states '$states', $ids boot_ids, status '$(cat "$s1/status" 2>/dev/null)'"
fi
settles=$(tail -n +2 "$s1/boots.csv" | cut -d, -f"$settle_col" | paste -sd' ')
if [ -n "$settles" ] && ! tail -n +2 "$s1/boots.csv" | cut -d, -f"$settle_col" | awk '$1 >= 30 { bad = 1 } END { exit !bad }'; then
	ok "series 1: settling took under 30 s on each boot ($settles s)"
else
	grep -h 'settled' "$out/journal-1.txt" | show
	not_ok "series 1: settling took $settles s"
fi
echo "# first boot's /proc/cmdline:  $(cat "$out/cmdline-1")"
echo "# boot 2's (series 1, SMAP off): $(cat "$out/cmdline-2" 2>/dev/null)"
echo "# the series' last boot's:      $(cat "$out/cmdline-end-1" 2>/dev/null)"
if cmp -s "$out/cmdline-1" "$out/cmdline-end-1"; then
	ok "series 1: the last boot's /proc/cmdline is the first's, byte for byte ($(wc -c <"$out/cmdline-1") bytes)"
else
	cmp "$out/cmdline-1" "$out/cmdline-end-1" 2>&1 | show
	not_ok "series 1: the last boot's /proc/cmdline differs from the first's"
fi
final=$(tail -n 1 "$s1/final.csv" 2>/dev/null)
if [ "${final##*,}" = 1 ] && [ "${final%%,*}" = "$(cut -d' ' -f1 "$out/boot-3" 2>/dev/null)" ]; then
	ok "series 1: final.csv: the series ended on boot 3 (the original command line), as the guest saw it"
else
	not_ok "series 1: final.csv '$final', boot 3 '$(cat "$out/boot-3" 2>/dev/null)'"
fi
what=$(left 1)
if [ -z "$what" ]; then
	ok "series 1: SMAP on, no smapbench unit (list-unit-files, /etc/systemd/system), no marker or state, no kexec image loaded"
else
	not_ok "series 1 left: $what"
fi
id1=${s1##*/series-}
missing=""
for step in "series $id1: started: 2 boots" "series $id1: running boot 1 of 2 (SMAP on)" \
	"series $id1: settled in" "series $id1: boot 1 of 2 done" "series $id1: rebooting with kexec: boot 2 of 2, SMAP off" \
	"series $id1: running boot 2 of 2 (SMAP off)" "series $id1: boot 2 of 2 done" "series $id1: comparing the runs of 2 boots" \
	"series $id1: rebooting with kexec: the original command line" "series $id1: done: 2 boots"; do
	grep -qF "$step" "$out/journal-1.txt" || missing+="'$step' "
done
echo "# journalctl -t smapbench-series, series 1:"
journal 1 "$id1"
if [ -z "$missing" ]; then
	ok "series 1: journalctl -t smapbench-series shows every step, over its 3 boots"
else
	not_ok "series 1: the journal lacks $missing"
fi

# ---- series 2: --boots-abort while its boot 1 runs
s2=$(series_dir data2)
id2=${s2##*/series-}
echo "# series 2: $(cat "$s2/status" 2>/dev/null); --boots-abort: status $(cat "$out/series-2.abort.rc" 2>/dev/null)"
[ -n "$s2" ] && journal 2 "$id2"
what=$(left 2)
if [ -n "$s2" ] && grep -q '^aborted at boot 1 of 2' "$s2/status" &&
	cmp -s "$out/boot-id-start-2" "$out/boot-id-end-2" && [ -z "$what" ]; then
	ok "series 2: --boots-abort during boot 1's step: no reboot (one boot_id), ended; SMAP on, nothing of it left"
else
	show <"$out/series-2.abort.log" 2>/dev/null
	not_ok "series 2 (abort): status '$(cat "$s2/status" 2>/dev/null)', boot_id $(cat "$out/boot-id-start-2" "$out/boot-id-end-2" 2>/dev/null | tr '\n' ' '), left: $what"
fi

# ---- series 3: a failure in boot 2, under the unit
s3=$(series_dir data3)
id3=${s3##*/series-}
echo "# series 3: $(cat "$s3/status" 2>/dev/null)"
[ -n "$s3" ] && journal 3 "$id3"
what=$(left 3)
runs3=$(find "$s3/runs" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | grep -c .)
if [ -n "$s3" ] && grep -q '^failed at boot 2 of 2: the run of boot 2 failed' "$s3/status" &&
	[ "$runs3" -eq 1 ] && [ "$(tail -n 1 "$s3/final.csv" | sed 's/.*,//')" = 1 ] &&
	grep -qF "series $id3: rebooting with kexec: the original command line" "$out/journal-3.txt" && [ -z "$what" ]; then
	ok "series 3: the failure on its SMAP-off boot took it back to the original command line, where it ended: SMAP on, its 1 run kept, nothing of it left"
else
	not_ok "series 3 (failure at boot 2): status '$(cat "$s3/status" 2>/dev/null)', $runs3 runs, left: $what"
fi

# ---- series 4: a power loss during its boot 2
s4=$(series_dir data4)
if [ -z "$s4" ]; then
	not_ok "series 4: no series directory"
	stage_exit
fi
id4=${s4##*/series-}
echo "# series 4: $(cat "$s4/status" 2>/dev/null)"
journal 4 "$id4"
boots=$(cat "$out/boots" 2>/dev/null)
ended_on=$(grep -F "series $id4: ended" "$out/journal-4.txt" | head -n 1)
runs4=$(find "$s4/runs" -mindepth 1 -maxdepth 1 -type d | grep -c .)
what=$(left 4)
if [ "$rc" -eq 137 ] && grep -q "^failed at boot 2 of 3: this boot is not the series' next step" "$s4/status" &&
	[ "$runs4" -eq 1 ] && [ -n "$ended_on" ] && [ -z "$what" ] && cmp -s "$out/cmdline-1" "$out/cmdline-$boots"; then
	ok "series 4: killed during its boot 2, it ended on the next boot of the original command line (boot $boots of the guest): SMAP on, unit and marker removed, its 1 run kept"
else
	not_ok "series 4 after the power loss: status '$(cat "$s4/status" 2>/dev/null)', $runs4 runs, QEMU status $rc, left: $what"
fi
echo "# stage times: image $image_s s, checkout $checkout_s s, QEMU $first_s + $second_s s; in all $((SECONDS - stage_start)) s"
stage_exit
