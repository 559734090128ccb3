#!/bin/bash
# The worked examples of docs/adding-a-benchmark.md are exact: every
# ```diff block applies to a scratch copy of this tree (with its build/,
# so that only what the diffs touch is built again), the copy builds (the
# module too, W=1, for the first kernel whose headers are installed), and
# the checks the page shows pass there. The context key's roles, taken out
# again, fail the unit test that holds the catalogue to docs/schema.md.
# And every file:function() of docs/harness.md's "Life of a sample"
# exists. About a minute warm; a cold build/ is made first.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

doc=docs/adding-a-benchmark.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The two unit tests the examples answer to, run here in the copy only:
# stage unit runs them on the tree as it is.
units=(catalogue run_catalogue)
unit_bins=("${units[@]/#/build/tests/unit/test_}")
if ! make -s smapbench "${unit_bins[@]}" >"$tmp/make.log" 2>&1; then
	show <"$tmp/make.log"
	not_ok "make smapbench and the catalogue's unit tests"
	exit 1
fi

# --- the hops of docs/harness.md -----------------------------------------
missing=""
while read -r hop; do
	file=${hop%%:*} func=${hop#*:}
	func=${func%()}
	grep -qE "^[A-Za-z].*[ *]$func\(" "$file" 2>/dev/null || missing="$missing $hop"
done < <(sed -n '/^## Life of a sample/,/^## /p' docs/harness.md |
	grep -oE '`[a-z_/]+\.c:[a-z_0-9]+\(\)`' | tr -d '`')
check "docs/harness.md's hops name functions that exist${missing:+ (not:$missing)}" test -z "$missing"

# --- the scratch copy: the tree as it is, build/ as it is ----------------
tree=$tmp/tree
mkdir "$tree"
git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$tree"
cp -a build "$tree/build"
# the revision the objects were built with: nothing rebuilt for it
git describe --always --dirty >"$tree/REVISION" 2>/dev/null || echo unknown >"$tree/REVISION"
awk -v dir="$tmp" '/^```diff/ { n++; inblock = 1; next }
	/^```/ { inblock = 0; next }
	inblock { print > (dir "/example" n ".diff") }' "$doc"
examples=$(find "$tmp" -maxdepth 1 -name 'example*.diff' | wc -l)
check "$doc holds the four worked examples as diffs (found $examples)" test "$examples" -eq 4
for diff in "$tmp"/example*.diff; do
	files=$(sed -n 's|^+++ b/||p' "$diff" | tr '\n' ' ')
	check "$doc's diff of ${files% } applies" \
		git -C "$tree" apply --whitespace=nowarn "$diff"
done
# smapbench and the two unit tests the examples answer to: linking every
# unit test again would cost more than the rest of the stage
start=$SECONDS
if ! make -C "$tree" -s smapbench "${unit_bins[@]}" >"$tmp/build.log" 2>&1; then
	show <"$tmp/build.log"
	not_ok "the tree with the examples builds (smapbench, test_catalogue, test_run_catalogue)"
	stage_exit
fi
ok "the tree with the examples builds, -Werror, in $((SECONDS - start)) s"
bin=$tree/build/smapbench

# --- what the page says each example gives -------------------------------
check "a syscall family: run --list has syscall/getcpu" \
	grep -q '^syscall/getcpu ' <("$bin" run --list)
check "a kmod op: the suite registers strnlen_user at 6 sizes, 4 with --quick" \
	test "$("$bin" run --list --suite kmod | grep -c strnlen_user)" -eq 6 -a \
	"$("$bin" run --list --suite kmod --quick | grep -c strnlen_user)" -eq 4
# in the copy: test_run_catalogue reads its docs/schema.md and data/
for unit_bin in "${unit_bins[@]}"; do
	check "${unit_bin##*/} passes with the examples in (their catalogue entries, getcpu's role, the key's docs)" \
		sh -c 'cd "$1" && "$2"' sh "$tree" "$unit_bin"
done
check "a context key: smapbench info --catalogue lists kernel_preempt as a comparison key" \
	grep -q "^kernel_preempt"$'\t'"comparison,shown"$'\t' <("$bin" info --catalogue context.csv)
cp -r tests/fixtures/run-nosmap "$tmp/off"
cp -r tests/fixtures/run-smap "$tmp/on"
echo kernel_preempt,full >>"$tmp/off/context.csv"
echo kernel_preempt,dynamic >>"$tmp/on/context.csv"
"$bin" compare "$tmp/off" "$tmp/on" --out "$tmp/cmp" >"$tmp/cmp.out" 2>&1
rc=$?
check "... and compare refuses two runs that differ in it, naming it (status $rc)" \
	test "$rc" -eq 1 -a -n "$(grep -A1 'refusing' "$tmp/cmp.out" | grep kernel_preempt)"
if command -v gnuplot >/dev/null; then
	run=vm-6.1.0-57-amd64-20261203-173441-smap
	cp -r "data/$run" "$tmp/$run"
	"$bin" plot "$tmp/$run" >/dev/null 2>&1 && "$bin" report "$tmp/$run" >/dev/null 2>&1
	check "a plot: smapbench plot draws clear.png of a published run, and report.md links it" \
		grep -qF '![clear_user against size](plots/clear.png)' "$tmp/$run/report.md"
else
	skip "a plot: clear.png drawn and linked" "no gnuplot (scripts/deps.sh install test)"
fi

# the key's roles left out: the unit test names the key and its roles
sed -i 's/{ .name = "kernel_preempt", .roles = KEY_COMPARISON | KEY_SHOWN,/{ .name = "kernel_preempt",/' \
	"$tree/rundata/catalogue.c"
if make -C "$tree" -s "${unit_bins[1]}" >"$tmp/roles.log" 2>&1; then
	(cd "$tree" && "${unit_bins[1]}") >"$tmp/roles.out" 2>&1
	rc=$?
	check "a context key without its roles fails test_run_catalogue, which names it (status $rc)" \
		grep -qF 'context key kernel_preempt: docs/schema.md gives the roles "comparison, shown", the catalogue "-"' \
		"$tmp/roles.out"
else
	show <"$tmp/roles.log"
	not_ok "a context key without its roles: test_run_catalogue builds"
fi

# --- the module, W=1 -----------------------------------------------------
kver=$(find /lib/modules -mindepth 2 -maxdepth 2 -name build 2>/dev/null | sort | head -n 1)
kver=${kver%/build}
kver=${kver##*/}
if [ -n "$kver" ]; then
	start=$SECONDS
	make -C "$tree" -s kmod-for KVER="$kver" KMOD_FLAGS="W=1" >"$tmp/kmod.log" 2>&1
	rc=$?
	grep -E 'warning:|error:' "$tmp/kmod.log" | show
	check "a kmod op: the module builds for $kver with W=1 and no warning (status $rc, $((SECONDS - start)) s)" \
		test "$rc" -eq 0 -a -z "$(grep -E 'warning:|error:' "$tmp/kmod.log")" -a \
		-f "$tree/build/kmod/$kver/smapbench.ko"
else
	skip "a kmod op: the module builds with W=1" "no kernel headers under /lib/modules/*/build"
fi
stage_exit
