#!/bin/bash
# run-bench.sh - the one entry point: install what is missing, build, load
# the module, run the suite pinned, unload, plot, and say where it all is.
#
# Run it once on a normal boot and once on a boot with SMAP off, then
# compare the two run directories (see README.md). With --vm it boots
# this machine's own root filesystem in QEMU, once per SMAP state, and
# runs itself inside: the same steps, in a guest that loads the module.
set -u

here=$(cd "$(dirname "$0")" && pwd)
prog=$(basename "$0")

usage() {
	cat <<EOF
usage: sudo ./$prog [options]

Builds smapbench, loads smapbench.ko, runs the benchmark suites pinned to
one core, unloads the module and writes a run directory with results and
plots under data/ (or --out).

options:
  --suite NAME     syscall, kmod, bpf or all (default: all that can run
                   here); none: only the command of --command
  --quick          a short run, for a first look (smapbench run --quick:
                   3 repetitions of short samples, fewer sizes): seconds on
                   a host (7 s for syscall and bpf on a cloud VM), tens of
                   minutes with --vm under emulation (TCG)
  --full           every size of every sweep (smapbench run --full); the
                   default leaves out bpf sizes to stay near 2 minutes
  --out DIR        parent directory of the run directory (default: data/
                   of this checkout; a relative DIR is taken from the
                   current directory)
  --cpu N          pin to CPU N (default: chosen by smapbench)
  --repetitions N  repetitions of every benchmark, 1 to 10000 (default 5,
                   3 with --quick; smapbench run --repetitions)
  --filter REGEX   only the benchmarks whose name matches the POSIX
                   extended regular expression (smapbench run --filter),
                   e.g. '^syscall/getppid$'; smapbench run --list names them
  --command CMD    also time CMD, run by sh -c, as a row of the run
                   (smapbench run --command): after a warm-up, each
                   repetition a fresh worker, each operation a fresh
                   process, pinned with the run; its output in the run's
                   command.log. A failure of CMD fails the run (a series
                   ends, keeping its runs). With --suite none, CMD alone
  --census DIR     with --boots and --command: the census of CMD on this
                   kernel (smapbench census -- sh -c 'CMD'); the series'
                   report then sets SMAP's cost to CMD, measured over the
                   boots, beside its pairs times the pair's cost
                   (smapbench workload). A census without a SMAP boot of
                   the series' kernel is refused. Default: the newest
                   census of CMD on this kernel under --out or data/;
                   with --vm, else one taken on the guest kernel before
                   the series starts (it runs CMD here too, natively)
  --bench-census DIR
                   with --boots: the census of the benchmarks on this
                   kernel (vm/census.sh: a SMAP boot of it, the syscall
                   and kapi rows), from which the series' report fits
                   the pair's cost beta beside inline - nopad. Default:
                   the newest such census under --out or data/; with
                   --vm, else one of the guest kernel kept in
                   /var/cache/smapbench/census/, else one taken there
                   before the series starts (one boot under TCG). A
                   census of another kernel is refused
  --min-time S     seconds one sample lasts at least, 0.000001 to 60
                   (default 0.01, 0.002 with --quick)
  --run-dir-file FILE
                   write the absolute path of the run directory to FILE,
                   one line (with --vm: one line per run directory kept),
                   for scripts; FILE is emptied first, so it names only
                   what this run kept (the "run directory:" message is for
                   people)
  --vm             boot this machine's own root filesystem in QEMU with SMAP
                   on, clearcpuid=smap and a CPU without SMAP, run this
                   script in each guest, and compare (no host reboot needed)
  --kernel KERNEL  with --vm: the kernel to boot (default: Debian's): an
                   image, a Debian kernel .deb, a release or a Debian suite
                   such as sid, whose packages are fetched and cached
                   (vm/kernel.sh, docs/vm.md)
  --headers H      with --vm: headers matching --kernel, to build the
                   module: a directory or a linux-headers .deb
  --build-root B   with --vm: where the module for --kernel is built when
                   this machine cannot build it (its headers need a newer
                   C library or another compiler): a root of the kernel's
                   distribution, or a Debian suite (default: the suite the
                   kernel came from)
  --accel A        with --vm: auto (default; or SMAPBENCH_ACCEL), kvm or tcg.
                   auto boots the kernel under KVM to user space first and
                   takes TCG (emulated, functional only) when it cannot
  --boots [N]      a boot series: run on this boot, reboot this kernel
                   (kexec, not the boot loader) with SMAP off, run,
                   with SMAP on, ... N boots in all (default 4), then
                   compare them and reboot into the original command
                   line (docs/boot-series.md); asks first on a terminal
                   (--yes: not); with --vm, in a guest
  --boots auto     a series of the boots and repetitions smapbench plan
                   gives for --precision from earlier runs of this
                   machine under --out (of one SMAP state, two boots or
                   more), at the costs an earlier series' phases.csv
                   measured; without them, 4 boots, and after boot 3 as
                   many as the plan from the series' own boots 1 and 3
                   and its phases.csv gives (at most --max-boots). The
                   plan holds for the command's row with --command,
                   else the --filter's or --suite's rows, else the
                   headline rows
  --precision P    with --boots: SMAP on - off within +-P, as 1% or 0.01
                   (default 1%; smapbench plan --precision); --boots N
                   shows what a series planned for it would take
  --max-boots N    with --boots auto: boots at most, 2 to 64 (default 64)
  --series-status  where the boot series pending on this machine stands
  --boots-abort    end the pending boot series: keep its finished runs,
                   reboot into the original command line
  --no-install     do not apt-get install missing packages
  --yes            install missing packages without asking (without it,
                   the list and its size are shown and a terminal is asked
                   first; with stdin not a terminal nothing is asked), and
                   start a boot series without asking.
                   Only what a run on this machine can use is installed
                   (scripts/deps.sh list run; with --vm, list vm); apt's
                   output goes to build/deps-apt.log
  --no-plots       leave out plots/ and report.md (smapbench plot RUN and
                   smapbench report RUN make them later); --vm uses it in
                   its guests and draws them on this machine, natively
  -h, --help       this text

SMAP off: on Linux >= 5.19 add 'clearcpuid=smap' to the kernel command line
(older kernels: 'nosmap'), reboot, and run this script again
(docs/smap-off.md).
EOF
}

say() { printf '%s: %s\n' "$prog" "$*"; }
warn() { printf '%s: warning: %s\n' "$prog" "$*" >&2; }
die() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 1
}
bad_usage() {
	printf '%s: %s (see --help)\n' "$prog" "$*" >&2
	exit 2
}
banner() {
	# Loud, boxed: for states that make results mean something else.
	local line
	printf '\n' >&2
	printf '%s\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
	for line in "$@"; do printf '!! %s\n' "$line" >&2; done
	printf '%s\n\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
}
# A command line to copy and paste: every word quoted for the shell.
shell_words() {
	local word line=""
	for word in "$@"; do
		line+="${line:+ }$(printf '%q' "$word")"
	done
	printf '%s\n' "$line"
}

