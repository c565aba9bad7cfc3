# After a crash the leases of the dead pipeline hold their queues until they
# expire: frontier-lease --follow says so at its start, and --reclaim ends
# them now (URLs queued again, as if expired; a late result still applies
# while its URL is not leased again). --reclaim with --follow is a usage error.
printf 'http://a.example/1\nhttp://b.example/1\nhttp://c.example/1\n' | frontier-add -q -f f.db
frontier-config -f f.db robots.enabled false
frontier-lease -q -f f.db -n 5 | jq -c '{url, lease}'
timeout 1 frontier-lease -f f.db --follow 2>&1 >/dev/null | head -1
frontier-lease -f f.db --reclaim; echo "exit=$?"
frontier-report -f f.db | sed -n 3p
echo '{"lease":"1-1","status":200}' | frontier-done -f f.db | jq -c '{url, result}'
FRONTIER_NOW=$((FRONTIER_NOW + 10)) frontier-lease -q -f f.db -n 5 | jq -c '{url, lease}'
frontier-report -f f.db --check > /dev/null && echo "check ok"
frontier-lease -f f.db --reclaim --follow; echo "exit=$?"
frontier-lease -q -f f.db --reclaim; echo "exit=$?"
