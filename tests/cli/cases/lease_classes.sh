# The URL classes alternate with a burst limit (lease.class-burst, default
# 5; the news crawler's "alternate between queues with burst limit"): ten
# articles (priority 0) and three nav pages (priority 10), one per host,
# robots.txt off. In priority order alone the nav pages would come last.
frontier-config -f c.db robots.enabled false
frontier-config -f c.db politeness.min-delay 0
frontier-config -f c.db lease.class-burst
for i in 01 02 03 04 05 06 07 08 09 10; do echo "{\"url\":\"http://a$i.example/\",\"type\":\"article\"}"; done > urls.jsonl
for i in 1 2 3; do echo "{\"url\":\"http://n$i.example/\",\"type\":\"nav\"}"; done >> urls.jsonl
cp urls.jsonl all.jsonl
frontier-add -q -f c.db < all.jsonl
echo "-- one batch: five articles, a nav page, five articles, a nav page, then what is left"
frontier-lease -f c.db -n 20 | jq -r '[.url, .type] | join(" ")'
echo "-- the run is kept across batches and processes (burst 2, batches of 1)"
frontier-add -q -f d.db < all.jsonl
frontier-config -f d.db robots.enabled false
frontier-config -f d.db politeness.min-delay 0
frontier-config -f d.db lease.class-burst 2
for i in 1 2 3 4 5 6 7; do frontier-lease -f d.db -n 1 | jq -r '[.url, .type] | join(" ")'; done
echo "-- --class leases do not count: a discovery lease does not end the run of articles"
frontier-lease -f d.db -n 1 --class discovery | jq -r '[.url, .type] | join(" ")'
frontier-lease -f d.db -n 2 | jq -r '[.url, .type] | join(" ")'
echo "-- lease.class-burst 0: priority order alone"
frontier-add -q -f e.db < all.jsonl
frontier-config -f e.db robots.enabled false
frontier-config -f e.db lease.class-burst 0
frontier-lease -f e.db -n 20 | jq -r '[.url, .type] | join(" ")'
echo "-- one class only (no nav page was ever added): nothing is tracked"
grep article all.jsonl | frontier-add -q -f f.db
frontier-config -f f.db robots.enabled false
frontier-lease -f f.db -n 20 | wc -l
frontier-export -q -f f.db | grep -c class_run
frontier-export -q -f c.db | jq -c 'select(.table == "meta" and .key == "class_run")'
echo "-- within one queue (burst 3, --per-queue 20): the other class is taken from the queue's first due URLs"
frontier-config -f g.db robots.enabled false
frontier-config -f g.db politeness.max-in-flight 20
frontier-config -f g.db lease.class-burst 3
for i in 1 2 3 4 5 6 7 8; do echo "{\"url\":\"http://one.example/a$i\",\"type\":\"article\"}"; done > one.jsonl
for i in 1 2; do echo "{\"url\":\"http://one.example/n$i\",\"type\":\"nav\"}"; done >> one.jsonl
frontier-add -q -f g.db < one.jsonl
frontier-lease -f g.db -n 20 --per-queue 20 | jq -r '.url' | tr '\n' ' '; echo
frontier-lease -f g.db -n 20 --per-queue 20; echo "exit=$?"
frontier-report -f g.db --check > /dev/null; echo "check=$?"
