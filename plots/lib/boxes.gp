# lib/boxes.gp - sample distributions as box plots (plots/dist.gp).
#
# One panel per benchmark, one box per series (runs or variants): the box
# spans the quartiles, whiskers 1.5 IQR, dots beyond them are single samples.
#
# Variables (-e): plotsdir, out, term, title, context, watermark as in
# common.gp, and
#   datafile  one block per benchmark (blocks separated by two blank lines),
#             rows "series value", series numbered from 1
#   names     benchmark names, one word each, in block order
#   nseries, titles    series count and names (one word each)
#   units     unit of each benchmark's values, one word each, in block order

if (!exists("height")) height = 800
load plotsdir."/lib/common.gp"
if (!exists("units")) units = ""
nbench = words(names)
cols = (nbench <= 2 ? nbench : 3)
rows = int((nbench + cols - 1) / cols)

set style boxplot outliers pointtype 7
set style data boxplot
set style fill solid 0.5 border -1
set boxwidth 0.6
set pointsize 0.4
set xrange [0.3:nseries + 0.7]
set xtics () scale 0
do for [i=1:nseries] { set xtics add (word(titles, i) i) }
unset key
unset title
set multiplot layout rows, cols title title."\n".context font ",12"
do for [b=1:nbench] {
	set title word(names, b) font ",10"
	set ylabel (words(units) >= b ? word(units, b)." per operation" : "")
	plot for [i=1:nseries] datafile index (b-1) \
		using (i):(column(1) == i ? column(2) : NaN) lc rgb colours[i]
	unset label 99	# the watermark once, not once per panel
}
unset multiplot
