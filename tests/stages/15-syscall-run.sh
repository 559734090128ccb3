#!/bin/bash
# End to end on this machine: `smapbench run` of the syscall suite writes
# a complete run directory (docs/schema.md), an interrupted run leaves
# nothing behind, bad command lines exit 2, the kmod suite skips with a
# reason when /dev/smapbench is absent. About 30 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

build=${BUILD:-build}
bin=$build/smapbench
json_check=$build/tests/json-check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! make -s smapbench json-check >/dev/null 2>&1 || [ ! -x "$bin" ]; then
	not_ok "build smapbench (make smapbench)"
	exit 1
fi

# --- a complete run --------------------------------------------------------
out=$tmp/out
"$bin" run --suite syscall --min-time 0.01 --repetitions 2 --out "$out" \
	>"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
check "run --suite syscall exits 0 (got $rc)" test "$rc" -eq 0
dir=$(tail -n 1 "$tmp/stdout" | sed -n 's/^run directory: //p')
check "last stdout line names the run directory" test -n "$dir"
check "run directory $dir exists" test -d "$dir"
case $(basename "${dir:-x}") in
*-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]-smap | \
*-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9][0-9][0-9]-nosmap)
	ok "run directory is named <host>-<YYYYmmdd-HHMMSS>-<smap|nosmap>" ;;
*) not_ok "run directory name $(basename "${dir:-x}")" ;;
esac
leftover=$(find "$out" -maxdepth 1 -name ".tmp-*")
check "no .tmp- directory is left" test -z "$leftover"
check "off a terminal: a progress line as each of the 2 repetitions starts" \
	eval '[ "$(grep -c "^repetition [12] of 2: from stretch " "$tmp/stderr")" -eq 2 ] &&
		grep -q "^sizing [0-9]* benchmarks$" "$tmp/stderr"'
check "off a terminal: no line redrawn in place (no CR)" eval '! grep -q "$(printf "\r")" "$tmp/stderr"'

# The columns and keys are the catalogue's (smapbench info --catalogue),
# which docs/schema.md describes: no list of them here.
results_header=$("$bin" info --catalogue results.csv | cut -f1 | paste -sd,)
results_columns=$("$bin" info --catalogue results.csv | wc -l)
samples_header="name,repetition,sample,iterations,value,unit"
for f in results.csv samples.csv context.csv results.json; do
	check "$f exists and is not empty" test -s "${dir:-x}/$f"
done
check "results.csv has the schema header" \
	test "$(head -n 1 "$dir/results.csv")" = "$results_header"
check "samples.csv has the schema header" \
	test "$(head -n 1 "$dir/samples.csv")" = "$samples_header"
check "context.csv has the key,value header" \
	test "$(head -n 1 "$dir/context.csv")" = "key,value"
rows=$(($(wc -l <"$dir/results.csv") - 1))
check "results.csv has a row per syscall benchmark ($rows >= 20)" test "$rows" -ge 20
srows=$(($(wc -l <"$dir/samples.csv") - 1))
check "samples.csv has 2 repetitions x 10 samples per row ($srows = $((rows * 20)))" \
	test "$srows" -eq $((rows * 20))
check "results.csv names getppid with a positive median" \
	awk -F, '$1 == "syscall/getppid" && $10 > 0 { found = 1 } END { exit !found }' "$dir/results.csv"
check "every results row has $results_columns fields and a counter" \
	awk -F, -v n="$results_columns" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
		NR > 1 && (NF != n || $col["counter"] == "") { bad = 1 } END { exit bad }' "$dir/results.csv"
# the center is the mean of the repetition medians, its interval around it
check "every row's center lies in its interval, from 2 repetitions" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		!($col["ci_low"] <= $col["center"] && $col["center"] <= $col["ci_high"] &&
		  $col["repetitions"] == 2) { bad = 1 } END { exit bad }' "$dir/results.csv"
# Every key the catalogue has every run write is here (a family such as
# vulnerability_* by at least one key), and every key here is catalogued.
"$bin" info --catalogue context.csv >"$tmp/keys.tsv"
"$bin" info --format=kv "$dir" | cut -d= -f1 >"$tmp/run.keys"
missing=""
while IFS=$'\t' read -r key _ written _; do
	case $written in machine | run) ;; *) continue ;; esac
	if [ "${key%\*}" != "$key" ]; then
		grep -q "^${key%\*}." "$tmp/run.keys" || missing="$missing $key"
	else
		grep -qx "$key" "$tmp/run.keys" || missing="$missing $key"
	fi
