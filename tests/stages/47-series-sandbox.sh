#!/bin/bash
# The boot series' hazard table (docs/boot-series.md), row by row, without
# a reboot: the real scripts/boot-series.sh and run-bench.sh in a private
# mount namespace that fakes the machine (tests/series/sandbox.sh: this
# boot's /proc files, /boot of each distribution, /etc/systemd/system,
# /var/lib, and stand-ins for kexec and systemctl that record their
# arguments). Each case starts a real series (a one-benchmark syscall run
# per boot), "reboots" it by hand and checks where the machine ends.
#
# BOOT_SERIES_TREE=DIR runs another checkout's scripts (with its build):
# how the cases were shown to fail on the scripts before this table.
# SERIES_SANDBOX_CASES="b3 b4" runs only those cases; SERIES_SANDBOX_JOBS
# (default 3) cases run at once, each in its own namespace (they mostly
# wait: for settling, a run's limit).
# shellcheck disable=SC2154 # the sb_* globals: tests/series/sandbox.sh, sourced below
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
top=$PWD

# ------------------------------------------------------------ the cases
# Each runs in a namespace of its own: sb_setup first.

# S1: a start that cannot be made safe changes nothing.
case_s1() {
	sb_setup systemd
	local where=$SB_OUT dir tmpfs rc
	# (F4) an --out under /tmp, or on tmpfs, is gone at the next boot
	dir=$(mktemp -d /tmp/series-out.XXXXXX)
	SB_OUT=$dir sb_start 2
	rmdir "$dir" 2>/dev/null
	if [ "$sb_start_rc" -eq 2 ] && grep -q 'under tmp' "$SB/start.out" && [ -z "$(sb_leftovers)" ]; then
		ok "S1 (F4): --out under /tmp is refused, nothing changed"
	else
		show <"$SB/start.out"
		not_ok "S1 (F4): --out under /tmp: status $sb_start_rc, left: $(sb_leftovers)"
	fi
	tmpfs=$SB_OUT/tmpfs
	mkdir -p "$tmpfs" && mount -t tmpfs tmpfs "$tmpfs"
	SB_OUT=$tmpfs sb_start 2
	if [ "$sb_start_rc" -eq 2 ] && grep -q 'on tmpfs' "$SB/start.out" && [ -z "$(sb_leftovers)" ]; then
		ok "S1 (F4): --out on tmpfs is refused, nothing changed"
	else
		show <"$SB/start.out"
		not_ok "S1 (F4): --out on tmpfs: status $sb_start_rc"
	fi
	umount "$tmpfs"
	# (F9) no terminal and no --yes: the series asks first, so it cannot
	SB_OUT=$where
	sb_without --yes
	sb_start 2
	if [ "$sb_start_rc" -eq 2 ] && grep -q 'asks first, on a terminal' "$SB/start.out" &&
		[ -z "$(sb_leftovers)" ] && [ -z "$(sb_series)" ]; then
		ok "S1 (F9): without a terminal and without --yes the series is refused, nothing changed"
	else
		show <"$SB/start.out"
		not_ok "S1 (F9): no terminal, no --yes: status $sb_start_rc, series '$(sb_series)'"
	fi
	# (F9) on a terminal it says what happens and takes only yes
	rc=0
	printf 'n\n' | SMAPBENCH_SETTLE_SECONDS=2 script -qec \
		"$(printf '%q ' "$SB_TREE/run-bench.sh" --boots 4 --out "$SB_OUT" "${SB_RUN_ARGS[@]}")" \
		/dev/null >"$SB/ask.out" 2>&1 || rc=$?
	if grep -q 'REBOOTS THIS MACHINE 4 times' "$SB/ask.out" && grep -q 'disconnects everyone logged in' "$SB/ask.out" &&
		grep -q 'in all about' "$SB/ask.out" && grep -q 'no series started' "$SB/ask.out" &&
		[ -z "$(sb_leftovers)" ] && [ -z "$(sb_series)" ] && [ ! -e "$SB/handed-over" ]; then
		ok "S1 (F9): on a terminal the series says it reboots 4 times, for how long, that users are disconnected, and a 'n' starts nothing"
	else
		show <"$SB/ask.out"
		not_ok "S1 (F9): the question on a terminal (status $rc)"
	fi
}

# S2 (F13): a start whose unit cannot be installed undoes itself; the
# next --boots is not refused as pending.
case_s2() {
	sb_setup systemd
	touch "$SB/fail-enable"
	sb_start 2
	local first=$sb_start_rc
	rm -f "$SB/fail-enable"
	if [ "$first" -eq 2 ] && [ -z "$(sb_leftovers)" ] && [ -z "$(sb_series)" ]; then
		ok "S2 (F13): a failed unit install is refused and leaves nothing (no marker, unit, state or series directory)"
	else
		show <"$SB/start.out"
		not_ok "S2 (F13): failed unit install: status $first, left: $(sb_leftovers) $(sb_series)"
	fi
	sb_start 2
	if [ "$sb_start_rc" -eq 0 ] && grep -q '^boot 2 of 2 pending' "$(sb_series)/status" 2>/dev/null; then
		ok "S2 (F13): the next --boots starts"
	else
		show <"$SB/start.out"
		not_ok "S2 (F13): the next --boots: status $sb_start_rc"
	fi
}

# S4: a unit whose marker is missing (a power loss during the start, or
# the end) removes itself.
case_s4() {
	sb_setup systemd
	sb_start 2
	rm -f /var/lib/smapbench/boot-series/series
	sb_boot
	if [ -z "$(sb_leftovers)" ]; then
		ok "S4: a unit without its marker removes itself and the state on the next boot"
	else
		show <"$SB/unit-2.out"
		not_ok "S4: left: $(sb_leftovers)"
	fi
}

