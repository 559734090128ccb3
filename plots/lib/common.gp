# lib/common.gp - terminal, colours and title lines shared by every
# smapbench plot. The colours are the palette every plot draws its series
# in; a plot's script names them by index.
#
# Variables the caller sets with -e (smapbench plot does) or the plot's
# script sets before loading its drawing script:
#   out       output file, without extension
#   term      "png" or "svg"
#   title     what the plot shows (first title line)
#   context   CPU model, kernel, counter, virt (second title line)
#   watermark text drawn across the plot ("" for none), e.g. for TCG runs
#   width, height   canvas size in pixels (optional)

if (!exists("term")) term = "png"
if (!exists("width")) width = 1200
if (!exists("height")) height = 700
if (!exists("watermark")) watermark = ""
if (!exists("context")) context = ""

if (term eq "svg") {
	set terminal svg size width, height dynamic enhanced font "sans,12" background "white"
	set output out.".svg"
} else {
	set terminal pngcairo size width, height enhanced font "sans,11" background "white"
	set output out.".png"
}

set encoding utf8
set termoption noenhanced
set title title."\n".context font ",12"
set grid ytics lc rgb "#d0d0d0" lt 1
set border 3
set tics nomirror
set key top left reverse Left noautotitle samplen 2

# Colours per series, in order: first run / variant, second, ...
array colours[8] = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#000000"]

if (strlen(watermark) > 0) {
	set label 99 watermark at screen 0.5, 0.5 center rotate by 25 front \
		font ",40" textcolor rgb "#b0cc0000"
}
