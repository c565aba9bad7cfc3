# An effective replenish of 0 or less retires a queue at its turn (seed:
# "Mid-crawl Adjustments"), before it leases anything; an active queue set
# to 0 mid-crawl spends what is left of its balance, then retires, even when
# no other queue waits (it is not reactivated with a balance of 0).
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --replenish 2
frontier-budget -f f.db --domain example.org --replenish 0 --create
{ urls www.example.org 2; urls z.example 3; } | frontier-add -q -f f.db
lease_n 4
queues
echo "-- z.example, alone and active, set to 0 mid-crawl"
F=one.db
setup
frontier-budget -f one.db --replenish 2
urls z.example 5 | frontier-add -q -f one.db
lease
frontier-budget -f one.db --queue z.example --replenish 0 --create
lease_n 2
cat lease.err
queues
echo "-- a positive replenish brings it back"
frontier-budget -f one.db --queue z.example --replenish 1
lease_n 4
