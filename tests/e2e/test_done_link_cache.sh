#!/usr/bin/env bash
# frontier-done answers a plain link whose exact text it already found in
# the frontier without canonicalising it or reading the database (the
# Enqueuer's present-link cache, frontier-done(1)). That must change nothing
# observable: the same results through one frontier-done process (one cache
# for all) and through one process per result (an empty cache each time)
# give the same output lines and the same rows in every table, while
# scope.exclude and scope.max-depth change between parts of the input (the
# cache must not answer "duplicate" where the settings now reject). Links
# repeat within a page and across pages, point outside the seeds' domains,
# carry nofollow, and come in relative and absolute spellings.
# e2e: long (tests/e2e/run.sh starts it first)
set -euo pipefail
export FRONTIER_NOW=1800000000
source "$ROOT/tests/tools/throughput.bash"
F=$PWD/cache.db
throughput_config "$F"
python3 -c '
for i in range(300):
    print("http://h%d.example.com/p/%d" % (i % 4, i))
' | frontier-add -q -f "$F"
frontier-lease -f "$F" -n 300 --per-queue 300 > leases.jsonl
[ "$(wc -l < leases.jsonl)" = 300 ]
python3 - <<'PY'
import json, random
random.seed(5)
L = [json.loads(l) for l in open("leases.jsonl")]
pool = [l["url"] for l in L] + ["http://h%d.example.com/n/%d" % (i % 4, i) for i in range(150)]
for part in range(3):
    with open("part%d.jsonl" % part, "w") as f:
        for r in L[part * 100:(part + 1) * 100]:
            links = [random.choice(pool) for _ in range(12)]
            links += links[:3]                                   # repeats within the page
            links += ["http://elsewhere.org/x%d" % random.randint(0, 5), "/p/%d" % random.randint(0, 299)]
            links = [{"url": u} for u in links] + [{"url": random.choice(pool), "nofollow": True}]
            f.write(json.dumps({"url": r["url"], "lease": r["lease"], "status": 200, "links": links}) + "\n")
PY
cp "$F" one.db
cp "$F" each.db
change() {  # the settings change after part $1, on frontier $2
    case $1 in
        0) frontier-config -f "$2" scope.exclude '["/p/1[0-9]$", "/n/2"]' ;;
        1) frontier-config -f "$2" scope.max-depth 0 ;;
    esac
}
# One process: parts through a fifo, each part answered before the change.
mkfifo in.fifo
frontier-done -f one.db < in.fifo > one.out &
done_pid=$!
exec 3> in.fifo
want=0
for part in 0 1 2; do
    cat "part$part.jsonl" >&3
    want=$((want + 100))
    for _ in $(seq 500); do [ "$(wc -l < one.out)" -ge $want ] && break; sleep 0.02; done
    [ "$(wc -l < one.out)" -ge $want ] || { echo "frontier-done did not answer part $part"; exit 1; }
    change $part one.db
done
exec 3>&-
wait $done_pid
# One process per result.
: > each.out
for part in 0 1 2; do
    while IFS= read -r line; do
        printf '%s\n' "$line" | frontier-done -f each.db >> each.out
    done < "part$part.jsonl"
    change $part each.db
done
cmp one.out each.out
python3 "$ROOT/tests/tools/same_tables.py" one.db each.db
python3 - <<'PY'
import json
# Each part saw the settings of its time: rejections grow after each change.
out = [json.loads(l) for l in open("one.out")]
rej = [sum(o["links_rejected"] for o in out[k * 100:(k + 1) * 100]) for k in range(3)]
added = sum(o["links_added"] for o in out)
assert rej[0] < rej[1] < rej[2], rej
assert added > 50, added
PY
frontier-report -f one.db --check > /dev/null
echo ok
