# One lease per queue; the queue sleeps clamp(5 x duration, 3, 30) after a result; exit codes 0/3/5.
T=1800000000
frontier-config -f f.db robots.enabled false
printf '%s\n' http://a.example/1 http://a.example/2 http://b.example/1 | frontier-add -q -f f.db
frontier-lease -f f.db -n 10 | cut -d, -f1,3; echo "exit=${PIPESTATUS[0]}"
frontier-lease -f f.db -n 10; echo "exit=${PIPESTATUS[0]}"
echo '{"lease":"1-1","status":200,"duration_ms":2000}' | frontier-done -f f.db; echo "exit=${PIPESTATUS[1]}"
FRONTIER_NOW=$((T+5)) frontier-lease -f f.db; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+10)) frontier-lease -f f.db | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
echo '{"lease":"3-1","status":200,"duration_ms":100}' | FRONTIER_NOW=$((T+10)) frontier-done -f f.db -q
echo '{"lease":"2-1","status":200,"duration_ms":100}' | FRONTIER_NOW=$((T+10)) frontier-done -f f.db -q
FRONTIER_NOW=$((T+20)) frontier-lease -f f.db; echo "exit=${PIPESTATUS[0]}"
