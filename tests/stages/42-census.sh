#!/bin/bash
# The instruction census as an oracle (docs/census.md): Debian's 6.1 and
# 6.12 kernels booted with SMAP on, clearcpuid=smap and a CPU without
# SMAP, under the census plugin; every kmod loop must execute the STAC and
# CLAC the catalogue says, and the SMAP-off boots none at all. Then the
# oracle is shown a census where one loop lacks a CLAC per iteration, and
# must say "not ok". A missing QEMU or kernel is a failure: CI installs
# them (scripts/deps.sh). Then one boot of the newest kernel, Debian
# unstable's 7.x (vm/kernel.sh sid), with SMAP on: its census, by the same
# oracle and against the published one; skipped, saying why, only when
# its packages cannot be fetched.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=vm/lib.sh
. vm/lib.sh
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
build=${BUILD:-build}

if out=$(shellcheck -S warning vm/census.sh 2>&1 &&
	shellcheck -S warning -s sh vm/census/init 2>&1); then
	ok "census: vm/census.sh and vm/census/init shellcheck clean"
else
	show <<<"$out"
	not_ok "census: shellcheck of vm/census.sh or vm/census/init"
fi

# The host side first, without QEMU.
if make -s census-unit >/dev/null 2>&1; then
	cmocka_tap "census unit" "$build/tests/unit/test_census"
else
	not_ok "census: the unit test builds (make census-unit; libcmocka-dev installed?)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every syscall and kmod benchmark; of bpf, the user-copy helpers at 8 B
# in the sleepable mode, so that the SMAP-off rule covers that suite too
# (the whole bpf suite adds half a minute per boot: make census has it).
filter='^(syscall|kmod)/|^bpf/(user_read|kernel_read|copy_from_user)/syscall/8$'
# Debian 12's two kernels by name: census.sh's default adds unstable's.
installed=()
for package in linux-image-amd64 linux-image-6.12-amd64; do
	release=$(vm_debian_release "$package")
	[ -n "$release" ] && installed+=(--kernel "/boot/vmlinuz-$release")
done
start=$(date +%s)
BUILD=$build vm/census.sh --out "$work" --filter "$filter" "${installed[@]}" \
	>"$work/census.log" 2>&1
rc=$?
seconds=$(($(date +%s) - start))
dir=$(sed -n 's/^census directory: //p' "$work/census.log")
if [ "$rc" -ne 0 ] || [ -z "$dir" ]; then
	show 40 <"$work/census.log"
	not_ok "census: vm/census.sh wrote a census directory (status $rc, ${seconds}s)"
	exit 1
fi
grep '^# census boot: .* took' "$work/census.log"
ok "census: 6 boots counted and collected into a census directory in ${seconds}s"

header=$(head -n 1 "$dir/census.csv")
missing=""
for column in kernel smap_state name stac_per_op clac_per_op popf_per_op kinsn_per_op; do
	[[ ,$header, == *,$column,* ]] || missing="$missing $column"
done
if [ -z "$missing" ]; then
	ok "census: census.csv has the columns docs/schema.md names ($(($(wc -l <"$dir/census.csv") - 1)) rows)"
else
	not_ok "census: census.csv lacks the columns$missing"
fi
for kernel in 6.1 6.12; do
	for state in smap clearcpuid cpu-off; do
		if grep -q "^$kernel\.[^,]*,$state," "$dir/census.csv"; then
			ok "census: rows of $kernel $state"
		else
			not_ok "census: no rows of $kernel $state"
		fi
	done
done
if [ -s "$dir/plots/census-pairs.png" ] && [ -s "$dir/plots/census-pairs.svg" ]; then
	ok "census: the plot of pairs per call per kernel (plots/census-pairs.png, .svg)"
else
	not_ok "census: plots/census-pairs.png or .svg missing"
fi