# The whole series, and its end (E1, F13, F15): 2 boots on a command line
# with quotes, two spaces, commas, clearcpuid=pku and " -- ".
case_e1() {
	local rel=$sb_rel dir unit_mode expect original
	original="BOOT_IMAGE=/boot/vmlinuz-$rel root=/dev/vda1 ro clearcpuid=pku dyndbg=\"file  x.c +p\" console=ttyS0,115200 -- single"
	SB_CMDLINE=$original sb_setup systemd
	local began=$SECONDS
	( umask 077 && sb_start 2 )
	dir=$(sb_series)
	unit_mode=$(stat -c %a /etc/systemd/system/smapbench-series.service 2>/dev/null)
	expect="BOOT_IMAGE=/boot/vmlinuz-$rel root=/dev/vda1 ro clearcpuid=pku,smap dyndbg=\"file  x.c +p\" console=ttyS0,115200 smapbench.series=${dir##*/series-}:2 panic=10 -- single"
	if [ "$(sb_handed_over)" = "$expect" ]; then
		ok "E1 (F15): boot 2's command line: smap merged into clearcpuid=pku, quotes and spaces kept, the series' words before ' -- '"
	else
		printf '#   got:      %s\n#   expected: %s\n' "$(sb_handed_over)" "$expect"
		not_ok "E1 (F15): boot 2's command line is not the original with the series' words"
	fi
	if [ "$unit_mode" = 644 ]; then
		ok "E1 (F13): the unit file is mode 0644 (made under umask 077)"
	else
		not_ok "E1 (F13): the unit file is mode '$unit_mode'"
	fi
	# The reboots take time, and so does boot 2's run (the series' copy of
	# run-bench.sh sleeps first): the phase times must show it. Settling
	# looks at the CPU for 2 s at least.
	sed -i '1a sleep 2' "$dir/bin/run-bench.sh"
	sleep 3
	sb_boot
	if [ "$(sb_handed_over)" = "$original" ]; then
		ok "E1 (F15): the return's command line is the original, byte for byte"
	else
		printf '#   got:      %s\n#   expected: %s\n' "$(sb_handed_over)" "$original"
		not_ok "E1 (F15): the return's command line differs from the original"
	fi
	sleep 2
	sb_boot
	local took=$((SECONDS - began)) problems total
	problems=$(phases_problems "$dir" 2)
	total=$(phases_total "$dir")
	if [ -z "$problems" ] && awk -v b="$(phase_seconds "$dir" 2 boot)" -v e="$(phase_seconds "$dir" end boot)" \
		-v r="$(phase_seconds "$dir" 2 run)" -v s1="$(phase_seconds "$dir" 1 settle)" \
		-v s2="$(phase_seconds "$dir" 2 settle)" -v t="$total" -v took="$took" \
		'BEGIN { exit !(b >= 3 && e >= 2 && r >= 2 && s1 >= 2 && s2 >= 2 && t >= 11 && t <= took + 1) }'; then
		ok "E1: phases.csv and report.md's table: each phase in turn, the reboots' 3 and 2 s within boot 2's $(phase_seconds "$dir" 2 boot) s and the return's $(phase_seconds "$dir" end boot) s, boot 2's run of 2 s and more in $(phase_seconds "$dir" 2 run) s, $total s in all of the $took s the case took"
	else
		show <<<"$problems"
		show <"$dir/phases.csv" 2>/dev/null
		not_ok "E1: the phase times: boot 2's reboot $(phase_seconds "$dir" 2 boot) s (slept 3), its run $(phase_seconds "$dir" 2 run) s (slept 2), settling $(phase_seconds "$dir" 1 settle) and $(phase_seconds "$dir" 2 settle) s (2 or more), the return $(phase_seconds "$dir" end boot) s (slept 2), $total s in all of $took s"
	fi
	local field
	field=$(tail -n 1 "$dir/final.csv" 2>/dev/null | sed 's/^[^,]*,"\(.*\)",[01]$/\1/; s/""/"/g')
	if grep -q '^done: 2 boots' "$dir/status" 2>/dev/null && [ "$(sb_rows)" -eq 2 ] &&
		[ "$field" = "$original" ] && [ "$(tail -n 1 "$dir/final.csv" | sed 's/.*,//')" = 1 ] &&
		[ -z "$(sb_leftovers)" ]; then
		ok "E1 (F13): done, 2 runs, final.csv quotes the original command line exactly, nothing of the series left"
	else
		show <"$SB/unit-3.out"
		show <"$dir/final.csv" 2>/dev/null
		not_ok "E1 (F13): status '$(sb_status)', $(sb_rows) rows, final cmdline '$field', left: $(sb_leftovers)"
	fi
	# (F15) a boot with SMAP off by its own clearcpuid: SMAP-on boots drop
	# smap from it, and only that
	mkdir -p "$SB_OUT.off"
	SB_OUT=$SB_OUT.off
	sb_set_boot "root=/dev/vda1 clearcpuid=pku,smap quiet"
	sb_start 2
	dir=$(sb_series)
	if [ "$(sb_handed_over)" = "root=/dev/vda1 clearcpuid=pku quiet smapbench.series=${dir##*/series-}:2 panic=10" ]; then
		ok "E1 (F15): from a SMAP-off boot (clearcpuid=pku,smap), the SMAP-on boot removes smap and nothing else"
	else
		show <"$SB/start.out"
		printf '#   got: %s\n' "$(sb_handed_over)"
		not_ok "E1 (F15): SMAP-on boot from clearcpuid=pku,smap"
	fi
}

# B6 (F1, F11): the unit installs nothing and builds nothing; a plain
# run-bench.sh on a series boot runs and never moves the series on.
case_b6() {
	sb_setup systemd
	sb_start 3
	: >"$SB/make.log"
	: >"$SB/apt.log"
	sb_set_boot "$(sb_handed_over)"
	# A plain run first, before the unit: as a user would.
	local rc=0 before
	before=$(sb_rows)
	SMAPBENCH_SETTLE_SECONDS=2 "$SB_TREE/run-bench.sh" --out "$SB_OUT/plain" "${SB_RUN_ARGS[@]}" \
		>"$SB/plain.out" 2>&1 </dev/null || rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'boot series is pending' "$SB/plain.out" &&
		[ "$(sb_rows)" -eq "$before" ] && [ ! -e "$SB/handed-over" ] &&
		grep -q '^boot 2 of 3 pending' "$(sb_series)/status"; then
		ok "B6 (F11): a plain run-bench.sh on a series boot runs, says a series is pending, and leaves it be"
	else
		show <"$SB/plain.out"
		not_ok "B6 (F11): a plain run on a series boot: status $rc, rows $before -> $(sb_rows), status '$(sb_status)'"
	fi
	: >"$SB/make.log"
	: >"$SB/apt.log"
	sb_run_unit
	if [ "$(sb_rows)" -eq 2 ] && ! grep -q . "$SB/make.log" && ! grep -q . "$SB/apt.log"; then
		ok "B6 (F1): the unit's step ran boot 2 with the series' copy: no make, no apt-get"
	else
		show <"$SB/unit-$sb_boots.out"
		show <"$SB/make.log"
		show <"$SB/apt.log"
		not_ok "B6 (F1): the unit's step: $(sb_rows) rows, make/apt-get called"
	fi
}

# B7 (F10): one series per machine, whatever --out.
case_b7() {
	sb_setup systemd
	SMAPBENCH_NO_KEXEC=1 sb_start 2
	local first
	first=$(sb_series)
	mkdir -p "$SB_OUT/other"
	SB_OUT=$SB_OUT/other sb_start 2
	if [ "$sb_start_rc" -eq 2 ] && grep -q 'pending on this machine' "$SB/start.out" &&
		[ -z "$(SB_OUT=$SB_OUT/other sb_series)" ] &&
		grep -q "$first" /etc/systemd/system/smapbench-series.service; then
		ok "B7 (F10): a second --boots with another --out is refused; the unit stays the first series'"
	else
		show <"$SB/start.out"
		not_ok "B7 (F10): a second --boots with another --out: status $sb_start_rc"
	fi
	if "$SB_TREE/run-bench.sh" --series-status >"$SB/status.out" 2>&1 </dev/null &&
		grep -q "series ${first##*/series-}: boot 2 of 2 pending (SMAP off)" "$SB/status.out"; then
		ok "B7: --series-status, with any --out, names the machine's pending series and where it stands"
	else
		show <"$SB/status.out"
		not_ok "B7: --series-status"
	fi
}

# B8 (F5): the knobs come from the plan, not the unit's environment.
case_b8() {
	sb_setup systemd
	SMAPBENCH_NO_KEXEC=1 sb_start 3
	# By hand, the command line the series printed.
	local cmdline
	cmdline=$(sed -n '/boot this kernel once with this command line/{n;s/^  //p;}' "$SB/start.out")
	sb_boot "$cmdline"
	if [ -n "$cmdline" ] && [ "$(sb_rows)" -eq 2 ] && ! grep -q -- ' -l ' "$SB/kexec.log" &&
		! grep -q '^systemctl kexec' "$SB/systemctl.log" &&
		grep -q 'boot this kernel once with this command line' "$SB/unit-$sb_boots.out"; then
		ok "B8 (F5): SMAPBENCH_NO_KEXEC given at the start holds on boot 2, from the unit: no kexec, the next command line printed"
	else
		show <"$SB/unit-$sb_boots.out"
		not_ok "B8 (F5): boot 2 from the unit: $(sb_rows) rows, kexec: $(grep -c -- ' -l ' "$SB/kexec.log")"
	fi
}

# B9 (F12): the boot completes while the series' unit runs: settling
# waits for the system, then for quiet, each on its own limit.
case_b9() {
	sb_setup systemd
	SMAPBENCH_SETTLE_SECONDS=15 sb_start 2
	: >"$SB/systemctl.log"
	local start=$SECONDS longest
	sb_boot
	longest=$(sed -n 's/^# \([0-9]*\) s$/\1/p' "$SB/systemctl.log" | sort -n | tail -n 1)
	if [ "$(sb_rows)" -eq 2 ] && [ "${longest:-0}" -lt 5 ] &&
		grep -q 'the system was up after [0-4] s' "$SB/journal"; then
		ok "B9 (F12): under systemd the system is up within seconds of the unit's start (no systemctl call over 5 s; boot 2 took $((SECONDS - start)) s)"
	else
		show <"$SB/systemctl.log"
		not_ok "B9 (F12): a systemctl call took ${longest:-?} s; $(sb_rows) rows"
	fi
}

