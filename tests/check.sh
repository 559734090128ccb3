#!/bin/bash
# Runs every test stage in tests/stages/ and prints one verdict line.
#
# A stage is an executable script that prints TAP-style lines
# ("ok - what", "not ok - what", "ok - what # SKIP why"); every other line
# is passed through as commentary. A stage that exits non-zero without
# printing a "not ok" line counts as one failure, so a crash never passes.
set -u
cd "$(dirname "$0")/.." || exit 2

only=${CHECK_STAGES:-}
passed=0 failed=0 skipped=0
# The failing lines again, so that the last screen of a long run names them.
failures=()
for stage in tests/stages/*.sh; do
	name=$(basename "$stage" .sh)
	if [ -n "$only" ] && ! [[ " $only " == *" ${name#[0-9][0-9]-} "* ]]; then
		continue
	fi
	echo "# stage $name"
	log=$(mktemp)
	start=$SECONDS
	"$stage" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	echo "# stage $name took $((SECONDS - start)) s"
	p=$(grep -cE '^ *ok\b' "$log" | tr -d ' ')
	s=$(grep -cE '^ *ok\b.*# *SKIP' "$log" | tr -d ' ')
	f=$(grep -cE '^ *not ok\b' "$log" | tr -d ' ')
	while IFS= read -r line; do
		failures+=("$name: ${line#"${line%%[! ]*}"}")
	done < <(grep -E "^ *not ok\b" "$log")
	rm -f "$log"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - stage $name exited with status $rc"
		failures+=("$name: not ok - stage exited with status $rc")
		f=1
	fi
	passed=$((passed + p - s))
	skipped=$((skipped + s))
	failed=$((failed + f))
done
echo
if [ ${#failures[@]} -gt 0 ]; then
	echo "# failed:"
	printf "#   %s\n" "${failures[@]}"
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
