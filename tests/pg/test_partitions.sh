#!/usr/bin/env bash
# Partitions on PostgreSQL (frontier(7), POSTGRESQL, Partitions): with
# FRONTIER_PG_PARTITIONS=1 a lease and a result batch (its links, new or
# known, included) run while another session holds the writers' lock
# shared (a writer without it waits), a lease skips a queue whose
# partition another session holds and takes the next queue, and a result
# for that queue waits for the partition, then is applied; a lease that
# finds every ready queue's partition held waits for the first one's, then
# leases from it; a full batch of results (256 or 1 MiB read at once) waits
# for the writers' lock instead (a shorter one does not), as does a bulk
# lease.
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
# lease_beside LOCK OUT ARGS...: a lease in partitions (frontier-lease -q
# ARGS > OUT) while another session holds LOCK for 4 s; its seconds in $t.
lease_beside() {
    local lock=$1 out=$2
    shift 2
    hold "$lock" 4
    t0=$(date +%s.%N)
    FRONTIER_PG_PARTITIONS=1 frontier-lease -q "$@" > "$out" 2> "$out.err" || fail "lease beside $lock: exit $?: $(cat "$out.err")"
    t=$(elapsed "$t0")
}

configure "$FRONTIER" "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" \
    "politeness.max-in-flight 2" "budget.hold-queues false"
printf 'http://a.example/1\nhttp://a.example/2\nhttp://b.example/1\n' | frontier-add -q || fail "add"
qa=$(sql "SELECT id FROM queues WHERE key = 'a.example'")

# 1. The writers' lock held shared elsewhere: a lease in partitions goes on,
#    a writer without them waits for it.
lease_beside "pg_advisory_xact_lock_shared($writers)" first.jsonl -n 1 --per-queue 1
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

# 5. A result whose links this frontier-done already found in the frontier
#    (it added them itself) writes nothing for them: it runs in partitions,
#    beside the shared writers' lock; the result that added them ran alone.
lease_of() { sed -E 's/.*"lease":"([^"]*)".*/\1/' "$1"; }
until_sql() {  # until_sql SQL VALUE: waits up to 10 s for SQL to read VALUE
    for _ in $(seq 100); do [ "$(sql "$1")" = "$2" ] && return; sleep 0.1; done
    fail "waited for $1 = $2: $(sql "$1")"
}
rm -f results.fifo && mkfifo results.fifo
open_done() {  # open_done NAME: a frontier-done in partitions reading fd 3, NAME.out
    FRONTIER_PG_PARTITIONS=1 frontier-done < results.fifo > "$1.out" 2> "$1.err" &
    done_pid=$!
    exec 3> results.fifo
}
close_done() { exec 3>&-; wait "$done_pid" || fail "frontier-done: $(cat "$1.err")"; }
# answer URL LEASES: URL's result, with a link to a.example/nav, once applied;
# the seconds that took in $t.
answer() {
    local t0
    t0=$(date +%s.%N)
    grep "\"url\":\"$1\"" "$2" > one.jsonl || fail "$1 not leased: $(cat "$2")"
    echo "{\"url\":\"$1\",\"lease\":\"$(lease_of one.jsonl)\",\"status\":200,\"links\":[\"http://a.example/nav\"]}" >&3
    until_sql "SELECT state FROM urls WHERE url = '$1'" 2
    t=$(elapsed "$t0")
}
open_done done5
answer http://b.example/1 second.jsonl
hold "pg_advisory_xact_lock_shared($writers)" 4
answer http://a.example/2 third.jsonl
close_done done5
wait "$holder"
awk -v t="$t" 'BEGIN { exit !(t < 2.5) }' || fail "a result with a known link waited ${t} s for the shared writers' lock"
[ "$(sql "SELECT count(*) FROM urls WHERE url LIKE 'http://a.example/nav%'")" = 1 ] || fail "the link was added twice"
grep -q '"links_added":1' done5.out || fail "the first result did not add its link: $(cat done5.out)"

# 6. The settings moved after the process learnt a link: the batch, begun
#    in partitions, finds that once its transaction reads them, and runs
#    again under the writers' lock (it waits for the shared holder).
printf 'http://c.example/1\nhttp://c.example/2\n' | frontier-add -q || fail "add c.example"
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 10 --per-queue 2 > sixth.jsonl || fail "sixth lease"
open_done done6
answer http://c.example/1 sixth.jsonl
frontier-config scope.max-depth 50 >/dev/null || fail "config"
hold "pg_advisory_xact_lock_shared($writers)" 3
answer http://c.example/2 sixth.jsonl
close_done done6
wait "$holder"
awk -v t="$t" 'BEGIN { exit !(t >= 1) }' || fail "the batch after a settings change did not wait for the writers' lock (${t} s)"
[ "$(grep -c '"result":"done"' done6.out)" = 2 ] || fail "results after a settings change: $(cat done6.out)"

