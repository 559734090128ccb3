# lib/delta.gp - two runs: (B - A) / A in percent per benchmark, with the
# CI of the difference (compare.csv's), one bar per benchmark coloured by
# compare's verdict, over a grey band: the relevance threshold within
# which compare calls no row faster or slower. For delta-kmod.gp,
# delta-syscall.gp and delta-bpf.gp.
#
# Variables: what, the rows shown (in the title); from smapbench
# (analysis/plot_bars.c): the .dat ("label value low high verdict"),
# nrows, verdicts (the verdict numbers that have a bar, in legend order),
# band_low, band_high, band_title (the threshold, percent of A), the
# layout (rotate, margins, width) and runs, the two runs' short names.

title = word(runs, 2)." against ".word(runs, 1).": difference of centers, ".what." (CI, coloured by verdict)"
ylabel = "(".word(runs, 2)." - ".word(runs, 1).") / ".word(runs, 1).", percent"
load plotsdir."/lib/common.gp"

# by compare_verdict's number: same, faster, slower, inconclusive, unknown
array verdict_name[5] = ["same", "faster", "slower", "inconclusive", "unknown"]
array verdict_colour[5] = ["#228833", "#4477aa", "#ee6677", "#bbbbbb", "#777777"]

set ylabel ylabel
set xtics scale 0
set xtics rotate by 35 right font ",10"
set bmargin (exists("bmargin_chars") ? bmargin_chars : 9)
if (exists("lmargin_chars")) { set lmargin lmargin_chars }
set style fill solid 0.85 border -1
set boxwidth 0.7
set bars front
set xzeroaxis lt 1 lc rgb "#555555"
set xrange [-0.6:nrows - 0.4]
set yrange [*:*]
set offsets 0, 0, graph 0.08, graph 0.08
set key top left reverse Left noautotitle samplen 2 opaque

# the band first, behind the bars; then one series per verdict present
plot '+' using 1:(band_low):(band_high) with filledcurves \
	fc rgb "#e4e4e4" fillstyle solid 1.0 noborder title band_title, \
	datafile skip 1 using 0:(NaN):xtic(1) notitle, \
	for [v in verdicts] datafile skip 1 using 0:(column(5) == v + 0 ? column(2) : NaN) \
		with boxes fc rgb verdict_colour[v + 1] title verdict_name[v + 1], \
	datafile skip 1 using 0:2:3:4 with yerrorbars lc rgb "#222222" pt 7 ps 0 lw 1.2 notitle
