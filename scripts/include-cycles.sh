#!/bin/bash
# include-cycles.sh [--objects DIR] [SRCDIR...]: are the C files under
# SRCDIR (default: the rooms above measure/) layered, with no two that need each other?
#
# Two graphs, each checked for loops with tsort:
#  - includes: a module is x.c with its x.h; x including y.h is the edge
#    x -> y. Quoted includes resolve as the build does: the including
#    file's directory, then the top of the tree.
#  - calls: x.o using a symbol that y.o defines is the edge x -> y, from
#    the objects under DIR/SRCDIR (default build/user/dynamic, when
#    built). This sees through a header that declares the functions of
#    several files.
# Prints each loop found and exits 1; else one line per graph, exit 0.
set -u
cd "$(dirname "$0")/.." || exit 2
objects=${BUILD:-build}/user/dynamic
if [ "${1:-}" = --objects ]; then
	objects=$2
	shift 2
fi
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(rundata system suites analysis archive census cli)
status=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

# report WHAT: the loops of the edges file, or how many edges it has
report() {
	local loops
	if ! loops=$(sort -u "$edges" | tsort 2>&1 >/dev/null); then
		echo "$1 of ${dirs[*]}: loops:"
		sed -n 's/^tsort: /  /p' <<<"$loops"
		status=1
	else
		echo "$1 of ${dirs[*]}: no loop ($(sort -u "$edges" | awk '$1 != $2' | wc -l) edges)"
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
done < <(find "${dirs[@]}" -name '*.[ch]' | sort) >"$edges"
report includes

objs=()
for d in "${dirs[@]}"; do
	[ -d "$objects/$d" ] && while IFS= read -r o; do objs+=("$o"); done \
		< <(find "$objects/$d" -name '*.o' | sort)
done
if [ ${#objs[@]} -eq 0 ]; then
	echo "calls of ${dirs[*]}: not checked, no objects under $objects (make first)"
	exit "$status"
fi
for o in "${objs[@]}"; do
	node=${o#"$objects"/}
	node=${node%.o}
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
