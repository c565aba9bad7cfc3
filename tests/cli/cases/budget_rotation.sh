# Budgeted rotation (seed: "Common Usage Scenarios"): unit cost, replenish 3.
# A queue serves 3 URLs, then goes to the back of the inactive FIFO and the
# next inactive queue is activated; a lone queue is reactivated at once with
# a fresh balance; replenish 1 approximates a round robin.
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --replenish 3
{ urls a.example 5; urls b.example 5; urls c.example 5; } | frontier-add -q -f f.db
echo "-- new queues start inactive (hold-queues), in the FIFO in creation order"
queues
echo "-- a serves 3, then b, then c, then a again"
lease_n 4
queues
lease_n 12
cat lease.err

echo "-- a lone queue is reactivated at once with a fresh balance"
F=one.db
setup
frontier-budget -f one.db --replenish 2
urls solo.example 5 | frontier-add -q -f one.db
lease_n 2
queues
lease_n 4

echo "-- replenish 1: round robin"
F=rr.db
setup
frontier-budget -f rr.db --replenish 1
{ urls a.example 2; urls b.example 2; urls c.example 2; } | frontier-add -q -f rr.db
lease_n 7

echo "-- one call with --per-queue above 1: the rotation goes on within the call"
# (two leases in flight per queue allowed, or politeness alone would stop it)
F=rr2.db
setup
frontier-config -f rr2.db politeness.max-in-flight 2
frontier-budget -f rr2.db --replenish 1
{ urls a.example 2; urls b.example 2; urls c.example 2; } | frontier-add -q -f rr2.db
frontier-lease -f rr2.db -n 6 --per-queue 10 2>lease.err | sed -n 's|.*"url":"http://\([^"]*\)".*|\1|p' | tr '\n' ' '
echo "exit=${PIPESTATUS[0]}"
queues
