#!/usr/bin/env bash
# The test suites against PostgreSQL: starts a private cluster on 127.0.0.1
# (tests/tools/pg.sh), then
#  - runs the CLI golden cases (tests/cli/cases) with every frontier path a
#    case names (-f NAME, --frontier NAME, $FRONTIER, the default
#    ./frontier.db) mapped to a fresh database of its own, and the database
#    URLs in the output mapped back to the names, so the same .out files apply;
#  - runs this directory's scripts (tests/pg/test_*.sh, each header says what
#    it checks: a crawl moved between backends, a server restart ridden out,
#    migrations, round trips per tool run, rows and lease order identical to
#    SQLite's) against a database each;
#  - runs the end-to-end tests named in the loop below (a real crawl by three
#    pipelines at once, tools SIGKILLed at random, concurrent workers, round
#    robin, large batches, a 429 answered from the stored copy, leases of a
#    gone process reclaimed, a capped follower) against a database each.
# Prints "PASS name" / "FAIL name" lines, like the other suites (exit 1 when
# any failed), and stops the cluster. `tests/pg/run.sh FILTER` runs the cases whose name contains FILTER.
# Cases listed in tests/pg/skip (with the reason) test the SQLite file
# itself and are reported as SKIP. Everything runs with leases and result
# batches in partitions (the default) but the cases listed in tests/pg/lock
# and those named pg-lock:..., which run with the writer lock
# (FRONTIER_PG_PARTITIONS=0).
set -u
failures=0  # exit 1 when any case failed
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$root/${FRONTIER_BIN:-bin}"
filter="${1:-}"
work=$(mktemp -d)
chmod 755 "$work"
trap '"$root/tests/tools/pg.sh" stop "$work/cluster"; rm -rf "$work"' EXIT
base=$("$root/tests/tools/pg.sh" start "$work/cluster") || { echo "FAIL pg-cluster"; exit 1; }

# Wrappers (tests/pg/wrap) that map frontier paths to databases, then run
# the real tool; sqlite3 and cp stand-ins for the cases that use them.
mkdir -p "$work/wrap"
for t in frontier-add frontier-lease frontier-done frontier-config frontier-budget frontier-report frontier-export frontier-import; do
    ln -s "$here/wrap/frontier-tool" "$work/wrap/$t"
done
ln -s "$here/wrap/sqlite3" "$work/wrap/sqlite3"
ln -s "$here/wrap/cp" "$work/wrap/cp"
export PG_BASE="$base" PG_REAL_BIN="$bin"

