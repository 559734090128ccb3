# centers-inside.awk: how many of run B's centers lie inside run A's
# 95% intervals, widened by a calibration's invocation variance when one
# is given (tests/stages/16-statistics.sh, covered()).
# awk -F, -v c=COL -v l=COL -v h=COL -v r=COL [-v cal=CALIBRATION.csv] \
#     -f t-quantile.awk -f centers-inside.awk [CALIBRATION.csv] A/results.csv B/results.csv
# c, l, h, r: the columns of center, ci_low, ci_high and repetitions.
# The calibration: the shared part and each row's own, on the log scale,
# with their df; t on Satterthwaite's df. Prints INSIDE ROWS.
FILENAME == cal {
	if ($1 == "boot_sd_common") common = $2 * $2
	else if ($1 == "boot_df_common") cdf = $2
	else if ($1 == "boot_sd_row") prior = $2 * $2
	else if ($1 == "row_df") rdf = $2
	else if ($1 ~ /^row:/) own[substr($1, 5)] = $2 * $2
	next
}
FNR == 1 { file++; next }
file == 1 {
	if (!($c > 0) || !($r > 1)) next
	s = ($h - $l) / 2 / t($r - 1) / $c
	o = $1 in own ? own[$1] : prior
	v = s * s + common + o
	df = common + o > 0 ? sdf(s * s, $r - 1, common, cdf, o, rdf) : $r - 1
	lo[$1] = $c * exp(-t(df) * sqrt(v)); hi[$1] = $c * exp(t(df) * sqrt(v))
	next
}
$1 in lo { m++; k += lo[$1] <= $c && $c <= hi[$1] }
END { print k + 0, m + 0 }
