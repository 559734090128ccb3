#!/bin/bash
# Unit tests of the harness and smapbench (tests/unit/, cmocka): one flat
# "ok - group: case" or "not ok - group: case" line per test case.
# Exits non-zero when a case fails or a test program cannot run.
set -u
cd "$(dirname "$0")/../.." || exit 2

build=${BUILD:-build}
tests="stats csv json options runner context catalogue"
status=0

if ! make -s unit-tests >/dev/null 2>&1; then
	echo "not ok - unit tests build (make unit-tests)"
	make unit-tests 2>&1 | tail -20 | sed 's/^/# /'
	exit 1
fi

for name in $tests; do
	bin=$build/tests/unit/test_$name
	if [ ! -x "$bin" ]; then
		echo "not ok - $name: $bin was not built"
		status=1
		continue
	fi
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$bin" 2>&1)
	rc=$?
	# cmocka's TAP: "ok N - case", "not ok N - case", "not ok N # SKIP
	# case", diagnostics as "# ..." lines.
	cases=0
	while IFS= read -r line; do
		case $line in
		"not ok "*"# SKIP"*)
			echo "ok - $name: ${line##*# SKIP } # SKIP"
			cases=$((cases + 1)) ;;
		"ok "*)
			echo "ok - $name: ${line#ok * - }"
			cases=$((cases + 1)) ;;
		"not ok "*)
			echo "not ok - $name: ${line#not ok * - }"
			cases=$((cases + 1)) ;;
		"1.."* | "# ok - "* | "# not ok - "*) ;;
		*) [ -n "$line" ] && echo "# $line" ;;
		esac
	done <<<"$out"
	if [ "$rc" -ne 0 ]; then
		status=1
		[ "$cases" -eq 0 ] && echo "not ok - $name: exited with status $rc"
	fi
done

# bench/ is layered: no two of its files include or call each other
# (the objects make unit-tests just built show the calls).
if out=$(BUILD=$build scripts/include-cycles.sh bench 2>&1); then
	echo "ok - bench/ has no include or call loop between files"
	echo "$out" | sed 's/^/# /'
else
	echo "not ok - bench/ has files that need each other (scripts/include-cycles.sh)"
	echo "$out" | sed 's/^/# /'
	status=1
fi
exit $status
