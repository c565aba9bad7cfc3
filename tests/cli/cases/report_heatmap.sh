# frontier-report heatmap (discovery x type, aliases folded) and depth buckets
# from the maintained counters, in text and JSON.
frontier-config -f f.db robots.enabled false
printf '%s\n' http://h.example/ http://i.example/ | frontier-add -q -f f.db
printf '%s\n' '{"url":"http://h.example/a1","type":"article","discovery":"sitemap","depth":1}' \
  '{"url":"http://h.example/a2","type":"article","discovery":"sitemap","depth":1}' \
  '{"url":"http://h.example/a3","type":"article","discovery":"intelligent-seed","depth":2}' \
  '{"url":"http://h.example/h1","type":"hub-seed","discovery":"hub-seed","depth":0}' \
  '{"url":"http://i.example/n1","type":"nav","discovery":"link-discovery","depth":3}' \
  '{"url":"http://i.example/n2","type":"nav","discovery":"link","depth":7}' \
  '{"url":"http://i.example/x","discovery":"validated-hub","depth":12}' \
  '{"url":"http://i.example/n2","type":"nav","discovery":"link","depth":7}' | frontier-add -q -f f.db
frontier-report -f f.db --top 0
echo "--- json"
frontier-report -f f.db --json | jq -c '.heatmap, .depth'
echo "--- empty frontier"
frontier-config -f empty.db robots.enabled false
frontier-report -f empty.db
frontier-report -f empty.db --json
frontier-report -f empty.db --queues --json; echo "exit=$?"
