#!/usr/bin/env bash
# frontier-done holds URL-row updates until commit and writes them in row-id
# order (lib/store/url_updates.hpp). That must change nothing observable: the same
# results through one transaction and through `--batch 1` (a commit after
# every result, so no update is ever held past its result) give the same
# output lines and the same rows in every table. The results mix successes
# with links back to their own URL and to URLs finished earlier in the same
# transaction (some with a lister date), redirects, repeated and lease-less results, revisited URLs
# (first success), 429 / 503 / host-down / timeout / 404 / 304.
set -euo pipefail
export FRONTIER_NOW=1800000000
source "$ROOT/tests/tools/throughput.bash"
F=$PWD/held.db
throughput_config "$F"
frontier-config -f "$F" recrawl.types '["article"]'
python3 -c '
import json, random
random.seed(7)
for i in range(3000):
    h = random.randint(0, 59)
    print(json.dumps({"url": "http://h%d.ex%d.com/p/%d" % (h, h % 20, i), "type": "article" if i % 3 == 0 else "nav"}))
' | frontier-add -q -f "$F"
frontier-lease -f "$F" -n 3000 --per-queue 3000 > leases.jsonl
[ "$(wc -l < leases.jsonl)" = 3000 ]
python3 - <<'PY'
import json, random
random.seed(11)
L = [json.loads(l) for l in open("leases.jsonl")]
out = []
for k, r in enumerate(L):
    x = random.random()
    res = {"url": r["url"], "lease": r["lease"], "duration_ms": random.randint(5, 500)}
    if x < 0.55:
        # itself, three leased URLs (many already finished in this transaction), one new URL
        # (one with a lister date, which changes a revisited URL's row)
        res.update(status=200, content_hash="h%d" % random.randint(0, 3),
                   links=[r["url"]] + [random.choice(L[:k + 1])["url"] for _ in range(2)] +
                         [{"url": random.choice(L[:k + 1])["url"], "last_modified": 1800000050 + k}] +
                         [r["url"].rsplit("/", 1)[0] + "/new%d" % random.randint(0, 500)])
    elif x < 0.62: res.update(status=429, retry_after=30)
    elif x < 0.68: res.update(status=503)
    elif x < 0.72: res.update(error_class="host-down")
    elif x < 0.76: res.update(error_class="timeout")
    elif x < 0.80: res.update(status=404)
    elif x < 0.85: res.update(status=301, location=r["url"] + "?moved=1")
    elif x < 0.90:
        del res["lease"]
        res.update(status=200)
    else: res.update(status=304, etag='"e%d"' % k)
    out.append(res)
    if random.random() < 0.05: out.append(dict(res))  # the same result again
    if random.random() < 0.03: out.append({"url": random.choice(L[:k + 1])["url"], "status": 200})  # lease-less, maybe finished
with open("results.jsonl", "w") as f:
    for o in out: f.write(json.dumps(o) + "\n")
PY
cp "$F" one.db
cp "$F" each.db
FRONTIER_NOW=1800000100 frontier-done -f one.db results.jsonl > one.out
FRONTIER_NOW=1800000100 frontier-done -f each.db --batch 1 results.jsonl > each.out
cmp one.out each.out
python3 "$ROOT/tests/tools/same_tables.py" one.db each.db
python3 - <<'PY'
import collections, json, sqlite3
# The workload reached every kind of outcome, revisits and new links.
kinds = collections.Counter(json.loads(l)["result"] for l in open("one.out"))
assert all(kinds[k] > 0 for k in ("done", "retry", "failed", "stale")), kinds
db = sqlite3.connect("one.db")
assert db.execute("SELECT count(*) FROM urls WHERE first_success IS NOT NULL").fetchone()[0] > 0
assert db.execute("SELECT count(*) FROM urls WHERE url LIKE '%/new%'").fetchone()[0] > 0
assert db.execute("SELECT count(*) FROM urls WHERE state = 1").fetchone()[0] == 0
PY
frontier-report -f one.db --check > /dev/null
echo ok
