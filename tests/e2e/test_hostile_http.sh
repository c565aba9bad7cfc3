# Hostile servers (tests/server/hostile.py, 127.0.0.1 only): broken headers,
# no status line, NUL bytes in headers, endless and trickling bodies, a gzip
# bomb, bodies that lie about their encoding, redirects to other schemes and
# to 100 KB locations, hostile HTML, a page of 40,000 links, robots.txt of
# 10 MB, of binary garbage, and redirected to ftp://.
#  1. fetch: one result per URL, each a valid JSON line under 1 MiB with the
#     expected status / error class; no crash, bounded time.
#  2. A crawl through frontier-lease | fetch --links | frontier-done over
#     three hostile hosts finishes: frontier-done accepts every result (before
#     the fix, the 40,000-link page and the binary robots.txt gave lines over
#     1 MiB that it rejected, so they were leased again and again), the
#     robots.txt of 10 MB still blocks /private, the binary one allows all,
#     the one redirected to ftp:// allows all (RFC 9309: unavailable), and
#     frontier-report --check passes.
set -euo pipefail
export FRONTIER_NOW=1800000000
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
start_hostile() {  # name [robots kind]
    python3 "$ROOT/tests/server/hostile.py" "port_$1" ${2:-} > /dev/null 2> "server_$1.log" &
    pids+=($!)
    hostile_pid[$1]=$!
}
declare -A hostile_pid
source "$ROOT/tests/tools/wait_port.bash"
start_hostile A
start_hostile B huge
start_hostile C binary
start_hostile D redirect
for n in A B C D; do
    wait_for_port "port_$n" "${hostile_pid[$n]}" "server $n" "server_$n.log"
done
A=$(cat port_A); B=$(cat port_B); C=$(cat port_C); D=$(cat port_D)

# ---------------------------------------------------------------- 1. fetch
# Endless streams on A; the other paths on C and D; robots.txt records on
# B (10 MB), C (binary) and D (redirected to ftp://), each served as that
# host's /robots.txt.
heavy="endless endless-length gzip-bomb trickle"
light="broken-length two-lengths no-status status-999 header-flood long-header nul-header bad-chunks lying-gzip
redirect-ftp redirect-file redirect-js redirect-data redirect-huge redirect-crlf hostile.html many-links.html html-binary"
{ for p in $heavy; do echo "http://127.0.0.1:$A/$p"; done
  k=0; for p in $light; do k=$((k + 1)); [ $((k % 2)) = 0 ] && echo "http://127.0.0.1:$C/$p" || echo "http://127.0.0.1:$D/$p"; done
  for port in $B $C $D; do echo "{\"url\":\"http://127.0.0.1:$port/robots.txt\",\"robots\":true}"; done; } > urls.txt
t0=$(date +%s)
timeout 120 fetch --links --timeout 6 --max-size 16000000 --conn-retry 0 -c 32 --per-host 32 -q urls.txt > fetch.out
echo "fetch: $(wc -l < fetch.out) results in $(( $(date +%s) - t0 )) s"
python3 - "$B" "$C" "$D" <<'PY'
import json, sys
robots = dict(zip(sys.argv[1:], ("robots-huge.txt", "robots-binary.txt", "robots-redirect.txt")))
errors = []
rows = {}
for raw in open("fetch.out", "rb"):
    if len(raw) >= 1000000: errors.append(f"result line of {len(raw)} bytes")
    r = json.loads(raw)
    port, path = r["url"].split("/", 3)[2].split(":")[1], r["url"].split("/", 3)[3]
    rows[robots[port] if path == "robots.txt" else path] = r
def want(path, status=None, error_class=None, **extra):
    r = rows.get(path)
    if r is None:
        errors.append(f"{path}: no result"); return
    if status is not None and r["status"] != status: errors.append(f"{path}: status {r['status']}, expected {status}")
    ec = r.get("error_class")
    if error_class == "any":
        if not ec: errors.append(f"{path}: no error_class")
    elif ec != error_class: errors.append(f"{path}: error_class {ec}, expected {error_class} ({r.get('error')})")
    for k, v in extra.items():
        if not v(r): errors.append(f"{path}: {k} fails: {str(r)[:300]}")
want("broken-length", error_class="protocol")
want("two-lengths", error_class="any")
want("no-status", status=0, error_class="protocol")
want("status-999", status=999, error_class=None)
want("header-flood", error_class="any")
want("long-header", error_class="any")
want("nul-header", error_class="protocol")
for p in ("endless", "endless-length", "gzip-bomb"): want(p, error_class="too-large")
want("trickle", error_class="timeout")
want("bad-chunks", error_class="any")
want("lying-gzip", error_class="protocol")
for p, loc in (("redirect-ftp", "ftp://"), ("redirect-file", "file:"), ("redirect-js", "javascript:"),
               ("redirect-data", "data:"), ("redirect-crlf", "http://127.0.0.1")):
    want(p, status=301, error_class=None, location=lambda r, loc=loc: r.get("location", "").startswith(loc))
