#!/bin/bash
# The statistics of `compare` against ground truth on this machine, at the
# level users compare: separate invocations of `smapbench run --suite
# syscall` with the default settings, back to back, in PAIRS pairs
# (SMAPBENCH_AA_PAIRS, default 3).
#  - A/A: each pair compared. Nothing differs but what differs between
#    two invocations, so across the pairs at most 5% of the rows may be
#    called faster or slower. A pair where the machine itself changed
#    between the two runs is no A/A: another job that starts on the other
#    CPU slows every system call by 15-50% at once. Such a pair shows it
#    as a shift of (nearly) every row the same way: when at least 90% of
#    the rows moved in one direction by a median of more than the 2%
#    noise floor (under the null about 1 in 10^5 for independent rows),
#    the pair is taken again, at most twice, and said so.
#  - rerun coverage: the second run's center lies inside the first run's
#    95% interval (results.csv) for at least 80% of the rows. Two
#    estimates of equal precision give 83-95%, depending on the
#    repetitions: an interval that misses the variation between
#    invocations gives far less (38% before the repetitions ran in
#    processes of their own).
#  - an injected cost: the second run of the first pair with a known cost
#    added to every sample of every row (6 sd of the noisier run's
#    repetition medians, at least 10% of the row): at least 90% of the
#    rows must be called slower, none faster, and the interval must hold
#    the cost for at least 80% of the rows.
#  - a real cost: syscall/getppid_adds/N is getppid plus a chain of N
#    dependent adds, whose cost syscall/adds/N measures alone in the same
#    run. Compared as two runs of one benchmark (getppid against
#    getppid_adds), the verdict must be "slower" and the delta must be
#    the chain's cost within a factor 1.5: the out-of-order core overlaps
#    part of the chain with the syscall's return, so the delta is not the
#    standalone chain exactly.
# The simulation with known truth is tests/unit/test_simulation.c, run
# here too. About 3 minutes on an idle 2-core machine.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

bin=${SMAPBENCH:-build/smapbench}
build=${BUILD:-build}
pairs=${SMAPBENCH_AA_PAIRS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! make -s smapbench unit-tests >/dev/null 2>&1 || [ ! -x "$bin" ]; then
	not_ok "build smapbench and the unit tests (make smapbench unit-tests)"
	exit 1
fi

cmocka_tap simulation "$build/tests/unit/test_simulation"

# column NAME FILE: the index of a CSV header column
column() { head -n 1 "$2" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }

# verdicts FILE: "verdict count" lines of a compare.csv
verdicts() {
	awk -F, -v v="$(column verdict "$1")" 'NR > 1 { n[$v]++ }
		END { for (k in n) printf "%s %d\n", k, n[k] }' "$1" | sort
}

# invoke NAME: one default run of the syscall suite into $tmp/NAME
invoke() {
	"$bin" run --suite syscall --out "$tmp/$1" --run-dir-file "$tmp/$1.dir" \
		>"$tmp/$1.out" 2>&1 && [ -s "$tmp/$1.dir" ]
}

# shifted CSV: "share median" of compare.csv's rows: the share that moved
# the majority's way, and the median of |relative| in percent
shifted() {
	awk -F, -v r="$(column relative "$1")" 'NR > 1 && $r != "" {
			n++; up += $r > 0; a[n] = $r < 0 ? -$r : $r }
		END {
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			printf "%.2f %.1f\n", (up > n - up ? up : n - up) / n, 100 * m
		}' "$1"
}

rows=0 called=0 covered=0 compared=0 retaken=0 start=$SECONDS
for p in $(seq 1 "$pairs"); do
	for attempt in 1 2 3; do
		if ! invoke "a$p" || ! invoke "b$p"; then
			not_ok "run --suite syscall, pair $p"
			show <"$tmp/a$p.out"
			show <"$tmp/b$p.out" 2>/dev/null
			stage_exit
		fi
		a=$(cat "$tmp/a$p.dir") b=$(cat "$tmp/b$p.dir")
		rm -rf "$tmp/aa$p"
		if ! "$bin" compare "$a" "$b" --no-plots --out "$tmp/aa$p" \
			>"$tmp/aa$p.out" 2>&1; then
			not_ok "compare of pair $p"
			show <"$tmp/aa$p.out"
			stage_exit
		fi
		read -r share median <<<"$(shifted "$tmp/aa$p/compare.csv")"
		if [ "$attempt" -lt 3 ] &&
			awk -v s="$share" -v m="$median" 'BEGIN { exit !(s >= 0.9 && m > 2) }'; then
			echo "# pair $p taken again: $(awk -v s="$share" 'BEGIN { printf "%.0f", 100 * s }')% of the rows moved one way, by a median of $median%: the machine changed between the runs"
			retaken=$((retaken + 1))
			rm -rf "$tmp/a$p" "$tmp/b$p"
			continue
		fi
		break
	done
	csv=$tmp/aa$p/compare.csv
	read -r n c <<<"$(awk -F, -v v="$(column verdict "$csv")" \
		'NR > 1 { n++; c += $v == "faster" || $v == "slower" } END { print n, c + 0 }' "$csv")"
	rows=$((rows + n)) called=$((called + c))
	# the second run's center against the first run's interval
	ra=$a/results.csv rb=$b/results.csv
	read -r k m <<<"$(awk -F, -v c="$(column center "$ra")" -v l="$(column ci_low "$ra")" \
		-v h="$(column ci_high "$ra")" 'FNR == 1 { next }
		NR == FNR { lo[$1] = $l; hi[$1] = $h; next }
		$1 in lo { m++; k += lo[$1] <= $c && $c <= hi[$1] } END { print k + 0, m + 0 }' "$ra" "$rb")"
	covered=$((covered + k)) compared=$((compared + m))
	echo "# pair $p: $c of $n rows called faster/slower, rerun coverage $k of $m, rows moved one way $share, median |B-A| $median% (load $(cut -d' ' -f1 /proc/loadavg))"
	[ "$c" -gt 0 ] && awk -F, -v v="$(column verdict "$csv")" -v r="$(column relative "$csv")" \
		'NR > 1 && ($v == "faster" || $v == "slower") { printf "#   %s %s %+.1f%%\n", $1, $v, 100 * $r }' "$csv"
