# A host that could not be reached is down for every fetcher (frontier(7),
# POLITENESS, politeness.host-down-delay): after a connect failure reported to
# frontier-done, frontier-lease withholds that host's queue for 600 s, while
# another host goes on.
frontier-config -f f.db robots.enabled false
frontier-config -f f.db politeness.min-delay 0 > /dev/null
printf 'http://down.example/%s\nhttp://up.example/%s\n' 1 1 2 2 | frontier-add -q -f f.db
frontier-lease -q -f f.db -n 5 | jq -c '{url, lease}'
echo '{"lease":"1-1","status":0,"error_class":"connect","duration_ms":3}' | frontier-done -f f.db | jq -c '{url, result}'
echo '{"lease":"2-1","status":200,"duration_ms":3}' | frontier-done -f f.db | jq -c '{url, result}'
FRONTIER_NOW=$((FRONTIER_NOW + 60)) frontier-lease -q -f f.db -n 5 | jq -r .url
FRONTIER_NOW=$((FRONTIER_NOW + 601)) frontier-lease -q -f f.db -n 5 | jq -r .url
frontier-config -f f.db politeness.host-down-delay 0 > /dev/null
frontier-config -f f.db politeness.host-down-delay -1; echo "exit=$?"
