#!/bin/bash
# The module's build-time checks: a matrix of the kernels users run.
#
# Cells: Debian 12's 6.1, 6.12 and 6.12-rt headers with GCC; Debian's
# 6.12 configured for clang (scripts/kmod-clang-tree.sh, LLVM=1); and
# header overlays over 6.12 that model 5.15, 6.8, 6.15 and 6.18
# (tests/kmod/overlays/), with GCC, and 6.18 with clang too. Each cell:
# a W=1 build without a warning (objtool's included), sparse (C=2)
# without a report, the layout of the timed loops (every inline/nopad
# twin: same bytes but STAC/CLAC <-> NOP3, same offset mod 64; every
# loop head: tests/kmod/check-layout.sh), and the kernel features the
# probes found (scripts/kmod-config.sh) against what that kernel has,
# with the rows each absence leaves out. Then: each overlay takes
# effect, a kernel older than 5.11 is refused with a message,
# checkpatch and kernel-doc are clean, the uapi header is usable from
# C11 with one layout for 32- and 64-bit callers, `make module`
# without headers says what to install, and the in-guest self-test
# builds statically. Loading and running the module is the VM stage's
# business (40-vm.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

BUILD=${BUILD:-build}
out_dir=$BUILD/kmod-check

# Newest installed headers whose release matches a pattern, as a release.
headers_like() {
	local d
	for d in /usr/src/linux-headers-*; do
		[ -f "$d/include/generated/utsrelease.h" ] || continue
		sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$d/include/generated/utsrelease.h"
	done | grep -E -- "$1" | sort -uV | tail -n 1
}
rel61=$(headers_like '^6\.1\.[0-9]+-[0-9]+-amd64$')
rel612=$(headers_like '^6\.12\.[0-9]+.*-amd64$' | grep -v -- '-rt-')
[ -n "$rel612" ] || rel612=$(headers_like '^6\.12\.[0-9]+\+deb[0-9]+-amd64$')
rel612rt=$(headers_like '^6\.12\.[0-9]+.*-rt-amd64$')

clang_tree=""
clang_why=""
if tree=$(scripts/kmod-clang-tree.sh 2>"$BUILD/kmod-clang-tree.log"); then
	clang_tree=$tree
else
	clang_why=$(tail -n 1 "$BUILD/kmod-clang-tree.log")
fi

# A fresh build directory per cell and flag, so every file is compiled
# (and checked) again rather than found up to date.
# kbuild LABEL FLAGS MAKE-ARGUMENT...
kbuild() {
	local dir="$out_dir/$1-$2"
	shift 2
	rm -rf "$dir"
	make --no-print-directory -s kmod-for KMOD_OUT="$dir" "$@" 2>&1
}

# The features a cell's kernel has (scripts/kmod-config.sh), as
# "cpuid_api_h=0 irq_count_nmi=0 masked=1 nmi_count=1 try_cmpxchg_user=1",
# from a build's header.
features_of() {
	sed -n 's/^#define SMAPBENCH_HAVE_\([A-Z_]*\)\t\([01]\)$/\1=\2/p' "$1" |
		tr '[:upper:]' '[:lower:]' | sort | tr '\n' ' ' | sed 's/ $//'
}

# What an absent feature leaves out of the module: its rows answer
# EOPNOTSUPP, and the kmod suite skips them with this reason. The NMI
# count has two places (6.x, 7.x): one of them is enough.
# left_out_by FEATURE ALL-FEATURES
left_out_by() {
	case $1 in
	cpuid_api_h) echo "nothing (cpuid_count() comes with <asm/processor.h> there)" ;;
	masked) echo "every masked row (masked_user_access_begin(), 6.12 and later)" ;;
	try_cmpxchg_user) echo "futex batched and masked (unsafe_try_cmpxchg_user(), 5.19 and later)" ;;
	nmi_count | irq_count_nmi)
		if [[ " $2 " == *" nmi_count=1 "* || " $2 " == *" irq_count_nmi=1 "* ]]; then
			echo "nothing (NMIs are counted in the other place there)"
		else
			echo "no rows; windows cannot see NMIs (neither irq_stat.__nmi_count nor irq_stat.counts[IRQ_COUNT_NMI])"
		fi ;;
	*) echo "unknown feature $1" ;;
	esac
}

