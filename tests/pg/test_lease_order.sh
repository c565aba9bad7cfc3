#!/usr/bin/env bash
# On PostgreSQL a lease reads its queues' next URLs ahead: a page's heads in
# one statement, then queues that run short refilled together, and a list
# read shorter than asked taken as the queue's last URLs (frontier(7),
# POSTGRESQL); SQLite reads one URL at a time. The same frontier leased the
# same way gives the same URLs in the same order on both.
# Frontier: 5,550 records over 150 hosts: queues of 1-4 URLs (their lists
# complete at once), of 20 (one refill) and of 60-150 (many), priorities
# that interleave the queues, articles and navigation pages (class
# alternation: URLs taken aside), one queue retired by its total budget
# after 30. Leases: large batches with --per-queue 1000, a --class batch,
# then small per-queue batches until none is left; first with every queue
# active, then with queues held in the inactive FIFO (activated from the
# queues read ahead) and rotated out after 6 URLs.
# Run by tests/pg/run.sh with ORDER_FRONTIER (a database URL).
set -u
: "${ORDER_FRONTIER:?}" "${ROOT:?}"
export FRONTIER_NOW=1800000000
source "$ROOT/tests/pg/script.bash"
source "$ROOT/tests/tools/throughput.bash"

records() {
    python3 - <<'PY'
import json, random
sizes = {0: 150, 1: 3, 2: 20, 3: 1, 4: 60, 5: 2, 6: 20, 7: 4, 8: 90, 9: 20}
out = []
for h in range(150):
    for i in range(sizes[h % 10]):
        rec = {"url": f"http://h{h}.example/p{i}", "priority": ((h * 37 + i * 11) % 97) / 97,
               "type": "nav" if (h + i) % 4 == 0 else "article"}
        out.append(rec)
random.Random(7).shuffle(out)
for r in out:
    print(json.dumps(r))
PY
}
# leases FRONTIER: the URLs of each lease call, one line per call.
leases() {
    local f=$1 rc args
    for args in "-n 700 --per-queue 1000" "-n 700 --per-queue 1000" "--class acquisition -n 300 --per-queue 1000" \
                "-n 250 --per-queue 30"; do
        # shellcheck disable=SC2086
        frontier-lease -q -f "$f" $args > out.jsonl
        rc=$?
        [ $rc -eq 0 ] || fail "lease $args on $f: exit $rc"
        echo "$args: $(jq -r .url out.jsonl | tr '\n' ' ')"
    done
    for _ in $(seq 40); do
        frontier-lease -q -f "$f" -n 300 --per-queue 7 > out.jsonl
        rc=$?
        [ $rc -eq 3 ] && return 0
        [ $rc -eq 0 ] || fail "lease -n 300 --per-queue 7 on $f: exit $rc"
        echo "-n 300 --per-queue 7: $(jq -r .url out.jsonl | tr '\n' ' ')"
    done
    fail "leases did not end on $f"
}
# compare PG_DB FILE SETTING...: the same frontier on both, leased the same way.
compare() {
    local pg=$1 file=$2 f
    shift 2
    for f in "$pg" "$file"; do
        throughput_config "$f" > /dev/null || fail "config $f"
        configure "$f" "lease.class-burst 3" "$@"
        frontier-budget -f "$f" --queue h8.example --create --total-budget 30 > /dev/null || fail "budget on $f"
        records | frontier-add -q -f "$f" || fail "add to $f"
    done
    leases "$pg" > pg.txt || { cat pg.txt; exit 1; }
    leases "$file" > sqlite.txt || { cat sqlite.txt; exit 1; }
    diff pg.txt sqlite.txt > order.diff || fail "PostgreSQL and SQLite lease differently ($*): $(cut -c1-300 order.diff | head -8)"
    echo "$(wc -l < pg.txt) calls, $(tr ' ' '\n' < pg.txt | grep -c '^http') URLs"
}
base=${ORDER_FRONTIER%/*}
psql -qX "$base/postgres" -c "DROP DATABASE IF EXISTS lease_order_fifo" -c "CREATE DATABASE lease_order_fifo" > /dev/null 2>&1 ||
    fail "createdb"
# All queues active; then queues activated from the inactive FIFO (read
# ahead), rotated out after 6 URLs and one retired by its total budget.
all=$(compare "$ORDER_FRONTIER" "$PWD/all.db") || { echo "$all"; exit 1; }
fifo=$(compare "$base/lease_order_fifo" "$PWD/fifo.db" "budget.hold-queues true" "budget.replenish 6") || { echo "$fifo"; exit 1; }
n=$(records | wc -l)
[ "${all#* calls, }" = "$((n - 60)) URLs" ] || fail "expected $((n - 60)) URLs leased (h8's 30 of 90), got $all"
[ "${fifo#* calls, }" = "$((n - 60)) URLs" ] || fail "expected $((n - 60)) URLs leased (h8's 30 of 90), got $fifo"
echo "ok: the same URLs in the same order on PostgreSQL and SQLite: all queues active $all; queues held $fifo"
