#!/bin/bash
# The suite's power, tested: each of six broken versions of the
# statistics, applied to a scratch copy of the tree, must make the tests
# that guard it fail. A mutant the tests let pass is a promise nothing
# checks. The first five once passed every test; the sixth is an error
# the statistics once made:
#  - same tested at alpha: each one-sided test of equivalence at alpha,
#    not alpha / 2, so that a difference at the margin is called same up
#    to alpha of the time;
#  - no q gate: faster/slower on p alone, without Benjamini-Hochberg;
#  - no widening of the pair's fit by its residuals;
#  - minimum df 2: a boot variance estimated on a few df taken below the
#    assumption;
#  - the boot term divided by m^2, not m, with several boots a side;
#  - runs of one boot counted as boots: each run a unit of its own,
#    whatever its boot_id.
# Each scratch copy takes the tree's sources and its built objects (the
# tree is built first), so that only the mutated file is compiled and
# the one test program that should catch it linked; two at a time.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

build=${BUILD:-build}
# the program that guards the statistics (stage plots runs it for itself)
guard=test_compare
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

if ! make -s "$build/tests/unit/$guard" >"$tmp/make.out" 2>&1; then
	show <"$tmp/make.out"
	not_ok "build the compare tests (make $build/tests/unit/$guard)"
	exit 1
fi
# the unmutated tests pass: a failure below is the mutant's
if ! "$build/tests/unit/$guard" >"$tmp/clean.out" 2>&1; then
	show <"$tmp/clean.out"
	not_ok "the compare tests fail without a mutant"
	exit 1
fi

# name@file@line as it is@line mutated@test program@cases (UNIT_CASE)
mutants=(
	"same tested at alpha@analysis/compare_stats.c@	if (row->log_ratio - half > -m && row->log_ratio + half < m)@	half = stats_student_quantile(1 - set->alpha, row->df) * row->se; if (row->log_ratio - half > -m && row->log_ratio + half < m)@test_compare@test_claims_and_their_tests"
	"no q gate@analysis/compare_stats.c@	if (row->q <= set->alpha && row->p <= set->alpha)@	if (row->p <= set->alpha)@test_compare@test_claims_and_their_tests"
	"no widening of the fit by its residuals@analysis/pair_fit.c@	fit->scale = fmax(1, rss / fit->df);@	fit->scale = 1;@test_compare@test_fit_widened_by_residuals"
	"minimum df 2@analysis/compare_stats.c@		if (!estimated || (!(boot_df >= COMPARE_MIN_BOOT_DF) && boot < assumed)) {@		if (!estimated || (!(boot_df >= 2) && boot < assumed)) {@test_compare@test_boot_part_floor"
	"the boot term divided by m^2@analysis/compare_boots.c@	c = 1 / (double)w.units_a + 1 / (double)w.units_b;@	c = 1 / (double)(w.units_a * w.units_a) + 1 / (double)(w.units_b * w.units_b);@test_compare@test_boots_a_side"
	"runs of one boot counted as boots@analysis/compare_boots.c@		for (k = 0; !runs_are_units && k < j; k++)@		for (k = 0; 0 && k < j; k++)@test_compare@test_boots_a_side"
)

# What the build writes from .git (absent in a copy): the same revision,
# so that the copy's objects stay current.
revision=$(sed -n 's/^#define SMAPBENCH_GIT_REVISION "\(.*\)"$/\1/p' \
	"$build/include/smapbench_revision.h")
rooms=$(scripts/rooms.sh)

# mutate N: copy, mutate, build the one test program, run its cases;
# writes $tmp/N.result: "caught", "survived", or why it could not tell
mutate() {
	local n=$1 name file from to program cases dir out
	IFS='@' read -r name file from to program cases <<<"${mutants[n]}"
	dir=$tmp/m$n
	out=$tmp/$n.out
	mkdir -p "$dir/$build/tests/unit" "$dir/docs"
	# shellcheck disable=SC2086
	cp -a Makefile mk scripts tests $rooms "$dir/" 2>"$out" &&
		cp -a docs/development.md "$dir/docs/" &&
		(cd "$build" && find . -path ./tests -prune -o -print | cpio -pdm --quiet "$dir/$build") &&
		cp -a "$build/tests/unit/$program" "$build/tests/unit/$program.d" \
			"$dir/$build/tests/unit/" || { echo "copy failed" >"$tmp/$n.result"; return; }
	printf '%s\n' "$revision" >"$dir/REVISION"
	if [ "$(grep -cxF "$from" "$dir/$file")" -ne 1 ]; then
		echo "the line to mutate is not in $file once" >"$tmp/$n.result"
		return
	fi
	awk -v from="$from" -v to="$to" '$0 == from { print to; next } { print }' \
		"$dir/$file" >"$dir/$file.new" && mv "$dir/$file.new" "$dir/$file"
	if ! make -s -C "$dir" "$build/tests/unit/$program" >>"$out" 2>&1; then
		echo "the mutant does not build" >"$tmp/$n.result"
		return
	fi
	if UNIT_CASE="$cases" "$dir/$build/tests/unit/$program" >>"$out" 2>&1; then
		echo survived >"$tmp/$n.result"
	else
		echo caught >"$tmp/$n.result"
	fi
	rm -rf "$dir"
}

jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2
for n in "${!mutants[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	mutate "$n" &
done
wait
for n in "${!mutants[@]}"; do
	IFS='@' read -r name file _ _ program cases <<<"${mutants[n]}"
	result=$(cat "$tmp/$n.result" 2>/dev/null || echo "no result")
	if [ "$result" = caught ]; then
		ok "mutant '$name' ($file) fails $program ($cases)"
	else
		show <"$tmp/$n.out"
		not_ok "mutant '$name' ($file): $result under $program ($cases)"
	fi
done
echo "# ${#mutants[@]} mutants in $((SECONDS - start)) s"
stage_exit
