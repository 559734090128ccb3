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

plot for [i=0:nseries-1] datafile using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):xtic(1) \
	title columnheader(2+3*i) lc rgb colours[i+1]
