#!/bin/bash
# The user's path, checked inside a host-root guest (vm/hostroot.sh, stage
# 45-hostroot): this machine's userland on a kernel that loads modules,
# root, in the checkout. Each step runs ./run-bench.sh as a user would and
# prints TAP lines; the host puts the kernel and boot in front.
#
#   RUNS=DIR EXPECT_STATE=smap|nosmap tests/vm/hostroot-checks.sh STEP...
#
# RUNS is run-bench.sh's --out; EXPECT_STATE the SMAP state the boot must
# show. Each step's output is kept in LOGS (default: a temporary directory).
#
# Steps:
#   killed   a run killed with SIGKILL mid-run leaves the module loaded
#   normal   a complete run: module loaded by run-bench.sh and unloaded at
#            the end, kmod rows, --quick's benchmark count, plots, report
#   compare  (after normal, in a SMAP-off boot) the "next:" command it
#            printed compares the run with the SMAP-on run under RUNS, as
#            printed; compare.csv has kmod rows
#   sigint   Ctrl-C (SIGINT to the process group) mid-run: status 130,
#            module unloaded, no run directory, nothing half-written
#   sigterm  SIGTERM to run-bench.sh alone: the same, within a few seconds
set -u
runs=${RUNS:?RUNS must name the --out directory}
expect_state=${EXPECT_STATE:?EXPECT_STATE must be smap or nosmap}
bin=build/smapbench
args=(--quick --suite kmod --out "$runs")
log=${LOGS:-$(mktemp -d)}
mkdir -p "$log" "$runs" || exit 1
status=0

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; status=1; }
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}
module_loaded() { grep -q '^smapbench ' /proc/modules; }
module_loads() { dmesg | grep -c 'smapbench: ready'; }
run_dirs() { find "$runs" -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name 'compare-*' | sort; }
# Hidden entries under --out are a writer's unfinished work.
hidden() { find "$runs" -mindepth 1 -maxdepth 1 -name '.*' | sort; }
kv() { "$bin" info --format=kv "$2" | sed -n "s/^$1=//p"; }
smapbench_running() { pgrep -x smapbench >/dev/null; }