# F2 (R2, H2): --boots-abort during a run stops the step before its next
# kexec; the run's directory stays.
case_r2() {
	sb_setup systemd
	sb_start 3
	sb_set_boot "$(sb_handed_over)"
	# Boot 2's run, from the unit, in the background; abort meanwhile.
	local unit_pid rc=0 loaded
	sb_run_unit &
	unit_pid=$!
	sb_wait_for 'running boot 2 of 3'
	"$SB_TREE/run-bench.sh" --boots-abort >"$SB/abort.out" 2>&1 </dev/null || rc=$?
	wait "$unit_pid"
	loaded=$(sb_handed_over)
	# The abort returned home; that boot ends it.
	sb_boot
	if [ "$loaded" = "$(sed -n 's/^original_cmdline=//p' "$(sb_series)/plan")" ] &&
		! grep -q "smapbench.series=[^ ]*:3" "$SB/kexec.log" &&
		grep -q '^aborted at boot 2 of 3' "$(sb_series)/status" && [ -z "$(sb_leftovers)" ]; then
		ok "R2 (F2): --boots-abort during boot 2's run: no kexec into boot 3, back to the original command line, nothing left"
	else
		show <"$SB/abort.out"
		show <"$SB/systemctl.log"
		not_ok "R2 (F2): abort during a run: last hand-over '$loaded', status '$(sb_status)', left: $(sb_leftovers)"
	fi
}

# F3 (H1, H4, T1): a failed systemctl kexec ends the series; systemd 257
# gets --check-inhibitors=no.
case_h1() {
	sb_setup systemd
	touch "$SB/fail-systemctl-kexec"
	SB_SYSTEMD_VERSION=257 sb_start 2
	if [ "$sb_start_rc" -ne 0 ] && grep -q '^failed at boot 2 of 2: cannot reboot into boot 2' "$(sb_series)/status" &&
		[ -z "$(sb_leftovers)" ] && [ "$(sb_runs)" -eq 1 ]; then
		ok "H1 (F3): a failed systemctl kexec ends the series on boot 1: status non-zero, image unloaded, unit and state gone, the run kept"
	else
		show <"$SB/start.out"
		not_ok "H1 (F3): failed systemctl kexec: status $sb_start_rc, '$(sb_status)', left: $(sb_leftovers)"
	fi
	if grep -q '^systemctl kexec --check-inhibitors=no' "$SB/systemctl.log"; then
		ok "H4 (F3): systemd 257 gets systemctl kexec --check-inhibitors=no"
	else
		show <"$SB/systemctl.log"
		not_ok "H4 (F3): systemctl kexec without --check-inhibitors=no on systemd 257"
	fi
	# On the SMAP-off boot: the return fails too; a firmware reboot.
	rm -f "$SB/fail-systemctl-kexec"
	mkdir -p "$SB_OUT/2"
	SB_OUT=$SB_OUT/2 sb_start 2
	SB_OUT=$SB_OUT/2
	touch "$SB/fail-systemctl-kexec"
	sb_boot
	if [ -e "$SB/firmware-reboot" ] && [ -z "$(sb_leftovers)" ] &&
		grep -q 'the kexec into the original command line failed' "$SB/journal" &&
		grep -q 'rebooting through the firmware' "$SB/journal"; then
		ok "T1 (F3): on the SMAP-off boot, when the kexec home fails, the series ends and reboots through the firmware (the boot loader's default)"
	else
		show <"$SB/unit-$sb_boots.out"
		not_ok "T1 (F3): failed return from the SMAP-off boot: firmware reboot $([ -e "$SB/firmware-reboot" ] && echo yes || echo no), left: $(sb_leftovers)"
	fi
}

# F6 (B1, B3): a power loss during boot 2: the boot loader's default
# comes up, and the series ends there; series boots carry panic=.
case_b3() {
	local original
	sb_setup systemd
	sb_start 2
	original=$(sed -n 's/^original_cmdline=//p' "$(sb_series)/plan")
	if [[ " $(sb_handed_over) " == *" panic=10 "* ]]; then
		ok "B1 (F6): series boots reboot through the firmware 10 s after a panic (panic=10)"
	else
		not_ok "B1 (F6): boot 2's command line has no panic=: $(sb_handed_over)"
	fi
	# Boot 2 never ran: the power went, the boot loader's default boots.
	sb_boot "$original"
	if [ -z "$(sb_leftovers)" ] && grep -q "^failed at boot 2 of 2: this boot is not the series' next step" "$(sb_series)/status" &&
		[ "$(sb_runs)" -eq 1 ] && [ ! -e "$SB/handed-over" ]; then
		ok "B3 (F6): after a power loss, the first boot of the default command line ends the series: unit and state gone, the run kept, no reboot"
	else
		show <"$SB/unit-$sb_boots.out"
		not_ok "B3 (F6): after a power loss: status '$(sb_status)', left: $(sb_leftovers)"
	fi
}

# B3, by hand: a series rebooted by hand waits for its next boot, at most
# 3 boots.
case_b3m() {
	local original
	sb_setup systemd
	SMAPBENCH_NO_KEXEC=1 sb_start 2
	original=$(sed -n 's/^original_cmdline=//p' "$(sb_series)/plan")
	for _ in 1 2 3; do sb_boot "$original"; done
	if [ -z "$(sb_leftovers)" ] && grep -q "^failed at boot 2 of 2" "$(sb_series)/status" &&
		grep -q 'through 1 more boots at most' "$SB/unit-3.out"; then
		ok "B3: a series rebooted by hand waits for its next boot through 2 other boots, and the 3rd ends it"
	else
		show <"$SB/unit-$sb_boots.out"
		not_ok "B3 by hand: status '$(sb_status)', left: $(sb_leftovers)"
	fi
}

# B4: a series boot that comes again after its run died (a crash or a
# power loss, then something kexec'd the same command line) ends it.
case_b4() {
	local cmdline unit_pid
	sb_setup systemd
	SMAPBENCH_SETTLE_SECONDS=20 sb_start 3
	cmdline=$(sb_handed_over)
	# Boot 2 starts its step, and the machine dies while it settles.
	sb_set_boot "$cmdline"
	sb_run_unit &
	unit_pid=$!
	sb_wait_for 'running boot 2 of 3'
	sb_kill_tree KILL "$(cat "$SB/unit.pid")"
	wait "$unit_pid"
	sb_boot "$cmdline"
	if grep -q '^failed at boot 2 of 3: boot 2 came up again' "$(sb_series)/status" &&
		[ "$(sb_handed_over)" = "$(sed -n 's/^original_cmdline=//p' "$(sb_series)/plan")" ]; then
		sb_boot
		if [ -z "$(sb_leftovers)" ]; then
			ok "B4: a step's boot that comes again after its run died ends the series (back to the original command line, nothing left)"
			return
		fi
	fi
	show <"$SB/unit-$sb_boots.out"
	not_ok "B4: a repeated step: status '$(sb_status)', left: $(sb_leftovers)"
}

# B5 (F4): the series directory is not there at boot: the series ends
# from the machine's state; the unit says RequiresMountsFor= it.
case_b5() {
	local dir
	sb_setup systemd
	sb_start 2
	dir=$(sb_series)
	if grep -q "^RequiresMountsFor=.*$dir" /etc/systemd/system/smapbench-series.service; then
		ok "B5 (F4): the unit has RequiresMountsFor= the series directory"
	else
		show </etc/systemd/system/smapbench-series.service
		not_ok "B5 (F4): no RequiresMountsFor= the series directory in the unit"
	fi
	mv "$dir" "$dir.away"
	sb_boot
	# Boot 2 could not run: back home, and that boot ends it.
	sb_boot
	mv "$dir.away" "$dir"
	if [ -z "$(sb_leftovers)" ] && grep -q 'is not there on this boot' "$SB/journal"; then
		ok "B5 (F4): without its directory at boot the series ends from the machine's state, and the unit is removed"
	else
		show <"$SB/unit-$sb_boots.out"
		not_ok "B5 (F4): series directory missing at boot: left: $(sb_leftovers)"
	fi
}