# 7. Results whose links are new run in partitions too: two frontier-done
#    at once, beside the shared writers' lock, each with the same links (to
#    a host not in the frontier, and to one that is): each URL stored once,
#    in one queue, the queues' totals right.
printf 'http://d.example/1\nhttp://d.example/2\n' | frontier-add -q || fail "add d.example"
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 10 --per-queue 2 > seventh.jsonl || fail "seventh lease"
# result URL LEASES LINK...: URL's result line, with these links. Runs
# beside other result calls: no file of its own.
result() {
    local url=$1 leases=$2 links="" lease
    shift 2
    for l in "$@"; do links+="${links:+,}\"$l\""; done
    lease=$(grep "\"url\":\"$url\"" "$leases" | lease_of /dev/stdin)
    [ -n "$lease" ] || fail "$url not leased: $(cat "$leases")"
    echo "{\"url\":\"$url\",\"lease\":\"$lease\",\"status\":200,\"links\":[$links]}"
}
hold "pg_advisory_xact_lock_shared($writers)" 4
t0=$(date +%s.%N)
pids=()
for i in 1 2; do
    result "http://d.example/$i" seventh.jsonl http://www.d.example/new http://b.example/new |
        FRONTIER_PG_PARTITIONS=1 frontier-done > "done7$i.out" 2> "done7$i.err" &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "frontier-done beside another: $(cat done7*.err)"; done
t=$(elapsed "$t0")
wait "$holder"
awk -v t="$t" 'BEGIN { exit !(t < 2.5) }' || fail "results with new links waited ${t} s for the shared writers' lock"
for u in http://www.d.example/new http://b.example/new; do
    [ "$(sql "SELECT count(*) FROM urls WHERE url = '$u'")" = 1 ] || fail "$u stored $(sql "SELECT count(*) FROM urls WHERE url = '$u'") times"
done
[ "$(cat done71.out done72.out | grep -o '"links_added":[0-9]*' | sort | tr '\n' ' ')" = '"links_added":0 "links_added":2 ' ] ||
    fail "links added: $(cat done71.out done72.out)"
[ "$(sql "SELECT queued || ' ' || enqueued FROM queues WHERE key = 'www.d.example'")" = "1 1" ] ||
    fail "www.d.example's queue: $(sql "SELECT queued, enqueued FROM queues WHERE key = 'www.d.example'")"

# 8. A queue of a batch's links made by another writer while the batch
#    waited for its partitions (after its lock's snapshot): the batch finds
#    that queue outside its partitions and locks its partition, and goes
#    on beside the shared writers' lock; with that partition held by
#    someone else, it runs again under the writers' lock (it waits for the
#    shared holder). Either way its link goes to that queue.
# late_link N BUSY: the scenario on g<N>.example and h<N>.example, the new
# queue www.g<N>.example's partition held for 4 s once made when BUSY is 1;
# the late batch's seconds in $t, the other's in $tb.
late_link() {
    local n=$1 busy=$2 g=g$1.example h=h$1.example qg qn shared late busyp=""
    printf 'http://%s/1\nhttp://%s/1\n' "$g" "$h" | frontier-add -q || fail "add $g, $h"
    FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 10 > "eighth$n.jsonl" || fail "lease $g, $h"
    qg=$(sql "SELECT id FROM queues WHERE key = '$g'")
    hold "pg_advisory_xact_lock_shared($writers)" 6
    shared=$holder
    t0=$(date +%s.%N)
    hold "pg_advisory_xact_lock($parts, $((qg % 1024)))" 3
    result "http://$g/1" "eighth$n.jsonl" "http://www.$g/1" |
        FRONTIER_PG_PARTITIONS=1 frontier-done > "done8a$n.out" 2> "done8a$n.err" &
    late=$!
    sleep 0.5
    result "http://$h/1" "eighth$n.jsonl" "http://www.$g/2" |
        FRONTIER_PG_PARTITIONS=1 frontier-done > "done8b$n.out" 2> "done8b$n.err" || fail "done beside: $(cat "done8b$n.err")"
    tb=$(elapsed "$t0")
    if [ "$busy" = 1 ]; then
        qn=$(sql "SELECT id FROM queues WHERE key = 'www.$g'")
        local blocker=$holder
        hold "pg_advisory_xact_lock($parts, $((qn % 1024)))" 4
        busyp=$holder holder=$blocker
    fi
    wait "$late" || fail "the late batch: $(cat "done8a$n.err")"
    t=$(elapsed "$t0")
    wait "$holder" "$shared" $busyp
    awk -v t="$tb" 'BEGIN { exit !(t < 2) }' || fail "the batch that made www.$g waited (${tb} s)"
    [ "$(sql "SELECT count(*) FROM urls u JOIN queues q ON q.id = u.queue_id WHERE q.key = 'www.$g'")" = 2 ] ||
        fail "www.$g's URLs: $(sql "SELECT url, queue_id FROM urls WHERE url LIKE 'http://www.$g/%'")"
}
late_link 1 0
awk -v t="$t" 'BEGIN { exit !(t >= 2.5 && t < 5) }' || fail "the batch whose queue was made meanwhile did not go on in partitions (${t} s)"
late_link 2 1
awk -v t="$t" 'BEGIN { exit !(t >= 5.5) }' || fail "the batch whose queue was made in a held partition did not run again under the writers' lock (${t} s)"

