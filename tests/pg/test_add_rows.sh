#!/usr/bin/env bash
# On PostgreSQL frontier-add finds or creates the host and queue rows of a
# chunk's new URLs together (frontier(7), POSTGRESQL); SQLite makes them one
# URL at a time. The same records added to both give the same rows: queue
# keys, states, FIFO places (budget.hold-queues on), budgets (off) and served marks in
# creation order, hosts and their seed flags, and the same counters.
# Records: 1,500 (three chunks) over 60 hosts, seeds and discovered links,
# duplicates, out-of-scope links (scope.seed-domains), added in two runs.
# Run by tests/pg/run.sh with ROWS_FRONTIER (a database URL).
set -u
: "${ROWS_FRONTIER:?}" "${ROOT:?}"
export FRONTIER=$ROWS_FRONTIER FRONTIER_NOW=1800000000
source "$ROOT/tests/pg/script.bash"

records() {  # $1: first record number
    python3 - "$1" <<'PY'
import json, sys
first = int(sys.argv[1])
for i in range(first, first + 750):
    h = (i * 7) % 60
    rec = {"url": f"http://h{h}.example/p{i % 400}"}
    if i % 5:
        rec["discovery"] = "link"
        rec["depth"] = 1
    if i % 11 == 0:
        rec["url"] = f"http://other{i % 13}.example/x"  # out of scope unless a seed
    print(json.dumps(rec))
PY
}
q="SELECT key, state, sched, inactive_seq, session_balance, served, queued, enqueued FROM queues ORDER BY id"
h="SELECT id, name, seed FROM hosts ORDER BY id"
c="SELECT name, n FROM counters WHERE n != 0 ORDER BY name"
# compare DB FILE SEED_DOMAINS MIN_QUEUES HOLD: both frontiers made the same way.
compare() {
    local pg=$1 file=$2 s
    for f in "$pg" "$file"; do
        configure "$f" "budget.hold-queues $5" "budget.replenish 7" "scope.seed-domains $3"
        frontier-budget -f "$f" --queue h3.example --create --replenish 2 > /dev/null || fail "budget on $f"
        records 0 | frontier-add -q -f "$f"
        [ $? -le 1 ] || fail "add to $f"
        records 500 | frontier-add -q -f "$f"
        [ $? -le 1 ] || fail "second add to $f"
    done
    for s in "$q" "$h" "$c"; do
        diff <(FRONTIER=$pg sql "$s" | tr '|' ' ') <(sqlite3 "$file" "$s" | tr '|' ' ') > rows.diff \
            || fail "PostgreSQL and SQLite differ (seed-domains $3) on $s: $(head -20 rows.diff)"
    done
    local n
    n=$(FRONTIER=$pg sql "SELECT count(*) FROM queues")
    [ "$n" -ge "$4" ] || fail "expected at least $4 queues (seed-domains $3), got $n"
    FRONTIER=$pg frontier-report --check > check.txt 2>&1 || fail "frontier-report --check: $(grep -v '^ok' check.txt)"
    echo "$n"
}
base=${FRONTIER%/*}
psql -qX "$base/postgres" -c "DROP DATABASE IF EXISTS add_rows_all" -c "CREATE DATABASE add_rows_all" > /dev/null 2>&1 || fail "createdb"
seeds=$(compare "$FRONTIER" "$PWD/seeds.db" true 12 true) || { echo "$seeds"; exit 1; }
all=$(compare "$base/add_rows_all" "$PWD/all.db" false 70 false) || { echo "$all"; exit 1; }
echo "ok: the same queue, host and counter rows on PostgreSQL and SQLite: $seeds queues (seed domains), $all (all links)"
