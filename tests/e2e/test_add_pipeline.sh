#!/usr/bin/env bash
# frontier-add prepares records on a second thread while it stores the
# previous block: results must stay in input order across blocks (512
# records), decisions that depend on earlier records (duplicates, seed
# domains) must see them, and a slow producer's records must be committed
# and answered while the input is paused, not at its end.
set -euo pipefail
F=$PWD/pipe.db
frontier-config -f "$F" robots.enabled false

# 6000 lines: a link to b.example (line 2000) before b.example is seeded (out of scope),
# the seed at line 3000, the same link after it (added); duplicates of
# lines 1..1000 at lines 4001..5000, one bad line in every block.
python3 - > in.jsonl <<'PY'
import json
for i in range(1, 6001):
    if i == 2000:
        print(json.dumps({"url": "http://b.example/early", "discovery": "link"}))
    elif i == 3000:
        print(json.dumps({"url": "http://b.example/"}))
    elif i == 5500:
        print(json.dumps({"url": "http://b.example/late", "discovery": "link"}))
    elif i % 2048 == 1500:
        print('{"url": ')
    elif 4001 <= i <= 5000:
        print(json.dumps({"url": "http://a.example/p%d" % (i - 4000)}))
    else:
        print(json.dumps({"url": "http://a.example/p%d" % i}))
PY
rc=0
frontier-add -f "$F" --batch 700 in.jsonl > out.jsonl 2> err.txt || rc=$?
[ "$rc" = 1 ] || { echo "exit $rc, expected 1 (bad lines)"; cat err.txt; exit 1; }
python3 - <<'PY'
import json
rows = [json.loads(l) for l in open("out.jsonl")]
assert len(rows) == 6000, len(rows)
assert [r["line"] for r in rows] == list(range(1, 6001)), "results out of input order"
by = {r["line"]: r for r in rows}
assert by[2000]["status"] == "rejected" and by[2000]["reason"] == "out-of-scope", by[2000]
assert by[3000]["status"] == "added", by[3000]
assert by[5500]["status"] == "added", by[5500]
for i in range(4001, 5001):
    assert by[i]["status"] == "duplicate", by[i]
bad = [i for i in range(1, 6001) if i % 2048 == 1500]
for i in bad:
    assert by[i]["status"] == "rejected" and by[i]["reason"] == "bad-json", by[i]
added = sum(1 for r in rows if r["status"] == "added")
assert added == 6000 - 1000 - 1 - len(bad), added
PY
grep -q "rejected" err.txt
n=$(sqlite3 "$F" "SELECT count(*) FROM urls")
[ "$n" = "$((6000 - 1000 - 1 - 3))" ] || { echo "urls rows: $n"; exit 1; }

# start_add FRONTIER: a frontier-add on that file fed through fd 3, its
# answers on fd 4 (its pid in $pid); stop_add closes its input and waits.
start_add() {
    frontier-config -f "$1" robots.enabled false
    rm -f in.fifo out.fifo
    mkfifo in.fifo out.fifo
    frontier-add -f "$1" < in.fifo > out.fifo 2>/dev/null &
    pid=$!
    exec 3> in.fifo 4< out.fifo
}
stop_add() {
    exec 3>&-
    wait "$pid"
    exec 4<&-
}

# A slow producer: each record is answered (and committed) before the
# next one is written.
F2=$PWD/slow.db
start_add "$F2"
for i in 1 2 3; do
    echo "{\"url\":\"http://slow.example/$i\"}" >&3
    IFS= read -r -t 20 reply <&4 || { echo "no answer to record $i while the input is open"; exit 1; }
    case $reply in *"\"line\":$i,"*'"status":"added"'*) ;; *) echo "record $i: $reply"; exit 1 ;; esac
    q=$(sqlite3 "$F2" "SELECT count(*) FROM urls")
    [ "$q" = "$i" ] || { echo "record $i answered but $q rows committed"; exit 1; }
done
stop_add

# A burst of exactly one chunk (512 records), then a pause: the whole burst
# is answered and committed during the pause, not when the next record comes.
F3=$PWD/burst.db
start_add "$F3"
python3 -c '
import os
os.write(1, "".join("{\"url\":\"http://burst.example/%d\"}\n" % i for i in range(512)).encode())' >&3
for i in $(seq 512); do
    IFS= read -r -t 20 reply <&4 || { echo "record $i of the burst not answered during the pause"; exit 1; }
done
case $reply in *'"line":512,'*) ;; *) echo "last answer of the burst: $reply"; exit 1 ;; esac
q=$(sqlite3 "$F3" "SELECT count(*) FROM urls")
[ "$q" = 512 ] || { echo "burst answered but $q rows committed"; exit 1; }
stop_add
echo ok
