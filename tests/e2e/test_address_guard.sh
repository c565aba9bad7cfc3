# The address guard (frontier(7), fetch(1) ADDRESS GUARD), on 127.0.0.1 only.
# A seed site S1 links to its own page, to another local site S2 (another
# port), to S1 under the name localhost and to S2 through an IPv4-mapped
# IPv6 address. With the defaults the crawl fetches S1's pages and S2 never
# sees a request: the other links fail with blocked-address. net.allow
# ["loopback"] lets them through; net.seed-hosts false blocks the seed too.
# fetch alone: --addresses and the "addresses" key, refused before connecting.
# Migration: a version 2 file gets hosts.seed for the seeds it already has.
set -euo pipefail
: "${ROOT:?}"
source "$ROOT/tests/server/common.sh"
export FRONTIER_NOW=1800000000
fail() { echo "FAIL: $*"; exit 1; }
paths() { cut -f1 "$1/requests"; }  # the paths a site was asked for

echo '<p>nothing here</p>' > S2.html
start_site S2; P2=$SITE_PORT
cp S2.html S2/files/index.html
start_site S1; P1=$SITE_PORT
cat > S1/files/index.html <<HTML
<a href="/page2.html">own page</a>
<a href="http://127.0.0.1:$P2/secret">another local site</a>
<a href="http://localhost:$P1/by-name">this site by another name</a>
<a href="http://[::ffff:127.0.0.1]:$P2/mapped">IPv4-mapped</a>
HTML
echo '<p>two</p>' > S1/files/page2.html

crawl() {  # F: lease, fetch, done until nothing is left (FRONTIER_NOW steps on)
    local f=$1 now=$FRONTIER_NOW
    for _ in $(seq 30); do
        now=$((now + 60))
        FRONTIER_NOW=$now frontier-lease -q -f "$f" -n 50 > leased.jsonl || true
        [ -s leased.jsonl ] || { FRONTIER_NOW=$now frontier-lease -q -f "$f" -n 50 > leased.jsonl || true; }
        [ -s leased.jsonl ] || break
        cat leased.jsonl >> "leases_$f.jsonl"
        fetch -q --links < leased.jsonl | FRONTIER_NOW=$now frontier-done -q -f "$f"
    done
}
reasons() {  # F: "url reason" of every finished URL, sorted
    frontier-export -q -f "$1" | jq -r 'select(.table == "urls") | "\(.url) \(.state) \(.reason // "-")"' | sort
}

# ---- defaults: the seed's host only
frontier-config -f d.db scope.seed-domains false
frontier-config -f d.db politeness.min-delay 0 > /dev/null
echo "http://127.0.0.1:$P1/" | frontier-add -q -f d.db
crawl d.db
[ ! -s S2/requests ] || fail "S2 was requested: $(cat S2/requests)"
paths S1 | grep -qx /page2.html || fail "S1's own page was not fetched: $(cat S1/requests)"
paths S1 | grep -c >/dev/null by-name && fail "S1 was fetched as localhost"
got=$(reasons d.db)
echo "$got"
want="http://127.0.0.1:$P1/ 2 -
http://127.0.0.1:$P1/page2.html 2 -
http://127.0.0.1:$P2/secret 3 blocked-address
http://[::ffff:127.0.0.1]:$P2/mapped 3 blocked-address
http://localhost:$P1/by-name 3 blocked-address"
[ "$got" = "$(printf '%s\n' "$want" | sort)" ] || fail "states and reasons (state 2 done, 3 failed): expected
$want"
jq -e -s 'map(select(.url | contains("/secret"))) | length >= 1 and all(.addresses == "public")' leases_d.db.jsonl > /dev/null ||
    fail "the link to S2 was not leased as public only"
jq -e -s "map(select(.url == \"http://127.0.0.1:$P1/\")) | .[0].addresses == \"public,loopback,private,special\"" \
    leases_d.db.jsonl > /dev/null || fail "the seed was not leased with the local kinds"
echo "ok: defaults: S2 got no request; 3 links blocked-address"

# ---- net.allow ["loopback"]: every URL may reach loopback addresses
frontier-config -f a.db scope.seed-domains false
frontier-config -f a.db politeness.min-delay 0 > /dev/null
frontier-config -f a.db net.allow '["loopback"]'
echo "http://127.0.0.1:$P1/" | frontier-add -q -f a.db
crawl a.db
paths S2 | grep -qx /secret || fail "net.allow loopback: S2 /secret not fetched"
paths S2 | grep -qx /mapped || fail "net.allow loopback: S2 /mapped not fetched"
[ "$(reasons a.db | grep -c blocked-address || true)" = 0 ] || fail "net.allow loopback: still blocked: $(reasons a.db)"
echo "ok: net.allow loopback: S2 fetched"

