#!/bin/bash
# Roots of the Debian distributions users have, made with mmdebstrap and
# cached, for the tests that run the README's commands or build the
# module the way each distribution would.
#
#   scripts/distro-root.sh make SUITE [PACKAGE...]
#       print the path of a cached root of SUITE (bookworm, trixie, sid,
#       or any suite deb.debian.org has): mmdebstrap's buildd variant
#       (build-essential) plus git, with PACKAGEs installed on top. It is
#       made when missing or older than SMAPBENCH_ROOT_DAYS days
#       (default 7): the pristine root of SUITE once, then each set of
#       PACKAGEs as a copy of it with apt-get install. Use a root as it
#       is only to read or build in it; copy it (cp -a) to change it.
#   scripts/distro-root.sh run [--bind DIR] ROOT COMMAND [ARGUMENT...]
#       run COMMAND as root inside ROOT, in a clean environment (PATH,
#       HOME=/root, TERM=dumb), stdin from /dev/null, with /proc, /sys,
#       /dev and the shared package cache mounted, and DIR (a host
#       directory) at the same path inside, in a mount and PID namespace
#       of its own: every mount and every process of the command ends
#       with it, however it ends. Exit status: COMMAND's.
#   scripts/distro-root.sh clean
#       remove every cached root (the package cache stays).
#
# Everything lives under SMAPBENCH_CACHE (default /var/cache/smapbench):
# roots/<suite>-<key>/, named after what made them (the mmdebstrap
# arguments, the sources, the packages, this recipe), and
# apt-archives/<suite>/, the downloaded packages every root of a suite
# shares: mmdebstrap, apt-get install here and any apt-get inside a root
# (copies included, through `run`) fetch each package once. One directory
# per suite, because apt locks the directory it downloads into and roots
# of different suites may be made at once. Needs root,
# mmdebstrap and the network (deb.debian.org). A pristine root takes
# about 90 s to make, 350 to 450 MB on disk.
set -u
prog=distro-root
cache=${SMAPBENCH_CACHE:-/var/cache/smapbench}
roots=$cache/roots
archives_of() { echo "$cache/apt-archives/$1"; }
# The suite a root was made from, as its sources.list names it.
suite_of() { awk '$1 == "deb" { print $3; exit }' "$1/etc/apt/sources.list" 2>/dev/null; }
max_days=${SMAPBENCH_ROOT_DAYS:-7}
# Changes whenever the recipe below changes what a root holds.
recipe=1

die() {
	echo "$prog: $*" >&2
	exit 1
}
usage() {
	echo "usage: $0 make SUITE [PACKAGE...] | run [--bind DIR] ROOT COMMAND [ARGUMENT...] | clean" >&2
	exit 2
}

mirror=http://deb.debian.org/debian
sources_of() { # suite: the lines of its sources.list
	case $1 in
	sid | unstable | experimental)
		echo "deb $mirror $1 main"
		;;
	*)
		echo "deb $mirror $1 main"
		echo "deb $mirror $1-updates main"
		echo "deb http://deb.debian.org/debian-security $1-security main"
		;;
	esac
}
# A mirror's unstable Release file may be past its Valid-Until date.
aptopts=('Acquire::Check-Valid-Until "false"')

key_of() { sha256sum | cut -c1-12; }

# fresh DIR: DIR was made completely and recently enough.
fresh() {
	[ -f "$1.done" ] && [ -d "$1" ] &&
		[ -z "$(find "$1.done" -mtime +"$((max_days - 1))" 2>/dev/null)" ]
}

# run_in ROOT BIND COMMAND...: the body of `run`. With run_exec=exec,
# the process becomes unshare(1), whose end ends every process inside.
run_exec=""
run_in() {
	local root=$1 bind=$2 suite archives
	shift 2
	[ -x "$root/bin/sh" ] || die "$root is not a root (no /bin/sh)"
	suite=$(suite_of "$root")
	[ -n "$suite" ] || die "$root/etc/apt/sources.list names no suite"
	archives=$(archives_of "$suite")
	mkdir -p "$archives/partial"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	[ -z "$bind" ] || mkdir -p "$root$bind"
	# shellcheck disable=SC2016 # expanded by the inner shell
	$run_exec unshare --mount --propagation private --pid --fork --kill-child \
		bash -c '
		set -e
		root=$1 archives=$2 bind=$3
		shift 3
		mount -t proc proc "$root/proc"
		mount -t sysfs sysfs "$root/sys"
		mount --bind /dev "$root/dev"
		mount --bind /dev/pts "$root/dev/pts"
		mount -t tmpfs tmpfs "$root/dev/shm"
		mount --bind "$archives" "$root/var/cache/apt/archives"
		[ -z "$bind" ] || mount --bind "$bind" "$root$bind"
		exec chroot "$root" env -i HOME=/root TERM=dumb LC_ALL=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			"$@" </dev/null
	' "$prog" "$root" "$archives" "$bind" "$@"
}

