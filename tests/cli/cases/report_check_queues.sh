# frontier-report --check recounts each queue's URLs: a stored count that
# differs is a queue-counts violation, and so are URLs whose queue row is
# missing, whatever the missing id (inside or past the queues' ids).
printf 'http://a.example/1\nhttp://a.example/2\nhttp://b.example/1\n' | frontier-add -q -f f.db
frontier-report -f f.db --check | grep queue-; echo "exit=${PIPESTATUS[0]}"
sqlite3 f.db "UPDATE queues SET queued = queued + 1 WHERE key = 'a.example'"
sqlite3 f.db "UPDATE urls SET queue_id = 999 WHERE url = 'http://b.example/1'"
sqlite3 f.db "UPDATE urls SET queue_id = 0 WHERE url = 'http://a.example/2'"
# (The total on stderr differs by backend: SQLite's lease order tables do
# not follow a hand-made UPDATE, so lease-order fails there too.)
frontier-report -f f.db --check 2>/dev/null | grep -A6 queue-counts; echo "exit=${PIPESTATUS[0]}"
