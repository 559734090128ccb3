#!/bin/bash
# run-bench.sh on this machine, as a user runs it (syscall suite: this
# host cannot load modules; stage 45-hostroot covers the module), and the
# machine-readable interface the scripts use instead of parsing messages
# (smapbench run --run-dir-file, smapbench info --format=kv). First, as
# any user: scripts/deps.sh's package sets and installs (through apt
# shims), and the options run-bench.sh checks before it passes them on.
# About a minute.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
top=$PWD
bin=$top/build/smapbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kv() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# --- scripts/deps.sh: the package sets, and install through apt shims -------
# No root needed: apt-get, apt-cache and dpkg-query are shims first on
# PATH that record their arguments; dpkg-query says nothing is installed.
test_only='^(libcmocka-dev|linux-image-.*|linux-source-6\.12|linux-headers-6\.12.*|qemu-system-x86|busybox-static|shellcheck|sparse|ansible|mmdebstrap|flex|bison|lld|libssl-dev)$'
run_set=$(scripts/deps.sh list run)
check "deps.sh list run holds no test-only package (found: $(grep -E "$test_only" <<<"$run_set" | tr '\n' ' '))" \
	test -z "$(grep -E "$test_only" <<<"$run_set")"
fakesys=$tmp/sys
mkdir -p "$fakesys/kernel/btf" "$fakesys/bus/event_source/devices/cpu"
: >"$fakesys/kernel/btf/vmlinux"
echo 2 >"$fakesys/bus/event_source/devices/cpu/rdpmc"
with_pmu=$(SMAPBENCH_DEPS_SYSFS=$fakesys scripts/deps.sh list run)
echo 0 >"$fakesys/bus/event_source/devices/cpu/rdpmc"
without_pmu=$(SMAPBENCH_DEPS_SYSFS=$fakesys scripts/deps.sh list run)
check "deps.sh list run: libperf's kernel source only with a user-space cycle counter" \
	test -n "$(grep -x linux-source-6.1 <<<"$with_pmu")" -a -z "$(grep -x linux-source-6.1 <<<"$without_pmu")"
check "deps.sh list run: the bpf toolchain only with the kernel's BTF" \
	test -n "$(grep -x clang <<<"$without_pmu")" -a \
	-z "$(SMAPBENCH_DEPS_SYSFS=$tmp/none scripts/deps.sh list run | grep -x clang)"
vm_set=$(scripts/deps.sh list vm)
check "deps.sh list vm: QEMU, Debian's kernel and headers, busybox, cpio, kexec" \
	test "$(grep -cxE 'qemu-system-x86|linux-image-amd64|linux-headers-amd64|busybox-static|cpio|kexec-tools' <<<"$vm_set")" -eq 6
check "deps.sh list vm: none of the test set's tools (found: $(grep -xE 'ansible|mmdebstrap|shellcheck|sparse|libcmocka-dev|linux-image-6\.12.*' <<<"$vm_set" | tr '\n' ' '))" \
	test -z "$(grep -xE 'ansible|mmdebstrap|shellcheck|sparse|libcmocka-dev|linux-image-6\.12.*' <<<"$vm_set")"

shims=$tmp/shims
mkdir -p "$shims"
cat >"$shims/apt-get" <<'SHIM'
#!/bin/bash
echo "$*" >>"$SHIM_LOG"
case " $* " in
*" -s "*)
	for word in "$@"; do
		case $word in -* | install) ;; *) echo "Inst $word (1.0 Debian:12/stable [amd64])" ;; esac
	done
	echo "Inst linux-libc-dev [6.1.1-1] (6.1.2-1 Debian:12/stable [amd64])" ;;
*" --print-uris "*)
	for word in "$@"; do
		case $word in -* | install) ;; *) echo "'http://deb/$word.deb' $word.deb 2000000 MD5Sum:0" ;; esac
	done ;;
