#!/bin/bash
# Unit tests of the harness and smapbench (tests/unit/, cmocka): one flat
# "ok - group: case" or "not ok - group: case" line per test case.
# Every tests/unit/test_<name>.c is run: here, unless another stage runs
# it (its code names tests/unit/test_<name> and calls cmocka_tap), so a
# new test needs no line anywhere. Fails when a case fails, a test
# program cannot run, or a test is built that no stage runs.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

build=${BUILD:-build}

if ! make -s smapbench unit-tests >/dev/null 2>&1; then
	not_ok "unit tests and smapbench build (make smapbench unit-tests)"
	make smapbench unit-tests 2>&1 | show
	exit 1
fi

# The tests other stages run: named outside a comment, in a stage that
# feeds cmocka_tap. A stage that names one and never calls cmocka_tap
# runs nothing: the test then counts as run by no stage.
declare -A claimed=()
for stage in tests/stages/*.sh; do
	[ "$(basename "$stage")" = "$(basename "$0")" ] && continue
	code=$(grep -v '^[[:space:]]*#' "$stage")
	for name in $(grep -oE 'tests/unit/test_[A-Za-z0-9_]+' <<<"$code" | sort -u); do
		name=${name#tests/unit/test_}
		if grep -q 'cmocka_tap' <<<"$code"; then
			claimed[$name]=$(basename "$stage" .sh)
		else
			not_ok "$(basename "$stage") names test_$name but runs no cmocka program"
		fi
	done
done

sources=(tests/unit/test_*.c)
for src in "${sources[@]}"; do
	name=$(basename "$src" .c)
	name=${name#test_}
	# UNIT_CASE (tests/README.md) selects cases through unit.h.
	grep -q '#include "unit.h"' "$src" ||
		not_ok "$src does not include unit.h: UNIT_CASE cannot select its cases"
	if [ -n "${claimed[$name]:-}" ]; then
		ok "unit test $name: run by stage ${claimed[$name]}"
	else
		cmocka_tap "$name" "$build/tests/unit/test_$name"
	fi
done
# A program without its source is left from a removed or renamed test:
# no stage runs it, and a stale binary must not pass for a test.
for bin in "$build"/tests/unit/test_*; do
	[ -x "$bin" ] && [ ! -d "$bin" ] || continue
	[ -f "tests/unit/$(basename "$bin").c" ] ||
		not_ok "$bin has no tests/unit/$(basename "$bin").c, so no stage runs it (make clean)"
done

# Every family a suite file defines and smapbench links is in
# BENCH_FAMILIES (suites/suite.c): the table's object refers to it. A
# family without its line compiles cleanly and is never registered.
families=$(grep -rhoE '^(static )?struct bench_family [A-Za-z0-9_]+ *[={]' suites |
	awk '{ print $(NF - 1) }' | sort -u)
linked=$(nm --defined-only "$build/smapbench" 2>/dev/null | awk '{ print $3 }')
table=$(nm --undefined-only "$build/user/dynamic/suites/suite.o" 2>/dev/null | awk '{ print $2 }')
if [ -z "$linked" ] || [ -z "$table" ]; then
	not_ok "the family check needs $build/smapbench and suites/suite.o (make)"
else
	missing=()
	for family in $families; do
		grep -qx "$family" <<<"$linked" || continue	# not built here (bpf)
		grep -qx "$family" <<<"$table" || missing+=("$family")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		ok "every suite family smapbench links is in BENCH_FAMILIES ($(wc -w <<<"$families") defined)"
	else
		not_ok "families not in BENCH_FAMILIES (suites/suite.c), so never registered: ${missing[*]}"
	fi
fi

# Every kind of run-data file the catalogue defines (rundata/catalogue.c)
# is one `smapbench info --catalogue` takes (its choices, shown by
# --help, are file_kinds) and prints: a kind left out of file_kinds
# compiles cleanly and is found by nothing that looks.
kinds=$(grep -hE '^(static )?const struct file_kind [A-Za-z0-9_]+ *=' rundata/*.c)
names=$(sed -nE 's/^[^=]*= *KIND\("([^"]+)".*/\1/p' <<<"$kinds")
missing=()
for name in $names; do
	columns=$("$build/smapbench" info --catalogue "$name" 2>/dev/null | cut -f1 | paste -sd,)
	[ -n "$columns" ] || missing+=("$name")
done
if [ -z "$kinds" ] || [ "$(grep -c . <<<"$kinds")" != "$(grep -c . <<<"$names")" ]; then
	show <<<"$kinds"
	not_ok "the catalogue's file kinds: none found, or one not defined with KIND(\"file\", columns) (rundata/catalogue.c)"
elif [ ${#missing[@]} -eq 0 ]; then
	ok "smapbench info --catalogue takes and prints each of the catalogue's $(wc -w <<<"$names") file kinds: $(tr '\n' ' ' <<<"$names")"
else
	not_ok "file kinds of the catalogue that smapbench info --catalogue does not take or print: ${missing[*]} (file_kinds, rundata/catalogue.c)"
fi

# The rooms depend on each other only as docs/development.md's Layout allows, and
# no two of their files include or call each other (the objects make
# unit-tests just built show the calls).
if out=$(BUILD=$build scripts/include-cycles.sh 2>&1); then
	ok "the rooms include and call each other only as docs/development.md's Layout allows, with no loop"
else
	not_ok "the rooms include or call each other against docs/development.md's Layout, or in a loop (scripts/include-cycles.sh)"
fi
show <<<"$out"
stage_exit
