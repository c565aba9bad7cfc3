# frontier-done refuses impossible values, each line with its own rejection
# (the lease is left as it was, to expire), exit 1 at the end:
#  - a lease id not in the form frontier-lease writes (lower-case hex, no
#    leading zero, sign, "0x" or blank): bad-lease; "0x1-1" used to end 1-1
#    (an id in that form past any row id is an unknown lease: stale);
#  - a status that is not a three-digit code, or 0 without an error_class:
#    bad-field, field status (-1 and 2147483648 used to be stored);
#  - a fetched_at before 1990-01-01 or more than a day after now: bad-field,
#    field fetched_at (-1e18 and year 9999 used to be stored).
# A link's last_modified outside that window counts as absent.
# An empty lease is no lease: the url matches it, as without one.
T=1800000000
frontier-config -f f.db robots.enabled false
printf '%s\n' http://a.example/1 http://b.example/1 http://c.example/1 http://d.example/1 | frontier-add -q -f f.db
frontier-lease -f f.db -n 4 | cut -d, -f1,2
frontier-done -f f.db <<'IN'
{"lease":"0x1-1","status":200}
{"lease":"1-0x1","status":200}
{"lease":"01-1","status":200}
{"lease":"1-01","status":200}
{"lease":"+1-1","status":200}
{"lease":"-1-1","status":200}
{"lease":" 1-1","status":200}
{"lease":"1-1 ","status":200}
{"lease":"1F-1","status":200}
{"lease":"1-1-1","status":200}
{"lease":"10000000000000001-1","status":200}
{"lease":"8000000000000001-1","status":200}
{"lease":"r0x1-1","status":200}
{"lease":"R1-1","status":200}
{"lease":"1-1","status":-1}
{"lease":"1-1","status":2147483648}
{"lease":"1-1","status":99}
{"lease":"1-1","status":1000}
{"lease":"1-1","status":0}
{"lease":"1-1","status":200,"fetched_at":-1e18}
{"lease":"1-1","status":200,"fetched_at":"9999-12-31T23:59:59Z"}
{"lease":"1-1","status":200,"fetched_at":"1989-12-31T23:59:59Z"}
{"lease":"1-1","status":200,"fetched_at":1800086401}
IN
echo "exit=$?"
echo "-- nothing above changed a lease; the edges of each rule are accepted"
frontier-done -f f.db <<'IN'
{"lease":"1-1","status":200,"fetched_at":1800086400,"links":[{"url":"http://a.example/old","last_modified":-1e18},{"url":"http://a.example/future","last_modified":"9999-01-01"},{"url":"http://a.example/fine","last_modified":"2026-01-01T00:00:00Z"}]}
{"lease":"2-1","status":999,"fetched_at":"1990-01-01T00:00:00Z"}
{"lease":"3-1","status":0,"error_class":"dns"}
{"lease":"4-1","status":100}
IN
echo "exit=$?"
frontier-export -q -f f.db | jq -c 'select(.table == "urls") | {url, status, error_class, fetched_at, last_modified}'
echo "-- an empty lease is no lease: matched by the url (while leased), else missing-lease"
echo http://e.example/1 | frontier-add -q -f f.db
frontier-lease -f f.db -n 1 | cut -d, -f1,2
frontier-done -f f.db <<'IN'
{"lease":"","status":200}
{"lease":"","url":"http://e.example/1","status":200}
{"lease":"","url":"http://e.example/1","status":200}
IN
echo "exit=$?"
