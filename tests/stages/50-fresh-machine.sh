#!/bin/bash
# The README's path on a fresh machine. A minimal Debian 12 root (priority
# "required" plus build-essential, nothing else) is made with mmdebstrap
# from deb.debian.org and cached in build/fresh-root/; each run works on a
# copy of it, with a fresh clone of HEAD in /root/smapbench, and runs as
# root inside, literally: `make`, then `./run-bench.sh --quick`.
#
# make must succeed and name each part it leaves out with its package;
# run-bench.sh must install what it needs with apt-get, rebuild with it,
# explain why the module cannot be used here, and leave a complete run
# directory. Downloaded packages are kept in build/fresh-root/apt-archives
# (the root's /var/cache/apt/archives): apt-get still resolves and installs
# everything, only the downloads are saved.
#
# The chroot's mounts (/proc, /sys, /dev, the package cache) live in a
# private mount namespace: they vanish with it on every exit path, and the
# copy is removed from outside it, where it has no mount at all.
#
# Measured on 2 shared CPUs: cold (no cached root, no cached packages)
# 12.5 minutes, warm 9 to 11; mmdebstrap takes 75 s, make 40 s, and
# run-bench.sh the rest, mostly its own --quick run of the syscall and bpf
# suites. Needs root and the network (deb.debian.org).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
top=$(pwd)
now() { date +%s; }

if [ "$(id -u)" -ne 0 ]; then
	skip "fresh-machine build and run" "needs root (chroot, mounts, apt-get in the root)"
	exit 0
fi
for tool in mmdebstrap unshare chroot git; do
	need_command "$tool" "scripts/deps.sh install test"
done

cache=$(mkdir -p "${BUILD:-build}/fresh-root" && cd "${BUILD:-build}/fresh-root" && pwd)
suite=bookworm
mmdebstrap_args=(--mode=root --variant=minbase --include=build-essential
	--format=directory "$suite")
sources=("deb http://deb.debian.org/debian $suite main"
	"deb http://deb.debian.org/debian $suite-updates main"
	"deb http://deb.debian.org/debian-security $suite-security main")
# The cached root is named after what made it.
key=$(printf '%s\n' "${mmdebstrap_args[@]}" "${sources[@]}" | sha256sum | cut -c1-16)
pristine=$cache/root-$key

# ------------------------------------------------------------ the root
started=$(now)
if [ ! -f "$pristine.done" ]; then
	rm -rf "$pristine" "$pristine.tmp"
	# mmdebstrap mounts inside the root while it works: keep any mount
	# it might leave out of this namespace.
	if unshare --mount --propagation private \
		mmdebstrap "${mmdebstrap_args[@]}" "$pristine.tmp" "${sources[@]}" \
		>"$cache/mmdebstrap.log" 2>&1 && mv "$pristine.tmp" "$pristine"; then
		touch "$pristine.done"
		# Roots made from other settings are of no further use.
		for old in "$cache"/root-*; do
			case $old in "$pristine" | "$pristine.done") ;; *) rm -rf "$old" ;; esac
		done
		ok "made a minimal $suite root with build-essential in $(($(now) - started)) s (mmdebstrap)"
	else
		show <"$cache/mmdebstrap.log"
		rm -rf "$pristine.tmp"
		not_ok "mmdebstrap of a minimal $suite root (log: $cache/mmdebstrap.log)"
		exit 1
	fi
else
	ok "cached minimal $suite root with build-essential ($pristine)"
fi
fingerprint() { sha256sum "$pristine/var/lib/dpkg/status" | cut -d' ' -f1; ls -A "$pristine/root"; }
pristine_before=$(fingerprint)

# ------------------------------------------------------------ a copy of it
root=$(mktemp -d "$cache/run.XXXXXX")
inner_pid=""
cleanup() {
	local p _
	[ -n "$inner_pid" ] && kill "$inner_pid" 2>/dev/null
	# Anything still running in the copy (we started it) goes too; a
	# second pass catches what a dying parent started meanwhile.
	for _ in 1 2; do
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] &&
				kill -9 "${p#/proc/}" 2>/dev/null
		done
	done
	rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cp -a "$pristine/." "$root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$cache/apt-archives/partial"