# 9. A robots.txt result (no sitemap named) runs in partitions too.
frontier-config robots.enabled true >/dev/null || fail "config"
echo http://r.example/1 | frontier-add -q || fail "add r.example"
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 10 > ninth.jsonl || fail "ninth lease"
grep -q 'r.example/robots.txt' ninth.jsonl || fail "no robots.txt lease: $(cat ninth.jsonl)"
robots_lease=$(grep 'r.example/robots.txt' ninth.jsonl | lease_of /dev/stdin)
hold "pg_advisory_xact_lock_shared($writers)" 4
t0=$(date +%s.%N)
echo "{\"url\":\"http://r.example/robots.txt\",\"lease\":\"$robots_lease\",\"robots\":true,\"status\":200,\"body\":\"User-agent: *\\nDisallow: /private\"}" |
    FRONTIER_PG_PARTITIONS=1 frontier-done > done9.out 2> done9.err || fail "robots result: $(cat done9.err)"
t=$(elapsed "$t0")
wait "$holder"
awk -v t="$t" 'BEGIN { exit !(t < 2.5) }' || fail "a robots.txt result waited ${t} s for the shared writers' lock"
grep -q '"result":"done"' done9.out || fail "robots result: $(cat done9.out)"
[ "$(sql "SELECT robots_rules IS NOT NULL FROM hosts WHERE name = 'http://r.example'")" = t ] ||
    fail "r.example's rules not stored: $(sql "SELECT robots_state, robots_rules FROM hosts WHERE name = 'http://r.example'")"

# 10. A lease with nothing to lock waits: no work due, and the one ready
#     queue's partition held elsewhere: the lease waits for it, then leases
#     from it (it does not return empty at once).
frontier-config robots.enabled false >/dev/null || fail "config"
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 1000 --per-queue 1000 > drained.jsonl || fail "the lease that drains the ready queues"
echo http://z.example/1 | frontier-add -q || fail "add z.example"
[ "$(sql "SELECT string_agg(key, ' ') FROM queues WHERE sched <> 2")" = z.example ] ||
    fail "queues ready or sleeping besides z.example: $(sql "SELECT key, sched FROM queues WHERE sched <> 2")"
[ "$(sql "SELECT count(*) FROM urls WHERE due_at IS NOT NULL")" = 0 ] || fail "work due: $(sql "SELECT url FROM urls WHERE due_at IS NOT NULL")"
qz=$(sql "SELECT id FROM queues WHERE key = 'z.example'")
lease_beside "pg_advisory_xact_lock($parts, $((qz % 1024)))" tenth.jsonl -n 1
wait "$holder"
awk -v t="$t" 'BEGIN { exit !(t >= 2) }' || fail "a lease with nothing to lock did not wait for the ready queue's partition (${t} s)"
[ "$(grep -c . tenth.jsonl)" = 1 ] && grep -q '"url":"http://z.example/1"' tenth.jsonl ||
    fail "the lease that waited took: $(cat tenth.jsonl)"