*" install "*)
	echo "Reading database ... 5%"
	[ -z "${SHIM_FAIL:-}" ] || { echo "E: Sub-process /usr/bin/dpkg returned an error code (1)"; exit 100; } ;;
esac
exit 0
SHIM
cat >"$shims/apt-cache" <<'SHIM'
#!/bin/bash
[ "$1" = show ] && [ "$2" = --no-all-versions ] || exit 100
shift 2
for word in "$@"; do printf 'Package: %s\nInstalled-Size: 1000\n\n' "${word%%=*}"; done
SHIM
printf '#!/bin/sh\nexit 1\n' >"$shims/dpkg-query"
chmod +x "$shims"/*
deps_shimmed() {
	env PATH="$shims:$PATH" SHIM_LOG="$tmp/apt-args" SMAPBENCH_APT_LOG="$tmp/apt.log" \
		SMAPBENCH_DEPS_SYSFS="$tmp/none" "$@"
}
: >"$tmp/apt-args"
deps_shimmed scripts/deps.sh install run </dev/null >"$tmp/deps.out" 2>&1
rc=$?
show <"$tmp/deps.out"
check "deps.sh install run, stdin not a terminal: installs without asking (status $rc)" \
	test "$rc" -eq 0 -a -z "$(grep -i 'y/N' "$tmp/deps.out")"
check "deps.sh install: apt-get install with --no-upgrade, every time" \
	test -n "$(grep '^install ' "$tmp/apt-args")" -a -z "$(grep '^install ' "$tmp/apt-args" | grep -v -- --no-upgrade)"
check "deps.sh install: a summary line with the count and size, apt's output in its log" \
	test -n "$(grep -E '^deps: installed [0-9]+ packages \([0-9]+ MB on disk\); log: ' "$tmp/deps.out")" -a \
	-n "$(grep 'Reading database' "$tmp/apt.log")" -a -z "$(grep 'Reading database' "$tmp/deps.out")"
check "deps.sh install: an upgrade a new package needs is named ($(grep -c linux-libc-dev "$tmp/deps.out") line)" \
	grep -q 'upgraded, because.*linux-libc-dev' "$tmp/deps.out"
: >"$tmp/apt-args"
SHIM_FAIL=1 deps_shimmed scripts/deps.sh install --yes run </dev/null >"$tmp/deps-fail.out" 2>&1
rc=$?
check "deps.sh install, apt-get failing: status 1, the log's end and its path (status $rc)" \
	test "$rc" -eq 1 -a -n "$(grep 'dpkg returned an error' "$tmp/deps-fail.out")" -a \
	-n "$(grep -F "full log: $tmp/apt.log" "$tmp/deps-fail.out")"
if command -v script >/dev/null; then
	# A terminal that answers "n": nothing installed, status 3.
	: >"$tmp/apt-args"
	printf 'n\n' | deps_shimmed script -qec "scripts/deps.sh install run" /dev/null >"$tmp/deps-ask.out" 2>&1
	check "deps.sh install on a terminal asks, and 'n' installs nothing" \
		test -n "$(grep -F '[y/N]' "$tmp/deps-ask.out")" -a -n "$(grep 'nothing installed' "$tmp/deps-ask.out")" -a \
		-z "$(grep '^install ' "$tmp/apt-args" | grep -v -- ' -s \|--print-uris')"
else
	skip "deps.sh asks on a terminal" "no script(1) to make one"
fi

# --- run-bench.sh: bad values of the options it passes through --------------
for bad in "--repetitions 0" "--repetitions 10001" "--repetitions x" "--min-time 0" \
	"--min-time 61" "--min-time 1s" "--filter (" "--filter"; do
	# shellcheck disable=SC2086 # the option and its value, two words
	./run-bench.sh $bad >/dev/null 2>"$tmp/bad-option.err"
	rc=$?
	check "run-bench.sh $bad: status 2, the option named (got $rc)" \
		test "$rc" -eq 2 -a -n "$(grep -- "${bad%% *}" "$tmp/bad-option.err")"
done

if [ "$(id -u)" -ne 0 ]; then
	skip "run-bench.sh end to end" "needs root"
	exit 0
fi
if ! make -s all >"$tmp/make.log" 2>&1; then
	show <"$tmp/make.log"
	not_ok "make all"
	exit 1
fi

# --- smapbench run --run-dir-file, info --format=kv -------------------------
"$bin" run --quick --suite syscall --filter '^syscall/getppid$' --out "$tmp/direct" \
	--run-dir-file "$tmp/run.path" >"$tmp/run.out" 2>&1
rc=$?
dir=$(cat "$tmp/run.path" 2>/dev/null)
check "run --run-dir-file: status $rc, file names an existing absolute directory ($dir)" \
	test "$rc" -eq 0 -a -d "$dir" -a "${dir:0:1}" = /
check "run --run-dir-file: the same path as the human message" \
	test "$(sed -n 's/^run directory: //p' "$tmp/run.out")" -ef "$dir"
"$bin" run --quick --suite syscall --out "$tmp/direct" \
	--run-dir-file "$tmp/no/such/dir/f" >"$tmp/bad.out" 2>&1
rc=$?
check "run --run-dir-file in a missing directory: status 2 before running (got $rc)" \
	test "$rc" -eq 2
check "... and the message names the option" grep -q -- '--run-dir-file' "$tmp/bad.out"
"$bin" info --format=kv >"$tmp/info.kv" 2>"$tmp/info.err"
rc=$?
check "info --format=kv: status $rc, only key=value lines" \
	test "$rc" -eq 0 -a -s "$tmp/info.kv" -a -z "$(grep -v '^[a-z0-9_]*=' "$tmp/info.kv")"
check "info --format=kv: smap_state=$(kv smap_state "$tmp/info.kv"), smap_off_method=$(kv smap_off_method "$tmp/info.kv")" \
	test -n "$(kv smap_state "$tmp/info.kv")" -a -n "$(kv smap_off_method "$tmp/info.kv")"
"$bin" info --format=kv "$dir" >"$tmp/run.kv"
check "info --format=kv RUN: one line per context.csv row" \
	test "$(wc -l <"$tmp/run.kv")" -eq "$(($(wc -l <"$dir/context.csv") - 1))"
check "info --format=kv RUN: the run's SMAP state" \
	test "$(kv smap_state "$tmp/run.kv")" = "$(kv smap_state "$tmp/info.kv")"
"$bin" info --format=yaml >/dev/null 2>"$tmp/bad.err"
rc=$?
check "info --format=yaml: status 2, message names the option (got $rc)" \
	test "$rc" -eq 2 -a -n "$(grep -- '--format' "$tmp/bad.err")"

# --- a quick run from elsewhere, --out relative and with a space ------------
mkdir "$tmp/caller"
(cd "$tmp/caller" && "$top/run-bench.sh" --no-install --quick --suite syscall \
	--out "runs here" --run-dir-file "run dir") >"$tmp/quick.out" 2>&1
rc=$?
grep -v '^syscall/' "$tmp/quick.out" | tail -n 12 | show
check "run-bench.sh --quick --suite syscall exits 0 (got $rc)" test "$rc" -eq 0
runs=("$tmp/caller/runs here"/*/)
run=${runs[0]%/}
check "a relative --out is taken from the caller's directory ($run)" \
	test -f "$run/results.csv"
