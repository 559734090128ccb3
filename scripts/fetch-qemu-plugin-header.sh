#!/bin/bash
# QEMU 7.2's plugin API header, for the census plugin (census/plugin/).
#
#   scripts/fetch-qemu-plugin-header.sh          fetch it unless it is there
#   scripts/fetch-qemu-plugin-header.sh --check  exit 0 if it is there, else 1
#
# Debian 12 ships QEMU 7.2 but no qemu-plugin.h in any package, and the
# project carries no copy of QEMU's code: the header is taken, verbatim,
# from Debian's source tarball of the QEMU that runs the census. Both the
# tarball and the header are pinned by SHA-256 (the tarball's as the
# signed qemu_7.2+dfsg-7+deb12u18.dsc lists it). The header goes to
#
#   ${SMAPBENCH_CACHE:-/var/cache/smapbench}/qemu-7.2/include/qemu-plugin.h
#
# outside build/, so that make clean keeps it; mk/config.mk looks there.
# QEMU_SOURCE_MIRROR (default http://deb.debian.org/debian) is the Debian
# mirror to download from (http://archive.debian.org/debian once Debian 12
# is archived); any URL curl reads will do, file:// too.
# scripts/deps.sh install test runs this.
set -euo pipefail

TARBALL=qemu_7.2+dfsg.orig.tar.xz
TARBALL_SHA256=91aca71520040edc40b8d437aa3004dae614f58e286cf653ee8996c07af2962f
MEMBER=qemu-7.2.0/include/qemu/qemu-plugin.h
HEADER_SHA256=19f277b037d05a8bcb5069f2f81a465d177208e5903048a915c56627d4c3748e

me=fetch-qemu-plugin-header
mirror=${QEMU_SOURCE_MIRROR:-http://deb.debian.org/debian}
url=${mirror%/}/pool/main/q/qemu/$TARBALL
dir=${SMAPBENCH_CACHE:-/var/cache/smapbench}/qemu-7.2/include
header=$dir/qemu-plugin.h

die() {
	echo "$me: error: $*" >&2
	exit 1
}

# verified FILE SHA256: FILE is there and has that SHA-256
verified() {
	[ -f "$1" ] && [ "$(sha256sum <"$1" | cut -d' ' -f1)" = "$2" ]
}

case "$*" in
"") ;;
--check)
	verified "$header" "$HEADER_SHA256" && exit 0
	exit 1
	;;
*)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac

if verified "$header" "$HEADER_SHA256"; then
	echo "$me: $header present"
	exit 0
fi
command -v curl >/dev/null || die "no curl: apt-get install curl"
command -v xz >/dev/null || die "no xz: apt-get install xz-utils"
mkdir -p "$dir" 2>/dev/null ||
	die "cannot create $dir (run as root, or set SMAPBENCH_CACHE to a writable directory)"

partial=""
work=$(mktemp -d)
trap 'rm -rf "$work"; rm -f "$partial"' EXIT
# The header's temporary file is beside it, so that mv replaces it at once.
partial=$(mktemp "$dir/.qemu-plugin.h.XXXXXX" 2>/dev/null) ||
	die "cannot write in $dir (run as root, or set SMAPBENCH_CACHE to a writable directory)"

echo "$me: downloading $url"
if ! err=$(curl -fsSL --retry 2 --connect-timeout 30 -o "$work/$TARBALL" "$url" 2>&1); then
	err=${err##*$'\n'}
	die "cannot download $url: ${err#curl: }"
fi
got=$(sha256sum <"$work/$TARBALL" | cut -d' ' -f1)
[ "$got" = "$TARBALL_SHA256" ] ||
	die "checksum mismatch: $url has SHA-256 $got, pinned $TARBALL_SHA256"
tar -xJf "$work/$TARBALL" -O "$MEMBER" >"$partial" 2>/dev/null ||
	die "$TARBALL holds no $MEMBER"
got=$(sha256sum <"$partial" | cut -d' ' -f1)
[ "$got" = "$HEADER_SHA256" ] ||
	die "checksum mismatch: $MEMBER has SHA-256 $got, pinned $HEADER_SHA256"
chmod 0644 "$partial"
mv -f "$partial" "$header"
echo "$me: installed $header (QEMU 7.2, SHA-256 verified)"
