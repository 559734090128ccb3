#!/bin/bash
# Checks that every identifier smapbench.ko defines at file scope carries
# the module's prefix: smapbench_ for functions, variables, tables, loop
# labels, struct/union/enum tags and typedefs, SMAPBENCH_ for macros and
# enum constants. A kernel header that defines a macro by one of the
# module's names breaks the build (7.2's get_user_inline() did); with the
# prefix none can.
#
#   tests/kmod/check-prefix.sh [--label TEXT] BUILD-DIR
#
# BUILD-DIR is a directory the module was built in, with its sources
# (build/kmod/<release>/, or kmod/ itself): the symbols its objects define
# (nm, which sees what the compiler and the asm emitted, loop labels
# included) and the names its sources define (#define, tags, typedefs,
# enum constants, functions and variables at column 0, which also finds
# what nm cannot: macros and always-inline functions). Exempt: pr_fmt
# (the kernel's hook), include guards (_SMAPBENCH_*_H, _UAPI_SMAPBENCH_H),
# the smapbench.mod.c modpost writes, and the symbols the kernel's own
# macros and the compiler generate (__UNIQUE_ID_*, __param_*,
# init_module, .LC0, a static local's name.N, ...). Prints two TAP
# lines; exit status 0 iff both are ok, 2 for bad usage.
set -u
label=""
if [ "${1:-}" = --label ]; then
	label="${2:?--label needs a text}: "
	shift 2
fi
if [ $# -ne 1 ] || ! [ -d "$1" ]; then
	echo "usage: $0 [--label TEXT] BUILD-DIR" >&2
	exit 2
fi
command -v nm >/dev/null || {
	echo "check-prefix: nm not found (apt-get install binutils)" >&2
	exit 2
}
dir=$1
failed=0

report() { # ok|not_ok WHAT [OFFENDERS]
	if [ "$1" = ok ]; then
		echo "ok - $label$2"
	else
		echo "not ok - $label$2: $3"
		failed=1
	fi
}

# The module's own objects: every .o beside the sources but the linked
# module and what modpost adds.
objects=()
for o in "$dir"/*.o; do
	case ${o##*/} in
	smapbench.o | smapbench.mod.o | *.mod.o) ;;
	*) [ -f "$o" ] && objects+=("$o") ;;
	esac