check "... and nothing named 'runs here' appears in the checkout" \
	test ! -e "$top/runs here"
check "--run-dir-file, relative to the caller, names that run directory, one line" \
	test "$(cat "$tmp/caller/run dir" 2>/dev/null)" = "$run"
./run-bench.sh --no-install --run-dir-file "$tmp/no/such/dir/f" >"$tmp/rdf.out" 2>&1
rc=$?
check "run-bench.sh --run-dir-file in a missing directory: status 2 before building (got $rc)" \
	test "$rc" -eq 2 -a -n "$(grep -- --run-dir-file "$tmp/rdf.out")"
"$bin" info --format=kv "$run" >"$tmp/quick.kv" 2>/dev/null
check "--quick reaches smapbench run: context quick=1 (got $(kv quick "$tmp/quick.kv"))" \
	test "$(kv quick "$tmp/quick.kv")" = 1
check "--quick shortens the samples: min_time=$(kv min_time "$tmp/quick.kv"), samples_per_repetition=$(kv samples_per_repetition "$tmp/quick.kv")" \
	test "$(kv min_time "$tmp/quick.kv")" = 0.002 -a "$(kv samples_per_repetition "$tmp/quick.kv")" = 5
# --repetitions, --filter and --min-time reach smapbench run as given.
./run-bench.sh --no-install --no-plots --suite syscall --repetitions 2 --min-time 0.001 \
	--filter '^syscall/getppid$' --out "$tmp/through" --run-dir-file "$tmp/through.path" \
	</dev/null >"$tmp/through.out" 2>&1
