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
