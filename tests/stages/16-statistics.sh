#!/bin/bash
# The statistics of `compare` against ground truth on this machine, from
# one run of the syscall suite with 12 repetitions, split into its even
# and odd repetitions: two halves of one boot, interleaved in time, so a
# drift of the machine (another job starting) falls on both alike.
#  - A/A: the halves compared. Nothing differs but chance, so at most 5%
#    of the rows may be called faster or slower.
#  - injected cost: the odd half with a known cost added to every sample
#    of every row (6 sd of the noisier half's repetition medians, at
#    least 10% of the row): at least 90% of the rows must be called
#    slower, none faster. Whether an interval holds the cost is whether
#    the A/A interval of that row holds 0: that share is printed, and
#    must be at least 70%. The intervals are 95% ones, and hold 97% in
#    the simulation of tests/unit/test_compare.c, but real short runs
#    have heavier tails than that simulation: 24 to 28 of 29 (83-97%)
#    were seen here.
#  - a real injected cost: syscall/getppid_adds/N is getppid plus a chain
#    of N dependent adds, whose cost syscall/adds/N measures alone in the
#    same run. Compared as two runs of one benchmark (getppid against
#    getppid_adds), the verdict must be "slower" and the delta must be
#    the chain's cost within a factor 1.5: the out-of-order core overlaps
#    part of the chain with the syscall's return, so the delta is not the
#    standalone chain exactly.
# The simulation with known truth is tests/unit/test_compare.c. About
# 10 s on an idle machine.
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

# 6 repetitions a half: a permutation test of 6 + 6 can reach p = 0.002,
# 3 + 3 (--quick's default) never goes below 0.1.
if ! "$bin" run --suite syscall --quick --repetitions 12 --out "$tmp/run" \
	>"$tmp/run.out" 2>&1; then
	not_ok "run --suite syscall --quick --repetitions 12"
	show <"$tmp/run.out"
	exit 1
fi
run=$(sed -n 's/^run directory: //p' "$tmp/run.out")
load=$(cut -d' ' -f1 /proc/loadavg)

# column NAME FILE: the index of a CSV header column
column() { head -n 1 "$2" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }

# half PARITY DIR: the run's even (0) or odd (1) repetitions as a run of
# their own, renumbered 0, 1, ...
half() {
	mkdir -p "$2"
	cp "$run/context.csv" "$run/results.csv" "$2/"
	awk -F, -v OFS=, -v p="$1" 'NR == 1 || $2 % 2 == p { if (NR > 1) $2 = int($2 / 2); print }' \
		"$run/samples.csv" >"$2/samples.csv"
}
half 0 "$tmp/even"
half 1 "$tmp/odd"

# verdicts FILE: "verdict count" lines of a compare.csv
verdicts() {
	awk -F, -v v="$(column verdict "$1")" 'NR > 1 { n[$v]++ }
		END { for (k in n) printf "%s %d\n", k, n[k] }' "$1" | sort
}

# --- A/A -----------------------------------------------------------------------
if ! "$bin" compare "$tmp/even" "$tmp/odd" --no-plots --out "$tmp/aa" \
	>"$tmp/aa.out" 2>&1; then
	not_ok "compare of the two halves"
	show <"$tmp/aa.out"
	exit 1
fi
csv=$tmp/aa/compare.csv
v=$(column verdict "$csv")
read -r rows called <<<"$(awk -F, -v v="$v" 'NR > 1 { n++; c += $v == "faster" || $v == "slower" }
	END { print n, c + 0 }' "$csv")"
rate=$(awk -v c="$called" -v n="$rows" 'BEGIN { printf "%.1f", 100 * c / n }')
what="A/A: $called of $rows rows faster/slower ($rate%, limit 5%; load $load)"
if [ "$rows" -gt 0 ] && [ $((called * 100)) -le $((rows * 5)) ]; then
	ok "$what"
else
	not_ok "$what"
	verdicts "$csv" | show
fi
if [ -s "$tmp/aa/compare-settings.csv" ] &&
	grep -q '^seed,' "$tmp/aa/compare-settings.csv"; then
	ok "compare-settings.csv records the seed and method"
else
	not_ok "compare-settings.csv missing or without a seed"
fi

