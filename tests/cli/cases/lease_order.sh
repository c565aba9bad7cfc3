# Order within a queue (priority, cost, discovery order) and across queues,
# --per-queue, --host-discount and --class.
frontier-config -f f.db robots.enabled false
frontier-config -f f.db politeness.max-in-flight 10
frontier-config -f f.db budget.hold-queues false
printf '%s\n' \
  '{"url":"http://a.example/p5","priority":5}' \
  '{"url":"http://a.example/p1-costly","priority":1,"cost":3}' \
  '{"url":"http://a.example/p1-cheap","priority":1,"cost":1}' \
  '{"url":"http://a.example/p1-second","priority":1,"cost":1}' \
  '{"url":"http://b.example/p2","priority":2}' \
  '{"url":"http://b.example/p3","priority":3}' \
  '{"url":"http://c.example/article","type":"article"}' \
  '{"url":"http://c.example/nav","type":"nav"}' | frontier-add -q -f f.db
cp f.db g.db; cp f.db h.db; cp f.db k.db
echo "-- one per queue, most urgent queue first"
frontier-lease -f f.db -n 10 | cut -d, -f1,4
echo "-- --per-queue 3"
frontier-lease -f g.db -n 10 --per-queue 3 | cut -d, -f1,4
echo "-- --per-queue 3 --host-discount 2: the 2nd URL of a queue counts +2"
frontier-lease -f h.db -n 4 --per-queue 3 --host-discount 2 | cut -d, -f1,4
echo "-- --class acquisition"
frontier-lease -f k.db -n 10 --class acquisition --per-queue 5 --ttl 5 | cut -d, -f1
frontier-lease -f k.db -n 10 --class bogus; echo "exit=$?"
