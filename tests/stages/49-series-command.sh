#!/bin/bash
# A boot series of the user's own command (docs/boot-series.md, "Your
# command"), as a user runs it in QEMU: a census of the command in the
# guest kernel, then `run-bench.sh --vm --boots 2 --quick --suite syscall
# --filter ROWS --command CMD --census DIR`: the command's row in each
# boot's run, its log, its identity in the context, its comparison over
# the boots, the series' prediction from the census (workload.csv,
# report.md, the plot), and the pair's cost beta fitted from five syscall
# rows and the census of the benchmarks on the guest kernel the series
# found or took, named in its report. A census of another kernel is
# refused before anything boots. Then a series whose command fails: it
# ends on its first boot, the fail-safe way, with that run kept. Argument
# errors first, which need no guest. Under TCG the figures are emulated:
# the stage checks the path and the arithmetic, not SMAP's cost.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=vm/lib.sh
. vm/lib.sh
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
# shellcheck source=tests/lib/guest.sh
. tests/lib/guest.sh

build=${BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
bin=$build/smapbench
work=$build/series-command-check
# A short workload whose pairs the census counts: a file read and hashed.
cmd='sha256sum /etc/services >/dev/null'

[ -x "$bin" ] || { not_ok "series-command: $bin is not built (make)"; exit 1; }

# --- bad arguments: status 2, nothing started ------------------------------
usage_fails() {
	local what=$1 message=$2 rc out
	shift 2
	out=$("$@" 2>&1 </dev/null)
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qE -- "$message" <<<"$out"; then
		ok "series-command: $what: status 2"
	else
		show <<<"$out"
		not_ok "series-command: $what: status $rc (want 2, saying '$message')"
	fi
}
usage_fails "run-bench.sh --suite none without --command" "--suite none runs nothing" \
	./run-bench.sh --no-install --suite none
usage_fails "run-bench.sh --command ''" "an empty command" \
	./run-bench.sh --no-install --command ''
usage_fails "run-bench.sh --command with a newline" "one line" \
	./run-bench.sh --no-install --command "$(printf 'true\ntrue')"
usage_fails "run-bench.sh --census without --boots" "needs --boots and --command" \
	./run-bench.sh --no-install --command true --census data/vm-20261206-051445-census-git
usage_fails "run-bench.sh --census of no census" "no census directory" \
	./run-bench.sh --no-install --boots 2 --command true --census "$PWD/docs"
usage_fails "smapbench run --suite none without --command" "--suite none runs nothing" \
	"$bin" run --suite none
usage_fails "smapbench run --command of blanks" "empty command" \
	"$bin" run --command '   '
usage_fails "smapbench workload without --census" "needs --census" \
	"$bin" workload "$PWD/docs"
usage_fails "smapbench workload on a directory without compare.csv" "compare.csv" \
	"$bin" workload tests/fixtures/run-smap --census data/vm-20261206-051445-census-git --kernel 6.1.0-57-amd64

need_guest_tools series-command qemu-system-x86_64 kexec
release=$(debian_kernel 6.1)
if [ -z "$release" ]; then
	not_ok "series-command: Debian's default kernel is not installed (scripts/deps.sh install test)"
	stage_exit
fi
rm -rf "$work"
mkdir -p "$work"

# --- the census of the command, in the guest's kernel -----------------------
# A given pair cost, so that the prediction's arithmetic is checked
# whatever the table knows of this CPU.
start=$SECONDS
"$bin" census --out "$work/census" --kernel "/boot/vmlinuz-$release" --states smap \
	--native-seconds 1 --pair-cycles 40 --ghz 2 -- sh -c "$cmd" \
	>"$work/census.log" 2>&1 </dev/null
rc=$?
census=$(sed -n 's/^census directory: //p' "$work/census.log")
echo "# census of the command: $((SECONDS - start)) s, status $rc"
if [ "$rc" -ne 0 ] || ! [ -f "$census/census.csv" ]; then
	show <"$work/census.log"
	not_ok "series-command: the census of '$cmd' (status $rc)"
	stage_exit
fi
ok "series-command: the census of '$cmd' in $release"

# --- a census of another kernel is refused, before anything boots ----------
release612=$(debian_kernel 6.12)
if [ -n "$release612" ]; then
	usage_fails "run-bench.sh --vm --kernel $release612 --census of $release" \
		"no census of a command with a SMAP boot of ${release612//+/\\+}" \
		./run-bench.sh --no-install --vm --boots 2 --kernel "/boot/vmlinuz-$release612" \
		--command "$cmd" --census "$census"
else
	not_ok "series-command: Debian's 6.12 kernel is not installed (scripts/deps.sh install test)"
fi
usage_fails "run-bench.sh --vm --bench-census of a command's census" \
	"no census of the benchmarks with a SMAP boot of $release" \
	./run-bench.sh --no-install --vm --boots 2 --bench-census "$census"

# --- the series ---------------------------------------------------------------
series_in() {
	local d found=""
	for d in "$1"/vm-series-*/; do
		[ -d "$d" ] && found=${d%/}
	done
	echo "$found"
}
# Rows of 0, 1, 2, 3 and 6 windows a call: enough for beta, and short.
rows='^syscall/(getppid|read/tmpfs/1|write/tmpfs/1|poll/64fds|sendto_recvfrom/udp/1)$'
start=$SECONDS
./run-bench.sh --vm --boots 2 --quick --suite syscall --filter "$rows" --command "$cmd" \
	--census "$census" --no-install --out "$work/ok" >"$work/ok.log" 2>&1 </dev/null
rc=$?
echo "# series of 2 boots with the command: $((SECONDS - start)) s, status $rc"
dir=$(series_in "$work/ok")
if [ "$rc" -ne 0 ] || [ -z "$dir" ] || ! grep -q '^done' "$dir/status"; then
	show 40 <"$work/ok.log"
	not_ok "series-command: the series ended done (status $rc: $(cat "$dir/status" 2>/dev/null))"
	stage_exit
fi
ok "series-command: 2 boots, done: $(cat "$dir/status")"

sum=$(printf '%s' "$cmd" | sha256sum | cut -d' ' -f1)
row=command/sha256sum-etc-services-dev-null-${sum:0:8}
bad=0
for run in "$dir"/runs/*/; do
	run=${run%/}
	# every execution wrote to the log: empty lines would not show, so
	# count them through the samples: warm-up and sizing come on top
	executions=$(awk -F, -v r="$row" '$1 == r { n += $4 } END { print n + 0 }' "$run/samples.csv")
	if ! grep -qx "command_sha256,$sum" "$run/context.csv" ||
		! grep -qx "command_status,ok" "$run/context.csv" ||
		! grep -q "^$row,command," "$run/results.csv" ||
		[ "$(tail -n +2 "$run/results.csv" | wc -l)" -ne 6 ] ||
		! [ -f "$run/command.log" ] || [ "$executions" -lt 15 ] ||
		! grep -q "^| $row " "$run/report.md"; then
		bad=$((bad + 1))
		show <"$run/context.csv"
	fi
done
if [ "$bad" -eq 0 ]; then
	ok "series-command: each boot's run has the five syscall rows and $row, 15 or more executions, command_status ok, the command's sum, its log, and its report.md heads with it"
else
	not_ok "series-command: $bad runs without the command's row, sum, status or log"
fi
if grep -q "^$row," "$dir/compare-all/compare.csv" &&
	grep -q "$row" "$dir/report.md"; then
	ok "series-command: the row compared over both boots (compare-all) and in the series' report"
else
	not_ok "series-command: no comparison of $row in compare-all"
fi

# beta, fitted over all boots from the census of the guest kernel's
# benchmarks the series found or took, in the series' report, naming it
used=$(sed -n "s/^run-bench.sh: VM mode: census of the benchmarks on $release, for beta: \(reused\|taken,\) //p" "$work/ok.log")
if [ -n "$used" ] &&
	awk -F, -v k="$release" '$1 == k && $2 == "smap" { n++ } END { exit !n }' "$used/census.csv" &&
	cmp -s "$used/census.csv" "$dir/census-bench/census.csv" &&
	grep -qF "copied at the start from $used" "$dir/report.md"; then
	ok "series-command: the series took in the census of $release's benchmarks, $used, and its report names it"
else
	show <<<"$(grep -i census "$work/ok.log")"
	not_ok "series-command: no census of $release's benchmarks in the series, or its report does not name it ('$used')"
fi
beta=$(grep -E '^[AB] - [AB] = alpha x [AB] \+ beta x windows over [0-9]+ syscall and kapi rows .*beta = ' "$dir/report.md")
if [ -n "$beta" ] && ! grep -q 'not fitted' "$dir/report.md" &&
	grep -qx 'beta,.*' "$dir/compare-all/pair-fit.csv" 2>/dev/null &&
	grep -q "under QEMU's emulator (TCG): beta and inline - nopad are emulated" "$dir/report.md"; then
	ok "series-command: the series' report fits beta and says it is emulated: ${beta#*: }"
else
	show <"$dir/report.md"
	not_ok "series-command: the series' report has no fitted beta (or says 'not fitted')"
fi

# workload.csv: pairs x 40 cycles at 2 GHz for the census's own figure
wl=$dir/compare-all/workload.csv
pairs=$(awk -F, -v c="$(csv_column model_pairs "$census/census.csv")" 'NR == 2 { print $c }' "$census/census.csv")
if [ -f "$wl" ] && [ "$(tail -n +2 "$wl" | wc -l)" -eq 3 ]; then
	ok "series-command: workload.csv, a row per pair cost (module, series, census)"
else
	not_ok "series-command: no workload.csv of three rows in compare-all"
fi
got=$(awk -F, -v s="$(csv_column source "$wl")" -v p="$(csv_column predicted_ns "$wl")" \
	'$s == "census" { print $p }' "$wl" 2>/dev/null)
if [ -n "$pairs" ] && [ -n "$got" ] &&
	awk -v g="$got" -v p="$pairs" 'BEGIN { w = p * 40 / 2; exit !(g > w * 0.9999 && g < w * 1.0001) }'; then
	ok "series-command: predicted from the census, $pairs pairs x 40 cycles at 2 GHz = $got ns"
else
	show <"$wl"
	not_ok "series-command: the census's prediction '$got' ns is not $pairs pairs x 40 cycles at 2 GHz"
fi
verdict=$(awk -F, -v s="$(csv_column source "$wl")" -v v="$(csv_column verdict "$wl")" \
	'$s == "census" { print $v }' "$wl" 2>/dev/null)
if grep -q "What SMAP costs the command" "$dir/report.md" &&
	grep -q "under QEMU's emulator" "$dir/compare-all/workload.md" &&
	[ -s "$dir/compare-all/plots/workload.png" ] && [ -n "$verdict" ]; then
	ok "series-command: the report sets measured beside predicted (census: $verdict), says it is emulated, and draws them"
else
	not_ok "series-command: report.md, workload.md's TCG line or plots/workload.png missing"
fi
# the series is published as a directory: its reports name its own files
# relative to it, never where it lay while it ran (the guest's share) or
# where it lies now
leaks=$(grep -lF -e '/run/smapbench/runs/' -e "$dir/" "$dir/report.md" "$dir"/compare-*/report.md \
	"$dir"/compare-all/workload.* "$dir"/compare-all/pair-fit.csv 2>/dev/null)
