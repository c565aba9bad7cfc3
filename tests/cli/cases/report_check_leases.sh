# frontier-report --check and leases: an expired lease that no tool has taken
# back yet is a normal state (the next frontier-lease takes it back), not a
# violation; a lease with an expiry beyond lease.ttl's bound (7 days) is.
printf 'http://a.example/1\nhttp://b.example/1\n' | frontier-add -q -f f.db
frontier-config -f f.db robots.enabled false
frontier-lease -q -f f.db -n 5 | jq -c '{url, lease, expires}'
FRONTIER_NOW=$((FRONTIER_NOW + 3600)) frontier-report -f f.db --check | grep lease
sqlite3 f.db "UPDATE urls SET lease_expires = $((FRONTIER_NOW + 30 * 86400)) WHERE url = 'http://b.example/1'"
frontier-report -f f.db --check | grep -A1 lease; echo "exit=${PIPESTATUS[0]}"
