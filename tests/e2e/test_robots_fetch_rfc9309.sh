# robots.txt fetching per RFC 9309, against tests/tools/robots_server.py
# (127.0.0.1 only):
#  - 2.5: a 60 MB robots.txt (with Content-Length, and chunked) under a
#    --max-size of 1 MB is read up to its first 512,000 bytes and reported
#    as a 200 with that prefix (WARC-Truncated: length), not as too-large;
#    frontier-done obeys the rules in the prefix, drops the line cut in the
#    middle and ignores what follows; the host is not unreachable.
#  - 2.3.1.2: 5 redirects (across authorities) are followed; a loop, a 6th
#    redirect or a redirect to ftp:// or file: is reported as the 3xx with
#    its location, no error, and frontier-done reads it as "unavailable":
#    allow all (before: too-many-redirects / protocol, so unreachable, and
#    with retry.max 0 every URL of the host failed robots-unreachable).
set -euo pipefail
export FRONTIER_NOW=1800000000
: "${ROOT:?ROOT must point at the repository}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
python3 "$ROOT/tests/tools/robots_server.py" . > /dev/null 2> server.log &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
source "$ROOT/tests/tools/wait_port.bash"
modes="huge chunked loop chain5 chain6 ftp file final"
for m in $modes; do
    wait_for_port "port_$m" "$server" robots_server.py server.log
done
port() { cat "port_$1"; }

# ---------------------------------------------------------------- 1. fetch
{ for m in huge chunked loop chain5 chain6 ftp file; do
      echo "{\"url\":\"http://127.0.0.1:$(port $m)/robots.txt\",\"robots\":true,\"mode\":\"$m\"}"
  done
  echo "{\"url\":\"http://127.0.0.1:$(port huge)/robots.txt\",\"mode\":\"huge-page\"}"; } > jobs.jsonl
t0=$(date +%s)
timeout 120 fetch --max-size 1000000 --timeout 20 --conn-retry 0 -q --warc warc/w jobs.jsonl > fetch.out
echo "fetch: $(wc -l < fetch.out) results in $(( $(date +%s) - t0 )) s"
python3 - "$(port final)" <<'PY'
import glob, gzip, json, sys
final = sys.argv[1]
rows = {json.loads(l)["mode"]: json.loads(l) for l in open("fetch.out")}
errors = []
def want(mode, cond, what):
    r = rows.get(mode)
    if r is None: errors.append(f"{mode}: no result"); return
    if not cond(r): errors.append(f"{mode}: {what}: {json.dumps(r)[:400]}")
for m in ("huge", "chunked"):
    want(m, lambda r: r["status"] == 200 and "error_class" not in r, "a 200 without error expected")
    want(m, lambda r: len(r.get("body", "")) == 512000 and r["body"].endswith("Disallow: /p"), "body = the first 512000 bytes")
    want(m, lambda r: r.get("bytes") == 512000 and "content_hash" not in r, "bytes 512000, no content_hash")
want("huge-page", lambda r: r.get("error_class") == "too-large", "a page over --max-size is still too-large")
want("chain5", lambda r: r["status"] == 200 and r.get("body") == "User-agent: *\nDisallow: /private\n", "5 redirects followed")
for m, loc in (("loop", "/robots.txt"), ("chain6", f"http://127.0.0.1:{final}/robots.txt"),
               ("ftp", "ftp://127.0.0.1:1/robots.txt"), ("file", "file:///etc/passwd")):
    want(m, lambda r, loc=loc: 300 <= r["status"] < 400 and "error_class" not in r and r.get("location", "").endswith(loc),
         f"a 3xx with location {loc}, no error")
warc = b"".join(gzip.open(f).read() for f in sorted(glob.glob("warc/w-*.warc.gz")))
if warc.count(b"WARC-Truncated: length") != 3:  # huge, chunked (robots) and huge-page (too-large)
    errors.append(f"WARC-Truncated: length {warc.count(b'WARC-Truncated: length')} times, expected 3")
print(f"fetch: {len(rows)} results checked")
if errors: print("\n".join(errors)); sys.exit(1)
PY

# ---------------------------------------------------------------- 2. a crawl
F=crawl.db
frontier-config -f $F politeness.min-delay 0
frontier-config -f $F politeness.delay-factor 0
frontier-config -f $F retry.max 0  # an unreachable robots.txt fails its host at once
{ for m in huge chunked loop chain5 chain6 ftp file; do
      for p in page.html private/x f000001 late.html; do echo "http://127.0.0.1:$(port $m)/$p"; done
  done; } | frontier-add -q -f $F
timeout 120 frontier-lease -f $F --follow --poll-interval 0.02 \
    | fetch --max-size 1000000 --timeout 20 --conn-retry 0 -q | frontier-done -f $F > done.out
echo "crawl: lease/fetch/done exit ${PIPESTATUS[*]}"
frontier-report -f $F --check
python3 - "$F" <<'PY'
import json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
ports = {m: open(f"port_{m}").read().strip() for m in ("huge", "chunked", "loop", "chain5", "chain6", "ftp", "file")}
state = {u: (s, r) for u, s, r in con.execute("SELECT url, state, reason FROM urls")}
names = {2: "done", 3: "failed", 4: "blocked"}
errors = []
def want(mode, path, st):
    url = f"http://127.0.0.1:{ports[mode]}/{path}"
    got = state.get(url)
    if got is None or names.get(got[0]) != st:
        errors.append(f"{mode} /{path}: {got}, expected {st}")
for m in ("huge", "chunked"):  # the first 512,000 bytes apply, the rest not
    want(m, "private/x", "blocked"); want(m, "f000001", "blocked")
    want(m, "page.html", "done"); want(m, "late.html", "done")
want("chain5", "private/x", "blocked"); want("chain5", "page.html", "done")
for m in ("loop", "chain6", "ftp", "file"):  # unavailable: allow all
    for p in ("private/x", "page.html", "f000001"): want(m, p, "done")
results = [json.loads(l) for l in open("done.out")]
bad = [r for r in results if r.get("robots") and r["result"] != "done"]
if bad: errors.append(f"robots.txt results not done: {bad}")
print(f"crawl: {len(results)} results, states "
      f"{dict(con.execute('SELECT state, count(*) FROM urls GROUP BY state').fetchall())}")
if errors: print("\n".join(errors)); sys.exit(1)
PY
