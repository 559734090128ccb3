#!/bin/bash
# The kernel a QEMU guest boots: found, or fetched and unpacked from its
# Debian packages, with its modules and headers, and the place where the
# module can be built for it. docs/vm.md, "Which kernel".
#
#   vm/kernel.sh resolve [--headers H] [--build-root B] KERNEL
#                      print release=, image=, modules=, headers=,
#                      build_root=, compiler= and source= lines
#   vm/kernel.sh module  [--headers H] [--build-root B] KERNEL
#                      build build/kmod/<release>/smapbench.ko for it
#                      (make module), where its kbuild can run
#
# KERNEL is one of:
#   IMAGE          a bzImage file; its modules in /lib/modules/<release>,
#                  its headers from --headers or /lib/modules/<release>/build
#   PACKAGE.deb    a Debian kernel package: linux-image-<release> (or a
#                  meta package such as linux-image-amd64). The kernel's
#                  other packages it depends on (7.x splits the image into
#                  linux-binary-, linux-modules- and linux-base-<release>)
#                  must lie beside it, as `apt-get download` or `make
#                  bindeb-pkg` leave them; so must linux-headers-<release>
#                  and its -common and linux-kbuild packages, unless
#                  --headers names the headers
#   RELEASE        e.g. 7.2.13+deb14-amd64: installed here, or fetched with
#                  its headers from this machine's apt sources, else from
#                  the Debian suites in SMAPBENCH_KERNEL_SUITES (default
#                  "sid trixie bookworm")
#   SUITE          a Debian suite (sid, unstable, trixie, testing, bookworm,
#                  stable, ...): its linux-image-amd64 and headers, fetched
#
# Options:
#   --headers H     a kernel build tree, or the linux-headers-<release>
#                   .deb (its other packages beside it)
#   --no-build-root only find the kernel: leave the build root out (the
#                   guests of vm/hostroot.sh build nothing for it)
#   --build-root B  where the module is built when this machine cannot
#                   build it (the headers' programs need a newer C library,
#                   or the compiler they name is not installed): a root
#                   directory of the kernel's distribution, or a Debian
#                   suite whose root is made (mmdebstrap) and cached.
#                   Default: the suite a fetched kernel came from
#
# Fetched and unpacked packages are cached under
# ${SMAPBENCH_CACHE:-/var/cache/smapbench}/kernels/<release>/<key>/ (the
# key a hash of the packages' names, versions and SHA-256); the suites'
# package indexes under kernels/apt/<suite>/ (refreshed when a day old);
# build roots under build-roots/<suite>/. SMAPBENCH_DEBIAN_MIRROR sets the
# archive (default http://deb.debian.org/debian).
#
# Exit status: 0 done, 1 an unpack or a build failed, 2 bad input (no
# such file, not a kernel package, a package missing beside it, headers
# of another release, an unknown suite or release), 3 the archive could
# not be reached (an index, a package or a build root not fetched).
# HELP_END
set -uo pipefail
# shellcheck source=vm/lib.sh
. "$(dirname "$0")/lib.sh"
# Set by vm_script_init; declared for shellcheck, which may not follow lib.sh.
declare top build
vm_script_init kernel HELP_END

cache=${SMAPBENCH_CACHE:-/var/cache/smapbench}
kernels=$cache/kernels
mirror=${SMAPBENCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Of a package's Depends, those that are parts of the kernel itself:
# followed, fetched and unpacked with it. linux-base (a tool) and the
# compiler packages are not.
KERNEL_PACKAGE_RE='^linux-(image|binary|modules|base|headers|kbuild)-[0-9]'
# Debian's suites and their aliases.
SUITE_RE='^(sid|unstable|experimental|testing|stable|oldstable|oldoldstable|forky|trixie|bookworm|bullseye|buster)$'

# Bad input: the message, exit status 2. Other failures: status 1.
bad() {
	echo "kernel: error: $*" >&2
	exit 2
}
fail() {
	echo "kernel: error: $*" >&2
	exit 1
}
unreachable() {
	echo "kernel: error: $*" >&2
	exit 3
}
note() {
	echo "# kernel: $*" >&2
}

mode=${1:-}
[ $# -gt 0 ] && shift
case $mode in
resolve | module) ;;
-h | --help) vm_help; exit 0 ;;
*) vm_usage ;;
esac
headers_arg="" root_arg="" spec="" want_root=1
while [ $# -gt 0 ]; do
	case $1 in
	--headers) headers_arg=${2:?--headers needs a directory or a .deb}; shift ;;
	--build-root) root_arg=${2:?--build-root needs a directory or a suite}; shift ;;
	--no-build-root) want_root=0 ;;
	-h | --help) vm_help; exit 0 ;;
	-*) bad "unknown option '$1' (see $0 --help)" ;;
	*)
		[ -z "$spec" ] || bad "one KERNEL only ('$spec', then '$1')"
		spec=$1
		;;
	esac
	shift
