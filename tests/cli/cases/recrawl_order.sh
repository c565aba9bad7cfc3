# Due-revisit order (frontier(7), RECRAWL): the seed's tiers within a priority level,
# without and with the lister's last_modified; visit_now; a lister date newer
# than the last visit makes a waiting revisit due (after min-interval);
# together with politeness and budgets.
source "$CASES/recrawl_lib.bash"
echo "== without lister dates"
F=a.db; setup
add 0 '{"url":"http://a.example/n1","recrawl":true,"priority":5}' '{"url":"http://a.example/n2","recrawl":true,"priority":5}' \
      '{"url":"http://a.example/n3","recrawl":true,"priority":5}' '{"url":"http://a.example/n4","recrawl":true,"priority":5}' \
      '{"url":"http://a.example/once","priority":5}' '{"url":"http://a.example/urgent","recrawl":true,"priority":4}'
echo "-- tier 1 (never visited) in discovery order, behind a lower priority number and beside a one-off URL"
lease 0
echo "-- visited at different times"
answer 0.01 'select(.url|test("n3|urgent|once")) | {lease, status: 200, content_hash: "v1"}'
answer 0.02 'select(.url|test("n1")) | {lease, status: 200, content_hash: "v1"}'
answer 0.03 'select(.url|test("n4")) | {lease, status: 200, content_hash: "v1"}'
answer 0.04 'select(.url|test("n2")) | {lease, status: 200, content_hash: "v1"}'
lease 0.5
echo "-- day 1.5: a new URL (tier 1), n2 asked for with visit_now (first in tier 2), then tier 2 by last visit"
add 1.5 '{"url":"http://a.example/n5","recrawl":true,"priority":5}' '{"url":"http://a.example/n2","visit_now":true}' \
        '{"url":"http://a.example/n1"}'
lease 1.5
answer 1.5 '{lease, status: 200, content_hash: (if (.url|test("n3")) then "v2" else "v1" end)}'
echo "-- day 4.2: visited twice -> tier 3 by next-visit target (n5, visited once, is tier 2)"
lease 4.2
urls | sort -k1,1

echo "== with lister dates"
F=b.db; setup
frontier-config -f b.db recrawl.interval 259200
add 0 '{"url":"http://b.example/L1","recrawl":true,"last_modified":"2026-12-01T00:00:00Z"}' \
      '{"url":"http://b.example/L2","recrawl":true,"last_modified":"2026-10-01T00:00:00Z"}' \
      '{"url":"http://b.example/L3","recrawl":true,"last_modified":1793491200}'
echo "-- tier 1: oldest last_modified first"
lease 0
answer 0.1
echo "-- day 0.5: the lister sees L1 and L3 changed after the visit (lags 0.3 and 0.1 days), L2 unchanged"
add 0.5 "{\"url\":\"http://b.example/L1\",\"recrawl\":true,\"last_modified\":$(at 0.4)}" \
        "{\"url\":\"http://b.example/L3\",\"recrawl\":true,\"last_modified\":$(at 0.2)}" \
        '{"url":"http://b.example/L2","recrawl":true,"last_modified":"2026-10-01T00:00:00Z"}'
echo "-- not before recrawl.min-interval (1 day) after the visit"
lease 0.6
echo "-- then tier 2, largest lag first; L2 waits for its interval (3 days)"
lease 1.2
answer 1.2 '{lease, status: 200, content_hash: (if (.url|test("L1")) then "v2" else "same" end)}'
echo "-- day 5: all by next-visit target (L2: last_modified older than its visit)"
lease 5
urls | sort -k1,1

echo "== with politeness and budgets"
F=c.db
frontier-config -f c.db robots.enabled false
frontier-config -f c.db budget.hold-queues false
frontier-budget -f c.db --queue d.example --total-budget 2 --create
add 0 '{"url":"http://c.example/1","recrawl":true}' '{"url":"http://c.example/2","recrawl":true}' \
      '{"url":"http://d.example/1","recrawl":true}'
echo "-- one lease per queue at a time (politeness.max-in-flight 1), the next after min-delay (3 s)"
lease 0
answer 0
lease 0
lease 0.0001
answer 0.0001
echo "-- day 2: both of c.example are due; one at a time, oldest visit first; d.example revisits"
lease 2
answer 2
echo "-- d.example has spent its total budget (2): its next revisit waits in the retired queue"
lease 4.2
answer 4.2
lease 4.2001
frontier-report -f c.db --queues --json | jq -c '{queue, state, size, total_spend, total_budget}'
frontier-budget -f c.db --queue d.example --total-budget 3
lease 4.2001
