# Priority from the seed's tables; explicit priority; cost policies; updates.
frontier-config -f f.db budget.cost-policy wag
printf '%s\n' \
  '{"url":"http://a.example/article","type":"article","depth":1}' \
  '{"url":"http://a.example/nav","type":"nav","discovery":"sitemap"}' \
  '{"url":"http://a.example/hub","type":"hub-seed","bias":2.5}' \
  '{"url":"http://a.example/q?x=1","via":"http://a.example/q?x=0"}' \
  '{"url":"http://a.example/given","priority":-3,"cost":7,"meta":{"k":[1,2]}}' \
  '{"url":"http://a.example/given","priority":-3}' \
  '{"url":"http://a.example/given","priority":1}' \
  '{"url":"http://a.example/lister","last_modified":"2024-05-01T00:00:00Z","recrawl":true}' \
  '{"url":"http://a.example/lister","last_modified":1714521600}' \
  '{"url":"http://a.example/lister","last_modified":"2024-06-01T00:00:00Z"}' \
  '{"url":"http://a.example/lister","visit_now":true}' | frontier-add -f f.db
echo "exit=$?"
# The seed's scorer steps from record fields: a gap prediction (confidence
# x 10 + coverage lift x 5), a problem cluster (min(log2(count) x 2.5, 20)),
# the source and the bonus applied; cost-aware only with priority.cost-aware.
printf '%s\n' \
  '{"url":"http://g.example/gap","type":"nav","gap_prediction":{"confidence_score":0.5,"expected_coverage_lift":0.2}}' \
  '{"url":"http://g.example/cluster","type":"nav","cluster_count":8}' \
  '{"url":"http://g.example/slow","type":"nav","estimated_cost_ms":900}' \
  '{"url":"http://g.example/bad","gap_prediction":{"confidence_score":"high"}}' | frontier-add -f f.db
frontier-config -f f.db priority.cost-aware true
echo '{"url":"http://g.example/slow2","type":"nav","estimated_cost_ms":900}' | frontier-add -f f.db
# A record without depth is the seed's depth bucket "unknown": its depth
# term is priority.unknown-depth (default 0); an explicit depth 0 is not.
frontier-config -f f.db priority.unknown-depth 3
printf '%s\n' \
  '{"url":"http://d.example/nodepth","type":"article"}' \
  '{"url":"http://d.example/nulldepth","type":"article","depth":null}' \
  '{"url":"http://d.example/depth0","type":"article","depth":0}' \
  '{"url":"http://d.example/depth2","type":"article","depth":2}' \
  'http://d.example/plain' | frontier-add -f f.db