suite="" quick=0 full=0 out="" cpu="" caller_run_dir_file="" vm=0 kernel="" headers="" install=1 accel="" plots=1
build_root=""
repetitions="" filter="" min_time="" assume_yes=0 command="" census="" bench_census=""
boots=0 boots_auto=0 precision="" max_boots="" series_cmd="" series_step=0 vm_guest=0
# What a series passes on to the run of each of its boots.
series_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--suite)
		[ $# -ge 2 ] || bad_usage "--suite needs a value"
		case "$2" in syscall | kmod | bpf | all | none) suite=$2 ;;
		*) bad_usage "unknown suite '$2': use syscall, kmod, bpf, all, or none with --command" ;;
		esac
		shift 2 ;;
	--quick) quick=1; shift ;;
	--full) full=1; shift ;;
	--out)
		[ $# -ge 2 ] || bad_usage "--out needs a directory"
		[ -n "$2" ] || bad_usage "--out: empty directory name"
		out=$2; shift 2 ;;
	--cpu)
		[ $# -ge 2 ] || bad_usage "--cpu needs a CPU number"
		[[ "$2" =~ ^[0-9]+$ ]] || bad_usage "--cpu '$2' is not a CPU number"
		cpu=$2; shift 2 ;;
	--repetitions)
		[ $# -ge 2 ] || bad_usage "--repetitions needs a number"
		[[ "$2" =~ ^[0-9]{1,5}$ ]] && [ "$((10#$2))" -ge 1 ] && [ "$((10#$2))" -le 10000 ] ||
			bad_usage "--repetitions '$2' is not an integer in [1, 10000]"
		repetitions=$((10#$2)); shift 2 ;;
	--filter)
		[ $# -ge 2 ] || bad_usage "--filter needs a regular expression"
		[ -n "$2" ] || bad_usage "--filter: empty regular expression"
		# grep -E compiles the same POSIX extended syntax as smapbench:
		# status 2 is an expression it cannot compile.
		grep -qE -- "$2" </dev/null 2>/dev/null
		[ $? -ne 2 ] || bad_usage "--filter '$2' is not a POSIX extended regular expression"
		filter=$2; shift 2 ;;
	--command)
		[ $# -ge 2 ] || bad_usage "--command needs a command"
		[[ "$2" =~ [^[:space:]] ]] || bad_usage "--command: an empty command"
		# one line: a series keeps its arguments one a line
		[[ "$2" != *$'\n'* ]] || bad_usage "--command: one line, please (a newline cannot be recorded)"
		command=$2; shift 2 ;;
	--census)
		[ $# -ge 2 ] || bad_usage "--census needs a census directory"
		[ -f "$2/census.csv" ] || bad_usage "--census '$2' is no census directory (no census.csv)"
		census=$2; shift 2 ;;
	--bench-census)
		[ $# -ge 2 ] || bad_usage "--bench-census needs a census directory"
		[ -f "$2/census.csv" ] || bad_usage "--bench-census '$2' is no census directory (no census.csv)"
		bench_census=$2; shift 2 ;;
	--min-time)
		[ $# -ge 2 ] || bad_usage "--min-time needs a number of seconds"
		[[ "$2" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] &&
			awk -v t="$2" 'BEGIN { exit !(t + 0 >= 0.000001 && t + 0 <= 60) }' ||
			bad_usage "--min-time '$2' is not a number of seconds in [0.000001, 60]"
		min_time=$2; shift 2 ;;
	--yes) assume_yes=1; shift ;;
	--run-dir-file)
		[ $# -ge 2 ] || bad_usage "--run-dir-file needs a file name"
		[ -n "$2" ] || bad_usage "--run-dir-file: empty file name"
		caller_run_dir_file=$2; shift 2 ;;
	--vm) vm=1; shift ;;
	--kernel)
		[ $# -ge 2 ] || bad_usage "--kernel needs a path"
		kernel=$2; shift 2 ;;
	--headers)
		[ $# -ge 2 ] || bad_usage "--headers needs a directory or a .deb"
		headers=$2; shift 2 ;;
	--build-root)
		[ $# -ge 2 ] || bad_usage "--build-root needs a directory or a Debian suite"
		build_root=$2; shift 2 ;;
	--accel)
		[ $# -ge 2 ] || bad_usage "--accel needs auto, kvm or tcg"
		case "$2" in auto | kvm | tcg) accel=$2 ;;
		*) bad_usage "--accel '$2': use auto, kvm or tcg" ;;
		esac
		shift 2 ;;
	--boots)
		boots=4
		if [ $# -ge 2 ] && [ "$2" = auto ]; then
			boots_auto=1
			shift
		elif [ $# -ge 2 ] && [[ "$2" =~ ^[0-9]+$ ]]; then
			boots=$2
			shift
		fi
		[ "$boots" -ge 2 ] && [ "$boots" -le 64 ] ||
			bad_usage "--boots $boots: a series has 2 to 64 boots"
		shift ;;
	--precision)
		[ $# -ge 2 ] || bad_usage "--precision needs a share, as 1%"
		awk -v p="$2" 'BEGIN {
			if (p !~ /^[0-9]+(\.[0-9]+)?%?$/) exit 1
			v = p; pc = sub(/%$/, "", v); v += 0
			exit !(pc ? v >= 0.001 && v <= 50 : v >= 0.00001 && v <= 0.5) }' ||
			bad_usage "--precision '$2' is not a share from 0.001% to 50%, as 1% or 0.01"
		precision=$2; shift 2 ;;
	--max-boots)
		[ $# -ge 2 ] || bad_usage "--max-boots needs a number"
		[[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge 2 ] && [ "$2" -le 64 ] ||
			bad_usage "--max-boots '$2': a series has 2 to 64 boots"
		max_boots=$2; shift 2 ;;
	--series-status) series_cmd=status; shift ;;
	--boots-abort) series_cmd=abort; shift ;;
	# Internal: the systemd unit of a series, and a series' own runs.
	--series-resume) series_cmd=resume; shift ;;
	--series-step) series_step=1; shift ;;
	# Internal: the run-bench.sh a --vm host starts in each guest.
	--vm-guest) vm_guest=1; shift ;;
	--no-install) install=0; shift ;;
	--no-plots) plots=0; shift ;;
	-h | --help) usage; exit 0 ;;
	*) bad_usage "unknown option '$1'" ;;
	esac
done
if [ "$quick" -eq 1 ] && [ "$full" -eq 1 ]; then
	bad_usage "--quick and --full: choose one sweep"
fi
[ -n "$suite" ] && series_args+=(--suite "$suite")
[ "$quick" -eq 1 ] && series_args+=(--quick)
[ "$full" -eq 1 ] && series_args+=(--full)
[ -n "$cpu" ] && series_args+=(--cpu "$cpu")
# The options smapbench run takes as they are, for every run of this one.
run_args=()
[ -n "$repetitions" ] && run_args+=(--repetitions "$repetitions")
[ -n "$filter" ] && run_args+=(--filter "$filter")
[ -n "$min_time" ] && run_args+=(--min-time "$min_time")
[ -n "$command" ] && run_args+=(--command "$command")
series_args+=("${run_args[@]}")
[ "$plots" -eq 0 ] && series_args+=(--no-plots)
[ "$vm_guest" -eq 1 ] && series_args+=(--vm-guest)
if [ "$suite" = none ] && [ -z "$command" ]; then
	bad_usage "--suite none runs nothing without --command CMD"
fi
if [ -n "$census" ] && { [ "$boots" -eq 0 ] || [ -z "$command" ]; }; then
	bad_usage "--census predicts the cost of a series' command: it needs --boots and --command"
fi
if [ -n "$bench_census" ] && [ "$boots" -eq 0 ]; then
	bad_usage "--bench-census is for the pair's cost a boot series fits: it needs --boots"
fi
if [ -n "$precision" ] && [ "$boots" -eq 0 ]; then
	bad_usage "--precision is what a boot series is planned for: it needs --boots"
fi
if [ -n "$max_boots" ] && [ "$boots_auto" -eq 0 ]; then
	bad_usage "--max-boots bounds the boots --boots auto plans: it needs --boots auto"
fi
if [ "$boots_auto" -eq 1 ] && [ -n "$repetitions" ]; then
	bad_usage "--boots auto plans the repetitions of each boot's run: leave --repetitions out"
fi
if [ "$boots_auto" -eq 1 ] && [ "$vm" -eq 1 ]; then
	bad_usage "--vm --boots auto: a guest series has no earlier runs to plan from; give --boots N"
fi
if [ "$boots" -gt 0 ] && [ -n "$series_cmd" ]; then
	bad_usage "--boots starts a series; --series-status and --boots-abort act on a pending one: choose one"
fi
if [ "$boots" -gt 0 ] && [ -n "$caller_run_dir_file" ]; then
	bad_usage "--run-dir-file names one run; a series keeps its runs in its own directory"
