# fetch: connection failures (connect, then host-down for the same host,
# --conn-retry 0 disables it), DNS failure, TLS failure, timeouts (two in a
# row without a response put the host down too), no head-of-line blocking
# by a slow host, autothrottle spacing.
. "$ROOT/tests/server/common.sh"
start_server
CP=$(closed_port)
printf '%s\n' "http://127.0.0.1:$CP/a" "http://127.0.0.1:$CP/b" "http://127.0.0.1:$CP/c" "http://nothing.invalid/" |
    fetch --per-host 1 -q > out.jsonl
python3 - "$CP" <<'PY'
import json, sys
cp = sys.argv[1]
rows = {r["url"]: r for r in map(json.loads, open("out.jsonl"))}
a = rows["http://127.0.0.1:%s/a" % cp]
assert a["status"] == 0 and a["error_class"] == "connect" and a["error"], a
for p in ("b", "c"):
    r = rows["http://127.0.0.1:%s/%s" % (cp, p)]
    assert r["error_class"] == "host-down" and r["duration_ms"] == 0, r
d = rows["http://nothing.invalid/"]
assert d["error_class"] == "dns", d
print("ok errors")
PY
# --conn-retry 0: no host-down window.
printf '%s\n' "http://127.0.0.1:$CP/a" "http://127.0.0.1:$CP/b" | fetch --per-host 1 --conn-retry 0 -q > out2.jsonl
[ "$(grep -c '"error_class":"connect"' out2.jsonl)" -eq 2 ]

# TLS: https:// to a server that speaks plain HTTP fails the handshake.
echo "https://127.0.0.1:$PORT/tls" | fetch -q > tls.jsonl
python3 -c 'import json; r=json.load(open("tls.jsonl")); assert r["status"] == 0 and r["error_class"] == "tls" and r["error"], r'

# Timeout: --timeout 1 against a slow endpoint.
echo "$BASE/delay/3" | fetch --timeout 1 -q > t.jsonl
grep -q '"error_class":"timeout"' t.jsonl
python3 -c 'import json; r=json.load(open("t.jsonl")); assert 900 <= r["duration_ms"] < 2500, r'
echo "$BASE/slow?chunks=5&delay=1" | fetch --timeout 1 -q > t2.jsonl
grep -q '"error_class":"timeout"' t2.jsonl && grep -q '"status":200' t2.jsonl

# Two timeouts in a row without a response: the host is down, its other
# URLs fail host-down without a request; --down-after-timeouts 0: never.
for i in 1 2 3 4; do echo "$BASE/delay/3?d$i"; done > slow.txt
fetch --timeout 0.5 --per-host 1 -q slow.txt > td.jsonl
[ "$(jq -r .error_class td.jsonl | sort | uniq -c | tr -s ' ' | tr '\n' ,)" = " 2 host-down, 2 timeout," ] ||
    { cat td.jsonl; exit 1; }
jq -r 'select(.error_class == "host-down") | .error' td.jsonl | grep -q "host down after timeouts in a row" ||
    { cat td.jsonl; exit 1; }
fetch --timeout 0.5 --per-host 1 --down-after-timeouts 0 -q slow.txt > td0.jsonl
[ "$(grep -c '"error_class":"timeout"' td0.jsonl)" = 4 ] || { cat td0.jsonl; exit 1; }

# Read-ahead: a slow host (one at a time) does not hold back another host.
{ for i in 1 2 3 4; do echo "$BASE/delay/1?$i"; done
  for i in 1 2 3 4; do echo "http://localhost:$PORT/fast$i"; done; } |
    fetch -q -c 8 --per-host 1 > h.jsonl
python3 - <<'PY'
import json
rows = [json.loads(l) for l in open("h.jsonl")]
assert len(rows) == 8 and all(r["status"] == 200 for r in rows), rows
order = ["fast" in r["url"] for r in rows]
# All four fast URLs finish before the last three slow ones.
assert order[-3:] == [False] * 3, order
print("ok read-ahead", order)
PY

# Autothrottle: starts per host are spaced by the delay (start 1 s).
printf '%s\n' "$BASE/at1" "$BASE/at2" "$BASE/at3" | fetch -q --autothrottle 1 --autothrottle-start 1 > a.jsonl
python3 - <<'PY'
import json
t = sorted(json.loads(l)["fetched_at"] for l in open("a.jsonl"))
assert t[1] - t[0] >= 0.9, t
assert t[2] - t[1] >= 0.3, t
print("ok autothrottle", [round(x - t[0], 2) for x in t])
PY
echo PASS
