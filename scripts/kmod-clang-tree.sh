#!/bin/bash
# Prepares a kernel tree configured for clang (LLVM=1) from Debian's
# linux-source package, to build smapbench.ko the way a clang-built
# kernel (Android, ChromeOS, some distributions' kernels) would.
#
#   scripts/kmod-clang-tree.sh [--check] [SERIES]   prints the tree's path
#
# SERIES (6.12, 7.2, ...) chooses /usr/src/linux-source-SERIES.tar.xz;
# by default the newest one installed. Debian ships no clang-built
# kernel, so this takes the configuration of Debian's headers of that
# series (linux-headers-SERIES*-amd64, not PREEMPT_RT), lets kconfig adapt
# it to clang (olddefconfig drops what is GCC-only), and runs
# modules_prepare: enough to build and check an external module, not to
# boot. BTF is turned off (it needs pahole and a vmlinux) and the trusted
# keys emptied (Debian's are not in the source tarball). Module.symvers
# is the headers', so that modpost checks the module's symbols. About 3
# minutes on two cores, once: the tree is kept in $SMAPBENCH_CACHE
# (default /var/cache/smapbench) as linux-SERIES-llvm, outside the
# checkout, and prepared again only when the source package, the headers
# or clang change. --check only says (exit 0 or 1) whether a prepared
# tree is there.
set -eu
cache=${SMAPBENCH_CACHE:-/var/cache/smapbench}
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
series=${1:-}
if [ -z "$series" ]; then
	series=$(find /usr/src -maxdepth 1 -name 'linux-source-*.tar.xz' 2>/dev/null |
		sed 's|.*/linux-source-\(.*\)\.tar\.xz$|\1|' | sort -V | tail -n 1)
	if [ -z "$series" ]; then
		echo "kmod-clang-tree: no /usr/src/linux-source-*.tar.xz (apt-get install linux-source)" >&2
		exit 1
	fi
fi
tarball=/usr/src/linux-source-$series.tar.xz
# Debian's headers of that series (not the PREEMPT_RT ones), the newest.
headers=""
for d in /usr/src/linux-headers-"$series".*-amd64; do
	case $d in *-rt-amd64 | *'*'*) continue ;; esac
	headers=$d
done
tree=$cache/linux-$series-llvm
stamp=$tree/.smapbench-prepared

want_stamp() {
	echo "source $(stat -c '%s %Y' "$tarball" 2>/dev/null)"
	echo "config $headers"
	echo "clang $(clang --version 2>/dev/null | head -n 1)"
}

if [ "$check" = 1 ]; then
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(want_stamp)" ]
	exit
fi
for need in "$tarball" "$headers/.config"; do
	if ! [ -e "$need" ]; then
		echo "kmod-clang-tree: $need is missing (apt-get install linux-source-$series linux-headers-$series-amd64, or the linux-source and linux-headers-amd64 of the same kernel)" >&2
		exit 1
	fi
done
for tool in clang ld.lld llvm-nm llvm-objcopy flex bison bc; do
	if ! command -v "$tool" >/dev/null; then
		echo "kmod-clang-tree: $tool is missing (apt-get install clang lld llvm flex bison bc)" >&2
		exit 1
	fi
done
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(want_stamp)" ]; then
	echo "$tree"
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/linux-$series-llvm.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "kmod-clang-tree: unpacking $tarball" >&2
tar -xJf "$tarball" -C "$work" --strip-components=1
cp "$headers/.config" "$work/.config"
(
	cd "$work"
	scripts/config --disable DEBUG_INFO_BTF \
		--set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str MODULE_SIG_KEY "certs/signing_key.pem"
	echo "kmod-clang-tree: olddefconfig and modules_prepare with LLVM=1" >&2
	make -s LLVM=1 olddefconfig
	make -s LLVM=1 -j"$(nproc)" modules_prepare
) >"$work/.smapbench-prepare.log" 2>&1 || {
	tail -n 30 "$work/.smapbench-prepare.log" >&2
	echo "kmod-clang-tree: preparing the tree failed (log above)" >&2
	exit 1
}
grep -q '^CONFIG_CC_IS_CLANG=y' "$work/.config" || {
	echo "kmod-clang-tree: the prepared tree is not configured for clang" >&2
	exit 1
}
cp "$headers/Module.symvers" "$work/Module.symvers"
want_stamp >"$work/.smapbench-prepared"
rm -rf "$tree"
mv "$work" "$tree"
trap - EXIT
echo "$tree"
