#!/bin/bash
# compare, plot and report on the committed fixture runs (synthetic data):
# every plot renders as a valid PNG and SVG, compare.csv has its columns,
# report.md links resolve, context mismatches are refused, a missing
# gnuplot fails cleanly.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

smapbench=${SMAPBENCH:-build/smapbench}
plots=(ops copy batch sigframe dist syscall bpf)

# The comparison statistics on known answers (cmocka, tests/unit/test_compare.c).
unit=${BUILD:-build}/tests/unit/test_compare
if make -s "$unit" >/dev/null 2>&1; then
	cmocka_tap compare "$unit"
else
	not_ok "compare unit tests do not build (make $unit)"
fi
if [ ! -x "$smapbench" ]; then
	not_ok "$smapbench is not built (make smapbench)"
	exit 1
fi
need_command gnuplot "apt-get install gnuplot-nox"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r tests/fixtures/run-smap tests/fixtures/run-nosmap tests/fixtures/calibration.csv "$tmp/"

# A PNG: the 8-byte signature, an IHDR at least 800 pixels wide, > 10 kB.
check_png() {
	local f=$1 magic width
	magic=$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')
	width=$(od -An -tu1 -j16 -N4 "$f" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
	[ "$magic" = 89504e470d0a1a0a ] && [ "${width:-0}" -ge 800 ] &&
		[ "$(stat -c %s "$f")" -gt 10000 ]
}
# An SVG: opens an <svg element, ends with </svg>, draws something.
check_svg() {
	local f=$1
	grep -q '<svg' "$f" && tail -c 200 "$f" | grep -q '</svg>' &&
		[ "$(grep -c '<path' "$f")" -gt 10 ]
}
check_plots() { # dir what [extra plot names]
	local dir=$1 what=$2 p bad="" names
	shift 2
	names=("${plots[@]}" "$@")
	for p in "${names[@]}"; do
		check_png "$dir/plots/$p.png" || bad="$bad $p.png"
		check_svg "$dir/plots/$p.svg" || bad="$bad $p.svg"
		[ -s "$dir/plots/$p.dat" ] || bad="$bad $p.dat"
	done
	if [ -z "$bad" ]; then
		ok "$what: ${#names[@]} plots, valid PNG and SVG"
	else
		not_ok "$what: missing or invalid:$bad"
	fi
	if compgen -G "$dir/.plots.*" >/dev/null; then
		not_ok "$what: temporary directories left in $dir"
	fi
}
# Every relative link target of a Markdown file exists.
check_links() { # report.md what
	local md=$1 what=$2 dir missing n
	dir=$(dirname "$md")
	n=$(grep -o '](\([^)]*\))' "$md" | wc -l)
	missing=$(grep -o '](\([^)]*\))' "$md" | sed 's/^](//; s/)$//' |
		grep -v '^https\?://' | while read -r target; do
			[ -e "$dir/$target" ] || echo "$target"
		done)
	if [ -z "$missing" ] && [ "$n" -ge "${#plots[@]}" ]; then
		ok "$what: all $n links resolve"
	else
		not_ok "$what: $n links, unresolved: ${missing:-none}"
	fi
}

for run in run-smap run-nosmap; do
	if out=$("$smapbench" plot "$tmp/$run" 2>&1); then
		check_plots "$tmp/$run" "plot $run"
	else
		show <<<"$out"
		not_ok "plot $run exited with an error"
	fi
done

# gnuplot runs in C.UTF-8 whatever the caller's locale: under LC_ALL=C
# (a root without locales) it warned once per plot that it could not
# convert the degree sign. No word on stderr, the same files.
# (the same run name: it is in a title)
mkdir "$tmp/c-locale" && cp -r tests/fixtures/run-smap "$tmp/c-locale/"
c_run=$tmp/c-locale/run-smap
rm -rf "$c_run/plots"
out=$(env -u LANG -u LANGUAGE LC_ALL=C "$smapbench" plot "$c_run" 2>&1)
rc=$?
differ=$(cd "$c_run/plots" 2>/dev/null && for f in *; do
	cmp -s "$f" "$tmp/run-smap/plots/$f" || echo "$f"; done)
if [ "$rc" -eq 0 ] && [ "$out" = "plots: $c_run/plots/" ] &&
	[ -z "$differ" ] && [ -n "$(ls "$c_run/plots")" ]; then
	ok "plot under LC_ALL=C: no gnuplot warning, the same files"
else
	show <<<"$out"
	not_ok "plot under LC_ALL=C: status $rc, files that differ: ${differ:-none}"
fi

# A CPU without SMAP has no inline or nopad rows (they #UD): a run with
# whole series missing must still plot.
cp -r tests/fixtures/run-smap "$tmp/run-cpu-off"
rm -rf "$tmp/run-cpu-off/plots"
for f in results.csv samples.csv; do
	awk -F, 'NR == 1 || $1 !~ /\/(inline|nopad)(\/|$)/' \
		"$tmp/run-cpu-off/$f" >"$tmp/run-cpu-off/$f.new" &&
		mv "$tmp/run-cpu-off/$f.new" "$tmp/run-cpu-off/$f"
done
if ! grep -q '/inline/' "$tmp/run-cpu-off/results.csv" &&
	out=$("$smapbench" plot "$tmp/run-cpu-off" 2>&1); then
	check_plots "$tmp/run-cpu-off" "plot of a run without inline and nopad rows"
	# no share row to draw: left out, not drawn empty ("empty x range")
	check "... and gnuplot says nothing" test "$out" = "plots: $tmp/run-cpu-off/plots/"
else
	show <<<"$out"
	not_ok "plot of a run without inline and nopad rows failed"
fi

# A larger size where every K but one was skipped as too long (64 KiB
# batched copies under TCG): the batch panel stays at the size with a sweep.
cp -r tests/fixtures/run-smap "$tmp/run-one-k"
rm -rf "$tmp/run-one-k/plots"
for f in results.csv samples.csv; do
	awk -F, -v OFS=, '{ print }
		$1 == "kmod/get_user/batched/8/1" {
			$1 = "kmod/get_user/batched/64/1"
			if (FILENAME ~ /results/) $5 = 64
			print
		}' "$tmp/run-one-k/$f" >"$tmp/run-one-k/$f.new" &&
		mv "$tmp/run-one-k/$f.new" "$tmp/run-one-k/$f"
done
out=$("$smapbench" plot "$tmp/run-one-k" 2>&1)
check "plot of a run with one K at its largest batched size: no gnuplot warning" \
	test "$out" = "plots: $tmp/run-one-k/plots/"
check "... and its batch panel is get_user at 8 B" \
	grep -q "get_user/8" "$tmp/run-one-k/plots/batch.svg"

# bpf overhead rows are paired differences and keep negative samples: a
# center below 0 and one at 0 (and a CI end below 0) must still plot on
# the log axis, the two points left out with a note that says so. The
# centers and intervals come from the samples (rundata/rundir.h).
cp -r tests/fixtures/run-smap "$tmp/run-negative"
rm -rf "$tmp/run-negative/plots"
awk -F, -v OFS=, '
	$1 == "bpf/overhead/syscall/1" { $5 -= 48 }
	$1 == "bpf/overhead/syscall/64" { $5 = 0 }
	$1 == "bpf/overhead/syscall/4096" && $2 == 0 { $5 = -$5 }
	{ print }' "$tmp/run-negative/samples.csv" >"$tmp/run-negative/s.new" &&
	mv "$tmp/run-negative/s.new" "$tmp/run-negative/samples.csv"
if out=$("$smapbench" plot "$tmp/run-negative" 2>&1); then
	check_plots "$tmp/run-negative" "plot of a run with bpf overhead centers <= 0"
	if grep -q '2 centers &lt;= 0 not drawn' "$tmp/run-negative/plots/bpf.svg"; then
		ok "bpf plot notes the 2 centers <= 0 it leaves out"
	else
		not_ok "bpf plot does not say that it left out 2 centers <= 0"
	fi
else
	echo "$out" | head -n 5 | sed 's/^/# /'
	not_ok "plot of a run with bpf overhead centers <= 0 failed"
fi


cmp=$tmp/compare
if out=$("$smapbench" compare "$tmp/run-nosmap" "$tmp/run-smap" --out "$cmp" 2>&1); then
	ok "compare of the fixture runs"
	check_plots "$cmp" "compare plots" delta-kmod delta-syscall delta-bpf
	header=$(head -n 1 "$cmp/compare.csv")
	rows=$(($(wc -l <"$cmp/compare.csv") - 1))
	want=$(($(wc -l <"$tmp/run-smap/results.csv") - 1))
	if [[ "$header" == name,*reps_a,reps_b,median_a,median_b,center_a,center_b,delta,delta_ns,relative,ci_low,ci_high,relative_low,relative_high,se,boot_sd,boot_sd_source,df,p_value,q_value,basis,relative_net,verdict,method ]] &&
		[ "$rows" -eq "$want" ]; then
		ok "compare.csv has the documented columns and $rows rows"
	else
		not_ok "compare.csv: header '$header', $rows rows (want $want)"
	fi
	verdict=$(awk -F, '$1 == "kmod/get_user/kapi/8" { print $(NF - 1) }' "$cmp/compare.csv")
	if [ "$verdict" = slower ]; then
		ok "compare: get_user through the kernel API is slower with SMAP"
	else
		not_ok "compare: kmod/get_user/kapi/8 verdict '$verdict', expected slower"
	fi
	for what in "One STAC;CLAC pair" "inline - nopad" "batch of K" "under 1% of the copy"; do
		if ! grep -qF "$what" <<<"$out"; then
			not_ok "compare output lacks the derived table '$what'"
		fi
	done
	if compgen -G "$tmp/.*tmp-*" >/dev/null; then
		not_ok "compare left a temporary directory"
	fi
else
	show <<<"$out"
	not_ok "compare of the fixture runs exited with an error"
fi

if "$smapbench" report "$tmp/run-smap" >/dev/null 2>&1 && [ -s "$tmp/run-smap/report.md" ]; then
	ok "report of one run"
	check_links "$tmp/run-smap/report.md" "run report.md"
else
	not_ok "report of one run failed"
fi
# report --headline: what the run says about SMAP, first, then the rows of
# report.md's headline table, one line each in ns, and the sigframe row at
# the batch size the suite runs.
if all=$("$smapbench" report --headline "$tmp/run-smap" 2>&1); then
	out=$(sed -n '/^Headline (/,/^  [a-z]*:/s/^  \(kmod\|syscall\|bpf\)\//&/p' <<<"$all")
	table=$(sed -n '/^## Headline/,/^## /s/^| \(kmod\|syscall\|bpf\)\([^ ]*\) .*/\1\2/p' \
		"$tmp/run-smap/report.md" | sed 's/\\\(.\)/\1/g')
	bad=$(grep -cvE '^  [a-z_/0-9]+ +[0-9.]+ ns  \[[0-9.]+ \.\. [0-9.]+\]( |$)' <<<"$out")
	if [ "$bad" -eq 0 ] && [ "$(awk '{ print $1 }' <<<"$out")" = "$table" ] &&
		grep -q '^  kmod/sigframe/batched/1 ' <<<"$out" &&
		[ "$(head -1 <<<"$all")" = "What this run says about SMAP:" ] &&
		sed -n '/^## What this run says about SMAP/,/^## /p' "$tmp/run-smap/report.md" |
		grep -q '^- next: the SMAP-off boot'; then
		ok "report --headline prints what the run says about SMAP, then report.md's $(wc -l <<<"$out") headline rows, in ns"
	else
		show <<<"$all"
		not_ok "report --headline: no answer first, or lines malformed or not report.md's headline rows"
	fi
else
	show <<<"$all"
	not_ok "report --headline failed on the fixture run"
fi
# a headline row flagged noisy: the flag is defined under the rows
cp -a "$tmp/run-smap" "$tmp/run-noisy"
sed -i '/^syscall\/getppid,/s/,$/,noisy/' "$tmp/run-noisy/results.csv"
out=$("$smapbench" report --headline "$tmp/run-noisy" 2>&1)
if grep -q '^  syscall/getppid .* noisy$' <<<"$out" &&
	grep -q '^  noisy: half of the samples lie more than 5% from the median' <<<"$out"; then
	ok "report --headline says what noisy means when a row carries it"
else
	show <<<"$out"
	not_ok "report --headline: a noisy row without the flag's meaning"
fi
"$smapbench" report --headline "$tmp/run-smap" "$tmp/run-nosmap" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 2 ]; then
	ok "report --headline with two runs is a usage error (status 2)"
