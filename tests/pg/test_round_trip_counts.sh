#!/usr/bin/env bash
# Round trips of single tool runs on PostgreSQL (frontier(7), POSTGRESQL:
# what a transaction sends), counted in the tool's own protocol trace
# (FRONTIER_PG_TRACE): each time it sent after the server's ReadyForQuery
# (the end of an answer to a Sync or a query), it had waited for that
# answer. A lease that finds nothing sends its reads (why, and when the
# next URL is due) in one round trip; a frontier-done's first batch reads
# its URL rows with their queue rows and Crawl-delays in one, and its
# queue updates reschedule the queues (none is read back).
# Run by tests/pg/run.sh with RT_FRONTIER (a database URL).
set -u
: "${RT_FRONTIER:?}" "${ROOT:?}"
export FRONTIER_NOW=1800000000
source "$ROOT/tests/pg/script.bash"

# trace_turns FILE: the round trips a trace shows: runs of the tool's
# messages that start it or follow a ReadyForQuery. The Terminate that
# closes the connection waits for nothing.
trace_turns() {
    awk -F'\t' '$2 == "F" && $4 != "Terminate" && (prev == "" || prev == "ReadyForQuery") { n++ }
        { prev = $2 == "B" ? $4 : "F" } END { print n + 0 }' "$1"
}
# turns OUT CMD...: runs CMD with its output in OUT and its connection
# traced, prints the round trips of its one connection; CMD's status.
turns() {
    local out=$1
    shift
    rm -f trace.log
    FRONTIER_PG_TRACE=$PWD/trace.log "$@" > "$out"
    local rc=$?
    [ "$(grep -c "$(printf '\tF\t[0-9]*\tTerminate')" trace.log)" = 1 ] || fail "expected one connection in trace.log"
    trace_turns trace.log
    return $rc
}

configure "$RT_FRONTIER" "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0"
for i in $(seq 20); do echo "http://one.example/p$i"; done | frontier-add -q -f "$RT_FRONTIER" || fail "add"

# The trace is its owner's only; a file that cannot be opened is an
# error at connect (exit 1), before anything is read or written.
rm -f trace.log
FRONTIER_PG_TRACE=$PWD/trace.log frontier-report -f "$RT_FRONTIER" > /dev/null || fail "report with a trace"
[ "$(stat -c %a trace.log)" = 600 ] || fail "the trace file has mode $(stat -c %a trace.log), expected 600"
grep -q "$(printf '\tB\t[0-9]*\tReadyForQuery')" trace.log || fail "no ReadyForQuery in the trace: $(head -3 trace.log)"
FRONTIER_PG_TRACE=$PWD/no/such/dir/trace.log frontier-report -f "$RT_FRONTIER" > /dev/null 2> trace.err
rc=$?
[ $rc = 1 ] || fail "an unopenable FRONTIER_PG_TRACE exited $rc"
grep -q "cannot open FRONTIER_PG_TRACE file" trace.err || fail "unclear message: $(cat trace.err)"

leased=$(turns lease.jsonl frontier-lease -q --detached -f "$RT_FRONTIER" -n 1) || fail "lease exit $?"
[ "$(wc -l < lease.jsonl)" = 1 ] || fail "the first lease took $(wc -l < lease.jsonl) URLs"
# The host's one politeness slot is taken: nothing is ready (exit 3).
empty=$(turns empty.jsonl frontier-lease -q --detached -f "$RT_FRONTIER" -n 1 2> empty.err)
rc=$?
[ $rc = 3 ] || fail "a lease with nothing ready exited $rc: $(cat empty.err)"
sed 's/}$/,"status":200}/' lease.jsonl > result.jsonl
done_=$(turns done.jsonl frontier-done -q -f "$RT_FRONTIER" result.jsonl) || fail "done"
[ "$(psql -qXAt "$RT_FRONTIER" -c "SELECT count(*) FROM urls WHERE state = 2")" = 1 ] || fail "the result was not stored"

# With robots.txt on, the host rows of a page's next URLs (robots.txt state
# and seed flag) go with the page, and the rules are read once per host:
# a lease of many URLs of one host costs as many round trips as one of a
# single URL, however many URLs it matches against the rules.
configure "$RT_FRONTIER" "robots.enabled true" "politeness.max-in-flight 100"
frontier-lease -q --detached -f "$RT_FRONTIER" -n 1 > robots.jsonl || fail "robots.txt lease"
grep -q '"robots":true' robots.jsonl || fail "expected the host's robots.txt first: $(cat robots.jsonl)"
sed 's/}$/,"status":200,"body":"User-agent: *\\nDisallow: \/p1\\n"}/' robots.jsonl |
    frontier-done -q -f "$RT_FRONTIER" || fail "robots.txt result"
