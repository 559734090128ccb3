#!/bin/bash
# The boot series of `run-bench.sh --boots N` (docs/boot-series.md): the
# suites on N boots of the running kernel, SMAP on and off in turn, one
# command, without touching the boot loader. Fail-safe: every way a series
# stops ends on the boot loader's default (the original command line, SMAP
# on) with nothing of the series left on the machine; docs/boot-series.md
# has the hazard table this file follows.
#
#   scripts/boot-series.sh start OUT N|auto [--precision P] [--max-boots M]
#                          [--yes] [--install] [--vm-guest] [--census DIR]
#                          [--bench-census DIR] [-- RUN-ARGUMENT...]
#                                      auto: the boots and repetitions
#                                      smapbench plan gives from OUT's
#                                      earlier runs of this machine
#   scripts/boot-series.sh resume      the pending series' next step, when
#                                      this boot is it (the unit's command)
#   scripts/boot-series.sh status [OUT]
#   scripts/boot-series.sh abort
#   scripts/boot-series.sh pending     exit 0 and print the series'
#                                      directory when one is pending here
#   scripts/boot-series.sh unit DIR    the systemd unit of a series in DIR
#   scripts/boot-series.sh kernel      the kernel image and initrd a
#                                      series would kexec on this boot
#
# run-bench.sh calls it; it calls run-bench.sh back for each boot's run
# (--series-step), from the copy the series keeps. A series lives in
# OUT/series-<id>/: plan (key=value), args (the runs' arguments, one a
# line), boots.csv, status, log, runs/, bin/ (the programs it runs, copied
# at its start) and, at the end, compare-*/, report.md and final.csv.
# What the machine needs to end it, whatever happens to OUT, is in
# /var/lib/smapbench/boot-series/: the plan again, this script (the
# unit runs that copy) and the marker "series", written last and removed
# first. One series per machine.
#
# start's knobs, read once and kept in the plan (a boot never reads its
# environment): SMAPBENCH_NO_KEXEC (set: every reboot by hand),
# SMAPBENCH_SETTLE_SECONDS (longest wait for the system to be up, and again
# for it to be quiet; default 120), SMAPBENCH_SERIES_STEP_SECONDS (longest
# run, default 7200), SMAPBENCH_KEXEC_KERNEL and SMAPBENCH_KEXEC_INITRD
# (the image and initrd to boot when this script cannot find them),
# SMAPBENCH_SERIES_FAIL_AT=K (tests: boot K's run fails).
#
# Exit status: 0 done or a boot pending; 1 a failure (the series ended);
# 2 bad usage or a series that cannot start here (the reason printed, and
# nothing changed).
set -u
prog="run-bench.sh"
here=$(cd "$(dirname "$0")/.." && pwd)
state_root=/var/lib/smapbench
state=$state_root/boot-series
unit_name=smapbench-series.service
unit_path=/etc/systemd/system/$unit_name
wants_link=/etc/systemd/system/multi-user.target.wants/$unit_name
# A boot that is not the series' next step ends it; a series rebooted by
# hand waits for at most this many such boots.
manual_misses=3
# Series boots reboot through the firmware this many seconds after a
# panic, unless the original command line already reboots on one.
panic_seconds=10
# Seconds timeout(1) waits after its SIGTERM before SIGKILL.
kill_grace=30

say() { printf '%s: %s\n' "$prog" "$*"; }
refuse() {
	printf '%s: error: %s\n' "$prog" "$*" >&2
	exit 2
}
now() { date +%s; }
utc() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# ------------------------------------------------------------ state files
# put FILE: stdin into FILE through a rename in the same directory.
put() {
	local tmp
	tmp=$(mktemp "$1.XXXXXX") || return 1
	cat >"$tmp" && chmod 0644 "$tmp" && mv -f "$tmp" "$1" || { rm -f "$tmp"; return 1; }
}
kv_get() { sed -n "s/^$2=//p" "$1" 2>/dev/null | head -n 1; }
# The machine's copy of the plan: readable whatever happened to the
# series' directory.
plan_get() { kv_get "$state/plan" "$1"; }
# A number kept in a state file.
counter() { local v; v=$(cat "$state/$1" 2>/dev/null); echo "${v:-0}"; }
set_counter() { printf '%s\n' "$2" | put "$state/$1"; }

series_reachable() { [ -f "$series/plan" ] && [ -w "$series" ]; }
set_status() {
	series_reachable && printf '%s\n' "$*" | put "$series/status"
	note "$*"
}
# note TEXT: the series' log, the journal (tag smapbench-series), stdout.
note() {
	series_reachable && printf '%s %s\n' "$(utc)" "$*" >>"$series/log"
	command -v logger >/dev/null && logger -t smapbench-series -- "series $id: $*" 2>/dev/null
	say "series $id: $*"
}
status_line() { cat "$series/status" 2>/dev/null; }
boots_done() {
	[ -f "$series/boots.csv" ] || { echo 0; return; }
	tail -n +2 "$series/boots.csv" | grep -c .
}
state_word() { [ "$1" = smap ] && echo on || echo off; }

# The machine's lock: every change of a series' state holds it, so that an
# abort and a step's hand-over never interleave.
lock() {
	[ -d "$state_root" ] || return 0
	exec 9<"$state_root" && flock -w 300 9 ||
		refuse "another boot series command holds $state_root; try again"
}
unlock() { exec 9<&-; }
pending() { [ -f "$state/series" ]; }

