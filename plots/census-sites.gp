# census-sites.gp - where a command's user-access windows were opened:
# the STAC/CLAC pairs above the baseline per kernel function, one bar per
# kernel (its SMAP boot), as the census of a command counted them
# (docs/census.md, "A census of any command").
#
#   gnuplot -e "plotsdir='plots'; datafile='census-sites.dat'; out='x';
#               term='png'; title='...'; context='...'; nseries=2" \
#           plots/census-sites.gp
#
# datafile (census-sites.dat): CSV with a header "function,<kernel>,...",
# then one row per function (double-quoted), NaN where a kernel has none.

load plotsdir."/lib/common.gp"
set datafile separator ","
set datafile missing "NaN"
set ylabel "STAC/CLAC pairs above the baseline"
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics scale 0 rotate by 35 right font ",10"
set bmargin 13
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set key top right

plot for [i=1:nseries] datafile using (column(i+1)):xtic(1) \
	title columnheader(i+1) lc rgb colours[i]
