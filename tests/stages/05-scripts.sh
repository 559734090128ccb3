#!/bin/bash
# The shell files: lint of every one, and run-bench.sh's command-line contract
# (bad input exits 2 with a message, --help exits 0, non-root is refused).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

# Every shell file of the tree: named *.sh, or starting with a #! of sh
# or bash (vm/init, the fixtures' fake QEMU, .ci/run, ...), found anew on
# each run so that a new script is linted without a line here. Outside a
# git checkout (a copied tree), every file but build/'s.
list_files() {
	git ls-files -z 2>/dev/null && return
	find . -path ./build -prune -o -path ./.git -prune -o -type f -printf '%P\0'
}
scripts=()
while IFS= read -r -d '' f; do
	[ -f "$f" ] || continue
	if [[ $f == *.sh ]] || head -n 1 "$f" 2>/dev/null | LC_ALL=C tr -d '\0' |
		LC_ALL=C grep -qE '^#![[:space:]]*[^[:space:]]*/(env[[:space:]]+)?(ba|da)?sh([[:space:]]|$)'; then
		scripts+=("$f")
	fi
done < <(list_files)
if command -v shellcheck >/dev/null; then
	if out=$(shellcheck -S warning "${scripts[@]}" 2>&1); then
		ok "shellcheck clean on ${#scripts[@]} scripts"
	else
		show 40 <<<"$out"
		not_ok "shellcheck reports warnings"
	fi
else
	not_ok "shellcheck is not installed (apt-get install shellcheck)"
fi

expect_status() { # expected-status description command...
	local want=$1 what=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$what (status $rc)"
	else
		show 5 <<<"$out"
		not_ok "$what: status $rc, expected $want"
	fi
}
expect_status 0 "run-bench.sh --help" ./run-bench.sh --help
expect_status 2 "run-bench.sh rejects an unknown option" ./run-bench.sh --bogus
expect_status 2 "run-bench.sh rejects an unknown suite" ./run-bench.sh --suite nope
expect_status 2 "run-bench.sh rejects a non-numeric --cpu" ./run-bench.sh --cpu x
expect_status 2 "run-bench.sh rejects --kernel without --vm" ./run-bench.sh --kernel /boot/vmlinuz
expect_status 2 "run-bench.sh rejects a missing option value" ./run-bench.sh --out
expect_status 2 "run-bench.sh rejects a series of one boot" ./run-bench.sh --boots 1
expect_status 2 "run-bench.sh rejects --boots with --boots-abort" ./run-bench.sh --boots 2 --boots-abort
# --boots auto's options: each refusal names its reason (an unknown
# option would be status 2 too)
expect_refusal() { # description text-expected command...
	local what=$1 says=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $out == *"$says"* ]]; then
		ok "$what (status 2)"
	else
		show 5 <<<"$out"
		not_ok "$what: status $rc, expected 2 and '$says'"
	fi
}
expect_refusal "run-bench.sh --boots auto leaves the repetitions to the plan" "leave --repetitions out" \
	./run-bench.sh --boots auto --repetitions 5
expect_refusal "run-bench.sh --precision needs --boots" "it needs --boots" ./run-bench.sh --precision 1%
expect_refusal "run-bench.sh --precision 60% is out of range" "--precision '60%' is not a share" \
	./run-bench.sh --boots auto --precision 60%
expect_refusal "run-bench.sh --precision 1x is no share" "--precision '1x' is not a share" \
	./run-bench.sh --boots 4 --precision 1x
# taken (the option after it is the refusal): compared as numbers, 7 is
# within 50
expect_refusal "run-bench.sh takes --precision 7%" "unknown option '--bogus'" \
	./run-bench.sh --boots 4 --precision 7% --bogus
expect_refusal "run-bench.sh --max-boots needs --boots auto" "it needs --boots auto" \
	./run-bench.sh --boots 4 --max-boots 8
expect_refusal "run-bench.sh --max-boots 65 is more than a series has" "--max-boots '65'" \
	./run-bench.sh --boots auto --max-boots 65
expect_refusal "run-bench.sh --vm --boots auto has nothing to plan from" "give --boots N" \
	./run-bench.sh --vm --boots auto
if out=$(./run-bench.sh --bogus 2>&1); [[ "$out" == *"unknown option '--bogus'"* ]]; then
	ok "run-bench.sh names the bad option"
else
	not_ok "run-bench.sh message does not name the bad option: $out"
fi
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
	# From a copy in a world-readable directory: the checkout itself may sit
	# under a path that nobody cannot enter (/root).
	nr=$(mktemp -d)
	chmod 755 "$nr"
	cp run-bench.sh "$nr/"
	out=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$nr/run-bench.sh" --no-install 2>&1)
	rc=$?
	rm -rf "$nr"
	if [ "$rc" -eq 1 ] && [[ "$out" == *"as root"* ]]; then
		ok "run-bench.sh refuses to run without root, saying why"
	else
		not_ok "run-bench.sh as non-root: status $rc, output: $out"
	fi
else
	skip "run-bench.sh non-root refusal" "needs root and setpriv to switch user"
fi
expect_status 2 "deps.sh rejects bad usage" ./scripts/deps.sh frobnicate
stage_exit