want("redirect-huge", status=301, error_class=None, location=lambda r: len(r.get("location", "")) > 100000)
def good_links(r):
    urls = [l["url"] for l in r.get("links", [])]
    base = r["url"].rsplit("/", 1)[0]
    ok = all(u.startswith(base + "/") and len(u) <= 8300 for u in urls)
    return ok and all(f"{base}/good/{i}.html" in urls for i in range(1, 6))
want("hostile.html", status=200, error_class=None, links=good_links)
want("many-links.html", status=200, error_class=None,
     truncated=lambda r: r.get("links_truncated") is True and len(r["links"]) > 5000)
want("html-binary", status=200, error_class=None)
want("robots-huge.txt", status=200, error_class=None, body=lambda r: r.get("body", "").startswith("User-agent: *\nDisallow: /private\n"))
want("robots-binary.txt", status=200, error_class=None, body=lambda r: len(r.get("body", "")) > 100000)
want("robots-redirect.txt", status=302, error_class=None, location=lambda r: r.get("location", "").startswith("ftp://"))
print(f"fetch: {len(rows)} results checked")
if errors: print("\n".join(errors)); sys.exit(1)
PY

# ---------------------------------------------------------------- 2. a crawl
F=crawl.db
frontier-config -f $F politeness.min-delay 0
frontier-config -f $F politeness.delay-factor 0
frontier-config -f $F politeness.max-in-flight 4
frontier-config -f $F scope.max-depth 1
frontier-config -f $F scope.exclude '["/many/"]'
frontier-config -f $F retry.max 0
{ for p in hostile.html many-links.html html-binary status-999 no-status nul-header redirect-ftp redirect-js \
           redirect-huge lying-gzip private/x page.html; do echo "http://127.0.0.1:$B/$p"; done
  for p in page.html many-links.html; do echo "http://127.0.0.1:$C/$p"; done
  for p in page.html; do echo "http://127.0.0.1:$D/$p"; done; } | frontier-add -q -f $F
timeout 120 frontier-lease -f $F --follow --poll-interval 0.02 \
    | fetch --links --timeout 4 --conn-retry 0 -q | frontier-done -f $F > done.out
echo "crawl: lease/fetch/done exit ${PIPESTATUS[*]}"
frontier-report -f $F --check
python3 - "$F" "$B" "$C" "$D" <<'PY'
import json, sqlite3, sys
db, b, c, d = sys.argv[1:]
errors = []
results = [json.loads(l) for l in open("done.out")]
rejected = [r for r in results if r["result"] == "rejected"]
if rejected: errors.append(f"frontier-done rejected {len(rejected)} results: {str(rejected[0])[:300]}")
con = sqlite3.connect(db)
state = {u: (s, reason) for u, s, reason in con.execute("SELECT url, state, reason FROM urls")}
def want(url, st, reason=None):
    got = state.get(url)
    if got is None or got[0] != st or (reason and got[1] != reason): errors.append(f"{url}: {got}, expected {st} {reason}")
want(f"http://127.0.0.1:{b}/private/x", 4, "robots")            # the 10 MB robots.txt still applies
want(f"http://127.0.0.1:{b}/page.html", 2)
want(f"http://127.0.0.1:{b}/many-links.html", 2)
want(f"http://127.0.0.1:{b}/hostile.html", 2)
want(f"http://127.0.0.1:{b}/good/5.html", 2)
want(f"http://127.0.0.1:{b}/no-status", 3, "protocol")
want(f"http://127.0.0.1:{c}/page.html", 2)                      # binary robots.txt: allow all
want(f"http://127.0.0.1:{d}/page.html", 2)  # robots.txt redirected to ftp://: unavailable, allow all
many = [r for r in results if r["url"].endswith("/many-links.html")]
if not many or any(r["links_rejected"] < 5000 for r in many): errors.append(f"many-links: {str(many)[:300]}")
leases = dict(con.execute("SELECT url, attempts FROM urls WHERE attempts > 1").fetchall())
if leases: errors.append(f"leased more than once: {leases}")
print(f"crawl: {len(results)} results, {len(state)} URLs, states "
      f"{dict(con.execute('SELECT state, count(*) FROM urls GROUP BY state').fetchall())}")
if errors: print("\n".join(errors)); sys.exit(1)
PY
