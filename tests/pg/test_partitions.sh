#!/usr/bin/env bash
# Partitions on PostgreSQL (frontier(7), POSTGRESQL, Partitions): with
# FRONTIER_PG_PARTITIONS=1 a lease and a result batch that only ends its
# leases run while another session holds the writers' lock shared (a
# writer without it waits), a lease skips a queue whose partition another
# session holds and takes the next queue, and a result for that queue
# waits for the partition, then is applied.
# Run by tests/pg/run.sh with PARTS_FRONTIER (a database URL).
set -u
: "${PARTS_FRONTIER:?}" "${ROOT:?}"
export FRONTIER=$PARTS_FRONTIER FRONTIER_NOW=1800000000
source "$ROOT/tests/pg/script.bash"
writers=7310012176585550194 parts=1718775150
# hold LOCK SECONDS: a session that takes LOCK (SQL) and keeps it SECONDS;
# returns once it holds it.
hold() {
    rm -f held
    psql -qXAt "$FRONTIER" -c "BEGIN" -c "SELECT $1" -c "\\! touch held" -c "SELECT pg_sleep($2)" -c "COMMIT" >/dev/null &
    holder=$!
    for _ in $(seq 100); do [ -e held ] && return; sleep 0.05; done
    fail "the holding session never took $1"
}
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

configure "$FRONTIER" "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" \
    "politeness.max-in-flight 2" "budget.hold-queues false"
printf 'http://a.example/1\nhttp://a.example/2\nhttp://b.example/1\n' | frontier-add -q || fail "add"
qa=$(sql "SELECT id FROM queues WHERE key = 'a.example'")

# 1. The writers' lock held shared elsewhere: a lease in partitions goes on,
#    a writer without them waits for it.
hold "pg_advisory_xact_lock_shared($writers)" 4
t0=$(date +%s.%N)
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 1 --per-queue 1 > first.jsonl || fail "lease in partitions"
t=$(elapsed "$t0")
awk -v t="$t" 'BEGIN { exit !(t < 2.5) }' || fail "a lease in partitions waited ${t} s for a shared writers' lock"
grep -q '"url":"http://a.example/1"' first.jsonl || fail "the lease in partitions took $(cat first.jsonl)"
t0=$(date +%s.%N)
frontier-config politeness.delay-factor 0 >/dev/null || fail "config"
t=$(elapsed "$t0")
awk -v t="$t" 'BEGIN { exit !(t >= 1) }' || fail "a writer without partitions did not wait for the shared lock (${t} s)"
wait "$holder"

# 2. a.example's partition held elsewhere: the lease skips it (a.example/2
#    may be leased: max-in-flight 2), takes b.example.
hold "pg_advisory_xact_lock($parts, $((qa % 1024)))" 5
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 2 --per-queue 1 > second.jsonl 2> second.err || fail "second lease: exit $?: $(cat second.err)"
[ "$(grep -c . second.jsonl)" = 1 ] && grep -q '"url":"http://b.example/1"' second.jsonl ||
    fail "a lease beside a held partition took: $(cat second.jsonl)"

# 3. The result of a.example's lease waits for the partition, then is applied.
lease=$(sed -E 's/.*"lease":"([^"]*)".*/\1/' first.jsonl)
t0=$(date +%s.%N)
echo "{\"url\":\"http://a.example/1\",\"lease\":\"$lease\",\"status\":200}" |
    FRONTIER_PG_PARTITIONS=1 frontier-done -q || fail "done in partitions"
t=$(elapsed "$t0")
wait "$holder"
awk -v t="$t" 'BEGIN { exit !(t >= 1) }' || fail "the result did not wait for its partition (${t} s)"
[ "$(sql "SELECT state FROM urls WHERE url = 'http://a.example/1'")" = 2 ] || fail "the result was not applied"
[ "$(sql "SELECT in_flight FROM queues WHERE key = 'a.example'")" = 0 ] || fail "a.example's slot was not freed"

# 4. Nothing is left held: the next URL of a.example is leased at once.
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 5 > third.jsonl || fail "third lease"
grep -q '"url":"http://a.example/2"' third.jsonl || fail "a.example/2 not leased after: $(cat third.jsonl)"
frontier-report --check >/dev/null || fail "the frontier's checks fail"
echo "ok: a lease in partitions beside a shared writers' lock, a held partition skipped, its result waited for"
