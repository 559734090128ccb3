#!/bin/bash
# smapbench pack and import: a real run packed, imported byte for byte
# under its canonical name, and every archive of the table "What import
# refuses" in docs/contributing-runs.md crafted (GNU tar, printf, dd) and
# refused with its message, exit status 1 and the data directory exactly
# as it was; every run of the table "What pack refuses" refused by pack
# with its message and no archive. A row without a case, or a case
# without a row, fails.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh

bin=${SMAPBENCH:-build/smapbench}
[ "${bin#/}" != "$bin" ] || bin=$PWD/$bin
top=$PWD
doc=$top/docs/contributing-runs.md

if ! make -s smapbench >/dev/null 2>&1 || [ ! -x "$bin" ]; then
	not_ok "smapbench is not built (make smapbench)"
	exit 1
fi
need_command tar "apt-get install tar"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# id -> message, from the table rows "| id | archive | message |".
declare -A want tested
while IFS=$'\t' read -r id message; do
	want[$id]=$message
done < <(awk -F'|' '/^\| [a-z][a-z0-9-]* \|/ && $2 !~ / id / {
	id = $2; msg = $(NF - 1); gsub(/ /, "", id)
	sub(/^ *`/, "", msg); sub(/` *$/, "", msg); print id "\t" msg }' "$doc")