rc=$?
"$bin" info --format=kv "$(cat "$tmp/through.path" 2>/dev/null)" >"$tmp/through.kv" 2>/dev/null
check "run-bench.sh --repetitions 2 --min-time 0.001 --filter: status $rc, context repetitions=$(kv repetitions "$tmp/through.kv") min_time=$(kv min_time "$tmp/through.kv") filter=$(kv filter "$tmp/through.kv")" \
	test "$rc" -eq 0 -a "$(kv repetitions "$tmp/through.kv")" = 2 -a \
	"$(kv min_time "$tmp/through.kv")" = 0.001 -a "$(kv filter "$tmp/through.kv")" = '^syscall/getppid$'
check "... and only the benchmark the filter names ran" \
	test "$(cut -d, -f1 "$(cat "$tmp/through.path")/results.csv" 2>/dev/null | sed 1d | sort -u)" = syscall/getppid
# The "running:" line is a command to paste: its words must come back.
line=$(sed -n 's/^run-bench.sh: running: //p' "$tmp/quick.out")
eval "words=($line)"
check "the printed 'running:' command is quoted (--out word: '${words[3]:-}')" \
	test "${words[3]:-}" = "$tmp/caller/runs here"
# Every document run-bench.sh points to exists, and README sections named
# in its messages are README headings.
missing=""
for doc in $(grep -o 'docs/[a-z-]*\.md' run-bench.sh | sort -u); do
	[ -f "$doc" ] || missing="$missing $doc"
done
while IFS= read -r section; do
	grep -qxF "## $section" README.md || missing="$missing README:'$section'"
done < <(grep -o "README.md, '[^']*'" run-bench.sh | sed "s/.*, '//; s/'$//")
check "every document and README section run-bench.sh names exists${missing:+ (missing:$missing)}" \
	test -z "$missing"

# --- the partner run-bench.sh offers is a run of this very machine ----------
# Two runs in the other SMAP state beside the next one: a copy of the run
# above with another CPU family but this host name and kernel (a cloud VM
# of another CPU), never to be offered, then a copy of this machine's.
state=$(kv smap_state "$tmp/quick.kv")
[ "$state" = smap ] && other=nosmap || other=smap
partners=$tmp/partners
mkdir -p "$partners"
plant() { # NAME CPU_FAMILY: a copy of $run in the other state
	cp -r "$run" "$partners/$1-$other"
	sed -i -e "s/^smap_state,.*/smap_state,$other/" -e "s/^date,.*/date,2099-01-01T00:00:00Z/" \
		-e "s/^cpu_family,.*/cpu_family,$2/" "$partners/$1-$other/context.csv"
}
plant another-machine 999
partner_run() {
	./run-bench.sh --no-install --no-plots --quick --suite syscall --filter '^syscall/getppid$' \
		--out "$partners" </dev/null >"$tmp/partner.out" 2>&1
}
partner_run
rc=$?
grep 'next: ' "$tmp/partner.out" | show
check "beside a $other run of another CPU with this host name and kernel, run-bench.sh offers no partner (status $rc)" \
	test "$rc" -eq 0 -a -z "$(grep -A1 'next: compare with' "$tmp/partner.out")"
