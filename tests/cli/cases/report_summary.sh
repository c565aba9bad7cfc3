# frontier-report text summary and --json: queue states (Heritrix line), URL
# counts (retired queues' URLs apart), results by class, depth, heatmap,
# longest / most expensive queues; read-only open and usage errors.
source "$CASES/report_setup.inc"
frontier-report -f f.db; echo "exit=$?"
echo "--- json"
frontier-report -f f.db --json; echo "exit=$?"
echo "--- the queue sums agree with the total"
frontier-report -f f.db --json | jq -c '.queues | [.total, .active + .inactive + .retired + .exhausted, .active - .in_process - .ready - .snoozed]'
echo "--- --top 1"
frontier-report -f f.db --top 1 | tail -n 7
echo "--- later: b.example's Retry-After block is over"
FRONTIER_NOW=$((T+700)) frontier-report -f f.db | sed -n 2p
echo "--- errors"
frontier-report -f missing.db; echo "exit=$?"
ls missing.db 2>&1 | sed 's/^ls: //'
frontier-report -f f.db --state ready; echo "exit=$?"
frontier-report -f f.db --queues --state sleeping; echo "exit=$?"
frontier-report -f f.db --queues --sort bogus; echo "exit=$?"
frontier-report -f f.db --watch 1 --json; echo "exit=$?"