many=$(turns many.jsonl frontier-lease -q --detached -f "$RT_FRONTIER" -n 15 --per-queue 15) || fail "lease of many exit $?"
# p2-p9 and p20 are leased, p10-p19 blocked by the rules (p1 is done).
[ "$(wc -l < many.jsonl)" = 9 ] || fail "expected 9 leases under the rules, got: $(cat many.jsonl)"
blocked=$(psql -qXAt "$RT_FRONTIER" -c "SELECT count(*) FROM urls WHERE state = 4 AND reason = 'robots'")
[ "$blocked" = 10 ] || fail "expected 10 URLs blocked by robots.txt, got $blocked"

# A large batch: the queues it activates read ahead from the inactive FIFO
# with their next URLs, queues' lists refilled together (up to 256 queues
# per statement) and lists read whole not read again. 60 queues of 1-40
# URLs, robots.txt off, queues held: 1,000 leased at once. Two round trips
# per queue activated and one per queue refilled took 209 here.
configure "$RT_FRONTIER" "robots.enabled false" "politeness.max-in-flight 100000"
python3 -c '
for h in range(60):
    for i in range(1 + h * 7 % 40):
        print(f"http://h{h}.example/p{i}")' | frontier-add -q -f "$RT_FRONTIER" || fail "add of 60 hosts"
batch=$(turns batch.jsonl frontier-lease -q --detached -f "$RT_FRONTIER" -n 1000 --per-queue 1000) || fail "lease of 1000 exit $?"
[ "$(wc -l < batch.jsonl)" = 1000 ] || fail "expected 1000 leases, got $(wc -l < batch.jsonl)"

# frontier-lease --follow: a batch right after a batch takes the leases
# out that the first counted (no read before it), and lease.ttl is read
# with each batch's own transaction. One host's 15 URLs, -n 5, at most 15
# out (beyond those out before): three batches, then a wait that nothing ends (no results come back,
# the poll interval is long), until SIGTERM. Before, each batch read the
# settings version and the leases out first: 2 round trips more each.
configure "$RT_FRONTIER" "budget.hold-queues false"
for i in $(seq 15); do echo "http://follow.example/p$i"; done | frontier-add -q -f "$RT_FRONTIER" || fail "add follow.example"
rm -f trace.log
out=$(psql -qXAt "$RT_FRONTIER" -c "SELECT count(*) FROM urls WHERE state = 1")
FRONTIER_PG_TRACE=$PWD/trace.log frontier-lease -q --detached -f "$RT_FRONTIER" --follow -n 5 --per-queue 5 --max-in-flight $((out + 15)) --poll-interval 600 \
    > follow.jsonl &
follower=$!
for _ in $(seq 100); do [ "$(wc -l < follow.jsonl)" -ge 15 ] && break; sleep 0.05; done
sleep 0.3
kill -TERM $follower
wait $follower || fail "frontier-lease --follow exit $? on SIGTERM"
[ "$(wc -l < follow.jsonl)" = 15 ] || fail "expected 15 leases from --follow, got $(wc -l < follow.jsonl)"
follow=$(trace_turns trace.log)

# Each count includes the connection's start (the session settings, the
# settings' read), not the Terminate that ends it. Counted by a proxy as
# any server send followed by a client send (two more for the start, one
# for the Terminate), before the reads were sent ahead: a lease of
# nothing 16, a done 10; before the expiry scan went with a done's first
# reads, a done 9; before an activated queue's row came with its next URLs
# (this lease activates the host's queue), a lease 14; before the host rows
# came with a page, the lease under robots.txt 33; then 12, 11, 8, 13;
# before the lease read whether any queue is inactive with its first read
# (instead of looking for one when its page ran out), 9, 8, 5, 10.
# Counted by the proxy as client sends after a ReadyForQuery (one more for
# the Terminate), it flaked: a pipeline reaches a proxy in several chunks,
# and one that arrived after the answer to an earlier Sync of the same
# flight counted as a round trip. The tool's own trace has each message
# in the order the tool made or read it, so these bounds are exact.
[ "$leased" -le 7 ] || fail "a lease of one URL took $leased round trips (at most 7)"
[ "$empty" -le 6 ] || fail "a lease that found nothing took $empty round trips (at most 6)"
[ "$done_" -le 4 ] || fail "frontier-done of one result took $done_ round trips (at most 4)"
[ "$many" -le 8 ] || fail "a lease of 9 URLs under robots.txt rules took $many round trips (at most 8)"
[ "$batch" -le 8 ] || fail "a lease of 1000 URLs from 61 queues took $batch round trips (at most 8)"
[ "$follow" -le 15 ] || fail "frontier-lease --follow took $follow round trips for 3 batches (at most 15)"
echo "ok: round trips: lease $leased, lease of nothing $empty, done $done_, lease of 9 under robots.txt $many, lease of 1000 $batch, --follow of 3 batches $follow"
