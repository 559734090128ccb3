#!/bin/bash
# The boot series of `run-bench.sh --boots N` (docs/boot-series.md): the
# suites on N boots of the running kernel, SMAP on and off in turn, one
# command, without touching the boot loader.
#
#   scripts/boot-series.sh start OUT N [RUN-BENCH-ARGUMENT...]
#   scripts/boot-series.sh resume OUT   continue the pending series, if
#                                       this boot is its next step
#   scripts/boot-series.sh status OUT
#   scripts/boot-series.sh abort OUT
#   scripts/boot-series.sh due OUT      exit 0 when this boot is the
#                                       pending series' next step
#   scripts/boot-series.sh unit OUT     print the systemd unit a series
#                                       installs
#
# run-bench.sh calls it (start, resume, status, abort); it calls
# run-bench.sh back for each boot's run (--series-step). A series lives in
# OUT/series-<id>/: plan (key=value), args (run-bench.sh's arguments, one
# a line), boots.csv (one row a boot), status (one line), log, runs/ (the
# run directories) and, at the end, compare-*/ and report.md. Every file
# is replaced by a rename, never written in place. OUT/.series-active
# names the pending series: one at a time.
#
# Between boots: kexec into the same kernel image and initrd with the
# original command line, plus the SMAP-off parameter for the SMAP-off
# boots, plus smapbench.series=<id>; `systemctl kexec` where systemd runs
# (services stop cleanly), else `kexec -e`. The next boot continues the
# series from a systemd unit installed for the series' duration (where
# systemd runs), or from whatever runs run-bench.sh at boot (a test
# guest's init), or by hand. After the last run: the comparison, and one
# more kexec into the original command line. Any failure ends the series
# the same way, keeping every run that finished.
#
# Environment: SMAPBENCH_KEXEC_INITRD (the initrd to boot, default
# /boot/initrd.img-<release>; "none" for none), SMAPBENCH_SETTLE_SECONDS
# (longest wait for a quiet system, default 120),
# SMAPBENCH_SERIES_STEP_SECONDS (longest run, default 7200),
# SMAPBENCH_NO_KEXEC (set: never kexec, say how to boot by hand),
# SMAPBENCH_SERIES_FAIL_AT=K (tests: boot K's run fails).
#
# Exit status: 0 done or a boot pending; 1 a failure (the series ended);
# 2 bad usage or a series that cannot start here (the reason printed).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
prog="run-bench.sh"
unit_name=smapbench-series.service
unit_path=/etc/systemd/system/$unit_name

say() { printf '%s: %s\n' "$prog" "$*"; }
refuse() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 2
}

mode=${1:-}
out=${2:-}
[ -n "$mode" ] && [ -n "$out" ] || refuse "usage: $0 start|resume|status|abort OUT ..."
shift 2
active=$out/.series-active

# ------------------------------------------------------------ state files
# put FILE: stdin into FILE through a rename in the same directory.
put() {
	local tmp
	tmp=$(mktemp "$1.XXXXXX") || return 1
	cat >"$tmp" && mv -f "$tmp" "$1"
}
plan_get() { sed -n "s/^$1=//p" "$series/plan" | head -n 1; }
set_status() {
	printf '%s\n' "$*" | put "$series/status"
	note "$*"
}
# note TEXT: to the series' log, the journal and the terminal.
note() {
	printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >>"$series/log"
	command -v logger >/dev/null && logger -t smapbench-series -- "$*" 2>/dev/null
	say "series $id: $*"
}
boots_done() {
	[ -f "$series/boots.csv" ] || { echo 0; return; }
	tail -n +2 "$series/boots.csv" | grep -c .
}

