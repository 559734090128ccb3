#!/bin/bash
# Checks the layout of smapbench.ko's timed loops, from its disassembly.
#
#   tests/kmod/check-layout.sh [--label TEXT] path/to/smapbench.ko
#
# smapbench_ops.c names the first instruction of every timed loop
# smapbench_loop_<op>_<variant>[_<width>] (op and variant by name, the
# width for get/put_user) and the end of each asm loop ..._end. For every inline loop and its nopad twin this
# checks that both start on a 64-byte boundary and hold the same bytes at
# the same offsets, except that each STAC (0f 01 cb) or CLAC (0f 01 ca) of
# inline is a NOP3 (0f 1f 00) in nopad; and for every other loop that it
# starts on a 64-byte boundary and that a backward branch goes there (the
# name is on the loop head, not just near it). Prints TAP lines; exit
# status 0 iff all are ok, 2 for bad usage or a missing tool.
set -u
label=""
c_align=64
while [ $# -gt 1 ]; do
	case $1 in
	--label) label="${2:?--label needs a text}: "; shift 2 ;;
	# clang puts an IBT endbr64 (and may put a register copy) at the
	# C loops' heads, the targets of their asm goto: there the C loops
	# are checked for being loops only (the branch back may land on that
	# endbr64), and their offsets are printed.
	--c-loops-any-offset) c_align=1; shift ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ] || ! [ -r "$1" ]; then
	echo "usage: $0 [--label TEXT] path/to/smapbench.ko" >&2
	exit 2
fi
command -v objdump >/dev/null || {
	echo "check-layout: objdump not found (apt-get install binutils)" >&2
	exit 2
}
ko=$1

objdump -t "$ko" | awk '$NF ~ /^smapbench_loop_/ { print $1, $(NF - 2), $NF }' \
	>"${TMPDIR:-/tmp}/check-layout.$$.sym"
objdump -d -w -j .text "$ko" >"${TMPDIR:-/tmp}/check-layout.$$.dis"
trap 'rm -f "${TMPDIR:-/tmp}/check-layout.$$".*' EXIT