# cell LABEL EXPECTED-FEATURES LAYOUT-OPTION MAKE-ARGUMENT...
cell() {
	local label=$1 want=$2 layout=$3 log rc ko warnings got f reports
	shift 3
	log=$(kbuild "$label" w1 KMOD_FLAGS=W=1 "$@")
	rc=$?
	ko="$out_dir/$label-w1/smapbench.ko"
	# objtool complaints count as warnings too: they name the object.
	warnings=$(echo "$log" | grep -E 'warning|error|objtool' | grep -v 'Skipping BTF')
	if [ "$rc" -eq 0 ] && [ -f "$ko" ] && [ -z "$warnings" ]; then
		ok "$label: builds with W=1 and no warning"
	else
		show 30 <<<"$log"
		not_ok "$label: W=1 build: status $rc, warnings above"
	fi
	got=$(features_of "$out_dir/$label-w1/smapbench_config.h" 2>/dev/null)
	if [ "$got" = "$want" ]; then
		ok "$label: the probes found what this kernel has: $got"
	else
		not_ok "$label: the probes found '$got', this kernel has '$want'"
	fi
	for f in $got; do
		[ "${f#*=}" = 0 ] || continue
		echo "#   $label: no ${f%=*}: left out $(left_out_by "${f%=*}" "$got")"
	done
	if [ -f "$ko" ]; then
		# One TAP line per twin pair, from the module's disassembly.
		# shellcheck disable=SC2086 # an option or nothing
		relay < <(tests/kmod/check-layout.sh $layout --label "$label: loop layout" "$ko")
	else
		not_ok "$label: loop layout: no module to disassemble"
	fi
	if ! command -v sparse >/dev/null; then
		skip "$label: sparse (C=2) is clean" "sparse not installed (apt-get install sparse)"
		return
	fi
	log=$(kbuild "$label" sparse KMOD_FLAGS=C=2 "$@")
	rc=$?
	reports=$(echo "$log" | grep -E ':[0-9]+:[0-9]+: (warning|error)')
	if [ "$rc" -eq 0 ] && [ -z "$reports" ]; then
		ok "$label: sparse (C=2) is clean"
	else
		show 30 <<<"$log"
		not_ok "$label: sparse (C=2): status $rc, reports above"
	fi
}

all="cpuid_api_h=0 irq_count_nmi=0 masked=1 nmi_count=1 try_cmpxchg_user=1"
no_masked="cpuid_api_h=0 irq_count_nmi=0 masked=0 nmi_count=1 try_cmpxchg_user=1"
overlays=tests/kmod/overlays

if [ -n "$rel61" ]; then
	cell "6.1-gcc" "$no_masked" "" KVER="$rel61"
	vermagic=$(modinfo -F vermagic "$out_dir/6.1-gcc-w1/smapbench.ko" 2>/dev/null | cut -d' ' -f1)
	if [ "$vermagic" = "$rel61" ]; then
		ok "smapbench.ko for $rel61 carries vermagic $rel61"
	else
		not_ok "smapbench.ko for $rel61 has vermagic '$vermagic'"
	fi
else
	not_ok "6.1 gcc: no Debian 6.1 headers (apt-get install linux-headers-amd64)"
fi
if [ -n "$rel612" ]; then
	cell "6.12-gcc" "$all" "" KVER="$rel612"
	cell "5.15-gcc" "cpuid_api_h=0 irq_count_nmi=0 masked=0 nmi_count=1 try_cmpxchg_user=0" "" KVER="$rel612" \
		KMOD_OVERLAY="$overlays/5.15"
	cell "6.8-gcc" "$no_masked" "" KVER="$rel612" KMOD_OVERLAY="$overlays/6.8"
	cell "6.15-gcc" "$all" "" KVER="$rel612" KMOD_OVERLAY="$overlays/6.15"
	cell "6.18-gcc" "$all" "" KVER="$rel612" KMOD_OVERLAY="$overlays/6.18"
else
	not_ok "6.12 gcc: no Debian 6.12 headers (apt-get install linux-headers-6.12-amd64)"
fi
if [ -n "$rel612rt" ]; then
	cell "6.12-rt-gcc" "$all" "" KVER="$rel612rt"
else
	not_ok "6.12-rt gcc: no Debian 6.12 PREEMPT_RT headers (apt-get install linux-headers-6.12-rt-amd64)"
fi
# clang puts an IBT endbr64 at the C loops' heads: check-layout.sh
# --c-loops-any-offset (kmod/README.md, "Kernels and compilers").
if [ -n "$clang_tree" ]; then
	cell "6.12-clang" "$all" --c-loops-any-offset KMOD_TREE="$clang_tree" KMOD_LLVM=1
	cell "6.18-clang" "$all" --c-loops-any-offset KMOD_TREE="$clang_tree" KMOD_LLVM=1 \
		KMOD_OVERLAY="$overlays/6.18"
else
	show 10 <"$BUILD/kmod-clang-tree.log"
	not_ok "6.12 clang: no clang-configured tree: $clang_why"
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
	make -s -C "/lib/modules/$rel612/build" M="$PWD/$dir" "${args[@]}" probe.i >/dev/null 2>&1 ||
		make -s -C "/usr/src/linux-headers-$rel612" M="$PWD/$dir" "${args[@]}" probe.i >/dev/null 2>&1
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
	done <<'EOF'
5.15 asm/uaccess.h unsafe_try_cmpxchg_user
5.15 linux/uaccess.h can_do_masked_user_access
6.8 linux/uaccess.h masked_user_access_begin
6.15 asm/smap.h __ASM_STAC
6.15 asm/smap.h __ASM_CLAC
6.18 asm/smap.h __ASM_CLAC
EOF
	log=$(kbuild "5.10-gcc" w1 KVER="$rel612" KMOD_VERSION=5.10)
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
