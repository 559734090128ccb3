#!/bin/bash
# The census of a command (docs/census.md, "A census of any command"):
# `smapbench census -- COMMAND` boots this machine's root file system under
# the census plugin and counts what COMMAND opens above the baseline.
#
#   - a static program that makes exactly 1000 pread()s of 64 bytes from
#     tmpfs opens 1000 +- 2% windows on Debian's 6.1 and 6.12 with SMAP,
#     none with clearcpuid=smap, and the system calls and sites say where;
#   - `smapbench run` of the getppid benchmark: about no window per
#     getppid(), as the benchmark census counts;
#   - a COMMAND that fails, is missing or takes too long, natively or in
#     the guest, and an interrupted census: a message and no directory;
#     bad usage: a message and status 2.
# Boots one at a time, each 15 to 25 s on two shared cores (8 in all).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=vm/lib.sh
. vm/lib.sh
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
build=${BUILD:-build}
bin=$build/smapbench
pread=$build/tests/census/pread-loop

if out=$(shellcheck -S warning vm/census.sh vm/hostroot.sh 2>&1); then
	ok "census-command: vm/census.sh and vm/hostroot.sh shellcheck clean"
else
	show <<<"$out"
	not_ok "census-command: shellcheck of vm/census.sh or vm/hostroot.sh"
fi

# The host side first, without QEMU.
if make -s smapbench unit-tests census-plugin census-pread-loop \
	census-true-static >/dev/null 2>&1; then
	cmocka_tap "census-command unit" "$build/tests/unit/test_census_command"
else
	not_ok "census-command: smapbench, the unit test, the plugin and the programs build (make smapbench unit-tests census-plugin census-pread-loop census-true-static)"
	exit 1
fi

work=$(mktemp -d)
# The census keeps the boots' files of a failed census under
# build/census/command-*: those this stage made go with it.
before=$(ls -d "$build"/census/command-* 2>/dev/null)
cleanup() {
	local d
	rm -rf "$work"
	for d in "$build"/census/command-*; do
		[ -d "$d" ] && ! grep -qxF "$d" <<<"$before" && rm -rf "$d"
	done
}
trap cleanup EXIT
out=$work/out
mkdir -p "$out"
release61=$(vm_debian_release linux-image-amd64)
release612=$(vm_debian_release linux-image-6.12-amd64)
if [ -z "$release61" ] || ! [ -r "/boot/vmlinuz-$release61" ]; then
	not_ok "census-command: Debian's default kernel is not installed (scripts/deps.sh install test)"
	exit 1
fi
kernel61=/boot/vmlinuz-$release61