done
if [ ${#objects[@]} -eq 0 ]; then
	report not_ok "symbols of the module's objects" "no object in $dir (build the module first)"
else
	# The symbols each object defines, less what kernel macros and the
	# compiler generate; a clone's suffix (.isra.0, .constprop.0, .part.0,
	# .cold) is the function's own name, a plain .N a static local's.
	bad=$(nm --defined-only "${objects[@]}" 2>/dev/null | awk '
		/:$/ { file = $1; sub(/:$/, "", file); sub(/.*\//, "", file); next }
		NF < 3 { next }
		{
			name = $3
			while (sub(/\.(isra|constprop|part|cold|llvm)(\.[0-9]+)?$/, "", name))
				;
			if (name ~ /\.[0-9]+$/ || name ~ /^\.L/)
				next
			if (name ~ /^(init_module|cleanup_module)$/)
				next
			if (name ~ /^__(UNIQUE_ID_|param_|func_stack_frame_non_standard_|initcall|exitcall|export_symbol_|ksymtab|kstrtab|crc_|addressable_|mod_)/)
				next
			sub(/^__(pfx|cfi)_/, "", name)
			if (name !~ /^smapbench_/)
				print file ": " $3
		}' | sort -u)
	count=$(nm --defined-only "${objects[@]}" 2>/dev/null | awk 'NF == 3 && $3 ~ /^smapbench_/' | wc -l)
	names=$(printf '%s ' "${objects[@]##*/}")
	if [ -z "$bad" ]; then
		report ok "${names% }: $count symbols with the smapbench_ prefix, none without (the kernel's and the compiler's own apart)"
	else
		report not_ok "symbols without the smapbench_ prefix in ${names% }" \
			"$(echo "$bad" | head -n 10 | paste -sd, - | sed 's/,/, /g')"
	fi
fi

# The names the sources define. Lines of a macro's body (after a line
# ending in a backslash) are the macro's; its #define line is checked.
sources=()
for f in "$dir"/*.c "$dir"/*.h "$dir"/uapi/*.h "$dir"/uapi/*.def "$dir"/probes/*.c; do
	case $f in *.mod.c) continue ;; esac
	[ -f "$f" ] && sources+=("$f")
done
if [ ${#sources[@]} -eq 0 ]; then
	report not_ok "names defined in the module's sources" "no source in $dir"
	exit 1
fi
bad=$(awk '
	FNR == 1 { file = FILENAME; sub(/.*\//, "", file); cont = 0; in_enum = 0; last = "" }
	function check(kind, name, upper) {
		checked++
		if (upper ? name ~ /^SMAPBENCH_/ : name ~ /^smapbench_/)
			return
		print file ":" FNR ": " kind " " name
	}
	{
		line = $0
		prev = last
		last = line
		was_cont = cont
		cont = line ~ /\\$/
		if (was_cont)
			next
	}
	# macros
	match(line, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*/) {
		name = substr(line, RSTART, RLENGTH)
		sub(/.*define[ \t]+/, "", name)
		if (name == "pr_fmt" || name ~ /^_(UAPI_)?SMAPBENCH(_[A-Z0-9_]+)?_H$/)
			checked++
		else
			check("macro", name, 1)
		next
	}
	/^[ \t]*#/ { next }
	# struct, union and enum tags
	{
		rest = line
		while (match(rest, /(struct|union|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/)) {
			tag = substr(rest, RSTART, RLENGTH)
			sub(/^(struct|union|enum)[ \t]+/, "", tag)
			sub(/[ \t]*\{$/, "", tag)
			check("tag", tag, 0)
			rest = substr(rest, RSTART + RLENGTH)
		}
	}
	# enum constants, one per line, up to the closing brace
	/^(typedef[ \t]+)?enum([ \t]+[A-Za-z_][A-Za-z0-9_]*)?[ \t]*\{/ { in_enum = 1; next }
	in_enum && /^\}/ { in_enum = 0; next }
	in_enum {
		if (match(line, /^[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*(=|,|$)/)) {
			name = substr(line, RSTART, RLENGTH)
			gsub(/[ \t=,]/, "", name)
			check("enum constant", name, 1)
		}
		next
	}
	# typedefs: (*name)(...) or the last word before the semicolon
	/^typedef/ {
		if (match(line, /\(\*[ \t]*[A-Za-z_][A-Za-z0-9_]*\)/))
			name = substr(line, RSTART + 2, RLENGTH - 3)
		else if (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*;/))
			name = substr(line, RSTART, RLENGTH)
		gsub(/[ \t;]/, "", name)
		check("typedef", name, 0)
		next
	}
	# functions and variables defined at column 0: the name before the
	# first "(", "[", "=" or ";" of a line that starts with a type, or
	# that starts with the name itself after a line holding only the type
	/^[A-Za-z_]/ && line !~ /^(return|else|case|default)\b/ {
		head = line
		sub(/[(\[=;].*/, "", head)
		sub(/[ \t]+$/, "", head)
		n = split(head, word, /[ \t*]+/)
		name = word[n]
		sub(/^\*+/, "", name)
		type_before = n > 1 || (prev ~ /^(static|const|extern|[a-z_]+_t|unsigned|int|long|bool|void|u8|u16|u32|u64|struct)\b/ && prev !~ /[;{}),\\]$/)
		if (type_before && name ~ /^[A-Za-z_][A-Za-z0-9_#]*$/ &&
		    line ~ /[(\[=;]/ && head !~ /^(struct|union|enum)[ \t]+[A-Za-z0-9_]+$/)
			check(line ~ /^[^=;\[]*\(/ ? "function" : "variable", name, 0)
	}
	END { print "checked " checked > "/dev/stderr" }
' "${sources[@]}" 2>"${TMPDIR:-/tmp}/check-prefix.$$")
checked=$(sed -n 's/^checked //p' "${TMPDIR:-/tmp}/check-prefix.$$")
rm -f "${TMPDIR:-/tmp}/check-prefix.$$"
if [ -z "$bad" ]; then
	report ok "the $checked names the sources define at file scope (macros, tags, typedefs, enum constants, functions, variables) carry the smapbench_ prefix"
else
	report not_ok "names without the smapbench_ prefix in the sources" \
		"$(echo "$bad" | head -n 10 | paste -sd, - | sed 's/,/, /g')"
fi
exit "$failed"