# F7 (R3): Ctrl-C on boot 1 ends the series there, with its run kept.
case_r3() {
	sb_setup systemd
	local pid waited=0 rc
	set -m
	SMAPBENCH_SETTLE_SECONDS=2 "$SB_TREE/run-bench.sh" --boots 2 --out "$SB_OUT" \
		--suite syscall --quick --repetitions 3 --min-time 0.05 --no-plots --no-install --yes \
		>"$SB/start.out" 2>&1 </dev/null &
	pid=$!
	set +m
	# Once a repetition of every benchmark has finished.
	until grep -q '^repetition 2 of 3' "$SB/start.out" || [ "$waited" -ge 1200 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	kill -INT -- -"$pid"
	wait "$pid"
	rc=$?
	if [ ! -e "$SB/handed-over" ] && [ -z "$(sb_leftovers)" ] && grep -q '^interrupted at boot 1 of 2 (SIGINT)' "$(sb_series)/status" &&
		[ -n "$(find "$(sb_series)/runs" -mindepth 1 -maxdepth 1 -type d -print -quit)" ]; then
		ok "R3 (F7): Ctrl-C on boot 1 ends the series there: no kexec, nothing left, the interrupted run kept (status $rc)"
	else
		show <"$SB/start.out"
		not_ok "R3 (F7): Ctrl-C on boot 1: handed over: $([ -e "$SB/handed-over" ] && echo yes || echo no), status '$(sb_status)', left: $(sb_leftovers)"
	fi
}

# R4: SIGTERM while the machine shuts down: nothing is started; the
# next boot (the boot loader's default) ends the series.
case_r4() {
	sb_setup systemd
	sb_start 2
	sb_set_boot "$(sb_handed_over)"
	local unit_pid
	sb_run_unit &
	unit_pid=$!
	sb_wait_for 'running boot 2 of 2'
	sleep 1
	touch "$SB/stopping"
	# systemd's stop of a unit (KillMode=mixed): SIGTERM to its main process
	kill -TERM "$(cat "$SB/unit.pid")"
	wait "$unit_pid"
	local handed=no
	[ -e "$SB/handed-over" ] && handed=yes
	rm -f "$SB/stopping"
	sb_boot "$(sed -n 's/^original_cmdline=//p' "$(sb_series)/plan")"
	if [ "$handed" = no ] && [ -z "$(sb_leftovers)" ] && grep -q '^interrupted at boot 2 of 2 (SIGTERM)' "$(sb_series)/status" &&
		[ "$(tail -n 1 "$(sb_series)/final.csv" | sed 's/.*,//')" = 1 ]; then
		ok "R4: SIGTERM during a shutdown starts nothing; the next boot, the default, ends the series: unit and state gone"
	else
		show <"$SB/unit-$sb_boots.out"
		not_ok "R4: SIGTERM in shutdown: status '$(sb_status)', left: $(sb_leftovers)"
	fi
}

# running PID: PID is a live process. A killed orphan stays a zombie
# until PID 1 reaps it, and kill -0 finds zombies too: an init that reaps
# late (seen: a microVM's) made a killed run look alive.
running() {
	local state
	state=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# R5 (F13): a run that hangs on boot 2, deaf to SIGTERM, is killed after
# the step's limit and the grace. The hang: the series' own copy of
# smapbench swapped, after boot 1, for one whose run ignores SIGTERM.
case_r5() {
	local dir start unit_pid
	sb_setup systemd
	SMAPBENCH_SERIES_STEP_SECONDS=20 sb_start 2
	dir=$(sb_series)
	mv "$dir/bin/build/smapbench" "$dir/bin/build/smapbench.real"
	cat >"$dir/bin/build/smapbench" <<'EOF'
#!/bin/bash
[ "$1" = run ] || exec "$0.real" "$@"
echo $$ >"$SB/hung.pid"
trap '' TERM INT
sleep 400
EOF
	chmod 755 "$dir/bin/build/smapbench"
	sb_set_boot "$(sb_handed_over)"
	start=$SECONDS
	sb_run_unit &
	unit_pid=$!
	# The unit's run may take the limit and the grace, and a margin.
	while kill -0 "$unit_pid" 2>/dev/null && [ $((SECONDS - start)) -lt 150 ]; do sleep 1; done
	if kill -0 "$unit_pid" 2>/dev/null; then
		not_ok "R5 (F13): boot 2's hung run still holds the unit after $((SECONDS - start)) s"
		sb_kill_tree KILL "$(cat "$SB/unit.pid")"
		[ -s "$SB/hung.pid" ] && sb_kill_tree KILL "$(cat "$SB/hung.pid")"
		return
	fi
	wait "$unit_pid"
	local took=$((SECONDS - start)) alive=no
	[ -s "$SB/hung.pid" ] && running "$(cat "$SB/hung.pid")" && alive=yes
	sb_boot
	if grep -q '^failed at boot 2 of 2: the run of boot 2 took longer than 20 s' "$dir/status" &&
		[ "$alive" = no ] && [ -z "$(sb_leftovers)" ]; then
		ok "R5 (F13): a run deaf to SIGTERM is killed at the step's limit and the grace (the unit took $took s), nothing of it left running; the series returned and ended"
	else
		show <"$SB/unit-2.out"
		not_ok "R5 (F13): a hung run: status '$(sb_status)' after $took s, still running: $alive, left: $(sb_leftovers)"
	fi
}

# R1: the run fails, or the boot has the wrong SMAP state: the series
# ends on the original command line.
case_r1() {
	sb_setup systemd
	SMAPBENCH_SERIES_FAIL_AT=2 sb_start 3
	sb_boot
	sb_boot
	if grep -q '^failed at boot 2 of 3' "$(sb_series)/status" && [ "$(sb_runs)" -eq 1 ] &&
		[ "$(tail -n 1 "$(sb_series)/final.csv" | sed 's/.*,//')" = 1 ] && [ -z "$(sb_leftovers)" ]; then
		ok "R1: a failed run on boot 2 ends the series on the original command line, the first run kept"
	else
		not_ok "R1: failed run: status '$(sb_status)', left: $(sb_leftovers)"
	fi
	mkdir -p "$SB_OUT/2"
	SB_OUT=$SB_OUT/2
	sb_start 2
	# The kernel ignored the parameter: SMAP stays on.
	sb_set_boot "$(sb_handed_over)"
	local flags
	flags=$(sed 's/smep/smep smap/' "$SB/cpuinfo")
	printf '%s\n' "$flags" >"$SB/cpuinfo"
	sb_run_unit
	sb_boot
	if grep -q "^failed at boot 2 of 2: boot 2 should have SMAP off, but this boot reports 'smap'" "$(sb_series)/status" &&
		[ -z "$(sb_leftovers)" ]; then
		ok "R1: a boot whose SMAP state is not the one asked for ends the series"
	else
		not_ok "R1: wrong state: status '$(sb_status)', left: $(sb_leftovers)"
	fi
}

# H3 (F8): without systemd, no kexec -e: the next boot is the user's.
case_h3() {
	sb_setup init
	sb_start 2
	if [ "$sb_start_rc" -eq 0 ] && ! grep -q -- ' -e' "$SB/kexec.log" && [ ! -e "$SB/loaded" ] &&
		grep -q 'boot this kernel once with this command line' "$SB/start.out" &&
		grep -q '^boot 2 of 2 pending' "$(sb_series)/status"; then
		ok "H3 (F8): without systemd the series never runs kexec -e: it prints the next command line and waits"
	else
		show <"$SB/start.out"
		show <"$SB/kexec.log"
		not_ok "H3 (F8): without systemd: kexec calls: $(tr '\n' ';' <"$SB/kexec.log")"
	fi
	# By hand, as it says: boot the command line, run --series-resume; the
	# last run ends the series on that boot, which says to reboot.
	local cmdline rc=0
	cmdline=$(sed -n '/boot this kernel once with this command line/{n;s/^  //p;}' "$SB/start.out")
	sb_boot "$cmdline"
	"$SB_TREE/run-bench.sh" --series-resume >"$SB/resume.out" 2>&1 </dev/null || rc=$?
	if [ "$rc" -eq 0 ] && [ "$(sb_rows)" -eq 2 ] && grep -q '^done: 2 boots' "$(sb_series)/status" &&
		grep -q 'THIS BOOT HAS SMAP OFF: reboot it' "$SB/resume.out" && [ -z "$(sb_leftovers)" ] &&
		! grep -q -- ' -e' "$SB/kexec.log"; then
		ok "H3 (F8): by hand, --series-resume on the printed command line runs boot 2 and ends the series, saying to reboot (SMAP is off until then)"
	else
		show <"$SB/resume.out"
		not_ok "H3 (F8): by hand: status $rc, '$(sb_status)', left: $(sb_leftovers)"
	fi
	# (F16) where Debian's kexec-tools would kexec every reboot into the
	# running command line, a series would keep SMAP off: refused.
	mkdir -p "$SB_OUT/2"
	"$SB_TREE/run-bench.sh" --boots-abort >/dev/null 2>&1 </dev/null
	mount -t tmpfs tmpfs /etc/init.d
	printf '#!/bin/sh\n' >/etc/init.d/kexec-load && chmod 755 /etc/init.d/kexec-load
	printf 'LOAD_KEXEC=true\nAPPEND=""\nUSE_GRUB_CONFIG=false\n' >/etc/default/kexec
	SB_OUT=$SB_OUT/2 sb_start 2
	if [ "$sb_start_rc" -eq 2 ] && grep -q 'LOAD_KEXEC=true' "$SB/start.out" && [ -z "$(sb_leftovers)" ]; then
		ok "H3 (F16): a sysvinit machine whose kexec-tools kexecs every reboot into the running command line is refused"
	else
		show <"$SB/start.out"
		not_ok "H3 (F16): LOAD_KEXEC=true on sysvinit: status $sb_start_rc"
	fi
}

# F16 (E1): a kexec-tools the series installs has its reboot-time kexec
# off, and is removed at the end; series directories are ignored by git.
case_e2() {
	sb_setup systemd
	# No kexec here: the real one hidden, the stand-in put aside.
	: >"$SB/no-kexec"
	[ -e /usr/sbin/kexec ] && mount --bind "$SB/no-kexec" /usr/sbin/kexec
	rm -f /usr/local/sbin/kexec
	touch "$SB/offer-kexec-tools"
	local during
	sb_without --no-install
	sb_start 2
	during=$(cat /etc/default/kexec 2>/dev/null)
	sb_boot
	sb_boot
	if [[ $during == *LOAD_KEXEC=false* ]] && grep -q 'purge.*kexec-tools' "$SB/apt.log" &&
		[ ! -e /etc/default/kexec ] && [ ! -e /usr/local/sbin/kexec ] && [ -z "$(sb_leftovers)" ] &&
		grep -q '^done' "$(sb_series)/status"; then
		ok "E1 (F16): the kexec-tools the series installed had LOAD_KEXEC=false, and is purged at the end"
	else
		show <"$SB/apt.log"
		not_ok "E1 (F16): kexec-tools: during '${during//$'\n'/ }', after: $(cat /etc/default/kexec 2>/dev/null), status '$(sb_status)'"
	fi
	if (cd "$SB_TREE" && git check-ignore -q data/series-host-20260101-000000/runs/x/results.csv &&
		git check-ignore -q data/vm-series-host-20260101-000000/report.md); then
		ok "E1 (F16): data/series-*/ and data/vm-series-*/ are in .gitignore (git clean -fd keeps them)"
	else
		not_ok "E1 (F16): series directories under data/ are not ignored by git"
	fi
}

# F14: the kernel image and initrd of each distribution's layout; a
# unified kernel image is refused by name; overrides; none refused.
case_k1() {
	sb_setup systemd
	local rel=$sb_rel out
	# name: layout set-up; command line; the image and initrd expected
	check_layout() {
		local name=$1 want_image=$2 want_initrd=$3
		out=$("$SB_TREE/scripts/boot-series.sh" kernel 2>&1)
		if [ "$(sed -n 's/^image=//p' <<<"$out")" = "$want_image" ] &&
			[ "$(sed -n 's/^initrd=//p' <<<"$out")" = "$want_initrd" ]; then
			ok "K (F14): $name: $want_image and $want_initrd"
		else
			show <<<"$out"
			not_ok "K (F14): $name: expected $want_image and $want_initrd"
		fi
	}
	reset_boot() {
		umount /boot /usr/lib/modules 2>/dev/null
		mount -t tmpfs tmpfs /boot && mount -t tmpfs tmpfs /usr/lib/modules
		rm -rf /run/booted-system
		sb_set_boot "$1"
	}
	reset_boot "BOOT_IMAGE=/boot/vmlinuz-$rel root=UUID=1 ro quiet"
	sb_image "/boot/vmlinuz-$rel" "$rel"; sb_initrd "/boot/initrd.img-$rel"
	check_layout "Debian and Ubuntu" "/boot/vmlinuz-$rel" "/boot/initrd.img-$rel"

	reset_boot "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-$rel root=/dev/mapper/rhel-root ro rd.lvm.lv=rhel/root"
	sb_image "/boot/vmlinuz-$rel" "$rel"; sb_initrd "/boot/initramfs-$rel.img"
	sb_image "/boot/vmlinuz-0-rescue-abc" "$rel-rescue"; sb_initrd "/boot/initramfs-0-rescue-abc.img"
	mkdir -p /boot/loader/entries
	printf 'title Fedora\nversion %s\nlinux /vmlinuz-%s\ninitrd /initramfs-%s.img $tuned_initrd\noptions root=/dev/mapper/rhel-root ro\n' \
		"$rel" "$rel" "$rel" >"/boot/loader/entries/abc-$rel.conf"
	check_layout "Fedora and RHEL (BLS entry, initramfs-\$rel.img)" "/boot/vmlinuz-$rel" "/boot/initramfs-$rel.img"

	reset_boot "BOOT_IMAGE=/vmlinuz-linux root=UUID=2 rw"
	sb_image /boot/vmlinuz-linux "$rel"; sb_initrd /boot/initramfs-linux.img
	sb_initrd /boot/initramfs-linux-fallback.img; sb_initrd /boot/intel-ucode.img
	check_layout "Arch (vmlinuz-linux through BOOT_IMAGE)" /boot/vmlinuz-linux /boot/initramfs-linux.img

	reset_boot "root=UUID=3 rw initrd=\\intel-ucode.img initrd=\\initramfs-linux.img"
	sb_image /boot/vmlinuz-linux "$rel"; sb_initrd /boot/initramfs-linux.img; sb_initrd /boot/intel-ucode.img
	mkdir -p /boot/loader/entries
	printf 'title Arch\nlinux /vmlinuz-linux\ninitrd /intel-ucode.img\ninitrd /initramfs-linux.img\noptions root=UUID=3 rw\n' \
		>/boot/loader/entries/arch.conf
	check_layout "Arch with systemd-boot (BLS entry, microcode left out)" /boot/vmlinuz-linux /boot/initramfs-linux.img

	reset_boot "root=UUID=4 ro"
	sb_image "/usr/lib/modules/$rel/vmlinuz" "$rel"; sb_initrd "/boot/initramfs-$rel.img"
	check_layout "/usr/lib/modules/\$rel/vmlinuz" "/usr/lib/modules/$rel/vmlinuz" "/boot/initramfs-$rel.img"

	reset_boot "init=/nix/store/abc-nixos-system-host/init loglevel=4"
	sb_image /run/booted-system/kernel "$rel"; sb_initrd /run/booted-system/initrd
	check_layout "NixOS (/run/booted-system)" /run/booted-system/kernel /run/booted-system/initrd

	reset_boot "root=UUID=5 ro"
	sb_uki "/boot/EFI/Linux/linux-$rel.efi" "$rel"
	out=$("$SB_TREE/scripts/boot-series.sh" kernel 2>&1)
	if [[ $out == *"unified kernel image, /boot/EFI/Linux/linux-$rel.efi"* ]]; then
		ok "K (F14): a unified kernel image that this kexec cannot load is refused, named"
	else
		show <<<"$out"
		not_ok "K (F14): a unified kernel image: not refused by name"
	fi

	reset_boot "root=UUID=6 ro"
	sb_image "$SB/image" "$rel"
	sb_initrd "$SB/initrd"
	out=$(SMAPBENCH_KEXEC_KERNEL=$SB/image SMAPBENCH_KEXEC_INITRD=$SB/initrd "$SB_TREE/scripts/boot-series.sh" kernel 2>&1)
	if [ "$(sed -n 's/^image=//p' <<<"$out")" = "$SB/image" ] && [ "$(sed -n 's/^initrd=//p' <<<"$out")" = "$SB/initrd" ]; then
		ok "K (F14): SMAPBENCH_KEXEC_KERNEL and SMAPBENCH_KEXEC_INITRD name both"
	else
		show <<<"$out"
		not_ok "K (F14): the overrides"
	fi
	out=$(SMAPBENCH_KEXEC_KERNEL=$SB/image SMAPBENCH_KEXEC_INITRD=none "$SB_TREE/scripts/boot-series.sh" kernel 2>&1)
	if [[ $out == *"SMAPBENCH_KEXEC_INITRD=none: refused"* ]]; then
		ok "K (F14): SMAPBENCH_KEXEC_INITRD=none is refused (an encrypted or LVM root needs its initramfs)"
	else
		show <<<"$out"
		not_ok "K (F14): SMAPBENCH_KEXEC_INITRD=none not refused"
	fi
	reset_boot "root=UUID=7 ro"
	sb_image "/boot/vmlinuz-$rel" "$rel"
	out=$("$SB_TREE/scripts/boot-series.sh" kernel 2>&1)
	if [[ $out == *"no initramfs of $rel found"*SMAPBENCH_KEXEC_INITRD=PATH* ]] && [[ $out != *none* ]]; then
		ok "K (F14): no initramfs found: refused, naming SMAPBENCH_KEXEC_INITRD, never 'none'"
	else
		show <<<"$out"
		not_ok "K (F14): a missing initramfs"
	fi
	# The start itself, on Fedora's layout: the series kexecs what it found.
	reset_boot "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-$rel root=/dev/mapper/rhel-root ro"
	sb_image "/boot/vmlinuz-$rel" "$rel"; sb_initrd "/boot/initramfs-$rel.img"
	sb_start 2
	if [ "$(sed -n 1p "$SB/handed-over" 2>/dev/null)" = "/boot/vmlinuz-$rel" ] &&
		[ "$(sed -n 2p "$SB/handed-over" 2>/dev/null)" = "/boot/initramfs-$rel.img" ]; then
		ok "K (F14): a series on Fedora's layout kexecs /boot/vmlinuz-\$rel with /boot/initramfs-\$rel.img"
	else
		show <"$SB/start.out"
		not_ok "K (F14): a series on Fedora's layout: $(head -n 2 "$SB/handed-over" 2>/dev/null | tr '\n' ' ')"
	fi
}

# P (planned series): --boots auto plans from this machine's earlier runs
# under --out (smapbench plan), before anything changes; without them it
# is refused, status 2, nothing written; a precision beyond --max-boots is
# refused, status 1; a planned series runs the plan's boots and
# repetitions; --boots N shows the plan for information.
case_p1() {
	sb_setup systemd
	local bin=$SB_TREE/build/smapbench args=() a skip=0 runs=() p plan rc boots reps dir got
	# the sandbox's arguments, less --repetitions: auto plans them
	for a in "${SB_RUN_ARGS[@]}"; do
		if [ "$skip" -eq 1 ]; then skip=0; continue; fi
		[ "$a" = --repetitions ] && { skip=1; continue; }
		args+=("$a")
	done
	SB_RUN_ARGS=("${args[@]}")
	# without them the series plans after its boot 3 and has 4 boots at
	# least (cases p2, p3): fewer allowed is refused
	sb_start auto --max-boots 3
	if [ "$sb_start_rc" -eq 2 ] && grep -q 'no earlier runs of this machine' "$SB/start.out" &&
		grep -q -- '4 boots at least (2 a state), more than --max-boots 3' "$SB/start.out" &&
		[ -z "$(ls -A "$SB_OUT")" ] && [ -z "$(sb_leftovers)" ]; then
		ok "P: --boots auto --max-boots 3 without earlier runs: status 2, a planned series has 4 boots at least, nothing written"
	else
		show <"$SB/start.out"
		not_ok "P: --boots auto --max-boots 3 without earlier runs: status $sb_start_rc, left: $(sb_leftovers) $(ls -A "$SB_OUT")"
	fi
	# Two real runs of this machine on two boots (the boot ID changes as
	# at a reboot), and one of another machine, which the plan leaves out.
	for a in 1 2; do
		cat /proc/sys/kernel/random/uuid >"$SB/boot_id"
		"$bin" run --suite syscall --quick --filter '^syscall/getppid$' --min-time 0.000001 \
			--out "$SB_OUT" --run-dir-file "$SB/run-$a" >"$SB/prior-$a.out" 2>&1 &&
			runs+=("$(cat "$SB/run-$a")")
	done
	cp -r "${runs[0]}" "$SB_OUT/other-machine"
	sed -i 's/^cpu_model,.*/cpu_model,another CPU/; s/^boot_id,.*/boot_id,another-boot/' "$SB_OUT/other-machine/context.csv"
	if [ ${#runs[@]} -ne 2 ]; then
		show <"$SB/prior-1.out"
		not_ok "P: two earlier runs (smapbench run)"
		return
	fi
	# A precision whose plan takes more than the 4 boots of a default
	# series and more than the 3 repetitions of --quick (the runs' own
	# spread decides which): the series must follow the plan, not its
	# defaults.
	for p in 10% 7% 5% 4% 3% 2% 1.5% 1% 0.7% 0.5% 0.3%; do
		plan=$("$bin" plan "${runs[@]}" --precision "$p" 2>&1) && rc=0 || rc=$?
		read -r boots reps <<<"$(sed -n 's/^plan: \([0-9]*\) boots .*, \([0-9]*\) repetitions an invocation.*/\1 \2/p' <<<"$plan")"
		[ "$rc" -eq 0 ] && [ "${boots:-0}" -gt 4 ] && [ "${reps:-0}" -gt 3 ] && break
		boots=""
	done
	if [ -z "$boots" ]; then
		skip "P: a planned series" "no precision from 10% to 0.3% plans 6 to 64 boots of more than 3 repetitions from these runs"
		return
	fi
	sb_start auto --precision "$p" --max-boots 4
	if [ "$sb_start_rc" -eq 1 ] && grep -q '^  NO PLAN within 4 boots' "$SB/start.out" &&
		grep -q "a series for $p needs $boots boots (about .*), more than the 4 allowed (--max-boots): no series started" "$SB/start.out" &&
		[ -z "$(sb_series)" ] && [ -z "$(sb_leftovers)" ]; then
		ok "P: --boots auto --precision $p --max-boots 4: the plan needs $boots boots, said, status 1, nothing started"
	else
		show <"$SB/start.out"
		not_ok "P: a precision beyond --max-boots 4: status $sb_start_rc, series '$(sb_series)'"
	fi
	sb_start auto --precision 0.001%
	if [ "$sb_start_rc" -eq 1 ] && grep -q 'needs more boots than --max-boots 64 allows (smapbench plan: not even' "$SB/start.out" &&
		[ -z "$(sb_series)" ] && [ -z "$(sb_leftovers)" ]; then
		ok "P: --boots auto --precision 0.001%: beyond any number of boots, said, status 1, nothing started"
	else
		show <"$SB/start.out"
		not_ok "P: --precision 0.001%: status $sb_start_rc, series '$(sb_series)'"
	fi
	local with_yes=("${SB_RUN_ARGS[@]}")
	sb_without --yes
	sb_start 4 --precision "$p"
	SB_RUN_ARGS=("${with_yes[@]}")
	if grep -q "a series planned for $p would take $boots boots, about " "$SB/start.out" &&
		[ "$sb_start_rc" -eq 2 ] && [ -z "$(sb_series)" ]; then
		ok "P: --boots 4 shows what a series planned for $p would take: $boots boots"
	else
		show <"$SB/start.out"
		not_ok "P: --boots 4 and the plan's figure: status $sb_start_rc"
	fi
	sb_start auto --precision "$p"
	dir=$(sb_series)
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "repetitions") c = i; next }
		$1 == "syscall/getppid" { print $c }' "$dir"/runs/*/results.csv 2>/dev/null)
	if [ "$sb_start_rc" -eq 0 ] && grep -q "^  plan: $boots boots" "$SB/start.out" &&
		grep -q "planned from 2 runs of this machine under $SB_OUT: $boots boots, $reps repetitions a run" "$SB/start.out" &&
		grep -qx "boots=$boots" "$dir/plan" && grep -q "^boot 2 of $boots pending" "$dir/status" &&
		[ "$got" = "$reps" ]; then
		ok "P: --boots auto --precision $p: the plan printed, $boots boots, boot 1's run of $reps repetitions"
	else
		show <"$SB/start.out"
		not_ok "P: --boots auto --precision $p: status $sb_start_rc, plan $boots x $reps, series '$(sb_status)', boot 1's repetitions '$got'"
	fi
}

# P2, P3, P4 (a planned series without earlier runs): --boots auto with
# no runs of this machine starts 4 boots and plans after boot 3 from its
# own boots 1 and 3. The plan is made known through the runs' data: boot
# 3's samples are boot 1's, each 1.25 times as long, so sigma_boot is
# log(1.25) / sqrt(2), 15.8%, whatever the host's noise; for +-50% one
# boot a state gives 4.30 x 15.8% = 68%, too wide, and 3 give 2.78 x
# sqrt(2/3) x 15.8% = 36% (t at 2 (m - 1) degrees of freedom): the plan
# is 6 boots, and 3 repetitions (the least; the runs have 5).
plan_first_args() {
	local a skip=0 args=()
	for a in "${SB_RUN_ARGS[@]}"; do
		if [ "$skip" -eq 1 ]; then skip=0; continue; fi
		[ "$a" = --repetitions ] && { skip=1; continue; }
		[ "$a" = --quick ] && continue
		args+=("$a")
	done
	SB_RUN_ARGS=("${args[@]}")
}
# plan_boot3 DIR: boot 3, its run's samples made boot 1's times 1.25.
plan_boot3() {
	local dir=$1
	mv "$dir/bin/run-bench.sh" "$dir/bin/run-bench.real.sh"
	cat >"$dir/bin/run-bench.sh" <<'WRAPPER'
#!/bin/bash
# the series' run, then its samples boot 1's, 1.25 times as long
series=$(cd "$(dirname "$0")/.." && pwd)
"$series/bin/run-bench.real.sh" "$@" || exit
run=$(cat "$series/run-dir")
first=$series/$(sed -n '2s/.*,//p' "$series/boots.csv")
awk -F, -v OFS=, 'NR > 1 { $5 = $5 * 1.25 } 1' "$first/samples.csv" >"$run/samples.csv"
WRAPPER
	chmod 755 "$dir/bin/run-bench.sh"
	sb_boot
	mv -f "$dir/bin/run-bench.real.sh" "$dir/bin/run-bench.sh"
}
# plan_reps DIR BOOT: the repetitions of boot BOOT's run.
plan_reps() {
	local run
	run=$1/$(awk -F, -v b="$2" '$1 == b { print $8 }' "$1/boots.csv")
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "repetitions") c = i; next }
		$1 == "syscall/getppid" { print $c }' "$run/results.csv" 2>/dev/null
}

