# Retiring by hand: --retire KEY puts a queue aside whatever its budget; it
# stays retired through settings changes until --unretire KEY (or --all),
# which moves it to the back of the inactive FIFO.
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --replenish 2
{ urls a.example 3; urls b.example 3; urls c.example 3; } | frontier-add -q -f f.db
frontier-budget -f f.db --retire b.example; echo "exit=$?"
frontier-budget -f f.db --retire nosuch.example; echo "exit=$?"
lease_n 3
echo "-- a settings change leaves it retired"
frontier-budget -f f.db --replenish 3
frontier-config -f f.db politeness.max-delay 20
queues
lease_n 4
cat lease.err
echo "-- --unretire brings it back; a key that is not retired is an error"
frontier-budget -f f.db --unretire b.example; echo "exit=$?"
frontier-budget -f f.db --unretire b.example; echo "exit=$?"
queues
lease_n 4
echo "-- --unretire --all"
frontier-budget -f f.db --retire a.example --retire c.example
urls a.example 4 | sed 's/$/?more/' | frontier-add -q -f f.db
urls c.example 2 | sed 's/$/?more/' | frontier-add -q -f f.db
queues
frontier-budget -f f.db --unretire; echo "exit=$?"
frontier-budget -f f.db --unretire c.example --all; echo "exit=$?"
frontier-budget -f f.db --all; echo "exit=$?"
frontier-budget -f f.db --unretire --all; echo "exit=$?"
queues
lease_n 7