else
	not_ok "report --headline with two runs: status $rc, not 2"
fi
if "$smapbench" report "$tmp/run-nosmap" "$tmp/run-smap" --out "$tmp/cmp-report" >/dev/null 2>&1 &&
	[ -s "$tmp/cmp-report/report.md" ]; then
	ok "report of a comparison"
	check_links "$tmp/cmp-report/report.md" "comparison report.md"
	check_plots "$tmp/cmp-report" "comparison report" delta-kmod delta-syscall delta-bpf
else
	not_ok "report of a comparison failed"
fi

# Google Benchmark JSON on both sides: repetitions stand in for samples.
if out=$("$smapbench" compare --no-plots --out "$tmp/json" \
	"$tmp/run-nosmap/results.json" "$tmp/run-smap/results.json" 2>&1) &&
	grep -q 'each value is one repetition' <<<"$out" &&
	awk -F, 'NR > 1 && $NF != "repetitions" { bad = 1 } END { exit bad }' "$tmp/json/compare.csv"; then
	ok "compare reads Google Benchmark JSON and says the CI uses repetitions"
else
	show <<<"$out"
	not_ok "compare of results.json files"
fi

# compare.json: valid JSON, the rows and verdicts of compare.csv; what
# B - A means, from the sides' SMAP states; --fail-on's exit statuses.
json_check=${BUILD:-build}/tests/json-check
if [ -s "$cmp/compare.json" ] && "$json_check" "$cmp/compare.json"; then
	csv_slower=$(awk -F, 'NR > 1 && $(NF - 1) == "slower"' "$cmp/compare.csv" | wc -l)
	json_slower=$(grep -c '"verdict": "slower"' "$cmp/compare.json")
	json_rows=$(grep -c '"verdict": ' "$cmp/compare.json")
	if [ "$csv_slower" -gt 0 ] && [ "$csv_slower" -eq "$json_slower" ] &&
		[ "$json_rows" -eq "$(($(wc -l <"$cmp/compare.csv") - 1))" ] &&
		grep -q '"order": "ordered"' "$cmp/compare.json"; then
		ok "compare.json is valid JSON with compare.csv's $json_rows rows and $json_slower slower"
	else
		not_ok "compare.json: $json_rows rows, $json_slower slower; compare.csv $csv_slower slower"
	fi
