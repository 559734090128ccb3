#!/bin/bash
# The build where users put it: a fresh clone under a directory whose name
# has a space builds (module and libperf included where their sources are
# installed) and runs `run-bench.sh --quick --suite syscall`; the user's
# CFLAGS reach the compiler while -Werror stays; the module's sources are
# copied by name, so neither `make -C kmod` nor a by-hand kbuild in kmod/
# can leak one kernel's generated files into another kernel's build.
# Tests the committed HEAD. About 3 minutes (a full build on 2 CPUs).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
top=$(pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clone="$tmp/a dir/smapbench"
mkdir -p "$tmp/a dir"
if ! git clone -q --no-hardlinks "$top" "$clone" 2>"$tmp/clone.log" ||
	! git -C "$clone" checkout -q --detach "$(git rev-parse HEAD)"; then
	show <"$tmp/clone.log"
	not_ok "git clone of the checkout into '$tmp/a dir'"
	exit 1
fi
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "# uncommitted changes are not tested: this builds HEAD $(git rev-parse --short HEAD)"
fi
# Nothing of the caller's make may reach the clone's build.
clean_env=(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u CFLAGS -u CPPFLAGS
	-u LDFLAGS -u LDLIBS -u BUILD)
in_clone() { (cd "$clone" && "${clean_env[@]}" "$@"); }

# --- a path with a space -----------------------------------------------------
if in_clone make -j"$(nproc)" >"$tmp/make.log" 2>&1 && [ -x "$clone/build/smapbench" ]; then
	ok "make in a path with a space builds build/smapbench"
else
	show <"$tmp/make.log"
	not_ok "make in '$clone'"
	exit 1
fi
if [ -d "/lib/modules/$(uname -r)/build" ]; then
	if compgen -G "$clone/build/kmod/$(uname -r)/smapbench.ko" >/dev/null; then
		ok "make builds smapbench.ko for the running kernel"
	else
		show <"$tmp/make.log"
		not_ok "make built no smapbench.ko for the running kernel, whose headers are installed"
	fi
elif grep -q "left out smapbench.ko for this kernel" "$tmp/make.log" &&
	! compgen -G "$clone/build/kmod/*/smapbench.ko" >/dev/null; then
	ok "make, without the running kernel's headers, builds no module for another kernel and says so"
else
	show <"$tmp/make.log"
	not_ok "make without the running kernel's headers built a module anyway, or did not say why not"
fi
# The module through the path with a space: `make` builds it for the
# running kernel where its headers are; kmod-for for Debian's 6.1 always,
# probes included (they run kbuild too).
headers=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -n "$headers" ]; then
	rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$headers/include/generated/utsrelease.h")
	if in_clone make --no-print-directory kmod-for KVER="$rel" >"$tmp/kmod-space.log" 2>&1 &&
		[ -f "$clone/build/kmod/$rel/smapbench.ko" ] &&
		grep -q '^#define SMAPBENCH_HAVE_' "$clone/build/kmod/$rel/smapbench_config.h"; then
		ok "kbuild probes the kernel and builds smapbench.ko from the path with a space ($rel)"
	else
		show <"$tmp/kmod-space.log"
		not_ok "no smapbench.ko built in the path with a space"
	fi
else
	skip "kbuild in a path with a space" "no kernel headers (apt-get install linux-headers-amd64)"