fi
if [ "$vm" -eq 0 ] && { [ -n "$kernel" ] || [ -n "$headers" ] || [ -n "$build_root" ] || [ -n "$accel" ]; }; then
	bad_usage "--kernel, --headers, --build-root and --accel only make sense with --vm"
fi
# A file named is checked now; a release or a suite when it is looked up.
# is_path WORD: it names a file (a /, or a .deb), not a release or a suite.
is_path() { [[ $1 == */* || $1 == *.deb || -e $1 ]]; }
if [ -n "$kernel" ] && is_path "$kernel" && [ ! -f "$kernel" ]; then
	bad_usage "--kernel '$kernel' does not exist"
fi
if [ -n "$headers" ] && [ ! -e "$headers" ]; then
	bad_usage "--headers '$headers' does not exist"
fi
# Paths the user typed are theirs, relative to where they typed them.
absolute() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }
out=$(absolute "${out:-$here/data}")
if [ -n "$kernel" ] && is_path "$kernel"; then kernel=$(absolute "$kernel"); fi
[ -z "$headers" ] || headers=$(absolute "$headers")
if [ -n "$build_root" ] && is_path "$build_root"; then build_root=$(absolute "$build_root"); fi
[ -z "$census" ] || census=$(absolute "$census")
[ -z "$bench_census" ] || bench_census=$(absolute "$bench_census")
[ -z "$caller_run_dir_file" ] || caller_run_dir_file=$(absolute "$caller_run_dir_file")

# ---------------------------------------------------------------- censuses
# A series fits the pair's cost (beta) from a census of the benchmarks
# and predicts its command's cost from a census of the command: both of
# the series' own kernel, by its release (the kernel's identity in run
# data, rundata/catalogue.c), never of another one.
# The filter of the benchmarks' census a series takes: the rows the pair
# fit reads (analysis/pair_fit.c), syscall and kmod kapi.
bench_census_filter='^(syscall/|kmod/[^/]+/kapi(/|$))'
# context_value DIR KEY: KEY's value in DIR/context.csv, unquoted.
context_value() {
	awk -v k="$2" 'index($0, k ",") == 1 {
		v = substr($0, length(k) + 2)
		if (v ~ /^".*"$/) { v = substr(v, 2, length(v) - 2); gsub(/""/, "\"", v) }
		print v; exit }' "$1/context.csv" 2>/dev/null
}
# smap_rows DIR RELEASE KIND: DIR is a census of KIND (census: the
# benchmarks', census-command: a command's) with a SMAP boot of RELEASE;
# of the benchmarks, with three rows or more the pair fit reads.
smap_rows() {
	[ -f "$1/census.csv" ] && [ "$(context_value "$1" kind)" = "$3" ] &&
		awk -F, -v k="$2" -v kind="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["kernel"] == k && $c["smap_state"] == "smap" &&
			(kind != "census" || $c["suite"] == "syscall" ||
			 ($c["suite"] == "kmod" && $c["variant"] == "kapi")) { n++ }
		END { exit !(n >= (kind == "census" ? 3 : 1)) }' "$1/census.csv"
}
bench_census_of() { smap_rows "$1" "$2" census; }
# command_census_of DIR RELEASE [CMD]: a census of sh -c CMD (of any
# command without CMD) with a SMAP boot of RELEASE.
command_census_of() {
	smap_rows "$1" "$2" census-command || return 1
	[ $# -lt 3 ] && return 0
	[ "$(context_value "$1" argv_0)" = sh ] && [ "$(context_value "$1" argv_1)" = -c ] &&
		[ "$(context_value "$1" argv_2)" = "$3" ] && [ "$(context_value "$1" argc)" = 3 ]
}
# newest_census TEST ARGUMENT... -- PARENT...: the newest (by the date in
# its context.csv) census directory in the PARENTs for which
# TEST DIR ARGUMENT... holds.
newest_census() {
	local test=() parent d found="" found_date="" date
	while [ $# -gt 0 ] && [ "$1" != -- ]; do test+=("$1"); shift; done
	shift
	for parent in "$@"; do
		for d in "$parent"/*census*/; do
			d=${d%/}
			[ -d "$d" ] && "${test[0]}" "$d" "${test[@]:1}" || continue
			date=$(context_value "$d" date)
			if [ -z "$found" ] || [[ $date > $found_date ]]; then
				found=$d found_date=$date
			fi
		done
	done
	[ -n "$found" ] && printf '%s\n' "$found"
}
# series_suites_fit: the series' suites have rows the pair fit reads.
series_suites_fit() { case $suite in "" | all | syscall | kmod) return 0 ;; esac; return 1; }
# check_series_censuses RELEASE: a census given for a series of RELEASE
# is of RELEASE and of the right kind, else status 2.
check_series_censuses() {
	if [ -n "$census" ] && ! command_census_of "$census" "$1"; then
		printf '%s: error: --census %s is no census of a command with a SMAP boot of %s, the kernel of the series: it would predict another kernel'"'"'s pairs. Take one on it: %s\n' \
			"$prog" "$census" "$1" "$(shell_words "$here/build/smapbench" census --kernel "${2:-/boot/vmlinuz-$1}" --states smap -- sh -c "$command")" >&2
		exit 2
	fi
	if [ -n "$bench_census" ] && ! bench_census_of "$bench_census" "$1"; then
		printf '%s: error: --bench-census %s is no census of the benchmarks with a SMAP boot of %s, the kernel of the series (its syscall and kapi rows): beta fitted from another kernel'"'"'s windows would be wrong. Take one on it: %s\n' \
			"$prog" "$bench_census" "$1" "$(shell_words "$here/vm/census.sh" --kernel "${2:-/boot/vmlinuz-$1}" --states smap --suite all --filter "$bench_census_filter" --out "$out")" >&2
		exit 2
	fi
}

# find_series_censuses: a series of this machine's own kernel takes the
# newest censuses of it under --out and data/ that were not given, and
# says which; where there is none, what it does without and the command
# that takes one (a census boots the kernel under QEMU's emulator: a
# minute or two, never done behind the user's back).
find_series_censuses() {
	local release image
	release=$(uname -r)
	image=$("$series" kernel 2>/dev/null | sed -n 's/^image=//p')
	image=${image:-/boot/vmlinuz-$release}
	if [ -n "$bench_census" ]; then
		say "census of the benchmarks on $release, for the pair's cost (beta): $bench_census (--bench-census)"
	elif series_suites_fit; then
		bench_census=$(newest_census bench_census_of "$release" -- "$out" "$here/data")
		if [ -n "$bench_census" ]; then
			say "census of the benchmarks on $release, for the pair's cost (beta): $bench_census"
		else
			say "no census of the benchmarks on $release under $out or $here/data: the series' report will not fit the pair's cost (beta). For it, take one first (one boot under QEMU's emulator, a few minutes) and start the series again:"
			printf '  %s\n' "$(shell_words "$here/vm/census.sh" --kernel "$image" --states smap --suite all --filter "$bench_census_filter" --out "$out")"
		fi
	fi
	[ -n "$command" ] || return 0
	if [ -n "$census" ]; then
		say "census of the command on $release: $census (--census)"
		return 0
	fi
	census=$(newest_census command_census_of "$release" "$command" -- "$out" "$here/data")
	if [ -n "$census" ]; then
		say "census of the command on $release: $census"
	else
		say "no census of the command on $release under $out or $here/data: the series' report will not predict its cost from its pairs. For it, take one first (it runs the command here, then in a guest under QEMU's emulator) and start the series again:"
		printf '  %s\n' "$(shell_words "$here/build/smapbench" census --kernel "$image" --states smap --out "$out" -- sh -c "$command")"
	fi
}
[ "$(id -u)" -eq 0 ] || die "run me as root (sudo ./$prog): loading the module, pinning and installing packages need it"

# ---------------------------------------------------------------- series
# A boot series (scripts/boot-series.sh) is one per machine. Its status,
# its end and its next step (--series-resume, the command of its systemd
# unit) install nothing and build nothing: they run before the set-up.
series=$here/scripts/boot-series.sh
if [ "$series_step" -eq 0 ] && [ "$vm" -eq 0 ]; then
	case $series_cmd in
	status) exec "$series" status "$out" ;;
	abort | resume) exec "$series" "$series_cmd" ;;
	esac
	if [ "$boots" -gt 0 ] && pending_dir=$("$series" pending); then
		printf '%s: error: a boot series is pending on this machine: %s (%s --series-status; %s --boots-abort ends it)\n' \
			"$prog" "$pending_dir" "$prog" "$prog" >&2
		exit 2
	fi
