#!/bin/bash
# libFuzzer on every parser of outside input (mk/fuzz.mk): the tar reader,
# the MANIFEST, CSV, JSON and phases.csv parsers, a whole import, as it
# comes and with its MANIFEST's sums made right (to get past them), and
# the readers of `smapbench workload`, each for
# FUZZ_CHECK_SECONDS (default 10) from its checked-in seeds, after the
# inputs of earlier findings (tests/fuzz/regressions/). make fuzz runs
# them for minutes.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
build=${BUILD:-build}

if out=$(make --no-print-directory -s fuzz-build 2>&1); then
	ok "fuzz: the eight targets build with libFuzzer, ASan and UBSan"
else
	show 20 <<<"$out"
	not_ok "fuzz: make fuzz-build (clang with libclang-rt, scripts/deps.sh)"
	exit 1
fi
FUZZ_BUILD=$build/fuzz tests/fuzz/run.sh "${FUZZ_CHECK_SECONDS:-10}" \
	tar csv json manifest import import_resummed phases workload