else
	not_ok "compare.json missing or not valid JSON"
fi
if grep -qF "A is the SMAP-off boot and B the SMAP boot, so they are what SMAP costs" <<<"$out"; then
	ok "compare nosmap, smap: the deltas are what SMAP costs"
else
	not_ok "compare nosmap, smap does not say the deltas are SMAP's cost"
fi
out=$("$smapbench" compare --no-plots --out "$tmp/reversed" "$tmp/run-smap" "$tmp/run-nosmap" 2>&1)
if grep -qF "Order reversed: A is the SMAP boot; the deltas are minus SMAP's cost." <<<"$out" &&
	! grep -q "what SMAP costs" <<<"$out"; then
	ok "compare smap, nosmap: says the order is reversed"
else
	not_ok "compare smap, nosmap: $(grep -i "differences\|reversed" <<<"$out")"
fi
cp -r "$tmp/run-smap" "$tmp/run-smap2"
rm -rf "$tmp/run-smap2/plots"
out=$("$smapbench" report --no-plots --out "$tmp/aa" "$tmp/run-smap" "$tmp/run-smap2" 2>&1)
sentence="A/A comparison: both sides are SMAP on (smap); the deltas are noise or drift between boots, not SMAP."
if grep -qF "$sentence" <<<"$out" && grep -qF "$sentence" "$tmp/aa/report.md" &&
	! grep -q "what SMAP costs" "$tmp/aa/report.md"; then
	ok "compare and report of two SMAP runs: an A/A comparison, not SMAP's cost"
