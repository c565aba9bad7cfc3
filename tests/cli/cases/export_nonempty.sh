# frontier-import fills a new frontier only: a target with any data (even a
# single setting) is refused, exit 1, and left as it was.
echo http://a.example/1 | frontier-add -q -f f.db
frontier-export -q -f f.db > a.jsonl
frontier-import -q -f b.db a.jsonl; echo "new file: exit=$?"
frontier-import -f b.db a.jsonl; echo "again: exit=$?"
frontier-config -f c.db lease.ttl 60
frontier-import -f c.db a.jsonl; echo "settings only: exit=$?"
frontier-config -f c.db lease.ttl
sqlite3 c.db "select count(*) from urls"
# An existing file without data is fine (a setting set to its default stores nothing).
frontier-config -f d.db lease.ttl 600
frontier-import -q -f d.db a.jsonl; echo "empty file: exit=$?"
sqlite3 d.db "select url from urls"
