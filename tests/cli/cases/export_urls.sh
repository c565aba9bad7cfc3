# frontier-export --urls [--csv]: one line per URL for analysis (states by
# name, the queue's key, what the fetch found), JSON lines or CSV (RFC 4180
# quoting, read back by Python's csv module).
frontier-config -f f.db robots.enabled false
printf '%s\n' 'http://a.example/1' '{"url":"http://a.example/x,y","type":"say \"hi\""}' '{"url":"http://b.example/1","type":"article"}' | frontier-add -q -f f.db
frontier-lease -q -f f.db -n 5 > leases.jsonl
jq -c 'select(.url == "http://a.example/1") | {lease, status: 200, duration_ms: 5, content_hash: "c0ffee", fetched_at: 1800000001, links: ["/2"]}' leases.jsonl | frontier-done -q -f f.db
jq -c 'select(.url == "http://b.example/1") | {lease, status: 404}' leases.jsonl | frontier-done -q -f f.db
frontier-export -q -f f.db --urls
frontier-export -q -f f.db --urls --csv | tee urls.csv
python3 -c 'import csv,sys; rows=list(csv.DictReader(open("urls.csv"))); print(len(rows), rows[1]["url"], rows[1]["type"], rows[0]["state"], rows[2]["status"])'
frontier-export -q -f f.db --csv; echo "exit=$?"
