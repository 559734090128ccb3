#!/bin/bash
# run-bench.sh on this machine, as a user runs it (syscall suite: this
# host cannot load modules; stage 45-hostroot covers the module), and the
# machine-readable interface the scripts use instead of parsing messages
# (smapbench run --run-dir-file, smapbench info --format=kv). About 40 s.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
top=$PWD
bin=$top/build/smapbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kv() { sed -n "s/^$1=//p" "$2" | head -n 1; }

if [ "$(id -u)" -ne 0 ]; then
	skip "run-bench.sh end to end" "needs root"
	exit 0
fi
if ! make -s all >"$tmp/make.log" 2>&1; then
	show <"$tmp/make.log"
	not_ok "make all"
	exit 1
fi

# --- smapbench run --run-dir-file, info --format=kv -------------------------
"$bin" run --quick --suite syscall --filter '^syscall/getppid$' --out "$tmp/direct" \
	--run-dir-file "$tmp/run.path" >"$tmp/run.out" 2>&1
rc=$?
dir=$(cat "$tmp/run.path" 2>/dev/null)
check "run --run-dir-file: status $rc, file names an existing absolute directory ($dir)" \
	test "$rc" -eq 0 -a -d "$dir" -a "${dir:0:1}" = /
check "run --run-dir-file: the same path as the human message" \
	test "$(sed -n 's/^run directory: //p' "$tmp/run.out")" -ef "$dir"
"$bin" run --quick --suite syscall --out "$tmp/direct" \
	--run-dir-file "$tmp/no/such/dir/f" >"$tmp/bad.out" 2>&1
rc=$?
check "run --run-dir-file in a missing directory: status 2 before running (got $rc)" \
	test "$rc" -eq 2
check "... and the message names the option" grep -q -- '--run-dir-file' "$tmp/bad.out"
"$bin" info --format=kv >"$tmp/info.kv" 2>"$tmp/info.err"
rc=$?
check "info --format=kv: status $rc, only key=value lines" \
	test "$rc" -eq 0 -a -s "$tmp/info.kv" -a -z "$(grep -v '^[a-z0-9_]*=' "$tmp/info.kv")"
check "info --format=kv: smap_state=$(kv smap_state "$tmp/info.kv"), smap_off_method=$(kv smap_off_method "$tmp/info.kv")" \
	test -n "$(kv smap_state "$tmp/info.kv")" -a -n "$(kv smap_off_method "$tmp/info.kv")"
"$bin" info --format=kv "$dir" >"$tmp/run.kv"
check "info --format=kv RUN: one line per context.csv row" \
	test "$(wc -l <"$tmp/run.kv")" -eq "$(($(wc -l <"$dir/context.csv") - 1))"
check "info --format=kv RUN: the run's SMAP state" \
	test "$(kv smap_state "$tmp/run.kv")" = "$(kv smap_state "$tmp/info.kv")"
"$bin" info --format=yaml >/dev/null 2>"$tmp/bad.err"
rc=$?
check "info --format=yaml: status 2, message names the option (got $rc)" \
	test "$rc" -eq 2 -a -n "$(grep -- '--format' "$tmp/bad.err")"

# --- a quick run from elsewhere, --out relative and with a space ------------
mkdir "$tmp/caller"
(cd "$tmp/caller" && "$top/run-bench.sh" --no-install --quick --suite syscall \
	--out "runs here" --run-dir-file "run dir") >"$tmp/quick.out" 2>&1