fi
if [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	features=$("$clone/build/smapbench" info 2>/dev/null | sed -n 's/^ *build_features *//p')
	if [[ "$features" == *libperf=1* ]]; then
		ok "libperf builds from the path with a space ($features)"
	else
		not_ok "libperf missing from the build in a path with a space: '$features'"
	fi
else
	skip "libperf in a path with a space" "no linux-source-6.1 (apt-get install linux-source-6.1)"
fi

if [ "$(id -u)" -ne 0 ]; then
	skip "run-bench.sh --quick --suite syscall in a path with a space" "needs root"
else
	in_clone ./run-bench.sh --quick --suite syscall >"$tmp/run.log" 2>&1
	rc=$?
	run_dir=$(sed -n 's/^run-bench.sh: run directory: //p' "$tmp/run.log" | tail -n 1)
	if [ "$rc" -eq 0 ] && [[ "$run_dir" == "$clone/data/"* ]] && [ -d "$run_dir" ]; then
		ok "run-bench.sh --quick --suite syscall exits 0 with a run directory in the path with a space"
	else
		show <"$tmp/run.log"
		not_ok "run-bench.sh --quick --suite syscall: status $rc, run directory '$run_dir'"
	fi
	missing=""
	for f in results.csv samples.csv context.csv results.json report.md plots; do
		[ -s "$run_dir/$f" ] || missing="$missing $f"
	done
	if [ -n "$run_dir" ] && [ -z "$missing" ] &&
		grep -q '^syscall/getppid,' "$run_dir/results.csv"; then
		ok "its run directory is complete (results, samples, context, JSON, report, plots)"
	else
		not_ok "run directory '$run_dir' lacks:${missing:- syscall rows}"
	fi
fi

# --- the user's CFLAGS ----------------------------------------------------------
# gcc records the options that shape the code in .GCC.command.line: the
# user's -O1 must be there after the rebuild. The command line itself
# (make -n) must still carry the project's -std=c11 -Werror, before the
# user's flags so that those win. json-check is the smallest program built
# by the ordinary compile and link rules.
user_flags='-O1 -g -frecord-gcc-switches'
if in_clone make CFLAGS="$user_flags" build/tests/json-check >"$tmp/cflags.log" 2>&1; then
	switches=$(readelf -p .GCC.command.line "$clone/build/tests/json-check" 2>/dev/null)
	command=$(in_clone make -n CFLAGS="$user_flags" -W tests/unit/json_check.c \
		build/tests/json-check 2>/dev/null | grep -- 'json_check.c')
	if grep -q -- ' -O1 ' <<<"$switches" &&
		[[ "$command" == *"-std=c11 "*"-Werror "*"$user_flags"* ]]; then
		ok "make CFLAGS='$user_flags' rebuilds with them after -std=c11 -Werror"
	else
		show <<<"$switches$command"
		not_ok "the user's CFLAGS did not reach the objects, or -Werror was lost"
	fi
else
	show <"$tmp/cflags.log"
	not_ok "make CFLAGS='$user_flags' failed"
fi

# --- the build directory spelled absolute ----------------------------------------
# vm/census.sh and `smapbench census` run make with BUILD absolute, the
# guests and run-bench.sh with BUILD=build: one build, which neither may
# rewrite or relink (under TCG the guest's rebuild took over 10 minutes).
# This checkout's own build, the one make check made (a clone's path has
# a space, which make cannot take in an absolute BUILD).
if [ ! -f build/build-flags ] || [ ! -x build/smapbench ] || [[ $top == *" "* ]]; then
	skip "make BUILD=<absolute> after make" "no build in $top (make first), or its path has a space"
else
	flags=$(cat build/build-flags) before=$(stat -c '%Y' build/build-flags build/smapbench)
	if "${clean_env[@]}" make -s BUILD="$top/build" all >"$tmp/abs.log" 2>&1 &&
		[ "$(cat build/build-flags)" = "$flags" ] &&
		[ "$(stat -c '%Y' build/build-flags build/smapbench)" = "$before" ]; then
		ok "make BUILD=$top/build after make rewrites no build flag and relinks nothing"
	else
		show <"$tmp/abs.log"
		diff <(echo "$flags") build/build-flags | show
		not_ok "make BUILD=$top/build rebuilt the build make had made (build-flags or smapbench changed)"
	fi
fi

# --- module sources are copied by name ---------------------------------------------
# Newest installed headers of a series, as a release name.
release_of() {
	local d
	for d in /usr/src/linux-headers-"$1".*-amd64; do
		[ -f "$d/include/generated/utsrelease.h" ] || continue
		sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$d/include/generated/utsrelease.h"
	done | sort -V | tail -n 1
}
rel61=$(release_of 6.1)
rel612=$(release_of 6.12)
if [ -z "$rel61" ] || [ -z "$rel612" ]; then
	skip "module builds do not leak across kernels" \
		"needs 6.1 and 6.12 headers (apt-get install linux-headers-amd64 linux-headers-6.12-amd64)"
	stage_exit
fi
kmod_files() { git -C "$clone" status --porcelain --ignored --untracked-files=all -- kmod; }
if in_clone make -C kmod KDIR="/usr/src/linux-headers-$rel612" >"$tmp/kmod612.log" 2>&1 &&
	[ -f "$clone/build/kmod/$rel612/smapbench.ko" ] && [ -z "$(kmod_files)" ]; then
	ok "make -C kmod builds build/kmod/$rel612/smapbench.ko and leaves kmod/ untouched"
else
	show <"$tmp/kmod612.log"
	kmod_files | show
	not_ok "make -C kmod KDIR=<$rel612 headers>: no module, or files left in kmod/"
fi
# Every symbol CRC a module records must be its kernel's: a 6.12 CRC in a
# 6.1 module is what "disagrees about version of symbol" refuses.
foreign_crcs() { # module.ko release
	local symvers=/usr/src/linux-headers-$2/Module.symvers crc sym want
	modprobe --dump-modversions "$1" | while read -r crc sym; do
		want=$(awk -v s="$sym" '$2 == s { print $1; exit }' "$symvers")
		[ "$crc" = "$want" ] || echo "$sym"
	done
}
# An up-to-date 6.1 build, then the plain external-module build in kmod/
# for 6.12 (through a link: kbuild cannot take the space), whose Kbuild
# runs the probes itself, then 6.1 again: a generated file copied along
# would be newer than its object and used.
ko61=$clone/build/kmod/$rel61/smapbench.ko
ln -s "$clone" "$tmp/link"
if in_clone make --no-print-directory kmod-for KVER="$rel61" >"$tmp/kmod61.log" 2>&1 &&
	make -s -C "/usr/src/linux-headers-$rel612" M="$tmp/link/kmod" modules \
		>"$tmp/byhand.log" 2>&1 && [ -f "$clone/kmod/smapbench.ko" ] &&
	grep -q '^#define SMAPBENCH_HAVE_MASKED	1$' "$clone/kmod/smapbench_config.h" &&
	in_clone make --no-print-directory kmod-for KVER="$rel61" >>"$tmp/kmod61.log" 2>&1; then
	foreign=$(foreign_crcs "$ko61" "$rel61" 2>&1 | head -n 5)
	if [ -f "$ko61" ] && [ -z "$foreign" ] &&
		[ "$(modinfo -F vermagic "$ko61" | cut -d' ' -f1)" = "$rel61" ]; then
		ok "after a by-hand $rel612 build in kmod/, kmod-for KVER=$rel61 builds a module with $rel61's symbol versions only"
	else
		not_ok "kmod-for KVER=$rel61 after a by-hand $rel612 build in kmod/: symbols not from $rel61:" $foreign
	fi
else
	cat "$tmp/kmod61.log" "$tmp/byhand.log" | show
	not_ok "module builds for $rel61, by hand for $rel612 in kmod/ (make -C <headers> M=$PWD/kmod modules, its probes' answers $rel612's), then $rel61 again"
fi
# What the build in kmod/ left is all in .gitignore.
left=$(git -C "$clone" status --porcelain --untracked-files=all -- kmod)
if [ -f "$clone/kmod/smapbench.ko" ] && [ -z "$left" ]; then
	ok "a build in kmod/ leaves nothing git does not ignore"
else
	show <<<"$left"
	not_ok "a build in kmod/ leaves files .gitignore does not cover (or built nothing)"
fi
stage_exit
