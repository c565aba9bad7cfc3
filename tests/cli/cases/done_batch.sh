# Results applied together (frontier-done(1): on PostgreSQL the rows of a
# batch's leases are read in one statement first): the same output as one
# at a time, on both backends.
#  - a result repeated in one input: the second is stale;
#  - a link to a leased URL whose own result comes later in the input,
#    with a lister date: the later result sees the row as the link left
#    it;
#  - a result without a lease id, matched by its URL while leased;
#  - a lease that is unknown, and one malformed.
T=1800000000
frontier-config -f f.db robots.enabled false >/dev/null
printf '%s\n' http://a.example/1 http://b.example/1 http://c.example/1 http://d.example/1 | frontier-add -q -f f.db
frontier-lease -f f.db -n 4 | jq -c '{url, lease}'
frontier-done -f f.db <<'IN'
{"lease":"1-1","status":200,"links":[{"url":"http://c.example/1","last_modified":"2026-01-01T00:00:00Z"},"http://a.example/3"]}
{"lease":"1-1","status":200}
{"url":"http://b.example/1","status":404}
{"lease":"99-1","status":200}
{"lease":"x-1","status":200}
{"lease":"3-1","status":503}
{"lease":"4-1","status":200}
IN
echo "exit=$?"
frontier-export -q -f f.db | jq -c 'select(.table == "urls") | {url, state, last_modified, status, retries, tier}'
frontier-report -f f.db --check | head -1
