# table.gp - the cross-machine table in core cycles: one cluster of bars
# per machine and kernel, one bar per figure (inline - nopad per access of
# each op, the bpf overhead at 8 B), the 95% interval as error bars
# (smapbench table).
#
#   gnuplot -e "plotsdir='plots'; datafile='table.dat'; out='x';
#               term='png'; title='...'; context='...'; nrows=3; nseries=6" \
#           plots/table.gp
#
# datafile (table.dat): CSV with a header "row,<op>,low,high,...", then
# one row per machine and kernel: a quoted label, then value, low, high
# for each op, NaN where the run has no such rows.

load plotsdir."/lib/common.gp"
set datafile separator ","
# Only the figures some row has: a column of NaN alone would make gnuplot
# warn, and give its key an entry with no bar. A figure keeps its colour.
# (Before NaN is declared missing, which would make stats warn too.)
shown = ""
do for [i=0:nseries-1] {
	stats datafile every ::1 using (strcol(2+3*i) eq "NaN" ? 0 : 1) nooutput
	if (STATS_sum > 0) { shown = shown.sprintf(" %d", i) }
}
set datafile missing "NaN"
set ylabel "core cycles per user access"
set style data histogram
set style histogram errorbars gap 1.5 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics scale 0 font ",10"
set bmargin 6
set yrange [0:*]
set key top left
set offsets 0, 0, graph 0.08, 0

plot for [s in shown] datafile \
	using (column(2+3*int(s))):(column(3+3*int(s))):(column(4+3*int(s))):xtic(1) \
	title columnheader(2+3*int(s)) lc rgb colours[int(s)+1]
