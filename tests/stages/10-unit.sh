#!/bin/bash
# Unit tests of the harness and smapbench (tests/unit/, cmocka): one flat
# "ok - group: case" or "not ok - group: case" line per test case.
# Exits non-zero when a case fails or a test program cannot run.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

build=${BUILD:-build}
tests="stats csv json options runner context catalogue sha256 tar"

if ! make -s unit-tests >/dev/null 2>&1; then
	not_ok "unit tests build (make unit-tests)"
	make unit-tests 2>&1 | show
	exit 1
fi

for name in $tests; do
	cmocka_tap "$name" "$build/tests/unit/test_$name"
done

# The rooms depend on each other only as README.md's Layout allows, and
# no two of their files include or call each other (the objects make
# unit-tests just built show the calls).
if out=$(BUILD=$build scripts/include-cycles.sh 2>&1); then
	ok "the rooms include and call each other only as README.md's Layout allows, with no loop"
else
	not_ok "the rooms include or call each other against README.md's Layout, or in a loop (scripts/include-cycles.sh)"
fi
show <<<"$out"
stage_exit
