#!/bin/bash
# The statistics of `compare` against known truth: the simulation of
# worlds and designs (tests/unit/test_simulation.c: boot variances above
# the assumption, per-row modes, heavy tails; 1x1 to 6x6 boots through
# compare's own path), then ground truth on this machine at the level of
# separate invocations in one boot: RUNS (SMAPBENCH_AA_RUNS, default 6)
# default runs of `smapbench run --suite syscall`, back to back.
#  - one run a side in one boot, no calibration: compare withholds its
#    verdicts, says why and what would do (what moves a whole invocation
#    is in neither run's repetitions). The runs' own intervals are
#    measured against each other (rerun coverage), not judged: they hold
#    what differs between processes of one invocation only.
#  - what invocations differ by, measured: `calibrate` over the first
#    half of the runs (level invocation). With it (neighbours of the
#    second half), and with the runs themselves as units (the odd runs
#    against the even, interleaved, so that what drifts over minutes
#    falls on both sides alike), A/A: at most 5% of the rows called
#    faster or slower, and the interval of B - A holding 0 for at least
#    90%. Rerun coverage (docs/interpreting.md): each run's center of
#    the second half inside another's rerun interval, the calibrated
#    invocation level in it, each run net of its shared shift, at least
#    80%; and that check's own error rates in its model's world.
#  - an injected cost: the odd runs with a known cost added to every
#    sample of the rows with STAC/CLAC inside, none to the bases and
#    controls (6 sd of the noisiest run's repetition medians, at least
#    10% of the row), against the even runs: at least 90% of those rows
#    slower, no row faster, and the interval holding the cost in 80%.
#  - a real cost: syscall/getppid_adds/N is getppid plus a chain of N
#    dependent adds, whose cost syscall/adds/N measures alone. Compared
#    as runs of one benchmark (getppid against getppid_adds, the second
#    half's runs a side), the verdict must be slower and the delta the
#    chain's cost within a factor 1.5 (the core overlaps part of it).
#  - one boot a side without a calibration (the fixtures,
#    --no-calibration): withheld, naming the boots that would do.
# About 5 minutes on an idle 2-core machine, most of it the runs.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

