#!/usr/bin/env bash
# On PostgreSQL a lease's first page of ready queues goes with the
# transaction's first read, before its housekeeping (frontier(7),
# POSTGRESQL). A housekeeping that puts URLs back (an expired lease here)
# changes queue rows that page may hold: the page is read again, so the
# URL put back is leased by the same call, and the queue is not
# rescheduled from its old row.
# Run by tests/pg/run.sh with PAGE_FRONTIER (a database URL).
set -u
: "${PAGE_FRONTIER:?}" "${ROOT:?}"
export FRONTIER=$PAGE_FRONTIER
source "$ROOT/tests/pg/script.bash"
t0=1800000000

configure "$FRONTIER" "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" \
    "politeness.max-in-flight 1"
printf '%s\n' http://a.example/1 http://b.example/1 | FRONTIER_NOW=$t0 frontier-add -q || fail "add"
# One lease from each queue (max-in-flight 1), never answered: 10 s leases.
FRONTIER_NOW=$t0 frontier-lease -q --detached -n 5 --per-queue 5 --ttl 10 > first.jsonl || fail "first lease"
[ "$(wc -l < first.jsonl)" = 2 ] || fail "expected 2 leases (one per queue): $(cat first.jsonl)"
# Nothing else to lease while they are out.
FRONTIER_NOW=$((t0 + 5)) frontier-lease -q --detached -n 5 > none.jsonl
[ -s none.jsonl ] && fail "leased while both queues were full: $(cat none.jsonl)"
# 20 s on both leases expired: the same call puts them back and leases them.
FRONTIER_NOW=$((t0 + 20)) frontier-lease -q --detached -n 5 --per-queue 5 > second.jsonl \
    || fail "the lease after the expiry exited $?"
[ "$(wc -l < second.jsonl)" = 2 ] || fail "expected the 2 expired URLs leased again: $(cat second.jsonl)"
in_flight=$(sql "SELECT sum(in_flight) FROM queues")
[ "$in_flight" = 2 ] || fail "expected 2 leases in flight, the queues say $in_flight"
FRONTIER_NOW=$((t0 + 20)) frontier-report --check > check.txt 2>&1 || fail "frontier-report --check: $(grep -v "^ok" check.txt)"
echo "ok: 2 expired leases put back and leased again by one call"