# ------------------------------------------------------------ this boot
current_cmdline() { cat /proc/cmdline; }
boot_id() { cat /proc/sys/kernel/random/boot_id; }
have_systemd() { [ -d /run/systemd/system ] && [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ]; }
# The state the program reports (smap or nosmap): system/smap_context.c.
# Bounded: a step must not hang before its run's own limit applies.
smap_state() {
	timeout -k 5 60 "$1" info --format=kv 2>/dev/null | sed -n 's/^smap_state=//p'
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
# The value of smapbench.series= on this boot's command line: <id>:<k>.
series_param() {
	current_cmdline | tr ' ' '\n' | sed -n 's/^smapbench\.series=//p' | head -n 1
}

# ------------------------------------------------------------ command lines
# edit_cmdline STATE ADD: the original command line for a boot with SMAP
# STATE (smap or nosmap), the words ADD inserted before a " -- " (past it
# the kernel hands words to init) or at the end. Words are split as the
# kernel does (lib/cmdline.c): whitespace outside double quotes. Every
# byte not edited stays as it was. SMAP off merges into the last
# clearcpuid= (the only one the kernel reads: clearcpuid=pku becomes
# clearcpuid=pku,smap) or adds the plan's off parameter; SMAP on removes
# smap (or 308) from clearcpuid= lists and nosmap words, and nothing else.
edit_cmdline() {
	CMDLINE=$(plan_get original_cmdline) WANT=$1 OFF=$(plan_get off_param) ADD=$2 \
		LC_ALL=C awk '
	function space(c) { return c != "" && index(" \t\n\v\f\r", c) > 0 }
	# delete word w with one whitespace byte next to it
	function drop(w,   st, len) {
		st = ws[w]; len = wl[w]
		if (st > 1 && space(substr(s, st - 1, 1))) { st--; len++ }
		else if (space(substr(s, st + len, 1))) len++
		edit(st, len, "")
	}
	function edit(st, len, text) { ne++; es[ne] = st; el[ne] = len; et[ne] = text }
	BEGIN {
		s = ENVIRON["CMDLINE"]; n = length(s); want = ENVIRON["WANT"]
		add = ENVIRON["ADD"]; off = ENVIRON["OFF"]
		stop = 0; nw = 0; i = 1
		while (i <= n) {
			while (i <= n && space(substr(s, i, 1))) i++
			if (i > n) break
			st = i; q = 0
			for (; i <= n; i++) {
				c = substr(s, i, 1)
				if (c == "\"") q = !q
				else if (!q && space(c)) break
			}
			w = substr(s, st, i - st)
			# the kernel takes "--" quoted or not (next_arg() drops quotes)
			if (w == "--" || w == "\"--\"") { stop = st; break }
			nw++; ws[nw] = st; wl[nw] = i - st; word[nw] = w
		}
		last = 0
		for (w = 1; w <= nw; w++)
			if (word[w] ~ /^clearcpuid=/) last = w
		if (want == "nosmap" && off == "clearcpuid=smap") {
			if (!last) {
				add = "clearcpuid=smap " add
			} else {
				value = substr(word[last], 12)
				m = split(value, item, ",")
				has = 0
				for (j = 1; j <= m; j++) if (item[j] == "smap" || item[j] == "308") has = 1
				if (!has) edit(ws[last] + wl[last], 0, (value == "" ? "smap" : ",smap"))
			}
		} else if (want == "nosmap") {
			has = 0
			for (w = 1; w <= nw; w++) if (word[w] == "nosmap") has = 1
			if (!has) add = "nosmap " add
		} else {
			for (w = 1; w <= nw; w++) {
				if (word[w] == "nosmap") { drop(w); continue }
				if (word[w] !~ /^clearcpuid=/) continue
				m = split(substr(word[w], 12), item, ",")
				kept = ""; dropped = 0
				for (j = 1; j <= m; j++) {
					if (item[j] == "smap" || item[j] == "308") { dropped = 1; continue }
					kept = kept (kept == "" ? "" : ",") item[j]
				}
				if (!dropped) continue
				if (kept == "") drop(w)
				else edit(ws[w], wl[w], "clearcpuid=" kept)
			}
		}
		if (stop) edit(stop, 0, add " ")
		# Edits never overlap: apply them from the right.
		for (a = 1; a <= ne; a++) order[a] = a
		for (a = 1; a <= ne; a++)
			for (b = a + 1; b <= ne; b++)
				if (es[order[b]] > es[order[a]]) { t = order[a]; order[a] = order[b]; order[b] = t }
		for (a = 1; a <= ne; a++) {
			e = order[a]
			s = substr(s, 1, es[e] - 1) et[e] substr(s, es[e] + el[e])
		}
		if (!stop) {
			n = length(s)
			if (n == 0) s = add
			else if (space(substr(s, n, 1))) s = s add
			else s = s " " add
		}
		printf "%s", s
	}'
}
# panic_word: panic=<seconds> unless the original command line already
# reboots after a panic (its last panic= is not 0).
panic_word() {
	local last
	last=$(plan_get original_cmdline | tr ' ' '\n' | sed -n 's/^panic=//p' | tail -n 1)
	case $last in '' | 0 | *[!0-9-]*) echo "panic=$panic_seconds" ;; esac
}
# series_cmdline K: the command line of boot K of the series.
series_cmdline() {
	local k=$1 want panic
	want=$(plan_get states | cut -d' ' -f"$k")
	panic=$(panic_word)
	edit_cmdline "$want" "smapbench.series=$id:$k${panic:+ $panic}"
}
# One CSV field, quoted (RFC 4180).
csv_field() { local v=${1//\"/\"\"}; printf '"%s"' "$v"; }

# ------------------------------------------------------------ the kernel to kexec
# Release of a bzImage, from its setup header ("HdrS" at 0x202; at 0x20e
# the offset, less 0x200, of a string starting with the release).
image_release() {
	local offset
	[ -r "$1" ] && [ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || return 1
	offset=$(od -An -t u2 -j 526 -N 2 "$1" | tr -d ' ')
	[ -n "$offset" ] && [ "$offset" -gt 0 ] || return 1
	dd if="$1" bs=1 skip=$((offset + 512)) count=128 2>/dev/null | tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}
# A unified kernel image: a PE file with a .linux section.
is_uki() {
	[ "$(head -c 2 "$1" 2>/dev/null)" = MZ ] && ! image_release "$1" >/dev/null &&
		head -c 4096 "$1" | LC_ALL=C grep -qa '\.linux'
}
# The boot loader roots: where /boot/loader/entries and EFI/Linux live.
boot_roots() { local r; for r in /boot /efi /boot/efi; do [ -d "$r" ] && echo "$r"; done; }
# bls_entry RELEASE: the Boot Loader Specification entry of RELEASE,
# "ROOT FILE" (Fedora, RHEL, systemd-boot).
bls_entry() {
	local root f linux
	for root in $(boot_roots); do
		for f in "$root"/loader/entries/*.conf; do
			[ -f "$f" ] || continue
			linux=$(sed -n 's/^linux[[:space:]]\{1,\}//p' "$f" | head -n 1)
			[ -n "$linux" ] && [ "$(image_release "$root$linux")" = "$1" ] &&
				{ echo "$root $f"; return 0; }
		done
	done
	return 1
}
# The initrd of a BLS entry: its initrd lines but microcode (the CPU
# keeps its microcode across kexec) and unexpanded $variables; the last.
bls_initrd() {
	local root=$1 file=$2 word found=""
	for word in $(sed -n 's/^initrd[[:space:]]\{1,\}//p' "$file"); do
		case $word in '$'* | *ucode*) continue ;; esac
		[ -r "$root$word" ] && found=$root$word
	done
	echo "$found"
}
# discover_kernel: sets image, initrd and kernel_how for the running
# kernel, or kernel_why (the refusal).
discover_kernel() {
	local rel p entry root file base dir cand word
	rel=$(uname -r)
	image="" initrd="" kernel_how="" kernel_why="" entry=""
	if [ -n "${SMAPBENCH_KEXEC_KERNEL:-}" ]; then
		[ "$SMAPBENCH_KEXEC_KERNEL" != none ] ||
			{ kernel_why="SMAPBENCH_KEXEC_KERNEL=none: a series needs the kernel image to kexec"; return; }
		[ -r "$SMAPBENCH_KEXEC_KERNEL" ] ||
			{ kernel_why="SMAPBENCH_KEXEC_KERNEL=$SMAPBENCH_KEXEC_KERNEL: no such file"; return; }
		image=$SMAPBENCH_KEXEC_KERNEL kernel_how="SMAPBENCH_KEXEC_KERNEL"
	fi
	if [ -z "$image" ]; then
		# The image the boot loader named (GRUB: BOOT_IMAGE=, relative to
		# the partition it read it from), NixOS's, a BLS entry's, then the
		# layouts by name, then any /boot/vmlinuz* of this release (Arch).
		p=$(current_cmdline | tr ' ' '\n' | sed -n 's/^BOOT_IMAGE=//p' | head -n 1)
		p=${p#(*)}
		for cand in ${p:+"$p" "/boot$p"}; do
			[ "$(image_release "$cand")" = "$rel" ] && { image=$cand kernel_how="BOOT_IMAGE"; break; }
		done
	fi
	if [ -z "$image" ] && [ "$(image_release /run/booted-system/kernel)" = "$rel" ]; then
		image=/run/booted-system/kernel kernel_how="NixOS /run/booted-system"
	fi
	if [ -z "$image" ] && entry=$(bls_entry "$rel"); then
		read -r root file <<<"$entry"
		image=$root$(sed -n 's/^linux[[:space:]]\{1,\}//p' "$file" | head -n 1)
		kernel_how="boot loader entry $file"
	fi
	if [ -z "$image" ]; then
		for cand in /boot/vmlinuz-"$rel" /boot/vmlinux-"$rel" /boot/kernel-"$rel" \
			/usr/lib/modules/"$rel"/vmlinuz /lib/modules/"$rel"/vmlinuz /boot/vmlinuz*; do
			[ "$(image_release "$cand")" = "$rel" ] && { image=$cand kernel_how="$cand"; break; }
		done
	fi
	if [ -z "$image" ]; then
		for root in $(boot_roots); do
			for cand in "$root"/EFI/Linux/*.efi; do
				[ -f "$cand" ] && is_uki "$cand" && LC_ALL=C grep -qaF "$rel" "$cand" || continue
				if uki_loads "$cand"; then
					image=$cand kernel_how="unified kernel image (its own initrd)"
					return
				fi
				kernel_why="the running kernel $rel was booted from a unified kernel image, $cand, and this kexec ($(kexec --version 2>/dev/null | head -n 1)) cannot load it: boot the SMAP-off command line by hand instead (docs/smap-off.md)"
				return
			done
		done
		kernel_why="no kernel image of the running kernel $rel found (BOOT_IMAGE, /run/booted-system, boot loader entries, /boot/vmlinuz-$rel, /usr/lib/modules/$rel/vmlinuz, /boot/vmlinuz*): name it with SMAPBENCH_KEXEC_KERNEL=PATH"
		return
	fi
	if [ "$kernel_how" != SMAPBENCH_KEXEC_KERNEL ] || ! is_uki "$image"; then
		[ "$(image_release "$image")" = "$rel" ] || {
			kernel_why="$image is not an image of the running kernel $rel (it says '$(image_release "$image")')"
			return
		}
	elif uki_loads "$image"; then
		return
	else
		kernel_why="$image is a unified kernel image, which this kexec cannot load"
		return
	fi
	# The initrd: named, the BLS entry's, NixOS's, next to the image
	# under the names each layout gives it, the EFI stub's initrd=.
	if [ -n "${SMAPBENCH_KEXEC_INITRD:-}" ]; then
		[ "$SMAPBENCH_KEXEC_INITRD" != none ] || {
			kernel_why="SMAPBENCH_KEXEC_INITRD=none: refused, a boot without its initramfs cannot mount an encrypted or LVM root; name the initrd the boot loader uses"
			return
		}
		[ -r "$SMAPBENCH_KEXEC_INITRD" ] ||
			{ kernel_why="SMAPBENCH_KEXEC_INITRD=$SMAPBENCH_KEXEC_INITRD: no such file"; return; }
		initrd=$SMAPBENCH_KEXEC_INITRD
		return
	fi
	[ -z "$entry" ] && entry=$(bls_entry "$rel")
	if [ -n "$entry" ]; then
		read -r root file <<<"$entry"
		initrd=$(bls_initrd "$root" "$file")
		[ -n "$initrd" ] && return
	fi
	if [ "$image" = /run/booted-system/kernel ] && [ -r /run/booted-system/initrd ]; then
		initrd=/run/booted-system/initrd
		return
	fi
	base=${image##*/} dir=${image%/*}
	base=${base#vmlinuz-} base=${base#vmlinux-} base=${base#kernel-}
	for cand in "$dir/initrd.img-$base" "$dir/initramfs-$base.img" "$dir/initrd-$base" \
		"$dir/initramfs-$base" /boot/initrd.img-"$rel" /boot/initramfs-"$rel".img \
		/boot/initrd-"$rel" "$dir/initrd" /usr/lib/modules/"$rel"/initrd; do
		[ -f "$cand" ] && [ -r "$cand" ] && { initrd=$cand; return; }
	done
	for word in $(current_cmdline | tr ' ' '\n' | sed -n 's/^initrd=//p'); do
		word=${word//\\//}
		for root in $(boot_roots); do
			[ -r "$root/${word#/}" ] && { initrd=$root/${word#/}; return; }
		done
	done
	kernel_why="no initramfs of $rel found next to $image (initrd.img-*, initramfs-*.img, initrd-*, a boot loader entry's): name the one the boot loader uses with SMAPBENCH_KEXEC_INITRD=PATH"
}
# uki_loads FILE: kexec can load the unified kernel image FILE (then
# unloaded again).
uki_loads() {
	have_kexec && kexec -s -l "$1" --append="$(current_cmdline)" >/dev/null 2>&1 || return 1
	kexec_unload
}

# ------------------------------------------------------------ rebooting
# An executable kexec in PATH (command -v also names one that is not).
have_kexec() { local p; p=$(command -v kexec) && [ -x "$p" ]; }
kexec_unload() {
	have_kexec || return 0
	kexec -s -u >/dev/null 2>&1
	kexec -u >/dev/null 2>&1
	return 0
}
# Why kexec cannot be used on this boot, or nothing.
kexec_unusable() {
	if ! have_kexec; then
		echo "kexec is not installed"
	elif [ "$(cat /proc/sys/kernel/kexec_load_disabled 2>/dev/null)" = 1 ]; then
		echo "kexec is disabled on this boot (kernel.kexec_load_disabled=1)"
	fi
}
# The series has not been ended (by abort, a failure elsewhere) meanwhile;
# while it returns home, that it is still pending.
series_live() {
	pending && [ "$(cat "$state/series" 2>/dev/null)" = "$series" ] &&
		{ [ "$returning" -eq 1 ] || [ ! -f "$state/ending" ]; }
}
# systemctl kexec's flag that skips logind's inhibitor check, where it
# exists (248); inhibitors that block a shutdown are waited for first.
systemctl_kexec() {
	local version waited=0 flags=()
	while systemd-inhibit --list --no-pager 2>/dev/null | grep -q 'shutdown.*block'; do
		[ "$waited" -ge 600 ] && break
		[ "$waited" -eq 0 ] && note "waiting for what blocks a shutdown to end (systemd-inhibit --list), at most 600 s"
		sleep 10
		waited=$((waited + 10))
	done
	version=$(systemctl --version 2>/dev/null | sed -n '1s/^systemd \([0-9]\{1,\}\).*/\1/p')
	[ "${version:-0}" -ge 248 ] && flags+=(--check-inhibitors=no)
	systemctl kexec "${flags[@]}"
}
# reboot_into CMDLINE WHAT: into this kernel with CMDLINE. Returns 0 when
# the machine is going down (the caller exits at once), 3 when the reboot
# is the user's to make (instructions printed), 4 when the series ended
# meanwhile, 1 when it failed (reboot_why says why). The marker is
# checked under the lock before the image is loaded and again before it
# is executed; every path that does not execute it unloads it.
reboot_into() {
	local cmdline=$1 what=$2 image initrd how load=()
	image=$(plan_get kernel_image) initrd=$(plan_get initrd) how=$(plan_get reboot)
	reboot_why=""
	if [ "$returning" -eq 0 ]; then
		case " $cmdline " in
		*" smapbench.series=$id:"*) ;;
		*)
			reboot_why="the next boot's command line could not be made ('$cmdline')"
			return 1 ;;
		esac
	fi
	[ "$how" = manual ] || reboot_why=$(kexec_unusable)
	if [ "$how" = manual ] || [ -n "$reboot_why" ]; then
		[ -n "$reboot_why" ] && note "cannot reboot by itself: $reboot_why"
		return 3
	fi
	lock
	if ! series_live; then
		unlock
		return 4
	fi
	[ -n "$initrd" ] && load=(--initrd="$initrd")
	if [ "$(plan_get kernel_is_uki)" != 1 ] && [ "$(image_release "$image")" != "$(plan_get release)" ]; then
		reboot_why="$image is no longer an image of $(plan_get release)"
	# kexec_file_load first: it works under lockdown with a signed kernel.
	elif ! kexec -s -l "$image" "${load[@]}" --append="$cmdline" >>"$series_log" 2>&1 &&
		! kexec -l "$image" "${load[@]}" --append="$cmdline" >>"$series_log" 2>&1; then
		reboot_why="kexec refused to load $image (log: $series_log)"
	fi
	if [ -n "$reboot_why" ]; then
		kexec_unload
		unlock
		return 1
	fi
	if ! series_live; then
		kexec_unload
		unlock
		return 4
	fi
	note "rebooting with kexec: $what"
	sync
	# From here on, a SIGTERM is the shutdown this starts.
	trap '' INT TERM HUP
	case $how in
	systemd)
		if systemctl_kexec >>"$series_log" 2>&1; then
			return 0
		fi
		reboot_why="systemctl kexec failed (log: $series_log)"
		;;
	guest)
		# The host-root guest: PID 1 is the session that runs this
		# series and nothing else; there is no service to stop.
		kexec -e
		reboot_why="kexec -e returned"
		;;
	esac
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP
	kexec_unload
	unlock
	return 1
}
# manual_reboot CMDLINE WHAT: how to make the next boot by hand.
manual_reboot() {
	say "to go on, boot this kernel once with this command line ($2):"
	printf '  %s\n' "$1"
	say "e.g. press 'e' at the GRUB menu, replace the linux line's parameters, Ctrl-X; the boot loader's configuration stays as it is"
	if [ "$(plan_get unit)" = 1 ]; then
		say "the series continues by itself on that boot ($unit_name); any other boot ends it after $manual_misses"
	else
		say "then, on that boot: sudo ./$prog --series-resume"
	fi
}