export FRONTIER_NOW=1800000000 LC_ALL=C
# One CLI case on its own databases (c<N>_<name>): its result line, then
# (when it failed) the diff, in $out/NAME. CLI_JOBS cases run at once
# (default 2), their lines printed in name order.
out="$work/cases"; mkdir -p "$out"
pg_cli_case() {
    local n=$1 case=$2 name dir state actual
    name=$(basename "$case" .sh)
    dir=$(mktemp -d); state=$(mktemp -d)
    # Cases listed in tests/pg/lock run with the writer lock (their reason there).
    local parts=1
    grep -q "^$name " "$root/tests/pg/lock" && parts=0
    actual=$(cd "$dir" && FRONTIER_PG_PARTITIONS=$parts PATH="$work/wrap:$bin:$PATH" PG_CASE=$n PG_CASE_DIR="$state" CASES="$root/tests/cli/cases" \
        ROOT="$root" timeout 120 bash "$case" 2>&1)
    if [ -f "$state/map" ]; then
        while IFS=$'\t' read -r url orig; do actual=${actual//"$url"/"$orig"}; done < "$state/map"
    fi
    rm -rf "$dir" "$state"
    if [ -f "$root/tests/cli/cases/$name.out" ] && [ "$actual" == "$(cat "$root/tests/cli/cases/$name.out")" ]; then
        echo "PASS pg:$name"
    else
        echo "FAIL pg:$name"
        diff <(cat "$root/tests/cli/cases/$name.out") <(printf '%s\n' "$actual") | head -"${PG_DIFF_LINES:-20}"
    fi > "$out/$name"
}
export -f pg_cli_case
export work bin root out
n=0; cases=(); names=()
for case in "$root"/tests/cli/cases/*.sh; do
    name=$(basename "$case" .sh)
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
    if why=$(grep "^$name " "$here/skip" 2>/dev/null); then echo "SKIP pg:$why"; continue; fi
    n=$((n + 1)); cases+=("$n" "$case"); names+=("$name")
done
[ ${#cases[@]} -gt 0 ] && printf '%s\0' "${cases[@]}" | xargs -0 -n 2 -P "${CLI_JOBS:-2}" bash -c 'pg_cli_case "$0" "$1"'
. "$root/tests/tools/results.bash"
print_results "$out" pg: "${names[@]}"
failures=$((failures + result_failures))

# pg_script NAME VAR [ENV=VALUE...]: runs tests/pg/NAME.sh in a temp dir
# with its database (a fresh e2e_NAME) in $VAR; prints PASS/FAIL pg:NAME and,
# on success, the script's last line. PG_PREFIX=P names it P:NAME instead
# (a database of its own).
pg_script() {
    local name=$1 var=$2 prefix=${PG_PREFIX:-pg}; shift 2
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && return
    local db="e2e_${prefix//-/_}_$name"
    psql -qX "$base/postgres" -c "CREATE DATABASE $db" >/dev/null
    local dir rc log start=$SECONDS
    dir=$(mktemp -d)
    log=$(cd "$dir" && unset FRONTIER FRONTIER_NOW LC_ALL && env PATH="$bin:$PATH" ROOT="$root" "$var=$base/$db" "$@" \
        timeout "${E2E_TIMEOUT:-300}" bash "$here/$name.sh" 2>&1)
    rc=$?
    rm -rf "$dir"
    if [ $rc -eq 0 ]; then echo "PASS $prefix:$name ($((SECONDS - start)) s)"; printf '%s\n' "$log" | tail -1
    else failures=$((failures + 1)); echo "FAIL $prefix:$name (exit $rc, $((SECONDS - start)) s)"; printf '%s\n' "$log" | tail -30; fi
}
# A crawl moved from a SQLite file to PostgreSQL and back.
pg_script test_move MOVE_FRONTIER
# The server stopped, started and its connections killed under running
# tools: reconnection, exit 75, nothing acknowledged lost.
pg_script test_restart RESTART_FRONTIER PG_CLUSTER="$work/cluster"
# The migrations 3 -> 4 (its back-fill) -> 5 -> 6 (urls_next rebuilt) -> 7 -> 8.
pg_script test_migrate_v4 MIGRATE_FRONTIER
# Lease holders written with the first lease (lease -n 1, --follow), reused
# by the same group, none with --detached.
pg_script test_holder_record HOLDER_FRONTIER
# Round trips of a lease, a lease that finds nothing and a done (at most
# today's counts).
pg_script test_round_trip_counts RT_FRONTIER
# A running frontier-done applies a setting changed between two results.
pg_script test_done_settings SETTINGS_FRONTIER
# A lease whose housekeeping put URLs back reads its first page again.
pg_script test_lease_first_page PAGE_FRONTIER
# frontier-add's host and queue rows made per chunk: the rows SQLite makes.
pg_script test_add_rows ROWS_FRONTIER
# A chunk's new URL rows inserted behind the next chunk's probe: the answers SQLite gives.
pg_script test_add_behind BEHIND_FRONTIER
# A lease's heads read ahead and refilled together: the order SQLite gives
# (with the writer lock: in partitions a lease takes from the queues it
# could lock).
pg_script test_lease_order ORDER_FRONTIER FRONTIER_PG_PARTITIONS=0
# Leases and results in partitions beside a shared lock and a held partition.
pg_script test_partitions PARTS_FRONTIER
# Four machines (network namespaces) crawl through one frontier 1 ms away
# (a server of its own there): politeness, a budget cut and a kill -9.
pg_script test_machines MACHINES_FRONTIER
PG_PREFIX=pg-lock pg_script test_machines MACHINES_FRONTIER FRONTIER_PG_PARTITIONS=0

# End-to-end tests that take their frontier from the environment, each on a
# fresh database: a real crawl, SIGKILLs at random moments, concurrent workers.
# e2e_case PREFIX NAME [ENV=VALUE...]: tests/e2e/NAME.sh on a fresh database.
e2e_case() {
    local prefix=$1 t=$2; shift 2
    [ -n "$filter" ] && [[ "$t" != *$filter* ]] && return
    db="e2e_${prefix//-/_}_$t" start=$SECONDS
    psql -qX "$base/postgres" -c "CREATE DATABASE $db" >/dev/null
    dir=$(mktemp -d)
    log=$(cd "$dir" && unset FRONTIER_NOW LC_ALL && env PATH="$bin:$PATH" ROOT="$root" E2E_FRONTIER="$base/$db" CONC_FRONTIER="$base/$db" CRAWL_PIPELINES=3 \
        CRASH_ROUNDS=${CRASH_ROUNDS:-4} CRASH_SECONDS=${CRASH_SECONDS:-6} "$@" \
        timeout "${E2E_TIMEOUT:-300}" bash "$root/tests/e2e/$t.sh" 2>&1)
    rc=$?
    rm -rf "$dir"
    if [ $rc -eq 0 ]; then
        echo "PASS $prefix:$t ($((SECONDS - start)) s)"
        if [ $t = test_concurrency ]; then printf '%s\n' "$log" | tail -1; fi
    else failures=$((failures + 1)); echo "FAIL $prefix:$t (exit $rc, $((SECONDS - start)) s)"; printf '%s\n' "$log" | tail -30; fi
}
for t in test_crawl test_crash test_concurrency test_lease_round_robin test_lease_large_batch test_done_429_cached test_lease_holder test_follow_capped; do
    e2e_case pg $t
done
# The same with the writer lock (FRONTIER_PG_PARTITIONS=0): three crawling
# pipelines, kills, concurrent workers with budget edits.
for t in test_crawl test_crash test_concurrency test_follow_capped; do
    e2e_case pg-lock $t FRONTIER_PG_PARTITIONS=0
done
[ "$failures" -eq 0 ]