# Starts run-bench.sh as a job of its own (job control: its own process
# group, signals not ignored) and waits until smapbench runs the kmod
# suite with the module loaded. Sets pid; fails after a time limit.
# ARGS replace run-bench.sh's usual ones.
start_and_wait_for_run() {
	local name=$1 i
	shift
	[ $# -gt 0 ] || set -- "${args[@]}"
	set -m
	./run-bench.sh "$@" >"$log/$name.out" 2>&1 &
	pid=$!
	set +m
	for ((i = 0; i < 6000; i++)); do
		if module_loaded && pgrep -P "$pid" -x smapbench >/dev/null; then
			# Into the benchmarks, past the start-up.
			sleep 2
			return 0
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "# run-bench.sh ($name) never reached the benchmarks:"
	sed 's/^/#   /' "$log/$name.out" | tail -n 20
	return 1
}

# Waits for pid; sets rc and the seconds it took after the signal.
wait_after_signal() {
	local start=$EPOCHREALTIME
	wait "$pid"
	rc=$?
	seconds=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.1f", e - s }')
}

step_killed() {
	# The whole kmod sweep: minutes under TCG, so the kill lands while it
	# measures (a --quick run can end in the 2 s this waits).
	if ! start_and_wait_for_run killed --suite kmod --out "$runs"; then
		not_ok "killed run: run-bench.sh reached the benchmarks"
		return
	fi
	# Still measuring when killed, or the check below says nothing.
	if ! kill -0 "$pid" 2>/dev/null || ! pgrep -P "$pid" -x smapbench >/dev/null; then
		not_ok "killed run: run-bench.sh was still running smapbench 2 s into the benchmarks"
		sed 's/^/#   /' "$log/killed.out" | tail -n 20
	fi
	kill -KILL -- "-$pid"
	wait "$pid" 2>/dev/null
	sleep 1
	if ! module_loaded; then
		echo "# run-bench.sh's output up to the kill:"
		sed 's/^/#   /' "$log/killed.out" | tail -n 20
		dmesg | grep -i smapbench | tail -n 5 | sed 's/^/#   dmesg: /'
	fi
	check "killed run: SIGKILL to the job left smapbench.ko loaded (as a killed run does)" module_loaded
	check "killed run: no smapbench process left" eval '! smapbench_running'
	# SIGKILL cannot be handled: what the writer had open stays, hidden.
	hidden | sed 's/^/# left by the killed run: /'
}

step_normal() {
	local before before_list loads dirs run rows listed skipped
	local was_loaded=no hidden_before
	module_loaded && was_loaded=yes
	before_list=$(run_dirs)
	before=$(run_dirs | wc -l)
	hidden_before=$(hidden)
	loads=$(module_loads)
	./run-bench.sh "${args[@]}" >"$log/normal.out" 2>&1
	rc=$?
	sed 's/^/#   /' "$log/normal.out" | grep -v '^#   kmod/' | tail -n 30
	check "run-bench.sh ${args[*]} exits 0 (status $rc; module loaded before: $was_loaded)" \
		test "$rc" -eq 0
	check "run-bench.sh loaded the module itself (a new 'smapbench: ready' in dmesg)" \
		test "$(module_loads)" -eq $((loads + 1))
	check "module unloaded after a normal exit" eval '! module_loaded'
	dirs=$(run_dirs | wc -l)
	check "exactly one new run directory ($before before, $dirs after)" \
		test "$dirs" -eq $((before + 1))
	run=$(comm -13 <(echo "$before_list") <(run_dirs) | head -n 1)
	check "nothing half-written under --out" test "$(hidden)" = "$hidden_before"
	[ -n "$run" ] || return
	echo "# run directory: $run"
	check "context: kmod_status=ok (the suite used /dev/smapbench)" \
		test "$(kv kmod_status "$run")" = ok
	rows=$(grep -c '^kmod/' "$run/results.csv")
	check "results.csv has kmod rows ($rows)" test "$rows" -gt 0
	check "context: quick=1 (smapbench run --quick)" test "$(kv quick "$run")" = 1
	listed=$("$bin" run --list --quick --suite kmod | wc -l)
	skipped=$(grep -c '^kmod/' "$run/skipped.csv")
	check "--quick runs the short list: $rows run + $skipped skipped = $listed listed" \
		test $((rows + skipped)) -eq "$listed"
	check "plots written ($(find "$run/plots" -name '*.png' 2>/dev/null | wc -l) PNG)" \
		test -n "$(find "$run/plots" -name '*.png' 2>/dev/null)"
	check "report.md written" test -s "$run/report.md"
	check "headline printed with kmod rows" \
		grep -q '^  kmod/get_user/kapi/8 ' "$log/normal.out"
	check "context: smap_state=$(kv smap_state "$run") (want $expect_state), smap_off_method=$(kv smap_off_method "$run")" \
		test "$(kv smap_state "$run")" = "$expect_state"
}

step_compare() {
	local next cmp_dir rows
	next=$(sed -n '/^run-bench.sh: next: compare with the SMAP-on run/{n;s/^  //p;}' \
		"$log/normal.out")
	check "the SMAP-off run printed a compare command for the SMAP-on run" \
		test -n "$next"
	[ -n "$next" ] || return
	echo "# next: $next"
	bash -c "$next" >"$log/compare.out" 2>&1
	rc=$?
	sed 's/^/#   /' "$log/compare.out" | grep -v '^#   kmod/' | tail -n 8
	check "the printed command runs as printed, path with a space and all (status $rc)" \
		test "$rc" -eq 0
	cmp_dir=$(find "$runs" -mindepth 1 -maxdepth 1 -type d -name 'compare-*' | head -n 1)
	check "comparison directory written" test -n "$cmp_dir"
	[ -n "$cmp_dir" ] || return
	rows=$(grep -c '^kmod/' "$cmp_dir/compare.csv" 2>/dev/null)
	check "compare.csv of the SMAP-off and SMAP-on runs has kmod rows (${rows:-0})" \
		test "${rows:-0}" -gt 0
	check "the comparison's report.md written" test -s "$cmp_dir/report.md"
}

# kept_run_named NEW DIR OUTPUT: one new run directory, DIR, with its
# results, samples and context, which run-bench.sh's OUTPUT names as what
# it is: complete, or (the finished benchmarks of a stopped run) marked
# interrupted in its context.
kept_run_named() {
	local f
	[ "$1" -eq 1 ] || return 1
	for f in results.csv samples.csv context.csv; do
		[ -s "$2/$f" ] || return 1
	done
	if grep -qx 'status,interrupted' "$2/context.csv"; then
		grep -qF "kept in $2, marked interrupted" "$3"
	else
		grep -qF "$2 is complete" "$3"
	fi
}

# interrupted NAME SIGNAL STATUS LIMIT: run, signal, judge.
interrupted() {
	local name=$1 sig=$2 want=$3 limit=$4 before hidden_before after newest
	before=$(run_dirs | wc -l)
	hidden_before=$(hidden)
	if ! start_and_wait_for_run "$name"; then
		not_ok "$name: run-bench.sh reached the benchmarks"
		return
	fi
	if [ "$sig" = INT ]; then
		kill -INT -- "-$pid"	# what Ctrl-C does: the whole job
	else
		kill -TERM "$pid"	# kill PID: run-bench.sh alone
	fi
	wait_after_signal
	sed 's/^/#   /' "$log/$name.out" | grep -v '^#   kmod/' | tail -n 6
	check "$name: run-bench.sh exits with status $want (got $rc)" test "$rc" -eq "$want"
	check "$name: ended ${seconds}s after the signal (limit ${limit}s)" \
		awk -v s="$seconds" -v l="$limit" 'BEGIN { exit !(s <= l) }'
	check "$name: module unloaded" eval '! module_loaded'
	# The benchmarks that finished stay, in a run marked interrupted; a
	# signal after the last sample leaves a complete run, named as such.
	after=$(run_dirs | wc -l)
	if [ "$after" -eq "$before" ]; then
		ok "$name: no run directory kept ($before before, $after after)"
	else
		newest=$(run_dirs | tail -n 1)
		check "$name: the one run directory kept is named complete or interrupted, as its context says ($before before, $after after; $(grep -m1 '^status,' "$newest/context.csv" 2>/dev/null))" \
			kept_run_named "$((after - before))" "$newest" "$log/$name.out"
	fi
	check "$name: nothing half-written under --out" test "$(hidden)" = "$hidden_before"
	check "$name: no smapbench process left" eval '! smapbench_running'
}

for step in "$@"; do
	echo "# step $step ($(date -u +%T))"
	case $step in
	killed) step_killed ;;
	normal) step_normal ;;
	compare) step_compare ;;
	sigint) interrupted sigint INT 130 10 ;;
	sigterm) interrupted sigterm TERM 143 10 ;;
	*) not_ok "unknown step $step" ;;
	esac
done
[ -n "${LOGS:-}" ] || rm -rf "$log"
exit "$status"
