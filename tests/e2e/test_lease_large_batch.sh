#!/usr/bin/env bash
# frontier-lease -n above one transaction's share (10,000 leases): the batch
# is leased in several transactions, each printed once committed, so memory
# stays flat. It must still behave as one batch: --per-queue counts over all
# of it, every URL is leased once, the round robin goes on across the
# transactions, and the exit code is 0.
set -euo pipefail
F=${E2E_FRONTIER:-$PWD/big.db}
export FRONTIER_NOW=1800000000
source "$ROOT/tests/tools/throughput.bash"
throughput_config "$F" 100000
python3 -c '
for i in range(4000):
    for q in range(3):
        print("{\"url\":\"http://h%d.example/p%d\",\"priority\":5}" % (q, i))' | frontier-add -q -f "$F"
# 3 queues of 4,000: --per-queue 3,500 allows 10,500 in all, of which 500
# come from the second transaction; without the count carried over it would
# hand out all 12,000.
rc=0
frontier-lease -f "$F" -n 12000 --per-queue 3500 > batch.jsonl || rc=$?
[ "$rc" = 0 ] || { echo "exit code $rc, expected 0" >&2; exit 1; }
python3 - <<'PY'
import json
from collections import Counter
rows = [json.loads(l) for l in open("batch.jsonl")]
assert len(rows) == 10500, len(rows)
urls = [r["url"] for r in rows]
assert len(set(urls)) == len(urls), "a URL leased twice"
c = Counter(r["queue"] for r in rows)
assert sorted(c.values()) == [3500, 3500, 3500], c
# Round robin: the queues alternate, also across the transaction boundary.
q = [r["queue"] for r in rows]
assert all(q[i] != q[i + 1] for i in range(len(q) - 1)), "a queue served twice in a row"
# Within a queue, its own order (p0, p1, ...).
for h in c:
    mine = [int(r["url"].rsplit("p", 1)[1]) for r in rows if r["queue"] == h]
    assert mine == list(range(3500)), h
PY
# The rest (500 per queue) in the next batch, then nothing: exit 3.
frontier-lease -f "$F" -n 12000 --per-queue 3500 > rest.jsonl
[ "$(wc -l < rest.jsonl)" = 1500 ]
rc=0
frontier-lease -f "$F" -n 12000 > none.jsonl 2> none.err || rc=$?
[ "$rc" = 5 ] || [ "$rc" = 3 ] || { echo "exit code $rc on an empty frontier" >&2; cat none.err >&2; exit 1; }
[ ! -s none.jsonl ]
echo ok
