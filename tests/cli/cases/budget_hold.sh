# hold-queues (seed: "Configuration and Use", "Common Usage Scenarios").
# On (default): new queues start inactive and are activated, oldest first,
# only when the active queues cannot supply the leases asked for; with the
# zero cost policy that is classic site-first crawling. Off with zero cost:
# one big round robin. Turning it off affects queues created afterwards.
. "$CASES/budget_lib.bash"
echo "-- site-first: hold-queues on, cost-policy zero"
setup
frontier-budget -f f.db --cost-policy zero
{ urls a.example 3; urls b.example 3; } | frontier-add -q -f f.db
lease_n 7
queues
echo "-- activation only as needed: -n 2 with a at its in-flight cap activates b, not c"
F=need.db
setup
{ urls a.example 3; urls b.example 3; urls c.example 3; } | frontier-add -q -f need.db
lease 2 -
queues
echo "-- snoozed queues (politeness) also make room for the next inactive one"
frontier-config -f need.db politeness.min-delay 30
frontier-done -q -f need.db <<<'{"lease":"1-1","status":200}'
frontier-done -q -f need.db <<<'{"lease":"4-1","status":200}'
lease 1 -
queues
echo "-- hold-queues off, zero cost: one big round robin"
F=rr.db
setup
frontier-budget -f rr.db --hold-queues off --cost-policy zero
{ urls a.example 2; urls b.example 2; urls c.example 2; } | frontier-add -q -f rr.db
queues
lease_n 6
echo "-- turned off mid-crawl: existing inactive queues keep their place, new ones start active"
F=mid.db
setup
{ urls a.example 2; urls b.example 2; } | frontier-add -q -f mid.db
frontier-budget -f mid.db --hold-queues off
urls c.example 2 | frontier-add -q -f mid.db
queues
lease_n 5