# nothing_written WHAT: no census directory, not even a temporary one.
nothing_written() {
	if [ -z "$(ls -A "$out")" ]; then
		ok "census-command: $1: no directory written"
	else
		ls -A "$out" | show
		not_ok "census-command: $1: no directory written"
		rm -rf "${out:?}"/* "${out:?}"/.[!.]*
	fi
}

# census_fails WHAT STATUS MESSAGE ARGUMENT...: the census exits with
# STATUS, says MESSAGE (an extended regex) and writes nothing.
census_fails() {
	local what=$1 want=$2 message=$3 rc
	shift 3
	"$bin" census --out "$out" "$@" >"$work/fail.out" 2>&1 </dev/null
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -Eq -e "$message" "$work/fail.out"; then
		ok "census-command: $what: status $rc and a message ($(grep -Em1 -e "$message" "$work/fail.out" | cut -c1-150))"
	else
		show <"$work/fail.out"
		not_ok "census-command: $what: status $rc (want $want) and a message matching '$message'"
	fi
	nothing_written "$what"
}

# --- bad usage: status 2, before anything runs -----------------------------
census_fails "no COMMAND" 2 "no COMMAND" --
census_fails "COMMAND without --" 2 "the command must follow --" true
census_fails "a bad --timeout" 2 "--timeout 'soon'" --timeout soon -- true
census_fails "a bad --states" 2 "--states 'smap,off'" --states smap,off -- true
census_fails "--pair-ci without --pair-cycles" 2 "--pair-ci needs --pair-cycles" \
	--pair-ci 1,2 -- true
census_fails "--cpu-row and --pair-cycles" 2 "give one" --cpu-row vm \
	--pair-cycles 40 -- true
census_fails "a --kernel that does not exist" 2 "--kernel /nonexistent" \
	--kernel /nonexistent -- true
census_fails "a --cpu-row of no machine" 2 "no row of machine 'no-such-host'" \
	--cpu-row no-such-host --table data/table/table.csv -- true
census_fails "a --cpu-row without the figure" 2 "has no pair_get_user_8 figure \(it has: bpf_overhead_8\)" \
	--cpu-row vm --table data/table/table.csv -- true

# --- COMMAND missing, failing or too slow natively: status 1, no boot ------
census_fails "a missing COMMAND" 1 "no-such-program: No such file or directory \(not an executable file in PATH\)" \
	-- no-such-program
census_fails "a COMMAND that is not executable" 1 "README.md: Permission denied" \
	-- ./README.md
census_fails "a COMMAND that fails natively" 1 "false exited with status 1 when run natively" \
	-- false
start=$SECONDS
census_fails "a COMMAND slower than --timeout natively" 1 "sleep took longer than the timeout of 1 s and was killed when run natively" \
	--timeout 1 -- sleep 30
check "census-command: the native timeout ended it in time ($((SECONDS - start)) s)" \
	test $((SECONDS - start)) -lt 15

# --- ... and in the guest (no native run: --native-seconds) ----------------
census_fails "a COMMAND that fails in the guest" 1 "false exited with status 1 in the guest" \
	--kernel "$kernel61" --states smap --native-seconds 1 -- false
census_fails "a COMMAND slower than --timeout in the guest" 1 "sleep took longer than the timeout of 5 s and was killed in the guest" \
	--kernel "$kernel61" --states smap --native-seconds 1 --timeout 5 -- sleep 60

# --- interrupted: the boot stopped, nothing written -------------------------
"$bin" census --out "$out" --kernel "$kernel61" --states smap \
	--native-seconds 1 -- "$pread" >"$work/int.out" 2>&1 </dev/null &
pid=$!
booting=0
for _ in $(seq 120); do
	grep -q '^# census boot: .* smap$' "$work/int.out" && booting=1 && break
	sleep 0.5
done
# into the boot: the kernel is up, the guest declares its symbols
sleep 5
kill -TERM "$pid"
wait "$pid"
rc=$?
sleep 2
left=$(ps -eo args | grep -c "[q]emu-system.*census/command-")
if [ "$booting" -eq 1 ] && [ "$rc" -eq 143 ] && [ "$left" -eq 0 ]; then
	ok "census-command: SIGTERM during a boot ends the census (status $rc) and its QEMU"
else
	show <"$work/int.out"
	not_ok "census-command: SIGTERM during a boot ends the census (status $rc, want 143; booting $booting) and its QEMU ($left left)"
fi
nothing_written "interrupted"

# --- 1000 pread()s ---------------------------------------------------------
kernels=(--kernel "$kernel61")
if [ -n "$release612" ] && [ -r "/boot/vmlinuz-$release612" ]; then
	kernels+=(--kernel "/boot/vmlinuz-$release612")
else
	skip "census-command: 6.12 boots" "linux-image-6.12-amd64 not installed"
fi
start=$SECONDS
"$bin" census --out "$out" "${kernels[@]}" --pair-cycles 40 --ghz 2 \
	-- "$pread" >"$work/pread.out" 2>&1 </dev/null
rc=$?
dir=$(sed -n 's/^census directory: //p' "$work/pread.out")
if [ "$rc" -ne 0 ] || [ -z "$dir" ]; then
	show 40 <"$work/pread.out"
	not_ok "census-command: the census of 1000 pread()s wrote a directory (status $rc)"
	stage_exit
fi
grep '^# census boot: .* took' "$work/pread.out"
ok "census-command: the census of 1000 pread()s, $((${#kernels[@]} / 2 * 2)) boots, in $((SECONDS - start)) s"
missing=""
for file in census.csv sites.csv syscalls.csv context.csv report.md \
	plots/census-sites.png plots/census-sites.svg .smapbench; do
	[ -s "$dir/$file" ] || missing="$missing $file"
done
check "census-command: the directory has every file${missing:+ (missing:$missing)}" \
	test -z "$missing"
check "census-command: it is marked as a census of a command" \
	grep -qx "smapbench census-command" "$dir/.smapbench"
check "census-command: raw/ has each boot's plugin output" \
	test "$(ls "$dir"/raw/*.tsv | wc -l)" -eq "${#kernels[@]}"

# column NAME FILE KERNEL STATE [MATCH]: a column of a row of a CSV of $dir
column() {
	awk -F, -v c="$1" -v k="$3" -v s="$4" -v m="${5:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		index($col["kernel"], k) == 1 && $col["smap_state"] == s &&
		(m == "" || index($0, m)) { print $col[c]; exit }' "$dir/$2"
}
for ((k = 1; k < ${#kernels[@]}; k += 2)); do
	release=$(vm_image_release "${kernels[k]}")
	pairs=$(column pairs census.csv "$release" smap)
	check "census-command: $release SMAP: 1000 pread()s open 1000 +- 2% windows above the baseline ($pairs)" \
		awk -v p="$pairs" 'BEGIN { exit !(p != "" && p >= 980 && p <= 1020) }'
	calls=$(column calls syscalls.csv "$release" smap ",pread64,")
	per=$(column pairs_per_call syscalls.csv "$release" smap ",pread64,")
	check "census-command: $release SMAP: 1000 pread64 calls, one window each ($calls, $per)" \
		awk -v c="$calls" -v p="$per" 'BEGIN { exit !(c == 1000 && p >= 1 && p <= 1.01) }'
	calls=$(column system_calls census.csv "$release" smap)
	check "census-command: $release SMAP: SYSCALL instructions above the baseline, 1000 and the file's few ($calls)" \
		awk -v c="$calls" 'BEGIN { exit !(c >= 1000 && c <= 1010) }'
	top=$(column function sites.csv "$release" smap)
	via=$(column via_1 sites.csv "$release" smap)
	check "census-command: $release SMAP: the first site is the copy to user, reached from pread64 ($top, $via)" \
		test "$via" = pread64
	# each task keeps its system call: the child's execve() copies the
	# environment while the parent sleeps in wait4()
	execve=$(column command_stac syscalls.csv "$release" smap ",execve,")
	wait4=$(column command_stac syscalls.csv "$release" smap ",wait4,")
	check "census-command: $release SMAP: execve's windows are execve's, not those of the parent's wait4 ($execve, $wait4)" \
		awk -v e="$execve" -v w="$wait4" 'BEGIN { exit !(e >= 50 && w != "" && w <= 5) }'
	pairs=$(column pairs census.csv "$release" clearcpuid)
	stac=$(column command_stac census.csv "$release" clearcpuid)
	check "census-command: $release clearcpuid=smap: no window at all ($pairs above the baseline, $stac in all)" \
		test "$pairs" = 0 -a "$stac" = 0
	# rseq's windows as natively, then 40 cycles at 2 GHz per pair
	pairs=$(column pairs census.csv "$release" smap)
	rseq=$(column rseq_pairs census.csv "$release" smap)
	native=$(column native_rseq_pairs census.csv "$release" smap)
	model=$(column model_pairs census.csv "$release" smap)
	estimate=$(column estimate_seconds census.csv "$release" smap)
	check "census-command: $release: the estimate is ($pairs - $rseq + $native rseq pairs) x 40 cycles / 2 GHz ($estimate s)" \
		awk -v e="$estimate" -v p="$pairs" -v r="$rseq" -v n="$native" -v m="$model" 'BEGIN {
			x = (p - r + n) * 20e-9
			exit !(e > 0 && (m - (p - r + n)) ^ 2 < 1e-6 && (e - x) ^ 2 < (1e-5 * x) ^ 2) }'
done
check "census-command: report.md says the estimate is a model" \
	grep -q "This is a model, not a measurement" "$dir/report.md"
check "census-command: the console says it too" \
	grep -q "THE ESTIMATE IS A MODEL" "$work/pread.out"

# --- getppid, as smapbench run measures it ---------------------------------
start=$SECONDS
"$bin" census --out "$out" --kernel "$kernel61" --states smap \
	--native-seconds 1 -- "$bin" run --suite syscall \
	--filter '^syscall/getppid$' --quick >"$work/getppid.out" 2>&1 </dev/null
rc=$?
dir=$(sed -n 's/^census directory: //p' "$work/getppid.out")
if [ "$rc" -ne 0 ] || [ -z "$dir" ]; then
	show 40 <"$work/getppid.out"
	not_ok "census-command: the census of smapbench run's getppid wrote a directory (status $rc)"
	stage_exit
fi
ok "census-command: the census of smapbench run's getppid in $((SECONDS - start)) s"
calls=$(column calls syscalls.csv "$release61" smap ",getppid,")
pairs=$(column pairs syscalls.csv "$release61" smap ",getppid,")
all=$(column pairs census.csv "$release61" smap)
published=$(ls -d data/*-census/census.csv 2>/dev/null | tail -n 1)
bench=$(awk -F, -v k="$release61" '$1 == k && $2 == "smap" && $3 == "syscall/getppid" { print $15 }' \
	"${published:-/dev/null}")
check "census-command: getppid opens about no window per call: $pairs in $calls calls (the benchmark census: ${bench:-none} STAC per call; the whole run: $all)" \
	awk -v c="$calls" -v p="$pairs" -v b="$bench" 'BEGIN {
		exit !(c >= 1000 && p / c < 0.01 && (b == "" || sprintf("%.0f", b) == sprintf("%.0f", p / c))) }'
stage_exit
