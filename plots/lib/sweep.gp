# lib/sweep.gp - cost against a swept parameter, one panel per op,
# log-log: copy size for copy_to_user / copy_from_user (plots/copy.gp),
# accesses per STAC/CLAC pair (K) for the batched variants (batch.gp),
# bytes per access for the bpf suite (bpf.gp).
#
# Top row: one line per series (variants of one run, or the same variant
# on two boots), error bars = 95% CI of the center (t over repetitions). Optional bottom row: a
# share in percent (the STAC/CLAC pair's share of a copy, or the
# difference between the boots), with the 1% line.
#
# Variables (-e): plotsdir, out, term, title, context, watermark as in
# common.gp, and
#   datafile  blocks separated by two blank lines, "x center lo hi" rows;
#             block (op-1)*nseries + (series-1)
#   nseries, titles    series count and their names (one word each)
#   ops       the op names, one word each (panel titles)
#   xlabel    the swept parameter (default "bytes per copy")
#   ylabel    unit of the top row, e.g. "cycles per copy"
#   styles    optional, one word per series: "l" line with points (default),
#             "d" dashed line without points (a reference level), "t" a
#             thin line with small points (context), "f" a thick line (the
#             figure the plot is about)
#   present   optional, per panel and series (panel by panel) 1 or 0:
#             whether the series has points there; a key lists only those
#   xticfactor  optional: a tic every this factor of x (default 2)
#   colourof  optional, one colour index per series (default: its number)
#   keypos    where the key goes (default "top left")
#   pctfile   same layout with "x percent lo hi", npct series per op
#   npct, pcttitles    (npct=0: no bottom row)
#   pctlabel  what the bottom row shows (panel title suffix)
#   pctylabel its axis (default "percent of the copy")
#   pctlog    1 for a logarithmic percent axis (all values positive)
#   pctmin    with pctlog: bottom of the axis; CI ends at or below 0 are
#             drawn down to it

if (!exists("height")) height = 900
load plotsdir."/lib/common.gp"
if (!exists("npct")) npct = 0
if (!exists("pctlog")) pctlog = 1
if (!exists("pctlabel")) pctlabel = "pair cost as a share of the copy"
if (!exists("pctylabel")) pctylabel = "percent of the copy"
if (!exists("ylabel")) ylabel = "cycles per copy"
if (!exists("xlabel")) xlabel = "bytes per copy"
if (!exists("styles")) styles = ""
if (!exists("colourof")) colourof = ""
# series i: dashed reference without points?  its colour (colourof: indexes)
dashed(i) = words(styles) >= i && word(styles, i) eq "d"
# (dt takes a function call, not a parenthesised expression)
dashtype(i) = dashed(i) ? 2 : 1
thin(i) = words(styles) >= i && word(styles, i) eq "t"
figure(i) = words(styles) >= i && word(styles, i) eq "f"
linewidth(i) = figure(i) ? 3 : thin(i) ? 0.8 : 1.5
pointsize(i) = dashed(i) ? 0 : thin(i) ? 0.4 : 0.7
if (!exists("present")) present = ""
# the key entry of series i in panel j: none for a series without points
keytitle(j, i) = words(present) >= (j-1)*nseries + i && \
	word(present, (j-1)*nseries + i) eq "0" ? "" : word(titles, i)
colour(i) = colours[words(colourof) >= i ? int(word(colourof, i)) : i]
nops = words(ops)

# A log axis cannot show a center at or below 0, and a bpf overhead row
# (a paired difference) may have one: such points are left out, and a
# note under the plot says how many, so that none goes missing unsaid.
# (CI ends at or below 0 are drawn down to the axis.)
stats datafile using (column(2) <= 0 ? 1 : 0) nooutput
nonpositive = int(STATS_sum)
if (nonpositive > 0) {
	set label 98 sprintf("%d center%s <= 0 not drawn (log axis)", \
		nonpositive, nonpositive > 1 ? "s" : "") \
		at screen 0.01, 0.015 left font ",9" front
}

set logscale x 2
set format x "%.0f"
# a tic per factor of 2 overlaps its labels in a narrow panel
if (exists("xticfactor")) { set xtics 1, xticfactor }
set xlabel xlabel
# keep the end points (and their error bars) off the border
set offsets graph 0.03, graph 0.03, 0, 0
if (!exists("keypos")) keypos = "top left"
eval "set key ".keypos
unset title
set multiplot layout (npct > 0 ? 2 : 1), nops title title."\n".context font ",12"
do for [j=1:nops] {
	set title word(ops, j) font ",11"
	set logscale y
	set ylabel ylabel
	plot for [i=1:nseries] datafile index ((j-1)*nseries + i-1) using 1:2:3:4 \
		with yerrorlines lw linewidth(i) pt 7 ps pointsize(i) dt dashtype(i) \
		lc rgb colour(i) title keytitle(j, i)
	unset label 99	# the watermark once, not once per panel
	unset label 98	# the same for the note
}
if (npct > 0) {
	do for [j=1:nops] {
		set title word(ops, j)." — ".pctlabel font ",11"
		if (pctlog) {
			set logscale y
			if (exists("pctmin")) { set yrange [pctmin:*] }
		} else {
			unset logscale y
			set yrange [*:*]
		}
		set key top right
		set ylabel pctylabel
		plot for [i=1:npct] pctfile index ((j-1)*npct + i-1) using 1:2:(pctlog && column(3) <= 0 ? (exists("pctmin") ? pctmin : 1e-3) : column(3)):4 \
			with yerrorlines lw 1.5 pt 7 ps 0.7 lc rgb colours[i] title word(pcttitles, i), \
			1 with lines dt 2 lw 1.2 lc rgb "#555555" title "1%"
	}
}
unset multiplot