# ------------------------------------------------------------ the unit
# The unit that continues the series on the next boot: installed while a
# series is pending, removed at its end. It runs on every boot (the
# series decides whether the boot is its next step); without the marker
# it removes itself. Type=exec: the boot completes while a run goes on.
unit_text() {
	cat <<EOF
[Unit]
Description=smapbench boot series: the next step of the series in $1
After=multi-user.target
RequiresMountsFor=$state $1

[Service]
Type=exec
ExecStart=/bin/bash $state/boot-series.sh resume
KillMode=mixed
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
EOF
}
install_unit() {
	unit_text "$series" | put "$unit_path" || return 1
	systemctl daemon-reload && systemctl enable "$unit_name" >>"$series_log" 2>&1
}
# remove_unit: the unit and its wants link. While the system stops, the
# files only (the next boot reads them from disk).
remove_unit() {
	[ -e "$unit_path" ] || [ -L "$wants_link" ] || return 0
	if have_systemd && [ "$(systemctl is-system-running 2>/dev/null)" != stopping ]; then
		systemctl disable "$unit_name" >/dev/null 2>&1
	fi
	rm -f "$wants_link" "$unit_path"
	have_systemd && [ "$(systemctl is-system-running 2>/dev/null)" != stopping ] &&
		systemctl daemon-reload 2>/dev/null
	return 0
}

# ------------------------------------------------------------ ending
# fail WHY: the series ends; back to the original command line.
fail() {
	set_status "failed at boot $(($(boots_done) + 1)) of $(plan_get boots): $*"
	return_home failed
	exit 1
}
# return_home HOW: the end of a series (done, failed, aborted or
# interrupted). On the original command line it ends here; on a series
# boot one more kexec, and the next boot ends it.
return_home() {
	local how=$1 rc
	if [ "$(current_cmdline)" = "$(plan_get original_cmdline)" ]; then
		end_series "$how"
		return
	fi
	printf '%s\n' "$how" | put "$state/ending"
	returning=1
	reboot_into "$(plan_get original_cmdline)" "the original command line"
	rc=$?
	case $rc in
	0) exit 0 ;;
	4) exit 0 ;;
	esac
	# No kexec: the series ends on this boot; the boot loader's default
	# (the original command line) is one reboot away.
	[ "$rc" -eq 1 ] && note "the kexec into the original command line failed: $reboot_why"
	end_series "$how"
	if [ "$(smap_state "$series/bin/build/smapbench")" = smap ]; then
		note "this boot has SMAP on; its command line still has the series' words until the next reboot"
	elif [ "$rc" -eq 1 ] && have_systemd && systemctl reboot >/dev/null 2>&1; then
		note "this boot had SMAP off: rebooting through the firmware, into the boot loader's default"
	else
		note "THIS BOOT HAS SMAP OFF: reboot it (its boot loader's default has SMAP on)"
		say "THIS BOOT HAS SMAP OFF: reboot it; the boot loader's default boots the original command line"
	fi
}
# end_series HOW: the unit, a kexec-tools the series installed, final.csv,
# the status and, last, the machine's state. Repeatable: a power loss
# part way through ends it again on the next boot.
end_series() {
	local how=$1 restored=0 made
	made=$(plan_get made_state_root)
	kexec_unload
	if [ "$(plan_get installed_kexec_tools)" = 1 ] && dpkg-query -W -f='${Status}' kexec-tools 2>/dev/null | grep -q installed; then
		if DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=300 kexec-tools >>"$series_log" 2>&1; then
			note "removed kexec-tools, which the series installed"
		else
			note "could not remove kexec-tools, which the series installed: apt-get purge kexec-tools"
		fi
	fi
	[ "$(current_cmdline)" = "$(plan_get original_cmdline)" ] && restored=1
	if series_reachable; then
		{
			echo "final_boot_id,final_cmdline,original_cmdline_restored"
			printf '%s,%s,%s\n' "$(boot_id)" "$(csv_field "$(current_cmdline)")" "$restored"
		} | put "$series/final.csv"
		rm -f "$series/run-dir"
		phase_return
	fi
	if [ "$how" = "done" ]; then
		set_status "done: $(boots_done) boots$(series_reachable && [ -f "$series/planned" ] &&
			printf '; %s' "$(cat "$series/planned")"); report.md has the comparisons"
	else
		note "ended ($how); the runs that finished stay in $series/runs"
	fi
	# The marker first, the unit next, the state last: whichever a power
	# loss leaves, the next boot or run cleans up.
	rm -f "$state/series"
	remove_unit
	rm -rf "$state"
	[ "$made" = 1 ] && rmdir "$state_root" 2>/dev/null
	return 0
}

