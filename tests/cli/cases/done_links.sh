# Links and redirects enter through the frontier-add path: depth+1, via, discovery, scope, max-depth.
T=1800000000
frontier-config -f f.db robots.enabled false
frontier-config -f f.db scope.max-depth 1
echo http://site.example/ | frontier-add -q -f f.db
frontier-lease -f f.db -q > /dev/null
echo '{"lease":"1-1","status":200,"links":["http://site.example/a",{"url":"http://site.example/b","nofollow":true},{"url":"http://other.example/x"},"mailto:x@y","http://site.example/a"],"meta_extra":1}' | frontier-done -f f.db
FRONTIER_NOW=$((T+100)) frontier-lease -f f.db -q | jq -c "{url,depth,via,expires}"
echo '{"lease":"2-1","status":301,"location":"/moved","links":["http://site.example/deeper"]}' | FRONTIER_NOW=$((T+100)) frontier-done -f f.db
echo '{"lease":"zz","status":200}' | frontier-done -f f.db; echo "exit=${PIPESTATUS[1]}"
echo '{"url":"http://site.example/nope","status":200}' | frontier-done -f f.db; echo "exit=${PIPESTATUS[1]}"
echo '{"status":200}' | frontier-done -f f.db; echo "exit=${PIPESTATUS[1]}"
