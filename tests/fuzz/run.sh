#!/bin/bash
# run.sh SECONDS TARGET...: each libFuzzer target of build/fuzz (or
# FUZZ_BUILD) for SECONDS, from a copy of tests/fuzz/corpus/TARGET (the
# checked-in seeds stay as they are), after every input of
# tests/fuzz/regressions/TARGET once. One TAP line per target; a crash
# leaves its input as FUZZ_BUILD/crash-TARGET-* and its log beside it.
set -u
cd "$(dirname "$0")/../.." || exit 2
seconds=${1:?usage: run.sh SECONDS TARGET...}
shift
bin=${FUZZ_BUILD:-build/fuzz}
status=0
for target in "$@"; do
	fuzzer=$bin/fuzz_$target
	corpus=$bin/corpus/$target
	log=$bin/$target.log
	mkdir -p "$corpus"
	cp -n tests/fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null
	regressions=(tests/fuzz/regressions/"$target"/*)
	if [ -e "${regressions[0]}" ] &&
		! "$fuzzer" -runs=1 "${regressions[@]}" >"$log" 2>&1; then
		echo "not ok - fuzz $target: an input of tests/fuzz/regressions/$target fails again ($log)"
		status=1
		continue
	fi
	[ -e "${regressions[0]}" ] || regressions=()
	if "$fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$bin/crash-$target-" "$corpus" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "ok - fuzz $target: ${runs:-?} inputs in ${seconds}s, ${#regressions[@]} regression inputs, no crash"
	else
		echo "not ok - fuzz $target: a finding; input and log in $bin (crash-$target-*, $log):"
		grep -E 'ERROR|SUMMARY|==[0-9]+==|artifact' "$log" | head -n 8 | sed 's/^/#   /'
		status=1
	fi
done
exit "$status"
