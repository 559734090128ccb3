# The boot series' sandbox (stage 47-series-sandbox): the real
# scripts/boot-series.sh and run-bench.sh, run as root in a private mount
# namespace where the machine they see is made up, and nothing reboots.
# shellcheck shell=bash disable=SC2034,SC2120 # globals the stage reads; eval sets $@
#
# What the namespace puts over the real paths (tmpfs or bind mounts, gone
# with the namespace):
#   /proc/cmdline, /proc/cpuinfo, /proc/sys/kernel/random/boot_id,
#   /proc/1/comm   this boot's command line, SMAP flag, boot_id, PID 1
#   /boot, /usr/lib/modules, /run   the layouts of the distributions
#   /etc/systemd/system, /var/lib, /etc/default
#   /usr/local/sbin  stand-ins that record their arguments: kexec (loads
#                  and unloads an image, never reboots), systemctl (enable
#                  and disable make and remove the wants link; kexec
#                  records the hand-over; is-system-running answers as
#                  systemd does, "starting" while a Type=oneshot unit of
#                  the series runs), logger (the journal), and a make
#                  that records and runs the real one
# sb_boot then does what a reboot would: the loaded command line (or
# another) becomes /proc/cmdline, with a new boot_id and the SMAP flag
# that command line gives, and the series' unit runs when its wants link
# exists, with systemd's environment and nothing else.
#
# SB_TREE is the checkout whose scripts run (default: this one).

sb_rel=$(uname -r)
sb_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# sb_image FILE RELEASE: a bzImage header that names RELEASE (all that a
# kexec stand-in and the image discovery read).
sb_image() {
	local file=$1 rel=$2
	mkdir -p "$(dirname "$file")"
	head -c 2048 /dev/zero >"$file"
	printf 'MZ' | dd of="$file" conv=notrunc 2>/dev/null
	printf 'HdrS' | dd of="$file" bs=1 seek=514 conv=notrunc 2>/dev/null
	# 0x20e: 0x0300 - 0x200 = 0x100, little-endian
	printf '\000\001' | dd of="$file" bs=1 seek=526 conv=notrunc 2>/dev/null
	printf '%s (sandbox@smapbench) #1 SMP\0' "$rel" | dd of="$file" bs=1 seek=768 conv=notrunc 2>/dev/null
}
# sb_uki FILE RELEASE: a PE file with the sections of a unified image.
sb_uki() {
	mkdir -p "$(dirname "$1")"
	{
		printf 'MZ'
		head -c 510 /dev/zero
		printf '.osrel\0\0.cmdline.linux\0\0.initrd\0.uname\0\0%s\0' "$2"
		head -c 1024 /dev/zero
	} >"$1"
}
sb_initrd() { mkdir -p "$(dirname "$1")"; printf 'initramfs\n' >"$1"; }

# sb_stubs: the stand-ins, into /usr/local/sbin.
sb_stubs() {
	local d=/usr/local/sbin
	cat >"$d/kexec" <<'EOF'
#!/bin/bash
# kexec stand-in: records each call; -l keeps what would boot in
# $SB/loaded (image, initrd, command line); -u drops it; -e records.
printf '%q ' kexec "$@" >>"$SB/kexec.log"; echo >>"$SB/kexec.log"
image="" initrd="" append="" action=""
while [ $# -gt 0 ]; do
	case $1 in
	--version) echo "kexec-tools 2.0.25"; exit 0 ;;
	-s | --kexec-file-syscall) ;;
	-l | --load) action=load image=$2; shift ;;
	-u | --unload) action=unload ;;
	-e | --exec) action=exec ;;
	--initrd=*) initrd=${1#--initrd=} ;;
	--append=*) append=${1#--append=} ;;
	*) echo "kexec: unknown argument $1" >&2; exit 1 ;;
	esac
	shift
