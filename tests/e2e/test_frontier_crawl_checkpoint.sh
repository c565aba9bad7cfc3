# frontier-crawl copies the write-ahead log into the frontier file each
# second while the crawl runs (frontier-crawl(1)): the log stays small, and
# closing the frontier at the end (which copies the rest and deletes the
# log) is quick. Mid-crawl, the file alone (copied without its -wal) holds
# the pages finished more than a second before; after the crawl there is no
# -wal beside it.
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
source "$ROOT/tests/tools/nginx.sh"
fail() { echo "FAIL: $*"; exit 1; }

# 24 pages, each answered after a quarter of a second, two at a time: the
# crawl runs about three seconds, a second past the look at its file.
N=24
nginx_slow_pages "$N" 0.25
trap 'kill "$(cat ng/nginx.pid)" 2>/dev/null || true' EXIT

frontier-crawl -q -o out -c 2 --set politeness.min-delay=0 --set politeness.delay-factor=0 \
    --set politeness.max-in-flight=2 --set robots.enabled=false "http://127.0.0.1:$PORT/index.html" 2> crawl.err &
crawl=$!
# Once 6 pages are answered (1.5 s in), and again a second later.
for _ in $(seq 200); do [ "$(grep -c '^/p/' ng/access.log || true)" -ge 6 ] && break; sleep 0.02; done
sleep 1.1
kill -0 "$crawl" 2>/dev/null || fail "the crawl ended before it was looked at: $(cat crawl.err)"
# The file without its log: what was copied into it (again if the copy
# met a checkpoint under way and reads torn).
for _ in 1 2 3; do
    cp out/crawl.db alone.db
    done_alone=$(sqlite3 "file:alone.db?immutable=1" "SELECT count(*) FROM urls WHERE state = 2" 2>&1 || true)
    [[ "$done_alone" =~ ^[0-9]+$ ]] && break
done
wait "$crawl" || fail "frontier-crawl exit $?: $(cat crawl.err)"
[ "$(sqlite3 out/crawl.db "SELECT count(*) FROM urls WHERE state = 2")" = $((N + 1)) ] || fail "not every page done"
[ ! -e out/crawl.db-wal ] || fail "a -wal is left beside the frontier"
[ "$done_alone" -ge 3 ] 2>/dev/null || fail "mid-crawl, the file alone holds $done_alone finished pages, want 3 or more"
echo "ok: mid-crawl the file alone held $done_alone finished pages; no log left at the end"
