# Soft errors (host-down among them) retried after retry.delay up to retry.max; hard errors fail at once; 429 and Retry-After block the queue.
T=1800000000
frontier-config -f f.db robots.enabled false
frontier-config -f f.db retry.max 1
frontier-config -f f.db budget.hold-queues false
printf '%s\n' http://a.example/1 http://b.example/1 http://c.example/1 http://d.example/1 http://c.example/2 | frontier-add -q -f f.db
frontier-lease -f f.db -n 10 -q | cut -d, -f1,2
printf '%s\n' '{"lease":"1-1","status":503,"duration_ms":10}' \
  '{"lease":"2-1","status":404,"duration_ms":10}' \
  '{"lease":"3-1","status":429,"duration_ms":10}' \
  '{"lease":"4-1","status":0,"error_class":"host-down"}' | frontier-done -f f.db
FRONTIER_NOW=$((T+59)) frontier-lease -f f.db -n 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+600)) frontier-lease -f f.db -n 10 | cut -d, -f1,2,6; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+3600)) frontier-lease -f f.db -n 10 | cut -d, -f1,2,6; echo "exit=${PIPESTATUS[0]}"
printf '%s\n' '{"lease":"1-2","status":503,"retry_after":7200}' '{"lease":"3-2","status":429}' \
  '{"lease":"4-2","status":0,"error_class":"host-down"}' | FRONTIER_NOW=$((T+3600)) frontier-done -f f.db
FRONTIER_NOW=$((T+3600+121)) frontier-lease -f f.db -n 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+3600+3600)) frontier-lease -f f.db -n 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