done
[ -n "$spec" ] || bad "no KERNEL given (see $0 --help)"

# ------------------------------------------------------------ packages
# A package's Depends (or any field) as one line, from a .deb or from an
# apt index (apt-cache, with APT_CONFIG as set by the caller).
deb_field() { dpkg-deb -f "$1" "$2" 2>/dev/null; }
apt_field() {
	apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n "s/^$2: //p" | head -n 1
}

# kernel_depends "DEPENDS": the kernel packages among them, one per line:
# "name" or "name=version" for an exact (= version) dependency.
kernel_depends() {
	tr ',|' '\n\n' <<<"$1" | sed 's/^ *//; s/ *$//' | while read -r name rest; do
		[[ $name =~ $KERNEL_PACKAGE_RE ]] || continue
		name=${name%%:*}
		if [[ $rest =~ ^\(=\ *([^\)]*)\) ]]; then
			echo "$name=${BASH_REMATCH[1]}"
		else
			echo "$name"
		fi
	done
}

# other_depends "DEPENDS": the rest, names only (the first of each
# alternative): what a build root needs besides make.
other_depends() {
	tr ',' '\n' <<<"$1" | sed 's/|.*//; s/(.*//; s/:any//; s/^ *//; s/ *$//' |
		grep -Ev "$KERNEL_PACKAGE_RE|^linux-base$|^$" || true
}

# ------------------------------------------------------------ apt
# write_if_changed FILE: standard input into FILE, unless FILE holds it.
write_if_changed() {
	local text
	text=$(cat)
	[ "$(cat "$1" 2>/dev/null)" = "$text" ] || printf '%s\n' "$text" >"$1"
}