# ------------------------------------------------------------ this boot
current_cmdline() { cat /proc/cmdline; }
boot_id() { cat /proc/sys/kernel/random/boot_id; }
# The state the program reports (smap or nosmap): system/smap_context.c.
smap_state() {
	"$here/build/smapbench" info --format=kv 2>/dev/null | sed -n 's/^smap_state=//p'
}
# The parameter that turns SMAP off on this kernel: clearcpuid=smap from
# 5.19 (nosmap is ignored there), nosmap before.
off_param_for() {
	local major=${1%%.*} minor=${1#*.}
	minor=${minor%%[!0-9]*}
	if [ "$major" -gt 5 ] || { [ "$major" -eq 5 ] && [ "$minor" -ge 19 ]; }; then
		echo clearcpuid=smap
	else
		echo nosmap
	fi
}
# A command line without the series' own words and the SMAP-off ones.
strip_words() {
	local word kept=()
	for word in $1; do
		case $word in
		clearcpuid=smap | nosmap | smapbench.series=*) ;;
		*) kept+=("$word") ;;
		esac
	done
	echo "${kept[*]}"
}
# cmdline_for STATE: the original command line, SMAP on or off.
cmdline_for() {
	local base
	base=$(strip_words "$(plan_get original_cmdline)")
	if [ "$1" = nosmap ]; then
		echo "$base $(plan_get off_param) smapbench.series=$id"
	else
		echo "$base smapbench.series=$id"
	fi
}
series_param() { tr ' ' '\n' </proc/cmdline | sed -n 's/^smapbench\.series=//p' | head -n 1; }

# ------------------------------------------------------------ rebooting
have_systemd() { [ -d /run/systemd/system ]; }
# Why kexec cannot be used here, or nothing.
kexec_unusable() {
	if [ -n "${SMAPBENCH_NO_KEXEC:-}" ]; then
		echo "kexec is not to be used (SMAPBENCH_NO_KEXEC is set)"
	elif ! command -v kexec >/dev/null; then
		echo "kexec is not installed (apt-get install kexec-tools)"
	elif [ "$(cat /proc/sys/kernel/kexec_load_disabled 2>/dev/null)" = 1 ]; then
		echo "kexec is disabled on this boot (kernel.kexec_load_disabled=1)"
	elif ! [ -r "$(plan_get kernel_image)" ]; then
		echo "no kernel image at $(plan_get kernel_image)"
	fi
}
# The unit that continues the series on the next boot: installed while a
# series is pending, removed at its end. It keys on the series' marker,
# not on the command line, so that it also records the last boot, which
# has the original command line.
unit_text() {
	cat <<EOF
[Unit]
Description=smapbench boot series: the next step of the series pending in $out
ConditionPathExists=$active
After=multi-user.target
Wants=multi-user.target

[Service]
Type=oneshot
ExecStart="$here/run-bench.sh" --series-resume --out "$out"
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
EOF
}
install_unit() {
	have_systemd || return 0
	unit_text | put "$unit_path" || return 1
	systemctl daemon-reload && systemctl enable "$unit_name" >/dev/null 2>&1
}
remove_unit() {
	[ -f "$unit_path" ] || return 0
	systemctl disable "$unit_name" >/dev/null 2>&1
	rm -f "$unit_path"
	systemctl daemon-reload 2>/dev/null
	return 0
}
# reboot_into CMDLINE WHAT: kexec into this kernel with CMDLINE, or say
# how to boot it by hand. Returns only when it could not reboot.
reboot_into() {
	local cmdline=$1 what=$2 why image initrd load=()
	why=$(kexec_unusable)
	image=$(plan_get kernel_image)
	initrd=$(plan_get initrd)
	if [ -z "$why" ]; then
		[ -n "$initrd" ] && load=(--initrd="$initrd")
		# kexec_file_load first: it works under lockdown with a signed
		# kernel; the classic kexec_load where that is refused.
		if ! kexec -s -l "$image" "${load[@]}" --append="$cmdline" >>"$series/log" 2>&1 &&
			! kexec -l "$image" "${load[@]}" --append="$cmdline" >>"$series/log" 2>&1; then
			why="kexec refused to load $image (log: $series/log)"
		fi
	fi
	if [ -n "$why" ]; then
		note "cannot reboot by itself: $why"
		say "to go on, boot this kernel once with this command line ($what):"
		printf '  %s\n' "$cmdline"
		say "e.g. press 'e' at the GRUB menu, replace the linux line's parameters, Ctrl-X; the boot loader's configuration stays as it is"
		if have_systemd; then
			say "the series continues by itself on that boot ($unit_name)"
		else
			say "then run the same command again as root: sudo ./$prog --series-resume --out $out"
		fi
		return 1
	fi
	note "rebooting with kexec: $what"
	sync
	if have_systemd && [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ]; then
		systemctl kexec
		exit 0
	fi
	kexec -e
	note "kexec -e returned: the reboot did not happen"
	return 1
}

