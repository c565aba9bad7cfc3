# Memory bounded by settings, not by input (fetch(1), --max-memory): the
# hostile corpus of the fault campaign, served by tests/server/hostile.py on
# 127.0.0.1, at once (-c 32 --per-host 32):
#   8 pages of 33 MB, each with 2,360,000 distinct links (made as they are
#   sent; the same page under 8 URLs), a gzip sitemap bomb (7.5 MB of gzip,
#   180 MB inflated, 2,900,000 entries), two endless chunked bodies and a
#   Content-Encoding gzip bomb.
#  1. fetch --links stays under 64 MiB of RSS. Every URL
#     has one result; the big pages are read whole (bytes, one content_hash
#     for all 8) but their links come from the prefix the budget kept:
#     links_truncated, at most 50,000 links, lines under 1,000,000 bytes; the
#     sitemap gives at most 50,000 entries; the endless bodies and the bomb
#     end too-large at --max-size, counted in decoded bytes.
#  2. With --warc, two big pages at once: what does not fit in memory goes to
#     a temporary file, and each response record still holds the whole page
#     (payload length and digest of what was served); under 64 MiB.
#  3. frontier-done ingests the results of 1 into a frontier under 64 MiB.
set -euo pipefail
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
server="$ROOT/tests/server/hostile.py"
python3 "$server" --make-sitemap-bomb sitemap-bomb.xml.gz   # served from here
python3 "$server" port > /dev/null 2> server.log &
pids+=($!)
source "$ROOT/tests/tools/wait_port.bash"
wait_for_port port "${pids[-1]}" server server.log
P=$(cat port)
B="http://127.0.0.1:$P"

# AddressSanitizer's shadow memory and quarantine make RSS meaningless there.
asan=$(nm "$(command -v fetch)" 2>/dev/null | grep -c __asan_init || true)
check_rss() {  # name file
    local kb; kb=$(tail -1 "$2")
    echo "$1: peak RSS $kb KB"
    if [ "$asan" -gt 0 ]; then return 0; fi
    [ "$kb" -lt $((64 * 1024)) ] || { echo "FAIL: $1 used $kb KB (>= 64 MiB)"; exit 1; }
}

# ------------------------------------------------------------ 1. fetch --links
F=crawl.db
frontier-config -f $F robots.enabled false
frontier-config -f $F politeness.max-in-flight 100
frontier-config -f $F politeness.min-delay 0
frontier-config -f $F politeness.delay-factor 0
{ for i in 1 2 3 4 5 6 7 8; do echo "$B/huge-links.html?i=$i"; done
  echo "$B/sitemap-bomb.xml.gz"; echo "$B/endless?i=1"; echo "$B/endless?i=2"; echo "$B/gzip-bomb"; } > urls.txt
frontier-add -q -f $F < urls.txt
frontier-lease -f $F -n 100 --per-queue 100 > leases.jsonl
[ "$(wc -l < leases.jsonl)" = 12 ] || { echo "FAIL: $(wc -l < leases.jsonl) leases"; cat leases.jsonl; exit 1; }
t0=$(date +%s.%N)
/usr/bin/time -f "%M" -o fetch.rss timeout 120 fetch -q --links -c 32 --per-host 32 --timeout 30 leases.jsonl > res.jsonl
echo "fetch --links: $(wc -l < res.jsonl) results in $(python3 -c "import time; print(round(time.time() - $t0, 1))") s"
check_rss "fetch --links" fetch.rss
python3 - "$server" <<'PY'
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("hostile", sys.argv[1]); hostile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hostile)
errors = []
raw = open("res.jsonl", "rb").read().splitlines()
rows = {}
for line in raw:
    if len(line) >= 1000000: errors.append(f"result line of {len(line)} bytes")
    r = json.loads(line)
    if r["url"] in rows: errors.append(f"two results for {r['url']}")
    rows[r["url"]] = r
