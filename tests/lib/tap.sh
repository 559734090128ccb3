# TAP helpers of the test stages (sourced from the checkout's top, after
# the stage's cd): the lines tests/check.sh counts, and one conversion of
# cmocka's TAP into them.
# shellcheck shell=bash
#
# Kept out of tests/stages/: check.sh runs every tests/stages/*.sh as a stage.

# Failures so far; stage_exit turns them into the stage's status.
tap_failures=0

ok() { echo "ok - $*"; }
not_ok() {
	echo "not ok - $*"
	tap_failures=$((tap_failures + 1))
}
# skip NAME WHY: check.sh counts it apart from passes.
skip() { echo "ok - $1 # SKIP $2"; }

# show [MAX]: stdin as "#   " comment lines, at most MAX (20): the first
# and the last half, where a log's first error and its summary stand.
# shellcheck disable=SC2120 # stages pass MAX
show() {
	awk -v max="${1:-20}" '
		{ line[NR] = $0 }
		END {
			half = int(max / 2)
			for (i = 1; i <= NR; i++) {
				if (NR > max && i == half + 1)
					printf "#   [%d lines left out]\n", NR - 2 * half
				if (NR <= max || i <= half || i > NR - half)
					print "#   " line[i]
			}
		}'
}

# need_command COMMAND HINT: without COMMAND the stage cannot test
# anything: one failure that says how to install it, and the end.
need_command() {
	command -v "$1" >/dev/null && return
	not_ok "$1 is not installed ($2)"
	exit 1
}

# csv_column NAME FILE: the 1-based index of the column NAME in the header
# of the CSV FILE; nothing when it has none. Stages read results by name,
# as columns are added.
csv_column() { head -n 1 "$2" | tr , '\n' | grep -nx -- "$1" | cut -d: -f1; }

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds; otherwise not_ok,
# with what COMMAND printed so the failure explains itself.
check() {
	# Its locals are prefixed: COMMAND may be an eval of the caller's
	# variables, and a local "out" would hide the caller's.
	local tap_what=$1 tap_output
	shift
	if tap_output=$("$@" 2>&1); then
		ok "$tap_what"
	else
		not_ok "$tap_what"
		[ -z "$tap_output" ] || show <<<"$tap_output"
	fi
}

# cmocka_tap LABEL BINARY: BINARY's cases (CMOCKA_MESSAGE_OUTPUT=TAP) as
# "ok - LABEL: case" lines. cmocka prints a skip as "not ok N # SKIP
# case"; it becomes a TAP skip. A "result: ..." line a case prints (a
# measured rate) joins that case's line. A crash after its last case, or
# a binary that runs no case at all, must not pass for success.
cmocka_tap() {
	local label=$1 binary=$2 out rc line cases=0 failed=0 result=""
	if [ ! -x "$binary" ]; then
		not_ok "$label: $binary is not built (libcmocka-dev installed?)"
		return 1
	fi
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$binary" 2>&1)
	rc=$?
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ [0-9]+\ \#\ SKIP\ (.*)$ ]]; then
			skip "$label: ${BASH_REMATCH[2]}" "does not apply to this build or machine"
		elif [[ $line =~ ^result:\ (.*)$ ]]; then
			result=" (${BASH_REMATCH[1]})"
			continue
		elif [[ $line =~ ^ok\ [0-9]+\ -\ (.*)$ ]]; then
			ok "$label: ${BASH_REMATCH[1]}$result"
		elif [[ $line =~ ^not\ ok\ [0-9]+\ -\ (.*)$ ]]; then
			not_ok "$label: ${BASH_REMATCH[1]}$result"
			failed=$((failed + 1))
		else
			# The plan and cmocka's per-group summary repeat the above.
			[[ $line =~ ^(1\.\.[0-9]+|\#\ (not\ )?ok\ -\ .*|)$ ]] || echo "# ${line#\# }"
			continue
		fi
		cases=$((cases + 1))
		result=""
	done <<<"$out"
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		not_ok "$label: exited with status $rc"
	elif [ "$cases" -eq 0 ]; then
		not_ok "$label: no test case ran"
	fi
	[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$cases" -gt 0 ]
}

# relay [PREFIX]: another program's TAP lines (stdin) as this stage's,
# PREFIX put before each description, and counted; other lines pass.
# Feed it by redirection, not a pipe: a pipe's subshell loses the count.
# Fails when a relayed line was "not ok".
relay() {
	local prefix=${1:-} line failed=0
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "$prefix${line#ok - }" ;;
		"not ok - "*)
			not_ok "$prefix${line#not ok - }"
			failed=1 ;;
		*) echo "$line" ;;
		esac
	done
	return "$failed"
}

# The stage's status: check.sh counts a non-zero one without a "not ok"
# line as a failure, so the two always agree.
stage_exit() { exit $((tap_failures > 0)); }
