# Software Heritage's "non forks, then forks?" (frontier-add(1), fork):
# among origins never loaded, a lister's "fork":true goes behind every
# non-fork of equal priority, oldest last_modified first within each. One
# host, robots.txt off, all leased in one batch.
frontier-config -f s.db robots.enabled false
frontier-config -f s.db politeness.max-in-flight 20
printf '%s\n' \
  '{"url":"https://forge.example/fork-old","recrawl":true,"fork":true,"last_modified":"2020-01-01T00:00:00Z"}' \
  '{"url":"https://forge.example/origin-new","recrawl":true,"fork":false,"last_modified":"2024-01-01T00:00:00Z"}' \
  '{"url":"https://forge.example/fork-mid","recrawl":true,"fork":true,"last_modified":"2022-01-01T00:00:00Z"}' \
  '{"url":"https://forge.example/origin-old","recrawl":true,"last_modified":"2021-01-01T00:00:00Z"}' \
  '{"url":"https://forge.example/plain-fork","fork":true}' \
  '{"url":"https://forge.example/plain"}' \
  '{"url":"https://forge.example/bad","fork":"yes"}' | frontier-add -f s.db
echo "exit=$?"
echo "-- relisted: a record without fork keeps the flag; fork:false moves fork-mid ahead"
printf '%s\n' \
  '{"url":"https://forge.example/fork-old","recrawl":true}' \
  '{"url":"https://forge.example/fork-mid","recrawl":true,"fork":false}' | frontier-add -f s.db
frontier-lease -f s.db -n 20 --per-queue 20 | jq -r .url
