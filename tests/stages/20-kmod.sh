#!/bin/bash
# The module's build-time checks: a matrix of the kernel trees users run,
# each built in its own distribution's root with that distribution's
# compiler, as the distribution's users build it.
#
# Cells from real trees (roots made and cached by scripts/distro-root.sh,
# made at once; about 4 GB under /var/cache/smapbench/roots):
#   debian12   Debian 12's linux-headers-amd64 (6.1), GCC 12
#   debian13   Debian 13's linux-headers-amd64 (6.12), GCC 14
#   unstable   unstable's linux-headers-amd64, whatever it is on the day
#              (the release is printed), with its GCC
#   unstable-clang  unstable's linux-source of that kernel, its config
#              prepared with LLVM=1 (scripts/kmod-clang-tree.sh, in the
#              root), clang
# and cheap cells on this machine's headers (scripts/deps.sh test):
# Debian 12's 6.12 PREEMPT_RT headers, and header overlays over its 6.12
# headers for versions no archive here has, 5.15 and 6.8
# (tests/kmod/overlays/). Each cell: a W=1 build without a warning
# (objtool's included), sparse (C=2) without a report where the
# distribution has sparse, the layout of the timed loops (every
# inline/nopad twin: same bytes but STAC/CLAC <-> NOP3, same offset mod
# 64; every loop head: tests/kmod/check-layout.sh, run in the root), the
# smapbench_ prefix of every name the module defines
# (tests/kmod/check-prefix.sh, shown to fail on planted names), and
# each probe's answer (kmod/probes/config.sh) against what the tree
# shows (the probe's "tree:" lines, its "exports:" in Module.symvers;
# an overlay's #undef takes it away). Then: the matrix as a table, the
# README's claim against it, each overlay takes effect, a kernel older
# than 5.11 is refused with a message, checkpatch and kernel-doc are
# clean, the uapi header is usable from C11 with one layout for 32- and
# 64-bit callers, `make module` without headers says what to install,
# and the in-guest self-test builds statically. Loading and running the
# module is the VM stage's business (40-vm.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
top=$PWD

BUILD=${BUILD:-build}
out_dir=$top/$BUILD/kmod-check
mkdir -p "$out_dir"
matrix=$out_dir/matrix.md
printf '| cell | kernel tree | compiler | result | left out |\n| --- | --- | --- | --- | --- |\n' >"$matrix"

# Newest installed headers whose release matches a pattern, as a release.
headers_like() { # pattern [root]
	local d
	for d in "${2:-}"/usr/src/linux-headers-*; do
		[ -f "$d/include/generated/utsrelease.h" ] || continue
		sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$d/include/generated/utsrelease.h"
	done | grep -E -- "$1" | sort -uV | tail -n 1
}

# ------------------------------------------------------------ the roots
# What each distribution's cells need, on top of its pristine root
# (build-essential and git): its kernel headers, which bring the
# compiler its kernel was built with, and sparse; unstable's also the
# kernel's source and what prepares it with clang.
declare -A root_packages=(
	[bookworm]="linux-headers-amd64 sparse"
	[trixie]="linux-headers-amd64 sparse"
	[sid]="linux-headers-amd64 sparse linux-source clang lld llvm flex bison bc libelf-dev libssl-dev xz-utils"
)
declare -A root_of=()
if [ "$(id -u)" -ne 0 ] || ! command -v mmdebstrap >/dev/null; then
	roots_why="needs root and mmdebstrap (scripts/deps.sh install test)"
else
	roots_why=""
	started=$SECONDS
	for suite in "${!root_packages[@]}"; do
		# shellcheck disable=SC2086 # one word per package
		scripts/distro-root.sh make "$suite" ${root_packages[$suite]} \
			>"$out_dir/root-$suite.path" 2>"$out_dir/root-$suite.log" &
	done
	wait
	for suite in "${!root_packages[@]}"; do
		path=$(cat "$out_dir/root-$suite.path")
		if [ -n "$path" ] && [ -d "$path" ]; then
			root_of[$suite]=$path
		else
			show <"$out_dir/root-$suite.log"
			not_ok "$suite root with ${root_packages[$suite]}"
		fi
	done
	echo "# roots ready in $((SECONDS - started)) s"