[ ${#want[@]} -gt 10 ] || not_ok "docs/contributing-runs.md: no table of refusals found"

# run COMMAND...: stdout to out, stderr to err, status in rc.
run() {
	"$@" >out 2>err
	rc=$?
}
# What data holds: every path, type, size and mode, and every file's sum.
snapshot() {
	(cd "$1" 2>/dev/null && find . -printf '%P %y %s %m\n' | sort &&
		find . -type f -print0 | sort -z | xargs -0r sha256sum) || echo absent
}

# --- a real run, packed --------------------------------------------------
if ! nice "$bin" run --suite syscall --quick --repetitions 3 --out runs >run.log 2>&1; then
	not_ok "smapbench run for a run to pack"
	show <run.log
	exit 1
fi
src=$(sed -n 's/^run directory: //p' run.log)
name=$(basename "$src")
run "$bin" pack "$src"
check "pack prints 'archive: NAME.smapbench.tar'" \
	test "$rc $(cat out)" = "0 archive: $name.smapbench.tar"
archive=$PWD/$name.smapbench.tar
check "pack's archive reads with GNU tar, MANIFEST first" \
	test "$(tar -tf "$archive" | head -1)" = "$name/MANIFEST"
check "GNU tar sees ustar regular files, mode 0644, owner 0/0" \
	test -z "$(tar -tvf "$archive" | grep -v '^-rw-r--r-- 0/0 ')"
mkdir gnu && tar -xf "$archive" -C gnu
check "every file of the run in the archive, byte for byte" \
	diff -r -x .smapbench -x MANIFEST "$src" "gnu/$name"
check "the MANIFEST's sums are sha256sum's" \
	diff <(sed -n 's/^file,\([^,]*\),[0-9]*,\(.*\)/\2  \1/p' "gnu/$name/MANIFEST") \
	<(cd "$src" && find . -type f ! -name '.*' -printf '%P\n' | sort | xargs sha256sum)
check "two packs of a run are identical" \
	"$bin" pack "$src" --out again.tar
check "  (cmp)" cmp "$archive" again.tar
run "$bin" pack "$src" --out again.tar
check "pack never replaces a file (status 1, says so)" \
	test "$rc" = 1 -a -z "$(cat out)" -a "$(grep -c 'never replaces' err)" = 1

# --- imported ------------------------------------------------------------
date=$(sed -n 's/^date,//p' "$src/context.csv")
host=$(sed -n 's/^host,//p' "$src/context.csv")
state=$(sed -n 's/^smap_state,//p' "$src/context.csv")
stamp=$(date -u -d "$date" +%Y%m%d-%H%M%S)
canonical="$host-$stamp-$state"
run "$bin" import "$archive" --data data
check "import prints 'imported: data/$canonical' (status 0)" \
	test "$rc $(cat out)" = "0 imported: data/$canonical"
check "the imported run is the packed one, byte for byte" \
	diff -r "$src" "data/$canonical"
check "the name is the one smapbench run gave it" test "$canonical" = "$name"
check "nothing else in data" test "$(ls -A data)" = "$canonical"
run "$bin" table data/* --out table-before
check "smapbench table of it (status $rc)" test "$rc" = 0

# --- crafted archives ----------------------------------------------------
# A copy of the run's files to edit, and an archive made of them again.
fresh() {
	rm -rf craft && mkdir craft && tar -xf "$archive" -C craft
	work=craft/$name
}
# fix_manifest: the MANIFEST's sizes and sums made those of the files,
# so that only the check a case aims at can catch it.
fix_manifest() {
	local line path size sum
	: >"$work/MANIFEST.new"
	while IFS= read -r line; do
		if [[ $line == file,* ]]; then
			path=${line#file,}
			path=${path%%,*}
			size=$(stat -c %s "$work/$path")
			sum=$(sha256sum <"$work/$path")
			line="file,$path,$size,${sum%% *}"
		fi
		printf '%s\n' "$line" >>"$work/MANIFEST.new"
	done <"$work/MANIFEST"
	mv "$work/MANIFEST.new" "$work/MANIFEST"
}
# repack OUT [TAR OPTIONS...]: MANIFEST first, then the other files.
repack() {
	local out=$1 files
	shift
	mapfile -t files < <(cd craft && find "$name" ! -type d ! -name MANIFEST | sort)
	(cd craft && tar --format=ustar -cf "../$out" "$@" "$name/MANIFEST" "${files[@]}")
}
# offset ARCHIVE NAME: where the header of entry NAME starts.
offset() {
	grep -boa -- "$2" "$1" | awk -F: '$1 % 512 == 0 { print $1; exit }'
}
# put ARCHIVE OFFSET PRINTF-FORMAT: bytes written over the archive's.
put() {
	# shellcheck disable=SC2059 # the format is the bytes
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# fix_checksum ARCHIVE HEADER-OFFSET: the header's checksum recomputed.
fix_checksum() {
	put "$1" $(($2 + 148)) '        '
	local sum
	sum=$(od -An -v -tu1 -j "$2" -N 512 "$1" | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s }')
	put "$1" $(($2 + 148)) "$(printf '%06o' "$sum")\\0 "
}

# refused ID ARCHIVE [DIR]: import refuses ARCHIVE with ID's message,
# exit status 1, nothing on stdout, and DIR (data) as it was.
refused() {
	local id=$1 file=$2 dir=${3:-data} before
	tested[$id]=1
	before=$(snapshot "$dir")
	run "$bin" import "$file" --data "$dir"
	if [ -z "${want[$id]:-}" ]; then
		not_ok "$id: no row in docs/contributing-runs.md"
	elif [ "$rc" != 1 ] || [ -s out ]; then
		not_ok "$id: exit status $rc, not 1 (or something on stdout)"
		show <err
	elif ! grep -qF -- "${want[$id]}" err; then
		not_ok "$id: the message lacks '${want[$id]}'"
		show <err
	elif [ "$(snapshot "$dir")" != "$before" ]; then
		not_ok "$id: $dir changed"
	else
		ok "$id: refused, $dir unchanged: $(sed 's/^smapbench import: [^:]*: refused: //' err)"
	fi
}

refused duplicate "$archive"

fresh
date2=$(date -u -d "$date 1 hour" +%Y-%m-%dT%H:%M:%SZ)
sed -i "s/^date,.*/date,$date2/" "$work/context.csv"
fix_manifest && repack same-samples.tar
refused duplicate-samples same-samples.tar

fresh
repack traversal.tar -P --transform "s,^$name/context.csv\$,$name/../../context.csv,"
refused traversal traversal.tar

fresh
repack absolute.tar -P --transform "s,^$name/context.csv\$,/tmp/context.csv,"
refused absolute absolute.tar

# split_header ARCHIVE OFFSET PREFIX NAME: the header's path given as
# ustar's prefix and name fields, its checksum fixed.
split_header() {
	head -c 100 /dev/zero | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
	put "$1" "$2" "$4"
	put "$1" $(($2 + 345)) "$3"
	fix_checksum "$1" "$2"
}
cp "$archive" prefix-traversal.tar
split_header prefix-traversal.tar "$(offset "$archive" "$name/context.csv")" \
	"$name/../.." context.csv
refused prefix-traversal prefix-traversal.tar
cp "$archive" prefix-absolute.tar
split_header prefix-absolute.tar "$(offset "$archive" "$name/context.csv")" /tmp context.csv
refused prefix-absolute prefix-absolute.tar

fresh
ln -s /etc/passwd "$work/link.csv"
repack symlink.tar
refused symlink symlink.tar

fresh
ln "$work/context.csv" "$work/hard.csv"
repack hardlink.tar
refused hardlink hardlink.tar

cp "$archive" device.tar
at=$(offset device.tar "$name/context.csv")
put device.tar $((at + 156)) 3
fix_checksum device.tar "$at"
refused device device.tar

at=$(offset "$archive" "$name/samples.csv")
head -c $((at + 300)) "$archive" >cut-header.tar
refused cut-header cut-header.tar
head -c $((at + 512 + 1000)) "$archive" >cut-data.tar
refused cut-data cut-data.tar
head -c $(($(stat -c %s "$archive") - 1024)) "$archive" >cut-end.tar
refused cut-end cut-end.tar

fresh
awk -F, -v OFS=, 'NR == 2 { $10 = $10 * 1.5 } 1' "$work/results.csv" >"$work/r" &&
	mv "$work/r" "$work/results.csv"
fix_manifest && repack median.tar
# Only the recomputation can catch it: a data directory without this run
# (but with another one, to see it unchanged).
"$bin" pack "$top/tests/fixtures/run-smap" --out fixture.tar >/dev/null &&
	"$bin" import fixture.tar --data other >/dev/null || not_ok "the fixture packed and imported"
refused median median.tar other

cp "$archive" huge.tar
at=$(offset huge.tar "$name/samples.csv")
put huge.tar $((at + 124)) '\200\0\0\0\0\0\0\031\0\0\0\0'	# 100 GiB, base-256
fix_checksum huge.tar "$at"
truncate -s $((at + 512 + 4096)) huge.tar
refused huge huge.tar

cp "$archive" header-checksum.tar
at=$(offset header-checksum.tar "$name/results.csv")
put header-checksum.tar $((at + 100)) 0000666
refused header-checksum header-checksum.tar

fresh
sed -i '2s/0/1/' "$work/samples.csv"
repack sha256.tar
refused sha256 sha256.tar

fresh
echo extra >"$work/notes.txt"
repack unlisted.tar
refused unlisted unlisted.tar

fresh
rm "$work/results.json"
repack missing.tar
refused missing missing.tar

fresh
sed -i '/^kernel_release,/d' "$work/context.csv"
fix_manifest && repack context-key.tar
refused context-key context-key.tar

fresh
sed -i 's/^schema_version,[0-9]*$/schema_version,3/' "$work/MANIFEST"
repack schema.tar
refused schema schema.tar

fresh
sed -i 's/^schema_version,[0-9]*$/schema_version,3/' "$work/context.csv"
fix_manifest && repack context-schema.tar
refused context-schema context-schema.tar

fresh
(cd craft && tar --format=ustar -cf ../manifest-later.tar "$name/context.csv" "$name/MANIFEST")
refused manifest-first manifest-later.tar

fresh
(cd craft && tar --format=gnu -cf ../gnu.tar "$name/MANIFEST")
refused gnu-format gnu.tar

head -c 5000 /dev/urandom >random.tar
refused not-tar random.tar

# One line of commas cost the row reader 64 bytes per byte (8 MiB: half
# a GiB, a maximal samples.csv 16 GiB); a record is now refused past 1 MiB.
fresh
{ head -n 1 "$work/samples.csv"; head -c $((8 << 20)) /dev/zero | tr '\0' ,; echo; } \
	>"$work/samples.new" && mv "$work/samples.new" "$work/samples.csv"
fix_manifest && repack long-record.tar
refused long-record long-record.tar other

fresh
printf '{' >"$work/results.json"
fix_manifest && repack bad-json.tar
refused bad-json bad-json.tar other

# pack_refused ID: pack refuses the crafted copy with ID's message (table
# "What pack refuses"), exit status 1, nothing on stdout, and no archive.
pack_refused() {
	local id=$1
	tested[$id]=1
	rm -f refused.tar
	run "$bin" pack "$work" --out refused.tar
	if [ -z "${want[$id]:-}" ]; then
		not_ok "$id: no row in docs/contributing-runs.md"
	elif [ "$rc" != 1 ] || [ -s out ] || [ -e refused.tar ]; then
		not_ok "$id: pack's exit status $rc, not 1 (or something on stdout, or an archive)"
		show <err
	elif ! grep -qF -- "${want[$id]}" err; then
		not_ok "$id: the message lacks '${want[$id]}'"
		show <err
	else
		ok "$id: pack refused: $(sed 's/^smapbench pack: //' err)"
	fi
}
# Sparse files of NUL bytes: refused by size, or a reader would have
# found them malformed; nothing is read or written of them.
fresh
truncate -s $(((256 << 20) + 1)) "$work/samples.csv"
pack_refused pack-samples
for file in context.csv:1 results.csv:2 skipped.csv:2; do
	fresh
	truncate -s $(((${file#*:} << 20) + 1)) "$work/${file%:*}"
	pack_refused "pack-${file%.csv:*}"
done
fresh
truncate -s $((200 << 20)) "$work/extra-1.dat" "$work/extra-2.dat" "$work/samples.csv"
pack_refused pack-total

for id in "${!want[@]}"; do
	[ -n "${tested[$id]:-}" ] || not_ok "$id: row of docs/contributing-runs.md without a test"
done
run "$bin" table data/* --out table-after
check "after every refusal, the table of data is the one before (status $rc)" \
	cmp table-before/table.md table-after/table.md

# Several archives: the good ones imported, the status says one was not.
rm -rf data2
run "$bin" import "$archive" huge.tar --data data2
check "import A BAD: A imported, BAD refused, status 1" \
	test "$rc $(cat out)" = "1 imported: data2/$canonical" -a "$(grep -c refused err)" = 1

# --- what a stranger's context may put into names and tables -------------
# set_context KEY VALUE: the value in the crafted copy's context.csv, quoted
# for CSV
set_context() {
	local quoted=${2//\"/\"\"} line
	while IFS= read -r line; do
		if [[ $line == "$1,"* ]]; then
			printf '%s,"%s"\n' "$1" "$quoted"
		else
			printf '%s\n' "$line"
		fi
	done <"$work/context.csv" >"$work/context.new" &&
		mv "$work/context.new" "$work/context.csv"
}
# Markup in every context value but the four import parses (date,
# smap_state, schema_version, status), in a SMAP run and its SMAP-off
# twin: the table pairs them, so every cell and the list of runs show it.
markup='evil | <img src=x onerror=alert(1)> ![pic](http://x/y.png) [click](javascript:alert(1)) <script>alert(2)</script> `x` *y* _z_ # ! &amp; ~~s~~'
raw='(^|[^\\])(<img|<script|`x|\*y|!\[|&amp|~~)|\]\((javascript|http)'
escaped=$(sed 's/[][\\`*_()<>#|!&~]/\\&/g' <<<"$markup")
marked() { # marked STATE ARCHIVE: the crafted copy, markup everywhere
	local key
	fresh
	for key in $(sed -n '2,$s/,.*//p' "$work/context.csv"); do
		case $key in
		date | smap_state | schema_version | status) ;;
		*) set_context "$key" "$markup" ;;
		esac
	done
	set_context smap_state "$1"
	fix_manifest
	repack "$2"
}
marked smap markup.tar
marked nosmap markup-off.tar
rm -rf data3 data3off
run "$bin" import markup.tar --data data3
made=$(ls -A data3 2>/dev/null)
check "markup in every context field: imported (status $rc)" test "$rc" = 0 -a -n "$made"
check "under a name of [A-Za-z0-9._-] only: $made" \
	eval '[[ $made =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] && [ ${#made} -le 100 ]'
run "$bin" import markup-off.tar --data data3off
check "  and its SMAP-off twin (status $rc)" test "$rc" = 0
run "$bin" table data3/* data3off/* --out table3
check "smapbench table of the two (status $rc): one row, a SMAP and a SMAP-off boot" \
	test "$rc" = 0 -a "$(grep -c '1 with a SMAP and a SMAP-off boot' table3/table.md)" = 1
check "table.md holds none of the markup raw" test -z "$(grep -E "$raw" table3/table.md)"
check "  but the text, escaped" grep -qF "$escaped" table3/table.md
run "$bin" report "data3/$made"
check "smapbench report of it (status $rc): report.md holds none of the markup raw" \
	test "$rc" = 0 -a -z "$(grep -E "$raw" "data3/$made/report.md")"
check "  but the text, escaped, in its context table" \
	grep -qF "$escaped" "data3/$made/report.md"

# Host names of every printable character and of every control: control
# bytes, C1 controls and what is not UTF-8 refused, naming the key and
# where; the rest imported under a canonical name. printable: 0x20-0x7e,
# U+00A0-U+00FF, a euro sign, a CJK character and an emoji, in UTF-8.
printable=$(for b in $(seq 32 126); do printf "\\x$(printf %02x "$b")"; done
	for b in $(seq 160 255); do printf "\\x$(printf %02x $((0xc0 | b >> 6)))\\x$(printf %02x $((0x80 | (b & 0x3f))))"; done
	printf '\xe2\x82\xac\xe4\xb8\xad\xf0\x9f\x98\x80')
fresh
set_context host "$printable"
fix_manifest
repack bytes.tar
rm -rf data4
run env LC_ALL=C "$bin" import bytes.tar --data data4
made=$(ls -A data4 2>/dev/null)
check "a host of every printable character, ASCII, U+00A0-U+00FF and more: imported (status $rc)" \
	test "$rc" = 0 -a -n "$made"
check "  under a canonical name of at most 100 bytes (${#made})" \
	eval 'LC_ALL=C; [[ $made =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] && [ ${#made} -le 100 ]'
run "$bin" table data4/* --out table4
escaped=$(LC_ALL=C sed 's/[][\\`*_()<>#|!&~]/\\&/g' <<<"$printable")
check "  its table (status $rc) shows every byte, each markup one escaped, none raw" \
	eval '[ "$rc" = 0 ] && LC_ALL=C grep -qF -- "$escaped" table4/table.md &&
		! LC_ALL=C grep -qF -- "$printable" table4/table.md'
controls=0
for b in $(seq 1 31) 127; do
	fresh
	printf -v value "a\\x$(printf %02x "$b")b"
	set_context host "$value"
	fix_manifest
	repack control.tar
	rm -rf data5 && mkdir data5
	run "$bin" import control.tar --data data5
	if [ "$rc" = 1 ] && [ "$(grep -c 'value of host holds a control byte' err)" = 1 ] &&
		[ -z "$(ls -A data5)" ]; then
		controls=$((controls + 1))
	else
		not_ok "a host with byte 0x$(printf %02x "$b"): status $rc, data5: $(ls -A data5)"
		show <err
	fi
done
check "a host with any of the 32 bytes 0x01-0x1f and 0x7f: refused, naming host, data unchanged" \
	test "$controls" = 32
# refused_host VALUE MESSAGE: import refuses a host of VALUE (printf
# escapes) with MESSAGE, and leaves data5 empty; 0 when it did.
refused_host() {
	local value
	fresh
	# shellcheck disable=SC2059 # the format is the bytes
	printf -v value "$1"
	set_context host "$value"
	fix_manifest
	repack control.tar
	rm -rf data5 && mkdir data5
	run "$bin" import control.tar --data data5 </dev/null
	if [ "$rc" = 1 ] && grep -qF -- "the value of host $2" err && [ -z "$(ls -A data5)" ]; then
		return 0
	fi
	not_ok "a host '$1': status $rc, not refused with 'the value of host $2', data5: $(ls -A data5)"
	show <err
	return 1
}
controls=0
for b in $(seq 128 159); do
	hex=$(printf %02x "$b")
	refused_host "a\\xc2\\x${hex}b" "holds a C1 control character (U+00${hex^^} as 0xc2 0x$hex at byte 2)" &&
		controls=$((controls + 1))
done
check "a host with any of the 32 C1 controls U+0080-U+009F (0xc2 0x80-0x9f): refused, naming host and where" \
	test "$controls" = 32
# the bidirectional controls, with which a table shows text out of order
bidi=0
for cp in 061C:'\xd8\x9c' 200E:'\xe2\x80\x8e' 200F:'\xe2\x80\x8f' \
	202A:'\xe2\x80\xaa' 202B:'\xe2\x80\xab' 202C:'\xe2\x80\xac' \
	202D:'\xe2\x80\xad' 202E:'\xe2\x80\xae' 2066:'\xe2\x81\xa6' \
	2067:'\xe2\x81\xa7' 2068:'\xe2\x81\xa8' 2069:'\xe2\x81\xa9'; do
	refused_host "a${cp#*:}b" "holds a bidirectional control (U+${cp%%:*} at byte 2)" &&
		bidi=$((bidi + 1))
done
check "a host with any of the 12 bidirectional controls (U+202E ...): refused, naming host and where" \
	test "$bidi" = 12
while IFS='|' read -r bytes message; do
	refused_host "$bytes" "is not UTF-8 ($message)" &&
		ok "a host '$bytes': refused: the value of host is not UTF-8 ($message)"
done <<'EOF'
a\x80b|0x80 at byte 2 continues no character
a\xc0\xafb|0xc0 at byte 2 starts an overlong form
a\xe0\x80\xafb|0xe0 0x80 at byte 2 starts an overlong form
a\xed\xa0\x80b|0xed 0xa0 at byte 2 starts a UTF-16 surrogate, U+D800 to U+DFFF
a\xf4\x90\x80\x80b|0xf4 0x90 at byte 2 starts a code point above U+10FFFF
a\xffb|0xff at byte 2 starts no character
a\xc3b|0x62 at byte 3 does not continue 0xc3 at byte 2
ab\xc3|0xc3 at byte 3 is cut short by the end of the value
EOF
# a newline, which CSV can carry, refused by pack as well
fresh
printf -v value 'a\nb'
set_context cpu_model "$value"
run "$bin" pack "$work" --out newline.tar
check "pack of a cpu_model with a newline: refused (status $rc), no archive" \
	test "$rc" = 1 -a "$(grep -c 'value of cpu_model holds a control byte (0x0a' err)" = 1 \
	-a ! -e newline.tar
fresh
printf -v value 'a\xc2\x9b2Jb'
set_context cpu_model "$value"
run "$bin" pack "$work" --out c1.tar
check "pack of a cpu_model with U+009B (CSI, a terminal's ESC [): refused (status $rc), no archive" \
	test "$rc" = 1 -a "$(grep -c 'value of cpu_model holds a C1 control character (U+009B' err)" = 1 \
	-a ! -e c1.tar
# The longest canonical name, 100 bytes (the host cut to fit), and
# plots/: paths of up to 124 bytes, which only ustar's prefix field holds.
fresh
set_context host "$(printf '%0120d' 0 | tr 0 h)"
long="$(printf '%0*d' $((100 - ${#stamp} - ${#state} - 2)) 0 | tr 0 h)-$stamp-$state"
mkdir "$work/plots"
for plot in ops delta-syscall; do
	printf 'x' >"$work/plots/$plot.png"
done
fix_manifest
rm "$work/MANIFEST"
mv "$work" "craft/$long"
run "$bin" pack "craft/$long" --out long.tar
check "a run named with ${#long} bytes, with plots/: packed (status $rc)" test "$rc" = 0
check "  GNU tar reads its $((${#long} + 24))-byte path from the prefix and name fields" \
	eval 'tar -tf long.tar | grep -qxF "$long/plots/delta-syscall.png"'
rm -rf data11
run "$bin" import long.tar --data data11
check "  imported under the same name (status $rc)" \
	test "$rc $(cat out)" = "0 imported: data11/$long"
check "  byte for byte" diff -r -x .smapbench "craft/$long" "data11/$long"

fresh
set_context host "-.leading"
fix_manifest
repack leading.tar
rm -rf data6
run "$bin" import leading.tar --data data6
made=$(ls -A data6 2>/dev/null)
check "a host starting with - or . gives a name that does not ($made)" \
	eval '[ "$rc" = 0 ] && [[ $made == _.leading-* ]]'

# A maximal results.csv of empty fields (the limit, 2 MiB, of rows of
# commas only) must end in a clear refusal within 512 MiB of address
# space, not in an out-of-memory kill; one byte more is refused unread.
# maximal_results BYTES: the crafted copy's results.csv, that long
maximal_results() {
	local header row
	header=$(head -n 1 "$work/results.csv")
	row=$(printf '%*s' $(($(awk -F, '{ print NF }' <<<"$header") - 1)) '' | tr ' ' ,)
	{ printf '%s\n' "$header"; yes "$row"; } | head -c "$1" >"$work/results.csv.new"
	mv "$work/results.csv.new" "$work/results.csv"
}
fresh
maximal_results $((2 << 20))
fix_manifest
repack maximal.tar
rm -rf data7
run bash -c "ulimit -v $((512 << 10)) && exec \"\$0\" import maximal.tar --data data7" "$bin"
check "a results.csv of empty fields at its 2 MiB limit: refused within 512 MiB (status $rc: $(head -c 120 err))" \
	test "$rc" = 1 -a "$(grep -c 'results.csv' err)" -ge 1 -a ! -e data7
fresh
maximal_results $(((2 << 20) + 1))
fix_manifest
repack over.tar
rm -rf data8
run "$bin" import over.tar --data data8
check "one byte more: refused before it is read (status $rc)" \
	test "$rc" = 1 -a "$(grep -c 'results.csv is 2097153 bytes, above the limit' err)" = 1 -a ! -e data8

# 100 000 context keys, found twice or not by sorting: an answer in
# seconds (the loader once compared every key with every other: minutes)
many_keys() {
	local i
	for ((i = 1; i <= 100000; i++)); do
		printf '%s,x\n' "$1${2:+$i}"
	done >>"$work/context.csv"
}
fresh
many_keys dup
fix_manifest
repack dup-keys.tar
rm -rf data9
run timeout 60 "$bin" import dup-keys.tar --data data9
check "100 000 keys 'dup': refused (status $rc), naming the key and both lines" \
	test "$rc" = 1 -a "$(grep -c 'key dup appears twice (first on line' err)" = 1 -a ! -e data9
fresh
many_keys k distinct
fix_manifest
repack many-keys.tar
rm -rf data10
run timeout 60 "$bin" import many-keys.tar --data data10
check "100 000 distinct keys: imported (status $rc) without comparing each with each" \
	test "$rc" = 0

# --- command lines -------------------------------------------------------
usage() { # usage WORD COMMAND...: status 2 and WORD in the message
	local word=$1
	shift
	run "$bin" "$@"
	check "'${*}' is refused with status 2, naming $word" \
		test "$rc" = 2 -a "$(grep -c -- "$word" err)" -ge 1
}
usage "needs a run directory" pack
usage --bogus pack --bogus "$src"
usage --out pack "$src" --out
usage "takes one run" pack "$src" "$src"
usage "needs at least one archive" import
usage --data import "$archive" --data
usage --frob import --frob "$archive"
stage_exit
