# centers-inside.awk: how many of run B's centers lie inside run A's
# 95% intervals, widened by a calibration's invocation variance when one
# is given (tests/stages/16-statistics.sh, covered()).
# awk -F, -v c=COL -v l=COL -v h=COL -v r=COL [-v cal=CALIBRATION.csv] \
#     -f t-quantile.awk -f calibration.awk -f centers-inside.awk \
#     [CALIBRATION.csv] A/results.csv B/results.csv
# c, l, h, r: the columns of center, ci_low, ci_high and repetitions.
# The calibration (calibration.awk): the shared part and each row's own,
# with their df; t on Satterthwaite's df. Prints INSIDE ROWS.
FNR == 1 { file++; next }
file == 1 {
	if (!($c > 0) || !($r > 1)) next
	s = ($h - $l) / 2 / t($r - 1) / $c
	o = $1 in cal_own ? cal_own[$1] : cal_row_prior
	v = s * s + cal_common + o
	df = cal_common + o > 0 ? sdf(s * s, $r - 1, cal_common, cal_common_df, o, cal_row_df) : $r - 1
	lo[$1] = $c * exp(-t(df) * sqrt(v)); hi[$1] = $c * exp(t(df) * sqrt(v))
	next
}
$1 in lo { m++; k += lo[$1] <= $c && $c <= hi[$1] }
END { print k + 0, m + 0 }
