#!/bin/bash
# include-cycles.sh [--objects DIR]: do the C files of the rooms depend
# on each other only in the directions docs/development.md's Layout allows, and are
# they layered, with no two files that need each other?
#
# The rooms and their allowed directions are declared in one place: the
# Layout table of docs/development.md, read by scripts/rooms.sh. A room may include
# and call itself and the rooms of its "uses" column, nothing else.
#
# Two graphs, each checked against those directions and for loops:
#  - includes: a module is x.c with its x.h; x including y.h is the edge
#    x -> y. Quoted includes resolve as the build does: the including
#    file's directory, then the top of the tree. Headers the build
#    generates (build/include, build/bpf) are not edges.
#  - calls: x.o using a symbol that y.o defines is the edge x -> y, from
#    the objects under DIR (default build/user/dynamic, when built) and
#    the bpf loader library's under build/bpf. This sees through a header
#    that declares the functions of several files.
# Prints each edge against the directions and each loop, and exits 1;
# else one line per graph, exit 0.
set -u
cd "$(dirname "$0")/.." || exit 2
build=${BUILD:-build}
objects=$build/user/dynamic
if [ "${1:-}" = --objects ]; then
	objects=$2
	shift 2
fi
status=0
edges=$(mktemp)
allowed=$(mktemp)
trap 'rm -f "$edges" "$allowed"' EXIT

# "room used" lines, one per allowed direction (and "room room").
scripts/rooms.sh --uses >"$allowed"
mapfile -t rooms < <(awk '$1 == $2 { print $1 }' "$allowed")
if [ ${#rooms[@]} -eq 0 ]; then
	echo "include-cycles: no rooms in docs/development.md's Layout table" >&2
	exit 2
fi
is_room() {
	grep -qx "$1 $1" "$allowed"
}

# report WHAT: the edges against the directions, the loops, or a summary
report() {
	local loops wrong
	wrong=$(sort -u "$edges" | awk '$1 != $2' | while read -r from to; do
		a=${from%%/*} b=${to%%/*}
		is_room "$a" && is_room "$b" || continue
		grep -qx "$a $b" "$allowed" || echo "  $from -> $to ($a/ may not use $b/)"
	done)
	if [ -n "$wrong" ]; then
		echo "$1 of the rooms: against docs/development.md's Layout:"
		printf '%s\n' "$wrong"
		status=1
	fi
	if ! loops=$(sort -u "$edges" | tsort 2>&1 >/dev/null); then
		echo "$1 of the rooms: loops:"
		sed -n 's/^tsort: /  /p' <<<"$loops"
		status=1
	fi
	if [ -z "$wrong" ] && [ -z "${loops:-}" ]; then
		echo "$1 of ${rooms[*]}: as the Layout allows, no loop" \
			"($(sort -u "$edges" | awk '$1 != $2' | wc -l) edges)"
	fi
}

# resolve FILE INCLUDED: the module of the header, or nothing
resolve() {
	local dir
	for dir in "$(dirname "$1")" .; do
		if [ -f "$dir/$2" ]; then
			realpath --relative-to=. "$dir/$2" | sed 's/\.[ch]$//'
			return
		fi
	done
}

while IFS= read -r file; do
	module=${file%.[ch]}
	echo "$module $module"
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file" | while IFS= read -r name; do
		target=$(resolve "$file" "$name")
		if [ -n "$target" ] && [ "$target" != "$module" ]; then
			echo "$module $target"
		fi
	done
done < <(find "${rooms[@]}" -name '*.[ch]' ! -name '*.mod.c' | sort) >"$edges"
report includes

# "object node" pairs: the node is the source file's path without .c
objs=()
for d in "${rooms[@]}"; do
	[ -d "$objects/$d" ] && while IFS= read -r o; do
		node=${o#"$objects"/}
		# an object left from a renamed or removed file is no part of the build
		[ -f "${node%.o}.c" ] || continue
		objs+=("$o ${node%.o}")
	done < <(find "$objects/$d" -name '*.o' | sort)
done
if [ ${#objs[@]} -eq 0 ]; then
	echo "calls of the rooms: not checked, no objects under $objects (make first)"
	exit "$status"
fi
for o in "$build"/bpf/loader.o "$build"/bpf/loader_stub.o "$build"/bpf/common.o; do
	[ -f "$o" ] && objs+=("$o bpf/$(basename "$o" .o)")
done
for pair in "${objs[@]}"; do
	o=${pair% *} node=${pair##* }
	nm -g --defined-only "$o" | awk -v n="$node" 'NF == 3 { print "D", $3, n }'
	nm -u "$o" | awk -v n="$node" '{ print "U", $NF, n }'
done | awk '$1 == "D" { def[$2] = $3; print $3, $3; next }
	{ use[NR] = $2 " " $3 }
	END {
		for (i in use) {
			split(use[i], u, " ")
			if ((u[1] in def) && def[u[1]] != u[2])
				print u[2], def[u[1]]
		}
	}' >"$edges"
report calls
exit "$status"
