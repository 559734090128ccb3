#!/bin/bash
# The fleet playbook (fleet/smapbench.yml, docs/fleet.md) on this machine
# through Ansible's local connection: the checkout shipped, built, a quick
# syscall run made, packed, fetched, imported and tabled, all under a
# temporary directory. Then again with --tags collect,table beside a host
# that has no run: nothing is fetched or imported twice, and the failed
# host costs the other nothing. About 2 min, most of it the copy's build.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib/tap.sh
. tests/lib/tap.sh
top=$PWD
playbook=fleet/smapbench.yml

if ! command -v ansible-playbook >/dev/null; then
	skip "fleet playbook" "ansible-playbook is not installed (apt-get install ansible)"
	exit 0
fi
check "ansible-playbook --syntax-check $playbook" \
	ansible-playbook -i fleet/inventory.example --syntax-check "$playbook"
if [ "$(id -u)" -ne 0 ]; then
	skip "fleet playbook on localhost" "needs root: run-bench.sh does"
	stage_exit
fi
if ! git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	skip "fleet playbook on localhost" "the playbook ships a git checkout, and $top is none"
	stage_exit
fi

shopt -s nullglob
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Ansible's own scratch files stay in $tmp too.
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 \
	ANSIBLE_LOCAL_TEMP=$tmp/ansible/local ANSIBLE_REMOTE_TEMP=$tmp/ansible/remote \
	ANSIBLE_ASYNC_DIR=$tmp/ansible/async
controller=$tmp/controller host_dir=$tmp/host
# The host's directory is an inventory variable: -e would outrank the
# second host's own below.
printf '%s\n' "localhost ansible_connection=local ansible_python_interpreter=auto_silent smapbench_remote_dir=$host_dir" \
	>"$tmp/inventory"
# The published runs must not change: everything goes under $tmp.
data_before=$(ls -A data)
fleet_vars=(-e "smapbench_fleet_dir=$controller" -e "smapbench_table_options=--include-tcg")

# --- the whole play ------------------------------------------------------------
start=$SECONDS
ansible-playbook -i "$tmp/inventory" "$playbook" "${fleet_vars[@]}" \
	-e "smapbench_run_options='--quick --suite syscall'" >"$tmp/play.log" 2>&1
rc=$?
seconds=$((SECONDS - start))
if [ "$rc" -ne 0 ]; then
	grep -E '^(fatal|failed):|^localhost +:' "$tmp/play.log" | cut -c 1-400 | show
fi
check "the playbook on localhost, --quick --suite syscall: status 0 in ${seconds}s (got $rc)" \
	test "$rc" -eq 0

run_dir=$(cat "$host_dir/last-run" 2>/dev/null)
check "run-bench.sh --run-dir-file named the run it kept ($run_dir)" \
	test -f "$run_dir/results.csv" -a "$(dirname "$run_dir")" = "$host_dir/runs"
