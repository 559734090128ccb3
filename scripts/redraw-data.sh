#!/bin/bash
# Redraws what data/ derives from its measurements with the code of this
# checkout: each run's plots/ and report.md, each census of a command
# (from its raw/ and context.csv: smapbench census redraw), each
# comparison (compare.csv, compare-settings.csv, plots/, report.md, from
# the two runs its name holds), data/README-plot.png (the comparison's
# ops plot), and the cross-machine table of every run: data/table/ and
# data/TABLE.md. The measurements themselves (samples.csv, results.csv,
# context.csv, a census's raw/) are never touched.
#
#   scripts/redraw-data.sh            redraw in place (make redraw-data)
#   scripts/redraw-data.sh --table    only the table (make table)
#   scripts/redraw-data.sh --check    redraw into a copy and list every
#                                     text output that differs from data/
#                                     (exit 1 if any): the published
#                                     reports are the code's own
set -u
cd "$(dirname "$0")/.." || exit 2

smapbench=${SMAPBENCH:-build/smapbench}
check=0 only_table=0
case ${1:-} in
"") ;;
--check) check=1 ;;
--table) only_table=1 ;;
*) echo "usage: scripts/redraw-data.sh [--check | --table]" >&2; exit 2 ;;
esac
[ -x "$smapbench" ] || { echo "redraw-data: $smapbench is not built (make)" >&2; exit 2; }
case $smapbench in /*) ;; *) smapbench=$PWD/$smapbench ;; esac

data=data
if [ "$check" -eq 1 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# the same relative names as data/: reports quote the runs' paths
	cp -a data "$tmp/data"
	data=$tmp/data
fi

failed=0
redraw() { # what command...
	local what=$1 out
	shift
	if ! out=$(cd "$(dirname "$data")" && "$@" 2>&1); then
		echo "redraw-data: $what failed:" >&2
		sed 's/^/  /' <<<"$out" >&2
		failed=1
	fi
}

# Run directories: the ones with results; a census has its own writer.
[ "$only_table" -eq 1 ] ||
for dir in "$data"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	case $name in compare-*) continue ;; esac
	[ -f "$dir/results.csv" ] || continue
	redraw "plot $name" "$smapbench" plot "data/$name"
	redraw "report $name" "$smapbench" report "data/$name"
done
# Censuses of a command: drawn again from their raw/ and context.csv.
[ "$only_table" -eq 1 ] ||
for dir in "$data"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[ "$(cat "$dir/.smapbench" 2>/dev/null)" = "smapbench census-command" ] ||
		continue
	fresh=$(mktemp -d "$data/.redraw.XXXXXX") || { failed=1; continue; }
	if redraw "census $name" "$smapbench" census redraw "data/$name" \
		--out "data/$(basename "$fresh")" &&
		[ -d "$fresh/$name" ]; then
		rm -rf "$dir" && mv "$fresh/$name" "$dir"
	fi
	rm -rf "$fresh"
done
# Comparisons: compare-A-vs-B, both runs published beside them.
for dir in "$data"/compare-*-vs-*/; do
	[ "$only_table" -eq 0 ] || break
	[ -d "$dir" ] || continue
	name=$(basename "$dir")
	pair=${name#compare-}
	a=${pair%%-vs-*} b=${pair#*-vs-}
	if [ ! -d "$data/$a" ] || [ ! -d "$data/$b" ]; then
		echo "redraw-data: $name: its runs $a and $b are not both in data/" >&2
		failed=1
		continue
	fi
	redraw "report $a $b" "$smapbench" report "data/$a" "data/$b" \
		--out "data/$name"
	# README.md shows the first comparison's ops plot
	if [ -z "${readme_plot:-}" ] && [ -f "$data/$name/plots/ops.png" ]; then
		readme_plot=$name
		cp "$data/$name/plots/ops.png" "$data/README-plot.png"
	fi
done

# The table of every run (TCG runs listed as left out), and TABLE.md: the
# same text with the plot's path as seen from data/.
redraw "table" "$smapbench" table --out data/table data/*/
if [ -f "$data/table/table.md" ]; then
	sed 's|](plots/table.png)|](table/plots/table.png)|' "$data/table/table.md" \
		>"$data/.TABLE.md.tmp" && mv "$data/.TABLE.md.tmp" "$data/TABLE.md"
fi

if [ "$check" -eq 1 ]; then
	# Text outputs only: PNG and SVG bytes depend on gnuplot's build.
	top=$PWD
	stale=$(cd "$data" && find . -type f \( -name '*.md' -o -name '*.csv' -o \
		-name '*.dat' \) ! -path './*/raw/*' | sort | while read -r f; do
		[ -f "$top/data/$f" ] && cmp -s "$f" "$top/data/$f" || echo "${f#./}"
	done)
	if [ -n "$stale" ]; then
		echo "redraw-data: these files of data/ are not what the code makes of the measurements (make redraw-data):"
		sed 's/^/  data\//' <<<"$stale"
		failed=1
	fi
fi
exit "$failed"
