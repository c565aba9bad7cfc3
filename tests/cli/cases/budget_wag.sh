# The wag cost policy (seed: WagCostAssignmentPolicy): a query string costs
# 1 more, and 1 more again when the via differs only in its query. Costly
# URLs wait behind cheap ones within a queue, and queues dominated by costly
# URLs spend their balance (replenish 3) in fewer URLs, so rotate out sooner.
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --cost-policy wag --replenish 3
{
    echo http://a.example/list?page=2
    urls a.example 4
    echo http://q.example/s?q=1
    echo http://q.example/s?q=2
    echo http://q.example/s?q=3
    echo '{"url":"http://q.example/s?q=4","via":"http://q.example/s?q=3"}'
    echo http://q.example/s?q=5
} | frontier-add -f f.db 2>/dev/null | sed 's/.*"url":"\([^"]*\)".*"cost":\([0-9]*\).*/\1 cost=\2/'
echo "-- a: three cheap URLs first (list?page=2 waits); q: balance 3 lasts two URLs of cost 2"
lease_n 5
queues
echo "-- a: /4 (1) and list?page=2 (2) spend its 3; q: q=3, q=5, then the near-duplicate q=4 (3) last"
lease_n 5
queues
lease
