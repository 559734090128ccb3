# sigframe.gp - the signal frame in every variant: a STAC/CLAC pair per
# field (kapi, inline), NOPs in their place (nopad), one pair per frame
# (batched, masked); one run per variant, two runs side by side. Drawn
# by lib/bars.gp.
#
# From smapbench (analysis/plot_bars.c): the .dat and its layout;
# unit, the kmod suite's; fields, the frame's fields (the catalogue).

title = "Signal frame: STAC/CLAC per field against one pair per frame (center, 95% CI)"
ylabel = sprintf("%s per signal frame (%d fields)", unit, fields)
load plotsdir."/lib/bars.gp"