done
echo "# $((pairs * 2 + retaken * 2)) invocations in $((SECONDS - start)) s, $retaken pairs taken again"

rate=$(awk -v c="$called" -v n="$rows" 'BEGIN { printf "%.1f", 100 * c / n }')
what="A/A across $pairs pairs of invocations: $called of $rows rows faster/slower ($rate%, limit 5%)"
if [ "$rows" -gt 0 ] && [ $((called * 100)) -le $((rows * 5)) ]; then
	ok "$what"
else
	not_ok "$what"
fi
rate=$(awk -v c="$covered" -v n="$compared" 'BEGIN { printf "%.1f", 100 * c / n }')
what="rerun coverage: $covered of $compared second-run centers inside the first run's 95% interval ($rate%, at least 80%)"
if [ "$compared" -gt 0 ] && [ $((covered * 100)) -ge $((compared * 80)) ]; then
	ok "$what"
else
	not_ok "$what"
fi

# --- a cost injected into the samples ---------------------------------------------
# per row: 6 sd of the repetition medians of the noisier run, at least 10%
# of the first run's center, added to every sample of the second run
a=$(cat "$tmp/a1.dir") b=$(cat "$tmp/b1.dir")
awk -F, 'FNR > 1 { h = FILENAME == ARGV[1] ? 0 : 1; v[h, $1, $2] = v[h, $1, $2] " " $5
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
	}' "$a/samples.csv" "$b/samples.csv" >"$tmp/injected.csv"
mkdir -p "$tmp/plus"
cp "$b/context.csv" "$b/results.csv" "$tmp/plus/"
awk -F, -v OFS=, 'NR == FNR { c[$1] = $2; next }
	FNR == 1 { print; next } { $5 = $5 + c[$1]; print }' \
	"$tmp/injected.csv" "$b/samples.csv" >"$tmp/plus/samples.csv"
if ! "$bin" compare "$a" "$tmp/plus" --no-plots --out "$tmp/pc" \
	>"$tmp/pc.out" 2>&1; then
	not_ok "compare of a run against the next one plus a known cost"
	show <"$tmp/pc.out"
else
	csv=$tmp/pc/compare.csv
	read -r n slower faster held <<<"$(awk -F, -v v="$(column verdict "$csv")" \
		-v l="$(column ci_low "$csv")" -v h="$(column ci_high "$csv")" \
		'NR == FNR { c[$1] = $2; next }
		FNR > 1 { n++; s += $v == "slower"; f += $v == "faster"
			held += $l <= c[$1] && c[$1] <= $h }
		END { print n, s, f + 0, held }' "$tmp/injected.csv" "$csv")"
	what="injected cost: $slower of $n rows slower, $faster faster, $held intervals hold the cost"
	if [ "$n" -gt 0 ] && [ "$faster" -eq 0 ] &&
		[ $((slower * 100)) -ge $((n * 90)) ] &&
		[ $((held * 100)) -ge $((n * 80)) ]; then
		ok "$what"
	else
		not_ok "$what (needs 90% of the rows slower, none faster, 80% held)"
		verdicts "$csv" | show
	fi
fi
if [ -s "$tmp/aa1/compare-settings.csv" ] &&
	grep -q '^ci_method,Welch' "$tmp/aa1/compare-settings.csv" &&
	grep -q '^margin,' "$tmp/aa1/compare-settings.csv"; then
	ok "compare-settings.csv records the method and the noise floor"
else
	not_ok "compare-settings.csv missing, or without the method or the margin"
fi

# --- a real injected cost: getppid plus a chain of adds ----------------------------
csv=$tmp/aa1/compare.csv
chain=$(awk -F, -v c="$(column center_a "$csv")" -v d="$(column center_b "$csv")" \
	'$1 ~ /^syscall\/adds\// { print ($c + $d) / 2 }' "$csv")
# as_control OP DIR: the first run with OP's rows renamed syscall/control
as_control() {
	mkdir -p "$2"
	cp "$a/context.csv" "$2/"
	awk -F, -v OFS=, -v op="$1" 'NR == 1 || $1 == op { if (NR > 1) $1 = "syscall/control"; print }' \
		"$a/results.csv" >"$2/results.csv"
	awk -F, -v OFS=, -v op="$1" 'NR == 1 || $1 == op { if (NR > 1) $1 = "syscall/control"; print }' \
		"$a/samples.csv" >"$2/samples.csv"
}
as_control syscall/getppid "$tmp/base"
as_control "$(awk -F, '$1 ~ /^syscall\/getppid_adds\// { print $1 }' "$a/results.csv")" \
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
