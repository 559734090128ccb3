#!/bin/bash
# smapbench table: rows, cells, intervals, pairing and exclusions, from the
# fixture pair (one machine, a SMAP and a SMAP-off boot) and the published
# runs of data/; one cell recomputed from samples.csv by awk; the command
# line and the output directory's safety. About 10 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

bin=$PWD/${SMAPBENCH:-build/smapbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! make -s smapbench >/dev/null 2>&1 || [ ! -x "$bin" ]; then
	not_ok "build smapbench (make smapbench)"
	exit 1
fi

# field FILE FIGURE BENCHMARK COLUMN: one value of table.csv
field() {
	awk -F, -v fig="$2" -v bench="$3" -v col="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["figure"] == fig && $c["benchmark"] == bench { print $c[col]; exit }' "$1"
}

# --- the fixture pair and the published runs ----------------------------------
fix=tests/fixtures
"$bin" table "$fix/run-smap" "$fix/run-nosmap" data/*/ /nonexistent \
	--out "$tmp/t" >"$tmp/t.out" 2>"$tmp/t.err"
rc=$?
check "table of the fixtures and data/ exits 0 (got $rc)" test "$rc" -eq 0
check "it prints the directory it wrote" grep -qx "table: $tmp/t" "$tmp/t.out"
check "gnuplot drew the table without a warning" eval '! grep -q "warning" "$tmp/t.err"'
for f in table.csv table.md left-out.csv .smapbench; do
	check "the table directory has $f" test -s "$tmp/t/$f"
done
csv=$tmp/t/table.csv
rows=$(awk -F, 'NR > 1 { print $1 "|" $7 }' "$csv" | sort -u | wc -l)
check "two rows: the fixture machine and this machine's native run (got $rows)" test "$rows" -eq 2

# every one-boot figure of the fixture, with an interval around its value
for fig in pair_get_user_8 pair_put_user_8 pair_copy_to_user_64 pair_copy_from_user_64 pair_sigframe_field; do
	line=$(awk -F, -v f="$fig" '$1 == "fixture" && $10 == f' "$csv")
	check "fixture: $fig has a value inside its interval, a unit and 5 repetitions" \
		awk -F, -v l="$line" 'BEGIN { split(l, x, ","); exit !(x[12] != "" &&
			x[13] <= x[12] && x[12] <= x[14] && x[15] != "" && x[16] == 5) }'
done

# pair_get_user_8 again, from samples.csv: mean of repetition medians of
# inline/8 minus nopad/8, in ns with results.csv's median_ns / median
center() {
	awk -F, -v n="$1" '$1 == n { v[$2] = v[$2] " " $5 }
		END {
			for (r in v) {
				k = split(v[r], x, " ")
				for (i = 1; i <= k; i++)
					for (j = i + 1; j <= k; j++)
						if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
				m = k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
				s += m; reps++
			}
			printf "%.10g\n", s / reps
		}' "$fix/run-smap/samples.csv"
}
scale=$(awk -F, '$1 == "kmod/get_user/inline/8" { print $21 / $10 }' "$fix/run-smap/results.csv")
want=$(awk -v a="$(center kmod/get_user/inline/8)" -v b="$(center kmod/get_user/nopad/8)" \
	-v s="$scale" 'BEGIN { printf "%.6g", (a - b) * s }')
got=$(field "$csv" pair_get_user_8 "kmod/get_user/inline/8 - nopad" value)
check "fixture get_user 8 B pair from samples.csv by awk: $want ns, the table says $got" \
	awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; exit !(b != "" && (d < 0 ? -d : d) <= 1e-4 * (a < 0 ? -a : a)) }'

# the two boots paired: a delta per headline kapi and syscall row
deltas=$(awk -F, '$1 == "fixture" && $10 == "smap_delta"' "$csv" | wc -l)
check "fixture: SMAP and SMAP-off boots paired, 7 headline deltas (got $deltas)" test "$deltas" -eq 7
check "fixture: the delta rows name both runs" \
	awk -F, -v a="$fix/run-smap" -v b="$fix/run-nosmap" \
	'$10 == "smap_delta" { n++; if ($19 != a || $20 != b) exit 1 } END { exit !n }' "$csv"
kapi=$(field "$csv" smap_delta kmod/get_user/kapi/8 value)
check "fixture: get_user kapi costs more with SMAP ($kapi)" \
	awk -v v="$kapi" 'BEGIN { exit !(v > 0) }'
check "no census of the fixture's kernel: no per-pair figure" \
	test -z "$(awk -F, '$1 == "fixture" && $10 == "per_pair"' "$csv")"

# this machine's native run: its bpf overhead, converted with its calib row
bpf=$(awk -F, '$1 != "fixture" && $10 == "bpf_overhead_8" { print $15 }' "$csv")
check "the native run's bpf overhead at 8 B is in core cycles (got '$bpf')" test "$bpf" = cycles

# the calibration (docs/methodology.md): a copy of the native run whose
# chains disagreed (the figures of a folded immediate-add chain) is in ns,
# with the reason; a copy whose chains agreed on 4 GHz has its bpf
# overhead at the first's ns times 4
native=$(awk -F, '$1 != "fixture" && $10 == "bpf_overhead_8" { print $19 }' "$csv")
# with_context RUN OUT KEY=VALUE...: a copy of RUN with those context values
with_context() {
	local run=$1 out=$2
	shift 2
	cp -r "$run" "$out"
	awk -F, -v OFS=, -v sets="$*" '
		BEGIN { n = split(sets, s, " "); for (i = 1; i <= n; i++) {
			k = substr(s[i], 1, index(s[i], "=") - 1)
			v[k] = substr(s[i], index(s[i], "=") + 1); gsub(/_/, " ", v[k]) } }
		$1 in v { print $1, v[$1]; next } { print }' \
		"$run/context.csv" >"$out/context.csv"
}
if [ -z "$native" ] || [ ! -d "$native" ]; then
	not_ok "the native run of the table ($native) is a directory"
else
	with_context "$native" "$tmp/folded" host=folded calib_consistent=0 \
		calib_ghz= calib_user_add_ns=41 calib_user_imul_ns=738.7 \
		"calib_note=the_calibration_chains_disagree_in_user_space"
	with_context "$native" "$tmp/agreed" host=agreed calib_consistent=1 \
		calib_ghz=4
	"$bin" table "$tmp/folded" "$tmp/agreed" --out "$tmp/cal" >/dev/null 2>&1
	ccsv=$tmp/cal/table.csv
	unit=$(awk -F, '$1 == "folded" && $10 == "bpf_overhead_8" { print $15 }' "$ccsv")
	why=$(awk -F, '$1 == "folded" && $10 == "bpf_overhead_8" { print $21 }' "$ccsv")
	check "chains that disagree: the bpf overhead in ns (got '$unit')" test "$unit" = ns
	check "and the reason in table.csv's calibration (got '$why')" \
		test "$why" = "ns only: the calibration chains disagree in user space"
	check "and in table.md's cycles from column" \
		grep -q '| folded | .* | ns only: the calibration chains disagree in user space |' "$tmp/cal/table.md"
	ns=$(awk -F, '$1 == "folded" && $10 == "bpf_overhead_8" { print $12 }' "$ccsv")
	cyc=$(awk -F, '$1 == "agreed" && $10 == "bpf_overhead_8" { print $12 " " $15 }' "$ccsv")
	check "chains that agree on 4 GHz: ns x 4 in cycles ($ns ns, $cyc)" \
		awk -v ns="$ns" -v c="$cyc" 'BEGIN { split(c, a, " ");
			exit !(a[2] == "cycles" && ns > 0 && (a[1] / ns - 4) ^ 2 < 1e-9) }'
fi

# every input that is not in the table, with its reason
left=$tmp/t/left-out.csv
reason() { awk -F, -v p="$1" '$1 == p { sub(/^[^,]*,/, ""); print }' "$left"; }
for run in data/*/; do
	run=${run%/}
	[ -f "$run/results.csv" ] && grep -qx 'virt,tcg' "$run/context.csv" || continue
	check "TCG run $run left out with the reason" \
		eval 'reason "$run" | grep -q "QEMU TCG"'
done
check "the comparison in data/ left out as no run" \
	eval 'reason "$(ls -d data/compare-*/ | head -n 1 | sed "s|/$||")" | grep -q "compare directory, not a run"'
check "a path that does not exist is left out with its reason" \
	eval 'reason /nonexistent | grep -q "No such file"'
check "table.md lists every left-out input" \
	eval 'test "$(grep -c "^| /nonexistent\|^| data/" "$tmp/t/table.md")" -ge "$(($(wc -l <"$left") - 1))"'
check "table.md says no census of the fixture's kernel" grep -q "no census" "$tmp/t/table.md"

# --- --include-tcg: the TCG boots paired, with the census -----------------------
"$bin" table data/*/ --include-tcg --no-plots --out "$tmp/tcg" >"$tmp/tcg.out" 2>&1
csv=$tmp/tcg/table.csv
pairs=$(field "$csv" smap_delta kmod/get_user/kapi/8 pairs_per_op)
check "--include-tcg: the TCG boots are paired and the census gives 1 pair per get_user (got '$pairs')" \
	awk -v p="$pairs" 'BEGIN { exit !(p != "" && p >= 0.99 && p <= 1.01) }'
per=$(field "$csv" per_pair kmod/sigframe/kapi value)
delta=$(field "$csv" smap_delta kmod/sigframe/kapi value)
sf=$(field "$csv" smap_delta kmod/sigframe/kapi pairs_per_op)
check "--include-tcg: sigframe per pair = delta / census pairs ($delta / $sf = $per)" \
	awk -v d="$delta" -v n="$sf" -v p="$per" 'BEGIN { x = d / n - p; exit !(n > 1 && (x < 0 ? -x : x) <= 1e-3 * (p < 0 ? -p : p)) }'
check "--include-tcg: the cpu-model SMAP-off run is left out, clearcpuid paired" \
	eval 'grep "cpu-model-nosmap" "$tmp/tcg/left-out.csv" | grep -q "clearcpuid-nosmap"'

# --- the newest of two runs of one boot kind ---------------------------------
cp -a "$fix/run-smap" "$tmp/newer"
sed -i 's/^date,.*/date,2026-02-01T00:00:00Z/' "$tmp/newer/context.csv"
"$bin" table "$fix/run-smap" "$tmp/newer" --no-plots --out "$tmp/n" >"$tmp/n.out" 2>/dev/null
check "of two SMAP runs of one machine the newer is used, the older listed" \
	eval 'grep -q "^$fix/run-smap,\"older/shorter run of the same machine and kernel: the row uses $tmp/newer, a newer run\"" "$tmp/n/left-out.csv"'
check "table says which run the row uses, and the rule that chose it" \
	eval 'grep -q "^row fixture, .*: SMAP run $tmp/newer (2026-02-01" "$tmp/n.out" &&
		grep -q "^of several runs of one machine, kernel and SMAP state, the table uses a complete run" "$tmp/n.out" &&
		grep -q "^Which run a row uses: of several runs" "$tmp/n/table.md"'
# a newer --quick run does not replace a default run of more repetitions
cp -a "$tmp/newer" "$tmp/quick"
sed -i 's/^date,.*/date,2026-03-01T00:00:00Z/' "$tmp/quick/context.csv"
printf 'quick,1\nrepetitions,1\n' >>"$tmp/quick/context.csv"
printf 'quick,0\nrepetitions,5\n' >>"$tmp/newer/context.csv"
"$bin" table "$tmp/quick" "$tmp/newer" --no-plots --out "$tmp/q" >/dev/null 2>&1
check "a newer --quick run is left out for an older default run" \
	eval 'grep -q "^$tmp/quick,.*the row uses $tmp/newer, a default or --full run, not a --quick one" "$tmp/q/left-out.csv"'

# --- text a spreadsheet would run: a contributed run's context ----------------
for k in smap nosmap; do
	cp -a "$fix/run-$k" "$tmp/formula-$k"
	sed -i 's/^cpu_model,.*/cpu_model,"=HYPERLINK(""http:\/\/e"")"/; s/^host,.*/host,@host/' \
		"$tmp/formula-$k/context.csv"
done
"$bin" table "$tmp/formula-smap" "$tmp/formula-nosmap" --no-plots --out "$tmp/f" >/dev/null 2>&1
check "table.csv: a cpu_model starting with = is written after a single quote" \
	eval 'grep -q "^'"'"'@host,\"'"'"'=HYPERLINK(\"\"http://e\"\")\"," "$tmp/f/table.csv"'
check "table.csv: no cell starts with = or @" \
	eval '! grep -qE "(^|,)\"?[=@]" "$tmp/f/table.csv"'

# --- command line and output directory ---------------------------------------
expect_status() { # WANT DESCRIPTION COMMAND...
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$tmp/st.out" 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$what (status $rc)"
	else
		not_ok "$what (status $rc, expected $want)"
		show <"$tmp/st.out"
	fi
}
expect_status 2 "no run given" "$bin" table
expect_status 2 "an unknown option" "$bin" table --bogus "$fix/run-smap"
expect_status 2 "--out without a value" "$bin" table "$fix/run-smap" --out
cp -a "$fix/run-smap" "$tmp/victim"
before=$(cd "$tmp/victim" && find . -type f -exec sha256sum {} + | sort)
expect_status 2 "--out naming a run directory is refused" \
	"$bin" table "$fix/run-smap" --out "$tmp/victim"
after=$(cd "$tmp/victim" && find . -type f -exec sha256sum {} + | sort)
check "the run directory --out named is untouched" test "$before" = "$after"
echo precious >"$tmp/t/notes.txt"
expect_status 2 "a table directory holding a file of the user's is not replaced" \
	"$bin" table "$fix/run-smap" --out "$tmp/t"
check "the user's file is still there" grep -qx precious "$tmp/t/notes.txt"
rm "$tmp/t/notes.txt"
expect_status 0 "a table directory is replaced by a new table" \
	"$bin" table "$fix/run-smap" --no-plots --out "$tmp/t"
rows=$(awk -F, 'NR > 1 { print $1 }' "$tmp/t/table.csv" | sort -u | wc -l)
check "the new table holds only the new input's row (got $rows)" test "$rows" -eq 1
check "no temporary directory is left beside it" \
	test -z "$(find "$tmp" -maxdepth 1 -name '.*tmp*')"

# --- the published table -----------------------------------------------------
check "README links data/TABLE.md" grep -q '(data/TABLE.md)' README.md
check "data/TABLE.md has this machine's native row" \
	grep -q "^| vm | AMD EPYC" data/TABLE.md
check "data/TABLE.md lists the TCG runs as left out" \
	test "$(grep -c 'QEMU TCG: emulated' data/TABLE.md)" -ge 3

stage_exit