done
case $action in
load)
	[ -e "$SB/kexec-fail-load" ] && { echo "kexec: cannot load $image" >&2; exit 1; }
	# Debian 12's kexec-tools reads no unified kernel image.
	[ "$(dd if="$image" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] ||
		{ echo "Cannot determine the file type of $image" >&2; exit 1; }
	printf '%s\n%s\n%s' "$image" "$initrd" "$append" >"$SB/loaded"
	[ -x "$SB/load-hook" ] && "$SB/load-hook"
	exit 0 ;;
unload) rm -f "$SB/loaded"; exit 0 ;;
exec) echo exec >>"$SB/kexec.log"; exit 0 ;;
esac
EOF
	cat >"$d/systemctl" <<'EOF'
#!/bin/bash
# systemctl stand-in: records each call (and how long it took).
start=$(date +%s)
printf '%q ' systemctl "$@" >>"$SB/systemctl.log"
trap 'echo "# $(( $(date +%s) - start )) s" >>"$SB/systemctl.log"' EXIT
trap 'exit 143' TERM
links=/etc/systemd/system/multi-user.target.wants
# systemd: "starting" while a job runs; a Type=oneshot unit is one until
# its command ends.
system_state() {
	if [ -e "$SB/stopping" ]; then echo stopping
	elif [ -n "${SB_IN_UNIT:-}" ] && grep -qx 'Type=oneshot' "$SB_IN_UNIT" 2>/dev/null; then echo starting
	else echo running
	fi
}
case $1 in
--version) echo "systemd ${SB_SYSTEMD_VERSION:-252} (${SB_SYSTEMD_VERSION:-252})"; exit 0 ;;
daemon-reload) [ -e "$SB/fail-daemon-reload" ] && exit 1; exit 0 ;;
enable)
	[ -e "$SB/fail-enable" ] && exit 1
	mkdir -p "$links" && ln -sf "/etc/systemd/system/$2" "$links/$2"; exit 0 ;;
disable) rm -f "$links/$2"; exit 0 ;;
is-system-running)
	s=$(system_state)
	if [ "${2:-}" = --wait ]; then
		while [ "$s" = starting ]; do sleep 1; s=$(system_state); done
	fi
	echo "$s"; [ "$s" = running ] ;;
kexec)
	[ -e "$SB/fail-systemctl-kexec" ] && { echo "Failed to start kexec.target" >&2; exit 1; }
	[ -e "$SB/loaded" ] || { echo "no kexec kernel loaded" >&2; exit 1; }
	cp "$SB/loaded" "$SB/handed-over"; exit 0 ;;
reboot) touch "$SB/firmware-reboot"; exit 0 ;;
*) exit 0 ;;
esac
EOF
	cat >"$d/systemd-inhibit" <<'EOF'
#!/bin/bash
exit 0
EOF
	cat >"$d/logger" <<'EOF'
#!/bin/bash
# logger stand-in: the journal is $SB/journal, "TAG: MESSAGE".
tag=logger
while [ $# -gt 0 ]; do
	case $1 in -t) tag=$2; shift ;; --) shift; break ;; *) break ;; esac
	shift
done
echo "$tag: $*" >>"$SB/journal"
EOF
	cat >"$d/make" <<'EOF'
#!/bin/bash
printf '%q ' make "$@" >>"$SB/make.log"; echo >>"$SB/make.log"
exec /usr/bin/make "$@"
EOF
	cat >"$d/apt-get" <<'EOF'
#!/bin/bash
# apt-get stand-in: records; installs kexec-tools as dpkg would (its
# debconf default writes LOAD_KEXEC=true), purges it; nothing else.
printf '%q ' apt-get "$@" >>"$SB/apt.log"; echo >>"$SB/apt.log"
case " $* " in
*" update "*) exit 0 ;;
*" install "*kexec-tools*)
	[ -e "$SB/offer-kexec-tools" ] || exit 100
	load=true
	grep -q 'kexec-tools/load_kexec boolean false' "$SB/debconf" 2>/dev/null && load=false
	cp "$SB/kexec-stub" /usr/local/sbin/kexec
	mkdir -p /etc/default
	printf 'LOAD_KEXEC=%s\nAPPEND=""\n' "$load" >/etc/default/kexec
	touch "$SB/kexec-tools-installed"; exit 0 ;;
