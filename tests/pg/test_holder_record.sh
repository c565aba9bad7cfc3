#!/usr/bin/env bash
# Lease holders on PostgreSQL (frontier(7), LEASES and POSTGRESQL): a new
# holder row is written with the first lease, in its transaction (not in a
# transaction of its own at the start), by frontier-lease -n 1 and by
# --follow; the same process group reuses its row; --detached records none;
# every lease names its holder.
# Run by tests/pg/run.sh with HOLDER_FRONTIER (a database URL).
set -u
: "${HOLDER_FRONTIER:?}" "${ROOT:?}"
export FRONTIER=$HOLDER_FRONTIER FRONTIER_NOW=1800000000
source "$ROOT/tests/pg/script.bash"

configure "$FRONTIER" "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" "politeness.max-in-flight 100"
for i in $(seq 40); do echo "http://h$((i % 4)).example/p$i"; done | frontier-add -q || fail "add"
[ "$(sql "SELECT count(*) FROM lease_holders")" = 0 ] || fail "a holder before any lease"

# 1. lease -n 1: one row, this script's process group, named by the lease.
frontier-lease -q -n 1 > one.jsonl || fail "lease -n 1"
[ "$(sql "SELECT count(*) FROM lease_holders")" = 1 ] || fail "lease -n 1 recorded no holder row"
me=$(sql "SELECT id FROM lease_holders WHERE pgid = $(ps -o pgid= $$)")
[ -n "$me" ] || fail "the holder row is not this process group's: $(sql "SELECT * FROM lease_holders")"
[ "$(sql "SELECT count(*) FROM urls WHERE state = 1 AND holder = $me")" = 1 ] || fail "the lease does not name its holder"

# 2. Again in the same group: the row is reused.
frontier-lease -q -n 2 --per-queue 2 > two.jsonl || fail "lease -n 2"
[ "$(sql "SELECT count(*) FROM lease_holders")" = 1 ] || fail "the same group got a second row"
[ "$(sql "SELECT count(*) FROM urls WHERE state = 1 AND holder = $me")" = 3 ] || fail "leases without their holder"

# 3. --detached: no row, no holder.
frontier-lease -q -n 1 --detached > det.jsonl || fail "lease --detached"
[ "$(sql "SELECT count(*) FROM lease_holders")" = 1 ] || fail "--detached recorded a holder"
[ "$(sql "SELECT count(*) FROM urls WHERE state = 1 AND holder IS NULL")" = 1 ] || fail "--detached lease has a holder"

# 4. --follow in a group of its own: its row comes with its first lease,
#    and names all its leases.
setsid frontier-lease -q --follow --forever -n 2 --max-in-flight 6 > follow.jsonl 2> follow.err &
pid=$!
for _ in $(seq 100); do [ "$(grep -c . follow.jsonl)" -ge 2 ] && break; sleep 0.1; done
[ "$(grep -c . follow.jsonl)" -ge 2 ] || { kill $pid; fail "--follow leased nothing: $(cat follow.err)"; }
fid=$(sql "SELECT id FROM lease_holders WHERE pgid = $pid")
[ -n "$fid" ] || { kill $pid; fail "--follow recorded no holder: $(sql "SELECT * FROM lease_holders")"; }
n=$(grep -c . follow.jsonl)
[ "$(sql "SELECT count(*) FROM urls WHERE state = 1 AND holder = $fid")" = "$n" ] || { kill $pid; fail "--follow leases without their holder"; }
kill -TERM $pid; wait $pid 2>/dev/null
[ "$(sql "SELECT count(*) FROM lease_holders")" = 2 ] || fail "holder rows: $(sql "SELECT * FROM lease_holders")"
frontier-report --check >/dev/null || fail "--check"
echo "ok: holders recorded with their first lease (lease -n 1, --follow: $n leases), reused, none for --detached"