fi

# in_root ROOT COMMAND...: COMMAND in ROOT, this checkout at its path.
in_root() {
	local root=$1
	shift
	if [ -z "$root" ]; then
		"$@"
	else
		scripts/distro-root.sh run --bind "$top" "$root" "$@"
	fi
}

# unstable's clang tree: prepared in the root, in the background while
# the GCC cells build (it is kept in the root's /var/cache/smapbench).
clang_pid=""
if [ -n "${root_of[sid]:-}" ]; then
	in_root "${root_of[sid]}" "$top/scripts/kmod-clang-tree.sh" \
		>"$out_dir/clang-tree.path" 2>"$out_dir/clang-tree.log" &
	clang_pid=$!
fi

# A fresh build directory per cell and flag, so every file is compiled
# (and checked) again rather than found up to date.
# kbuild ROOT LABEL FLAGS MAKE-ARGUMENT...
kbuild() {
	local root=$1 dir="$out_dir/$2-$3"
	shift 3
	rm -rf "$dir"
	in_root "$root" make -C "$top" --no-print-directory -s kmod-for KMOD_OUT="$dir" "$@" 2>&1
}

# The features a cell's kernel has (kmod/probes/config.sh), as
# "masked=1 nmi_count=1 try_cmpxchg_user=1", from a build's header.
features_of() {
	sed -n 's/^#define SMAPBENCH_HAVE_\([A-Z_]*\)\t\([01]\)$/\1=\2/p' "$1" |
		tr '[:upper:]' '[:lower:]' | sort | tr '\n' ' ' | sed 's/ $//'
}

# tree_file ROOT KDIR FILE: FILE of the tree at KDIR in ROOT, as this
# machine sees it; Debian's headers keep the sources in a -common
# directory their Makefile includes.
tree_file() {
	local common
	if [ -f "$1$2/$3" ]; then
		echo "$1$2/$3"
		return
	fi
	common=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$1$2/Makefile" | head -n 1)
	echo "$1$common/$3"
}