fi

# Emptied now, so that a bad path fails before anything runs and a run
# that keeps nothing leaves it empty (as smapbench run --run-dir-file).
if [ -n "$caller_run_dir_file" ]; then
	: 2>/dev/null >"$caller_run_dir_file" ||
		bad_usage "--run-dir-file: cannot create '$caller_run_dir_file'"
fi
# name_run_dir DIR: DIR was kept; the caller's --run-dir-file says so.
name_run_dir() {
	[ -n "$caller_run_dir_file" ] || return 0
	printf '%s\n' "$1" 2>/dev/null >>"$caller_run_dir_file" && return 0
	warn "cannot write --run-dir-file '$caller_run_dir_file' (the run directory is $1)"
	return 1
}

cd "$here" || die "cannot enter $here"
made=()
[ -d "$out" ] || made+=("$out")
mkdir -p "$out" 2>/dev/null || die "cannot create output directory '$out'"
[ -w "$out" ] || die "output directory '$out' is not writable"
out=$(cd "$out" && pwd)
[ ${#made[@]} -eq 0 ] || made=("$out")

module_loaded=0
unload_module() {
	if [ "$module_loaded" -eq 1 ]; then
		rmmod smapbench 2>/dev/null || warn "could not unload smapbench.ko (rmmod smapbench)"
		module_loaded=0
	fi
}
# Under sudo, hand what this run created back to the caller, so that a
# later `make` or `rm` in their checkout works without root.
give_back() {
	if [ -n "${SUDO_UID:-}" ] && [ "$SUDO_UID" != 0 ]; then
		chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "$here/build" "${made[@]}" 2>/dev/null
	fi
}
scratch=$(mktemp -d) || die "cannot create a temporary directory"

# Every long step runs as a background child that this shell waits for:
# bash runs a trap only between commands, so a foreground child would
# delay SIGTERM until it finished. On a signal the child gets SIGTERM
# (make and gnuplot, started in the background, ignore SIGINT; smapbench
# treats both alike) and is waited for, so that it removes what it had
# half-written; then the module is unloaded.
child="" staging="" run_dir="" runs=()
run_child() {
	"$@" &
	child=$!
	wait "$child"
	local rc=$?
	child=""
	return "$rc"
}
on_signal() {
	local name=$1 status=$2
	trap '' INT TERM HUP
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	# smapbench keeps what finished: the whole run when the signal came in
	# its last moments, else an interrupted run (status=interrupted).
	if [ -z "$run_dir" ] && [ -s "${run_dir_file:-}" ]; then
		run_dir=$(cat "$run_dir_file")
		[ -d "$run_dir" ] || run_dir=""
		[ -z "$run_dir" ] || name_run_dir "$run_dir"
	fi
	unload_module
	rm -rf "$scratch" "${staging:-}"
	# An --out this run created and left empty goes too.
	[ ${#made[@]} -gt 0 ] && rmdir "${made[0]}" 2>/dev/null
	give_back
	printf '\n%s: interrupted by SIG%s; the module is unloaded' "$prog" "$name" >&2
	if [ -n "$run_dir" ] && grep -qx 'status,interrupted' "$run_dir/context.csv" 2>/dev/null; then
		printf '; the benchmarks that finished are kept in %s, marked interrupted (not a complete run: compare refuses it without --force, the table leaves it out): %s\n' \
			"$run_dir" "$(shell_words "$smapbench" report "$run_dir")" >&2
	elif [ -n "$run_dir" ]; then
		# The measurement was complete; only what is derived from it is not.
		printf '; %s is complete, but its plots or report.md may be missing: %s; %s\n' \
			"$run_dir" "$(shell_words "$smapbench" plot "$run_dir")" \
			"$(shell_words "$smapbench" report "$run_dir")" >&2
	elif [ "${#runs[@]}" -gt 0 ]; then
		# --vm: the boots that finished were published, complete.
		printf '; the runs of the boots that finished are complete and stay:\n' >&2
		printf '  %s\n' "${runs[@]}" >&2
	else
		printf ' and nothing was written\n' >&2
	fi
	trap - EXIT
	exit "$status"
}
trap 'unload_module; give_back; rm -rf "$scratch"' EXIT
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'on_signal HUP 129' HUP

# ---------------------------------------------------------------- set-up
# apt-get runs in the foreground: a signal waits until dpkg is consistent.
# deps.sh asks before it installs when stdin is a terminal (--yes: not).
if [ "$install" -eq 1 ]; then
	package_set=run
	[ "$vm" -eq 1 ] && package_set=vm
	deps_rc=0
	if [ "$assume_yes" -eq 1 ]; then
		./scripts/deps.sh install --yes "$package_set" || deps_rc=$?
	else
		./scripts/deps.sh install "$package_set" || deps_rc=$?
	fi
	case $deps_rc in
	0) ;;
	3) die "nothing installed; rerun with --no-install to run with what is installed (make says what it leaves out), or with --yes to install without asking" ;;
	*) die "package installation failed (see above); rerun with --no-install to skip it" ;;
	esac
fi

# VM mode: which kernel the guests boot and which accelerator they get,
# said first, before anything is built for them.
if [ "$vm" -eq 1 ]; then
	# shellcheck source=vm/lib.sh
	. "$here/vm/lib.sh"
	if [ -z "$kernel" ]; then
		guest_release=$(vm_debian_release linux-image-amd64)
		[ -n "$guest_release" ] && [ -r "/boot/vmlinuz-$guest_release" ] ||
			die "Debian's default kernel is not installed: apt-get install linux-image-amd64 linux-headers-amd64 (or pass --kernel)"
		kernel=/boot/vmlinuz-$guest_release
	fi
	# An image, a .deb, a release or a suite: fetched and unpacked as
	# needed (vm/kernel.sh, which has said what was wrong with it).
	vm_kernel "$kernel" "$headers" "$build_root"
	case $? in
	0) ;;
	2) exit 2 ;;
	*) die "the kernel $kernel could not be fetched or unpacked (see above)" ;;
	esac
	kernel=$VM_KERNEL_IMAGE guest_release=$VM_KERNEL_RELEASE
	guest_modules=$VM_KERNEL_MODULES guest_build_root=$VM_KERNEL_BUILD_ROOT
	[ "$boots" -eq 0 ] || check_series_censuses "$guest_release" "$kernel"
	[ -n "$VM_KERNEL_HEADERS" ] ||
		die "no headers for $guest_release: apt-get install linux-headers-$guest_release, or pass --headers"
	headers=$VM_KERNEL_HEADERS
	[ "$VM_KERNEL_SOURCE" = installed ] || say "VM mode: $guest_release from $VM_KERNEL_SOURCE"
	accel_line=$("$here/vm/hostroot.sh" accel --kernel "$kernel" \
		--modules-dir "$guest_modules" --headers "$headers" ${accel:+--accel "$accel"}) ||
		die "no accelerator for the guests (see above)"
	say "VM mode, $guest_release: $accel_line"
	accel_word=$(sed -n 's/^accelerator: \([A-Z]*\).*/\1/p' <<<"$accel_line")
	# The guests' run-bench.sh runs make: it must find nothing to do
	# (under TCG a build takes minutes). So the module for the guest
	# kernel is built here, with the KDIR the guest will use.
	guest_kdir=$headers
elif [ "$boots" -gt 0 ] && [ "$series_step" -eq 0 ]; then
	check_series_censuses "$(uname -r)"
fi

