# Feedback in frontier-done (frontier(7), RECRAWL): eventful = content hash changed (a 304
# or an equal hash is not); interval / or x adjust-factor clamped to
# [min, max]; +-10% jitter not stored; recrawl.types; a failure keeps the
# last success and counts; retry after recrawl.fail-delay; disabled after
# recrawl.max-failures in a row until listed again (not by a link); a
# success resets the count; the report's revisit section; schema migration.
source "$CASES/recrawl_lib.bash"
echo "== a version 1 file (no urls.first_success, no hosts.seed, no crawl aggregates, no lease holders, urls_next without recrawl, urls_fp instead of url_fps, urls_next instead of url_next) is migrated to version 9"
frontier-config -f f.db robots.enabled false
sqlite3 f.db "ALTER TABLE urls DROP COLUMN first_success; ALTER TABLE hosts DROP COLUMN seed; ALTER TABLE queues DROP COLUMN bytes; DROP TABLE timeline; DROP INDEX urls_failed; DROP INDEX urls_seed; ALTER TABLE urls DROP COLUMN holder; ALTER TABLE hosts DROP COLUMN robots_holder; DROP TABLE lease_holders; DROP TABLE url_fps; DROP TABLE url_fps_new; CREATE INDEX urls_fp ON urls(fp); DROP TRIGGER url_next_delete; DROP TABLE url_next; DROP TABLE url_next_new; CREATE INDEX urls_next ON urls(queue_id, rank, tier, tier_key, cost, id) WHERE state = 0 AND due_at IS NULL; PRAGMA user_version = 1"
setup
sqlite3 f.db "PRAGMA user_version" "SELECT count(*) FROM pragma_table_info('urls') WHERE name = 'first_success'"
frontier-config -f f.db recrawl.max-interval 691200
frontier-config -f f.db recrawl.fail-delay 172800
frontier-config -f f.db recrawl.types '["repo"]'
frontier-config -f f.db retry.max 1
add 0 '{"url":"http://x.example/changing","recrawl":true}' '{"url":"http://x.example/static","recrawl":true}' \
      '{"url":"http://x.example/notmod","recrawl":true}' '{"url":"http://x.example/dead","recrawl":true}' \
      '{"url":"http://x.example/flaky","recrawl":true}' '{"url":"http://x.example/forge","type":"repo"}' \
      '{"url":"http://x.example/once"}'
# Per round R: changing gets a new hash every visit, static and forge the
# same one, notmod answers 304 (fetch keeps the hash it was given), dead
# fails with 404 from round 2 on, flaky with 503 in rounds 2-3.
prog() {
    echo '{lease} + (.url as $u | if ($u|test("changing")) then {status: 200, content_hash: "c'$1'"}
        elif ($u|test("notmod")) and .content_hash then {status: 304, content_hash}
        elif ($u|test("dead")) and '$1' >= 2 then {status: 404}
        elif ($u|test("flaky")) and '$1' >= 2 and '$1' <= 3 then {status: 503}
        else {status: 200, content_hash: "same"} end)'
}
r=0
for day in 0 1.2 2.4 3.6 4.8 6 7.2 8.4 9.6; do
    r=$((r + 1))
    lease $day
    answer $day "$(prog $r)"
done
echo "-- stored intervals carry no jitter; next visits are within +-10% of them, never before min-interval"
sqlite3 f.db "SELECT count(*), sum(abs((next_visit - last_success) / interval - 1) <= 0.1),
    sum(next_visit - last_success >= 86400) FROM urls WHERE state = 2 AND recrawl = 1"
urls
echo "-- the report: revisit state"
FRONTIER_NOW=$(at 9.6) frontier-report -f f.db | grep -A2 '^Revisits'
FRONTIER_NOW=$(at 9.6) frontier-report -f f.db --json | jq -c .revisits
FRONTIER_NOW=$(at 9.6) frontier-report -f f.db --html r.html
grep -o '<table id="revisits">.*</table>\|<svg class="chart" id="chart-intervals"' r.html | sed 's/<tr>/\n<tr>/g'
echo "-- a link found on a crawled page does not re-enable the disabled URL"
lease 10.8
jq -c '{lease, status: 200, content_hash: "c-new", links: ["http://x.example/dead"]}' leases.jsonl |
    FRONTIER_NOW=$(at 10.8) frontier-done -f f.db | jq -c '{url, result, links_added, links_rejected}'
urls "WHERE url LIKE '%dead'"
echo "-- listed again: queued now, failures reset; a success after that"
add 11 '{"url":"http://x.example/dead","recrawl":true}'
urls "WHERE url LIKE '%dead'"
FRONTIER_NOW=$(at 11) frontier-report -f f.db --json | jq -c '.revisits | {due_now, disabled, next_due: ((.next_due - '$T0') / '$D' * 100 | round / 100)}'
lease 11
answer 11
urls "WHERE url LIKE '%dead'"
