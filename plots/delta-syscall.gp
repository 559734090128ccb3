# delta-syscall.gp - two runs: (B - A) / A of every syscall row
# (lib/delta.gp).

what = "syscall suite"
load plotsdir."/lib/delta.gp"