build_start=$SECONDS
build_log=$here/build/run-bench-make.log
if [ "$series_step" -eq 1 ]; then
	# A boot of a series runs the copy of the program the series made at
	# its start (scripts/boot-series.sh): nothing is built.
	[ -x "$here/build/smapbench" ] || die "the series' copy of smapbench is missing ($here/build/smapbench)"
	say "a boot of a series: the programs the series copied at its start"
else
	mkdir -p "$here/build" || die "cannot create $here/build"
	say "building"
	# KDIR: the module for the running kernel, whatever the environment
	# says; `make all` builds it into build/kmod/<release>/ when its
	# headers exist.
	run_child make -s -j"$(nproc)" all KDIR="/lib/modules/$(uname -r)/build" \
		>"$build_log" 2>&1 || {
		tail -n 30 "$build_log" >&2
		die "build failed; full log: $build_log"
	}
fi
if [ "$vm" -eq 1 ] && [ "$guest_kdir" != "$(readlink -f "/lib/modules/$(uname -r)/build")" ]; then
	say "building for the guests ($guest_release${guest_build_root:+, in the build root $guest_build_root})"
	# Where the guest kernel's kbuild runs: here, or chrooted into its
	# build root (vm_kbuild), for the module alone.
	if [ -z "$guest_build_root" ]; then
		run_child make -s -j"$(nproc)" all KDIR="$guest_kdir" >"$build_log" 2>&1
	else
		run_child vm_kbuild "$guest_build_root" "$guest_kdir" -- \
			make -C "$here" -s -j"$(nproc)" module KDIR="$guest_kdir" >"$build_log" 2>&1
	fi || {
		tail -n 30 "$build_log" >&2
		die "build for the guest kernel $guest_release failed; full log: $build_log"
	}
fi
say "built in $((SECONDS - build_start)) s"
smapbench="$here/build/smapbench"
[ -x "$smapbench" ] || die "build produced no $smapbench"

# A series starts here, once built; its runs come back with
# --series-step, from the copy it keeps. Any other run, on any boot, is a
# run of its own: it never moves a series on.
if [ "$series_step" -eq 0 ] && [ "$vm" -eq 0 ]; then
	if [ "$boots" -gt 0 ]; then
		trap - EXIT
		rm -rf "$scratch"
		give_back
		start_opts=()
		[ "$assume_yes" -eq 1 ] && start_opts+=(--yes)
		[ "$install" -eq 1 ] && start_opts+=(--install)
		[ "$vm_guest" -eq 1 ] && start_opts+=(--vm-guest)
		[ "$vm_guest" -eq 1 ] || find_series_censuses
		[ -n "$census" ] && start_opts+=(--census "$census")
		[ -n "$bench_census" ] && start_opts+=(--bench-census "$bench_census")
		[ -n "$precision" ] && start_opts+=(--precision "$precision")
		[ -n "$max_boots" ] && start_opts+=(--max-boots "$max_boots")
		[ "$boots_auto" -eq 1 ] && boots=auto
		exec "$series" start "$out" "$boots" "${start_opts[@]}" -- "${series_args[@]}"
	fi
	if pending_dir=$("$series" pending); then
		warn "a boot series is pending on this machine ($pending_dir; $prog --series-status): this run is not part of it"
	fi
fi

# Prints the value of KEY in the key=value lines of FILE.
kv_get() {
	sed -n "s/^$1=//p" "$2" | head -n 1
}

# ---------------------------------------------------------------- VM mode
# vm_boot NAME MODEL PARAMS WANT: one boot of this script in a guest (QEMU
# CPU model MODEL, kernel parameters PARAMS or "-", which must give the
# SMAP state WANT), its run directory published under $out with the
# plots and report.md drawn here. Counts each failed step in failed;
# returns 1 when the boot left no run directory.
vm_boot() {
	name=$1 model=$2 params=$3 want=$4
	[ "$params" = - ] && params=""
	dir=$here/build/vm/run-bench/$name
	boot_number=$((boot_number + 1))
	say "boot $boot_number of 3: $name (SMAP $([ "$want" = smap ] && echo on || echo off); -cpu $model${params:+, $params}), $accel_word, $((SECONDS - vm_start)) s elapsed: guest output follows"
	run_child "$here/vm/hostroot.sh" boot "${boot_args[@]}" --dir "$dir" \
		--cpu "$model" --append "$params" -- ./"$prog" "${inner[@]}"
	rc=$?
	say "boot $boot_number of 3: $name finished in $(cat "$dir/seconds" 2>/dev/null)s under $(cat "$dir/accel" 2>/dev/null), status $rc; $((SECONDS - vm_start)) s elapsed"
	[ -s "$dir/accel-why" ] &&
		warn "boot $name: $(vm_accel_text tcg "$(cat "$dir/accel-why")")"
	found=()
	for run in "$dir"/share/runs/*/; do
		[ -d "$run" ] && found+=("${run%/}")
	done
	if [ "$rc" -ne 0 ] || [ ${#found[@]} -ne 1 ] ||
		! "$smapbench" info --format=kv "${found[0]}" >"$scratch/context.kv"; then
		warn "boot $name left no run directory (status $rc; guest output: $dir/share/job.out)"
		failed=$((failed + 1))
		return 1
	fi
	state=$(kv_get smap_state "$scratch/context.kv")
	method=$(kv_get smap_off_method "$scratch/context.kv")
	release=$(kv_get kernel_release "$scratch/context.kv")
	[ "$(kv_get virt "$scratch/context.kv")" = tcg ] && vm_tcg=1
	[ "$state" = "$want" ] ||
		banner "Boot $name should have SMAP $want, but the guest reports $state." \
			"Its run is named after what the guest reports."
	suffix=$state
	[ "$state" = nosmap ] && suffix=$method-$state
	target=$out/vm-$release-$stamp-$suffix
	# Into place in one rename: copied next to the target first.
	cp "$dir/share/dmesg.txt" "${found[0]}/guest-dmesg.txt" 2>/dev/null
	# The plots and report.md name the directory: they are drawn in
	# a copy of the final name, inside a hidden staging directory.
	staging=$out/.tmp-${target##*/}
	rm -rf "$staging"
	mkdir -p "$staging" && cp -r "${found[0]}" "$staging/${target##*/}" ||
		die "cannot copy the run directory of boot $name to $staging"
	{ run_child "$smapbench" plot "$staging/${target##*/}" >"$scratch/plot.out" 2>&1 &&
		run_child "$smapbench" report "$staging/${target##*/}" >>"$scratch/plot.out" 2>&1; } || {
		cat "$scratch/plot.out" >&2
		warn "boot $name: its plots or report.md could not be made; the CSV files are complete"
		failed=$((failed + 1))
	}
	mv -T "$staging/${target##*/}" "$target" && rmdir "$staging" ||
		die "cannot copy the run directory of boot $name to $target"
	staging=""
	made+=("$target")
	runs+=("$target")
	name_run_dir "$target" || failed=$((failed + 1))
	[ "$name" = smap ] && [ "$state" = smap ] && smap_run=$target
	[ "$name" = clearcpuid ] && [ "$state" = nosmap ] && nosmap_run=$target
	return 0
}

# vm_tag: a filter for what the closing lines of --vm print. Under TCG
# each line carries the banner that its timings are functional only,
# unless it says so already (smapbench report --headline tags its own).
vm_tag() {
	if [ "$vm_tcg" -eq 1 ]; then
		sed '/[Ff]unctional only/!s/^/[functional only (TCG)] /'
	else
		cat
	fi
}
vm_say() { say "$@" | vm_tag; }

# vm_guest_args FIRST...: inner, the guest's run-bench.sh arguments (FIRST
# first), and boot_args, vm/hostroot.sh's, from this invocation's options.
vm_guest_args() {
	inner=("$@" --vm-guest --no-install --no-plots --out /run/smapbench/runs)
	[ "$quick" -eq 1 ] && inner+=(--quick)
	[ "$full" -eq 1 ] && inner+=(--full)
	[ -n "$suite" ] && inner+=(--suite "$suite")
	[ -n "$cpu" ] && inner+=(--cpu "$cpu")
	inner+=("${run_args[@]}")
	boot_args=(--kernel "$kernel" --modules-dir "$guest_modules" --headers "$headers")
	[ -n "$accel" ] && boot_args+=(--accel "$accel")
}