# ------------------------------------------------------------ phase times
# phases.csv: how long each phase of the series took, one row a phase,
# in the order they ran, back to back (docs/boot-series.md). Within a boot
# a phase is timed on /proc/uptime (CLOCK_BOOTTIME: a step of the wall
# clock, NTP's at boot, does not move it); across a reboot only the wall
# clock spans both boots.
uptime_now() { cut -d' ' -f1 /proc/uptime; }
wall_now() { date +%s.%2N; }
# seconds_between A B: B - A, two decimals.
seconds_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# wall_at WALL UP AT: the wall clock at uptime AT, from WALL at uptime UP.
wall_at() { awk -v w="$1" -v u="$2" -v x="$3" 'BEGIN { printf "%.2f", w + x - u }'; }
# phase_row STEP PHASE STARTED SECONDS CLOCK: one row of phases.csv.
phase_row() {
	series_reachable || return 0
	{
		if [ -s "$series/phases.csv" ]; then
			cat "$series/phases.csv"
		else
			echo "step,phase,started,seconds,clock"
		fi
		printf '%s,%s,%s,%s,%s\n' "$@"
	} | put "$series/phases.csv"
}
# phase_end STEP...: the wall clock time the last row of those steps
# ended (its start and its length), or nothing.
phase_end() {
	awk -F, -v steps=" $* " 'NR > 1 && index(steps, " " $1 " ") { end = $3 + $4 }
		END { if (end != "") printf "%.2f", end }' "$series/phases.csv" 2>/dev/null
}
# phase_reboot STEP FROM WALL UPTIME: the rows of a reboot that ended
# when this boot's step began (at WALL, this boot's UPTIME), from FROM
# (the wall clock at the end of the step before): the hand-over (FROM to
# this kernel's start: the kexec, the services stopping) and this
# kernel's boot up to the step (/proc/uptime). A kernel that started
# before FROM (no reboot came between, or the wall clock moved back)
# leaves one row, the wall clock's gap; a gap below zero, none.
phase_reboot() {
	local step=$1 from=$2 wall=$3 up=$4 gap handover
	[ -n "$from" ] || return 0
	gap=$(seconds_between "$from" "$wall")
	awk -v g="$gap" 'BEGIN { exit !(g >= 0) }' || return 0
	handover=$(seconds_between "$up" "$gap")
	if awk -v h="$handover" 'BEGIN { exit !(h >= 0) }'; then
		phase_row "$step" handover "$from" "$handover" wall
		phase_row "$step" boot "$(seconds_between "$up" "$wall")" "$up" uptime
	else
		phase_row "$step" boot "$from" "$gap" wall
	fi
}
# phase_step K WALL UP SETTLE RUN RECORD END: boot K's rows. Its step
# began at the wall clock WALL, uptime UP; settling, the run and the
# recording began at the uptimes SETTLE, RUN and RECORD, and it ended at
# END. Before it: the series' start (boot 1) or the reboot.
phase_step() {
	local k=$1 wall=$2 up=$3 started
	if [ "$k" -eq 1 ]; then
		started=$(date -u -d "$(plan_get started)" +%s 2>/dev/null)
		[ -n "$started" ] && phase_row 1 start "$started" "$(seconds_between "$started" "$wall")" wall
	else
		phase_reboot "$k" "$(phase_end $((k - 1)))" "$wall" "$up"
	fi
	phase_row "$k" check "$wall" "$(seconds_between "$up" "$4")" uptime
	phase_row "$k" settle "$(wall_at "$wall" "$up" "$4")" "$(seconds_between "$4" "$5")" uptime
	phase_row "$k" run "$(wall_at "$wall" "$up" "$5")" "$(seconds_between "$5" "$6")" uptime
	phase_row "$k" record "$(wall_at "$wall" "$up" "$6")" "$(seconds_between "$6" "$7")" uptime
}
# phase_return: at the series' end, the return to the original command
# line after the comparisons (once).
phase_return() {
	grep -q '^end,compare,' "$series/phases.csv" 2>/dev/null &&
		! grep -q '^end,\(handover\|boot\),' "$series/phases.csv" || return 0
	phase_reboot end "$(phase_end end)" "$(wall_now)" "$(uptime_now)"
	phase_report
}
# phase_section: report.md's table of phases.csv, a row a step and the
# series' total.
phase_section() {
	echo "## How long each phase took"
	echo
	if ! [ -s "$series/phases.csv" ]; then
		echo "No phase was recorded (phases.csv)."
		return
	fi
	echo "| step | SMAP | reboot (s) | settle (s) | run (s) | compare (s) | other (s) | total (s) |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
	awk -F, -v states="$(plan_get states)" '
	function cell(v) { return v == "" ? "" : sprintf("%.1f", v) }
	NR == 1 { next }
	{
		if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
		col = "other"
		if ($2 == "handover" || $2 == "boot") col = "reboot"
		else if ($2 == "settle" || $2 == "run" || $2 == "compare") col = $2
		v[$1, col] += $4; total[$1] += $4; sum[col] += $4; all += $4
		if ($2 == "handover") split_h[$1] = $4
		if ($2 == "boot" && $5 == "uptime") split_b[$1] = $4
	}
	END {
		split(states, st, " ")
		for (i = 1; i <= n; i++) {
			s = order[i]
			smap = s ~ /^[0-9]+$/ ? (st[s] == "smap" ? "on" : "off") : ""
			r = cell(v[s, "reboot"])
			if (s in split_h) r = r sprintf(" (%.1f + %.1f)", split_h[s], split_b[s])
			printf "| %s | %s | %s | %s | %s | %s | %s | %.1f |\n", s, smap, r,
				cell(v[s, "settle"]), cell(v[s, "run"]), cell(v[s, "compare"]),
				cell(v[s, "other"]), total[s]
		}
		printf "| all | | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", sum["reboot"],
			sum["settle"], sum["run"], sum["compare"], sum["other"], all
		printf "\nIn all %.1f s (%.1f min), from the start of the series to its end.\n", all, all / 60
	}' "$series/phases.csv"
	echo "reboot: from the end of the step before to this step's start, by the"
	echo "wall clock; where this kernel started after that end, split into the"
	echo "hand-over (the kexec, the services stopping) and this kernel's boot up"
	echo "to the step (/proc/uptime), as (hand-over + boot). settle: waiting for"
	echo "the system to be up and quiet, then reading the run's arguments (boots.csv's"
	echo "settle_s is the wait alone). run: the boot's run. other: the series'"
	echo "start before boot 1, checking each boot's SMAP state, recording its"
	echo "run, planning the boots after boot 3 (--boots auto without earlier"
	echo "runs). end: the comparisons and this report, then the return to the"
	echo "original command line up to the series' end there$(grep -q '^end,boot,' "$series/phases.csv" ||
		echo " (still to come when this was written)"). Every phase: phases.csv."
}
# phase_report: report.md's phase table made again from phases.csv,
# once the return to the original command line is in it.
phase_report() {
	[ -f "$series/report.md" ] || return 0
	{
		sed '/^## How long each phase took$/,$d' "$series/report.md"
		phase_section
	} | put "$series/report.md"
}

# ------------------------------------------------------------ a step
# Waits until the system is up (systemd: running or degraded; the series'
# own unit is Type=exec, so it never holds the boot back) and then quiet
# (under half a CPU busy over 2 s), each for at most the plan's limit.
settle() {
	local limit start up quiet s a b
	limit=$(plan_get settle_seconds)
	start=$(now)
	if have_systemd; then
		while [ $(($(now) - start)) -lt "$limit" ]; do
			s=$(systemctl is-system-running 2>/dev/null)
			case $s in running | degraded) break ;; esac
			sleep 1
		done
	fi
	up=$(($(now) - start))
	s=$(now)
	while [ $(($(now) - s)) -lt "$limit" ]; do
		a=$(head -n 1 /proc/stat)
		sleep 2
		b=$(head -n 1 /proc/stat)
		awk -v a="$a" -v b="$b" -v n="$(nproc)" 'BEGIN {
			split(a, x); split(b, y)
			# user nice system idle iowait irq softirq steal (guest is in user)
			total = 0; for (i = 2; i <= 9; i++) { d[i] = y[i] - x[i]; total += d[i] }
			busy = d[2] + d[3] + d[4] + d[7] + d[8]
			exit !(total > 0 && busy / total * n < 0.5)
		}' && break
	done
	quiet=$(($(now) - s))
	settle_seconds=$(($(now) - start))
	note "settled in $settle_seconds s: the system was up after $up s, quiet $quiet s later"
}
# The SIGINT, SIGTERM or SIGHUP of a step (Ctrl-C on boot 1, systemctl
# stop, a shutdown): the run stops and keeps what finished; the series
# ends, unless something else ends it already.
on_signal() {
	trap '' INT TERM HUP
	if [ -n "${run_pid:-}" ]; then
		kill -TERM "$run_pid" 2>/dev/null
		wait "$run_pid" 2>/dev/null
		kill -KILL -- "-$run_pid" 2>/dev/null
	fi
	series_live || exit 0
	lock
	series_live || exit 0
	set_status "interrupted at boot $(($(boots_done) + 1)) of $(plan_get boots) (SIG$1)"
	if have_systemd && [ "$(systemctl is-system-running 2>/dev/null)" = stopping ]; then
		# The machine is going down: the next boot, the boot loader's
		# default, ends the series (nothing is removed or started now).
		printf 'interrupted\n' | put "$state/ending"
		kexec_unload
		note "the machine is going down: the next boot ends the series"
		exit 1
	fi
	unlock
	return_home interrupted
	exit 1
}
# step K: boot K's run, then the next boot or the end.
step() {
	local k=$1 n want got limit rc next step_wall step_up settle_up run_up record_up end_up plan_up
	step_wall=$(wall_now) step_up=$(uptime_now)
	n=$(plan_get boots)
	want=$(plan_get states | cut -d' ' -f"$k")
	printf '%s %s\n' "$k" "$(boot_id)" | put "$state/attempt"
	printf '%s %s\n' "$$" "$(cut -d' ' -f22 /proc/$$/stat)" | put "$state/step"
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP
	set_status "running boot $k of $n (SMAP $(state_word "$want"))"
	got=$(smap_state "$series/bin/build/smapbench")
	[ "$got" = "$want" ] ||
		fail "boot $k should have SMAP $(state_word "$want"), but this boot reports '${got:-nothing}' (command line: $(current_cmdline))"
	settle_up=$(uptime_now)
	settle
	if [ "$(plan_get fail_at)" = "$k" ]; then
		fail "the run of boot $k failed (injected: SMAPBENCH_SERIES_FAIL_AT=$k)"
	fi
	limit=$(plan_get step_seconds)
	mapfile -t args <"$series/args"
	rm -f "$series/run-dir"
	run_up=$(uptime_now)
	# In the background, waited for: a signal reaches this shell's trap
	# at once, and the trap stops the run. The run gets one SIGTERM, which
	# run-bench.sh passes on to what it runs (a second one would discard
	# the benchmarks that finished); SIGKILL after the grace. In a process
	# group of its own, so that whatever outlives run-bench.sh goes too.
	setsid timeout --foreground -k "$kill_grace" "$limit" "$series/bin/run-bench.sh" --series-step \
		--no-install --out "$series/runs" --run-dir-file "$series/run-dir" "${args[@]}" &
	run_pid=$!
	wait "$run_pid"
	rc=$?
	record_up=$(uptime_now)
	kill -KILL -- "-$run_pid" 2>/dev/null
	run_pid=""
	run_dir=$(cat "$series/run-dir" 2>/dev/null)
	rm -f "$series/run-dir"
	series_live || exit 0
	[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && fail "the run of boot $k took longer than $limit s"
	[ "$rc" -eq 0 ] && [ -n "$run_dir" ] && [ -d "$run_dir" ] ||
		fail "the run of boot $k failed with status $rc"
	lock
	series_live || exit 0
	{
		cat "$series/boots.csv"
		printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$k" "$want" "$got" "$(boot_id)" \
			"$(cut -d' ' -f1 /proc/uptime)" "$(cut -d' ' -f1 /proc/loadavg)" \
			"$settle_seconds" "runs/${run_dir##*/}"
	} | put "$series/boots.csv"
	set_counter misses 0
	rm -f "$state/step"
	unlock
	note "boot $k of $n done: $run_dir"
	end_up=$(uptime_now)
	phase_step "$k" "$step_wall" "$step_up" "$settle_up" "$run_up" "$record_up" "$end_up"
	if [ "$(plan_get plan_after)" = "$k" ] && [ -z "$(plan_get planned)" ]; then
		# A plan step that fails ends the series here, as after its
		# last boot: the comparisons of what it has, then home.
		if replan "$k"; then n=$(plan_get boots); else n=$k; fi
		plan_up=$(uptime_now)
		phase_row "$k" plan "$(wall_at "$step_wall" "$step_up" "$end_up")" \
			"$(seconds_between "$end_up" "$plan_up")" uptime
		end_up=$plan_up
	fi
	if [ "$k" -lt "$n" ]; then
		next=$(plan_get states | cut -d' ' -f$((k + 1)))
		set_status "boot $((k + 1)) of $n pending (SMAP $(state_word "$next"))"
		reboot_into "$(series_cmdline $((k + 1)))" "boot $((k + 1)) of $n, SMAP $(state_word "$next")"
		case $? in
		0 | 4) exit 0 ;;
		3)
			manual_reboot "$(series_cmdline $((k + 1)))" "boot $((k + 1)) of $n, SMAP $(state_word "$next")"
			exit 0 ;;
		esac
		fail "cannot reboot into boot $((k + 1)): $reboot_why"
	fi
	report
	phase_row end compare "$(phase_end "$k")" "$(seconds_between "$end_up" "$(uptime_now)")" uptime
	phase_report
	return_home "done"
	exit 0
}

