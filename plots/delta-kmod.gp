# delta-kmod.gp - two runs: (B - A) / A of the kmod rows that change
# between boots, the kernel API and the bare instructions (lib/delta.gp).

what = "kmod suite, kernel API"
load plotsdir."/lib/delta.gp"
