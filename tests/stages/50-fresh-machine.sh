#!/bin/bash
# The README's path on fresh machines of the distributions users have:
# Debian 12 (bookworm), Debian 13 (trixie) and Debian unstable (sid,
# standing for the rolling distributions). For each, a copy of a cached
# pristine root (scripts/distro-root.sh: mmdebstrap's buildd variant,
# that is build-essential, plus git) gets a fresh clone of HEAD in
# /root/smapbench, and runs as root inside, literally: `make`, then
# `./run-bench.sh --quick` with no terminal (stdin /dev/null).
#
# make must succeed, build no guest-only program, and name each part it
# leaves out with its package; run-bench.sh must install what it needs
# with apt-get, rebuild with it, explain why the module cannot be used
# here, print the answer block and leave a complete run directory with
# syscall and bpf rows. Then `make smapbench-static` (the guests'
# program) must build there too, with the bpf suite or a note that says
# it was left out, and the binary must agree with the note.
#
# The three roots run at once: most of the time is apt-get and dpkg
# (network and disk) and the quick runs, so they overlap well on two
# CPUs. SMAPBENCH_FRESH_SUITES chooses others ("bookworm" alone, say).
# Downloaded packages stay in the roots' shared cache, the pristine
# roots in SMAPBENCH_CACHE (default /var/cache/smapbench/roots); each
# copy is removed at the end, from outside the namespace its mounts and
# processes lived in (scripts/distro-root.sh run).
#
# Measured on 2 shared CPUs, the three roots at once: see tests/README.md.
# Needs root and the network (deb.debian.org).
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

suites=${SMAPBENCH_FRESH_SUITES:-bookworm trixie sid}
work=$(mkdir -p "${BUILD:-build}/fresh-root" && cd "${BUILD:-build}/fresh-root" && pwd)
revision=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "# the checkout has uncommitted changes: they are not tested, HEAD $revision is"
fi

