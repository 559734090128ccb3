# calibration.awk: the one reading of a calibration.csv (smapbench
# calibrate, docs/schema.md) for the checks of tests/stages/16-statistics.sh
# that widen intervals by it. Given with -f before the program, with the
# calibration's name as -v cal=CALIBRATION.csv and as an input file; with
# cal empty, nothing is read. Sets, as variances on the log scale:
#   cal_common, cal_common_df: the shift every row shares, and its df
#   cal_own[ROW]: a row's own part; cal_row_prior for a row without one,
#   cal_row_df their df
FILENAME == cal {
	if ($1 == "boot_sd_common") cal_common = $2 * $2
	else if ($1 == "boot_df_common") cal_common_df = $2
	else if ($1 == "boot_sd_row") cal_row_prior = $2 * $2
	else if ($1 == "row_df") cal_row_df = $2
	else if ($1 ~ /^row:/) cal_own[substr($1, 5)] = $2 * $2
	next
}