check "... and smapbench info --same-machine says why: $("$bin" info --same-machine "$run" "$partners/another-machine-$other")" \
	grep -q "^not the same machine: cpu_family $(kv cpu_family "$tmp/quick.kv") against 999" \
	<("$bin" info --same-machine "$run" "$partners/another-machine-$other")
if [ -n "$(kv machine_id_hash "$tmp/quick.kv")" ]; then
	plant this-machine "$(kv cpu_family "$tmp/quick.kv")"
	partner_run
	grep -A1 'next: ' "$tmp/partner.out" | show
	check "beside a $other run of this machine, run-bench.sh offers that one to compare with" \
		grep -qF "$partners/this-machine-$other" <(grep -A1 'next: compare with' "$tmp/partner.out")
else
	skip "a $other run of this machine is offered to compare with" "no /etc/machine-id here, so no run is provably of this machine"
fi

# --- signals: the run ends at once, nothing half-written --------------------
# Before, SIGTERM waited for the whole run (minutes). run-bench.sh now
# reacts at once and smapbench stops at its runner's next check: within a
# sample while it measures. In its first seconds, while it sets up and
# sizes the benchmarks, the runner still sets up every remaining one
# before it looks (seconds): the signal comes once that phase is over.
signal_limit=1.0
# signal_run NAME SIGNAL STATUS: a full syscall run, signalled once
# smapbench is measuring.
signal_run() {
	local name=$1 sig=$2 want=$3 out pid i start seconds rc kept
	out=$tmp/$name
	mkdir -p "$out"
	set -m	# a job of its own: Ctrl-C reaches its whole process group
	./run-bench.sh --no-install --suite syscall --out "$out" --run-dir-file "$tmp/$name.path" \
		>"$tmp/$name.log" 2>&1 &
	pid=$!
	set +m
	for ((i = 0; i < 300; i++)); do
		pgrep -P "$pid" -x smapbench >/dev/null && break
		sleep 0.1
	done
	sleep 8
	start=$EPOCHREALTIME
	if [ "$sig" = INT ]; then
		kill -INT -- "-$pid"
	else
		kill -TERM "$pid"
	fi
	wait "$pid"
	rc=$?
	seconds=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.2f", e - s }')
	tail -n 3 "$tmp/$name.log" | show
	check "SIG$sig to run-bench.sh mid-run: status $want (got $rc)" test "$rc" -eq "$want"
	check "SIG$sig: run-bench.sh ended ${seconds}s after the signal (at most ${signal_limit} s)" \
		awk -v s="$seconds" -v l="$signal_limit" 'BEGIN { exit !(s <= l) }'
	# 8 s in, the first repetition is over: smapbench keeps it, marked
	kept=$(cat "$tmp/$name.path" 2>/dev/null)
	check "SIG$sig: --run-dir-file names the run kept ($kept)" test -n "$kept" -a -d "$kept"
	check "SIG$sig: it is marked interrupted" grep -qx status,interrupted "$kept/context.csv"
	check "SIG$sig: nothing else under --out" test "$(ls -A "$out")" = "${kept##*/}"
	check "SIG$sig: run-bench.sh says so" grep -q 'kept in .*, marked interrupted' "$tmp/$name.log"
	check "SIG$sig: no smapbench process left" eval '! pgrep -f "run --out $out( |\$)" >/dev/null'
}
signal_run term TERM 143
signal_run int INT 130

stage_exit