name=$(basename "${run_dir:-none}")
archives=("$controller/archives/localhost"/*.smapbench.tar)
archive=${archives[0]:-none}
check "one archive was fetched, named after the run (${archive#"$controller"/})" \
	test ${#archives[@]} -eq 1 -a -f "$archive" -a "$(basename "$archive")" = "$name.smapbench.tar"
check "the archive is a smapbench pack: $name/MANIFEST comes first" \
	test "$(tar -tf "$archive" 2>/dev/null | head -n 1)" = "$name/MANIFEST"

imported=("$controller/data"/*/)
run=${imported[0]:-none/}
run=${run%/}
check "the import placed one run under the fleet's data directory ($run)" \
	test ${#imported[@]} -eq 1 -a -d "$run"
for f in results.csv samples.csv context.csv; do
	check "the imported run has the measured $f, unchanged" cmp "$run_dir/$f" "$run/$f"
done
check "the import is recorded next to the archive ($(cat "$archive.imported" 2>/dev/null))" \
	test "$(sed -n 's/^imported: //p' "$archive.imported" 2>/dev/null)" -ef "$run"

kv() { sed -n "s/^$1,//p" "$run/context.csv" 2>/dev/null | head -n 1; }
# As table.md shows text: what Markdown acts on backslashed (md_text()).
md() { sed 's/[][\\`*_()<>#|!&~]/\\&/g' <<<"$1"; }
host=$(kv host) kernel=$(kv kernel_release) cpu=$(kv cpu_model)
table=$controller/table
# table.csv has a line per figure: a single boot's syscall run has none
# (its figures need a SMAP-off boot to pair with): the machine's row is
# in table.md, with dashes, and the run must not be among the left out.
check "the table has table.csv, with its header" \
	grep -q '^host,cpu_model,.*,kernel_release,' "$table/table.csv"
check "the table has table.md" test -s "$table/table.md"
check "table.md has this machine's row ($host, $cpu, $kernel)" \
	eval 'grep -F -- "| $(md "$host") | $(md "$cpu") (" "$table/table.md" |
		grep -qF -- "| $(md "$kernel") |"'
# The run's line of "## Runs": | run | SMAP state | date | row |. A SMAP-off
# run stands on its row's SMAP-off side, its state followed by how SMAP
# came to be off, in parentheses: whatever the host's kernel does.
runs_line=$(grep -F -- "| $(md "$run") | " "$table/table.md" | head -n 1)
state_cell=$(awk -F' [|] ' '{ print $2 }' <<<"$runs_line")
state=$(kv smap_state)
case $state in
smap) state_like="smap" ;;
*) state_like="$(md "$state") (*)" ;;
esac
# shellcheck disable=SC2053 # $state_like is a pattern
check "table.md lists the imported run under that row, in its SMAP state ('$state_cell', want '$state_like')" \
	eval '[[ "$state_cell" == $state_like ]] &&
		grep -qF -- " | $(md "$(kv date)") | $(md "$host"), $(md "$kernel") |" <<<"$runs_line"'
check "left-out.csv does not name the run" \
	eval 'test -f "$table/left-out.csv" && ! grep -qF -- "$run" "$table/left-out.csv"'
check "the checkout's data/ is untouched" test "$(ls -A data)" = "$data_before"
# The second pass builds on the first.
[ -s "$archive.imported" ] || stage_exit

# --- again: collect and table only, beside a host that never ran and a ---------
# --- truncated archive -----------------------------------------------------------
# task_status TASK WHAT: what the log says the task did (ok, changed,
# skipping, failed, fatal, ...) on the first line that has WHAT: the host
# as [host], or a loop's item as (item=...).
task_status() {
	awk -v task="TASK [$1]" -v what="$2" '
		index($0, task) == 1 { in_task = 1; next }
		/^TASK \[/ { in_task = 0 }
		in_task && index($0, what) { sub(/:.*/, ""); print; exit }' "$tmp/again.log"
}
printf '%s\n' "never-ran ansible_connection=local ansible_python_interpreter=auto_silent smapbench_remote_dir=$tmp/never-ran" \
	>>"$tmp/inventory"
broken=$controller/archives/elsewhere/truncated.smapbench.tar
mkdir -p "${broken%/*}"
head -c 4096 "$archive" >"$broken"
ansible-playbook -i "$tmp/inventory" "$playbook" "${fleet_vars[@]}" \
	--tags collect,table >"$tmp/again.log" 2>&1
rc=$?
grep -E '^(localhost|never-ran) +:' "$tmp/again.log" | show
check "again: status 2 (got $rc)" test "$rc" -eq 2
check "again: the host that never ran failed when its run directory was asked for" \
	test "$(task_status 'Read which run directories run-bench.sh kept' '[never-ran]')" = fatal
for task in 'Pack each run (smapbench pack)' 'Fetch each archive to the controller'; do
	status=$(task_status "$task" '[localhost]')
	check "again: $task: nothing to do (got '$status')" test "$status" = ok
done
status=$(task_status 'Import the archives (smapbench import)' "(item=$archive)")
check "again: the archive imported before is not imported again (got '$status')" \
	test "$status" = ok
status=$(task_status 'Import the archives (smapbench import)' "(item=$broken)")
check "again: the truncated archive is refused (got '$status')" test "$status" = failed
imported=("$controller/data"/*/)
check "again: still one imported run (${#imported[@]})" test ${#imported[@]} -eq 1
check "again: neither failure kept the table from being built" \
	test "$(task_status 'Build the table (smapbench table)' '[localhost]')" = changed
check "again: the play ends failing, naming the refused archive" \
	eval 'grep "^fatal: \[localhost\]" "$tmp/again.log" | grep -qF -- "$broken: refused"'
stage_exit
