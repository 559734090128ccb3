#!/bin/bash
# `smapbench plan` on real runs: the two SMAP-off boots of the published
# QEMU series (data/, recorded before runs had a boot_id, so the copies
# here are given theirs). The planner itself is tested in
# tests/unit/test_series_plan.c (stage unit): against a brute-force
# search, the continuous optimum and a simulation. Here: the command
# prints a plan that reaches the target within the boots allowed; with
# too few boots allowed for any design, it says so, exit status 1, and
# names that very plan as what the precision needs (it is the cheapest
# of all, so the cheapest with more boots than allowed); each bad
# argument is status 2 with a message naming it, runs of one boot
# status 1; --phases takes a series' measured costs (worked out here by
# hand) and refuses a phases.csv no series writes, status 1. A few
# seconds.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

bin=${SMAPBENCH:-build/smapbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! make -s smapbench >/dev/null 2>&1 || [ ! -x "$bin" ]; then
	not_ok "build smapbench (make smapbench)"
	exit 1
fi

for state in clearcpuid cpu-model; do
	cp -r "data/vm-6.1.0-57-amd64-20261203-173441-$state-nosmap" "$tmp/$state"
	echo "boot_id,boot-$state" >>"$tmp/$state/context.csv"
done
runs=("$tmp/clearcpuid" "$tmp/cpu-model")
rows='^syscall/(getppid|futex/wake)$'
# these two TCG boots differ by about 22% (sigma_boot), so 15% is within
# the 64 boots allowed by default, 10% is not
target=15

out=$("$bin" plan "${runs[@]}" --precision "$target%" --rows "$rows" 2>&1)
rc=$?
read -r boots k r hw <<<"$(sed -n 's/^plan: \([0-9]*\) boots ([0-9]* a state), \([0-9]*\) invocations* a boot, \([0-9]*\) repetitions an invocation: \([0-9.]*\)%.*/\1 \2 \3 \4/p' <<<"$out")"
if [ "$rc" -eq 0 ] && [ -n "${boots:-}" ] && [ $((boots % 2)) -eq 0 ] &&
	[ "$boots" -le 64 ] && [ "$k" -eq 1 ] && [ "$r" -ge 3 ] &&
	awk -v h="$hw" -v t="$target" 'BEGIN { exit !(h <= t) }'; then
	ok "plan: $boots boots x $k x $r repetitions, +-$hw% for a target of $target%"
else
	not_ok "plan of two rows at $target%: status $rc"
	show <<<"$out"
fi
grep -q "sigma_rep of the 2 chosen rows" <<<"$out" &&
	grep -q "the runs' timed samples, a lower bound" <<<"$out" &&
	grep -q "Kalibera and Jones's continuous optimum" <<<"$out"
check "the plan says what it rests on: the rows, where each cost came from, the continuous optimum" \
	test $? -eq 0

if [ -n "${boots:-}" ] && [ "$boots" -gt 4 ]; then
	# sigma_boot about 22%: 4 boots give +-70% at best
	limit=4
	out=$("$bin" plan "${runs[@]}" --precision "$target%" --rows "$rows" --max-boots "$limit" 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "^NO PLAN within $limit boots" <<<"$out" &&
		grep -q "needs $boots boots ($((boots / 2)) a state), $k invocation a boot, $r repetitions" <<<"$out"; then
		ok "--max-boots $limit: no plan, status 1, and what $target% needs: the plan of $boots boots"
	else
		not_ok "--max-boots $limit: status $rc"
		show <<<"$out"
	fi
fi

# each bad argument: status 2, before any run is read, and the message
# names what was wrong (the option, or the runs missing)
usage() {
	local what=$1 says=$2 out rc
	shift 2
	out=$("$bin" plan "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "^smapbench plan: .*$says" <<<"$out"; then
		ok "bad usage, status 2: $what"
	else
		not_ok "bad usage ($what): status $rc"
		show <<<"$out"
	fi
}
usage "--precision 0" "--precision '0'" "${runs[@]}" --precision 0
usage "--precision 1x" "--precision '1x'" "${runs[@]}" --precision 1x
usage "--precision 60%" "--precision '60%'" "${runs[@]}" --precision 60%
usage "--precision without a value" "option '--precision' needs a value" "${runs[@]}" --precision
usage "--max-boots 1" "--max-boots '1'" "${runs[@]}" --max-boots 1
usage "--max-boots 2.5" "--max-boots '2.5'" "${runs[@]}" --max-boots 2.5
usage "--max-invocations 0" "--max-invocations '0'" "${runs[@]}" --max-invocations 0
usage "--max-repetitions 2" "--max-repetitions '2'" "${runs[@]}" --max-repetitions 2
usage "--repetition-seconds 0" "--repetition-seconds '0'" "${runs[@]}" --repetition-seconds 0
usage "--boot-seconds -5" "--boot-seconds '-5'" "${runs[@]}" --boot-seconds -5
usage "--series-seconds nan" "--series-seconds 'nan'" "${runs[@]}" --series-seconds nan
usage "one run" "needs two or more runs" "${runs[0]}"
usage "no run" "needs two or more runs"
usage "an unknown option" "unknown option '--boots'" "${runs[@]}" --boots 4

# --phases: the costs a series measured, each saying so; a phases.csv
# that is not a series' is refused, status 1, naming its line
{
	echo "step,phase,started,seconds,clock"
	echo "1,start,1000,4,wall"
	echo "1,check,1004,1,uptime"
	echo "1,settle,1005,3,uptime"
	echo "1,run,1008,600,uptime"
	echo "1,record,1608,2,uptime"
	echo "2,handover,1610,10,wall"
	echo "2,boot,1620,20,uptime"
	echo "2,check,1640,1,uptime"
	echo "2,settle,1641,3,uptime"
	echo "2,run,1644,600,uptime"
	echo "2,record,2244,2,uptime"
	echo "end,compare,2246,30,uptime"
} >"$tmp/phases.csv"
out=$("$bin" plan "${runs[@]}" --precision "$target%" --rows "$rows" --phases "$tmp/phases.csv" 2>&1)
rc=$?
# a boot (4 + 1 + 3 + 10 + 20 + 1 + 3) / 2 = 21 s, the end 30 s
if [ "$rc" -eq 0 ] &&
	grep -q '^  a boot         21.0 s     measured: phases.csv, 2 boots (1 after a reboot)' <<<"$out" &&
	grep -q '^  an invocation  .*measured: phases.csv, 2 runs of 602.0 s less the runs. timed ' <<<"$out" &&
	grep -q '^  the end        30.0 s     measured: phases.csv.s end: comparisons (the return not recorded yet)' <<<"$out"; then
	ok "--phases: a boot's, an invocation's and the end's costs measured, each said so"
else
	not_ok "--phases: status $rc"
	show <<<"$out"
fi
sed -i 's/^2,boot,1620,20,uptime$/2,boot,1620,-20,uptime/' "$tmp/phases.csv"
out=$("$bin" plan "${runs[@]}" --rows "$rows" --phases "$tmp/phases.csv" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q "^smapbench plan: --phases: $tmp/phases.csv:8: started '1620' and seconds '-20'" <<<"$out"; then
	ok "--phases: a phases.csv no series writes is refused, status 1, with its line"
else
	not_ok "--phases of a duration below 0: status $rc"
	show <<<"$out"
fi

cp -r "$tmp/clearcpuid" "$tmp/same-boot"
out=$("$bin" plan "${runs[0]}" "$tmp/same-boot" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q "all of one boot" <<<"$out"; then
	ok "runs of one boot: status 1, no boot variance to plan from"
else
	not_ok "runs of one boot: status $rc"
	show <<<"$out"
fi
stage_exit
