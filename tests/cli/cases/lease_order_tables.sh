# SQLite keeps the lease order in url_next and url_next_new (frontier(7),
# FILE FORMAT): a URL that becomes queued and due enters url_next_new; the
# entries move to url_next, in key order, beside the fingerprints once a
# transaction leaves FRONTIER_FP_BUFFER of them (a chunk after each commit,
# or as many as the commit added); a lease takes a queue's
# next URL from both, merged in key order; a leased URL leaves, one whose
# lease expired comes back, one given a new priority keeps one entry with
# its new rank; --check finds each entry once (and fails when one is
# missing or one is too many); an export leaves both out and the import
# builds url_next.
order() { sqlite3 "$1" "SELECT (SELECT count(*) FROM url_next) || ' in url_next, ' || (SELECT count(*) FROM url_next_new) || ' in url_next_new'"; }
export FRONTIER_FP_BUFFER=4
frontier-config -f f.db robots.enabled false
frontier-config -f f.db lease.ttl 60
frontier-config -f f.db politeness.max-in-flight 10
frontier-config -f f.db budget.hold-queues false
printf '{"url":"http://a.example/%s","priority":%s}\n' 1 5 2 3 | frontier-add -q -f f.db
order f.db
printf '{"url":"http://a.example/%s","priority":%s}\n' 3 4 4 1 | frontier-add -q -f f.db
order f.db
# Two more, after the move: the best (priority 2) waits in url_next_new
# between the moved ones (1, then 3) in the lease order.
printf '{"url":"http://a.example/%s","priority":%s}\n' 5 2 6 9 | frontier-add -q -f f.db
order f.db
frontier-lease -f f.db -n 3 --per-queue 3 | jq -r .url
order f.db
frontier-report -f f.db --check | grep lease-order
frontier-export -q -f f.db | frontier-import -q -f g.db
order g.db
# The leases expire: their URLs come back to url_next_new, and the order
# is the same again; a new priority (a.example/6: 9 -> 0) moves its entry.
echo '{"url":"http://a.example/6","priority":0}' | frontier-add -f f.db | jq -r '.url + " " + .status'
FRONTIER_NOW=1800000100 frontier-lease -f f.db -n 10 --per-queue 10 | jq -r .url | tr '\n' ' '; echo
order f.db
FRONTIER_NOW=1800000100 frontier-report -f f.db --check | grep lease-order
# An entry missing (a.example/3), then one too many: --check fails.
sqlite3 g.db "DELETE FROM url_next WHERE id = 3"
frontier-report -f g.db --check | grep -A3 lease-order; echo "exit=${PIPESTATUS[0]}"
sqlite3 g.db "INSERT INTO url_next SELECT queue_id, rank, tier, tier_key, cost, id, recrawl, cls FROM urls WHERE id = 3"
sqlite3 g.db "INSERT INTO url_next VALUES (1, 0, 0, 0, 1, 99, 0, 0)"
frontier-report -f g.db --check | grep -A2 lease-order; echo "exit=${PIPESTATUS[0]}"
# Since version 9 the tools, not a trigger, move the entry of a URL they
# change: a URL robots.txt disallows leaves when a lease finds it; a
# result that schedules a retry leaves it out until the retry comes due
# (then it enters, and leaves again when leased); a lease that expires
# puts its URL back, and a late result for it takes the entry out again.
# --check passes after each step.
export FRONTIER_FP_BUFFER=3
step() { echo "-- $1: $(order h.db); $(FRONTIER_NOW=$2 frontier-report -f h.db --check | grep lease-order)"; }
frontier-config -f h.db lease.ttl 60
frontier-config -f h.db retry.delay 120
frontier-config -f h.db politeness.min-delay 0
frontier-config -f h.db politeness.delay-factor 0
frontier-config -f h.db politeness.max-in-flight 10
frontier-config -f h.db budget.hold-queues false
printf '{"url":"http://c.example/%s"}\n' x y z | frontier-add -q -f h.db
frontier-lease -q -f h.db -n 10 --per-queue 10 | jq -c '{lease, status: 200, body: "User-agent: *\nDisallow: /x\n"}' |
    frontier-done -q -f h.db
step "robots.txt stored" 1800000000
frontier-lease -f h.db -n 10 --per-queue 10 > l.jsonl
jq -r .url l.jsonl | tr '\n' ' '; echo
step "x blocked, y and z leased" 1800000000
jq -c 'select(.url | endswith("/y")) | {lease, status: 503}' l.jsonl | frontier-done -f h.db | jq -r '.url + " " + .result'
step "y to retry later" 1800000000
jq -c 'select(.url | endswith("/z")) | {lease, status: 200}' l.jsonl | FRONTIER_NOW=1800000100 frontier-done -f h.db |
    jq -r '.url + " " + .result'
step "z's lease expired, then its late result" 1800000100
FRONTIER_NOW=1800000200 frontier-lease -f h.db -n 10 --per-queue 10 | jq -r .url
step "y due again, and leased" 1800000200
sqlite3 h.db "SELECT url, state FROM urls ORDER BY id" | tr '\n' ' '; echo
# A long add in commits larger than a move's transaction (65,536 entries):
# after each commit the lease order moves as many entries as the
# fingerprints do, or more, so url_next_new never holds more than
# url_fps_new (frontier-add's commits also end after a second of work, so
# the counts themselves depend on the machine's speed). When the lease
# order moved only while no fingerprints waited, it fell behind in such an
# add: ten times as many were left as fingerprints, at 10M URLs most.
# With commits of 20,000 the moves of the fingerprints end a pass at the
# buffer's end (and move the rest above their cursor) where those of the
# lease order do not: when the lease order moved only its budget, it was
# left 4,464 entries behind an empty url_fps_new.
kept_up() {
    sqlite3 "$1" "SELECT ((SELECT count(*) FROM url_next) + (SELECT count(*) FROM url_next_new)) || ' entries'"
    sqlite3 "$1" "SELECT CASE WHEN (SELECT count(*) FROM url_next_new) <= (SELECT count(*) FROM url_fps_new)
        THEN 'url_next_new kept up' ELSE 'url_next_new fell behind: ' || (SELECT count(*) FROM url_next_new) ||
        ' entries, ' || (SELECT count(*) FROM url_fps_new) || ' fingerprints' END"
}
for batch in 70000 20000; do
    seq 350000 | sed 's|^|http://a.example/|' | FRONTIER_FP_BUFFER=100000 frontier-add -q --batch $batch -f long$batch.db
    kept_up long$batch.db
done
