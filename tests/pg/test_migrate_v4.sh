# The migrations 3 -> 4 -> 5 -> 6 -> 7 -> 8 -> 9 on PostgreSQL (their own DDL and back-fill
# SQL), run by tests/pg/run.sh with MIGRATE_FRONTIER, a fresh PostgreSQL
# database: the version 3 fixture (tests/fixtures/schema-v3.sql) is moved
# there (migrated and exported by the SQLite file, imported), taken back to
# version 3 (the objects and counter rows of versions 4 and 5 dropped,
# urls_next back to its definition before version 6, schema_version 3), and migrated by a writing tool: the back-filled report
# is the one the SQLite migration gives (tests/e2e/test_migration.sh),
# --check passes, a lease records its holder (version 5) and urls_next ends
# with recrawl (version 6), every URL's fingerprint is in url_fps
# (version 7), and urls_next is kept (version 8 moves SQLite's lease order
# to tables, not PostgreSQL's; version 9 changes SQLite's only).
set -euo pipefail
PG=${MIGRATE_FRONTIER:?MIGRATE_FRONTIER: a PostgreSQL database URL}
export FRONTIER_NOW=1800000210
sqlite3 v3.db < "$ROOT/tests/fixtures/schema-v3.sql"
frontier-add -q -f v3.db < /dev/null
frontier-export -q -f v3.db | frontier-import -q -f "$PG"
psql -qX "$PG" -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
DROP TABLE url_fps;
DROP TABLE url_fps_new;
CREATE INDEX urls_fp ON urls(fp);
DROP TABLE lease_holders;
ALTER TABLE urls DROP COLUMN holder;
ALTER TABLE hosts DROP COLUMN robots_holder;
ALTER TABLE queues DROP COLUMN bytes;
DROP TABLE timeline;
DROP INDEX urls_failed;
DROP INDEX urls_seed;
DROP INDEX urls_next;
CREATE INDEX urls_next ON urls(queue_id, rank, tier, tier_key, cost, id) WHERE state = 0 AND due_at IS NULL;
DELETE FROM counters WHERE name LIKE 'crawl:%' OR name LIKE 'visit:%' OR name LIKE 'status:%' OR name LIKE 'heatd:%';
UPDATE meta SET value = 3 WHERE key = 'schema_version';
SQL
set +e; frontier-report -f "$PG" > /dev/null 2> err.txt; rc=$?; set -e
[ $rc = 1 ] && grep -q "needs migrating to 9" err.txt || { echo "a v3 database read without migration: exit $rc"; exit 1; }
frontier-add -q -f "$PG" < /dev/null
got=$(frontier-report -f "$PG" --json | jq -c '[.crawl.start, .crawl.last, .crawl.results, .crawl.errors, .crawl.novel,
      .statuses, [.timeline.buckets[] | [.start, .pages, .errors]], .heatmap_depth.seed]')
want='[1800000000,1800000240,5,2,2,{"200":2,"301":1,"410":1},[[1800000000,1,0],[1800000060,3,1],[1800000180,1,1]],{"0":7}]'
[ "$got" = "$want" ] || { echo "back-filled report $got, want $want"; exit 1; }
got=$(frontier-report -f "$PG" --failed --json | jq -r 'select(.kind == "url") | .url' | tr '\n' ' ')
[ "$got" = "http://a.example/ http://c.example/gone http://d.example/ " ] || { echo "failed URLs: $got"; exit 1; }
frontier-report -f "$PG" --check > check.txt || { cat check.txt; exit 1; }
# Version 6: urls_next ends with recrawl.
got=$(psql -qXAt "$PG" -c "SELECT indexdef FROM pg_indexes WHERE indexname = 'urls_next'")
case "$got" in *"id, recrawl)"*) ;; *) echo "urls_next after migration: $got"; exit 1 ;; esac
[ "$(psql -qXAt "$PG" -c "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'url_next%'")" = 0 ] ||
    { echo "lease order tables on PostgreSQL"; exit 1; }
# Version 7: every URL's fingerprint is in url_fps, none in url_fps_new, and the urls_fp index is gone.
got=$(psql -qXAt "$PG" -c "SELECT (SELECT count(*) FROM urls u WHERE EXISTS (SELECT 1 FROM url_fps f WHERE f.fp = u.fp AND f.id = u.id))
      = (SELECT count(*) FROM urls), (SELECT count(*) FROM url_fps_new), (SELECT count(*) FROM pg_indexes WHERE indexname = 'urls_fp')")
[ "$got" = "t|0|0" ] || { echo "fingerprints after migration: $got"; exit 1; }
# Version 5: a lease records its holder.
FRONTIER_NOW=1800003900 frontier-lease -q -f "$PG" -n 1 > lease.out
got=$(psql -qXAt "$PG" -c "SELECT (SELECT count(*) FROM urls WHERE state = 1 AND holder IN (SELECT id FROM lease_holders))
      + (SELECT count(*) FROM hosts WHERE robots_lease_expires IS NOT NULL AND robots_holder IN (SELECT id FROM lease_holders))")
[ -s lease.out ] && [ "$got" = 1 ] || { echo "a lease after migration has no holder row: $got"; exit 1; }
echo "v3 -> v9 on PostgreSQL: $(frontier-report -f "$PG" | grep '^Crawl:')"