# ---- net.seed-hosts false: the seed itself is refused
: > S1/requests
frontier-config -f n.db net.seed-hosts false
echo "http://127.0.0.1:$P1/" | frontier-add -q -f n.db
crawl n.db
[ ! -s S1/requests ] || fail "net.seed-hosts false: S1 was requested: $(cat S1/requests)"
[ "$(reasons n.db)" = "http://127.0.0.1:$P1/ 3 blocked-address" ] || fail "net.seed-hosts false: $(reasons n.db)"
echo "ok: net.seed-hosts false: the seed is blocked"

# ---- bad values are refused, naming the key
frontier-config -f n.db net.allow '["intranet"]' 2> bad.err && fail "net.allow [\"intranet\"] accepted"
grep -q "net.allow" bad.err || fail "net.allow error: $(cat bad.err)"

# ---- fetch alone
: > S1/requests
printf '%s\n' "http://127.0.0.1:$P1/a" "{\"url\":\"http://127.0.0.1:$P1/b\",\"addresses\":\"public\"}" \
    "{\"url\":\"http://127.0.0.1:$P1/c\",\"addresses\":\"loopback\"}" \
    "{\"url\":\"http://127.0.0.1:$P1/d\",\"addresses\":\"intranet\"}" > in.jsonl
fetch -q < in.jsonl > out.jsonl && fail "fetch: bad input exited 0"
[ "$(jq -r 'select(.url | endswith("/a")) | "\(.status) \(.ip)"' out.jsonl)" = "404 127.0.0.1" ] || fail "fetch /a: $(cat out.jsonl)"
[ "$(jq -r 'select(.url | endswith("/b")) | .error_class' out.jsonl)" = blocked-address ] || fail "fetch /b: $(cat out.jsonl)"
jq -r 'select(.url | endswith("/b")) | .error' out.jsonl | grep -c >/dev/null '127.0.0.1 is a loopback address' || fail "fetch /b error message"
[ "$(jq -r 'select(.url | endswith("/c")) | .status' out.jsonl)" = 404 ] || fail "fetch /c: $(cat out.jsonl)"
[ "$(jq -r 'select(.url | endswith("/d")) | .error_class' out.jsonl)" = bad-input ] || fail "fetch /d: $(cat out.jsonl)"
[ "$(paths S1 | sort | tr '\n' ' ')" = "/a /c " ] || fail "fetch: S1 requests $(cat S1/requests)"
echo "http://127.0.0.1:$P1/e" | fetch -q --addresses public,private > e.jsonl
[ "$(jq -r .error_class e.jsonl)" = blocked-address ] || fail "fetch --addresses public,private: $(cat e.jsonl)"
fetch --addresses nonsense < /dev/null 2> usage.err && fail "fetch --addresses nonsense accepted"
echo "ok: fetch --addresses and the addresses key"

# ---- migration from version 2: hosts of existing seeds are marked
printf '%s\n' http://s.example/ '{"url":"http://t.example/x","discovery":"link"}' > m.txt
frontier-config -f m.db scope.seed-domains false
frontier-add -q -f m.db m.txt
# Back to version 2: without version 3's column, version 4's aggregates,
# version 5's lease holders, version 6's urls_next (recrawl appended),
# version 7's fingerprint tables and version 8's lease order tables (and
# version 9's one trigger for them).
sqlite3 m.db "DROP TABLE url_fps; DROP TABLE url_fps_new; CREATE INDEX urls_fp ON urls(fp);
              ALTER TABLE hosts DROP COLUMN seed; ALTER TABLE queues DROP COLUMN bytes; DROP TABLE timeline;
              DROP INDEX urls_failed; DROP INDEX urls_seed;
              ALTER TABLE urls DROP COLUMN holder; ALTER TABLE hosts DROP COLUMN robots_holder; DROP TABLE lease_holders;
              DROP TRIGGER url_next_delete; DROP TABLE url_next; DROP TABLE url_next_new;
              CREATE INDEX urls_next ON urls(queue_id, rank, tier, tier_key, cost, id) WHERE state = 0 AND due_at IS NULL;
              DELETE FROM counters WHERE name LIKE 'heatd:%' OR name LIKE 'status:%' OR name LIKE 'crawl:%'
                  OR name LIKE 'visit:%';
              PRAGMA user_version = 2"
frontier-config -f m.db net.seed-hosts true
frontier-config -f fresh-version.db net.seed-hosts true
[ "$(sqlite3 m.db 'PRAGMA user_version')" = "$(sqlite3 fresh-version.db 'PRAGMA user_version')" ] ||
    fail "not migrated to the current version"
[ "$(sqlite3 m.db "SELECT name || ' ' || coalesce(seed, 0) FROM hosts ORDER BY name" | tr '\n' ' ')" = \
  "http://s.example 1 http://t.example 0 " ] || fail "migration: $(sqlite3 m.db 'SELECT * FROM hosts')"
echo "ok: migration marks the seeds' hosts"