*" purge "*kexec-tools* | *" remove "*kexec-tools*)
	rm -f /usr/local/sbin/kexec /etc/default/kexec "$SB/kexec-tools-installed"; exit 0 ;;
esac
exit 100
EOF
	cat >"$d/debconf-set-selections" <<'EOF'
#!/bin/bash
cat >>"$SB/debconf"
EOF
	cat >"$d/dpkg-query" <<'EOF'
#!/bin/bash
# dpkg-query stand-in: kexec-tools as the apt-get stand-in left it, every
# other package installed (the namespace hides dpkg's database).
case " $* " in
*" kexec-tools"*)
	[ -e "$SB/kexec-tools-installed" ] && { printf 'install ok installed'; exit 0; }
	exit 1 ;;
esac
for p in "$@"; do case $p in -*) ;; *) printf 'install ok installed' ;; esac; done
EOF
	chmod 755 "$d"/*
	cp "$d/kexec" "$SB/kexec-stub"
}

# sb_setup [systemd|init]: the namespace's machine, booted with
# SB_CMDLINE (default: a Debian boot of this kernel), SMAP on unless the
# command line turns it off. Call once, in the namespace.
sb_setup() {
	local init=${1:-systemd}
	SB=$(mktemp -d "$SB_WORK/case.XXXXXX")
	export SB PATH=$sb_path
	mount -t tmpfs tmpfs /usr/local/sbin
	mount -t tmpfs tmpfs /run
	mount -t tmpfs tmpfs /etc/systemd/system
	mount -t tmpfs tmpfs /var/lib
	mount -t tmpfs tmpfs /etc/default
	mount -t tmpfs tmpfs /boot
	mount -t tmpfs tmpfs /usr/lib/modules
	mkdir -p /etc/systemd/system/multi-user.target.wants
	sb_stubs
	: >"$SB/cmdline" && mount --bind "$SB/cmdline" /proc/cmdline
	: >"$SB/cpuinfo" && mount --bind "$SB/cpuinfo" /proc/cpuinfo
	: >"$SB/boot_id" && mount --bind "$SB/boot_id" /proc/sys/kernel/random/boot_id
	: >"$SB/comm" && mount --bind "$SB/comm" /proc/1/comm
	if [ "$init" = systemd ]; then
		mkdir -p /run/systemd/system
		echo systemd >"$SB/comm"
	else
		echo init >"$SB/comm"
	fi
	sb_layout debian
	sb_set_boot "${SB_CMDLINE:-BOOT_IMAGE=/boot/vmlinuz-$sb_rel root=/dev/vda1 ro quiet}"
	SB_OUT=$SB_DATA/$(basename "$SB")
	mkdir -p "$SB_OUT"
}
# sb_layout NAME: /boot (and friends) as that distribution lays it out.
sb_layout() {
	case $1 in
	debian)
		sb_image "/boot/vmlinuz-$sb_rel" "$sb_rel"
		sb_initrd "/boot/initrd.img-$sb_rel" ;;
	esac
}
# sb_set_boot CMDLINE: this boot's /proc files.
sb_set_boot() {
	local flags="fpu vme de pse tsc msr pae mce cx8 apic sep smep smap clflush mmx fxsr sse sse2"
	printf '%s\n' "$1" >"$SB/cmdline"
	case " $1 " in
	*" clearcpuid="*smap*) flags=${flags/ smap/} ;;
	esac
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: sandbox\nflags\t\t: %s\n\n' "$flags" >"$SB/cpuinfo"
	cat /proc/sys/kernel/random/uuid >"$SB/boot_id"
	rm -f "$SB/loaded" "$SB/handed-over"
	sb_boots=$((${sb_boots:-0} + 1))
}
# sb_boot [CMDLINE]: the next boot: the command line handed over (or
# CMDLINE: the boot loader's default after a power loss, by hand), then
# systemd's start of the series' unit. The unit's output: $SB/unit-N.out.
sb_boot() {
	local cmdline=${1-} exec_start
	if [ -z "$cmdline" ]; then
		[ -f "$SB/handed-over" ] || return 1
		cmdline=$(sed -n '3,$p' "$SB/handed-over")
	fi
	sb_set_boot "$cmdline"
	sb_run_unit
}
# sb_run_unit: what systemd does with the enabled unit, if any.
sb_run_unit() {
	local unit=/etc/systemd/system/smapbench-series.service exec_start
	[ -L /etc/systemd/system/multi-user.target.wants/smapbench-series.service ] &&
		[ -d /run/systemd/system ] || return 0
	exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
	eval "set -- $exec_start"
	sb_unit_rc=0
	env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
		SB="$SB" SB_IN_UNIT="$unit" SB_SYSTEMD_VERSION="${SB_SYSTEMD_VERSION:-252}" \
		"$@" >"$SB/unit-$sb_boots.out" 2>&1 </dev/null &
	echo "$!" >"$SB/unit.pid"
	wait "$!" || sb_unit_rc=$?
}
# sb_kill_tree SIGNAL PID: PID and every process below it (a power loss,
# or a shutdown's signal to a whole unit).
sb_kill_tree() {
	local child
	for child in $(pgrep -P "$2"); do sb_kill_tree "$1" "$child"; done
	kill "-$1" "$2" 2>/dev/null
}
# sb_wait_for TEXT: until the journal has TEXT (at most 60 s).
sb_wait_for() {
	local waited=0
	until grep -q "$1" "$SB/journal" 2>/dev/null || [ "$waited" -ge 600 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
}
# sb_without OPTION: SB_RUN_ARGS without it.
sb_without() {
	local a kept=()
	for a in "${SB_RUN_ARGS[@]}"; do [ "$a" = "$1" ] || kept+=("$a"); done
	SB_RUN_ARGS=("${kept[@]}")
}
# sb_start N [RUN-BENCH-ARGUMENT...]: run-bench.sh --boots N as a user
# runs it, a short syscall run per boot; its output in $SB/start.out.
sb_start() {
	local n=$1
	shift
	sb_start_rc=0
	SMAPBENCH_SETTLE_SECONDS=${SMAPBENCH_SETTLE_SECONDS:-2} timeout -k 5 "${SB_TIMEOUT:-240}" \
		"$SB_TREE/run-bench.sh" --boots "$n" --out "$SB_OUT" "${SB_RUN_ARGS[@]}" "$@" \
		>"$SB/start.out" 2>&1 </dev/null || sb_start_rc=$?
}
SB_RUN_ARGS=(--suite syscall --quick --filter '^syscall/getppid$' --repetitions 1
	--min-time 0.000001 --no-plots --no-install --yes)
# The series directory, its status, its number of runs.
sb_series() { local d; for d in "$SB_OUT"/series-*/; do [ -d "$d" ] && echo "${d%/}"; done | tail -n 1; }
sb_status() { cat "$(sb_series)/status" 2>/dev/null; }
sb_runs() { find "$(sb_series)/runs" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | grep -c .; }
sb_rows() { tail -n +2 "$(sb_series)/boots.csv" 2>/dev/null | grep -c .; }
# What the machine holds of a series: the unit, its link, the state.
sb_leftovers() {
	local f
	for f in /etc/systemd/system/smapbench-series.service \
		/etc/systemd/system/multi-user.target.wants/smapbench-series.service \
		/var/lib/smapbench "$SB/loaded"; do
		[ -e "$f" ] || [ -L "$f" ] && echo "$f"
	done
}
sb_handed_over() { sed -n '3,$p' "$SB/handed-over" 2>/dev/null; }