# 11. A full batch (256 results read at once, from a file) runs under the
#     writers' lock: it waits for the shared holder, then is applied. A
#     file of 255 results (batches of fewer than 256) runs in partitions
#     beside it.
for i in $(seq 511); do echo "http://batch$i.example/1"; done | frontier-add -q || fail "add batch<N>.example"
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 511 > eleventh.jsonl || fail "eleventh lease"
[ "$(grep -c '"url":"http://batch' eleventh.jsonl)" = 511 ] || fail "leased $(grep -c '"url":"http://batch' eleventh.jsonl) of 511"
sed -E 's/^\{"url":"([^"]*)".*"lease":"([^"]*)".*/{"url":"\1","lease":"\2","status":200}/' eleventh.jsonl > results11.jsonl
head -n 256 results11.jsonl > full.jsonl
tail -n +257 results11.jsonl > short.jsonl
[ "$(grep -c . full.jsonl) $(grep -c . short.jsonl)" = "256 255" ] || fail "results: $(wc -l full.jsonl short.jsonl)"
# done_in FILE SECONDS: FILE's results to frontier-done in partitions
# while the writers' lock is held shared for SECONDS; its seconds in $t;
# then FILE's URLs done.
done_in() {
    hold "pg_advisory_xact_lock_shared($writers)" "$2"
    t0=$(date +%s.%N)
    FRONTIER_PG_PARTITIONS=1 frontier-done -q < "$1" 2> "$1.err" || fail "frontier-done < $1: $(cat "$1.err")"
    t=$(elapsed "$t0")
    wait "$holder"
    local urls
    urls=$(sed -E 's/^\{"url":"([^"]*)".*/\1/' "$1" | paste -sd,)
    [ "$(sql "SELECT count(*) FROM urls WHERE state = 2 AND url = ANY(string_to_array('$urls', ','))")" = "$(grep -c . "$1")" ] ||
        fail "the results of $1 were not all applied: $(sql "SELECT state, count(*) FROM urls WHERE url = ANY(string_to_array('$urls', ',')) GROUP BY state")"
}
done_in full.jsonl 4
awk -v t="$t" 'BEGIN { exit !(t >= 2) }' || fail "a full batch did not wait for the writers' lock (${t} s)"
done_in short.jsonl 6
awk -v t="$t" 'BEGIN { exit !(t < 3.5) }' || fail "a batch of 255 results waited ${t} s for the shared writers' lock"

# 12. A bulk lease (-n 256 or more) runs under the writers' lock too: it
#     waits for the shared holder, then leases.
echo http://bulk.example/1 | frontier-add -q || fail "add bulk.example"
lease_beside "pg_advisory_xact_lock_shared($writers)" twelfth.jsonl -n 256
wait "$holder"
awk -v t="$t" 'BEGIN { exit !(t >= 2) }' || fail "a bulk lease did not wait for the writers' lock (${t} s)"
grep -q '"url":"http://bulk.example/1"' twelfth.jsonl || fail "the bulk lease took: $(cat twelfth.jsonl)"

# 13. A batch full by its bytes (1 MiB read at once, a string counted as
#     its text and its value: four results with a 150 kB string) runs under
#     the writers' lock as a full batch of lines does; three of them (the
#     whole input, 900 kB so counted) run in partitions beside it.
for i in 1 2 3 4 5 6 7; do echo "http://bytes$i.example/1"; done | frontier-add -q || fail "add bytes<N>.example"
FRONTIER_PG_PARTITIONS=1 frontier-lease -q -n 7 > thirteenth.jsonl || fail "thirteenth lease"
[ "$(grep -c '"url":"http://bytes' thirteenth.jsonl)" = 7 ] || fail "leased $(cat thirteenth.jsonl)"
pad=$(head -c 150000 /dev/zero | tr '\0' x)
sed -E 's/^\{"url":"([^"]*)".*"lease":"([^"]*)".*/{"url":"\1","lease":"\2","status":200,"error":"PAD"}/' thirteenth.jsonl |
    while IFS= read -r l; do printf '%s\n' "${l/PAD/$pad}"; done > results13.jsonl
head -n 4 results13.jsonl > bytes_full.jsonl
tail -n 3 results13.jsonl > bytes_short.jsonl
done_in bytes_full.jsonl 4
awk -v t="$t" 'BEGIN { exit !(t >= 2) }' || fail "a batch full by its bytes did not wait for the writers' lock (${t} s)"
done_in bytes_short.jsonl 6
awk -v t="$t" 'BEGIN { exit !(t < 3.5) }' || fail "three results of 150 kB waited ${t} s for the shared writers' lock"

frontier-report --check >/dev/null || fail "the frontier's checks fail: $(frontier-report --check 2>&1)"
echo "ok: a lease in partitions beside a shared writers' lock, a held partition skipped, its result waited for;" \
    "results with known and new links in partitions, under the writers' lock once the settings moved" \
    "or a link's queue was made meanwhile; a robots.txt result in partitions;" \
    "a lease that waited for the held partition of the one ready queue; a full batch under the writers' lock, 255 results beside it; a bulk lease under it;" \
    "a batch full by its bytes under it, a shorter one beside it"