# replan K: after boot K, smapbench plan on the series' own runs of boot
# 1's state (boots 1 and 3), for the precision and the most boots kept
# in the plan. A plan within them becomes the series': its boots (the
# states go on alternating) and, from boot K + 1 on, its repetitions a
# run, in both copies of the plan and in args; a precision that needs
# more boots than allowed, or that no number reaches, leaves the series
# as it is, saying so. The outcome, one line, is planned= in the plan
# and in planned.txt with smapbench plan's output (report.md shows both).
# Status 1: the plan step failed (plan's own error, a figure it cannot
# use, a file it cannot write); the caller ends the series here.
replan() {
	local k=$1 precision max_boots runs=() first said states=() i args=() a skip=0 rc=0
	precision=$(plan_get plan_precision) max_boots=$(plan_get plan_max_boots)
	first=$(plan_get states | cut -d' ' -f1)
	set_status "planning after boot $k for SMAP on - off within +-$precision, from the series' own boots"
	mapfile -t runs < <(awk -F, -v s="$first" -v d="$series" 'NR > 1 && $3 == s { print d "/" $8 }' "$series/boots.csv")
	mapfile -t a <"$series/args"
	if [ ${#runs[@]} -lt 2 ]; then
		said="the plan after boot $k failed: ${#runs[@]} run of SMAP $(state_word "$first") in boots.csv, where smapbench plan needs two boots"
		rc=1
	elif ! plan_rows "${runs[0]}" "${a[@]}"; then
		said="the plan after boot $k failed: boot 1's run has no row of the command (no row of suite command in ${runs[0]#"$series/"}/results.csv)"
		rc=1
	else
		plan_with "$series/bin/build/smapbench" "$series/phases.csv" "${runs[@]}" || rc=$?
		{
			echo "smapbench plan after boot $k, on ${runs[*]#"$series/"}, --precision $precision --max-boots $max_boots${plan_rows_regex:+ --rows '$plan_rows_regex'} --phases phases.csv:"
			printf '%s\n' "$plan_text"
		} >"$series/planned.txt.tmp" && mv -f "$series/planned.txt.tmp" "$series/planned.txt"
		[ -f "$series/log" ] && sed 's/^/    /' "$series/planned.txt" >>"$series/log"
		if [ "$rc" -ne 0 ]; then
			case $plan_why in
			"  not even "*)
				said="not planned after boot $k: no number of boots reaches +-$precision (smapbench plan:${plan_why#" "}); the series keeps its $(plan_get boots) boots"
				rc=0 ;;
			*)
				said="the plan after boot $k failed: ${plan_why# }"
				rc=1 ;;
			esac
		elif [ "$planned_fits" -eq 0 ]; then
			said="not planned after boot $k: +-$precision needs $planned_boots boots (about $planned_time), more than the $max_boots allowed (--max-boots); the series keeps its $(plan_get boots) boots"
		elif [ $((planned_boots % 2)) -ne 0 ] || [ "$planned_boots" -le "$k" ] || [ "$planned_boots" -gt "$max_boots" ]; then
			said="the plan after boot $k failed: smapbench plan gave $planned_boots boots, not an even number from $((k + 1)) to $max_boots"
			rc=1
		else
			said="planned after boot $k for +-$precision: $planned_boots boots, $planned_repetitions repetitions a run from boot $((k + 1)) on, about $planned_time (smapbench plan on boots 1 and 3)"
			for ((i = 0; i < planned_boots; i++)); do
				states+=("$(plan_get states | cut -d' ' -f$((i % 2 + 1)))")
			done
			# args: the runs' options, its --repetitions the plan's
			for i in "${a[@]}"; do
				if [ "$skip" -eq 1 ]; then skip=0; continue; fi
				[ "$i" = --repetitions ] && { skip=1; continue; }
				args+=("$i")
			done
			args+=(--repetitions "$planned_repetitions")
		fi
	fi
	lock
	series_live || exit 0
	if [ "$rc" -eq 0 ] && [ ${#states[@]} -gt 0 ]; then
		printf '%s\n' "${args[@]}" | put "$series/args" &&
			sed "s/^boots=.*/boots=$planned_boots/; s/^states=.*/states=${states[*]}/" "$state/plan" |
			planned_line "$said" | put "$state/plan" &&
			cp "$state/plan" "$series/plan.tmp" && mv -f "$series/plan.tmp" "$series/plan" ||
			{ said="the plan after boot $k failed: the series' plan or args could not be written"; rc=1; }
	elif [ "$rc" -eq 0 ]; then
		planned_line "$said" <"$state/plan" | put "$state/plan" &&
			cp "$state/plan" "$series/plan.tmp" && mv -f "$series/plan.tmp" "$series/plan" ||
			{ said="the plan after boot $k failed: the series' plan could not be written"; rc=1; }
	fi
	printf '%s\n' "$said" | put "$series/planned"
	unlock
	if [ "$rc" -eq 0 ]; then
		set_status "$said"
	else
		set_status "$said: the series ends after boot $k, with the comparisons of its runs"
	fi
	return "$rc"
}
# planned_line SAID: the plan on stdin, with planned=SAID after boots=.
planned_line() {
	awk -v said="$1" '/^planned=/ { next } { print } /^boots=/ { print "planned=" said }'
}

# compare_into OFF ON NAME WHAT: smapbench report OFF ON into
# $series/NAME, and report.md's line for it, WHAT it compares (or that the
# comparison failed).
compare_into() {
	# beta from the census of this kernel's benchmarks the series took in
	if (cd "$series" && bin/build/smapbench report "$1" "$2" --no-plots \
		${bench_census:+--census "$bench_census"} --out "$3") >>"$series/log" 2>&1; then
		echo "- $4: [$3]($3/report.md)" >>"$series/report.md.tmp"
	else
		echo "- $4: the comparison failed (log)" >>"$series/report.md.tmp"
		note "the comparison of $4 failed (log: $series/log)"
	fi
}
# workload: with a census of the command (--census, copied at the start),
# what SMAP costs the command, measured over all boots and predicted from
# the census, into compare-all and report.md.
workload() {
	[ -f "$series/census/census.csv" ] && [ -f "$series/compare-all/compare.csv" ] || return 0
	if (cd "$series" && bin/build/smapbench workload compare-all --census census \
		--runs runs --kernel "$(plan_get release)") >>"$series/log" 2>&1; then
		{
			echo
			cat "$series/compare-all/workload.md"
			echo "(In compare-all/: [workload.md](compare-all/workload.md), workload.csv, plots/workload.png.)"
		} >>"$series/report.md.tmp"
	else
		echo "- the command's cost against its census: failed (log)" >>"$series/report.md.tmp"
		note "smapbench workload failed (log: $series/log)"
	fi
}
# pair_cost: the pair's cost the comparison of all boots fitted (beta,
# beside inline - nopad where the module ran), from compare-all/report.md,
# with the census it came from, into report.md.
pair_cost() {
	local from
	[ -f "$series/compare-all/report.md" ] || return 0
	from=$(plan_get bench_census)
	{
		echo
		awk '/^## The pair.s cost/ { on = 1 } on && /^## / && !/^## The pair.s cost/ { exit } on' \
			"$series/compare-all/report.md" | cat -s
		echo
		if [ -f "$series/census-bench/census.csv" ]; then
			echo "The census of the benchmarks on $(plan_get release): [census-bench](census-bench/), copied at the start from $from."
		else
			echo "No census of the benchmarks on $(plan_get release) came with the series (run-bench.sh --bench-census DIR, docs/census.md)."
		fi
		if grep -qsx 'virt,tcg' "$series"/runs/*/context.csv; then
			echo "The boots ran under QEMU's emulator (TCG): beta and inline - nopad are emulated figures, a check of the path, not SMAP's cost on hardware."
		fi
	} >>"$series/report.md.tmp"
}
# The comparisons of the series: each SMAP-off run against the SMAP-on
# run of the boot before or after it, all of them at once, and report.md.
report() {
	local rows row on off pair=0 k got bid up load settle run offs="" ons="" count_off=0 count_on=0 r s s1 r1 r2 i
	local bench_census=""
	[ -f "$series/census-bench/census.csv" ] && bench_census=census-bench
	mapfile -t rows < <(tail -n +2 "$series/boots.csv")
	set_status "comparing the runs of ${#rows[@]} boots"
	{
		echo "# Boot series $id"
		echo
		echo "${#rows[@]} boots of $(plan_get release) on $(plan_get host), SMAP on and off in turn"
		echo "($(plan_get off_param) for off), started $(plan_get started)."
		echo
		echo "| boot | SMAP | boot_id | uptime (s) | load | settled in (s) | run |"
		echo "| --- | --- | --- | --- | --- | --- | --- |"
		for row in "${rows[@]}"; do
			IFS=, read -r k _ got bid up load settle run <<<"$row"
			echo "| $k | $got | $bid | $up | $load | $settle | [$run]($run/) |"
		done
		echo
		if [ -f "$series/planned" ]; then
			echo "## The plan"
			echo
			echo "$(plan_get plan_precision | sed 's/^/--boots auto --precision /') without earlier runs of this"
			echo "machine: $(cat "$series/planned")."
			echo "smapbench plan's output: [planned.txt](planned.txt)."
			echo
		elif [ -n "$(plan_get planned)" ]; then
			echo "## The plan"
			echo
			echo "--boots auto: $(plan_get boots) boots planned for $(plan_get planned)."
			echo
		fi
		echo "## Comparisons"
		echo
	} >"$series/report.md.tmp"
	# All boots at once: each side's runs, one a boot, so that the
	# comparison estimates what two boots differ by from the series itself.
	for row in "${rows[@]}"; do
		IFS=, read -r _ _ s _ _ _ _ r <<<"$row"
		if [ "$s" = smap ]; then
			ons+=",$r" count_on=$((count_on + 1))
		else
			offs+=",$r" count_off=$((count_off + 1))
		fi
	done
	if [ "$count_on" -gt 0 ] && [ "$count_off" -gt 0 ]; then
		compare_into "${offs#,}" "${ons#,}" compare-all \
			"all boots, the $count_off SMAP-off runs against the $count_on SMAP-on runs, each boot a unit"
	fi
	for ((i = 0; i + 1 < ${#rows[@]}; i += 2)); do
		IFS=, read -r _ _ s1 _ _ _ _ r1 <<<"${rows[i]}"
		IFS=, read -r _ _ _ _ _ _ _ r2 <<<"${rows[i + 1]}"
		if [ "$s1" = smap ]; then on=$r1 off=$r2; else on=$r2 off=$r1; fi
		pair=$((pair + 1))
		compare_into "$off" "$on" "compare-$pair" \
			"boots $((i + 1)) and $((i + 2)), $off against $on"
	done
	pair_cost
	workload
	mv -f "$series/report.md.tmp" "$series/report.md"
}

# ------------------------------------------------------------ start
# out_refusal DIR: why DIR cannot hold a series, or nothing. The unit
# reads it on every boot, before anyone logs in.
out_refusal() {
	local fstype
	case $1 in
	*[!A-Za-z0-9._/+@,:=-]*)
		echo "--out $1: a series directory's path may hold letters, digits and . _ / + @ , : = - only (the systemd unit names it)"
		return ;;
	esac
	case $1/ in
	/tmp/* | /var/tmp/*)
		echo "--out $1 is under ${1#/}, which may be emptied at boot: choose a directory that lasts (the default data/, or one in /var or /home)"
		return ;;
	esac
	fstype=$(stat -f -c %T "$1" 2>/dev/null)
	case $fstype in
	tmpfs | ramfs)
		echo "--out $1 is on $fstype, which does not survive a reboot: choose a directory on a disk" ;;
	nfs* | cifs | smb* | fuse* | ecryptfs | autofs | ceph | afs | glusterfs | 9p)
		# 9p only where it is the host-root guest's share (--vm-guest).
		[ "$fstype" = 9p ] && [ "$vm_guest" -eq 1 ] && return
		echo "--out $1 is on $fstype, which may not be there when the series continues at boot: choose a directory on a local disk" ;;
	esac
}
# The kexec-tools of Debian's init scripts reboot with kexec into the
# running command line (LOAD_KEXEC=true, no APPEND): on a SMAP-off boot
# every reboot of a sysvinit machine would keep SMAP off.
kexec_reboot_reuses_cmdline() {
	[ -x /etc/init.d/kexec-load ] && [ -r /etc/default/kexec ] || return 1
	have_systemd && return 1
	[ "$vm_guest" -eq 1 ] && return 1
	(
		LOAD_KEXEC="" APPEND="" USE_GRUB_CONFIG=""
		# shellcheck disable=SC1091
		. /etc/default/kexec 2>/dev/null
		case $LOAD_KEXEC in true | 1) ;; *) exit 1 ;; esac
		[ -z "$APPEND" ] && [ "$USE_GRUB_CONFIG" != true ]
	)
}
# ------------------------------------------------------------ planning
# plan_rows RUN ARG...: the rows smapbench plan must hold for, for a
# series whose runs take ARG... (its args), into plan_rows_regex (empty:
# plan's default, the headline rows). With --command, the command's row
# alone, whatever the suites: the command is what the user names, and
# its row is what the series is about; its name is RUN's row of suite
# command (without RUN, smapbench run --list's). Else with --filter, its
# regular expression (the series' runs hold no other suite's rows); else
# with --suite S but all, S's rows. Status 1: RUN has no command row.
plan_rows() {
	local run=$1 command="" filter="" suite="" name
	shift
	plan_rows_regex=""
	while [ $# -gt 0 ]; do
		case $1 in
		--command) command=${2-}; shift ;;
		--filter) filter=${2-}; shift ;;
		--suite) suite=${2-}; shift ;;
		esac
		shift
	done
	if [ -n "$command" ]; then
		if [ -n "$run" ]; then
			name=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "name") n = i; if ($i == "suite") s = i }; next }
				n && s && $s == "command" { print $n; exit }' "$run/results.csv" 2>/dev/null)
		else
			name=$("$here/build/smapbench" run --list --suite none --command "$command" 2>/dev/null |
				awk '$2 == "command" { print $1; exit }')
		fi
		[ -n "$name" ] || return 1
		# its words are letters, digits and . _ + - /: . and + are special
		plan_rows_regex="^$(sed 's/[.+]/\\&/g' <<<"$name")\$"
	elif [ -n "$filter" ]; then
		plan_rows_regex=$filter
	else
		case $suite in syscall | kmod | bpf) plan_rows_regex="^$suite/" ;; esac
	fi
	return 0
}
# has_row RUN REGEX: RUN's results.csv has a row whose name matches REGEX
# (none: any row).
has_row() {
	[ -n "$2" ] || return 0
	# ENVIRON: -v would take the regular expression's backslashes
	re=$2 awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "name") n = i; next }
		n && $n ~ ENVIRON["re"] { found = 1; exit } END { exit !found }' "$1/results.csv" 2>/dev/null
}
# prior_runs [ROWS]: the runs under OUT (its run directories and its
# series' runs) of this machine (smapbench info --same-machine RUN) that
# finished and hold a row ROWS matches, of the SMAP state seen on the
# most boots, one a line; nothing unless that is two boots or more: what
# smapbench plan needs.
prior_runs() {
	local bin=$here/build/smapbench d kv want=${1-}
	for d in "$out"/*/ "$out"/series-*/runs/*/; do
		d=${d%/}
		[ -f "$d/context.csv" ] || continue
		has_row "$d" "$want" || continue
		kv=$("$bin" info --format=kv "$d" 2>/dev/null) || continue
		grep -q '^status=interrupted$' <<<"$kv" && continue
		"$bin" info --same-machine "$d" >/dev/null 2>&1 || continue
		printf '%s\t%s\t%s\n' "$(sed -n 's/^smap_state=//p' <<<"$kv")" \
			"$(sed -n 's/^boot_id=//p' <<<"$kv")" "$d"
	done | awk -F'\t' '
		$1 != "" && $2 != "" { runs[$1] = runs[$1] $3 "\n"; if (!seen[$1 SUBSEP $2]++) boots[$1]++ }
		END {
			for (s in boots) if (boots[s] > best) { best = boots[s]; pick = s }
			if (best >= 2) printf "%s", runs[pick]
		}'
}
# plan_with BIN PHASES RUN...: smapbench plan on the runs, for precision
# and max_boots, the rows of plan_rows_regex and the costs of the
# phases.csv PHASES (none: assumed) (bounded: a plan takes a second);
# sets plan_text (its output), planned_boots, planned_repetitions,
# planned_time and planned_fits (1: within max_boots). Status 0: a
# figure; 2: none (plan_why: not even the planner's most boots reach the
# precision, or plan's error).
plan_with() {
	local bin=$1 phases=$2 rc=0 line=""
	shift 2
	plan_text=$(timeout -k 5 120 "$bin" plan "$@" --precision "$precision" \
		--max-boots "$max_boots" ${plan_rows_regex:+--rows "$plan_rows_regex"} \
		${phases:+--phases "$phases"} 2>&1) || rc=$?
	planned_fits=0 planned_boots="" planned_repetitions="" planned_time="" plan_why=""
	if [ "$rc" -eq 0 ]; then
		planned_fits=1
		line=$(grep -m 1 '^plan: ' <<<"$plan_text")
	elif [ "$rc" -eq 1 ]; then
		line=$(grep -m 1 '^  +-[0-9.]*% needs ' <<<"$plan_text")
	fi
	if [ -n "$line" ]; then
		planned_boots=$(sed -n 's/^.* \([0-9][0-9]*\) boots (.*/\1/p' <<<"$line")
		planned_repetitions=$(sed -n 's/.* \([0-9][0-9]*\) repetitions an invocation.*/\1/p' <<<"$line")
		planned_time=$(sed -n 's/.*, about \(.*\)$/\1/p' <<<"$line")
		[[ $planned_boots =~ ^[0-9]+$ ]] && [[ $planned_repetitions =~ ^[0-9]+$ ]] &&
			[ -n "$planned_time" ] && return 0
		plan_why="smapbench plan's figure could not be read: $line"
		return 2
	fi
	# no figure: the runs unreadable, or not even the planner's most
	# boots reach the precision
	plan_why=$(grep -m 1 '^  not even \|^smapbench plan: ' <<<"$plan_text")
	[ -n "$plan_why" ] || plan_why="smapbench plan ended with status $rc and no plan"
	return 2
}
# prior_phases: the newest phases.csv under OUT of an earlier series of
# this machine (one of its runs is: smapbench info --same-machine), or
# nothing.
prior_phases() {
	local f d run
	while IFS= read -r f; do
		d=${f%/phases.csv}
		for run in "$d"/runs/*/; do
			[ -f "$run/context.csv" ] || continue
			if "$here/build/smapbench" info --same-machine "${run%/}" >/dev/null 2>&1; then
				echo "$f"
				return 0
			fi
		done
	done < <(ls -t "$out"/series-*/phases.csv 2>/dev/null)
}
# plan_series: plan_with on the prior runs of the series' rows (run_args),
# with the costs of the newest earlier series' phases.csv. Status 1: no
# prior runs (or no row of the command to name); else plan_with's.
plan_series() {
	local runs=() phases
	plan_rows "" "${run_args[@]}" || return 1
	mapfile -t runs < <(prior_runs "$plan_rows_regex")
	[ ${#runs[@]} -ge 2 ] || return 1
	phases=$(prior_phases)
	plan_from="${#runs[@]} runs of this machine under $out"
	plan_basis=" (rows: ${plan_rows_regex:-the headline rows}; costs: ${phases:+measured, ${phases#"$out/"}}${phases:-assumed})"
	plan_with "$here/build/smapbench" "$phases" "${runs[@]}"
}
# boots_words [ADD]: how many boots the series has (plus ADD): n, or
# from n to max_boots when the series plans the rest after its first.
boots_words() {
	local add=${1:-0}
	if [ "$plan_after" -gt 0 ] && [ "$max_boots" -gt "$n" ]; then
		echo "$((n + add)) to $((max_boots + add))"
	else
		echo "$((n + add))"
	fi
}
# The question before the first reboot: what happens, asked on the
# terminal; only "yes" goes on.
ask() {
	local answer minutes per users
	case " ${run_args[*]} " in
	*" --quick "*) per=2 ;;
	*" --full "*) per=12 ;;
	*) per=4 ;;
	esac
	minutes=$((n * per))
	users=$(who 2>/dev/null | awk '{print $1}' | sort -u | tr '\n' ' ')
	echo
	say "a boot series of $(boots_words) boots of $release, SMAP on and off in turn:"
	if [ "$reboot_how" = manual ]; then
		echo "  - it runs on this boot, then asks you to boot $(boots_words -1) more times with the command lines it prints, and once more normally"
	else
		echo "  - it runs on this boot, then REBOOTS THIS MACHINE $(boots_words) times with kexec ($(boots_words -1) boots of the series and one back into"
		echo "    the original command line), by itself, a few minutes apart"
	fi
	echo "  - every reboot disconnects everyone logged in${users:+ (now: $users)} and stops every service"
	if [ "$plan_after" -gt 0 ]; then
		echo "  - how many boots is decided after boot $plan_after, by smapbench plan on the series' own boots 1 and 3"
		echo "    (SMAP $(state_word "${states[0]}")) for SMAP on - off within +-$precision: at least $n, at most $max_boots (--max-boots);"
		echo "    in all about $minutes to $((max_boots * per)) minutes at the repetitions of boots 1 to $plan_after (the plan sets those of the rest);"
		echo "    every boot but the first and the last has its own command line"
	elif [ "$planned" -eq 1 ]; then
		echo "  - $n boots of $planned_repetitions repetitions a run, planned for SMAP on - off within +-$precision: in all about $planned_time"
		echo "    (smapbench plan's estimate); every boot but the first and the last has its own command line"
	else
		echo "  - in all about $minutes minutes; every boot but the first and the last has its own command line"
	fi
	[ "$install_kexec" -eq 1 ] && echo "  - kexec-tools is installed for the series and removed at its end"
	echo "  - it ends on the original command line with SMAP on; --boots-abort ends it early"
	printf '%s: start the series? [y/N] ' "$prog"
	read -r answer || answer=""
	case $answer in y | Y | yes | YES) return 0 ;; esac
	say "no series started"
	exit 2
}
# start_undo: a start that fails or is interrupted removes what it made.
start_undo() {
	trap '' INT TERM HUP
	rm -f "$state/series"
	[ "$unit_installed" -eq 1 ] && remove_unit
	if [ "$installed_kexec" -eq 1 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq kexec-tools >/dev/null 2>&1
	fi
	rm -rf "$state" "$series"
	[ "$made_state_root" -eq 1 ] && rmdir "$state_root" 2>/dev/null
	kexec_unload
}
start() {
	local yes=0 install=0 got states=() plan_states=() k why answer census_from="" planned=0
	local plan_after=0
	local bench_census_from=""
	n=${1:-}
	shift
	precision=1% max_boots=64
	[ "$n" = auto ] || { [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 2 ] && [ "$n" -le 64 ]; } ||
		refuse "a series has 2 to 64 boots, or auto"
	vm_guest=0
	while [ $# -gt 0 ]; do
		case $1 in
		--yes) yes=1 ;;
		--install) install=1 ;;
		--vm-guest) vm_guest=1 ;;
		--precision | --max-boots)
			[ $# -ge 2 ] || refuse "start: $1 needs a value"
			if [ "$1" = --precision ]; then precision=$2; else max_boots=$2; fi
			shift ;;
		--census)
			[ $# -ge 2 ] && [ -f "$2/census.csv" ] || refuse "start: --census needs a census directory"
			census_from=$2
			shift ;;
		--bench-census)
			[ $# -ge 2 ] && [ -f "$2/census.csv" ] || refuse "start: --bench-census needs a census directory"
			bench_census_from=$2
			shift ;;
		--) shift; break ;;
		*) refuse "start: unknown option '$1'" ;;
		esac
		shift
	done
	run_args=("$@")
	[ "$(id -u)" -eq 0 ] || refuse "a boot series needs root"
	if pending; then
		refuse "a boot series is pending on this machine: $(cat "$state/series") ($prog --series-status; $prog --boots-abort ends it)"
	fi
	why=$(out_refusal "$out")
	[ -z "$why" ] || refuse "$why"
	[ -x "$here/build/smapbench" ] || refuse "build smapbench first (make)"
	release=$(uname -r)
	got=$(smap_state "$here/build/smapbench")
	case $got in
	smap) states=(smap nosmap) ;;
	nosmap)
		"$here/build/smapbench" info --format=kv 2>/dev/null | grep -q '^smap_cpuid=1' ||
			refuse "this CPU has no SMAP: there is nothing to turn off and on"
		states=(nosmap smap) ;;
	*) refuse "cannot tell this boot's SMAP state ($here/build/smapbench info)" ;;
	esac
	# The plan, from this machine's earlier runs: --boots auto follows it,
	# --boots N shows it.
	plan_series
	case $?,$n in
	1,auto)
		# None: the series plans from its own first boots, the two of
		# boot 1's state (1 and 3) that smapbench plan needs, and starts
		# with the fewest boots a plan has, 2 a state.
		[ "$max_boots" -ge 4 ] ||
			refuse "--boots auto: no earlier runs of this machine under $out${plan_rows_regex:+ with rows of $plan_rows_regex} to plan from, so the series plans after its boot 3 from its own boots 1 and 3 and has 4 boots at least (2 a state), more than --max-boots $max_boots: allow 4 or more, or run a series first (run-bench.sh --boots 4 --out $out)"
		n=4 plan_after=3
		say "no earlier runs of this machine under $out${plan_rows_regex:+ with rows of $plan_rows_regex} to plan from: the series starts with 4 boots and, after boot 3, plans how many it needs (at most $max_boots) from its own boots 1 and 3" ;;
	2,auto)
		printf '%s\n' "$plan_text" | sed 's/^/  /'
		case $plan_why in
		"  not even "*)
			printf '%s: error: --boots auto: a series for %s needs more boots than --max-boots %s allows (smapbench plan:%s): no series started\n' \
				"$prog" "$precision" "$max_boots" "${plan_why#" "}" >&2
			exit 1 ;;
		esac
		refuse "--boots auto: smapbench plan gives no plan from the runs under $out${plan_why:+: $plan_why}" ;;
	0,auto)
		printf '%s\n' "$plan_text" | sed 's/^/  /'
		if [ "$planned_fits" -eq 0 ]; then
			printf '%s: error: --boots auto: a series for %s needs %s boots (about %s), more than the %s allowed (--max-boots): no series started\n' \
				"$prog" "$precision" "$planned_boots" "$planned_time" "$max_boots" >&2
			exit 1
		fi
		[ $((planned_boots % 2)) -eq 0 ] && [ "$planned_boots" -ge 2 ] && [ "$planned_boots" -le "$max_boots" ] ||
			refuse "--boots auto: smapbench plan gave $planned_boots boots"
		n=$planned_boots planned=1
		run_args+=(--repetitions "$planned_repetitions")
		say "planned from $plan_from: $n boots, $planned_repetitions repetitions a run, about $planned_time for $precision$plan_basis" ;;
	0,*)
		say "a series planned for $precision would take $planned_boots boots, about $planned_time$([ "$planned_fits" -eq 1 ] || echo ": more than $max_boots") (smapbench plan, from $plan_from)$plan_basis" ;;
	esac
	discover_kernel
	[ -z "$kernel_why" ] || refuse "$kernel_why"
	if grep -qs '\[integrity\]\|\[confidentiality\]' /sys/kernel/security/lockdown &&
		! kexec -s -l "$image" ${initrd:+--initrd="$initrd"} --append="$(current_cmdline)" 2>/dev/null; then
		refuse "the kernel is locked down and refuses to kexec $image (an unsigned image?): boot the SMAP-off kernel by hand (docs/smap-off.md)"
	fi
	kexec_unload
	# How the series reboots: systemctl kexec where systemd is PID 1, a
	# plain kexec -e in the host-root guest (its PID 1 runs only this),
	# else by hand, asking for each boot.
	install_kexec=0 kexec_note=""
	if [ "$vm_guest" -eq 1 ]; then
		reboot_how=guest
	elif have_systemd; then
		reboot_how=systemd
	else
		reboot_how=manual kexec_note="without systemd, each reboot is made by hand"
	fi
	if [ -n "${SMAPBENCH_NO_KEXEC:-}" ]; then
		reboot_how=manual kexec_note="SMAPBENCH_NO_KEXEC is set"
	elif [ "$reboot_how" != manual ]; then
		why=$(kexec_unusable)
		if [ "$why" = "kexec is not installed" ] && [ "$install" -eq 1 ] && command -v apt-get >/dev/null; then
			install_kexec=1
		elif [ -n "$why" ]; then
			reboot_how=manual kexec_note="$why (kexec-tools: apt-get install kexec-tools, dnf install kexec-tools, pacman -S kexec-tools)"
		fi
	fi
	if kexec_reboot_reuses_cmdline; then
		refuse "kexec-tools reboots this machine with kexec into its running command line (LOAD_KEXEC=true, APPEND empty in /etc/default/kexec): a reboot on a SMAP-off boot would keep SMAP off. Set LOAD_KEXEC=false (dpkg-reconfigure kexec-tools) for the series"
	fi
	if [ "$yes" -eq 0 ]; then
		[ -t 0 ] || refuse "a boot series reboots this machine $(boots_words) times and asks first, on a terminal: run it from one, or pass --yes"
		ask
	fi

	# ---- from here on, anything that fails undoes what was made
	made_state_root=0 unit_installed=0 installed_kexec=0
	[ -d "$state_root" ] || made_state_root=1
	mkdir -p "$state_root" || refuse "cannot create $state_root"
	lock
	pending && refuse "a boot series is pending on this machine: $(cat "$state/series")"
	rm -rf "$state"
	id=$(hostname -s 2>/dev/null || echo host)-$(date -u +%Y%m%d-%H%M%S)
	series=$out/series-$id
	series_log=$series/log
	trap 'start_undo; exit 130' INT
	trap 'start_undo; exit 143' TERM
	trap 'start_undo; exit 129' HUP
	mkdir -p "$series/runs" "$state" || { start_undo; refuse "cannot create $series and $state"; }
	: >"$series/log"
	for ((k = 0; k < n; k++)); do plan_states+=("${states[k % 2]}"); done
	if [ "$install_kexec" -eq 1 ]; then
		say "installing kexec-tools (its reboot-time kexec off), to reboot between the boots"
		echo 'kexec-tools kexec-tools/load_kexec boolean false' | debconf-set-selections 2>/dev/null
		if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade \
			kexec-tools >>"$series/log" 2>&1 && have_kexec; then
			installed_kexec=1
		else
			tail -n 5 "$series/log" >&2
			start_undo
			refuse "kexec-tools could not be installed; nothing was changed (or pass --no-install: each reboot is then made by hand)"
		fi
	fi
	# The programs every boot runs: this build, whatever happens to the
	# checkout meanwhile.
	mkdir -p "$series/bin/build" &&
		cp "$here/run-bench.sh" "$series/bin/" &&
		cp "$here/build/smapbench" "$series/bin/build/" &&
		cp -r "$here/plots" "$series/bin/" &&
		{ [ -z "$census_from" ] || cp -r "$census_from" "$series/census"; } &&
		{ [ -z "$bench_census_from" ] || cp -r "$bench_census_from" "$series/census-bench"; } &&
		{ ! [ -f "$here/build/kmod/$release/smapbench.ko" ] ||
			{ mkdir -p "$series/bin/build/kmod/$release" &&
				cp "$here/build/kmod/$release/smapbench.ko" "$series/bin/build/kmod/$release/"; }; } ||
		{ start_undo; refuse "cannot copy the programs into $series/bin"; }
	{
		echo "id=$id"
		echo "series=$series"
		echo "boots=$n"
		[ "$planned" -eq 0 ] || echo "planned=$precision, $planned_repetitions repetitions a run, from $plan_from"
		if [ "$plan_after" -gt 0 ]; then
			echo "plan_after=$plan_after"
			echo "plan_precision=$precision"
			echo "plan_max_boots=$max_boots"
		fi
		echo "states=${plan_states[*]}"
		echo "original_cmdline=$(current_cmdline)"
		echo "off_param=$(off_param_for "$release")"
		echo "release=$release"
		echo "host=$(hostname 2>/dev/null)"
		echo "kernel_image=$image"
		echo "kernel_found_by=$kernel_how"
		is_uki "$image" && echo "kernel_is_uki=1"
		echo "initrd=$initrd"
		echo "reboot=$reboot_how"
		echo "unit=$([ "$reboot_how" = systemd ] || { [ "$reboot_how" = manual ] && have_systemd; } && echo 1 || echo 0)"
		echo "settle_seconds=${SMAPBENCH_SETTLE_SECONDS:-120}"
		echo "step_seconds=${SMAPBENCH_SERIES_STEP_SECONDS:-7200}"
		echo "fail_at=${SMAPBENCH_SERIES_FAIL_AT:-0}"
		echo "census=$census_from"
		echo "bench_census=$bench_census_from"
		echo "installed_kexec_tools=$installed_kexec"
		echo "made_state_root=$made_state_root"
		echo "checkout=$here"
		echo "started=$(utc)"
	} | put "$series/plan" && cp "$series/plan" "$state/plan" &&
		{ [ ${#run_args[@]} -eq 0 ] || printf '%s\n' "${run_args[@]}"; } | put "$series/args" &&
		echo "boot,smap_wanted,smap_got,boot_id,uptime_s,load_1min,settle_s,run" | put "$series/boots.csv" &&
		cp "$here/scripts/boot-series.sh" "$state/boot-series.sh" ||
		{ start_undo; refuse "cannot write the series' files"; }
	# The unit before the marker: a unit without a marker removes itself.
	if [ "$(plan_get unit)" = 1 ]; then
		unit_installed=1
		install_unit || { start_undo; refuse "cannot install $unit_path (systemctl daemon-reload or enable failed; log: nothing kept)"; }
	fi
	printf '%s\n' "$series" | put "$state/series" || { start_undo; refuse "cannot write $state/series"; }
	unlock
	note "started: $n boots (${plan_states[*]}), $(off_param_for "$release") for SMAP off, kexec of $image${initrd:+ and $initrd} (found by $kernel_how); $series"
	[ -z "$kexec_note" ] || note "note: $kexec_note"
	step 1
}

# ------------------------------------------------------------ resume
resume() {
	local param k how misses attempt made
	if ! pending; then
		# A unit whose series is gone removes itself, and the state.
		if [ -e "$unit_path" ] && grep -q "^ExecStart=/bin/bash $state/boot-series.sh resume" "$unit_path"; then
			made=$(plan_get made_state_root)
			remove_unit
			rm -rf "$state"
			[ "$made" = 1 ] && rmdir "$state_root" 2>/dev/null
		fi
		exit 0
	fi
	lock
	load_series
	param=$(series_param)
	k=$(($(boots_done) + 1))
	if [ -f "$state/ending" ]; then
		# The boot after the last run, or after a failure.
		how=$(cat "$state/ending")
		if [ "$(current_cmdline)" = "$(plan_get original_cmdline)" ]; then
			end_series "$how"
			[ "$how" = "done" ] && exit 0
			exit 1
		fi
		misses=$(($(counter misses) + 1))
		set_counter misses "$misses"
		if [ "$misses" -gt 1 ]; then
			note "this boot is not the original command line either: ending here"
			unlock
			rm -f "$state/ending"
			fail_quiet_end "$how"
		fi
		unlock
		note "this boot is not the original command line: returning again"
		return_home "$how"
		exit 0
	fi
	if ! series_reachable; then
		set_status "failed: the series' directory $series is not there on this boot"
		unlock
		return_home failed
		exit 1
	fi
	attempt=$(cut -d' ' -f1 "$state/attempt" 2>/dev/null)
	if [ "$param" = "$id:$k" ] && [ "$attempt" != "$k" ]; then
		unlock
		step "$k"
	fi
	unlock
	if [ "$param" = "$id:$k" ]; then
		fail "boot $k came up again after its run did not finish (a crash, a hang or a power loss during it, then a reboot into the same command line)"
	fi
	misses=$(($(counter misses) + 1))
	set_counter misses "$misses"
	if [ "$(plan_get reboot)" = manual ] && [ -z "$param" ] && [ "$misses" -lt "$manual_misses" ]; then
		note "this boot is not boot $k of the series (no smapbench.series=$id:$k on its command line): waiting for it, through $((manual_misses - misses)) more boots at most"
		exit 0
	fi
	fail "this boot is not the series' next step, boot $k (its command line has ${param:+smapbench.series=$param, }no smapbench.series=$id:$k): a power loss, a hang, a reset or a reboot the series did not make came between"
}
# fail_quiet_end HOW: end on this boot without another reboot.
fail_quiet_end() {
	end_series "$1"
	note "THIS BOOT IS NOT THE ORIGINAL COMMAND LINE: reboot it (the boot loader's default is)"
	exit 1
}
# load_series: id and series of the pending series, and what end_series
# needs after the state is removed.
load_series() {
	series=$(cat "$state/series")
	id=$(plan_get id)
	series_log=$series/log
	series_reachable || series_log=/dev/null
}

# ------------------------------------------------------------ commands
mode=${1:-}
[ $# -gt 0 ] && shift
id="" series="" series_log=/dev/null run_pid="" settle_seconds=0 vm_guest=0 returning=0
# The series' own copy runs resume and abort: the code the series
# started with.
case $mode in
resume | abort)
	if [ -f "$state/boot-series.sh" ] && [ "$0" != "$state/boot-series.sh" ]; then
		exec /bin/bash "$state/boot-series.sh" "$mode" "$@"
	fi ;;
esac
case $mode in
start)
	out=${1:-}
	[ -n "$out" ] || refuse "usage: $0 start OUT N|auto [--precision P] [--max-boots M] [--yes] [--install] [--vm-guest] [--census DIR] [-- RUN-ARGUMENT...]"
	shift
	start "$@"
	;;
resume)
	resume
	;;