# What the tree at KDIR (a path as this machine sees it; ROOT-relative
# paths inside it are resolved) has of each probe's API, in the form of
# features_of: a probe's "tree:" lines (any one), its "exports:" in
# Module.symvers, less what the overlay's #undef lines take away.
# tree_features ROOT KDIR OVERLAY
tree_features() {
	local root=$1 kdir=$2 overlay=$3 probe name have file ere sym undefs
	undefs=""
	[ -z "$overlay" ] || undefs=$(cat "$overlay"/*/*.h 2>/dev/null | sed -n 's/^#undef \([A-Za-z0-9_]*\).*/\1/p')
	for probe in kmod/probes/*.c; do
		name=$(basename "$probe" .c)
		have=0
		while read -r file ere; do
			file=$(tree_file "$root" "$kdir" "$file")
			grep -qE -- "$ere" "$file" 2>/dev/null && have=1
			for sym in $undefs; do
				grep -qw -- "$sym" <<<"$ere" && have=0
			done
		done < <(sed -n 's/^ \* tree: //p' "$probe")
		[ -n "$(sed -n 's/^ \* tree: //p' "$probe")" ] || have="unknown(no tree: line in $probe)"
		for sym in $(sed -n 's/^ \* exports: //p' "$probe"); do
			awk -v s="$sym" '$2 == s { found = 1 } END { exit !found }' \
				"$root$kdir/Module.symvers" 2>/dev/null || have=0
		done
		echo "$name=$have"
	done | sort | tr '\n' ' ' | sed 's/ $//'
}

# What an absent feature leaves out of the module: its probe's "without:"
# line.
left_out_by() { sed -n 's/^ \* without: //p' "kmod/probes/$1.c" | head -n 1; }

# cell LABEL ROOT KDIR OVERLAY TREE-TEXT LAYOUT-OPTION MAKE-ARGUMENT...
# ROOT empty: this machine. KDIR: the tree as seen inside ROOT.
cell() {
	local label=$1 root=$2 kdir=$3 overlay=$4 tree_text=$5 layout=$6
	local log rc ko warnings got want f reports compiler result=ok absent=""
	shift 6
	log=$(kbuild "$root" "$label" w1 KMOD_FLAGS=W=1 "$@")
	rc=$?
	ko="$out_dir/$label-w1/smapbench.ko"
	# objtool complaints count as warnings too: they name the object.
	warnings=$(echo "$log" | grep -E 'warning|error|objtool' | grep -v 'Skipping BTF')
	compiler=$(readelf -p .comment "$ko" 2>/dev/null | sed -n 's/^ *\[ *[0-9a-f]*\] *//p' |
		grep -E 'GCC|clang' | head -n 1)
	if [ "$rc" -eq 0 ] && [ -f "$ko" ] && [ -z "$warnings" ]; then
		ok "$label: builds with W=1 and no warning against $tree_text (${compiler:-compiler unknown})"
	else
		show 30 <<<"$log"
		not_ok "$label: W=1 build against $tree_text: status $rc, warnings above"
		result="W=1 build fails"
	fi
	got=$(features_of "$out_dir/$label-w1/smapbench_config.h" 2>/dev/null)
	want=$(tree_features "$root" "$kdir" "$overlay")
	if [ "$got" = "$want" ]; then
		ok "$label: the probes found what the tree has: $got"
	else
		not_ok "$label: the probes found '$got', the tree has '$want'"
		result="$result; probes wrong"
	fi
	for f in $got; do
		[ "${f#*=}" = 0 ] || continue
		# what leaves nothing out is no loss
		[[ "$(left_out_by "${f%=*}")" == nothing* ]] && continue
		absent="$absent${absent:+, }${f%=*} ($(left_out_by "${f%=*}"))"
	done
	if [ -f "$ko" ]; then
		# One TAP line per twin pair, from the module's disassembly,
		# by the root's own binutils.
		# shellcheck disable=SC2086 # an option or nothing
		relay < <(in_root "$root" "$top/tests/kmod/check-layout.sh" $layout \
			--label "$label: loop layout" "$ko" 2>&1) || result="$result; layout"
	else
		not_ok "$label: loop layout: no module to disassemble"
	fi
	# Every name the module defines carries its prefix: no kernel macro
	# can take one (tests/kmod/check-prefix.sh, the root's nm).
	relay < <(in_root "$root" "$top/tests/kmod/check-prefix.sh" \
		--label "$label: prefix" "$out_dir/$label-w1" 2>&1) || result="$result; prefix"
	if ! in_root "$root" sh -c 'command -v sparse' >/dev/null 2>&1; then
		skip "$label: sparse (C=2) is clean" "no sparse where this cell builds"
	else
		log=$(kbuild "$root" "$label" sparse KMOD_FLAGS=C=2 "$@")
		rc=$?
		reports=$(echo "$log" | grep -E ':[0-9]+:[0-9]+: (warning|error)')
		# kbuild turns C=2 off, with a warning, where the tree cannot
		# check with this sparse (7.x headers without
		# scripts/checker-valid.sh, or a sparse too old for them):
		# that is no clean run.
		if echo "$log" | grep -q 'specified, but .* is not available or not up to date'; then
			skip "$label: sparse (C=2) is clean" \
				"kbuild found no sparse it can use for this tree: $(echo "$log" | grep -o 'C=2 specified.*' | head -n 1)"
			result="$result (sparse: none for this tree)"
		elif [ "$rc" -eq 0 ] && [ -z "$reports" ]; then
			ok "$label: sparse (C=2) is clean"
		else
			show 30 <<<"$log"
			not_ok "$label: sparse (C=2): status $rc, reports above"
			result="$result; sparse"
		fi
	fi
	printf '| %s | %s | %s | %s | %s |\n' "$label" "$tree_text" "${compiler:-?}" \
		"${result#ok; }" "${absent:-none}" >>"$matrix"
}

