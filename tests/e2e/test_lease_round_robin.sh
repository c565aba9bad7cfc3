#!/usr/bin/env bash
# frontier(7), LEASES and POLITENESS: across queues, ties go to the queue served least recently (round
# robin). With more tied queues than one page of the ready index (256), a
# batch that may take several URLs per queue must still visit every queue
# once before any queue a second time. Then one queue gives 30 URLs in one
# batch in its own order (on PostgreSQL, past the 9 heads prefetched per
# queue). tests/pg/run.sh runs it on PostgreSQL too (E2E_FRONTIER).
set -euo pipefail
F=${E2E_FRONTIER:-$PWD/rr.db}
export FRONTIER_NOW=1800000000
source "$ROOT/tests/tools/throughput.bash"
throughput_config "$F" 1000
python3 -c '
for q in range(600):
    for i in range(3):
        print("{\"url\":\"http://h%d.example/p%d\",\"priority\":5}" % (q, i))' | frontier-add -q -f "$F"
frontier-lease -f "$F" -n 900 --per-queue 3 > first.jsonl
frontier-lease -f "$F" -n 900 --per-queue 3 > second.jsonl
python3 - <<'PY'
import json
first = [json.loads(l)["queue"] for l in open("first.jsonl")]
second = [json.loads(l)["queue"] for l in open("second.jsonl")]
assert len(first) == 900 and len(second) == 900, (len(first), len(second))
# The first 600 leases: every queue once; then the next round starts.
assert len(set(first[:600])) == 600, len(set(first[:600]))
assert first[600:] == first[:300], "second round not in the first round's order"
# Over both batches every queue gave all 3 URLs, none more.
from collections import Counter
c = Counter(first + second)
assert set(c.values()) == {3} and len(c) == 600, Counter(c.values())
PY
python3 -c '
for i in range(30):
    print("{\"url\":\"http://big.example/p%d\",\"priority\":5}" % i)' | frontier-add -q -f "$F"
frontier-lease -f "$F" -n 100 --per-queue 30 > big.jsonl
python3 - <<'PY'
import json
urls = [json.loads(l)["url"] for l in open("big.jsonl")]
assert urls == ["http://big.example/p%d" % i for i in range(30)], urls
PY
echo ok