# P2: no earlier runs: 4 boots, then the plan's 6, its repetitions from
# boot 4 on.
case_p2() {
	sb_setup systemd
	plan_first_args
	local dir status problems expect reps4 reps3 runs=()
	sb_start auto --precision 50%
	dir=$(sb_series)
	if [ "$sb_start_rc" -eq 0 ] && grep -q 'no earlier runs of this machine .*starts with 4 boots' "$SB/start.out" &&
		grep -qx 'boots=4' "$dir/plan" && grep -qx 'plan_after=3' "$dir/plan" &&
		grep -q '^boot 2 of 4 pending' "$dir/status"; then
		ok "P2: --boots auto without earlier runs starts a series of 4 boots, to plan after boot 3"
	else
		show <"$SB/start.out"
		not_ok "P2: --boots auto without earlier runs: status $sb_start_rc, series '$(sb_status)'"
		return
	fi
	sb_boot
	plan_boot3 "$dir"
	status=$(sb_status)
	mapfile -t runs < <(awk -F, -v d="$dir" 'NR > 1 && ($1 == 1 || $1 == 3) { print d "/" $8 }' "$dir/boots.csv")
	# the plan of the series' rows (its --filter) and of the costs its
	# phases.csv measured: the file's plan row came after, in no cost
	expect=$("$SB_TREE/build/smapbench" plan "${runs[@]}" --precision 50% \
		--rows '^syscall/getppid$' --phases "$dir/phases.csv" 2>&1 | grep '^plan: ')
	"$SB_TREE/run-bench.sh" --series-status >"$SB/status.out" 2>&1 </dev/null
	if [[ $expect == "plan: 6 boots (3 a state), 1 invocation a boot, 3 repetitions an invocation:"* ]] &&
		grep -qxF "$expect" "$dir/planned.txt" && grep -qF "    $expect" "$dir/log" &&
		grep -qx 'boots=6' "$dir/plan" && grep -qx 'boots=6' /var/lib/smapbench/boot-series/plan &&
		grep -qx 'states=smap nosmap smap nosmap smap nosmap' "$dir/plan" &&
		grep -q '^planned=planned after boot 3 for +-50%: 6 boots, 3 repetitions a run from boot 4 on' "$dir/plan" &&
		[ "$(tail -n 2 "$dir/args" | tr '\n' ' ')" = "--repetitions 3 " ] &&
		[[ $status == "boot 4 of 6 pending"* ]] &&
		grep -q -- '--boots auto: planned after boot 3 for +-50%: 6 boots' "$SB/status.out"; then
		ok "P2: after boot 3 the plan from boots 1 and 3 ($expect) extends the series to 6 boots of 3 repetitions, in the plan, args, log and --series-status"
	else
		show <"$dir/planned.txt"
		show <"$SB/status.out"
		not_ok "P2: the plan after boot 3: expected '$expect', plan '$(grep '^boots=\|^planned=' "$dir/plan" | tr '\n' ' ')', status '$status'"
	fi
	# its rows: the series' --filter's, not the headline rows; its costs:
	# boots 1 to 3 of phases.csv, a boot's the mean before its run
	local boot
	boot=$(awk -F, '$1 ~ /^[123]$/ && $2 ~ /^(start|handover|boot|check|settle)$/ { s += $4 }
		END { printf "%.1f s", s / 3 }' "$dir/phases.csv")
	if grep -q "^smapbench plan after boot 3, .* --rows '^syscall/getppid\$' --phases phases.csv:" "$dir/planned.txt" &&
		grep -q '^  sigma_rep of the 1 chosen rows:' "$dir/planned.txt" &&
		grep -qx "  a boot         $boot *measured: phases.csv, 3 boots (2 after a reboot): start or reboot, check, settle" "$dir/planned.txt" &&
		grep -q '^  an invocation  .*measured: phases.csv, 3 runs of ' "$dir/planned.txt" &&
		grep -q '^  the end        .*assumed (phases.csv has no end)' "$dir/planned.txt"; then
		ok "P2: the plan holds for the series' rows (--rows of its --filter) at the costs its phases.csv measured: a boot $boot, as the file's boots 1 to 3 give"
	else
		show <"$dir/planned.txt"
		not_ok "P2: the plan's rows and costs: not the series' --filter, or not phases.csv's (a boot $boot by the file)"
	fi
	sb_boot
	sb_boot
	sb_boot
	sb_boot
	reps3=$(plan_reps "$dir" 3) reps4=$(plan_reps "$dir" 4)
	problems=$(phases_problems "$dir" 6)
	if grep -q '^done: 6 boots; planned after boot 3' "$dir/status" && [ "$(sb_rows)" -eq 6 ] &&
		[ "$reps3" = 5 ] && [ "$reps4" = 3 ] && [ "$(plan_reps "$dir" 6)" = 3 ] &&
		grep -q '^## The plan' "$dir/report.md" && grep -q 'planned after boot 3 for +-50%: 6 boots' "$dir/report.md" &&
		[ -n "$(phase_seconds "$dir" 3 plan)" ] && [ -z "$problems" ] &&
		[ "$(tail -n 1 "$dir/final.csv" | sed 's/.*,//')" = 1 ] && [ -z "$(sb_leftovers)" ]; then
		ok "P2: the series ran its 6 boots (boot 3's run of 5 repetitions, boots 4 to 6 of 3), report.md has the plan, phases.csv its $(phase_seconds "$dir" 3 plan) s, and it ended on the original command line with nothing left"
	else
		show <<<"$problems"
		show <"$SB/unit-$sb_boots.out"
		not_ok "P2: the planned series: status '$(sb_status)', $(sb_rows) rows, repetitions $reps3 then $reps4, left: $(sb_leftovers)"
	fi
}

# P3: the precision needs more boots than --max-boots allows: the
# series keeps its 4 boots and says what it would need.
case_p3() {
	sb_setup systemd
	plan_first_args
	local dir rc=0 said
	# on a terminal, the question says the boots are decided after boot 3
	sb_without --yes
	printf 'n\n' | SMAPBENCH_SETTLE_SECONDS=2 script -qec \
		"$(printf '%q ' "$SB_TREE/run-bench.sh" --boots auto --precision 50% --max-boots 5 --out "$SB_OUT" "${SB_RUN_ARGS[@]}")" \
		/dev/null >"$SB/ask.out" 2>&1 || rc=$?
	if grep -q 'a boot series of 4 to 5 boots' "$SB/ask.out" && grep -q 'REBOOTS THIS MACHINE 4 to 5 times' "$SB/ask.out" &&
		grep -q 'how many boots is decided after boot 3' "$SB/ask.out" &&
		grep -q 'at least 4, at most 5 (--max-boots);' "$SB/ask.out" &&
		grep -q 'in all about 16 to 20 minutes' "$SB/ask.out" && grep -q 'no series started' "$SB/ask.out" &&
		[ -z "$(sb_leftovers)" ] && [ -z "$(sb_series)" ]; then
		ok "P3: the question says the boots are decided after boot 3, at least 4 and at most --max-boots, and the time that spans"
	else
		show <"$SB/ask.out"
		not_ok "P3: the question of --boots auto without earlier runs (status $rc)"
	fi
	SB_RUN_ARGS+=(--yes)
	sb_start auto --precision 50% --max-boots 5
	dir=$(sb_series)
	sb_boot
	plan_boot3 "$dir"
	said="not planned after boot 3: +-50% needs 6 boots (about .*), more than the 5 allowed (--max-boots); the series keeps its 4 boots"
	sb_boot
	sb_boot
	if [ "$sb_start_rc" -eq 0 ] && grep -q "^done: 4 boots; $said" "$dir/status" &&
		grep -q "^planned=$said" "$dir/plan" && grep -q "$said" "$dir/log" && grep -q "$said" "$dir/report.md" &&
		grep -q '^  +-50.00% needs 6 boots' "$dir/planned.txt" && grep -qx 'boots=4' "$dir/plan" &&
		[ "$(sb_rows)" -eq 4 ] && [ "$(plan_reps "$dir" 4)" = 5 ] && ! grep -q -- --repetitions "$dir/args" &&
		[ "$(tail -n 1 "$dir/final.csv" | sed 's/.*,//')" = 1 ] && [ -z "$(sb_leftovers)" ]; then
		ok "P3: +-50% needs 6 boots, more than --max-boots 5: the series keeps its 4, says so in the log, status and report.md, and ends on the original command line"
	else
		show <"$dir/planned.txt"
		show <"$SB/unit-$sb_boots.out"
		not_ok "P3: beyond --max-boots: status '$(sb_status)', $(sb_rows) rows, plan '$(grep '^boots=\|^planned=' "$dir/plan" | tr '\n' ' ')', left: $(sb_leftovers)"
	fi
}

# P4: a plan step that fails (boot 1's run lost its boot_id: smapbench
# plan refuses it) ends the series after boot 3, the normal way.
case_p4() {
	sb_setup systemd
	plan_first_args
	local dir first handed
	sb_start auto --precision 50%
	dir=$(sb_series)
	sb_boot
	first=$dir/$(sed -n '2s/.*,//p' "$dir/boots.csv")
	sed -i '/^boot_id,/d' "$first/context.csv"
	sb_boot
	handed=$(sb_handed_over)
	sb_boot
	if grep -q '^done: 3 boots; the plan after boot 3 failed: smapbench plan: ' "$dir/status" &&
		grep -q 'the plan after boot 3 failed: .*the series ends after boot 3' "$dir/log" &&
		grep -q 'the plan after boot 3 failed' "$dir/report.md" && [ "$(sb_rows)" -eq 3 ] &&
		[ "$handed" = "$(sed -n 's/^original_cmdline=//p' "$dir/plan")" ] &&
		[ "$(tail -n 1 "$dir/final.csv" | sed 's/.*,//')" = 1 ] && [ -z "$(sb_leftovers)" ]; then
		ok "P4: a plan step that fails ends the series after boot 3: its comparisons, the return to the original command line, nothing left"
	else
		show <"$SB/unit-$sb_boots.out"
		not_ok "P4: a failed plan step: status '$(sb_status)', $(sb_rows) rows, handed over '$handed', left: $(sb_leftovers)"
	fi
}

# P5: a series of a command plans for the command's row alone: boot 3's
# run lost that row (its results.csv and samples.csv without it), so the
# runs hold no row the plan may use: the plan step fails, saying which
# rows it wanted, and the series ends after boot 3 (P1), though the runs
# still have the suites' rows the default would have taken.
case_p5() {
	sb_setup systemd
	plan_first_args
	SB_RUN_ARGS+=(--command 'true p5')
	local dir row
	row=$("$SB_TREE/build/smapbench" run --list --suite none --command 'true p5' | awk '{ print $1 }')
	sb_start auto --precision 50%
	dir=$(sb_series)
	sb_boot
	mv "$dir/bin/run-bench.sh" "$dir/bin/run-bench.real.sh"
	cat >"$dir/bin/run-bench.sh" <<'WRAPPER'
#!/bin/bash
# the series' run, then its command's row gone
series=$(cd "$(dirname "$0")/.." && pwd)
"$series/bin/run-bench.real.sh" "$@" || exit
run=$(cat "$series/run-dir")
sed -i '/^command\//d' "$run/results.csv" "$run/samples.csv"
WRAPPER
	chmod 755 "$dir/bin/run-bench.sh"
	sb_boot
	mv -f "$dir/bin/run-bench.real.sh" "$dir/bin/run-bench.sh"
	sb_boot
	if [ -n "$row" ] && grep -q "^done: 3 boots; the plan after boot 3 failed: smapbench plan: no row matches --rows '^${row//./\\.}\\\$'" "$dir/status" &&
		grep -q "^smapbench plan after boot 3, .* --rows '^${row//./\\.}\\\$' --phases phases.csv:" "$dir/planned.txt" &&
		grep -q '^syscall/getppid,' "$dir/runs/"*/results.csv && [ "$(sb_rows)" -eq 3 ] &&
		[ "$(tail -n 1 "$dir/final.csv" | sed 's/.*,//')" = 1 ] && [ -z "$(sb_leftovers)" ]; then
		ok "P5: a --command series plans for $row alone; runs without it fail the plan step, and the series ends after boot 3"
	else
		show <"$dir/planned.txt"
		not_ok "P5: a --command series' plan without its row: status '$(sb_status)', $(sb_rows) rows, left: $(sb_leftovers)"
	fi
}

# ------------------------------------------------------------ the stage
if [ "${1:-}" = --case ]; then
	# shellcheck source=tests/series/sandbox.sh
	. tests/series/sandbox.sh
	# shellcheck source=tests/series/phases.sh
	. tests/series/phases.sh
	"case_$2"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	skip "boot series sandbox" "needs root (mount namespaces)"
	exit 0
fi
for tool in unshare flock script timeout git; do
	need_command "$tool" "scripts/deps.sh install test"
done
tree=$(cd "${BOOT_SERIES_TREE:-$top}" && pwd)
if [ ! -x "$tree/build/smapbench" ]; then
	not_ok "boot series sandbox: $tree/build/smapbench is not built (make)"
	exit 1
fi
build=${BUILD:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
work=$build/series-sandbox
rm -rf "$work"
mkdir -p "$work/data"
# The longest first: r5 waits out a run's limit and its grace.
cases=${SERIES_SANDBOX_CASES:-r5 p2 h1 r1 e1 p1 p3 p4 p5 b9 b4 b6 e2 r3 k1 r2 b3m r4 s2 b8 b3 h3 b5 s4 b7 s1}
jobs=${SERIES_SANDBOX_JOBS:-3}
stage_start=$SECONDS
for c in $cases; do
	while [ "$(jobs -pr | grep -c .)" -ge "$jobs" ]; do wait -n; done
	(
		start=$SECONDS
		SB_TREE=$tree SB_WORK=$work SB_DATA=$work/data \
			timeout 300 unshare --mount --propagation private "$0" --case "$c" >"$work/$c.out" 2>&1
		echo "# case $c took $((SECONDS - start)) s" >>"$work/$c.out"
	) &
done
wait
for c in $cases; do
	relay <"$work/$c.out"
	grep -Eq '^(not )?ok - ' "$work/$c.out" || not_ok "case $c printed no result"
done
echo "# $(wc -w <<<"$cases") cases, $jobs at a time, in $((SECONDS - stage_start)) s"
rm -rf "$work"
stage_exit