done <"$tmp/keys.tsv"
check "context.csv has every key the catalogue has every run write${missing:+ (missing:$missing)}" test -z "$missing"
unknown=$(awk -F'\t' 'NR == FNR { if (sub(/\*$/, "", $1)) family[$1] = 1; else known[$1] = 1; next }
	!($0 in known) { for (f in family) if (index($0, f) == 1 && length($0) > length(f)) next; printf " %s", $0 }' \
	"$tmp/keys.tsv" "$tmp/run.keys")
check "every key of context.csv is in the catalogue${unknown:+ (not:$unknown)}" test -z "$unknown"
check "results.json is valid JSON" "$json_check" "$dir/results.json"
missing=""
for key in '"context"' '"benchmarks"' '"host_name"' '"num_cpus"' '"run_name"' \
	'"run_type": "iteration"' '"run_type": "aggregate"' \
	'"aggregate_name": "median"' '"repetitions": 2' '"repetition_index"' \
	'"iterations"' '"real_time"' '"cpu_time"' '"time_unit": "ns"'; do
	grep -qF "$key" "$dir/results.json" || missing="$missing $key"
done
check "results.json has Google Benchmark's keys${missing:+ (missing:$missing)}" test -z "$missing"
# Aggregates are over repetitions, as Google Benchmark writes them: their
# iterations is the repetition count (2), not the sample count.
agg_iterations=$(grep -A1 '"aggregate_unit"' "$dir/results.json" |
	grep -o '"iterations": [0-9]*' | sort | uniq -c | tr -s ' ')
check "results.json aggregates all count 2 repetitions ($agg_iterations)" \
	test "$(echo "$agg_iterations" | sed 's/^ *[0-9]* //')" = '"iterations": 2'
check "context.csv records the sweep (default)" grep -qx 'sweep,default' "$dir/context.csv"

# --- interruption: nothing may remain ---------------------------------------
for sig in INT TERM; do
	out=$tmp/$sig
	"$bin" run --suite syscall --min-time 0.05 --repetitions 50 --out "$out" \
		>/dev/null 2>"$tmp/stderr.$sig" &
	pid=$!
	sleep 1.5
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	want=$([ "$sig" = INT ] && echo 130 || echo 143)
	check "SIG$sig: exit status $want (got $rc)" test "$rc" -eq "$want"
	check "SIG$sig: no run directory and no .tmp- left in $out" \
		test -z "$(ls -A "$out" 2>/dev/null)"
done

# --- bad input ---------------------------------------------------------------
usage() { # usage DESCRIPTION ARGS...: exit 2 and a message on stderr
	local what=$1 rc
	shift
	"$bin" "$@" >"$tmp/u.out" 2>"$tmp/u.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ -s "$tmp/u.err" ]; then
		ok "$what: exit 2 with a message"
	else
		not_ok "$what: exit $rc, stderr: $(head -c 200 "$tmp/u.err")"
	fi
}
usage "unknown command" frobnicate
usage "no command"
usage "unknown option" run --bogus
usage "bad --repetitions" run --repetitions zero
usage "bad --min-time" run --min-time -1
usage "unknown --suite" run --suite nope
usage "unknown --counter" run --counter sundial
usage "invalid --filter regex" run --filter '('
usage "--filter matching nothing" run --filter '^nothing-matches$'
usage "--cpu not available" run --cpu 4000
usage "stray argument" run extra
"$bin" run --suite syscall --filter getppid --out /proc/smapbench-test \
	>"$tmp/p.out" 2>"$tmp/p.err"
rc=$?
check "unwritable --out: exit 1 with a message (got $rc)" \
	test "$rc" -eq 1 -a -s "$tmp/p.err"
check "unwritable --out: no run directory line" \
	test -z "$(grep 'run directory:' "$tmp/p.out")"
check "--help exits 0" "$bin" --help
check "--version prints a version" grep -q 'smapbench [0-9]' <("$bin" --version)
check "run --list exits 0" "$bin" run --list --suite syscall

# --- kmod suite without the module -------------------------------------------
if [ -e /dev/smapbench ]; then
	skip "kmod suite skip check" "/dev/smapbench exists here"
else
	"$bin" run --suite kmod --min-time 0.001 --repetitions 1 --out "$tmp/kmod" \
		>"$tmp/k.out" 2>&1
	rc=$?
	check "kmod suite without /dev/smapbench exits 0 (got $rc)" test "$rc" -eq 0
	check "kmod suite says why it skipped" \
		grep -q 'skipped .*/dev/smapbench is absent' "$tmp/k.out"
	kdir=$(sed -n 's/^run directory: //p' "$tmp/k.out")
	check "kmod skip reasons are in skipped.csv" \
		grep -q '^kmod/pair,kmod,.*absent' "${kdir:-x}/skipped.csv"
	check "kmod context records kmod_status" grep -q '^kmod_status,' "${kdir:-x}/context.csv"
fi
stage_exit