# A private apt configuration for one Debian suite: its own sources,
# index and no installed packages, so that nothing of this machine's apt
# changes. Sets APT_CONFIG; refreshes the index when a day old.
apt_suite() {
	local suite=$1 dir=$kernels/apt/$1 lists
	mkdir -p "$dir"/{lists/partial,archives/partial,conf.d,preferences.d,sources.d} ||
		fail "cannot create $dir"
	# Written only when they change: apt rebuilds its cache of the index
	# whenever they are newer than it.
	write_if_changed "$dir/sources.list" <<-EOF
		deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main
	EOF
	write_if_changed "$dir/apt.conf" <<-EOF
		Dir::Etc::SourceList "$dir/sources.list";
		Dir::Etc::SourceParts "$dir/sources.d";
		Dir::Etc::Parts "$dir/conf.d";
		Dir::Etc::PreferencesParts "$dir/preferences.d";
		Dir::State "$dir";
		Dir::State::Lists "$dir/lists";
		Dir::State::status "/dev/null";
		Dir::Cache "$dir";
		Dir::Cache::Archives "$dir/archives";
		APT::Architecture "amd64";
		APT::Sandbox::User "root";
		Acquire::Languages "none";
		Acquire::Check-Valid-Until "false";
	EOF
	export APT_CONFIG=$dir/apt.conf
	lists=$(find "$dir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -n 1)
	[ -n "$lists" ] && return 0
	note "fetching the package index of Debian $suite ($mirror)"
	if ! apt-get -q -o Debug::NoLocking=1 update >"$dir/update.log" 2>&1 ||
		grep -q '^[EW]: Failed' "$dir/update.log"; then
		if find "$dir/lists" -maxdepth 1 -name '*_Packages*' | grep -q .; then
			note "warning: the index of $suite could not be refreshed; using the one of $(date -r "$(find "$dir/lists" -maxdepth 1 -name '*_Packages*' | head -n 1)" +%F)"
			return 0
		fi
		sed 's/^/  /' "$dir/update.log" >&2
		unreachable "cannot fetch the package index of Debian $suite from $mirror"
	fi
}

# apt_closure DEPENDS-FILE PACKAGE...: the packages and their kernel
# packages, as "name version sha256" lines, from the index APT_CONFIG
# names; each one's Depends appended to DEPENDS-FILE. Fails (status 2) on
# a package the index does not have.
apt_closure() {
	local depends_file=$1 seen=" " item name want version sha dep stanza
	shift
	local queue=("$@")
	while [ ${#queue[@]} -gt 0 ]; do
		item=${queue[0]}
		queue=("${queue[@]:1}")
		name=${item%%=*}
		want=""
		[ "$item" != "$name" ] && want=${item#*=}
		case $seen in *" $name "*) continue ;; esac
		seen="$seen$name "
		stanza=$(apt-cache show --no-all-versions "$name${want:+=$want}" 2>/dev/null)
		version=$(sed -n 's/^Version: //p' <<<"$stanza" | head -n 1)
		sha=$(sed -n 's/^SHA256: //p' <<<"$stanza" | head -n 1)
		[ -n "$version" ] || return 2
		echo "$name $version ${sha:--}"
		dep=$(sed -n 's/^Depends: //p' <<<"$stanza" | head -n 1)
		echo "$dep" >>"$depends_file"
		while read -r dep; do
			[ -n "$dep" ] && queue+=("$dep")
		done < <(kernel_depends "$dep")
	done
}

# ------------------------------------------------------------ .deb files
# deb_closure DEB...: the .debs and those of the kernel packages they
# depend on, found beside them, as "name version sha256 path" lines.
# A dependency with no .deb beside: a message, status 2.
deb_closure() {
	local queue=() seen=" " item deb name version dep want cand found
	local first="" dir=""
	for deb in "$@"; do
		queue+=("@$deb")
	done
	while [ ${#queue[@]} -gt 0 ]; do
		item=${queue[0]}
		queue=("${queue[@]:1}")
		if [ "${item:0:1}" = @ ]; then
			deb=${item:1}
		else
			# name[=version], looked up beside the first .deb
			name=${item%%=*} want=""
			[ "$item" != "$name" ] && want=${item#*=}
			case $seen in *" $name "*) continue ;; esac
			found=""
			for cand in "$dir/${name}"_*.deb; do
				[ -r "$cand" ] || continue
				if [ -z "$want" ] || [ "$(deb_field "$cand" Version)" = "$want" ]; then
					found=$cand
				fi
			done
			if [ -z "$found" ]; then
				echo "kernel: error: $first needs $name${want:+ (= $want)}," \
					"and no ${name}_${want:-*}_*.deb lies beside it in $dir:" \
					"put it there (apt-get download $name${want:+=$want})" >&2
				return 2
			fi
			deb=$found
		fi
		name=$(deb_field "$deb" Package)
		version=$(deb_field "$deb" Version)
		[ -n "$name" ] && [ -n "$version" ] || {
			echo "kernel: error: $deb is not a Debian package (dpkg-deb -f reads no Package)" >&2
			return 2
		}
		case $seen in *" $name "*) continue ;; esac
		seen="$seen$name "
		[ -n "$first" ] || { first=$deb; dir=$(dirname "$deb"); }
		echo "$name $version $(sha256sum <"$deb" | cut -d ' ' -f 1) $deb"
		while read -r dep; do
			[ -n "$dep" ] && queue+=("$dep")
		done < <(kernel_depends "$(deb_field "$deb" Depends)")
	done
}

# ------------------------------------------------------------ unpacking
# unpack LIST: the packages of LIST ("name version sha256 [path]" lines;
# those without a path are downloaded with APT_CONFIG's apt) unpacked into
# kernels/<release>/<key>/, where key is a hash of LIST: a later LIST with
# another package, version or file unpacks anew. Built beside and renamed
# into place, so that an interrupted unpack leaves nothing half done.
# Prints the directory.
unpack() {
	local list=$1 key tmp dest name version sha path debs=() modroot
	local release="" image found
	# Only the kernel's own packages: a meta package (linux-image-amd64)
	# holds nothing to unpack, and the same kernel is the same key
	# whether it was named by a suite, a release or its .debs.
	list=$(grep -E "$KERNEL_PACKAGE_RE" <<<"$list")
	key=$(cut -d ' ' -f 1-3 <<<"$list" | sort | sha256sum | cut -c 1-12)
	# The release is known only once unpacked; a first lookup by key.
	for found in "$kernels"/*/"$key"; do
		[ -d "$found" ] && [ -e "$found/.complete" ] && { echo "$found"; return 0; }
	done
	mkdir -p "$kernels" || fail "cannot create $kernels"
	tmp=$(mktemp -d "$kernels/.unpack-$key.XXXXXX") || fail "cannot create a directory in $kernels"
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$tmp/debs" "$tmp/tree"
	while read -r name version sha path; do
		if [ -z "$path" ]; then
			(cd "$tmp/debs" && apt-get -q download "$name=$version") >"$tmp/download.log" 2>&1 || {
				sed 's/^/  /' "$tmp/download.log" >&2
				unreachable "apt-get download $name=$version failed"
			}
			path=$(ls "$tmp/debs/${name}"_*.deb)
			if [ "$sha" != - ] && [ "$(sha256sum <"$path" | cut -d ' ' -f 1)" != "$sha" ]; then
				fail "$path: SHA-256 is not the index's"
			fi
		fi
		debs+=("$path")
	done <<<"$list"
	for path in "${debs[@]}"; do
		dpkg-deb -x "$path" "$tmp/tree" || fail "dpkg-deb -x $path failed"
	done
	rm -rf "$tmp/debs"
	# The image: /boot/vmlinuz-R before 7.x, /usr/lib/modules/R/vmlinuz since.
	for image in "$tmp"/tree/boot/vmlinuz-* "$tmp"/tree/usr/lib/modules/*/vmlinuz \
		"$tmp"/tree/lib/modules/*/vmlinuz; do
		[ -r "$image" ] || continue
		release=$(vm_image_release "$image") && break
	done
	[ -n "$release" ] || bad "no kernel image (boot/vmlinuz-* or" \
		"usr/lib/modules/*/vmlinuz) in $(cut -d ' ' -f 1 <<<"$list" | tr '\n' ' ')"
	# The modules' index: the packages leave it to their postinst (depmod).
	for modroot in "$tmp/tree/usr" "$tmp/tree"; do
		if [ -d "$modroot/lib/modules/$release/kernel" ]; then
			depmod -b "$modroot" "$release" ||
				fail "depmod of the modules of $release failed"
			break
		fi
	done
	# Debian's headers name their install path (the arch Makefile includes
	# /usr/src/linux-headers-<release>-common/Makefile): made to name the
	# one they are unpacked to.
	dest=$kernels/$release/$key
	while IFS= read -r -d '' path; do
		sed -i "s|/usr/src/|$dest/tree/usr/src/|g" "$path"
	done < <(find "$tmp/tree/usr/src" -maxdepth 2 -name Makefile -print0 2>/dev/null |
		xargs -0 -r grep -lZ '/usr/src/linux-headers-' 2>/dev/null)
	cut -d ' ' -f 1-3 <<<"$list" >"$tmp/packages"
	: >"$tmp/.complete"
	mkdir -p "$kernels/$release" || fail "cannot create $kernels/$release"
	rm -rf "$dest"
	mv -T "$tmp" "$dest" || fail "cannot move $tmp to $dest"
	trap - EXIT
	echo "$dest"
}

# ------------------------------------------------------------ resolving
release="" image="" modules="" headers="" source="" suite="" tree=""
headers_depends=""

# An installed release: /boot/vmlinuz-R, or /usr/lib/modules/R/vmlinuz.
installed() {
	local r=$1
	for image in "/boot/vmlinuz-$r" "/usr/lib/modules/$r/vmlinuz" "/lib/modules/$r/vmlinuz"; do
		[ -r "$image" ] && [ -d "/lib/modules/$r" ] && return 0
	done
	return 1
}

# from_apt SUITE-or-empty IMAGE-PACKAGE: fetch and unpack the image
# package with its kernel packages, and the headers unless --headers.
from_apt() {
	local where=$1 want=$2 list hlist r memo="" deps
	# What an index says does not change until it is refreshed: kept
	# beside a suite's index (apt-cache takes seconds a call).
	[ -n "${APT_CONFIG:-}" ] &&
		memo=$(dirname "$APT_CONFIG")/resolved-$want${headers_arg:+-without-headers}
	if [ -n "$memo" ] && [ -s "$memo" ] && [ -z "$(find "$(dirname "$memo")/lists" \
		-maxdepth 1 -name '*_Packages*' -newer "$memo" 2>/dev/null)" ]; then
		list=$(sed '1d' "$memo")
		headers_depends=$(head -n 1 "$memo")
	else
		deps=$(mktemp) || fail "mktemp failed"
		if ! list=$(apt_closure /dev/null "$want"); then
			rm -f "$deps"
			return 2
		fi
		r=$(sed -n 's/^linux-image-\([0-9][^ ]*\) .*/\1/p' <<<"$list" | head -n 1)
		[ -n "$r" ] || bad "$want ($where) depends on no linux-image-<release> package"
		if [ -z "$headers_arg" ]; then
			hlist=$(apt_closure "$deps" "linux-headers-$r") ||
				bad "linux-headers-$r is not in the index of $where: pass --headers"
			list=$(printf '%s\n%s\n' "$list" "$hlist" | sort -u)
			headers_depends=$(paste -sd , "$deps")
		fi
		rm -f "$deps"
		[ -z "$memo" ] || printf '%s\n%s\n' "$headers_depends" "$list" >"$memo"
	fi
	source="$where, $want $(sed -n "s/^$want \([^ ]*\) .*/\1/p" <<<"$list")"
	tree=$(unpack "$list") || exit
}

case $spec in
*.deb)
	[ -r "$spec" ] || bad "$spec: no such file"
	debs=("$spec")
	list=$(deb_closure "${debs[@]}") || exit 2
	source="$(basename "$spec") with the $(($(wc -l <<<"$list") - 1)) packages it needs, found beside it"
	if [ -z "$headers_arg" ]; then
		# The headers of the release the image package names, beside it.
		r=$(sed -n 's/^linux-image-\([0-9][^ ]*\) .*/\1/p' <<<"$list" | head -n 1)
		hdeb=$(ls "$(dirname "$spec")/linux-headers-${r:-?}"_*.deb 2>/dev/null | head -n 1)
		[ -n "$r" ] && [ -n "$hdeb" ] ||
			bad "no linux-headers-${r:-<release>}_*.deb beside $spec: put it there, or pass --headers"
		headers_arg=$hdeb
	fi
	if [[ $headers_arg == *.deb ]]; then
		[ -r "$headers_arg" ] || bad "--headers $headers_arg: no such file"
		hlist=$(deb_closure "$headers_arg") || exit 2
		headers_depends=$(for p in $(cut -d ' ' -f 4 <<<"$hlist"); do deb_field "$p" Depends; done | paste -sd ,)
		list=$(printf '%s\n%s\n' "$list" "$hlist" | sort -u)
		headers_arg=""
	fi
	tree=$(unpack "$list") || exit
	;;
*/*)
	[ -r "$spec" ] || bad "$spec: no such file"
	image=$spec
	;;
*)
	if [[ $spec =~ $SUITE_RE ]]; then
		suite=$spec
		apt_suite "$suite"
		from_apt "Debian $suite" linux-image-amd64 ||
			bad "linux-image-amd64 is not in the index of Debian $suite"
	elif [[ $spec =~ ^[0-9] ]]; then
		if installed "$spec"; then
			image=$(for i in "/boot/vmlinuz-$spec" "/usr/lib/modules/$spec/vmlinuz" \
				"/lib/modules/$spec/vmlinuz"; do [ -r "$i" ] && echo "$i"; done | head -n 1)
		elif [ -n "$(apt_field "linux-image-$spec" Version)" ]; then
			from_apt "this machine's apt sources" "linux-image-$spec" || exit
		else
			for suite in ${SMAPBENCH_KERNEL_SUITES:-sid trixie bookworm}; do
				apt_suite "$suite"
				[ -n "$(apt_field "linux-image-$spec" Version)" ] || continue
				from_apt "Debian $suite" "linux-image-$spec"
				break
			done
			[ -n "$tree" ] || bad "$spec: not installed, and no linux-image-$spec" \
				"in this machine's apt sources nor in Debian ${SMAPBENCH_KERNEL_SUITES:-sid trixie bookworm}"
		fi
	elif [ -r "$spec" ]; then
		image=$spec
	else
		bad "'$spec' is no file, no kernel release (it starts with a digit)" \
			"and no Debian suite (sid, trixie, bookworm, unstable, testing, stable, ...)"
	fi
	;;
esac

if [ -n "$tree" ]; then
	for image in "$tree"/tree/boot/vmlinuz-* "$tree"/tree/usr/lib/modules/*/vmlinuz \
		"$tree"/tree/lib/modules/*/vmlinuz; do
		[ -r "$image" ] && break
	done
fi
release=$(vm_image_release "$image") || bad "$image is not an x86 bzImage"
if [ -n "$tree" ]; then
	for modules in "$tree/tree/usr/lib/modules/$release" "$tree/tree/lib/modules/$release"; do
		[ -d "$modules" ] && break
	done
	[ -z "$headers_arg" ] && headers=$tree/tree/usr/src/linux-headers-$release
else
	modules=/lib/modules/$release
	headers=/lib/modules/$release/build
fi
if [ -n "$headers_arg" ]; then
	[ -d "$headers_arg" ] || bad "--headers $headers_arg: not a directory nor a .deb"
	headers=$(cd "$headers_arg" && pwd)
fi
if [ -r "$headers/Makefile" ]; then
	headers=$(cd "$headers" && pwd -P)
	hrel=$(vm_headers_release "$headers")
	[ -z "$hrel" ] || [ "$hrel" = "$release" ] ||
		bad "the headers in $headers are of $hrel, the kernel is $release"
else
	[ -z "$headers_arg" ] || bad "--headers $headers_arg: no kernel build tree (no Makefile)"
	headers=""
fi

# ------------------------------------------------------------ build root
# The compiler a header tree names (Debian's say it in .kernelvariables;
# every tree in CONFIG_CC_VERSION_TEXT).
compiler_of() {
	local kdir=$1 cc=""
	if [ -r "$kdir/.kernelvariables" ]; then
		cc=$(sed -n 's/^CC = .*)\(gcc[^ ]*\).*/\1/p; s/^CC = \(gcc[^ ]*\)$/\1/p' \
			"$kdir/.kernelvariables" | head -n 1)
		local cross
		# Only where it is set outright (6.1 sets it for cross builds only).
		cross=$(sed -n 's/^override CROSS_COMPILE = \([^$]*\)$/\1/p' "$kdir/.kernelvariables")
		[ -n "$cc" ] && cc=$cross$cc
	fi
	if [ -z "$cc" ]; then
		if grep -qs '^CONFIG_CC_IS_CLANG=y' "$kdir/include/config/auto.conf"; then
			cc=clang
		else
			cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\).*/\1/p' \
				"$kdir/include/config/auto.conf" 2>/dev/null)
		fi
	fi
	echo "${cc:-gcc}"
}

