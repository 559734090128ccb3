#!/bin/bash
# The statistics of `compare` against ground truth on this machine:
#  - A/A: two runs of the syscall suite back to back, compared. Nothing
#    differs but chance, so at most 5% of the rows may be called faster
#    or slower.
#  - positive control: syscall/getppid_adds/N is getppid plus a chain of
#    N dependent adds, whose cost syscall/adds/N measures alone in the
#    same run. Compared as two runs of one benchmark (getppid against
#    getppid_adds), the verdict must be "slower" and the CI must hold
#    the chain's cost.
# The simulation with known truth is tests/unit/test_compare.c. About
# 30 s on an idle machine.
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

# 6 repetitions a side: a permutation test of 6 + 6 can reach p = 0.002,
# 3 + 3 (--quick's default) never goes below 0.1.
runs=()
for side in a b; do
	if ! "$bin" run --suite syscall --quick --repetitions 6 --out "$tmp/$side" \
		>"$tmp/$side.out" 2>&1; then
		not_ok "run --suite syscall --quick ($side)"
		show <"$tmp/$side.out"
		exit 1
	fi
	runs+=("$(sed -n 's/^run directory: //p' "$tmp/$side.out")")
done

# column NAME FILE: the index of a CSV header column
column() { head -n 1 "$2" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }

if ! "$bin" compare "${runs[0]}" "${runs[1]}" --no-plots --out "$tmp/aa" \
	>"$tmp/aa.out" 2>&1; then
	not_ok "compare of the two runs"
	show <"$tmp/aa.out"
	exit 1
fi
csv=$tmp/aa/compare.csv
v=$(column verdict "$csv")
read -r rows called <<<"$(awk -F, -v v="$v" 'NR > 1 { n++; c += $v == "faster" || $v == "slower" }
	END { print n, c + 0 }' "$csv")"
rate=$(awk -v c="$called" -v n="$rows" 'BEGIN { printf "%.1f", 100 * c / n }')
load=$(cut -d' ' -f1 /proc/loadavg)
if [ "$rows" -gt 0 ] && [ $((called * 100)) -le $((rows * 5)) ]; then
	ok "A/A: $called of $rows rows faster/slower ($rate%, limit 5%; load $load)"
else
	not_ok "A/A: $called of $rows rows faster/slower ($rate%, limit 5%; load $load)"
	grep -E 'Verdicts|rows were tested' "$tmp/aa.out" | show
fi
if [ -s "$tmp/aa/compare-settings.csv" ] &&
	grep -q '^seed,' "$tmp/aa/compare-settings.csv"; then
	ok "compare-settings.csv records the seed and method"
else
	not_ok "compare-settings.csv missing or without a seed"
fi

# --- positive control ---------------------------------------------------------
run=${runs[0]}
injected=$(awk -F, -v c="$(column center_a "$csv")" \
	'$1 ~ /^syscall\/adds\// { print $c }' "$csv")
# as_control OP DIR: the run with OP's rows renamed syscall/control
as_control() {
	mkdir -p "$2"
	cp "$run/context.csv" "$2/"
	awk -F, -v OFS=, -v op="$1" 'NR == 1 || $1 == op { if (NR > 1) $1 = "syscall/control"; print }' \
		"$run/results.csv" >"$2/results.csv"
	awk -F, -v OFS=, -v op="$1" 'NR == 1 || $1 == op { if (NR > 1) $1 = "syscall/control"; print }' \
		"$run/samples.csv" >"$2/samples.csv"
}
as_control syscall/getppid "$tmp/base"
as_control "$(awk -F, '$1 ~ /^syscall\/getppid_adds\// { print $1 }' "$run/results.csv")" \
	"$tmp/plus"
if [ -z "$injected" ] ||
	! "$bin" compare "$tmp/base" "$tmp/plus" --no-plots --out "$tmp/pc" >"$tmp/pc.out" 2>&1; then
	not_ok "positive control: compare of getppid against getppid_adds"
	show <"$tmp/pc.out"
else
	pc=$tmp/pc/compare.csv
	read -r delta low high verdict <<<"$(awk -F, -v d="$(column delta "$pc")" \
		-v l="$(column ci_low "$pc")" -v h="$(column ci_high "$pc")" \
		-v v="$(column verdict "$pc")" 'NR == 2 { print $d, $l, $h, $v }' "$pc")"
	what="positive control: B-A $delta [$low, $high] ticks, injected $injected, verdict $verdict"
	if [ "$verdict" = slower ] &&
		awk -v l="$low" -v h="$high" -v x="$injected" 'BEGIN { exit !(l <= x && x <= h) }'; then
		ok "$what"
	else
		not_ok "$what (needs slower and the CI to hold the injected cost)"
	fi
fi
stage_exit