bin=${SMAPBENCH:-build/smapbench}
build=${BUILD:-build}
runs=${SMAPBENCH_AA_RUNS:-6}
half=$((runs / 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! make -s smapbench unit-tests >/dev/null 2>&1 || [ ! -x "$bin" ]; then
	not_ok "build smapbench and the unit tests (make smapbench unit-tests)"
	exit 1
fi
if [ "$half" -lt 3 ]; then
	not_ok "SMAPBENCH_AA_RUNS=$runs: at least 6 runs, 3 a side"
	exit 1
fi

start=$SECONDS
cmocka_tap simulation "$build/tests/unit/test_simulation"
echo "# simulation: $((SECONDS - start)) s"

# calls CSV: "rows called held" of a compare.csv: rows, faster or slower,
# intervals of B - A holding 0
calls() {
	awk -F, -v v="$(csv_column verdict "$1")" -v l="$(csv_column ci_low "$1")" \
		-v h="$(csv_column ci_high "$1")" \
		'NR > 1 { n++; c += $v == "faster" || $v == "slower"; z += $l <= 0 && 0 <= $h }
		END { print n + 0, c + 0, z + 0 }' "$1"
}

# called CSV: the rows called, one comment line each
called() {
	awk -F, -v v="$(csv_column verdict "$1")" -v r="$(csv_column relative "$1")" \
		'NR > 1 && ($v == "faster" || $v == "slower") { printf "#   %s %s %+.1f%%\n", $1, $v, 100 * $r }' "$1"
}

# covered A B [CAL]: "inside rows": how many of B's centers lie inside
# A's intervals (results.csv), widened by CAL's invocation variance
# (calibration.csv) when given (tests/lib/centers-inside.awk).
covered() {
	awk -F, -v c="$(csv_column center "$1/results.csv")" -v l="$(csv_column ci_low "$1/results.csv")" \
		-v h="$(csv_column ci_high "$1/results.csv")" -v r="$(csv_column repetitions "$1/results.csv")" \
		-v cal="${3:-}" -f tests/lib/t-quantile.awk -f tests/lib/calibration.awk \
		-f tests/lib/centers-inside.awk \
		${3:+"$3"} "$1/results.csv" "$2/results.csv"
}

# inject COSTS SRC OUT: SRC's run with COSTS's cost per row (name,cost)
# added to every sample, into OUT
inject() {
	mkdir -p "$3"
	cp "$2/context.csv" "$2/results.csv" "$3/"
	awk -F, -v OFS=, 'NR == FNR { c[$1] = $2; next }
		FNR == 1 { print; next } { $5 = $5 + c[$1]; print }' \
		"$1" "$2/samples.csv" >"$3/samples.csv"
}

# costs DIR...: per row, 6 sd of the noisiest run's repetition medians,
# at least 10% of the rows' mean center
costs() {
	for d in "$@"; do echo "$d/samples.csv"; done | xargs awk -F, '
		FNR == 1 { run++; next }
		{ v[run, $1, $2] = v[run, $1, $2] " " $5; names[$1] = 1
		  if ($2 + 1 > reps[run, $1]) reps[run, $1] = $2 + 1 }
		END {
			for (n in names) {
				c = 0; total = 0
				for (h = 1; h <= run; h++) {
					s = ss = 0
					for (q = 0; q < reps[h, n]; q++) {
						k = split(v[h, n, q], x, " ")
						for (i = 1; i <= k; i++)
							for (j = i + 1; j <= k; j++)
								if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
						m = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
						s += m; ss += m * m
					}
					mean = s / reps[h, n]; total += mean / run
					sd = sqrt((ss - reps[h, n] * mean * mean) / (reps[h, n] - 1))
					if (6 * sd > c) c = 6 * sd
				}
				printf "%s,%.10g\n", n, c < 0.1 * total ? 0.1 * total : c
			}
		}'
}

# --- the runs ---------------------------------------------------------------
start=$SECONDS
for i in $(seq 1 "$runs"); do
	if ! "$bin" run --suite syscall --out "$tmp/$i" --run-dir-file "$tmp/$i.dir" \
		>"$tmp/$i.out" 2>&1 || [ ! -s "$tmp/$i.dir" ]; then
		not_ok "run --suite syscall, invocation $i"
		show <"$tmp/$i.out"
		stage_exit
	fi
	dir[i]=$(cat "$tmp/$i.dir")
done
echo "# $runs invocations in one boot in $((SECONDS - start)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
# the halves interleaved: what drifts over minutes falls on both alike
odd="" even=""
for i in $(seq 1 "$runs"); do
	if [ $((i % 2)) -eq 1 ]; then
		odd=${odd:+$odd,}${dir[i]}
	else
		even=${even:+$even,}${dir[i]}
	fi
done
first=$(IFS=,; echo "${dir[*]:1:$half}")

# --- one run a side in one boot: withheld; the runs' own intervals -----------
out=$tmp/pair.out
if "$bin" compare "${dir[1]}" "${dir[2]}" --no-plots --out "$tmp/pair" >"$out" 2>&1; then
	read -r n c z <<<"$(calls "$tmp/pair/compare.csv")"
	same=$(awk -F, -v v="$(csv_column verdict "$tmp/pair/compare.csv")" 'NR > 1 && $v == "same"' "$tmp/pair/compare.csv" | wc -l)
	what="one run a side in one boot, no calibration: verdicts withheld ($c faster/slower, $same same of $n), the reason and the runs that would do said"
	if [ "$c" -eq 0 ] && [ "$same" -eq 0 ] && grep -q "^Verdicts withheld.*one run a side in one boot.*3 runs a side would do" "$out"; then
		ok "$what"
	else
		show <"$out"
		not_ok "$what"
	fi
else
	show <"$out"
	not_ok "compare of invocations 1 and 2"
fi
k=0 m=0
for i in $(seq 1 $((runs - 1))); do
	read -r k1 m1 <<<"$(covered "${dir[i]}" "${dir[i + 1]}")"
	read -r k2 m2 <<<"$(covered "${dir[i + 1]}" "${dir[i]}")"
	k=$((k + k1 + k2)) m=$((m + m1 + m2))
done
echo "# a run's own interval (its repetitions) held its neighbour's center for $k of $m rows ($(awk -v k=$k -v m=$m 'BEGIN { printf "%.0f", m ? 100 * k / m : 0 }')%): what moves a whole invocation is not in it"

# --- what invocations differ by: calibrated, and the runs as units -----------
cal=$tmp/invocations.csv
# shellcheck disable=SC2086
if ! "$bin" calibrate ${first//,/ } --out "$cal" >"$tmp/cal.out" 2>&1 ||
	! grep -q '^level,invocation$' "$cal"; then
	show <"$tmp/cal.out"
	not_ok "calibrate over runs 1-$half of one boot (level invocation)"
	stage_exit
fi
ok "calibrate over runs 1-$half of one boot: $(grep -m1 'a shift every row shares' "$tmp/cal.out" | sed 's/^ *//')"
rows=0 hits=0 held=0
# run i against i + 1 of the second half with the calibration, and the halves
for i in $(seq $((half + 1)) $((runs - 1))) halves; do
	if [ "$i" = halves ]; then
		args=("$odd" "$even")
		label="the odd runs against the even, the runs the units"
	else
		args=("${dir[i]}" "${dir[i + 1]}" --calibration "$cal")
		label="run $i against $((i + 1)) with the calibration"
	fi
	if ! "$bin" compare "${args[@]}" --no-plots --out "$tmp/aa-$i" >"$tmp/aa-$i.out" 2>&1; then
		show <"$tmp/aa-$i.out"
		not_ok "compare ${args[*]}"
		continue
	fi
	if grep -q "^Verdicts withheld" "$tmp/aa-$i.out"; then
		show <"$tmp/aa-$i.out"
		not_ok "compare ${args[*]}: verdicts withheld"
		continue
	fi
	read -r n c z <<<"$(calls "$tmp/aa-$i/compare.csv")"
	echo "# A/A, $label: $c of $n rows faster/slower, 0 inside the interval of B - A in $z"
	# whether the calibration held for the runs (docs/interpreting.md)
	fit=$(grep -E '^(calibration_holds|calibration_dispersion|variance_scale),' \
		"$tmp/aa-$i/compare-settings.csv" | tr '\n' ' ')
	[ -z "$fit" ] || echo "#   $fit"
	called "$tmp/aa-$i/compare.csv"
	rows=$((rows + n)) hits=$((hits + c)) held=$((held + z))
done
what="A/A across invocations of one boot: $hits of $rows rows faster/slower ($(awk -v c=$hits -v n=$rows 'BEGIN { printf "%.1f", n ? 100 * c / n : 0 }')%, at most 5%)"
if [ "$rows" -gt 0 ] && [ $((hits * 100)) -le $((rows * 5)) ]; then
	ok "$what"
else
	not_ok "$what"
fi
what="A/A coverage: the 95% interval of B - A holds 0 in $held of $rows rows (at least 90%)"
if [ "$rows" -gt 0 ] && [ $((held * 100)) -ge $((rows * 90)) ]; then
	ok "$what"
else
	not_ok "$what"
fi
# The tested runs (the second half) pair by pair against the calibration
# (tests/lib/rerun-coverage.awk). A run's interval with the invocation
# level in it is a 95% interval of the row's mean over invocations: it
# holds a rerun's center about 83% of the time even when right, as the
# rerun has its own shift and noise. Where a rerun falls is the rerun
# interval, both runs' parts in it. Its shared part moves every row of a
# run alike, so over the rows the coverage is lumpy: with 3 tested runs
# it stands or falls with 3 shifts. The check takes each run net of its
# shared shift, where the rows are many units; the shared part's promise,
# a t on its few df, is the simulation's (1x1 with a calibration, above).
# The check's own error rates, in its model's world
# (tests/lib/rerun-coverage-sim.awk): below 80% in at most 1% of trials
# when the calibration is right, and in at least half when the intervals
# are half as wide.
tested=()
for i in $(seq $((half + 1)) "$runs"); do tested+=("${dir[i]}/results.csv"); done
read -r net full inci n shifts csd cdf <<<"$(awk -F, -v cal="$cal" -f tests/lib/t-quantile.awk \
	-f tests/lib/calibration.awk -f tests/lib/rerun-coverage.awk "$cal" "${tested[@]}")"
pct() { awk -v k="$1" -v m="$2" 'BEGIN { printf "%.1f", m ? 100 * k / m : 0 }'; }
echo "# the run's interval with the invocation level held a rerun's center for $inci of $n ($(pct "$inci" "$n")%); the rerun interval for $full ($(pct "$full" "$n")%)"
echo "# the tested runs' shared shifts: sd $(awk -v s="$shifts" 'BEGIN { printf "%.2f", 100 * s }')%, calibrated $(awk -v s="$csd" 'BEGIN { printf "%.2f", 100 * s }')% on $cdf df"
what="rerun interval, each run net of its shared shift: $net of $n centers inside ($(pct "$net" "$n")%, at least 80%)"
if [ "$n" -gt 0 ] && [ $((net * 100)) -ge $((n * 80)) ]; then
	ok "$what"
else
	not_ok "$what"
fi
sim() {
	awk -v runs="$runs" -v cal_runs="$half" -v shared=0.04 -v own=0.01 -v rep=0.05 \
		-v reps=5 -v rows="$rows" -v check=net -v trials=1000 -v seed="$RANDOM" \
		-v scale="$1" -f tests/lib/t-quantile.awk -f tests/lib/rerun-coverage-sim.awk
}
rows=$((n / ((runs - half) * (runs - half - 1)) ))
right=0 broken=0 trials=0
if [ "$rows" -gt 1 ]; then
	read -r _ right trials <<<"$(sim 1)"
	read -r _ broken _ <<<"$(sim 0.5)"
fi
what="the rerun check in its model's world: below 80% in $right of $trials trials with the calibration right (at most 1%), in $broken with intervals half as wide (at least half)"
if [ "$trials" -gt 0 ] && [ $((right * 100)) -le "$trials" ] && [ $((broken * 2)) -ge "$trials" ]; then
	ok "$what"
else
	not_ok "$what"
fi
if grep -q '^boot_sd,' "$tmp/aa-halves/compare-settings.csv" 2>/dev/null &&
	grep -q '^margin,' "$tmp/aa-halves/compare-settings.csv" &&
	grep -q '^verdicts,given$' "$tmp/aa-halves/compare-settings.csv"; then
	ok "compare-settings.csv records the boot variance, the margin and that verdicts were given"
else
	not_ok "compare-settings.csv missing, or without the boot variance, the margin or the verdicts line"
fi

# --- an injected cost ---------------------------------------------------------
# A cost on the rows with STAC/CLAC inside (role effect in run --list),
# none on the bases and controls: compare nets every row of what moved
# those, so a cost on them too would be taken for a shift of the boot.
"$bin" run --list --suite syscall | awk '$3 == "effect" { print $1 }' >"$tmp/effects"
# shellcheck disable=SC2086
costs ${odd//,/ } ${even//,/ } | awk -F, 'NR == FNR { e[$1] = 1; next } $1 in e' \
	"$tmp/effects" - >"$tmp/costs"
plus=""
for i in $(seq 1 2 "$runs"); do
	inject "$tmp/costs" "${dir[i]}" "$tmp/plus$i"
	plus=${plus:+$plus,}$tmp/plus$i
done
if "$bin" compare "$even" "$plus" --no-plots --out "$tmp/pc" >"$tmp/pc.out" 2>&1; then
	pc=$tmp/pc/compare.csv
	read -r n s f h <<<"$(awk -F, -v v="$(csv_column verdict "$pc")" \
		-v l="$(csv_column ci_low "$pc")" -v h="$(csv_column ci_high "$pc")" \
		'NR == FNR { c[$1] = $2; next }
		FNR > 1 { f += $v == "faster" }
		FNR > 1 && $1 in c { n++; s += $v == "slower"
			held += $l <= c[$1] && c[$1] <= $h }
		END { print n + 0, s + 0, f + 0, held + 0 }' "$tmp/costs" "$pc")"
	what="injected cost: $s of $n rows with STAC/CLAC slower, $f rows faster, $h intervals hold the cost"
	if [ "$n" -gt 0 ] && [ "$f" -eq 0 ] && [ $((s * 100)) -ge $((n * 90)) ] &&
		[ $((h * 100)) -ge $((n * 80)) ]; then
		ok "$what"
	else
		not_ok "$what (needs 90% of the rows slower, none faster, 80% held)"
	fi
else
	show <"$tmp/pc.out"
	not_ok "compare of the even runs against the odd plus a known cost"
fi

# --- a real cost: getppid plus a chain of adds --------------------------------
# as_control OP DIR SRC: run SRC with OP's rows alone, renamed syscall/control
as_control() {
	mkdir -p "$2"
	cp "$3/context.csv" "$2/"
	for f in results.csv samples.csv; do
		awk -F, -v OFS=, -v op="$1" 'NR == 1 || $1 == op { if (NR > 1) $1 = "syscall/control"; print }' \
			"$3/$f" >"$2/$f"
	done
}
chain_op=$(awk -F, '$1 ~ /^syscall\/getppid_adds\// { print $1 }' "${dir[runs]}/results.csv")
chain=$(for i in $(seq $((half + 1)) "$runs"); do
	awk -F, -v c="$(csv_column center "${dir[i]}/results.csv")" '$1 ~ /^syscall\/adds\// { print $c }' "${dir[i]}/results.csv"
done | awk '{ s += $1; n++ } END { if (n) print s / n }')
base="" with=""
for i in $(seq $((half + 1)) "$runs"); do
	as_control syscall/getppid "$tmp/base$i" "${dir[i]}"
	as_control "$chain_op" "$tmp/chain$i" "${dir[i]}"
	base=${base:+$base,}$tmp/base$i with=${with:+$with,}$tmp/chain$i
done
if [ -z "$chain" ] || [ -z "$chain_op" ] ||
	! "$bin" compare "$base" "$with" --no-plots --out "$tmp/real" >"$tmp/real.out" 2>&1; then
	show <"$tmp/real.out"
	not_ok "real cost: compare of getppid against getppid_adds"
else
	csv=$tmp/real/compare.csv
	read -r delta low high verdict <<<"$(awk -F, -v d="$(csv_column delta "$csv")" \
		-v l="$(csv_column ci_low "$csv")" -v h="$(csv_column ci_high "$csv")" \
		-v v="$(csv_column verdict "$csv")" 'NR == 2 { print $d, $l, $h, $v }' "$csv")"
	what="real cost: getppid_adds - getppid $delta [$low, $high] ticks over runs $((half + 1))-$runs, the chain alone $chain, verdict $verdict"
	if [ "$verdict" = slower ] &&
		awk -v d="$delta" -v x="$chain" 'BEGIN { exit !(d >= x / 1.5 && d <= x * 1.5) }'; then
		ok "$what"
	else
		not_ok "$what (needs slower and the delta within a factor 1.5 of the chain)"
	fi
fi

# --- one boot a side, no calibration: withheld --------------------------------
out=$tmp/fixtures.out
if "$bin" compare tests/fixtures/run-nosmap tests/fixtures/run-smap --no-calibration \
	--no-plots --out "$tmp/fixtures" >"$out" 2>&1; then
	read -r n c z <<<"$(calls "$tmp/fixtures/compare.csv")"
	what="one boot a side, no calibration: verdicts withheld ($c of $n rows faster/slower), the reason and the boots that would do said"
	if [ "$c" -eq 0 ] && grep -q "^Verdicts withheld.*one boot a side and no calibration.*3 boots a side would do" "$out" &&
		grep -q '^verdicts,one boot a side' "$tmp/fixtures/compare-settings.csv"; then
		ok "$what"
	else
		show <"$out"
		not_ok "$what"
	fi
else
	show <"$out"
	not_ok "compare of the fixtures with --no-calibration"
fi
stage_exit
