#!/bin/bash
# The BPF backend: the loader's unit tests (error paths: missing BTF,
# permission denied, verifier rejection, bad requests, counted faults),
# then a short `smapbench run --suite bpf` that must either write bpf
# rows to results.csv or skip every bpf benchmark with one clear reason.
# A benchmark, not a timed test: no assertion on nanoseconds.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

build=${BUILD:-build}
unit=$build/tests/unit/test_bpf_loader
smapbench=$build/smapbench

cmocka_tap "bpf loader" "$unit"

if ! [ -x "$smapbench" ]; then
	not_ok "$smapbench is not built"
	exit 1
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Every op's 8-byte case, the empty loop and calib in all three modes.
filter='^bpf/((empty|calib)|(user_read|kernel_read|kernel_memmove|overhead|copy_from_user)/[a-z_]+/8)'
run_log=$out/run.log
if "$smapbench" run --suite bpf --filter "$filter/?" --repetitions 2 \
	--samples 5 --min-time 0.002 --out "$out" >"$run_log" 2>&1; then
	ok "smapbench run --suite bpf exits 0"
else
	show <"$run_log"
	not_ok "smapbench run --suite bpf failed"
	exit 1
fi
dir=$(tail -n 1 "$run_log" | sed 's/^run directory: //')
if ! [ -f "$dir/results.csv" ]; then
	not_ok "no results.csv in the run directory ('$dir')"
	exit 1
fi

rows=$(grep -c '^bpf/' "$dir/results.csv")
# the columns checked, by name: their indices from 0
for c in median ci_low ci_high counter; do
	i=$(csv_column "$c" "$dir/results.csv")
	if [ -z "$i" ]; then
		not_ok "results.csv has no column $c"
		exit 1
	fi
	declare "at_$c=$((i - 1))"
done
skipped=$(grep -c '^bpf/' "$dir/skipped.csv" 2>/dev/null)
if [ "$rows" -gt 0 ]; then
	ok "results.csv has $rows bpf rows"
	for name in bpf/user_read/raw_tp/8 bpf/kernel_memmove/raw_tp/8 \
		bpf/overhead/raw_tp/8 bpf/overhead/syscall/8 \
		bpf/copy_from_user/syscall/8 bpf/calib/raw_tp; do
		row=$(grep "^$name," "$dir/results.csv")
		if [ -z "$row" ]; then
			not_ok "$name missing from results.csv"
			continue
		fi
		# median, ci_low and ci_high are numbers and the counter is the
		# bpf clock; columns found by the header's names, not positions.
		IFS=, read -r -a f <<<"$row"
		median=${f[at_median]} low=${f[at_ci_low]}
		high=${f[at_ci_high]} counter=${f[at_counter]}
		if [[ "$median" =~ ^[0-9.e+-]+$ && "$low" =~ ^[0-9.e+-]+$ &&
			"$high" =~ ^[0-9.e+-]+$ && "$counter" == bpf-ktime ]]; then
			ok "$name: median $median ns, CI [$low, $high]"
		else
			not_ok "$name: malformed row: $row"
		fi
	done
	if grep -q '^bpf_return_mitigations,' "$dir/context.csv" &&
		grep -q '^bpf_hardened_usercopy,' "$dir/context.csv"; then
		ok "context.csv records the mitigations on the copy path"
	else
		not_ok "context.csv lacks the bpf_* keys"
	fi
	if [ "$(nproc)" -lt 2 ] && ! grep -q '^bpf/user_read/raw_tp_ipi/8,' "$dir/skipped.csv"; then
		not_ok "one CPU, yet raw_tp_ipi was not skipped"
	fi
elif [ "$skipped" -gt 0 ]; then
	reason=$(grep '^bpf/' "$dir/skipped.csv" | head -n 1 | cut -d, -f3-)
	skip "smapbench run --suite bpf" "$reason"
else
	not_ok "no bpf row in results.csv and none in skipped.csv"
fi

# Without privileges the suite must skip, saying why, not fail.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 0777 "$out"
	log=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$smapbench" run --suite bpf --filter '^bpf/user_read/raw_tp/8$' \
		--repetitions 1 --samples 2 --min-time 0.001 --out "$out" 2>&1)
	dir=$(echo "$log" | tail -n 1 | sed 's/^run directory: //')
	if grep -q '^bpf/user_read/raw_tp/8,.*permission denied' "$dir/skipped.csv" 2>/dev/null ||
		grep -q '^bpf/user_read/raw_tp/8,.*built without BPF' "$dir/skipped.csv" 2>/dev/null; then
		ok "unprivileged run skips the bpf suite with the reason"
	else
		show <<<"$log"
		not_ok "unprivileged run did not skip with a permission reason"
	fi
fi
stage_exit
