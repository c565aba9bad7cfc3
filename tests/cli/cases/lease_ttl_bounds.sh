# A lease must expire: --ttl and lease.ttl are above 0 and at most 604800 s
# (7 days). Anything else (inf, nan, 0, negative, too large) is a usage error
# (exit 2) and nothing is leased; before, --ttl inf printed "expires":null, a
# lease that never expired and that frontier-report --check did not see.
frontier-config -f f.db robots.enabled false
printf '%s\n' http://a.example/1 http://b.example/1 http://c.example/1 | frontier-add -q -f f.db
for ttl in inf -inf nan 0 -1 -600 604801 1e300; do
    frontier-lease -f f.db -n 1 --ttl "$ttl"; echo "--ttl $ttl: exit=$?"
done
frontier-report -f f.db | sed -n 3p
echo "-- the bounds themselves"
frontier-lease -f f.db -n 1 --ttl 604800; echo "exit=$?"
frontier-lease -f f.db -n 1 --ttl 0.5; echo "exit=$?"
echo "-- lease.ttl: the same bounds"
for v in 0 -1 604801 1e300 '"inf"' null; do
    frontier-config -f f.db lease.ttl "$v"; echo "lease.ttl $v: exit=$?"
done
frontier-config -f f.db lease.ttl 604800; echo "exit=$?"
frontier-lease -f f.db -n 1; echo "exit=$?"
frontier-report -f f.db --check | grep -v '^ok'; echo "check exit=${PIPESTATUS[0]}"
