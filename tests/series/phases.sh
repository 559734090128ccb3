# The phase times of a finished boot series (phases.csv and report.md's
# table, docs/boot-series.md), checked the same way by the stages that
# run a whole series: 46-boot-series (in QEMU, with kexec) and
# 47-series-sandbox.
# shellcheck shell=bash

# phases_problems DIR N: what is wrong with the phase times of the
# series of N boots in DIR, one problem a line; nothing when they hold.
# Every boot has its phases once, in order, each a length of zero or
# more on the clock it is timed by, back to back (each row starts where
# the one before ended), then the comparisons and the return; report.md's
# table sums them.
phases_problems() {
	local dir=$1 n=$2 sum all
	if ! [ -f "$dir/phases.csv" ]; then
		echo "no phases.csv"
		return
	fi
	[ "$(head -n 1 "$dir/phases.csv")" = "step,phase,started,seconds,clock" ] ||
		echo "phases.csv's header is '$(head -n 1 "$dir/phases.csv")'"
	awk -F, -v n="$n" '
	function want(cond, what) { if (!cond) print what }
	NR == 1 { next }
	{
		rows++
		key = $1 "," $2
		count[key]++
		seq = seq " " key
		want($4 ~ /^[0-9]+(\.[0-9]+)?$/, "row " NR - 1 " (" key "): seconds '\''" $4 "'\''")
		clock = ($2 == "start" || $2 == "handover" || ($2 == "boot" && $5 == "wall")) ? "wall" : "uptime"
		want($5 == clock, "row " NR - 1 " (" key "): clock '\''" $5 "'\'', not " clock)
		if (rows > 1 && (prev - $3 > 0.05 || $3 - prev > 0.05))
			printf "row %d (%s) starts at %s, the row before ended at %.2f\n", NR - 1, key, $3, prev
		prev = $3 + $4
	}
	END {
		expect = " 1,start 1,check 1,settle 1,run 1,record"
		for (k = 2; k <= n; k++) {
			expect = expect (count[k ",handover"] ? " " k ",handover" : "") " " k ",boot"
			expect = expect " " k ",check " k ",settle " k ",run " k ",record"
			# --boots auto without earlier runs plans after one boot
			expect = expect (count[k ",plan"] ? " " k ",plan" : "")
		}
		expect = expect " end,compare" (count["end,handover"] ? " end,handover" : "") " end,boot"
		want(seq == expect, "phases in this order:" seq ", expected:" expect)
	}' "$dir/phases.csv"
	sum=$(awk -F, 'NR > 1 { s += $4 } END { printf "%.1f", s }' "$dir/phases.csv")
	all=$(sed -n 's/^| all |.* | \([0-9.]*\) |$/\1/p' "$dir/report.md" 2>/dev/null)
	[ "$all" = "$sum" ] ||
		echo "report.md's phase table sums to '$all' s, phases.csv to $sum s"
	grep -q '^## How long each phase took$' "$dir/report.md" 2>/dev/null ||
		echo "report.md has no section 'How long each phase took'"
	! grep -q 'still to come when this was written' "$dir/report.md" 2>/dev/null ||
		echo "report.md's phase table was not made again after the return"
}
# phase_seconds DIR STEP PHASE: the seconds of that row of phases.csv.
phase_seconds() {
	awk -F, -v s="$2" -v p="$3" '$1 == s && $2 == p { print $4 }' "$1/phases.csv" 2>/dev/null
}
# phases_total DIR: the sum of phases.csv's seconds.
phases_total() { awk -F, 'NR > 1 { s += $4 } END { printf "%.2f", s }' "$1/phases.csv" 2>/dev/null; }
