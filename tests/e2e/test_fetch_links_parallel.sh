# fetch --links extracts the links of waiting pages on several threads at
# once: every result must still carry its own page's links, and memory stays
# bounded while parsing is slower than the network. 600 pages of ~60 KB,
# each with a link only it has (/mark/N.html) among 300 shared ones, and
# between them 300 small pages (the writer parses those itself, in turn with
# the parsers' results) with their own mark and one shared link, fetched
# with 32 transfers at once from nginx on 127.0.0.1.
set -euo pipefail
source "$ROOT/tests/tools/nginx.sh"
mkdir site
python3 - site <<'PY'
import os, sys
out = sys.argv[1]
os.makedirs(out + "/p", exist_ok=True)
shared = "".join(f'<li><a href="/shared/{k}.html">shared {k}</a> {"filler text " * 12}</li>\n' for k in range(300))
for i in range(900):
    with open(f"{out}/p/{i}.html", "w") as f:
        body = shared if i % 3 != 2 else '<li><a href="/shared/0.html">shared 0</a></li>\n'
        f.write(f'<!DOCTYPE html><html><head><title>{i}</title></head><body><ul>\n{body}</ul>\n'
                f'<p><a href="../mark/{i}.html">mine</a></p></body></html>\n')
PY
nginx_start "$PWD/site" 1
trap nginx_stop EXIT
P=$NGINX_PORTS
for i in $(seq 0 899); do echo "http://127.0.0.1:$P/p/$i.html"; done > in.txt
/usr/bin/time -f "%M" -o rss.txt fetch -q -c 32 --per-host 32 --links < in.txt > res.jsonl
python3 - <<'PY'
import json, re
rows = [json.loads(l) for l in open("res.jsonl")]
assert len(rows) == 900, len(rows)
seen = set()
for r in rows:
    i = int(re.search(r"/p/(\d+)\.html$", r["url"]).group(1))
    seen.add(i)
    assert r["status"] == 200, r
    urls = [l["url"] if isinstance(l, dict) else l for l in r["links"]]
    marks = [u for u in urls if "/mark/" in u]
    assert marks == [re.sub(r"/p/\d+\.html$", f"/mark/{i}.html", r["url"])], (r["url"], marks)
    assert len(urls) == (301 if i % 3 != 2 else 2), (r["url"], len(urls))
assert seen == set(range(900))
print("ok every result carries its own page's links (600 large pages, 300 small)")
PY
rss=$(cat rss.txt)
echo "fetch peak RSS ${rss} KB"
# AddressSanitizer's shadow memory and quarantine make RSS meaningless there.
asan=$(nm "$(command -v fetch)" 2>/dev/null | grep -c __asan_init || true)
if [ "$asan" -gt 0 ]; then
    echo "(AddressSanitizer build: RSS not checked)"
else
    [ "$rss" -lt $((64 * 1024)) ] || { echo "fetch used ${rss} KB (>= 64 MiB)"; exit 1; }
fi
