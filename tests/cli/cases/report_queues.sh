# frontier-report --queues: the text table and JSON-lines (every key), with
# --state, --sort and --limit; rows feed frontier-budget --apply.
source "$CASES/report_setup.inc"
frontier-report -f f.db --queues; echo "exit=$?"
echo "--- json"
frontier-report -f f.db --queues --json
echo "--- --state active --sort size"
frontier-report -f f.db --queues --json --state active --sort size | jq -c '[.queue, .state, .size]'
echo "--- --state retired,exhausted"
frontier-report -f f.db --queues --json --state retired,exhausted | jq -c '[.queue, .state, .retired_by_hand]'
echo "--- --state in-process / snoozed / inactive / ready"
for s in in-process snoozed inactive ready; do
  printf '%s: ' "$s"; frontier-report -f f.db --queues --json --state "$s" | jq -r .queue | tr '\n' ' '; echo
done
echo "--- --sort total_budget (computed) --limit 3"
frontier-report -f f.db --queues --json --sort total_budget --limit 3 | jq -c '[.queue, .total_budget]'
echo "--- --sort queue:desc --limit 2"
frontier-report -f f.db --queues --json --sort queue:desc --limit 2 | jq -c .queue
echo "--- --sort avg_latency_ms:asc (no latency first)"
frontier-report -f f.db --queues --json --sort avg_latency_ms:asc | jq -c '[.queue, .avg_latency_ms]'
echo "--- --sort error_count --limit 0"
frontier-report -f f.db --queues --json --sort error_count --limit 0; echo "exit=$?"
echo "--- text table with a filter"
frontier-report -f f.db --queues --state retired
echo "--- raise the retired queue's budget from its report row"
frontier-report -f f.db --queues --json --state retired | jq -c '.total_budget += 100' | frontier-budget -q -f f.db --apply
frontier-budget -q -f f.db --unretire e.example
frontier-report -f f.db --queues --json --sort queue --limit 5 | jq -c 'select(.queue == "e.example") | [.state, .total_budget]'