# ------------------------------------------------------------ one suite
# fresh_machine SUITE: this stage's checks in a copy of SUITE's root, as
# TAP lines on stdout (relayed by the stage once every suite is done).
fresh_machine() {
	local suite=$1 started pristine root checkout logs inner_pid="" rc
	local elapsed_make elapsed_run
	logs=$work/last-run/$suite
	rm -rf "$logs" && mkdir -p "$logs"
	started=$(now)
	if ! pristine=$("$top/scripts/distro-root.sh" make "$suite" 2>"$logs/root.log"); then
		show <"$logs/root.log"
		not_ok "$suite: a pristine root (scripts/distro-root.sh make $suite)"
		return
	fi
	ok "$suite: pristine root $pristine ($(($(now) - started)) s)"
	fingerprint() { sha256sum "$pristine/var/lib/dpkg/status" | cut -d' ' -f1; ls -A "$pristine/root"; }
	local pristine_before
	pristine_before=$(fingerprint)

	root=$(mktemp -d "$work/$suite.XXXXXX")
	# The command in the root runs in a PID namespace that ends with it:
	# ending it ends everything it started.
	# shellcheck disable=SC2317 # called through the trap
	cleanup() {
		[ -z "$inner_pid" ] || kill "$inner_pid" 2>/dev/null
		wait 2>/dev/null
		rm -rf "$root"
	}
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	cp -a "$pristine/." "$root/"
	checkout=$root/root/smapbench
	if ! git clone -q --no-hardlinks "$top" "$checkout" 2>"$logs/clone.log" ||
		! git -C "$checkout" checkout -q --detach "$(git -C "$top" rev-parse HEAD)" 2>>"$logs/clone.log"; then
		show <"$logs/clone.log"
		not_ok "$suite: git clone of the checkout into the root"
		return
	fi
	in_root() { # log command-line
		"$top/scripts/distro-root.sh" run "$root" bash -c "cd /root/smapbench && $2" \
			>"$1" 2>&1 &
		inner_pid=$!
		wait "$inner_pid"
		local status=$?
		inner_pid=""
		return "$status"
	}

	# -------------------------------------------------------- make
	started=$(now)
	in_root "$logs/make.log" make
	rc=$?
	elapsed_make=$(($(now) - started))
	if [ "$rc" -eq 0 ] && [ -x "$checkout/build/smapbench" ]; then
		ok "$suite: make builds build/smapbench ($elapsed_make s, HEAD $revision)"
	else
		show <"$logs/make.log"
		not_ok "$suite: make: status $rc (log: $logs/make.log)"
		return
	fi
	if [ ! -e "$checkout/build/smapbench-static" ]; then
		ok "$suite: make builds no guest-only program (build/smapbench-static)"
	else
		not_ok "$suite: make built build/smapbench-static, which only guests use"
	fi
	# Each optional part is named once, with the package that brings it.
	local part what package n
	for part in "unit tests:libcmocka-dev" "hwloc:libhwloc-dev" "libpfm4:libpfm4-dev" \
		"libperf:linux-source-" "bpf suite:clang" "smapbench.ko:linux-headers-" \
		"plots at run time:gnuplot-nox"; do
		what=${part%%:*} package=${part#*:}
		n=$(grep -c "^note: left out .*$what.*apt-get install .*$package" "$logs/make.log")
		if [ "$n" -eq 1 ]; then
			ok "$suite: make says once that it left out $what, and to install $package"
		else
			grep '^note: left out' "$logs/make.log" | show
			not_ok "$suite: make named '$what' with '$package' $n times, not once"
		fi
	done

	# -------------------------------------------------------- run-bench.sh
	started=$(now)
	in_root "$logs/run-bench.log" "./run-bench.sh --quick"
	rc=$?
	elapsed_run=$(($(now) - started))
	if [ "$rc" -eq 0 ]; then
		ok "$suite: ./run-bench.sh --quick exits 0 ($elapsed_run s)"
	else
		show 40 <"$logs/run-bench.log"
		not_ok "$suite: ./run-bench.sh --quick: status $rc (log: $logs/run-bench.log)"
	fi
	# The answer block comes first in what it prints at the end.
	sed -n '/^What this run says about SMAP:$/,/^$/p' "$logs/run-bench.log" >"$logs/answer.txt"
	if [ "$(wc -l <"$logs/answer.txt")" -ge 2 ]; then
		ok "$suite: run-bench.sh prints the answer block"
		head -n 4 "$logs/answer.txt" | sed "s/^/#   $suite: /"
	else
		tail -n 20 "$logs/run-bench.log" | show
		not_ok "$suite: run-bench.sh printed no 'What this run says about SMAP:' block"
	fi
	local packages absent
	# The run set as run-bench.sh saw it: with /sys and /proc mounted.
	in_root "$logs/run-set.txt" "./scripts/deps.sh list run"
	packages=$(cat "$logs/run-set.txt")
	# shellcheck disable=SC2086 # one word per package
	absent=$(chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		dpkg-query -W -f='${Package} ${Status}\n' $packages 2>&1 |
		grep -v ' install ok installed$')
	if grep -q '^deps: installing:' "$logs/run-bench.log" && [ -n "$packages" ] && [ -z "$absent" ]; then
		ok "$suite: run-bench.sh installed the run packages with apt-get"
	else
		echo "$absent" | show
		not_ok "$suite: run-bench.sh did not install every run package"
	fi

	local run_dir host_dir f pngs features want rows bpf_skip
	run_dir=$(sed -n 's/^run-bench.sh: run directory: //p' "$logs/run-bench.log" | tail -n 1)
	host_dir=$root$run_dir
	if [ -n "$run_dir" ] && [ -d "$host_dir" ]; then
		ok "$suite: run directory $run_dir"
		cp -a "$host_dir" "$logs/"
	else
		not_ok "$suite: run-bench.sh named no run directory"
	fi
	for f in results.csv samples.csv context.csv results.json report.md; do
		if [ -s "$host_dir/$f" ]; then
			ok "$suite: run directory has $f"
		else
			not_ok "$suite: run directory lacks $f"
		fi
	done
	pngs=$(find "$host_dir/plots" -name '*.png' -size +1k 2>/dev/null | wc -l)
	if [ "$pngs" -gt 0 ]; then
		ok "$suite: run directory has plots/ ($pngs PNG files)"
	else
		not_ok "$suite: run directory has no plots"
	fi
	# run-bench.sh's rebuild used what it installed: hwloc always; libperf
	# and libpfm4 only where the run set has them, that is where user
	# space may read the PMU and the archive has Debian 12's kernel source
	# (scripts/deps.sh, perf_counter_packages).
	features=$(sed -n 's/^build_features,//p' "$host_dir/context.csv" 2>/dev/null)
	want="*hwloc=1*"
	if grep -qx linux-source-6.1 <<<"$packages"; then
		want="*libperf=1*libpfm=1*hwloc=1*"
	fi
	# shellcheck disable=SC2053 # $want is a pattern
	if [[ "$features" == $want ]]; then
		ok "$suite: rebuilt with the installed libraries ($features; wanted $want)"
	else
		not_ok "$suite: the run's program lacks installed libraries: build_features '$features', wanted $want"
	fi
	rows=$(grep -c '^syscall/' "$host_dir/results.csv" 2>/dev/null)
	if [ "${rows:-0}" -gt 0 ]; then
		ok "$suite: the syscall suite ran ($rows rows)"
	else
		not_ok "$suite: no syscall rows in results.csv"
	fi
	rows=$(grep -c '^bpf/' "$host_dir/results.csv" 2>/dev/null)
	bpf_skip=$(grep -m1 '^bpf/' "$host_dir/skipped.csv" 2>/dev/null | cut -d, -f3-)
	if [ "${rows:-0}" -gt 0 ]; then
		ok "$suite: the bpf suite was built and ran ($rows rows)"
	elif [ -n "$bpf_skip" ] && [[ "$bpf_skip" != *"missing at build time"* ]]; then
		skip "$suite: the bpf suite was built" "it cannot run here: $bpf_skip"
	else
		not_ok "$suite: the bpf suite was not built: ${bpf_skip:-no bpf rows and no reason}"
	fi
	# Why the module could not be used, as on this machine.
	local reason=""
	if [ ! -e /proc/modules ]; then
		reason="built without module support (CONFIG_MODULES is off)"
	elif [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 1 ]; then
		reason="module loading is disabled"
	fi
	if [ -z "$reason" ]; then
		skip "$suite: run-bench.sh explains why the module is absent" "this kernel can load modules"
	elif grep -q "The kernel module cannot be used here: .*$reason" "$logs/run-bench.log"; then
		ok "$suite: run-bench.sh explains the module's absence: $reason"
	else
		grep -i module "$logs/run-bench.log" | show
		not_ok "$suite: run-bench.sh does not say why the module is absent ($reason)"
	fi
	if grep -q '^kmod/.*absent' "$host_dir/skipped.csv" 2>/dev/null; then
		ok "$suite: skipped.csv records why the kmod suite was skipped"
	else
		not_ok "$suite: skipped.csv has no kmod rows with a reason"
	fi

	# -------------------------------------------------------- the guests' program
	# With the run's packages installed, as a --vm run would build it:
	# libbpf linked statically, or the bpf suite left out with a note,
	# and the program as the note says.
	local linked noted
	in_root "$logs/static.log" "make smapbench-static"
	rc=$?
	linked=$(nm "$checkout/build/smapbench-static" 2>/dev/null | grep -c ' bpf_object__open_mem$')
	noted=$(grep -c '^note: left out the bpf suite from build/smapbench-static' "$logs/static.log")
	if [ "$rc" -eq 0 ] && { [ "$linked$noted" = 10 ] || [ "$linked$noted" = 01 ]; }; then
		ok "$suite: make smapbench-static builds, $([ "$linked" = 1 ] && echo "with libbpf" ||
			grep -m1 '^note: left out' "$logs/static.log")"
	else
		show <"$logs/static.log"
		not_ok "$suite: make smapbench-static: status $rc, libbpf linked $linked, note $noted"
	fi

	# -------------------------------------------------------- clean up
	trap - EXIT INT TERM
	cleanup
	if findmnt -rn -o TARGET | grep -qF "$root"; then
		findmnt -rn -o TARGET | grep -F "$root" | show
		not_ok "$suite: mounts are left under $root"
	else
		ok "$suite: no mount is left behind"
	fi
	if [ ! -e "$root" ] && [ "$(fingerprint)" = "$pristine_before" ]; then
		ok "$suite: the copy is gone and the pristine root is unchanged"
	else
		not_ok "$suite: the copy $root remains or the pristine root changed"
	fi
}

# ------------------------------------------------------------ all at once
workers=()
for suite in $suites; do
	fresh_machine "$suite" >"$work/$suite.tap" 2>&1 &
	workers+=($!)
done
# shellcheck disable=SC2317 # called through the trap
stop_workers() {
	local pid
	for pid in "${workers[@]}"; do kill "$pid" 2>/dev/null; done
	wait
}
trap stop_workers EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
wait
trap - EXIT
for suite in $suites; do
	echo "# $suite"
	relay <"$work/$suite.tap"
done
stage_exit
