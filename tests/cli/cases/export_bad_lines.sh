# frontier-import checks every line: a bad one gets a rejection record (with
# the table and field concerned), the good ones are imported, exit 1.
echo http://a.example/1 | frontier-add -q -f f.db
frontier-export -q -f f.db > a.jsonl
head -n -1 a.jsonl > in.jsonl                # everything but the end line
cat >> in.jsonl <<'ROWS'
{"table":"seed_domains","domain":"b.example"}
{"table":"seed_domains","domain":
not json at all
{"domain":"c.example"}
{"table":"tables","domain":"c.example"}
{"table":7}
{"table":"seed_domains","domain":"d.example","colour":"blue"}
{"table":"seed_domains","domain":42}
{"table":"counters","name":"x"}
{"table":"counters","name":"y","n":1.5}
{"table":"counters","name":"z","n":null}
{"table":"queues","id":1,"key":"a.example","state":0,"sched":2,"wake_at":0,"served":0,"in_flight":0,"queued":1,"enqueued":1,"done":0,"failed":0,"blocked":0,"session_balance":0,"total_spend":0,"cost_count":0,"error_count":0,"latency_sum":0,"latency_n":0,"n429":0,"retry_after_blocks":0,"host_down":0}
{"table":"seed_domains","domain":"a.example"}
{"table":"hosts","id":9,"name":"http://e.example","robots_state":0,"robots_retries":0,"robots_lease_seq":"x"}
{"format":"frontier-export","format_version":1,"schema_version":2}
{"table":"seed_domains","domain":"e.example"}
ROWS
tail -1 a.jsonl | sed 's/"seed_domains":1/"seed_domains":4/' >> in.jsonl
echo '{"table":"seed_domains","domain":"f.example"}' >> in.jsonl
frontier-import -f b.db in.jsonl; echo "exit=$?"
sqlite3 b.db "select domain from seed_domains"