checkout=$root/root/smapbench
if ! git clone -q --no-hardlinks "$top" "$checkout" 2>"$cache/clone.log" ||
	! git -C "$checkout" checkout -q --detach "$(git rev-parse HEAD)" 2>>"$cache/clone.log"; then
	show <"$cache/clone.log"
	not_ok "git clone of the checkout into the root"
	exit 1
fi
revision=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "# the checkout has uncommitted changes: they are not tested, HEAD $revision is"
fi

# Runs one command line as root in the copy, in a clean environment, from
# the checkout, in its own mount namespace.
in_root() { # log command-line
	local log=$1 cmd=$2
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private bash -c '
		set -e
		root=$1 archives=$2 cmd=$3
		mount -t proc proc "$root/proc"
		mount -t sysfs sysfs "$root/sys"
		mount --bind /dev "$root/dev"
		mount --bind /dev/pts "$root/dev/pts"
		mount -t tmpfs tmpfs "$root/dev/shm"
		mount --bind "$archives" "$root/var/cache/apt/archives"
		exec chroot "$root" env -i HOME=/root TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			bash -c "cd /root/smapbench && $cmd"
	' in-root "$root" "$cache/apt-archives" "$cmd" >"$log" 2>&1 &
	inner_pid=$!
	wait "$inner_pid"
	local rc=$?
	inner_pid=""
	return "$rc"
}

# ------------------------------------------------------------ make
logs=$cache/last-run
rm -rf "$logs" && mkdir -p "$logs"
started=$(now)
in_root "$logs/make.log" make
rc=$?
if [ "$rc" -eq 0 ] && [ -x "$checkout/build/smapbench" ]; then
	ok "make in the fresh root builds build/smapbench ($(($(now) - started)) s, HEAD $revision)"
else
	show <"$logs/make.log"
	not_ok "make in the fresh root: status $rc (log: $logs/make.log)"
	exit 1
