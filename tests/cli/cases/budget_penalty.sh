# The error penalty (budget.error-penalty) is charged to a queue's total
# spend when frontier-done records a failed fetch (a success costs nothing
# more); a total budget reached that way retires the queue at the front of
# the ready queues, before it leases again.
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --error-penalty 5
frontier-budget -f f.db --queue a.example --total-budget 6 --create
{ urls a.example 4; urls b.example 2; } | frontier-add -q -f f.db
echo "-- a/1 fails: 1 + 5 reaches a's total of 6"
lease 1 404
queues
echo "-- a is ready, but retired before it leases; b takes its place"
lease 1 200
queues
lease_n 2
cat lease.err