# pristine SUITE: the path of SUITE's buildd root with git, made if need be.
pristine() {
	local suite=$1 args key dir log archives lock
	archives=$(archives_of "$suite")
	# dpkg without fsync (in the root's dpkg.cfg.d, so for every dpkg run
	# in it and its copies): a root is a cache that can be made again,
	# and on a busy disk fsync takes most of the time.
	# shellcheck disable=SC2054 # one option: a comma-separated list
	args=(--mode=root --variant=buildd --include=git,ca-certificates
		--format=directory --skip=essential/unlink --dpkgopt=force-unsafe-io)
	local opt
	for opt in "${aptopts[@]}"; do args+=(--aptopt="$opt"); done
	key=$({ echo "recipe $recipe"; printf '%s\n' "$suite" "${args[@]}"; sources_of "$suite"; } | key_of)
	dir=$roots/$suite-$key
	mkdir -p "$roots" "$archives/partial"
	# One maker at a time; the others wait and take its root.
	exec {lock}>"$dir.lock"
	flock "$lock"
	if fresh "$dir"; then
		exec {lock}>&-
		echo "$dir"
		return 0
	fi
	rm -rf "$dir" "$dir.done" "$dir.tmp"
	log=$roots/$suite-$key.log
	echo "$prog: making a $suite root (mmdebstrap, buildd variant with git): $dir" >&2
	# The package cache is bound over the root's own for the whole run:
	# the essential packages are fetched into it too, and it is unmounted
	# before mmdebstrap's clean-up, which would empty it. The private
	# namespace drops the mount if mmdebstrap dies first.
	# shellcheck disable=SC2016 # expanded by mmdebstrap's hooks
	if unshare --mount --propagation private mmdebstrap "${args[@]}" \
		--setup-hook='mkdir -p "$1/var/cache/apt/archives"' \
		--setup-hook="mount --bind '$archives' \"\$1/var/cache/apt/archives\"" \
		--customize-hook='umount "$1/var/cache/apt/archives"' \
		"$suite" "$dir.tmp" "$(sources_of "$suite")" >"$log" 2>&1 &&
		mv "$dir.tmp" "$dir"; then
		touch "$dir.done"
	else
		tail -n 20 "$log" >&2
		rm -rf "$dir.tmp"
		die "mmdebstrap of $suite failed (log: $log)"
	fi
	exec {lock}>&-
	echo "$dir"
}

# with_packages BASE SUITE PACKAGE...: BASE with the packages installed.
with_packages() {
	local base=$1 suite=$2 key dir log lock
	shift 2
	key=$({ echo "$base"; printf '%s\n' "$@" | sort -u; } | key_of)
	dir=$roots/$suite-${base##*-}+$key
	exec {lock}>"$dir.lock"
	flock "$lock"
	if fresh "$dir" && [ "$dir.done" -nt "$base.done" ]; then
		echo "$dir"
		return 0
	fi
	rm -rf "$dir" "$dir.done" "$dir.tmp"
	log=$dir.log
	echo "$prog: adding $* to the $suite root: $dir" >&2
	cp -a "$base" "$dir.tmp" || die "cannot copy $base"
	if run_in "$dir.tmp" "" bash -c 'export DEBIAN_FRONTEND=noninteractive &&
		apt-get update -q -o Acquire::Languages=none && apt-get install -y -q --no-install-recommends "$@" &&
		rm -rf /var/lib/apt/lists/*' apt "$@" >"$log" 2>&1 &&
		mv "$dir.tmp" "$dir"; then
		touch "$dir.done"
	else
		tail -n 20 "$log" >&2
		rm -rf "$dir.tmp"
		die "apt-get install $* in the $suite root failed (log: $log)"
	fi
	echo "$dir"
}

[ $# -ge 1 ] || usage
command=$1
shift
case $command in
make)
	[ $# -ge 1 ] || usage
	[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap --mode=root, chroot)"
	for tool in mmdebstrap unshare chroot; do
		command -v "$tool" >/dev/null || die "$tool is missing (apt-get install mmdebstrap)"
	done
	suite=$1
	shift
	base=$(pristine "$suite") || exit 1
	if [ $# -eq 0 ]; then
		echo "$base"
	else
		with_packages "$base" "$suite" "$@"
	fi
	;;
run)
	bind=""
	if [ "${1:-}" = --bind ]; then
		[ $# -ge 2 ] || usage
		bind=$(cd "$2" && pwd) || die "no directory $2"
		shift 2
	fi
	[ $# -ge 2 ] || usage
	[ "$(id -u)" -eq 0 ] || die "needs root (mounts, chroot)"
	root=$1
	shift
	run_exec="exec"
	run_in "$root" "$bind" "$@"
	;;
clean)
	rm -rf "$roots"
	;;
*) usage ;;
esac