# Why this machine cannot build modules for the tree, or nothing.
cannot_build_here() {
	local kdir=$1 cc=$2 prog missing
	command -v "$cc" >/dev/null || { echo "its compiler $cc is not installed"; return; }
	for prog in scripts/basic/fixdep scripts/mod/modpost; do
		[ -x "$kdir/$prog" ] || continue
		missing=$(ldd "$kdir/$prog" 2>&1 | grep -m 1 'not found' | sed 's/^[[:space:]]*//')
		[ -z "$missing" ] || { echo "its $prog cannot run here ($missing)"; return; }
	done
}

# root_usable ROOT: the tree's compiler is there and its programs run.
root_usable() {
	local root=$1
	vm_kbuild "$root" "$headers" -- sh -c '
		command -v "$1" >/dev/null || { echo "no $1 in the root"; exit 1; }
		for p in scripts/basic/fixdep scripts/mod/modpost; do
			[ -x "$2/$p" ] || continue
			! ldd "$2/$p" 2>&1 | grep -m 1 "not found" || exit 1
		done' sh "$compiler" "$headers"
}

# make_root SUITE: kernels' build root of a Debian suite: make, and what
# the headers packages depend on (their compiler, the libraries of their
# programs), else build-essential. Remade when it no longer fits.
make_root() {
	local suite=$1 dir=$cache/build-roots/$1 tmp pkgs
	if [ -e "$dir/.complete" ]; then
		root_usable "$dir" >/dev/null 2>&1 && { echo "$dir"; return 0; }
		note "the build root $dir lacks what the headers of $release need: making it anew"
	fi
	command -v mmdebstrap >/dev/null ||
		fail "building for $release needs a root of Debian $suite, made with mmdebstrap: apt-get install mmdebstrap"
	pkgs=$( { echo make; if [ -n "$headers_depends" ]; then other_depends "$headers_depends"; else echo build-essential; fi; } |
		sort -u | paste -sd ,)
	mkdir -p "$cache/build-roots" || fail "cannot create $cache/build-roots"
	tmp=$(mktemp -d "$cache/build-roots/.$suite.XXXXXX") || fail "cannot create a directory in $cache/build-roots"
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	trap 'exit 130' INT TERM
	note "making a build root of Debian $suite ($pkgs) in $dir"
	if ! mmdebstrap --variant=essential --include="$pkgs" \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		"$suite" "$tmp" "$mirror" >"$tmp.log" 2>&1; then
		tail -n 20 "$tmp.log" >&2
		rm -f "$tmp.log"
		unreachable "mmdebstrap of Debian $suite failed (log above)"
	fi
	rm -f "$tmp.log"
	: >"$tmp/.complete"
	rm -rf "$dir.old"
	[ -e "$dir" ] && mv -T "$dir" "$dir.old"
	mv -T "$tmp" "$dir" || fail "cannot move $tmp to $dir"
	rm -rf "$dir.old"
	trap - EXIT
	echo "$dir"
}

