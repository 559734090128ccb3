# workload.gp - what SMAP costs a command, per execution: SMAP on - off
# measured over the boots (the first bar), and the census's pairs times
# each pair cost (module, series' beta, the census's figure), each bar
# with its 95% interval (docs/census.md, "What SMAP costs a command").
#
#   gnuplot -e "plotsdir='plots'; datafile='workload.dat'; out='x';
#               term='png'; title='...'" plots/workload.gp
#
# datafile (workload.dat): whitespace-separated, '#' comments, one row
# per bar: "label" value low high kind (0 measured, 1 predicted), in ns.

load plotsdir."/lib/common.gp"
set datafile missing "nan"
set ylabel "SMAP on - off per execution (ns)"
set style fill solid 0.85 border -1
set boxwidth 0.6
set xtics scale 0 font ",11"
set xrange [-0.6:*]
set offsets 0, 0.6, graph 0.08, graph 0.08
set xzeroaxis lt 1 lc rgb "#808080"

# the measured in the first colour, the predictions in the second
plot datafile using 0:2:(column(5) == 0 ? 0x4477aa : 0xee6677):xtic(1) with boxes lc rgb variable, \
	'' using 0:2:3:4 with yerrorbars lc rgb "#000000" pt 0 lw 1.5