fi
# Each optional part is named once, with the package that brings it.
for part in "unit tests:libcmocka-dev" "hwloc:libhwloc-dev" "libpfm4:libpfm4-dev" \
	"libperf:linux-source-6.1" "bpf suite:clang" "smapbench.ko:linux-headers-" \
	"plots at run time:gnuplot-nox"; do
	what=${part%%:*} package=${part#*:}
	n=$(grep -c "^note: left out .*$what.*apt-get install .*$package" "$logs/make.log")
	if [ "$n" -eq 1 ]; then
		ok "make says once that it left out $what, and to install $package"
	else
		grep '^note: left out' "$logs/make.log" | show
		not_ok "make named '$what' with '$package' $n times, not once"
	fi
done
if [ ! -e /proc/modules ]; then
	if grep -q '^note: left out smapbench.ko.*no CONFIG_MODULES' "$logs/make.log"; then
		ok "make says this kernel cannot load modules anyway"
	else
		not_ok "make does not say that this kernel has no module support"
	fi
fi

# ------------------------------------------------------------ run-bench.sh
started=$(now)
in_root "$logs/run-bench.log" "./run-bench.sh --quick"
rc=$?
elapsed=$(($(now) - started))
if [ "$rc" -eq 0 ]; then
	ok "./run-bench.sh --quick in the fresh root exits 0 ($elapsed s)"
else
	show 40 <"$logs/run-bench.log"
	not_ok "./run-bench.sh --quick in the fresh root: status $rc (log: $logs/run-bench.log)"
fi
# Every run package is installed in the root now.
in_chroot() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
packages=$(in_chroot /root/smapbench/scripts/deps.sh list run)
# shellcheck disable=SC2086 # one word per package
absent=$(in_chroot dpkg-query -W -f='${Package} ${Status}\n' $packages 2>&1 |
	grep -v ' install ok installed$')
if grep -q '^deps: installing:' "$logs/run-bench.log" && [ -z "$absent" ]; then
	ok "run-bench.sh installed the run packages with apt-get"
else
	echo "$absent" | show
	not_ok "run-bench.sh did not install every run package"
fi

run_dir=$(sed -n 's/^run-bench.sh: run directory: //p' "$logs/run-bench.log" | tail -n 1)
host_dir=$root$run_dir
if [ -n "$run_dir" ] && [ -d "$host_dir" ]; then
	ok "run directory $run_dir"
	cp -a "$host_dir" "$logs/"
else
	not_ok "run-bench.sh named no run directory"
fi
for f in results.csv samples.csv context.csv results.json report.md; do
	if [ -s "$host_dir/$f" ]; then
		ok "run directory has $f"
	else
		not_ok "run directory lacks $f"
	fi
done
pngs=$(find "$host_dir/plots" -name '*.png' -size +1k 2>/dev/null | wc -l)
if [ "$pngs" -gt 0 ]; then
	ok "run directory has plots/ ($pngs PNG files)"
else
	not_ok "run directory has no plots"
fi

# run-bench.sh's rebuild used what it installed: hwloc always; libperf
# (from linux-source) and libpfm4 only where the run set has them, that
# is where user space may read the PMU (scripts/deps.sh, user_rdpmc).
features=$(sed -n 's/^build_features,//p' "$host_dir/context.csv" 2>/dev/null)
want="*hwloc=1*"
if ./scripts/deps.sh list run | grep -qx libpfm4-dev; then
	want="*libperf=1*libpfm=1*hwloc=1*"
fi
# shellcheck disable=SC2053 # $want is a pattern
if [[ "$features" == $want ]]; then
	ok "rebuilt with the installed libraries ($features; wanted $want)"
else
	not_ok "the run's program lacks installed libraries: build_features '$features', wanted $want"
fi
bpf_rows=$(grep -c '^bpf/' "$host_dir/results.csv" 2>/dev/null)
bpf_skip=$(grep -m1 '^bpf/' "$host_dir/skipped.csv" 2>/dev/null | cut -d, -f3-)
if [ "${bpf_rows:-0}" -gt 0 ]; then
	ok "the bpf suite was built and ran ($bpf_rows rows)"
elif [ -n "$bpf_skip" ] && [[ "$bpf_skip" != *"missing at build time"* ]]; then
	skip "the bpf suite was built" "it cannot run here: $bpf_skip"
else
	not_ok "the bpf suite was not built: ${bpf_skip:-no bpf rows and no reason}"
fi

# Why the module could not be used, as on this machine.
if [ ! -e /proc/modules ]; then
	reason="built without module support (CONFIG_MODULES is off)"
elif [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 1 ]; then
	reason="module loading is disabled"
else
	reason=""
fi
if [ -z "$reason" ]; then
	skip "run-bench.sh explains why the module is absent" "this kernel can load modules"
elif grep -q "The kernel module cannot be used here: .*$reason" "$logs/run-bench.log"; then
	ok "run-bench.sh explains the module's absence: $reason"
else
	grep -i module "$logs/run-bench.log" | show
	not_ok "run-bench.sh does not say why the module is absent ($reason)"
fi
if grep -q '^kmod/.*absent' "$host_dir/skipped.csv" 2>/dev/null; then
	ok "skipped.csv records why the kmod suite was skipped"
else
	not_ok "skipped.csv has no kmod rows with a reason"
fi

# ------------------------------------------------------------ clean up
trap - EXIT
cleanup
if findmnt -rn -o TARGET | grep -qF "$cache/"; then
	findmnt -rn -o TARGET | grep -F "$cache/" | show
	not_ok "mounts are left under $cache"
else
	ok "no mount is left behind"
fi
if [ ! -e "$root" ] && [ "$(fingerprint)" = "$pristine_before" ]; then
	ok "the copy is gone and the cached root is unchanged"
else
	not_ok "the copy $root remains or the cached root changed"
fi
stage_exit