build_root="" compiler=""
if [ -n "$headers" ] && [ "$want_root" -eq 1 ]; then
	compiler=$(compiler_of "$headers")
	why=$(cannot_build_here "$headers" "$compiler")
	if [ -n "$root_arg" ] || [ -n "$why" ]; then
		if [ -z "$root_arg" ]; then
			[ -n "$suite" ] ||
				bad "this machine cannot build modules for $release: $why." \
					"Pass --build-root, a root of the kernel's distribution or a Debian suite (e.g. sid)"
			root_arg=$suite
		fi
		if [ -d "$root_arg" ]; then
			build_root=$(cd "$root_arg" && pwd)
			out=$(root_usable "$build_root" 2>&1) ||
				bad "--build-root $root_arg cannot build for $release: ${out:-its programs do not run there}"
		elif [[ $root_arg =~ $SUITE_RE ]]; then
			build_root=$(make_root "$root_arg") || exit
		else
			bad "--build-root $root_arg: no directory, and no Debian suite"
		fi
	fi
fi

if [ "$mode" = resolve ]; then
	printf '%s=%s\n' release "$release" image "$image" modules "$modules" \
		headers "$headers" build_root "$build_root" compiler "$compiler" \
		source "${source:-installed}"
	exit 0
fi

# ------------------------------------------------------------ module
[ -n "$headers" ] || bad "no headers for $release: pass --headers"
note "building the module for $release${build_root:+ in $build_root} ($compiler)"
vm_kbuild "$build_root" "$headers" -- make -C "$top" --no-print-directory -s \
	BUILD="${BUILD:-build}" module KDIR="$headers" ||
	fail "building the module for $release failed (make module KDIR=$headers${build_root:+, in $build_root})"
ko=${build}/kmod/$release/smapbench.ko
[ -r "$ko" ] || fail "no $ko after the build"
echo "$ko"
