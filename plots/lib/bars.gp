# lib/bars.gp - clustered bars with confidence-interval error bars, for
# a plot's script to load after setting title and ylabel (plots/ops.gp).
#
# datafile: a header row naming the series, quoted when they contain
# spaces ("label smap lo hi nosmap lo hi"), then one row per cluster,
# "label v1 lo1 hi1 v2 lo2 hi2 ...", whitespace separated, NaN where a
# series has no value. Optional: logy=1 for a logarithmic value axis,
# rotate=1 to turn long labels, signed=1 for values of both signs.

load plotsdir."/lib/common.gp"
if (!exists("logy")) logy = 0
if (!exists("rotate")) rotate = 0
if (!exists("ylabel")) ylabel = ""

set ylabel ylabel
set style data histogram
set style histogram errorbars gap 1.5 lw 1.2
set style fill solid 0.85 border -1
set boxwidth 0.9
set bars front
set xtics scale 0
# long turned labels need room below and, for the first ones, to the left
if (rotate) { set xtics rotate by 35 right font ",10"; set bmargin (exists("bmargin_chars") ? bmargin_chars : 9) }
if (exists("lmargin_chars")) { set lmargin lmargin_chars }
if (!exists("signed")) signed = 0
if (logy) { set logscale y; set yrange [*:*] } else { set yrange [0:*] }
# values of both signs (differences): free range, a line at zero
if (signed) { set yrange [*:*]; set xzeroaxis lt 1 lc rgb "#555555" }
# on a log scale a margin above would reach the next decade
set offsets 0, 0, graph (logy ? 0 : 0.08), graph (signed ? 0.08 : 0)

plot for [i=1:nseries] datafile using (column(3*i-1)):(column(3*i)):(column(3*i+1)):xtic(1) \
	title columnheader(3*i-1) lc rgb colours[i]
