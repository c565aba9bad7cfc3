#!/usr/bin/env bash
# Expired leases are reclaimed set-based: a crawl resumed after a stop finds
# every lease of the last run expired. 70,000 of them (more than one 65,536-row
# UPDATE on SQLite) over 7 queues all go back to their queues in the first
# call, with the counts of URLs and queues right, and are leased again.
set -euo pipefail
F=${E2E_FRONTIER:-$PWD/expiry.db}
export FRONTIER_NOW=1800000000
source "$ROOT/tests/tools/throughput.bash"
throughput_config "$F" 100000
python3 -c '
for i in range(10000):
    for q in range(7):
        print("{\"url\":\"http://h%d.example/p%d\"}" % (q, i))' | frontier-add -q -f "$F"
frontier-lease -q -f "$F" -n 70000 --per-queue 10000 --ttl 60 > first.jsonl
[ "$(wc -l < first.jsonl)" = 70000 ]
counts() {
    frontier-report -f "$F" --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r["urls"]["queued"], r["urls"]["leased"], r["queues"]["in_process"], r["queues"]["ready"])'
}
[ "$(counts)" = "0 70000 7 0" ] || { echo "after leasing: $(counts)" >&2; exit 1; }
# 61 s later every lease has expired: one lease call takes them all back
# and hands out one URL again.
export FRONTIER_NOW=1800000061
frontier-lease -q -f "$F" -n 1 > one.jsonl
[ "$(wc -l < one.jsonl)" = 1 ]
[ "$(counts)" = "69999 1 1 6" ] || { echo "after the reclaim: $(counts)" >&2; exit 1; }
frontier-lease -q -f "$F" -n 70000 --per-queue 10000 > again.jsonl
python3 - <<'PY'
import json
first = {json.loads(l)["url"] for l in open("first.jsonl")}
again = [json.loads(l)["url"] for l in open("again.jsonl")] + [json.loads(l)["url"] for l in open("one.jsonl")]
assert len(again) == 70000 and set(again) == first, (len(again), len(set(again) ^ first))
PY
[ "$(counts)" = "0 70000 7 0" ] || { echo "after leasing again: $(counts)" >&2; exit 1; }
echo ok