# vm_mode: the three boots (SMAP on, clearcpuid=smap, a CPU without SMAP)
# and the comparison of the first two; dies when a step failed.
vm_mode() {
	# Each boot runs this script in a guest whose root is this machine's
	# root filesystem (vm/hostroot.sh): build, module, run, plots and
	# report happen there exactly as on a host that loads modules.
	# gnuplot under TCG takes about a minute a run: the plots and
	# report.md are drawn here instead, before the run is published.
	vm_guest_args
	if [ "$quick" -eq 1 ]; then
		boot_args+=(--timeout 3600)
	else
		boot_args+=(--timeout 28800)
	fi
	stamp=$(date -u +%Y%m%d-%H%M%S)
	image=${kernel:-"Debian's default kernel"}
	say "VM mode: $image with SMAP on, with clearcpuid=smap and with a CPU" \
		"without SMAP; each boot runs ./$prog ${inner[*]}"
	smap_run="" nosmap_run="" runs=() failed=0 boot_number=0 vm_start=$SECONDS
	vm_tcg=0
	[ "$accel_word" = TCG ] && vm_tcg=1
	# boot, QEMU CPU model, kernel parameters, the SMAP state it must give
	for boot in "smap max - smap" "clearcpuid max clearcpuid=smap nosmap" \
		"cpu-off max,-smap - nosmap"; do
		read -r name model params want <<<"$boot"
		vm_boot "$name" "$model" "$params" "$want" || continue
	done
	[ ${#runs[@]} -gt 0 ] || die "VM mode produced no run directory (see the messages above)"
	echo
	[ "$vm_tcg" -eq 1 ] &&
		banner "The guests ran under QEMU's emulator (TCG): every timing below is" \
			"functional only, and says nothing about SMAP's cost on hardware."
	vm_say "run directories:"
	printf '  %s\n' "${runs[@]}" | vm_tag
	if [ -n "$smap_run" ]; then
		vm_say "headline of the SMAP-on guest (every row: $smap_run/report.md):"
		"$smapbench" report --headline "$smap_run" 2>&1 | vm_tag
	fi
	if [ -n "$smap_run" ] && [ -n "$nosmap_run" ]; then
		# report A B = compare A B (compare.csv, plots) + report.md
		cmp_dir=$out/compare-${nosmap_run##*/}-vs-${smap_run##*/}
		if run_child "$smapbench" report "$nosmap_run" "$smap_run" \
			--out "$cmp_dir" >"$scratch/compare.out" 2>&1; then
			made+=("$cmp_dir")
			vm_say "SMAP on versus clearcpuid=smap, B-A per benchmark and its verdict: $cmp_dir/report.md"
		else
			cat "$scratch/compare.out" >&2
			warn "the comparison failed"
			failed=$((failed + 1))
		fi
	fi
	[ "$failed" -eq 0 ] || die "$failed of the VM steps failed (see the warnings above)"
}
# guest_visible DIR: DIR, or where the guest sees a copy of it: its root
# is this machine's but for /tmp and /run (vm/hostroot.sh).
guest_visible() {
	local copy
	case $1 in
	/tmp/* | /run/*)
		copy=$here/build/vm/run-bench/censuses/${1##*/}
		rm -rf "$copy" && mkdir -p "${copy%/*}" && cp -r "$1" "$copy" &&
			printf '%s\n' "$copy" ;;
	*) printf '%s\n' "$1" ;;
	esac
}
# vm_series_censuses: the censuses of the guest kernel the series takes in:
# given, else the newest under --out or data/, else (the benchmarks')
# the one kept for this image in the cache, else taken now, each boot
# under QEMU's emulator. A census that cannot be taken leaves the
# series without what it gives, saying so.
vm_series_censuses() {
	local cache log
	if [ -n "$bench_census" ]; then
		say "VM mode: census of the benchmarks on $guest_release, for beta: $bench_census (--bench-census)"
	elif ! series_suites_fit; then
		say "VM mode: --suite $suite has no rows the pair's cost (beta) is fitted from: no census of the benchmarks"
	else
		cache=${SMAPBENCH_CACHE:-/var/cache/smapbench}/census/$guest_release-$(sha256sum "$kernel" | cut -c1-16)
		bench_census=$(newest_census bench_census_of "$guest_release" -- "$out" "$here/data" "$cache")
		if [ -n "$bench_census" ]; then
			say "VM mode: census of the benchmarks on $guest_release, for beta: reused $bench_census"
		elif ! "$here/scripts/fetch-qemu-plugin-header.sh" --check >/dev/null 2>&1; then
			warn "no census of the benchmarks on $guest_release, and none can be taken: the census plugin needs QEMU 7.2's qemu-plugin.h (scripts/fetch-qemu-plugin-header.sh fetches it); the series' report will not fit the pair's cost (beta)"
		else
			log=$here/build/vm/run-bench/bench-census.log
			say "VM mode: taking the census of the benchmarks on $guest_release, for beta (a boot under QEMU's emulator; log: $log)"
			mkdir -p "$cache" "${log%/*}" &&
				run_child "$here/vm/census.sh" --kernel "$kernel" --headers "$headers" \
					${guest_build_root:+--build-root "$guest_build_root"} --states smap \
					--suite all --filter "$bench_census_filter" --out "$cache" >"$log" 2>&1
			bench_census=$(sed -n 's/^census directory: //p' "$log" | tail -n 1)
			if [ -n "$bench_census" ] && bench_census_of "$bench_census" "$guest_release"; then
				say "VM mode: census of the benchmarks on $guest_release, for beta: taken, $bench_census"
			else
				tail -n 15 "$log" >&2
				warn "the census of the benchmarks on $guest_release failed (log: $log): the series' report will not fit the pair's cost (beta)"
				bench_census=""
			fi
		fi
	fi
	if [ -n "$command" ] && [ -z "$census" ]; then
		census=$(newest_census command_census_of "$guest_release" "$command" -- "$out" "$here/data")
		if [ -n "$census" ]; then
			say "VM mode: census of the command on $guest_release: reused $census"
		else
			log=$here/build/vm/run-bench/command-census.log
			say "VM mode: taking the census of the command on $guest_release (it runs here natively first, then in a guest under QEMU's emulator; log: $log)"
			mkdir -p "${log%/*}" &&
				run_child "$smapbench" census --kernel "$kernel" --states smap --out "$out" \
					-- sh -c "$command" >"$log" 2>&1 </dev/null
			census=$(sed -n 's/^census directory: //p' "$log" | tail -n 1)
			if [ -n "$census" ] && command_census_of "$census" "$guest_release" "$command"; then
				made+=("$census")
				say "VM mode: census of the command on $guest_release: taken, $census"
			else
				tail -n 15 "$log" >&2
				warn "the census of the command failed (log: $log): the series' report will not predict its cost"
				census=""
			fi
		fi
	fi
	[ -z "$bench_census" ] || bench_census=$(guest_visible "$bench_census") ||
		die "cannot copy $bench_census where the guest sees it"
	[ -z "$census" ] || census=$(guest_visible "$census") ||
		die "cannot copy $census where the guest sees it"
}
# vm_series: run-bench.sh --vm --boots N: the boot series itself, in one
# host-root guest that reboots with kexec for real (the path a host takes),
# its initramfs the guest's initrd; the series' directory is then copied
# here and each run's plots and report.md drawn natively. The guest's
# session runs its job on every boot: the first starts the series, the
# others run --series-resume, as a systemd machine's unit would. The
# series' machine state (/var/lib/smapbench) is kept in the share, which
# outlives the guest's kexecs as a disk would.
vm_series() {
	vm_series_censuses
	vm_guest_args --boots "$boots" --yes ${census:+--census "$census"} \
		${bench_census:+--bench-census "$bench_census"}
	if [ "$quick" -eq 1 ]; then
		boot_args+=(--timeout $((1800 * boots)))
	else
		boot_args+=(--timeout $((14400 * boots)))
	fi
	initrd=$("$here/vm/hostroot.sh" initramfs --kernel "$kernel" \
		--modules-dir "$guest_modules") ||
		die "cannot build the guest's initramfs"
	envs=(SMAPBENCH_KEXEC_INITRD="$initrd")
	[ -n "${SMAPBENCH_SERIES_FAIL_AT:-}" ] &&
		envs+=(SMAPBENCH_SERIES_FAIL_AT="$SMAPBENCH_SERIES_FAIL_AT")
	dir=$here/build/vm/run-bench/series
	vm_start=$SECONDS
	say "VM mode: a series of $boots boots of $guest_release in one guest ($accel_word), rebooted with kexec; guest output follows"
	# shellcheck disable=SC2016 # the guest's shell expands them
	run_child "$here/vm/hostroot.sh" boot "${boot_args[@]}" --dir "$dir" -- bash -c '
		share=/run/smapbench
		mkdir -p "$share/series-state" /var/lib/smapbench &&
			mount --bind "$share/series-state" /var/lib/smapbench || exit 125
		[ -e "$share/series-started" ] && exec ./run-bench.sh --series-resume
		: >"$share/series-started"
		exec "$@"' vm-series env "${envs[@]}" ./"$prog" "${inner[@]}"
	rc=$?
	say "the guest ended after $((SECONDS - vm_start)) s, status $rc"
	series_found=""
	for candidate in "$dir"/share/runs/series-*/; do
		[ -d "$candidate" ] && series_found=${candidate%/}
	done
	[ -n "$series_found" ] || die "the guest left no series directory (guest output: $dir/share/job.out)"

	target=$out/vm-${series_found##*/}
	staging=$out/.tmp-${target##*/}
	rm -rf "$staging"
	cp -r "$series_found" "$staging" || die "cannot copy $series_found to $staging"
	cp "$dir/share/job.out" "$staging/guest-output.txt" 2>/dev/null
	for run in "$staging"/runs/*/; do
		[ -d "$run" ] || continue
		{ run_child "$smapbench" plot "${run%/}" && run_child "$smapbench" report "${run%/}"; } \
			>>"$staging/plots.log" 2>&1 ||
			warn "the plots or report.md of ${run%/} could not be made (log: $target/plots.log)"
	done
	mv -T "$staging" "$target" || die "cannot move $staging to $target"
	staging=""
	made+=("$target")
	vm_tcg=0
	[ "$accel_word" = TCG ] && vm_tcg=1
	echo
	[ "$vm_tcg" -eq 1 ] &&
		banner "The guest ran under QEMU's emulator (TCG): every timing of the" \
			"series is functional only, and says nothing about SMAP's cost on hardware."
	vm_say "series: $target: $(cat "$target/status" 2>/dev/null)"
	[ -f "$target/report.md" ] && vm_say "its report, each boot's run and their comparisons: $target/report.md"
	[ "$rc" -eq 0 ] || die "the series ended with status $rc: $(cat "$target/status" 2>/dev/null)"
}
if [ "$vm" -eq 1 ] && [ "$boots" -gt 0 ]; then
	vm_series
	exit 0
fi
if [ "$vm" -eq 1 ]; then
	vm_mode
	exit 0
fi

# ------------------------------------------------- what this boot really is
# The program says what SMAP state this boot is in (system/smap_context.c);
# this script only decides what to tell the user.
"$smapbench" info --format=kv >"$scratch/context.kv" ||
	die "$smapbench info failed"
state=$(kv_get smap_state "$scratch/context.kv")
method=$(kv_get smap_off_method "$scratch/context.kv")
requested_off=$(kv_get smap_requested_off "$scratch/context.kv")
virt=$(kv_get virt "$scratch/context.kv")
# In a guest of run-bench.sh --vm (--vm-guest), the host that started it
# says what comes next, so this script gives no advice meant for a real
# machine. Any other guest, such as the README's path tested in QEMU, is
# a machine like any other.
in_guest=$vm_guest
kver=$(kv_get kernel_release "$scratch/context.kv")
kmajor=${kver%%.*} kminor=${kver#*.}
kminor=${kminor%%[!0-9]*}
# nosmap was removed in Linux 5.19; clearcpuid took names from 5.19 on.
if [ "$kmajor" -gt 5 ] || { [ "$kmajor" -eq 5 ] && [ "$kminor" -ge 19 ]; }; then
	off_param="clearcpuid=smap"
else
	off_param="nosmap (or clearcpuid=308)"
fi
if [ "$requested_off" = 1 ] && [ "$state" = smap ]; then
	banner "The kernel command line asks for SMAP off, but SMAP is still ON." \
		"This kernel ($kver) ignores the parameter you used." \
		"Use '$off_param' instead, reboot, and run again." \
		"These results are recorded as a SMAP-on run."
elif [ "$method" = cpu-model ]; then
	warn "this CPU (or VM CPU model) has no SMAP: the kmod suite's raw STAC/CLAC variants cannot run; the syscall suite still shows the cost of a kernel without SMAP"
fi
if [ "$state" = smap ] && [ "$in_guest" -eq 1 ]; then
	say "kernel $kver: SMAP is ON"
elif [ "$state" = smap ]; then
	say "kernel $kver: SMAP is ON; for the SMAP-off run add '$off_param' to the kernel command line (docs/smap-off.md), reboot and run again"
else
	# what the boot is and why, as the run's answer will say it
	say "kernel $kver: $("$smapbench" info --smap 2>/dev/null || echo "SMAP is OFF ($method)")"
fi
case $virt in
bare) ;;
tcg) warn "running under QEMU's emulator (TCG): results are functional only, not timings" ;;
*) warn "running under a hypervisor ($virt): timings include virtualisation effects; SMAP itself runs natively under KVM" ;;
esac

# ---------------------------------------------------------------- module

# vm_advice: the lines that say what --vm gives on this machine. It
# measures only where KVM runs a Linux guest; elsewhere QEMU emulates
# (TCG) and the timings are a functional check. vm/hostroot.sh accel
# asks the same probe --vm uses, cached per host and kernel in
# build/vm/accel/: under a second where KVM works or fails at once (e.g.
# "failed to set MSR"), at most its 20 s where KVM hangs Linux, once.
vm_advice() {
	local release="" line=""
	if [ ! -r "${SMAPBENCH_KVM_DEVICE:-/dev/kvm}" ] || [ ! -w "${SMAPBENCH_KVM_DEVICE:-/dev/kvm}" ]; then
		line="accelerator: TCG: ${SMAPBENCH_KVM_DEVICE:-/dev/kvm} is absent or not usable"
	elif command -v qemu-system-x86_64 >/dev/null; then
		release=$(. "$here/vm/lib.sh" && vm_debian_release linux-image-amd64)
		[ -n "$release" ] && [ -r "/boot/vmlinuz-$release" ] &&
			line=$("$here/vm/hostroot.sh" accel --kernel "/boot/vmlinuz-$release" \
				--accel auto 2>/dev/null)
	fi
	case $line in
	"accelerator: KVM"*)
		echo "Without rebooting: sudo ./$prog --vm runs the module in KVM guests"
		echo "of this machine's system (KVM runs a Linux guest here)." ;;
	"accelerator: TCG"*)
		echo "sudo ./$prog --vm runs here only under QEMU's emulator (TCG: KVM"
		echo "cannot run a Linux guest on this machine): a functional check of the"
		echo "module, not timings. For timings: a machine that loads the module,"
		echo "or a second run on a boot with SMAP off (docs/smap-off.md)." ;;
	*)
		echo "sudo ./$prog --vm runs the module in QEMU guests: a measurement where"
		echo "KVM runs a Linux guest, else a functional check under emulation (TCG),"
		echo "not timings (it says which before it boots)." ;;
	esac
}


module_reason=""
want_kmod=1
case "$suite" in syscall | bpf | none) want_kmod=0 ;; esac
if [ "$want_kmod" -eq 1 ]; then
	ko="$here/build/kmod/$kver/smapbench.ko"
	kmod_log=$here/build/run-bench-kmod.log
	if [ ! -e /proc/modules ]; then
		module_reason="this kernel was built without module support (CONFIG_MODULES is off)"
	elif [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 1 ]; then
		module_reason="module loading is disabled (kernel.modules_disabled=1, until reboot)"
	elif [ ! -d "/lib/modules/$kver/build" ]; then
		module_reason="no kernel headers for $kver: apt-get install linux-headers-$kver"
	# kmod-for only when `make all` did not build it: a second kernel
	# build costs a minute under QEMU's emulator.
	elif [ ! -f "$ko" ] &&
		{ ! run_child make -s kmod-for KVER="$kver" >"$kmod_log" 2>&1 || [ ! -f "$ko" ]; }; then
		module_reason="building the module for $kver failed (log: $kmod_log)"
	elif grep -q '^smapbench ' /proc/modules && ! rmmod_err=$(rmmod smapbench 2>&1); then
		# Left loaded by an earlier, killed run: replaced, unless in use.
		module_reason="an earlier smapbench.ko is still loaded and cannot be unloaded ($rmmod_err); is another run still going? (fuser -v /dev/smapbench)"
	elif insmod_err=$(insmod "$ko" 2>&1); then
		module_loaded=1
		say "loaded $ko (unloaded again on every exit)"
	elif grep -qs '\[integrity\]\|\[confidentiality\]' /sys/kernel/security/lockdown; then
		module_reason="the kernel is locked down (Secure Boot) and refuses an unsigned module ($insmod_err). Sign build/kmod/$kver/smapbench.ko with a key enrolled through mokutil (docs/methodology.md), or use --vm"
	else
		module_reason="insmod failed: $insmod_err"
	fi
	if [ -n "$module_reason" ]; then
		advice=()
		# A guest is a real machine for the module: no nested --vm.
		[ "$in_guest" -eq 1 ] || mapfile -t advice < <(vm_advice)
		banner "The kernel module cannot be used here: $module_reason." \
			"The syscall suite still runs; the kmod suite (the direct STAC/CLAC" \
			"cost) needs a loadable module." "${advice[@]}"
		[ "$suite" = kmod ] && die "--suite kmod asked for, but the module cannot be loaded"
	fi
fi

# ---------------------------------------------------------------- run
args=(run --out "$out")
# Without the module, "all" still runs syscall and bpf, and the run
# records why kmod was skipped (skipped.csv).
args+=(--suite "${suite:-all}")
[ -n "$cpu" ] && args+=(--cpu "$cpu")
[ "$quick" -eq 1 ] && args+=(--quick)
[ "$full" -eq 1 ] && args+=(--full)
args+=("${run_args[@]}")
say "running: $(shell_words "$smapbench" "${args[@]}")"
# The program names the run directory in a file: no message to parse.
run_dir_file=$scratch/run-dir
run_child "$smapbench" "${args[@]}" --run-dir-file "$run_dir_file"
rc=$?
unload_module
run_dir=$(cat "$run_dir_file" 2>/dev/null)
if [ "$rc" -ne 0 ]; then
	# a signal to smapbench alone: it kept the benchmarks that finished
	[ -n "$run_dir" ] && [ -d "$run_dir" ] ||
		die "smapbench run failed with status $rc; no run directory was kept"
	made+=("$run_dir")
	name_run_dir "$run_dir"
	# the command of --command failed: its row says why, its log what
	command_status=$(sed -n 's/^command_status,//p' "$run_dir/context.csv" 2>/dev/null)
	if [ "$rc" -eq 1 ] && [ -n "$command_status" ] && [ "$command_status" != ok ]; then
		printf '%s: the command of --command failed: %s; the run is kept in %s (its output: %s/command.log)\n' \
			"$prog" "$command_status" "$run_dir" "$run_dir" >&2
		exit 1
	fi
	printf '%s: smapbench run was interrupted (status %s): the benchmarks that finished are kept in %s, marked interrupted (not a complete run)\n' \
		"$prog" "$rc" "$run_dir" >&2
	exit "$rc"
fi
[ -n "$run_dir" ] && [ -d "$run_dir" ] || die "smapbench run named no run directory"
made+=("$run_dir")
name_run_dir "$run_dir" || die "the run is complete in $run_dir, but --run-dir-file could not name it"

# ---------------------------------------------------------------- outputs
# The run directory is complete here; plots and report.md are derived
# from it and can be made again with "smapbench plot/report RUN".
if [ "$plots" -eq 1 ]; then
	run_child "$smapbench" plot "$run_dir" ||
		warn "plotting failed; the CSV files are complete ($(shell_words "$smapbench" plot "$run_dir") to retry)"
	run_child "$smapbench" report "$run_dir" >/dev/null ||
		warn "report.md could not be written ($(shell_words "$smapbench" report "$run_dir") to retry)"
fi

# The answer first: what the run says about SMAP, then the headline rows
# (smapbench report --headline), then where everything else is.
echo
if [ -f "$run_dir/results.csv" ]; then
	"$smapbench" report --headline "$run_dir" ||
		warn "the summary could not be printed; every row is in $run_dir/results.csv"
	echo
fi
say "run directory: $run_dir"
[ -d "$run_dir/plots" ] && say "plots: $run_dir/plots/"

# A series (--series-step) says what comes next itself, and so does the
# host of a --vm guest.
[ "$series_step" -eq 1 ] && exit 0
[ "$in_guest" -eq 1 ] && exit 0
# The next step: the comparison with the newest run of this machine in
# the other SMAP state under the same --out, else the boot that gives one.
# smapbench decides what "this machine" is (info --same-machine: the CPU,
# its microcode, the kernel, the machine ID), never the host name: two
# cloud VMs of one image share a name and a kernel.
if [ "$state" = smap ]; then other=nosmap; else other=smap; fi
partner="" partner_date=""
for candidate in "$out"/*-"$other"; do
	[ -d "$candidate" ] || continue
	"$smapbench" info --format=kv "$candidate" >"$scratch/other.kv" 2>/dev/null || continue
	# compare refuses an interrupted run: it is no partner
	[ "$(kv_get status "$scratch/other.kv")" != interrupted ] &&
		[ "$(kv_get smap_state "$scratch/other.kv")" = "$other" ] &&
		"$smapbench" info --same-machine "$run_dir" "$candidate" >/dev/null 2>&1 || continue
	date=$(kv_get date "$scratch/other.kv")
	if [ -z "$partner" ] || [[ $date > $partner_date ]]; then
		partner=$candidate partner_date=$date
	fi
done
if [ -n "$partner" ] && [ "$state" = smap ]; then
	say "next: compare with the SMAP-off run of this machine (deltas are SMAP's cost):"
	printf '  %s\n' "$(shell_words "$smapbench" report "$partner" "$run_dir")"
elif [ -n "$partner" ]; then
	say "next: compare with the SMAP-on run of this machine (deltas are SMAP's cost):"
	printf '  %s\n' "$(shell_words "$smapbench" report "$run_dir" "$partner")"
elif [ "$state" = smap ]; then
	say "next: the SMAP-off boots: sudo ./$prog --boots 4 (kexec, docs/boot-series.md); or by hand, reboot with '$off_param' and run $prog again with the same --out: it then prints the command that compares the two runs"
elif [ "$requested_off" = 1 ]; then
	say "next: run $prog on a boot with SMAP on (same --out), then compare:"
	printf '  %s\n' "$(shell_words "$smapbench" report "$run_dir") SMAP_ON_RUN_DIR"
else
	# this kernel keeps SMAP off by itself: no boot of it is the partner
	say "next: no SMAP-on run of this machine under $out to compare with (smapbench info --same-machine); the answer above says where SMAP is used"
fi
exit 0
