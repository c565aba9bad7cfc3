# A 429 or 503 with Retry-After is retried after the time it names, held to
# retry.max-retry-after, and its queue sleeps until then (frontier(7),
# RETRIES): min-delay 0, so only the Retry-After holds the queue.
T=$FRONTIER_NOW
frontier-config -f f.db robots.enabled false
frontier-config -f f.db budget.hold-queues false
frontier-config -f f.db politeness.min-delay 0
frontier-config -f f.db retry.max-retry-after 600
printf '%s\n' http://a.example/1 http://a.example/2 http://b.example/1 | frontier-add -q -f f.db
frontier-lease -q -f f.db -n 10 | jq -c '{url, lease}'
printf '%s\n' '{"lease":"1-1","status":429,"retry_after":3,"duration_ms":10}' \
  '{"lease":"3-1","status":503,"retry_after":7200,"duration_ms":10}' | frontier-done -f f.db | jq -c '{url, result, next_visit}'
echo "at +2: queue a.example paused, b.example too"
FRONTIER_NOW=$((T+2)) frontier-lease -f f.db -n 10 | jq -c '{url, lease}'; echo "exit=${PIPESTATUS[0]}"
echo "at +4: a.example/1 again"
FRONTIER_NOW=$((T+4)) frontier-lease -f f.db -n 10 | jq -c '{url, lease}'; echo "exit=${PIPESTATUS[0]}"
echo "at +599, then +601: b.example/1 after the capped 600 s"
FRONTIER_NOW=$((T+599)) frontier-lease -f f.db -n 10 | jq -c '{url, lease}'; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+601)) frontier-lease -f f.db -n 10 | jq -c '{url, lease}'; echo "exit=${PIPESTATUS[0]}"
frontier-config -f f.db retry.max-retry-after -1; echo "exit=$?"