# --- a cost injected into the samples ---------------------------------------------
# per row: 6 sd of the repetition medians of the noisier half, at least
# 10% of the even half's mean, added to every odd sample
awk -F, 'FNR > 1 { h = FILENAME ~ /even/ ? 0 : 1; v[h, $1, $2] = v[h, $1, $2] " " $5
		names[$1] = 1; if ($2 + 1 > reps[h, $1]) reps[h, $1] = $2 + 1 }
	END {
		for (n in names) {
			c = 0
			for (h = 0; h < 2; h++) {
				s = ss = 0
				for (r = 0; r < reps[h, n]; r++) {
					k = split(v[h, n, r], x, " ")
					for (i = 1; i <= k; i++)
						for (j = i + 1; j <= k; j++)
							if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
					m = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
					s += m; ss += m * m
				}
				mean = s / reps[h, n]
				sd = sqrt((ss - reps[h, n] * mean * mean) / (reps[h, n] - 1))
				if (6 * sd > c) c = 6 * sd
				if (!h) floor = 0.1 * mean
			}
			printf "%s,%.10g\n", n, c < floor ? floor : c
		}
	}' "$tmp/even/samples.csv" "$tmp/odd/samples.csv" >"$tmp/injected.csv"
mkdir -p "$tmp/plus"
cp "$tmp/odd/context.csv" "$tmp/odd/results.csv" "$tmp/plus/"
awk -F, -v OFS=, 'NR == FNR { c[$1] = $2; next }
	FNR == 1 { print; next } { $5 = $5 + c[$1]; print }' \
	"$tmp/injected.csv" "$tmp/odd/samples.csv" >"$tmp/plus/samples.csv"
if ! "$bin" compare "$tmp/even" "$tmp/plus" --no-plots --out "$tmp/pc" \
	>"$tmp/pc.out" 2>&1; then
	not_ok "compare of the even half against the odd half plus a known cost"
	show <"$tmp/pc.out"
else
	csv=$tmp/pc/compare.csv
	read -r rows slower faster held <<<"$(awk -F, -v v="$(column verdict "$csv")" \
		-v l="$(column ci_low "$csv")" -v h="$(column ci_high "$csv")" \
		'NR == FNR { c[$1] = $2; next }
		FNR > 1 { n++; s += $v == "slower"; f += $v == "faster"
			held += $l <= c[$1] && c[$1] <= $h }
		END { print n, s, f + 0, held }' "$tmp/injected.csv" "$csv")"
	what="injected cost: $slower of $rows rows slower, $faster faster, $held intervals hold the cost (load $load)"
	if [ "$rows" -gt 0 ] && [ "$faster" -eq 0 ] &&
		[ $((slower * 100)) -ge $((rows * 90)) ] &&
		[ $((held * 100)) -ge $((rows * 70)) ]; then
		ok "$what"
	else
		not_ok "$what (needs 90% of the rows slower, none faster, 70% held)"
		verdicts "$csv" | show
	fi
fi

# --- a real injected cost: getppid plus a chain of adds ----------------------------
csv=$tmp/aa/compare.csv
chain=$(awk -F, -v c="$(column center_a "$csv")" -v d="$(column center_b "$csv")" \
	'$1 ~ /^syscall\/adds\// { print ($c + $d) / 2 }' "$csv")
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
	"$tmp/chain"
if [ -z "$chain" ] ||
	! "$bin" compare "$tmp/base" "$tmp/chain" --no-plots --out "$tmp/real" >"$tmp/real.out" 2>&1; then
	not_ok "real cost: compare of getppid against getppid_adds"
	show <"$tmp/real.out"
else
	csv=$tmp/real/compare.csv
	read -r delta low high verdict <<<"$(awk -F, -v d="$(column delta "$csv")" \
		-v l="$(column ci_low "$csv")" -v h="$(column ci_high "$csv")" \
		-v v="$(column verdict "$csv")" 'NR == 2 { print $d, $l, $h, $v }' "$csv")"
	what="real cost: getppid_adds - getppid $delta [$low, $high] ticks, the chain alone $chain, verdict $verdict"
	if [ "$verdict" = slower ] &&
		awk -v d="$delta" -v x="$chain" 'BEGIN { exit !(d >= x / 1.5 && d <= x * 1.5) }'; then
		ok "$what"
	else
		not_ok "$what (needs slower and the delta within a factor 1.5 of the chain)"
	fi
fi
stage_exit