# root_cell LABEL SUITE DISTRIBUTION: the cell of SUITE's root and its
# linux-headers-amd64.
newest_release=""
root_cell() {
	local label=$1 suite=$2 distribution=$3 root release
	root=${root_of[$suite]:-}
	if [ -z "$root" ]; then
		not_ok "$label: no $suite root${roots_why:+: $roots_why}"
		printf '| %s | %s | - | no root | - |\n' "$label" "$distribution" >>"$matrix"
		return
	fi
	release=$(headers_like '-amd64$' "$root" | grep -v -- '-rt-')
	if [ -z "$release" ]; then
		not_ok "$label: no kernel headers in the $suite root"
		return
	fi
	cell "$label" "$root" "/usr/src/linux-headers-$release" "" \
		"$distribution's $release headers" "" KVER="$release"
	if [ "$suite" = sid ]; then
		newest_release=$release
		echo "# $label: unstable's newest kernel today: $release"
	fi
}

overlays=tests/kmod/overlays
root_cell debian12 bookworm "Debian 12"
root_cell debian13 trixie "Debian 13"
root_cell unstable sid "unstable"

# clang puts an IBT endbr64 at the C loops' heads: check-layout.sh
# --c-loops-any-offset (kmod/README.md, "Kernels and compilers").
if [ -n "$clang_pid" ]; then
	wait "$clang_pid"
	clang_tree=$(cat "$out_dir/clang-tree.path")
	if [ -n "$clang_tree" ] && [ -f "${root_of[sid]}$clang_tree/Makefile" ]; then
		clang_release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
			"${root_of[sid]}$clang_tree/include/generated/utsrelease.h")
		cell unstable-clang "${root_of[sid]}" "$clang_tree" "" \
			"unstable's linux-source $clang_release, LLVM=1" \
			--c-loops-any-offset KMOD_TREE="$clang_tree" KMOD_LLVM=1
	else
		show 10 <"$out_dir/clang-tree.log"
		not_ok "unstable-clang: no clang-configured tree (scripts/kmod-clang-tree.sh in the sid root)"
	fi
fi

# This machine's headers: Debian 12's PREEMPT_RT 6.12, and its 6.12 as
# the base of the overlays.
rel612=$(headers_like '^6\.12\.[0-9]+\+deb[0-9]+-amd64$')
rel612rt=$(headers_like '^6\.12\.[0-9]+.*-rt-amd64$')
kdir_of() { local d; for d in "/lib/modules/$1/build" "/usr/src/linux-headers-$1"; do
	[ -f "$d/Makefile" ] && { echo "$d"; return; }; done; }
if [ -n "$rel612rt" ]; then
	cell 6.12-rt "" "$(kdir_of "$rel612rt")" "" "Debian 12's $rel612rt headers" "" KVER="$rel612rt"
else
	not_ok "6.12-rt: no Debian 6.12 PREEMPT_RT headers (apt-get install linux-headers-6.12-rt-amd64)"
fi
if [ -n "$rel612" ]; then
	for version in 5.15 6.8; do
		cell "$version" "" "$(kdir_of "$rel612")" "$overlays/$version" \
			"$rel612 headers + overlay $version" "" KVER="$rel612" \
			KMOD_OVERLAY="$overlays/$version"
	done
else
	not_ok "5.15, 6.8: no Debian 6.12 headers (apt-get install linux-headers-6.12-amd64)"
fi
# The prefix check itself, on names planted in a copy of a build: an
# unprefixed symbol in an object (the loop name 7.2's <linux/uaccess.h>
# took) and an unprefixed macro in a source.
if [ -f "$out_dir/6.12-rt-w1/smapbench_ops.o" ]; then
	planted=$out_dir/prefix-planted
	rm -rf "$planted"
	mkdir -p "$planted"
	cp -r "$out_dir/6.12-rt-w1/." "$planted/"
	objcopy --add-symbol get_user_inline=.text:0,local,function "$planted/smapbench_ops.o" &&
		echo '#define ACCESS(insn) insn' >>"$planted/smapbench_ops.c"
	log=$(tests/kmod/check-prefix.sh "$planted")
	if [ $? -ne 0 ] && echo "$log" | grep -q '^not ok .*smapbench_ops.o: get_user_inline' &&
		echo "$log" | grep -q '^not ok .*smapbench_ops.c:[0-9]*: macro ACCESS'; then
		ok "the prefix check fails on planted names: $(echo "$log" | sed 's/^not ok - [^:]*: //' | paste -sd';' - | sed 's/;/; /')"
	else
		show 5 <<<"$log"
		not_ok "the prefix check does not catch an unprefixed symbol and macro planted in a copy of the 6.12-rt build"
	fi