# ------------------------------------------------------------ the steps
# fail WHY: the series ends; back to the original command line.
fail() {
	set_status "failed at boot $(($(boots_done) + 1)) of $(plan_get boots): $*"
	finish_or_return failed
	exit 1
}
# finish_or_return HOW: the end of a series (HOW: done or failed). When
# this boot has the original command line, the series ends here;
# otherwise one more kexec, and the next boot ends it.
finish_or_return() {
	local original
	original=$(plan_get original_cmdline)
	if [ "$(current_cmdline)" = "$original" ]; then
		end_series "$1"
		return
	fi
	printf 'returning %s\n' "$1" | put "$series/phase"
	reboot_into "$original" "the original command line" && return
	# No reboot: the machine stays on this boot; the series ends anyway.
	end_series "$1"
}
end_series() {
	remove_unit
	rm -f "$active" "$series/phase"
	printf '%s,%s,%s\n' "$(boot_id)" "$(current_cmdline | tr ',' ' ')" \
		"$([ "$(current_cmdline)" = "$(plan_get original_cmdline)" ] && echo 1 || echo 0)" |
		cat "$series/final.csv.head" - | put "$series/final.csv"
	rm -f "$series/final.csv.head"
	if [ "$1" = "done" ]; then
		set_status "done: $(plan_get boots) boots; report.md has the comparisons"
	else
		note "ended; the runs that finished stay in $series/runs"
	fi
}

# Waits until the machine is up and quiet before a run.
settle() {
	local limit=${SMAPBENCH_SETTLE_SECONDS:-120} start=$SECONDS load
	if have_systemd && [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ]; then
		timeout "$limit" systemctl is-system-running --wait >/dev/null 2>&1
	fi
	while [ $((SECONDS - start)) -lt "$limit" ]; do
		load=$(cut -d' ' -f1 /proc/loadavg)
		awk -v l="$load" 'BEGIN { exit !(l < 1.0) }' && break
		sleep 5
	done
}

# step: this boot's run, then the next boot or the end.
step() {
	local k n want got run_dir rc limit next
	n=$(plan_get boots)
	k=$(($(boots_done) + 1))
	want=$(plan_get states | cut -d' ' -f"$k")
	set_status "running boot $k of $n (SMAP $([ "$want" = smap ] && echo on || echo off))"
	got=$(smap_state)
	[ "$got" = "$want" ] ||
		fail "boot $k should have SMAP $want, but this boot reports '${got:-nothing}' (command line: $(current_cmdline))"
	settle
	limit=${SMAPBENCH_SERIES_STEP_SECONDS:-7200}
	if [ "${SMAPBENCH_SERIES_FAIL_AT:-0}" = "$k" ]; then
		fail "the run of boot $k failed (injected: SMAPBENCH_SERIES_FAIL_AT=$k)"
	fi
	mapfile -t args <"$series/args"
	rm -f "$series/run-dir"
	timeout --signal=TERM "$limit" "$here/run-bench.sh" --series-step --no-install \
		--out "$series/runs" --run-dir-file "$series/run-dir" "${args[@]}"
	rc=$?
	run_dir=$(cat "$series/run-dir" 2>/dev/null)
	rm -f "$series/run-dir"
	[ "$rc" -eq 124 ] && fail "the run of boot $k took longer than $limit s"
	[ "$rc" -eq 0 ] && [ -n "$run_dir" ] && [ -d "$run_dir" ] ||
		fail "the run of boot $k failed with status $rc"
	{
		cat "$series/boots.csv"
		printf '%s,%s,%s,%s,%s,%s,%s\n' "$k" "$want" "$got" "$(boot_id)" \
			"$(cut -d' ' -f1 /proc/uptime)" "$(cut -d' ' -f1 /proc/loadavg)" \
			"runs/${run_dir##*/}"
	} | put "$series/boots.csv"
	note "boot $k of $n done: $run_dir"
	if [ "$k" -lt "$n" ]; then
		next=$(plan_get states | cut -d' ' -f$((k + 1)))
		set_status "boot $((k + 1)) of $n pending (SMAP $([ "$next" = smap ] && echo on || echo off))"
		reboot_into "$(cmdline_for "$next")" "boot $((k + 1)) of $n, SMAP $([ "$next" = smap ] && echo on || echo off)"
		exit 0
	fi
	report
	finish_or_return "done"
	exit 0
}