# The oracle's own lines.
"$build/smapbench" census check "$dir" >"$work/check.tap" 2>&1
rc=$?
if relay <"$work/check.tap" && [ "$rc" -ne 0 ]; then
	not_ok "census: census check exited with status $rc, every line ok"
fi

# The same kernels booted another time: the published census (data/),
# made on another host, at another speed. Rates of syscall rows follow
# guest time only in their fractions (interrupts): rounded, they must not
# differ. A kmod row counts in its loop's scope, ops iterations in
# loop_calls calls: a count is a per iteration plus b per call (nopad
# opens one pair per call, whatever the iterations), and how many
# iterations a call holds depends on the host's speed. So a kmod row is
# compared by the (a, b) that explain its counts exactly, b of 0 to 4:
# the two boots must share one for STAC and one for CLAC.
# A bpf row has the same two parts (BPF_PROG_RUN copies the program's
# context and result: pairs per call), but its calls are not recorded:
# on a slow boot, with few iterations a call, the per-call pairs round
# its rate up (bpf/kernel_read/syscall/8 on 7.2 read 0.01 per operation
# in the published census and at least 0.5 in another boot). Its rates
# cannot be compared; `census check` still holds them to none at all in a
# SMAP-off boot.
# compare_published DIR LABEL: DIR's census.csv against the published one.
compare_published() {
	local dir=$1 label=$2 published compared wrong
	published=$(ls -d data/*-census/census.csv 2>/dev/null | tail -n 1)
	if [ -z "$published" ]; then
		skip "census: $label counts equal to another boot's" "no published census in data/"
	else
		awk -F, '
			# "|a/b|...": every a per iteration and b per call with
			# total = a * ops + b * calls; "|~rate|" when none fits.
			function fits(total, ops, calls,    b, r, s) {
				s = "|"
				for (b = 0; b <= 4; b++) {
					r = total - b * calls
					if (r < 0)
						break
					if (r % ops == 0)
						s = s (r / ops) "/" b "|"
				}
				return s == "|" ? sprintf("|~%.2f|", total / ops) : s
			}
			function shared(x, y,    n, t, i) {
				n = split(x, t, "|")
				for (i = 1; i <= n; i++)
					if (t[i] != "" && index(y, "|" t[i] "|"))
						return 1
				return 0
			}
			FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$col["status"] != "ok" || $col["ops"] <= 0 { next }
			# Whether clock_gettime() stays in the vDSO depends on the
			# clocksource the guest ended on, not on its user accesses:
			# a loaded host can make the watchdog mark the TSC unstable
			# (seen on 7.2), and the vDSO then makes the system call.
			$col["name"] == "syscall/clock_gettime/vdso" { next }
			$col["suite"] == "bpf" { next }
			{
				key = $col["kernel"] "," $col["smap_state"] "," $col["name"]
				if ($col["suite"] == "kmod") {
					s = fits($col["loop_stac"], $col["ops"], $col["loop_calls"])
					c = fits($col["loop_clac"] - $col["loop_entry_clac"],
						 $col["ops"], $col["loop_calls"])
				} else {
					s = sprintf("|%.0f|", $col["stac_per_op"])
					c = sprintf("|%.0f|", $col["clac_per_op"] - $col["entry_clac_per_op"])
				}
			}
			FILENAME == ARGV[1] { then_s[key] = s; then_c[key] = c; next }
			key in then_s {
				compared++
				if (!shared(s, then_s[key]) || !shared(c, then_c[key])) {
					wrong++
					if (wrong <= 5)
						printf "#   %s: STAC %s CLAC %s, another boot STAC %s CLAC %s (per iteration/per call)\n",
							key, s, c, then_s[key], then_c[key]
				}
			}
			END { printf "%d %d\n", compared, wrong }' \
			"$published" "$dir/census.csv" >"$work/again.txt"
		read -r compared wrong < <(tail -n 1 "$work/again.txt")
		head -n -1 "$work/again.txt"
		if [ "${compared:-0}" -eq 0 ]; then
			skip "census: $label counts equal to another boot's" \
				"$published has none of these kernels and benchmarks"
		elif [ "$wrong" -eq 0 ]; then
			ok "census: $label each operation's STAC and CLAC equal another boot's ($published): $compared rows"
		else
			not_ok "census: $label $wrong of $compared rows count other STAC/CLAC than another boot ($published)"
		fi
	fi
}
compare_published "$dir" "6.1 and 6.12:"

# A loop that executes a different number than it claims must fail: the
# same census with kmod/sigframe/inline short of one CLAC per frame (24
# instead of 25 per iteration) on each SMAP boot.
awk -F, -v OFS=, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
	$col["name"] == "kmod/sigframe/inline" && $col["smap_state"] == "smap" {
		$col["loop_clac"] -= $col["ops"]; changed++ }
	{ print }
	END { if (!changed) exit 1 }' "$dir/census.csv" >"$work/broken.csv"
if [ $? -ne 0 ]; then
	not_ok "census: no kmod/sigframe/inline row of a SMAP boot to break"
else
	"$build/smapbench" census check "$work/broken.csv" >"$work/broken.tap" 2>&1
	rc=$?
	caught=$(grep -c '^not ok - census .* smap: kmod inline: .*kmod/sigframe/inline: [0-9]* STAC and [0-9]* CLAC' "$work/broken.tap")
	others=$(grep '^not ok' "$work/broken.tap" | grep -vc 'kmod inline')
	if [ "$rc" -eq 1 ] && [ "$caught" -ge 2 ] && [ "$others" -eq 0 ]; then
		ok "census: the oracle catches a loop one CLAC short per frame, and only that ($caught lines)"
		grep '^not ok' "$work/broken.tap" | head -n 2 | show
	else
		show <"$work/broken.tap"
		not_ok "census: the oracle missed a loop one CLAC short per frame (status $rc)"
	fi
fi

# The newest kernel: one SMAP boot of Debian unstable's (vm/kernel.sh sid;
# its packages and build root are cached after the first fetch), with
# the same benchmarks, the same oracle and the published census.
start=$(date +%s)
out=$(vm/kernel.sh resolve sid 2>&1)
resolved=$?
if [ "$resolved" -eq 3 ]; then
	show 10 <<<"$out"
	skip "census: Debian unstable's kernel" "its packages cannot be fetched (no archive reachable)"
	stage_exit
fi
mkdir -p "$work/sid"
BUILD=$build vm/census.sh --out "$work/sid" --filter "$filter" --kernel sid \
	--states smap >"$work/sid.log" 2>&1
rc=$?
seconds=$(($(date +%s) - start))
sid_dir=$(sed -n 's/^census directory: //p' "$work/sid.log")
if [ "$resolved" -ne 0 ] || [ "$rc" -ne 0 ] || [ -z "$sid_dir" ]; then
	show 40 < <(printf '%s\n' "$out"; cat "$work/sid.log")
	not_ok "census: Debian unstable's kernel counted in a SMAP boot (status $rc, ${seconds}s)"
	stage_exit
fi
grep '^# census boot: .* took' "$work/sid.log"
release=$(sed -n 's/^release=//p' <<<"$out")
ok "census: Debian unstable's $release counted in a SMAP boot, fetch and module build included, in ${seconds}s"
if grep -q "^$release,smap," "$sid_dir/census.csv"; then
	ok "census: rows of $release smap"
else
	not_ok "census: no rows of $release smap"
fi
"$build/smapbench" census check "$sid_dir" >"$work/sid-check.tap" 2>&1
rc=$?
if relay <"$work/sid-check.tap" && [ "$rc" -ne 0 ]; then
	not_ok "census: census check of $release exited with status $rc, every line ok"
fi
compare_published "$sid_dir" "$release:"
stage_exit
