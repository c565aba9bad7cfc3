# Capped queues with pause at finish (seed: "queue-total-budget"): a queue
# whose total spend reaches its budget is retired; it keeps its URLs and
# still receives new ones, which do not count as queued, so frontier-lease
# exits 4 (pause at finish) when only retired queues hold URLs. Raising the
# budget mid-crawl brings the queue back; any settings change moves retired
# queues to the inactive FIFO, and one still over budget is retired again at
# its turn, before any URL is leased.
. "$CASES/budget_lib.bash"
setup
frontier-budget -f f.db --total-budget 3
{ urls a.example 5; urls b.example 2; } | frontier-add -q -f f.db
lease_n 6
cat lease.err
queues
echo "-- a retired queue still receives URLs; they are held, not queued"
echo http://a.example/6 | frontier-add -f f.db 2>/dev/null
lease
cat lease.err
echo "-- any settings change (here frontier-config) moves retired queues to the inactive FIFO"
frontier-config -f f.db politeness.max-delay 20
queues
echo "-- ... and a queue still over budget is retired again at its turn, before leasing"
lease
queues
echo "-- raising the queue's budget brings it back for 2 more"
frontier-budget -f f.db --queue a.example --total-budget 5
lease_n 3
echo "-- a lower global budget does not beat the queue's override; removing the cap does"
frontier-budget -f f.db --total-budget 1
lease
frontier-budget -f f.db --queue a.example --total-budget -1
lease_n 2
queues
