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
