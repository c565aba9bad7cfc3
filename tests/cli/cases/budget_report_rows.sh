# The frontier-budget(1) round trip: frontier-report --queues --json rows, edited, fed
# to frontier-budget --apply. Keys that are not edits (state, size, spend,
# session_budget, ...) are ignored; the edited total_budget brings a retired
# queue back, the other retired queue stays put (its row was not fed back).
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --total-budget 1
{ urls a.example 3; urls b.example 3; } | frontier-add -q -f f.db
lease_n 3
frontier-report -f f.db --queues --json --state retired | grep '"queue":"a.example"' |
    sed 's/"total_budget":1,/"total_budget":3,/' | frontier-budget -f f.db --apply
echo "exit=$?"
lease_n 3
queues
