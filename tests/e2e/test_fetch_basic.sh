# fetch: every result field against the local test server: pass-through,
# status, timings, hash, validators and 304, redirects (reported; followed
# for robots), gzip, Retry-After, too-large, reset, bad input and exit 1.
. "$ROOT/tests/server/common.sh"
start_server
cat > in.jsonl <<IN
$BASE/page.html
{"url":"$BASE/etag","lease":"L2","meta":{"k":[1,2]},"etag":"\"v1\"","content_hash":"00000000000000aa"}
{"url":"$BASE/etag","http_last_modified":"Tue, 14 Nov 2023 22:13:20 GMT","content_hash":"00000000000000bb"}
{"url":"$BASE/etag","http_last_modified":1600000000}
$BASE/redirect?to=/elsewhere&code=302
{"url":"$BASE/chain/3","robots":true}
$BASE/gzip
$BASE/retry-after?v=7
$BASE/retry-after-date?s=100
$BASE/big?size=5000
$BASE/bigchunked?size=5000
$BASE/close
$BASE/headers
not a url
{"url": 5}
{"broken
$BASE/status/404
IN
rc=0
fetch --max-size 4000 --user-agent "test-agent/9" < in.jsonl > out.jsonl 2> err.txt || rc=$?
cat err.txt
[ "$rc" -eq 1 ] || { echo "exit $rc, want 1 (bad input)"; exit 1; }
python3 - "$BASE" <<'PY'
import json, sys, hashlib
base = sys.argv[1]
rows = [json.loads(l) for l in open("out.jsonl")]
assert len(rows) == 17, len(rows)
bad = [r for r in rows if r.get("error_class") == "bad-input"]
assert sorted(r["line"] for r in bad) == [14, 15, 16], bad
assert all(r["status"] == 0 and r["error"] for r in bad)
by = {}
for r in rows:
    if "url" in r and isinstance(r["url"], str):
        by.setdefault(r["url"], []).append(r)
def one(path):
    got = by[base + path]
    assert len(got) == 1, got
    return got[0]
p = one("/page.html")
for k in ("status", "fetched_at", "duration_ms", "ttfb_ms", "bytes", "content_type", "content_hash"):
    assert k in p, (k, p)
assert p["status"] == 200 and p["bytes"] == 342 and p["content_type"] == "text/html"
assert len(p["content_hash"]) == 16 and "error_class" not in p and "links" not in p and "body" not in p
assert isinstance(p["fetched_at"], float) and p["duration_ms"] >= p["ttfb_ms"] >= 0
e = [r for r in by[base + "/etag"]]
e304 = [r for r in e if r.get("lease") == "L2"][0]
assert e304["status"] == 304 and e304["content_hash"] == "00000000000000aa", e304
assert e304["meta"] == {"k": [1, 2]} and e304["etag"] == '"v1"' and e304["http_last_modified"] == 1700000000
ims = [r for r in e if r.get("content_hash") == "00000000000000bb"][0]
assert ims["status"] == 304, ims
fresh = [r for r in e if r["status"] == 200][0]
assert fresh["bytes"] == 9 and fresh["etag"] == '"v1"' and fresh["http_last_modified"] == 1700000000
red = one("/redirect?to=/elsewhere&code=302")
assert red["status"] == 302 and red["location"] == base + "/elsewhere", red
rob = one("/chain/3")
assert rob["status"] == 200 and rob["robots"] is True and rob["body"].startswith("User-agent: *"), rob
assert "location" not in rob
gz = one("/gzip")
assert gz["status"] == 200 and gz["bytes"] == 342 and gz["content_hash"] == p["content_hash"], gz
ra = one("/retry-after?v=7")
assert ra["status"] == 429 and ra["retry_after"] == 7, ra
rd = one("/retry-after-date?s=100")
assert rd["status"] == 503 and 95 <= rd["retry_after"] <= 101, rd
for path in ("/big?size=5000", "/bigchunked?size=5000"):
    t = one(path)
    assert t["error_class"] == "too-large" and "content_hash" not in t, t
c = one("/close")
assert c["error_class"] == "reset" and c["error"], c
h = one("/headers")
assert h["status"] == 200
nf = one("/status/404")
assert nf["status"] == 404 and nf["bytes"] == 10
print("ok")
PY
# The User-Agent option and the default.
echo "$BASE/headers" | fetch --body -q | grep -q 'test-agent' && { echo "UA leaked"; exit 1; }
echo "$BASE/headers" | fetch --body -q --user-agent "test-agent/9" | grep -q 'test-agent/9'
echo "$BASE/headers" | fetch --body -q | grep -q 'frontier/0.1.0 (+crawl-frontier; libcurl/'
# If-None-Match and If-Modified-Since are sent as given.
printf '%s\n' "{\"url\":\"$BASE/headers\",\"etag\":\"\\\"q\\\"\",\"http_last_modified\":784111777}" |
    fetch --body -q > h.jsonl
grep -q 'If-None-Match' h.jsonl && grep -q 'Sun, 06 Nov 1994 08:49:37 GMT' h.jsonl
# --per-host 4 on plain http: four slow requests to a new host go at once
# (about 1 s), not one first and then three (about 2 s, when fetch waited to
# learn whether the first connection could multiplex).
for i in 1 2 3 4; do echo "$BASE/delay/1?i=$i"; done > slow.txt
t0=$(date +%s%N)
fetch -q --per-host 4 slow.txt > slow.jsonl
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$(grep -c '"status":200' slow.jsonl)" = 4 ] || { echo "slow requests failed"; exit 1; }
[ $ms -lt 1800 ] || { echo "4 requests to a new http host took $ms ms: not in parallel"; exit 1; }
echo PASS
