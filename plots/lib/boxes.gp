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
#   unit      the unit of every value
#   ylow, yhigh   each panel's axis, one word each, in block order
#             (optional: the data's range)
#   below, above  per panel and series (panel by panel), the samples
#             beyond that axis: drawn at its edge as a triangle, with
#             their count

if (!exists("height")) height = 800
load plotsdir."/lib/common.gp"
if (!exists("unit")) unit = ""
nbench = words(names)
cols = (nbench <= 2 ? nbench : 3)
rows = int((nbench + cols - 1) / cols)
clipped = exists("ylow") && exists("yhigh") && words(ylow) >= nbench

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
	set ylabel (strlen(unit) > 0 ? unit." per operation" : "")
	if (clipped) {
		lo = real(word(ylow, b)); hi = real(word(yhigh, b))
		pad = (hi > lo ? (hi - lo) * 0.08 : abs(hi) * 0.05 + 1e-9)
		set yrange [lo - pad:hi + pad]
		do for [i=1:nseries] {
			unset label 10 + i
			unset label 20 + i
			n = (exists("above") ? int(word(above, (b-1) * nseries + i)) : 0)
			if (n > 0) {
				set label 10 + i sprintf("%d above", n) at i + 0.1, hi + pad \
					left offset 0, -0.3 font ",8"
			}
			n = (exists("below") ? int(word(below, (b-1) * nseries + i)) : 0)
			if (n > 0) {
				set label 20 + i sprintf("%d below", n) at i + 0.1, lo - pad \
					left offset 0, 0.3 font ",8"
			}
		}
		plot for [i=1:nseries] datafile index (b-1) \
			using (i):(column(1) == i ? column(2) : NaN) lc rgb colours[i], \
		     for [i=1:nseries] datafile index (b-1) \
			using (i):(column(1) == i && column(2) > hi ? hi + pad : NaN) \
			with points pointtype 9 pointsize 1.2 lc rgb "#000000", \
		     for [i=1:nseries] datafile index (b-1) \
			using (i):(column(1) == i && column(2) < lo ? lo - pad : NaN) \
			with points pointtype 11 pointsize 1.2 lc rgb "#000000"
	} else {
		plot for [i=1:nseries] datafile index (b-1) \
			using (i):(column(1) == i ? column(2) : NaN) lc rgb colours[i]
	}
	unset label 99	# the watermark once, not once per panel
}
unset multiplot
