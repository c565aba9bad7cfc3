# A real crawl of a two-host local site through the whole pipeline:
# every allowed, reachable page is fetched exactly once; no disallowed page is fetched.
# CRAWL_PIPELINES=N runs N pipelines on the frontier at once (as N machines
# would on a PostgreSQL frontier: tests/pg/run.sh uses 3); the same holds.
set -euo pipefail
source "$ROOT/tests/tools/nginx.sh"
mkdir site
nginx_start "$PWD/site" 2
trap nginx_stop EXIT
read -r P1 P2 <<<"$NGINX_PORTS"
python3 "$ROOT/tests/tools/make-site.py" site 40 --private 3 --base "http://127.0.0.1:$P1" "http://127.0.0.1:$P2"
F=${E2E_FRONTIER:-crawl.db}   # tests/pg/run.sh: a postgresql:// database
source "$ROOT/tests/tools/fsql.bash"
frontier-config -f $F politeness.min-delay 0.01
frontier-config -f $F politeness.delay-factor 0
# The second site is reached by a link only; on 127.0.0.1 it is a loopback
# address that the address guard keeps for seeds' hosts unless allowed.
frontier-config -f $F net.allow '["loopback"]'
echo "http://127.0.0.1:$P1/index.html" | frontier-add -q -f $F
pids=()
for p in $(seq "${CRAWL_PIPELINES:-1}"); do
    ( timeout 120 frontier-lease -f $F --follow --poll-interval 0.05 | fetch --links | frontier-done -f $F > "done$p.jsonl"
      rc="${PIPESTATUS[*]}"; echo "pipeline $p exit codes: $rc"; [ "$rc" = "0 0 0" ] ) &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
cat done[0-9]*.jsonl > done.jsonl
python3 - "$(nginx_log)" "$P1" "$P2" <<'PY'
import collections, re, sys, os
log, p1, p2 = sys.argv[1], sys.argv[2], sys.argv[3]
hits = collections.Counter()
for line in open(log):
    port, uri, status = line.split()
    hits[(port, uri)] += 1
# Expected: BFS over the generated site from index.html on port 1, following
# links that are not nofollow, never into /private/.
def links(path):
    text = open("site" + path).read()
    out = []
    for m in re.finditer(r'<a href="([^"]+)"( rel="nofollow")?', text):
        href, nofollow = m.group(1), m.group(2)
        if nofollow: continue
        yield href.split("#")[0]
def resolve(port, base, href):
    m = re.match(r"http://127\.0\.0\.1:(\d+)(/.*)", href)
    if m: return m.group(1), m.group(2)
    if href.startswith("/"): return port, href
    return port, os.path.normpath(os.path.join(os.path.dirname(base), href))
seen = set(); todo = [(p1, "/index.html")]
while todo:
    port, path = todo.pop()
    if (port, path) in seen or path.startswith("/private/"): continue
    seen.add((port, path))
    for h in links(path): todo.append(resolve(port, path, h))
errors = []
for k in seen:
    if hits[k] != 1: errors.append(f"{k} fetched {hits[k]} times")
for (port, uri), n in hits.items():
    if uri.startswith("/private/"): errors.append(f"disallowed {port} {uri} fetched")
    if uri == "/robots.txt" and n != 1: errors.append(f"robots.txt of {port} fetched {n} times")
    if uri not in ("/robots.txt", "/") and (port, uri) not in seen: errors.append(f"unexpected fetch {port} {uri}")
print(f"{len(seen)} pages expected, {sum(hits.values())} requests")
if errors:
    print("\n".join(errors[:20])); sys.exit(1)
PY
# Frontier state: nothing queued or leased; the private pages are blocked by robots.txt.
test "$(fsql "select count(*) from urls where state in (0,1)")" = 0
blocked=$(fsql "select count(*) from urls where state = 4 and reason = 'robots'"); echo "blocked: $blocked"; test "$blocked" = 6
echo "done results: $(grep -c "\"result\":\"done\"" done.jsonl)"
