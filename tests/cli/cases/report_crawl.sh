# frontier-report tells the story of the crawl: crawl summary
# (start, last result, results, bytes, rates, novel / revisit / not
# modified), --hosts, --mimetypes, --codes, --seeds, --failed (text and JSON
# lines), the over-time buckets, the discovery x depth heatmap when no type
# is known, and the revisit calibration. All from aggregates
# written with each result (frontier-done), at FRONTIER_NOW times.
T=1800000000
frontier-config -q -f f.db robots.enabled false
frontier-config -q -f f.db politeness.min-delay 0
frontier-config -q -f f.db retry.max 0
printf '%s\n' http://a.example/ http://b.example/ http://c.example/ | frontier-add -q -f f.db
printf '%s\n' '{"url":"http://a.example/x","discovery":"link","depth":1}' | frontier-add -q -f f.db
frontier-lease -f f.db -n 10 | jq -r .lease | tr '\n' ' '; echo
# a: a 200 page (HTML, 1000 bytes), then a 200 PDF; b: redirect; c: timeout.
printf '%s\n' '{"lease":"1-1","status":200,"bytes":1000,"content_type":"text/html; charset=UTF-8","duration_ms":100}' \
  '{"lease":"2-1","status":301,"location":"http://b.example/home","bytes":0,"duration_ms":20}' | FRONTIER_NOW=$((T+5)) frontier-done -q -f f.db
FRONTIER_NOW=$((T+6)) frontier-lease -f f.db -n 10 | jq -r '.url + " " + .lease' | sort
printf '%s\n' '{"lease":"3-1","status":0,"error_class":"timeout","duration_ms":30000}' \
  '{"lease":"4-1","status":200,"bytes":5000,"content_type":"Application/PDF","duration_ms":300}' | FRONTIER_NOW=$((T+130)) frontier-done -q -f f.db
printf '%s\n' '{"lease":"1-1","status":200,"bytes":-5}' | FRONTIER_NOW=$((T+131)) frontier-done -f f.db; echo "exit=$?"
export FRONTIER_NOW=$((T+200))
frontier-report -f f.db | sed -n '3,8p'
echo "--- json: crawl, timeline, statuses, mimetypes"
frontier-report -f f.db --json | jq -c '.crawl, .timeline, .statuses, .mimetypes'
echo "--- hosts"
frontier-report -f f.db --hosts
frontier-report -f f.db --hosts --json --limit 2
frontier-report -f f.db --hosts --sort bytes:asc --json | jq -r .queue | tr '\n' ' '; echo
echo "--- mimetypes"
frontier-report -f f.db --mimetypes
frontier-report -f f.db --mimetypes --json
echo "--- codes"
frontier-report -f f.db --codes
frontier-report -f f.db --codes --json
echo "--- seeds"
frontier-report -f f.db --seeds
frontier-report -f f.db --seeds --json --limit 2
echo "--- failed"
frontier-report -f f.db --failed
frontier-report -f f.db --failed --json
echo "--- no types given: discovery x depth"
frontier-report -f f.db --top 0 | sed -n '/^URLs added/,$p'
echo "--- the check still passes"
frontier-report -f f.db --check | grep -c '^ok'
echo "--- revisit calibration: 100 URLs due daily, 4 results in 200 s (1728/day)"
for i in $(seq 100); do echo "{\"url\":\"http://r.example/$i\",\"recrawl\":true}"; done | frontier-add -q -f f.db
frontier-report -f f.db | grep '^Revisit capacity'
frontier-report -f f.db --json | jq -c .crawl.calibration
for i in $(seq 3000); do echo "{\"url\":\"http://s.example/$i\",\"recrawl\":true}"; done | frontier-add -q -f f.db
frontier-report -f f.db | grep '^Revisit capacity'
echo "--- usage errors"
frontier-report -f f.db --hosts --seeds; echo "exit=$?"
frontier-report -f f.db --codes --sort done; echo "exit=$?"
frontier-report -f f.db --limit 3; echo "exit=$?"
frontier-report -f f.db --codes --limit 3; echo "exit=$?"
frontier-report -f f.db --watch 1 --hosts; echo "exit=$?"
