# census.gp - STAC per operation of each syscall benchmark, one bar per
# kernel: the user-access windows (STAC/CLAC pairs) one call opens, as the
# instruction census counted them (docs/census.md).
#
#   gnuplot -e "plotsdir='plots'; datafile='census-pairs.dat'; out='x';
#               term='png'; title='...'; context='...'; nseries=2" \
#           plots/census.gp
#
# datafile (census-pairs.dat): CSV with a header "benchmark,<kernel>,...", then one row per
# benchmark, NaN where a kernel has no value.

load plotsdir."/lib/common.gp"
set datafile separator ","
set datafile missing "NaN"
set ylabel "STAC per operation (user-access windows opened)"
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics scale 0 rotate by 35 right font ",10"
set bmargin 11
set yrange [0:*]
set ytics 1
set mytics 2
set offsets 0, 0, graph 0.08, 0

plot for [i=1:nseries] datafile using (column(i+1)):xtic(1) \
	title columnheader(i+1) lc rgb colours[i]