rc=$?
grep -v '^syscall/' "$tmp/quick.out" | tail -n 12 | show
check "run-bench.sh --quick --suite syscall exits 0 (got $rc)" test "$rc" -eq 0
runs=("$tmp/caller/runs here"/*/)
run=${runs[0]%/}
check "a relative --out is taken from the caller's directory ($run)" \
	test -f "$run/results.csv"
check "... and nothing named 'runs here' appears in the checkout" \
	test ! -e "$top/runs here"
check "--run-dir-file, relative to the caller, names that run directory, one line" \
	test "$(cat "$tmp/caller/run dir" 2>/dev/null)" = "$run"
./run-bench.sh --no-install --run-dir-file "$tmp/no/such/dir/f" >"$tmp/rdf.out" 2>&1
rc=$?
check "run-bench.sh --run-dir-file in a missing directory: status 2 before building (got $rc)" \
	test "$rc" -eq 2 -a -n "$(grep -- --run-dir-file "$tmp/rdf.out")"
"$bin" info --format=kv "$run" >"$tmp/quick.kv" 2>/dev/null
check "--quick reaches smapbench run: context quick=1 (got $(kv quick "$tmp/quick.kv"))" \
	test "$(kv quick "$tmp/quick.kv")" = 1
check "--quick shortens the samples: min_time=$(kv min_time "$tmp/quick.kv"), samples_per_repetition=$(kv samples_per_repetition "$tmp/quick.kv")" \
	test "$(kv min_time "$tmp/quick.kv")" = 0.002 -a "$(kv samples_per_repetition "$tmp/quick.kv")" = 5
# The "running:" line is a command to paste: its words must come back.
line=$(sed -n 's/^run-bench.sh: running: //p' "$tmp/quick.out")
eval "words=($line)"
check "the printed 'running:' command is quoted (--out word: '${words[3]:-}')" \
	test "${words[3]:-}" = "$tmp/caller/runs here"
# Every document run-bench.sh points to exists, and README sections named
# in its messages are README headings.
missing=""
for doc in $(grep -o 'docs/[a-z-]*\.md' run-bench.sh | sort -u); do
	[ -f "$doc" ] || missing="$missing $doc"
done
while IFS= read -r section; do
	grep -qxF "## $section" README.md || missing="$missing README:'$section'"
done < <(grep -o "README.md, '[^']*'" run-bench.sh | sed "s/.*, '//; s/'$//")
check "every document and README section run-bench.sh names exists${missing:+ (missing:$missing)}" \
	test -z "$missing"

# --- signals: the run ends at once, nothing half-written --------------------
# Before, SIGTERM waited for the whole run (minutes). run-bench.sh now
# reacts at once and smapbench stops at its runner's next check: within a
# sample while it measures. In its first seconds, while it sets up and
# sizes the benchmarks, the runner still sets up every remaining one
# before it looks (seconds): the signal comes once that phase is over.
signal_limit=1.0
# signal_run NAME SIGNAL STATUS: a full syscall run, signalled once
# smapbench is measuring.
signal_run() {
	local name=$1 sig=$2 want=$3 out pid i start seconds rc
	out=$tmp/$name
	mkdir -p "$out"
	set -m	# a job of its own: Ctrl-C reaches its whole process group
	./run-bench.sh --no-install --suite syscall --out "$out" --run-dir-file "$tmp/$name.path" \
		>"$tmp/$name.log" 2>&1 &
	pid=$!
	set +m
	for ((i = 0; i < 300; i++)); do
		pgrep -P "$pid" -x smapbench >/dev/null && break
		sleep 0.1
	done
	sleep 8
	start=$EPOCHREALTIME
	if [ "$sig" = INT ]; then
		kill -INT -- "-$pid"
	else
		kill -TERM "$pid"
	fi
	wait "$pid"
	rc=$?
	seconds=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.2f", e - s }')
	tail -n 3 "$tmp/$name.log" | show
	check "SIG$sig to run-bench.sh mid-run: status $want (got $rc)" test "$rc" -eq "$want"
	check "SIG$sig: run-bench.sh ended ${seconds}s after the signal (at most ${signal_limit} s)" \
		awk -v s="$seconds" -v l="$signal_limit" 'BEGIN { exit !(s <= l) }'
	check "SIG$sig: nothing left under --out ($(find "$out" -mindepth 1 | wc -l) entries)" \
		test -z "$(find "$out" -mindepth 1)"
	check "SIG$sig: --run-dir-file is left empty" test -f "$tmp/$name.path" -a ! -s "$tmp/$name.path"
	check "SIG$sig: no smapbench process left" eval '! pgrep -f "run --out $out( |\$)" >/dev/null'
}
signal_run term TERM 143
signal_run int INT 130

stage_exit
