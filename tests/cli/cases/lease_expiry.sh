# Expired leases come back without loss; late, repeated and lease-less results.
T=1800000000
frontier-config -f f.db robots.enabled false
printf '%s\n' http://a.example/1 http://b.example/1 | frontier-add -q -f f.db
frontier-lease -f f.db --ttl 60 | cut -d, -f1,2,6; echo "exit=${PIPESTATUS[0]}"
FRONTIER_NOW=$((T+61)) frontier-lease -f f.db --ttl 60 | cut -d, -f1,2,6; echo "exit=${PIPESTATUS[0]}"
# a late result for the first lease of a/1 (re-leased since): stale
echo '{"lease":"1-1","status":200}' | FRONTIER_NOW=$((T+62)) frontier-done -f f.db
# the current lease: done; the same result again: stale
echo '{"lease":"1-2","status":200,"x-keep":"me"}' | FRONTIER_NOW=$((T+62)) frontier-done -f f.db
echo '{"lease":"1-2","status":200}' | FRONTIER_NOW=$((T+62)) frontier-done -f f.db
# b/1's lease expired and it was not leased again: the late result is applied
echo '{"lease":"2-2","status":200}' | FRONTIER_NOW=$((T+200)) frontier-done -f f.db
FRONTIER_NOW=$((T+200)) frontier-lease -f f.db; echo "exit=${PIPESTATUS[0]}"