if [ -z "$leaks" ]; then
	ok "series-command: its reports name the series' files relative to it"
else
	grep -nF -e '/run/smapbench/runs/' -e "$dir/" $leaks | head -5 | show
	not_ok "series-command: absolute paths of the series in ${leaks//$'\n'/ }"
fi

# --- a command that fails ends the series on its first boot -----------------
start=$SECONDS
./run-bench.sh --vm --boots 2 --quick --suite none --command 'echo failing; exit 3' \
	--no-install --out "$work/fail" >"$work/fail.log" 2>&1 </dev/null
rc=$?
echo "# series whose command fails: $((SECONDS - start)) s, status $rc"
dir=$(series_in "$work/fail")
run=$(ls -d "$dir"/runs/*/ 2>/dev/null | head -n 1)
if [ "$rc" -ne 0 ] && [ -n "$dir" ] && grep -q '^failed at boot 1 of 2' "$dir/status" &&
	[ "$(tail -n +2 "$dir/boots.csv" | wc -l)" -eq 0 ] &&
	[ "$(tail -n 1 "$dir/final.csv" | sed 's/.*,//')" = 1 ]; then
	ok "series-command: a failing command ends the series at boot 1, on the original command line ($(cat "$dir/status"))"
else
	show 40 <"$work/fail.log"
	not_ok "series-command: a failing command: status $rc, series '$(cat "$dir/status" 2>/dev/null)'"
fi
# without --census the series tried to take the command's census, which
# failed at its native run, and went on without a prediction
if grep -q "VM mode: taking the census of the command on $release" "$work/fail.log" &&
	grep -q 'warning: the census of the command failed' "$work/fail.log"; then
	ok "series-command: without --census it took the command's census on $release; that failed, and the series went on without"
else
	not_ok "series-command: without --census, no attempt at the command's census (or no warning when it failed)"
fi
if [ -n "$run" ] && grep -q '^command_status,failed: the command exited with status 3' "$run/context.csv" &&
	grep -qx failing "$run/command.log"; then
	ok "series-command: its run is kept, saying why, with the command's output"
else
	not_ok "series-command: no kept run with command_status and command.log"
fi
stage_exit
