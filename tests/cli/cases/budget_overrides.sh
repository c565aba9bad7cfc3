# Overrides by domain (and its subdomains) and by queue: the most specific
# wins, field by field (a queue override of replenish keeps its domain's
# total). Shown by the session balance right after activation (one URL
# leased) and by which queues retire.
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --replenish 100
frontier-budget -f f.db --domain example.org --replenish 50 --total-budget 2 --create
frontier-budget -f f.db --domain www.example.org --replenish 30 --create
frontier-budget -f f.db --queue news.example.org --replenish 20 --create
frontier-config -f f.db --domain example.net budget.replenish 40
frontier-budget -f f.db
frontier-budget -f f.db --domain example.org
{ urls www.example.org 3; urls news.example.org 3; urls shop.example.org 3; urls other.test 3; urls cdn.example.net 3; } |
    frontier-add -q -f f.db
lease 5
queues
echo "-- example.org's total of 2 retires all three of its queues; the others go on"
lease_n 3 5
queues
echo "-- --domain and --queue together, or a scoped global setting, are usage errors"
frontier-budget -f f.db --domain example.org --queue www.example.org --replenish 1; echo "exit=$?"
frontier-budget -f f.db --domain example.org --cost-policy wag; echo "exit=$?"
frontier-budget -f f.db --cost-policy cheap; echo "exit=$?"
frontier-budget -f f.db --replenish lots; echo "exit=$?"
# Refused, nothing written: a queue or domain the frontier does not know
# (a typo, most likely) without --create; a negative replenish.
frontier-budget -f f.db --queue nosuch.example --total-budget 5; echo "exit=$?"
frontier-budget -f f.db --domain nosuch.example --replenish 5; echo "exit=$?"
frontier-budget -f f.db --replenish -5; echo "exit=$?"
frontier-budget -f f.db | jq -c '[.overrides[] | (.queue // .domain)]'
