# robots.txt is each host's first lease; disallowed URLs end blocked; 4xx allows all; 5xx holds, then fails.
T=1800000000
frontier-config -f f.db retry.max 1
frontier-config -f f.db budget.hold-queues false
printf '%s\n' http://a.example/ok http://a.example/private/x http://b.example/1 http://c.example/1 | frontier-add -q -f f.db
frontier-lease -f f.db -n 10 | cut -d, -f1,2,3
printf '%s\n' '{"lease":"r1-1","status":200,"body":"User-agent: *\nDisallow: /private\nCrawl-delay: 12\n"}' \
  '{"lease":"r2-1","status":404}' '{"lease":"r3-1","status":503}' | frontier-done -f f.db
# a.example waits for its Crawl-delay (12 s); b.example (robots.txt 404: allow all) after min-delay 3 s
FRONTIER_NOW=$((T+11)) frontier-lease -f f.db -n 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+12)) frontier-lease -f f.db -n 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
printf '%s\n' '{"lease":"1-1","status":200}' '{"lease":"3-1","status":200}' | FRONTIER_NOW=$((T+12)) frontier-done -q -f f.db
# the disallowed URL is blocked, never leased; c.example's robots.txt is retried after retry.delay
FRONTIER_NOW=$((T+100)) frontier-lease -f f.db -n 10 | cut -d, -f1; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+3600)) frontier-lease -f f.db -n 10 | cut -d, -f1,2,3; echo "exit=${PIPESTATUS[0]}"
echo '{"lease":"r3-2","status":0,"error_class":"connect"}' | FRONTIER_NOW=$((T+3600)) frontier-done -f f.db
FRONTIER_NOW=$((T+7200)) frontier-lease -f f.db -n 10; echo "exit=$?"
sqlite3 f.db "select url, state, reason from urls order by id"
