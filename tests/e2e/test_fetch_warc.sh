# fetch --links and --warc: links as objects (nofollow, tag, sitemap entries),
# WARC/1.1 files validated with an independent reader (warcio.js from npm,
# installed into build/npm on first use; an unreachable registry fails the test).
. "$ROOT/tests/server/common.sh"
npm_dir="$ROOT/build/npm"
if [ ! -f "$npm_dir/node_modules/warcio/package.json" ]; then
    mkdir -p "$npm_dir"
    npm install --silent --no-audit --no-fund --prefix "$npm_dir" warcio >npm.log 2>&1 || {
        echo "FAIL: cannot install warcio from the npm registry (needed to validate WARC output)"
        cat npm.log
        exit 1
    }
fi
start_server
cat > in.txt <<IN
$BASE/page.html
$BASE/twice.html
$BASE/gzip
$BASE/sitemap.xml
$BASE/status/404
{"url":"$BASE/chain/2","robots":true}
$BASE/big?size=300000
$BASE/redirect?to=/x
$BASE/etag
{"url":"$BASE/etag","etag":"\"v1\""}
http://127.0.0.1:$(closed_port)/nothing
IN
for i in $(seq 1 20); do echo "$BASE/p$i"; done >> in.txt
fetch -q --links --warc out/crawl --warc-max-size 4000 < in.txt > res.jsonl
python3 - "$BASE" <<'PY'
import json, sys
base = sys.argv[1]
rows = {json.loads(l)["url"]: json.loads(l) for l in open("res.jsonl")}
page = rows[base + "/page.html"]
links = page["links"]
want = [
    {"url": base + "/dir/style.css", "tag": "link"},
    {"url": base + "/dir/a.html", "tag": "a"},
    {"url": base + "/abs.html", "nofollow": True, "tag": "a"},
    {"url": "http://other.example/x", "tag": "a"},
    {"url": base + "/dir/area.html", "tag": "area"},
    {"url": base + "/dir/frame.html", "tag": "frame"},
]
assert links == want, links
assert rows[base + "/gzip"]["links"] == want
# A URL linked nofollow and followed on one page is followed: a nofollow
# link after the followed one adds nothing; before it, both are written.
assert rows[base + "/twice.html"]["links"] == [
    {"url": base + "/t1", "nofollow": True, "tag": "a"}, {"url": base + "/t1", "tag": "a"},
    {"url": base + "/t2", "tag": "a"}], rows[base + "/twice.html"]["links"]
sm = rows[base + "/sitemap.xml"]["links"]
assert sm == [{"url": "http://127.0.0.1/s1.html", "discovery": "sitemap", "last_modified": 1704153600},
              {"url": "http://127.0.0.1/s2.html", "discovery": "sitemap"}], sm
assert "links" not in rows[base + "/status/404"]
for u, r in rows.items():
    if r["status"] > 0:
        assert "warc" in r and r["warc"]["length"] > 0, r
    else:
        assert "warc" not in r, r
files = sorted({r["warc"]["file"] for r in rows.values() if "warc" in r})
assert len(files) >= 2, files  # rotated at 4000 bytes
assert files[0].endswith("-00000.warc.gz"), files
print("ok links", len(rows), "results,", len(files), "files")
PY
node "$ROOT/tests/server/warc_check.cjs" "$npm_dir" res.jsonl out/*.warc.gz
# Every file starts with warcinfo and the pairs add up: 30 responses -> 60 records + files.
n_files=$(ls out/*.warc.gz | wc -l)
node "$ROOT/tests/server/warc_check.cjs" "$npm_dir" res.jsonl out/*.warc.gz | grep -q " $((60 + n_files)) records, 30 pairs, 30 result slices ok"
echo PASS