# compare_into OFF ON NAME WHAT: smapbench report OFF ON into
# $series/NAME, and report.md's line for it, WHAT it compares (or that the
# comparison failed).
compare_into() {
	if "$here/build/smapbench" report "$1" "$2" --no-plots \
		--out "$series/$3" >>"$series/log" 2>&1; then
		echo "- $4: [$3]($3/report.md)" >>"$series/report.md.tmp"
	else
		echo "- $4: the comparison failed (log)" >>"$series/report.md.tmp"
		note "the comparison of $4 failed (log: $series/log)"
	fi
}

# The comparisons of the series: each SMAP-off run against the SMAP-on
# run of the boot before or after it, and report.md.
report() {
	local rows on off pair=0
	set_status "comparing the runs of $(plan_get boots) boots"
	mapfile -t rows < <(tail -n +2 "$series/boots.csv")
	{
		echo "# Boot series $id"
		echo
		echo "$(plan_get boots) boots of $(plan_get release) on $(plan_get host), SMAP on and off in turn"
		echo "($(plan_get off_param) for off), started $(plan_get started)."
		echo
		echo "| boot | SMAP | boot_id | uptime (s) | load | run |"
		echo "| --- | --- | --- | --- | --- | --- |"
		local row
		for row in "${rows[@]}"; do
			IFS=, read -r k want got bid up load run <<<"$row"
			echo "| $k | $got | $bid | $up | $load | [$run]($run/) |"
		done
		echo
		echo "## Comparisons"
		echo
	} >"$series/report.md.tmp"
	# All boots at once: each side's runs, one a boot, so that the
	# comparison estimates what two boots differ by from the series itself.
	local offs="" ons="" count_off=0 count_on=0 r s
	for row in "${rows[@]}"; do
		IFS=, read -r _ _ s _ _ _ r <<<"$row"
		if [ "$s" = smap ]; then
			ons+=",$series/$r" count_on=$((count_on + 1))
		else
			offs+=",$series/$r" count_off=$((count_off + 1))
		fi
	done
	if [ "$count_on" -gt 0 ] && [ "$count_off" -gt 0 ]; then
		compare_into "${offs#,}" "${ons#,}" compare-all \
			"all boots, the $count_off SMAP-off runs against the $count_on SMAP-on runs, each boot a unit"
	fi
	for ((i = 0; i + 1 < ${#rows[@]}; i += 2)); do
		IFS=, read -r _ _ s1 _ _ _ r1 <<<"${rows[i]}"
		IFS=, read -r _ _ _ _ _ _ r2 <<<"${rows[i + 1]}"
		if [ "$s1" = smap ]; then on=$r1 off=$r2; else on=$r2 off=$r1; fi
		pair=$((pair + 1))
		compare_into "$series/$off" "$series/$on" "compare-$pair" \
			"boots $((i + 1)) and $((i + 2)), $off against $on"
	done
	mv -f "$series/report.md.tmp" "$series/report.md"
}

# ------------------------------------------------------------ commands
case $mode in
start)
	n=${1:?start needs a number of boots}
	shift
	if [ -f "$active" ]; then
		refuse "a boot series is pending: $(cat "$active") ($prog --series-status; $prog --boots-abort ends it)"
	fi
	[ -x "$here/build/smapbench" ] || refuse "build smapbench first (make)"
	release=$(uname -r)
	got=$(smap_state)
	case $got in
	smap) states=(smap nosmap) ;;
	nosmap)
		"$here/build/smapbench" info --format=kv 2>/dev/null | grep -q '^smap_cpuid=1' ||
			refuse "this CPU has no SMAP: there is nothing to turn off and on"
		states=(nosmap smap) ;;
	*) refuse "cannot tell this boot's SMAP state ($here/build/smapbench info)" ;;
	esac
	image=/boot/vmlinuz-$release
	[ -r "$image" ] || refuse "no kernel image for the running kernel at $image: kexec needs it"
	initrd=${SMAPBENCH_KEXEC_INITRD:-/boot/initrd.img-$release}
	[ "$initrd" = none ] && initrd=""
	[ -z "$initrd" ] || [ -r "$initrd" ] || refuse "no initrd at $initrd (SMAPBENCH_KEXEC_INITRD=none boots without one)"
	if grep -qs '\[integrity\]\|\[confidentiality\]' /sys/kernel/security/lockdown &&
		! kexec -s -l "$image" ${initrd:+--initrd="$initrd"} --append="$(cat /proc/cmdline)" 2>/dev/null; then
		refuse "the kernel is locked down and refuses to kexec $image (an unsigned image?): boot the SMAP-off kernel by hand (docs/smap-off.md)"
	fi
	command -v kexec >/dev/null && kexec -u 2>/dev/null
	id=$(hostname -s 2>/dev/null || echo host)-$(date -u +%Y%m%d-%H%M%S)
	series=$out/series-$id
	mkdir -p "$series/runs" || refuse "cannot create $series"
	plan_states=()
	for ((k = 0; k < n; k++)); do plan_states+=("${states[k % 2]}"); done
	{
		echo "id=$id"
		echo "boots=$n"
		echo "states=${plan_states[*]}"
		echo "original_cmdline=$(cat /proc/cmdline)"
		echo "off_param=$(off_param_for "$release")"
		echo "release=$release"
		echo "host=$(hostname 2>/dev/null)"
		echo "kernel_image=$image"
		echo "initrd=$initrd"
		echo "checkout=$here"
		echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} | put "$series/plan"
	{ [ $# -eq 0 ] || printf '%s\n' "$@"; } | put "$series/args"
	echo "boot,smap_wanted,smap_got,boot_id,uptime_s,load_1min,run" | put "$series/boots.csv"
	echo "final_boot_id,final_cmdline,original_cmdline_restored" >"$series/final.csv.head"
	: >"$series/log"
	printf '%s\n' "$id" | put "$active"
	install_unit || refuse "cannot install $unit_path"
	note "started: $n boots (${plan_states[*]}), $(off_param_for "$release") for SMAP off; $series"
	why=$(kexec_unusable)
	[ -z "$why" ] || note "note: $why: each reboot will be by hand"
	step
	;;
resume)
	[ -f "$active" ] || exit 0
	id=$(cat "$active")
	series=$out/series-$id
	[ -f "$series/plan" ] || { rm -f "$active"; exit 0; }
	if [ -f "$series/phase" ]; then
		# The boot after the last run, or after a failure.
		how=$(cut -d' ' -f2 "$series/phase")
		if [ "$(current_cmdline)" = "$(plan_get original_cmdline)" ]; then
			end_series "$how"
			[ "$how" = "done" ] && exit 0
			exit 1
		fi
		note "this boot does not have the original command line; the series waits for it"
		exit 0
	fi
	if [ "$(series_param)" != "$id" ]; then
		note "this boot is not the series' next step (no smapbench.series=$id on its command line): waiting"
		exit 0
	fi
	step
	;;
due)
	# Exit 0 when this boot is the pending series' next step: it carries
	# smapbench.series=<id>, or it is the boot after the last run (or a
	# failure) and has the original command line.
	[ -f "$active" ] || exit 1
	id=$(cat "$active")
	series=$out/series-$id
	[ -f "$series/plan" ] || exit 1
	[ "$(series_param)" = "$id" ] && exit 0
	[ -f "$series/phase" ] && [ "$(current_cmdline)" = "$(plan_get original_cmdline)" ] && exit 0
	exit 1
	;;
unit)
	# The systemd unit a series installs, for checking it.
	unit_text
	;;
status)
	if [ ! -f "$active" ]; then
		last=$(ls -d "$out"/series-*/ 2>/dev/null | tail -n 1)
		[ -n "$last" ] || { say "no boot series in $out"; exit 0; }
		say "no boot series pending; the last one: ${last%/}: $(cat "${last}status" 2>/dev/null)"
		exit 0
	fi
	id=$(cat "$active")
	series=$out/series-$id
	say "series $id: $(cat "$series/status" 2>/dev/null)"
	say "plan: $(plan_get boots) boots ($(plan_get states)), $(plan_get off_param) for SMAP off"
	column -t -s, "$series/boots.csv" 2>/dev/null || cat "$series/boots.csv"
	say "log: $series/log"
	;;
abort)
	[ -f "$active" ] || { say "no boot series pending in $out"; exit 0; }
	id=$(cat "$active")
	series=$out/series-$id
	set_status "aborted at boot $(($(boots_done) + 1)) of $(plan_get boots) ($prog --boots-abort)"
	finish_or_return failed
	;;
*)
	refuse "usage: $0 start|resume|status|abort OUT ..."
	;;
esac