want = [l.strip() for l in open("urls.txt")]
if sorted(rows) != sorted(want): errors.append(f"results for {sorted(rows)}, expected {sorted(want)}")
hashes = set()
for u, r in rows.items():
    path = u.split("/", 3)[3]
    if path.startswith("huge-links.html"):
        links = r.get("links", [])
        if r["status"] != 200 or r.get("error_class"): errors.append(f"{path}: {r['status']} {r.get('error')}")
        if r.get("bytes") != hostile.huge_links_size(): errors.append(f"{path}: bytes {r.get('bytes')}")
        if r.get("links_truncated") is not True: errors.append(f"{path}: links_truncated {r.get('links_truncated')}")
        if not 1000 <= len(links) <= 50000: errors.append(f"{path}: {len(links)} links")
        if links and links[0]["url"] != u.split("/huge")[0] + "/0000": errors.append(f"{path}: first link {links[0]}")
        hashes.add(r.get("content_hash"))
    elif path == "sitemap-bomb.xml.gz":
        links = r.get("links", [])
        if r["status"] != 200 or r.get("error_class"): errors.append(f"{path}: {r['status']} {r.get('error')}")
        if not 1000 <= len(links) <= 50000: errors.append(f"{path}: {len(links)} links")
        if any(l.get("discovery") != "sitemap" for l in links): errors.append(f"{path}: not sitemap entries")
        if links and links[0]["url"] != "http://127.0.0.1/sm/0000000.html": errors.append(f"{path}: first {links[0]}")
        if r.get("links_truncated") is not True: errors.append(f"{path}: links_truncated {r.get('links_truncated')}")
    else:  # endless bodies and the Content-Encoding bomb: cut at --max-size, in decoded bytes
        if r.get("error_class") != "too-large": errors.append(f"{path}: {r.get('error_class')} {r.get('error')}")
        if not 32000000 <= r.get("bytes", 0) <= 33554432: errors.append(f"{path}: bytes {r.get('bytes')}")
        if "links" in r: errors.append(f"{path}: links of a failed fetch")
if len(hashes) != 1 or None in hashes: errors.append(f"content hashes of the big pages: {hashes}")
print(f"fetch --links: {len(rows)} results checked")
if errors: print("\n".join(errors)); sys.exit(1)
PY

# ------------------------------------------------------------ 2. --warc
printf '%s\n' "$B/huge-links.html?w=1" "$B/huge-links.html?w=2" > warc-urls.txt
mkdir tmp
TMPDIR=$PWD/tmp /usr/bin/time -f "%M" -o warc.rss timeout 120 fetch -q --links --warc out/w -c 32 --per-host 32 --timeout 60 warc-urls.txt > warc.jsonl
check_rss "fetch --links --warc" warc.rss
[ -z "$(ls tmp)" ] || { echo "FAIL: files left in TMPDIR: $(ls tmp)"; exit 1; }
python3 - "$server" <<'PY'
import base64, hashlib, importlib.util, json, sys, zlib
spec = importlib.util.spec_from_file_location("hostile", sys.argv[1]); hostile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hostile)
page = hashlib.sha1()
for block in hostile.huge_links_blocks(): page.update(block)
digest = "sha1:" + base64.b32encode(page.digest()).decode()
size = hostile.huge_links_size()
errors = []
rows = [json.loads(l) for l in open("warc.jsonl")]
if len(rows) != 2: errors.append(f"{len(rows)} results")
for r in rows:
    if r["status"] != 200 or r.get("error_class") or r.get("bytes") != size: errors.append(f"{r['url']}: {str(r)[:300]}")
    if r.get("links_truncated") is not True: errors.append(f"{r['url']}: links_truncated {r.get('links_truncated')}")
    w = r["warc"]
    with open(w["file"], "rb") as f:
        f.seek(w["offset"])
        member = f.read(w["length"])
    record = zlib.decompressobj(31).decompress(member)
    head, _, block = record.partition(b"\r\n\r\n")
    fields = dict(l.split(": ", 1) for l in head.decode().split("\r\n")[1:])
    http_head, _, payload = block.partition(b"\r\n\r\n")
    payload = payload[:-4] if payload.endswith(b"\r\n\r\n") else payload
    if len(payload) != size: errors.append(f"{r['url']}: payload of {len(payload)} bytes, served {size}")
    if fields.get("WARC-Payload-Digest") != digest: errors.append(f"{r['url']}: digest {fields.get('WARC-Payload-Digest')}, served {digest}")
    if b"\r\nContent-Length: %d\r\n" % size not in http_head + b"\r\n": errors.append(f"{r['url']}: stored head {http_head[-200:]}")
    if "WARC-Truncated" in fields: errors.append(f"{r['url']}: WARC-Truncated {fields['WARC-Truncated']}")
    print(f"warc: {r['url']} record of {len(payload)} payload bytes, {len(member)} bytes compressed")
if errors: print("\n".join(errors)); sys.exit(1)
PY

# ------------------------------------------------------------ 3. frontier-done
/usr/bin/time -f "%M" -o done.rss timeout 120 frontier-done -f $F < res.jsonl > done.jsonl
check_rss "frontier-done" done.rss
python3 - <<'PY'
import json, sys
rows = [json.loads(l) for l in open("done.jsonl")]
bad = [r for r in rows if r.get("result") not in ("done", "failed", "retry")]
if len(rows) != 12 or bad: print(f"frontier-done: {len(rows)} results, unexpected: {str(bad)[:500]}"); sys.exit(1)
print(f"frontier-done: {len(rows)} results applied, {sum(r.get('links_added', 0) for r in rows)} links added")
PY
frontier-report -f $F --check > /dev/null
echo PASS
