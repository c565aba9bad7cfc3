# politeness.lease-ahead: leases beyond max-in-flight only with the setting, only while the queue has no delay
# (min-delay and delay-factor 0, no Crawl-delay) or a constant one (delay-factor 0: then at most max-in-flight
# more, each carrying "delay"); frontier-done's schedule agrees with the lease's cap.
T=1800000000
frontier-config -f f.db budget.hold-queues false
frontier-config -f f.db robots.enabled false
frontier-config -f f.db politeness.max-in-flight 2
for i in 1 2 3 4 5 6 7; do echo "http://a.example/$i"; done | frontier-add -q -f f.db
echo "# lease-ahead 0: max-in-flight leases"
frontier-lease -f f.db -n 10 --per-queue 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
echo "# lease-ahead 2 with the default delays: no more"
frontier-config -f f.db politeness.lease-ahead 2
frontier-lease -f f.db -n 10 --per-queue 10; echo "exit=$?"
echo "# no delay: two ahead"
frontier-config -f f.db politeness.min-delay 0
frontier-config -f f.db politeness.delay-factor 0
frontier-lease -f f.db -n 10 --per-queue 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
frontier-lease -f f.db -n 10 --per-queue 10; echo "exit=$?"
echo "# one result frees one slot: frontier-done puts the queue back in the ready index"
echo '{"lease":"1-1","status":200,"duration_ms":100}' | frontier-done -q -f f.db
sqlite3 f.db "select in_flight, sched from queues"
frontier-lease -f f.db -n 10 --per-queue 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
sqlite3 f.db "select in_flight, sched from queues"
echo "# a per-domain delay-factor turns it off there"
frontier-config -f f.db --domain a.example politeness.delay-factor 1
printf '%s\n' '{"lease":"2-1","status":200}' '{"lease":"3-1","status":200}' | frontier-done -q -f f.db
FRONTIER_NOW=$((T+5)) frontier-lease -f f.db -n 10 --per-queue 10; echo "exit=$?"
echo "# a constant delay (min-delay 1, delay-factor 0): max-in-flight more, after the wake time, with their delay"
frontier-config -f f.db --domain a.example politeness.delay-factor 0
frontier-config -f f.db --domain a.example politeness.min-delay 1
printf '%s\n' '{"lease":"4-1","status":200}' '{"lease":"5-1","status":200}' | FRONTIER_NOW=$((T+5)) frontier-done -q -f f.db
FRONTIER_NOW=$((T+5)) frontier-lease -f f.db -n 10 --per-queue 10; echo "exit=$?"
FRONTIER_NOW=$((T+6)) frontier-lease -f f.db -n 10 --per-queue 10 | jq -c '{url, delay}'; echo "exit=${PIPESTATUS[0]}"
echo "# a Crawl-delay turns it off for its host"
frontier-config -f g.db budget.hold-queues false
frontier-config -f g.db politeness.min-delay 0
frontier-config -f g.db politeness.delay-factor 0
frontier-config -f g.db politeness.lease-ahead 4
for h in a b; do for i in 1 2 3 4; do echo "http://$h.example/$i"; done; done | frontier-add -q -f g.db
frontier-lease -f g.db -n 10 --per-queue 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
printf '%s\n' '{"lease":"r1-1","status":200,"body":"User-agent: *\nCrawl-delay: 2\n"}' \
  '{"lease":"r2-1","status":404}' | frontier-done -q -f g.db
FRONTIER_NOW=$((T+2)) frontier-lease -f g.db -n 10 --per-queue 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
sqlite3 g.db "select key, in_flight, sched from queues order by id"