pending)
	pending || exit 1
	cat "$state/series"
	;;
unit)
	[ -n "${1:-}" ] || refuse "usage: $0 unit DIR"
	unit_text "$1"
	;;
kernel)
	discover_kernel
	[ -z "$kernel_why" ] || refuse "$kernel_why"
	echo "image=$image"
	echo "initrd=$initrd"
	echo "found_by=$kernel_how"
	;;
status)
	out=${1:-}
	if ! pending; then
		say "no boot series pending on this machine"
		[ -n "$out" ] || exit 0
		last=$(ls -d "$out"/series-*/ 2>/dev/null | tail -n 1)
		[ -z "$last" ] || say "the last one in $out: ${last%/}: $(cat "${last}status" 2>/dev/null)"
		exit 0
	fi
	load_series
	say "series $id: $(status_line)"
	say "plan: $(plan_get boots) boots ($(plan_get states)), $(plan_get off_param) for SMAP off, reboots: $(plan_get reboot)"
	if [ -n "$(plan_get planned)" ]; then
		say "--boots auto: $(plan_get planned)"
	elif [ -n "$(plan_get plan_after)" ]; then
		say "--boots auto: the boots are planned after boot $(plan_get plan_after) for +-$(plan_get plan_precision), at most $(plan_get plan_max_boots)"
	fi
	column -t -s, "$series/boots.csv" 2>/dev/null || cat "$series/boots.csv" 2>/dev/null
	say "directory: $series; log: $series/log"
	;;
abort)
	pending || { say "no boot series pending on this machine"; exit 0; }
	[ "$(id -u)" -eq 0 ] || refuse "--boots-abort needs root"
	lock
	load_series
	set_status "aborted at boot $(($(boots_done) + 1)) of $(plan_get boots) ($prog --boots-abort)"
	printf 'aborted\n' | put "$state/ending"
	kexec_unload
	# A step that runs stops now (its trap sees the series ending).
	{ read -r pid start_time <"$state/step"; } 2>/dev/null
	if [ -n "${pid:-}" ] && [ "$pid" != "$$" ] &&
		[ "$(cut -d' ' -f22 "/proc/$pid/stat" 2>/dev/null)" = "$start_time" ]; then
		kill -TERM "$pid" 2>/dev/null
	fi
	unlock
	return_home aborted
	;;
*)
	refuse "usage: $0 start|resume|status|abort|pending|unit|kernel ..."
	;;
esac