fi
sed 's/^/# /' "$matrix"

# ------------------------------------------------------------ the README's claim
# It names the newest release the matrix built against: never one newer
# than what the matrix built today.
claimed=$(tr -s '\n ' '  ' <README.md |
	sed -n 's/.*unstable'\''s [0-9][0-9.]* (\([0-9][0-9.]*\) when last checked.*/\1/p')
built=$(grep -E '^\| unstable \|' "$matrix" | grep -cE '\| ok[ |]')
if [ -z "$newest_release" ]; then
	skip "the README's newest kernel ($claimed) is what the matrix builds" "no unstable cell here"
elif [ -z "$claimed" ]; then
	not_ok "README.md names no newest kernel as \"unstable's X.Y (X.Y.Z when last checked)\""
elif [ "$built" = 1 ] && [ "$(printf '%s\n' "$claimed" "${newest_release%%[+-]*}" | sort -V | tail -n 1)" = "${newest_release%%[+-]*}" ]; then
	ok "the README's newest kernel, $claimed, is no newer than the matrix built today (${newest_release%%[+-]*})"
	[ "$claimed" = "${newest_release%%[+-]*}" ] ||
		echo "# README.md could name ${newest_release%%[+-]*}: the matrix built against it"
else
	not_ok "README.md claims $claimed; the matrix built ${newest_release%%[+-]*}$([ "$built" = 1 ] || echo ", and failed")"
fi

# An overlay only models a change if the base tree has what it takes
# away: each macro it removes is defined by the base headers and not
# with the overlay (one kbuild preprocessing run each way).
# defined_in OVERLAY-OR-EMPTY HEADER MACRO: prints 1 or 0
defined_in() {
	local dir="$out_dir/overlay-probe" args=()
	rm -rf "$dir"
	mkdir -p "$dir"
	printf '#include <%s>\n#ifdef %s\nsmapbench_defined\n#endif\n' "$2" "$3" >"$dir/probe.c"
	echo 'obj-m += probe.o' >"$dir/Kbuild"
	[ -n "$1" ] && args=("NOSTDINC_FLAGS=-nostdinc -I$PWD/$1")
	make -s -C "$(kdir_of "$rel612")" M="$dir" "${args[@]}" probe.i >/dev/null 2>&1
	grep -qx smapbench_defined "$dir/probe.i" 2>/dev/null && echo 1 || echo 0
}
if [ -n "$rel612" ]; then
	while read -r overlay header macro; do
		base=$(defined_in "" "$header" "$macro")
		with=$(defined_in "$overlays/$overlay" "$header" "$macro")
		if [ "$base" = 1 ] && [ "$with" = 0 ]; then
			ok "overlay $overlay takes effect: $macro of <$header> is in $rel612 and gone with the overlay"
		else
			not_ok "overlay $overlay: $macro of <$header> defined $base in $rel612, $with with the overlay (want 1, 0)"
		fi
	done <<'EOF2'
5.15 asm/uaccess.h unsafe_try_cmpxchg_user
5.15 linux/uaccess.h can_do_masked_user_access
6.8 linux/uaccess.h masked_user_access_begin
EOF2
	log=$(kbuild "" "5.10-gcc" w1 KVER="$rel612" KMOD_VERSION=5.10)
	if [ $? -ne 0 ] && echo "$log" | grep -q "needs Linux 5.11 or later; this kernel is 5.10"; then
		ok "a 5.10 kernel is refused: $(echo "$log" | grep -o 'smapbench.ko needs Linux 5.11.*5\.10')"
	else
		show 10 <<<"$log"
		not_ok "a 5.10 kernel is not refused with a message naming 5.11"
	fi
fi

if make --no-print-directory -s kmod-doctools >/dev/null 2>&1; then
	tools=$BUILD/linux-source/scripts
	log=$("$tools/checkpatch.pl" --no-tree --show-types --terse -f \
		kmod/*.c kmod/*.h kmod/uapi/*.h kmod/uapi/*.def kmod/probes/*.c 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && ! echo "$log" | grep -qE '(WARNING|ERROR|CHECK):'; then
		ok "checkpatch --no-tree -f is clean on kmod/ sources and probes"
	else
		show 30 <<<"$log"
		not_ok "checkpatch reports problems in kmod/ sources"
	fi

	log=$(perl "$tools/kernel-doc" -none -Werror kmod/uapi/smapbench.h \
		kmod/smapbench_ops.h kmod/smapbench_main.c kmod/smapbench_ops.c 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ -z "$log" ]; then
		ok "kernel-doc -Werror is clean on the uapi header and the module's doc comments"
	else
		show 30 <<<"$log"
		not_ok "kernel-doc reports problems"
	fi
else
	skip "checkpatch --no-tree -f is clean on kmod/ sources" \
		"no linux-source-6.1 tarball (apt-get install linux-source-6.1)"
	skip "kernel-doc is clean on the uapi header" "no linux-source-6.1 tarball"
fi

# The header is the harness's contract: it must stand alone in C11 and
# keep its layout (sizes are part of the ioctl numbers). A struct whose
# size is the sum of its members has no padding, so with its 8-byte
# members at multiples of 8 (asserted) a 32-bit caller, whose __u64 is
# 4-byte aligned, sees the same layout: what compat_ptr_ioctl relies on.
cc=${CC:-cc}
log=$(printf '%s\n' '#include <stddef.h>' '#include "kmod/uapi/smapbench.h"' \
	'#define M(s, f) sizeof(((struct s *)0)->f)' \
	'#define AT8(s, f) _Static_assert(offsetof(struct s, f) % 8 == 0, #f)' \
	'_Static_assert(sizeof(struct smapbench_info) == 152, "info size");' \
	'_Static_assert(sizeof(struct smapbench_run) == 136, "run size");' \
	'_Static_assert(sizeof(struct smapbench_sample) == 24, "sample size");' \
	'_Static_assert(sizeof(struct smapbench_info) == 10 * 4 + 5 * 8 + 72, "info padding");' \
	'_Static_assert(sizeof(struct smapbench_run) == 18 * 4 + 8 * 8, "run padding");' \
	'AT8(smapbench_info, tsc_khz); AT8(smapbench_info, ops_mask); AT8(smapbench_info, reserved);' \
	'AT8(smapbench_run, buffer); AT8(smapbench_run, buffer_len); AT8(smapbench_run, samples_ptr);' \
	'AT8(smapbench_run, timer_overhead_tsc); AT8(smapbench_run, timer_overhead_cycles);' \
	'AT8(smapbench_run, budget_tsc); AT8(smapbench_run, iteration_tsc); AT8(smapbench_run, window_max_tsc);' \
	'int main(void) { return SMAPBENCH_IOC_RUN == 0; }' |
	"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -I. -x c -o /dev/null - 2>&1)
if [ $? -eq 0 ]; then
	ok "uapi header compiles standalone in C11, sizes kept, no padding, 8-byte fields 8-aligned (one layout for 32-bit callers)"
else
	show 30 <<<"$log"
	not_ok "uapi header does not compile standalone with -std=c11 -Wall -Wextra -Werror, or its layout changed"
fi

# Without the running kernel's headers `make` must say so and what to
# install, not fail, and never build against another kernel's headers.
log=$(make --no-print-directory -s module KDIR=/nonexistent 2>&1)
if [ $? -eq 0 ] && echo "$log" | grep -q "apt-get install linux-headers" &&
	! echo "$log" | grep -q KBUILD; then
	ok "make module without this kernel's headers builds nothing, says what to install and succeeds"
else
	show 30 <<<"$log"
	not_ok "make module without kernel headers fails, builds against other headers, or gives no hint"
fi

log=$(make --no-print-directory -s kmod-selftest 2>&1)
if [ $? -eq 0 ] && [ -x "$BUILD/tests/kmod_selftest" ] &&
	! readelf -l "$BUILD/tests/kmod_selftest" | grep -q INTERP; then
	ok "kmod_selftest builds as a static program"
else
	show 30 <<<"$log"
	not_ok "kmod_selftest does not build statically"
fi

stage_exit