else
	not_ok "A/A comparison not said: $(grep -i "differences\|A/A" "$tmp/aa/report.md" 2>&1)"
fi
out=$("$smapbench" compare --no-plots --out "$tmp/mixed" "$tmp/run-nosmap,$tmp/run-smap2" "$tmp/run-smap" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q "side A mixes SMAP states" <<<"$out" && [ ! -e "$tmp/mixed" ]; then
	ok "compare refuses a side of runs of mixed SMAP states (status 1)"
else
	not_ok "compare of a mixed side: status $rc, $(head -n 2 <<<"$out")"
fi
for case in "slower 3" "faster,same 0" "slower,faster,unknown 3" "slowr 2" ", 2"; do
	read -r verdicts want <<<"$case"
	"$smapbench" compare --no-plots --fail-on "$verdicts" --out "$tmp/fail-on" \
		"$tmp/run-nosmap" "$tmp/run-smap" >/dev/null 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "compare --fail-on $verdicts: status $want"
	else
		not_ok "compare --fail-on $verdicts: status $rc, expected $want"
	fi
done
# report A B takes compare's options, --fail-on's value included.
"$smapbench" report --no-plots --fail-on slower --out "$tmp/fail-on-report" \
	"$tmp/run-nosmap" "$tmp/run-smap" >/dev/null 2>&1
rc=$?
check "report A B --fail-on slower: status 3 ($rc), report.md written" \
	test "$rc" -eq 3 -a -s "$tmp/fail-on-report/report.md"

# Another kernel is refused, naming the field; --force goes on.
cp -r "$tmp/run-smap" "$tmp/run-other"
rm -rf "$tmp/run-other/plots"
sed -i 's/^kernel_release,.*/kernel_release,6.12.9-amd64/' "$tmp/run-other/context.csv"
out=$("$smapbench" compare --no-plots --out "$tmp/refused" "$tmp/run-nosmap" "$tmp/run-other" 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q kernel_release <<<"$out" && grep -q -- --force <<<"$out" &&
	[ ! -e "$tmp/refused" ]; then
	ok "compare refuses runs of different kernels, naming kernel_release (status 1)"
else
	not_ok "compare across kernels: status $rc, output: $(head -n 3 <<<"$out")"
fi
if "$smapbench" compare --force --no-plots --out "$tmp/forced" "$tmp/run-nosmap" "$tmp/run-other" >/dev/null 2>&1 &&
	[ -s "$tmp/forced/compare.csv" ]; then
	ok "compare --force compares across kernels"
else
	not_ok "compare --force failed"
fi
"$smapbench" compare "$tmp/run-smap" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 2 ]; then
	ok "compare with one run is a usage error (status 2)"
else
	not_ok "compare with one run: status $rc, expected 2"
fi

# TCG runs are watermarked.
sed -i 's/^virt,.*/virt,tcg/' "$tmp/run-other/context.csv"
if "$smapbench" plot "$tmp/run-other" >/dev/null 2>&1 &&
	grep -q 'functional only' "$tmp/run-other/plots/ops.svg"; then
	ok "plots of a TCG run carry the 'functional only' watermark"
else
	not_ok "TCG run plots lack the watermark"
fi

# Without gnuplot: a clear message, non-zero, no partial plots directory.
rm -rf "$tmp/run-other/plots"
out=$(PATH=/nonexistent "$smapbench" plot "$tmp/run-other" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'gnuplot not found' <<<"$out" &&
	[ ! -e "$tmp/run-other/plots" ] && ! compgen -G "$tmp/run-other/.plots.*" >/dev/null; then
	ok "plot without gnuplot fails with a message and writes nothing (status $rc)"
else
	not_ok "plot without gnuplot: status $rc, output: $out"
fi

# The published reports are what this code makes of their measurements:
# a change that moves a figure must redraw data/ (make redraw-data).
if out=$(SMAPBENCH=$smapbench scripts/redraw-data.sh --check 2>&1); then
	ok "data/: every published report, comparison and plot table is current"
else
	show 30 <<<"$out"
	not_ok "data/: published outputs differ from what the code makes (make redraw-data)"
fi
# data/README.md's prose cites each published comparison's verdict counts
# ("N rows `inconclusive`, N `slower` ..."): they must be compare.csv's.
stale=""
for dir in data/compare-*/; do
	name=${dir%/}
	name=${name#data/}
	line=$(grep -F "[$(cut -c1-24 <<<"$name")" data/README.md)
	[ -n "$line" ] && [ -f "$dir/compare.csv" ] || continue
	col=$(head -n 1 "$dir/compare.csv" | tr ',' '\n' | grep -nx verdict | cut -d: -f1)
	for verdict in slower faster same inconclusive unknown; do
		said=$(grep -oE "[0-9]+ (rows )?\`$verdict\`" <<<"$line" | grep -oE '^[0-9]+')
		has=$(tail -n +2 "$dir/compare.csv" | cut -d, -f"$col" | grep -cx "$verdict")
		[ -z "$said" ] || [ "$said" -eq "$has" ] || stale="$stale $name:$verdict($said, has $has)"
	done
done
check "data/README.md cites the published comparisons' verdict counts as their compare.csv has them${stale:+:$stale}" \
	test -z "$stale"
stage_exit
