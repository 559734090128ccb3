#!/bin/bash
# The commands the docs show run as shown, the way doctests do. About 10 s.
#
# A fenced block of shell commands (```sh) in README.md, data/README.md
# or docs/*.md says on the line above it whether it is checked:
#
#   <!-- docs-check: run -->              every line runs, and must exit 0
#   <!-- docs-check: skip: WHY -->        not run here (root, a module, a
#                                         VM, a placeholder), and WHY says so
#
# A ```sh block with neither is a failure, as is a marker with no ```sh
# block under it: the list of what runs and what does not stays honest.
# Lines run one at a time with bash from the top of a scratch tree that
# has build/ and plots/ of this checkout and copies of tests/fixtures/ and
# data/ (so that what a command writes there goes nowhere); "/tmp/" in a
# command stands for a directory of that scratch tree. A "# ..." comment after a
# command and lines ending in "\" are read as bash reads them. Every
# command run is printed.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

top=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! make -s smapbench >/dev/null 2>&1 || [ ! -x build/smapbench ]; then
	not_ok "build smapbench (make smapbench)"
	exit 1
fi

# The blocks, as "FILE<TAB>LINE<TAB>KIND<TAB>TEXT" records: KIND is run,
# skip, unmarked or stray (a marker without a block); TEXT is the block's
# commands (joined continuation lines, one per record), or the skip's WHY.
blocks() {
	awk '
	FNR == 1 { marker = ""; inblock = 0 }
	inblock && /^```/ { inblock = 0; next }
	inblock {
		if (kind != "run")
			next
		line = $0
		if (pending != "") {
			line = pending "\n" line
			pending = ""
		}
		if (line ~ /\\$/) {
			pending = line
			next
		}
		if (line ~ /^[[:space:]]*(#|$)/)
			next
		gsub(/\n/, "\\n", line)
		printf "%s\t%d\trun\t%s\n", FILENAME, start, line
		next
	}
	/^<!-- docs-check: (run|skip: .+) -->$/ {
		if (marker != "")
			printf "%s\t%d\tstray\t\n", FILENAME, markerline
		marker = $0
		markerline = FNR
		next
	}
	/^```sh[[:space:]]*$/ {
		inblock = 1
		start = FNR
		pending = ""
		if (marker ~ /: run -->/) {
			kind = "run"
		} else if (marker != "") {
			kind = "skip"
			why = marker
			sub(/^<!-- docs-check: skip: /, "", why)
			sub(/ -->$/, "", why)
			printf "%s\t%d\tskip\t%s\n", FILENAME, start, why
		} else {
			kind = "unmarked"
			printf "%s\t%d\tunmarked\t\n", FILENAME, start
		}
		marker = ""
		next
	}
	# a marker belongs to the very next line
	marker != "" {
		printf "%s\t%d\tstray\t\n", FILENAME, markerline
		marker = ""
	}
	' README.md data/README.md docs/*.md
}

mkdir -p "$tmp/tree/tests" "$tmp/tree/tmp"
ln -s "$top/build" "$tmp/tree/build"
ln -s "$top/plots" "$tmp/tree/plots"
cp -a tests/fixtures "$tmp/tree/tests/fixtures"
cp -a data "$tmp/tree/data"

ran=0 skipped=0
while IFS=$'\t' read -r file line kind text; do
	case $kind in
	unmarked)
		not_ok "$file:$line: a \`\`\`sh block without a docs-check marker (run, or skip: why)" ;;
	stray)
		not_ok "$file:$line: a docs-check marker with no \`\`\`sh block under it" ;;
	skip)
		echo "# $file:$line: not run: $text"
		skipped=$((skipped + 1)) ;;
	run)
		command=${text//\\n/$'\n'}
		command=${command//\/tmp\//$tmp/tree/tmp/}
		if out=$(cd "$tmp/tree" && bash -c "$command" 2>&1); then
			ok "$file:$line: ${text//\\n/ }"
		else
			not_ok "$file:$line: ${text//\\n/ } (exit status $?)"
			show <<<"$out"
		fi
		ran=$((ran + 1)) ;;
	esac
done < <(blocks)
if [ "$ran" -gt 0 ]; then
	ok "the docs' commands: $ran run; blocks marked not to run: $skipped"
else
	not_ok "no docs-check: run block found: the check checks nothing"
fi
stage_exit