awk -v label="$label" -v c_align="$c_align" '
function hex(s,    i, c, v) {
	v = 0
	s = tolower(s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (!c)
			return -1
		v = v * 16 + c - 1
	}
	return v
}
# A loop name <op>_<variant>[_<width>] into part["op"], part["variant"]
# and part["width"] ("" when none); op names have underscores, variant
# names none.
function parse(key, part,    rest, n, w) {
	rest = key
	part["width"] = ""
	if (match(rest, /_[0-9]+$/)) {
		part["width"] = substr(rest, RSTART + 1)
		rest = substr(rest, 1, RSTART - 1)
	}
	n = split(rest, w, "_")
	part["variant"] = w[n]
	part["op"] = substr(rest, 1, length(rest) - length(w[n]) - 1)
}
function loop_name(key,    part) {
	parse(key, part)
	return part["op"] "/" part["variant"] (part["width"] != "" ? "/" part["width"] : "")
}
# The instructions of [start, end): "offset bytes" per line, STAC and
# CLAC written as NOP3; counts of each in brackets[].
function body(start, end,    a, text, insn) {
	text = ""
	brackets["stac"] = brackets["clac"] = brackets["nop3"] = 0
	for (a = start; a < end; a++) {
		if (!(a in bytes))
			continue
		insn = bytes[a]
		if (mnemonic[a] == "stac" || mnemonic[a] == "clac") {
			brackets[mnemonic[a]]++
			insn = "0f 1f 00"
		} else if (insn == "0f 1f 00") {
			brackets["nop3"]++
		}
		text = text (a - start) " " insn "\n"
	}
	return text
}
# One TAP line, after a sort key (the shell sorts and drops it).
function ok(key, cond, what) {
	print key "\t" (cond ? "ok - " : "not ok - ") label what
	if (!cond)
		failed = 1
}
FILENAME ~ /\.sym$/ {
	if ($2 != ".text") {
		bad_section = bad_section " " $3
		next
	}
	name = $3
	sub(/^smapbench_loop_/, "", name)
	if (name ~ /_end$/) {
		sub(/_end$/, "", name)
		stop[name] = hex($1)
	} else {
		start[name] = hex($1)
	}
	next
}
# objdump -d -w: "  1c40:\t48 89 df \tmov    %rbx,%rdi"
/^ *[0-9a-f]+:\t/ {
	n = split($0, part, "\t")
	addr = part[1]
	sub(/^ */, "", addr)
	sub(/:$/, "", addr)
	a = hex(addr)
	b = part[2]
	sub(/ *$/, "", b)
	bytes[a] = b
	m = n >= 3 ? part[3] : ""
	split(m, word, " ")
	mnemonic[a] = word[1]
	# A branch to an address: remember where it goes, and from where.
	if (word[1] ~ /^j/ && word[2] ~ /^[0-9a-f]+$/) {
		target = hex(word[2])
		if (target <= a)
			backward[target] = 1
	}
}
END {
	if (bad_section != "")
		ok(0, 0, "loop names outside .text:" bad_section)
	count = 0
	for (key in start)
		count++
	ok(0, count > 0, "the module names its timed loops (" count " found)")

	for (key in start) {
		parse(key, k)
		if (k["variant"] != "inline")
			continue
		twin = k["op"] "_nopad" (k["width"] != "" ? "_" k["width"] : "")
		what = loop_name(key) " and its nopad twin"
		sort_key = sprintf("1 %s %d", k["op"], k["width"])
		if (!(twin in start) || !(key in stop) || !(twin in stop)) {
			ok(sort_key, 0, what ": a start or end name is missing")
			continue
		}
		s1 = start[key]; e1 = stop[key]
		s3 = start[twin]; e3 = stop[twin]
		inline_text = body(s1, e1)
		stacs = brackets["stac"]; clacs = brackets["clac"]
		nopad_text = body(s3, e3)
		twin_brackets = brackets["stac"] + brackets["clac"]
		why = ""
		if (s1 % 64 || s3 % 64)
			why = why sprintf(", start offsets %d and %d mod 64", s1 % 64, s3 % 64)
		if (e1 - s1 != e3 - s3)
			why = why sprintf(", lengths %d and %d", e1 - s1, e3 - s3)
		else if (inline_text != nopad_text)
			why = why ", bytes differ beyond STAC/CLAC <-> NOP3"
		if (!stacs || stacs != clacs)
			why = why sprintf(", inline has %d STAC and %d CLAC", stacs, clacs)
		if (twin_brackets)
			why = why sprintf(", nopad has %d STAC/CLAC", twin_brackets)
		if (why == "")
			ok(sort_key, 1, sprintf("%s: %d bytes at offset 0 mod 64, identical but %d STAC + %d CLAC <-> NOP3",
				      what, e1 - s1, stacs, clacs))
		else
			ok(sort_key, 0, what ": " substr(why, 3))
	}

	others = 0
	bad = ""
	for (key in start) {
		parse(key, k)
		if (k["variant"] == "inline" || k["variant"] == "nopad")
			continue
		others++
		if (start[key] % 64)
			offsets = offsets sprintf(" %s at %d mod 64;", loop_name(key), start[key] % 64)
		if (start[key] % c_align)
			bad = bad sprintf(" %s at %d mod 64;", loop_name(key), start[key] % 64)
		else if (!(start[key] in backward) &&
			 !(c_align == 1 && (start[key] - 4) in backward &&
			   bytes[start[key] - 4] == "f3 0f 1e fa"))
			bad = bad sprintf(" %s is not a branch target;", loop_name(key))
	}
	if (c_align == 64)
		ok(2, others > 0 && bad == "",
		   sprintf("the %d kapi, batched, masked and instruction-only loops start 64-byte aligned, at their loop heads%s", others, bad == "" ? "" : ":" bad))
	else
		ok(2, others > 0 && bad == "",
		   sprintf("the %d kapi, batched, masked and instruction-only loops start at their loop heads (alignment not required:%s)%s", others, offsets == "" ? " all at 0 mod 64" : offsets, bad == "" ? "" : ":" bad))
	exit failed
}' "${TMPDIR:-/tmp}/check-layout.$$.sym" "${TMPDIR:-/tmp}/check-layout.$$.dis" \
	>"${TMPDIR:-/tmp}/check-layout.$$.tap"
status=$?
sort "${TMPDIR:-/tmp}/check-layout.$$.tap" | cut -f 2-
exit "$status"
