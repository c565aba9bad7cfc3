# Hostile input for every tool that reads records: malformed and truncated
# JSON, NUL bytes, invalid UTF-8, a 100 MB line, deep nesting, wrong types,
# huge and negative numbers, absurd URLs (10 KB hosts, every character
# class, IPv6 literals, userinfo, ports out of range). Each bad line gets
# its own rejection record with the expected reason, the good lines around
# it are kept, the tool exits 1 (bad input) and never crashes or hangs, and
# memory stays bounded. Regressions: NaN priorities stopped frontier-add
# with a database error; a 600 KB URL against a scope regex crashed it;
# a huge Retry-After parked a URL for ever; cost near 2^63 overflowed budgets.
set -euo pipefail
export FRONTIER_NOW=1800000000
F=h.db
# The 100 MB line, made on the fly for each tool.
big_line() { printf '{"url":"http://big.example/'; head -c $((100 << 20)) /dev/zero | tr '\0' a; printf '"}\n'; }

# ---------------------------------------------------------------- frontier-add
frontier-config -f $F scope.exclude '["(a|b)*zzz", "/excluded/"]'
python3 - <<'PY'
import json
cases = []  # (line bytes, expected status, expected reason or canonical URL)
def add(line, status, what=None): cases.append((line, status, what))
j = lambda o: json.dumps(o).encode()
add(j({"url": "http://good.example/1"}), "added", "http://good.example/1")
add(b'{"url":"http://good.example/x",', "rejected", "bad-json")
add(b'{"url":"http://good.example/\x00"}', "rejected", "nul-byte")
add(b'{"url":"http://good.example/\xff\xfe"}', "rejected", "bad-utf8")
add(None, "rejected", "line-too-long")  # the 100 MB line goes here
add(b'{"url":"http://good.example/n","meta":' + b"[" * 100000 + b"]" * 100000 + b"}", "rejected", "bad-json")
add(b'{"url":"http://good.example/deep","meta":' + b"[" * 1000 + b"]" * 1000 + b"}", "added", "http://good.example/deep")
add(j({"url": 42}), "rejected", "bad-field")
add(j({"url": ["http://good.example/"]}), "rejected", "bad-field")
add(j({"url": {"href": "x"}}), "rejected", "bad-field")
add(j({"url": "http://good.example/d", "depth": "deep"}), "rejected", "bad-field")
add(j({"url": "http://good.example/d", "depth": -5}), "rejected", "bad-field")
add(b'{"url":"http://good.example/d","depth":1e400}', "rejected", "bad-field")
add(b'{"url":"http://good.example/d","depth":9223372036854775808}', "rejected", "bad-field")
add(b'{"url":"http://good.example/c","cost":99999999999999999999}', "rejected", "bad-field")
add(j({"url": "http://good.example/c", "cost": 9223372036854775807}), "rejected", "bad-field")
add(j({"url": "http://good.example/c", "cost": -1}), "rejected", "bad-field")
add(b'{"url":"http://good.example/p","priority":1e400}', "rejected", "bad-field")
add(j({"url": "http://good.example/p", "priority": -1e308}), "added", "http://good.example/p")
add(j({"url": "http://good.example/nan", "bias": 1e308, "bonuses": {"a": -1e308}, "estimated_cost_ms": 50}),
    "rejected", "bad-priority")
add(j({"url": "http://good.example/t", "last_modified": "the day before yesterday"}), "rejected", "bad-field")
add(j({"url": "http://good.example/t", "recrawl": "yes"}), "rejected", "bad-field")
add(j({"url": "http://good.example/t", "bonuses": [1, 2]}), "rejected", "bad-field")
add(j({"url": "http://" + "a" * 10240 + ".example/"}), "rejected", "bad-url")
add(j({"url": "http://" + "abcd." * 60 + "example/"}), "rejected", "bad-url")
add(b"http://good.example:0/", "rejected", "bad-url")
add(b"http://good.example:65536/", "rejected", "bad-url")
add(b"http://good.example:99999999999999999999/", "rejected", "bad-url")
add(b"http://[::1]:8080/v6", "added", "http://[::1]:8080/v6")
add(b"http://[0:0::1]/", "added", "http://[::1]/")
add(b"http://[fe80::1%25eth0]/", "rejected", "bad-url")
add(b"http://[zzzz]/", "rejected", "bad-url")
add(b"http://user:secret@Good.Example/userinfo", "added", "http://good.example/userinfo")
add(b"ftp://good.example/", "rejected", "bad-scheme")
add(b"javascript:alert(1)", "rejected", "bad-scheme")
add(b"http://good.example/a\x01b", "rejected", "bad-url")
add(b"http://good.example/" + bytes(range(0x21, 0x7f)).replace(b"#", b"") + b"?q=" + bytes(range(0x21, 0x7f)), "added", None)
add("http://good.example/ünïcödé/日本?q=é".encode(), "added", "http://good.example/%C3%BCn%C3%AFc%C3%B6d%C3%A9/%E6%97%A5%E6%9C%AC?q=%C3%A9")
add(j({"url": "http://good.example/" + "ab" * 300000}), "rejected", "url-too-long")
add(j({"url": "http://good.example/" + "x" * 2100}), "rejected", "url-too-long")
add(j({"url": "http://good.example/excluded/x"}), "rejected", "out-of-scope")
add(b'{"url":"http://good.example/dup1","url":"http://good.example/dup2"}', "added", "http://good.example/dup2")
add(b'{"url":"http://good.example/trail"} trailing', "rejected", "bad-json")
add(b'{"url":"http://good.example/crlf"}\r', "added", "http://good.example/crlf")
add(j({"url": "http://good.example/2"}), "added", "http://good.example/2")
with open("add_head.jsonl", "wb") as f:
    k = [c[0] for c in cases].index(None)
    f.write(b"\n".join(c[0] for c in cases[:k]) + b"\n")
with open("add_tail.jsonl", "wb") as f:
    f.write(b"\n".join(c[0] for c in cases[k + 1:]) + b"\n")
json.dump([[c[1], c[2]] for c in cases], open("add_expect.json", "w"))
PY
set +e
cat add_head.jsonl <(big_line) add_tail.jsonl | /usr/bin/time -f "%M" -o add.rss timeout 60 frontier-add -f $F > add.out 2> add.err
rc=$?
set -e
echo "frontier-add: exit $rc, peak RSS $(tail -1 add.rss) KiB; $(tail -1 add.err)"
test $rc = 1
test "$(tail -1 add.rss)" -lt 131072
python3 - <<'PY'
import json, sys
expect = json.load(open("add_expect.json"))
out = [json.loads(l) for l in open("add.out")]
errors = []
if [o["line"] for o in out] != list(range(1, len(expect) + 1)):
    errors.append(f"line numbers {[o['line'] for o in out]}")
for o, (status, what) in zip(out, expect):
    if o["status"] != status:
        errors.append(f"line {o['line']}: {o} expected {status} {what}")
    elif status == "rejected" and o["reason"] != what:
        errors.append(f"line {o['line']}: reason {o['reason']}, expected {what}")
    elif status == "added" and what and o["url"] != what:
        errors.append(f"line {o['line']}: url {o['url']}, expected {what}")
print(f"frontier-add: {len(out)} records checked")
if errors: print("\n".join(errors)); sys.exit(1)
PY
frontier-report -f $F --check > /dev/null

# ---------------------------------------------------------------- frontier-done
D=d.db
frontier-config -f $D robots.enabled false
frontier-config -f $D politeness.max-in-flight 100
python3 -c 'for i in range(30): print(f"http://good.example/{i}")' | frontier-add -q -f $D
frontier-lease -f $D -n 30 --per-queue 30 > leases.jsonl
python3 - <<'PY'
import json
leases = [json.loads(l)["lease"] for l in open("leases.jsonl")]
it = iter(leases)
cases = []
def add(line, result, what=None): cases.append((line, result, what))
j = lambda o: json.dumps(o).encode()
add(j({"lease": next(it), "status": 200, "links": ["/new1"]}), "done")
add(b'{"lease":"' + next(it).encode() + b'","status":200', "rejected", "bad-json")
add(None, "rejected", "line-too-long")
add(j({"lease": next(it), "status": "200"}), "rejected", "bad-field")
add(j({"lease": 5, "status": 200}), "rejected", "bad-field")
add(j({"lease": "zz-zz", "status": 200}), "rejected", "bad-lease")
add(j({"lease": "-", "status": 200}), "rejected", "bad-lease")
add(j({"lease": "1" * 100000, "status": 200}), "rejected", "bad-lease")
add(j({"lease": "ffffffffffffffffffff-1", "status": 200}), "stale")
add(j({"status": 200}), "rejected", "missing-lease")
add(j({"lease": next(it)}), "rejected", "missing-status")
add(j({"lease": next(it), "status": 200, "fetched_at": "garbage"}), "rejected", "bad-field")
add(j({"lease": next(it), "status": 200, "links": "x"}), "rejected", "bad-field")
add(j({"lease": next(it), "status": 200, "error_class": 5}), "rejected", "bad-field")
add(b'{"lease":"' + next(it).encode() + b'","status":200,"x":"\x00"}', "rejected", "nul-byte")
add(b'{"lease":"' + next(it).encode() + b'","status":200,"x":"\xc3\x28"}', "rejected", "bad-utf8")
add(b'{"lease":"' + next(it).encode() + b'","status":200,"meta":' + b"[" * 5000 + b"]" * 5000 + b"}", "rejected", "bad-json")
add(j({"lease": next(it), "status": 429, "retry_after": 1e308}), "retry", "retry_after")
add(j({"lease": next(it), "status": 429, "retry_after": -1e308}), "retry")
add(j({"lease": next(it), "status": 200, "duration_ms": 1e308}), "rejected", "bad-field")  # a week or more is no measurement
add(j({"lease": next(it), "status": 99999}), "rejected", "bad-field")  # not a three-digit status (frontier-done(1), status)
add(j({"lease": next(it), "status": 200, "links": [1, None, [], {}, {"url": 5}, "http://" + "a" * 10240 + ".example/",
       "javascript:alert(1)", "ftp://x/", "http://[::1]:99999/", "http://good.example/" + "x" * 3000,
       "http://user:pw@good.example/ok-link"]}), "done", (1, 5))
add(j({"lease": next(it), "status": 301, "location": "javascript:alert(1)"}), "done", (0, 1))
add(j({"lease": next(it), "status": 301, "location": "file:///etc/passwd"}), "done", (0, 1))
add(j({"lease": next(it), "status": 200, "links": [{"url": "/lm", "last_modified": 1e308}, {"url": "/lm2", "last_modified": "garbage"}]}), "done", (2, 0))
add(j({"lease": next(it), "status": 200}), "done")
with open("done_head.jsonl", "wb") as f:
    k = [c[0] for c in cases].index(None)
    f.write(b"\n".join(c[0] for c in cases[:k]) + b"\n")
with open("done_tail.jsonl", "wb") as f:
    f.write(b"\n".join(c[0] for c in cases[k + 1:]) + b"\n")
json.dump([[c[1], c[2]] for c in cases], open("done_expect.json", "w"))
PY
set +e
cat done_head.jsonl <(big_line) done_tail.jsonl | /usr/bin/time -f "%M" -o done.rss timeout 60 frontier-done -f $D > done.out 2> done.err
rc=$?
set -e
echo "frontier-done: exit $rc, peak RSS $(tail -1 done.rss) KiB"
test $rc = 1
test "$(tail -1 done.rss)" -lt 131072
python3 - <<'PY'
import json, sys
expect = json.load(open("done_expect.json"))
out = [json.loads(l) for l in open("done.out")]
errors = []
if len(out) != len(expect): errors.append(f"{len(out)} records for {len(expect)} lines")
for n, (o, (result, what)) in enumerate(zip(out, expect), 1):
    if o["result"] != result:
        errors.append(f"line {n}: {str(o)[:200]} expected {result} {what}")
    elif result == "rejected":
        if o["reason"] != what: errors.append(f"line {n}: reason {o['reason']}, expected {what}")
        if o.get("line") != n: errors.append(f"line {n}: rejection says line {o.get('line')}")
    elif what == "retry_after":
        if o["next_visit"] > 1800000000 + 86400 + 1: errors.append(f"line {n}: next_visit {o['next_visit']} (Retry-After not held to a day)")
    elif isinstance(what, list):
        if [o["links_added"], o["links_rejected"]] != what:
            errors.append(f"line {n}: links added/rejected {o['links_added']}/{o['links_rejected']}, expected {what}")
print(f"frontier-done: {len(out)} records checked")
if errors: print("\n".join(errors)); sys.exit(1)
PY
frontier-report -f $D --check > /dev/null

# ---------------------------------------------------------------- frontier-budget --apply
python3 - <<'PY'
import json
cases = []
def add(line, status, what=None): cases.append((line, status, what))
j = lambda o: json.dumps(o).encode()
add(j({"queue": "good.example", "total_budget": 100}), "applied")
add(b'{"queue":"good.example","total_budget":1e400}', "rejected", "bad-field")
add(b'{"queue":"good.example","total_budget":-99999999999999999999}', "rejected", "bad-field")
add(j({"domain": 5, "replenish": 1}), "rejected", "bad-field")
add(j({"queue": "good.example", "replenish": "many"}), "rejected", "bad-field")
add(j({"queue": "nope.example", "retire": True}), "rejected", "unknown-queue")
add(j({"hold_queues": "maybe"}), "rejected", "bad-value")
add(j({"cost_policy": "bogus"}), "rejected", "bad-value")
add(b'{"queue":"good.example"', "rejected", "bad-json")
add(b'{"queue":"good.example\x00"}', "rejected", "nul-byte")
add(b'{"queue":"\xff"}', "rejected", "bad-utf8")
add(None, "rejected", "line-too-long")
add(j({"queue": "good.example", "total_budget": 200}), "applied")
with open("budget_head.jsonl", "wb") as f:
    k = [c[0] for c in cases].index(None)
    f.write(b"\n".join(c[0] for c in cases[:k]) + b"\n")
with open("budget_tail.jsonl", "wb") as f:
    f.write(b"\n".join(c[0] for c in cases[k + 1:]) + b"\n")
json.dump([[c[1], c[2]] for c in cases], open("budget_expect.json", "w"))
PY
set +e
cat budget_head.jsonl <(big_line) budget_tail.jsonl | timeout 60 frontier-budget -f $D --apply > budget.out 2> budget.err
rc=$?
set -e
echo "frontier-budget --apply: exit $rc"
test $rc = 1
python3 - <<'PY'
import json, sys
expect = json.load(open("budget_expect.json"))
out = [json.loads(l) for l in open("budget.out")]
errors = []
if [o["line"] for o in out] != list(range(1, len(expect) + 1)): errors.append("line numbers")
for o, (status, what) in zip(out, expect):
    if o["status"] != status or (what and o.get("reason") != what):
        errors.append(f"line {o['line']}: {str(o)[:200]} expected {status} {what}")
print(f"frontier-budget: {len(out)} records checked")
if errors: print("\n".join(errors)); sys.exit(1)
PY
test "$(frontier-budget -f $D | python3 -c 'import json,sys; print(json.load(sys.stdin)["overrides"])')" = "[{'queue': 'good.example', 'total_budget': 200}]"

# ---------------------------------------------------------------- fetch (input side; no request leaves 127.0.0.1)
CP=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
{ printf '%s\n' "http://127.0.0.1:$CP/ok1" '{"url":"http://127.0.0.1:1/x"' '{"url":5}' '{"url":"ftp://127.0.0.1/"}' 'not a url'
  printf '{"url":"http://127.0.0.1:%s/\0"}\n{"url":"http://127.0.0.1:%s/\xff"}\n' "$CP" "$CP"
  big_line
  printf '%s\n' "{\"url\":\"http://127.0.0.1:$CP/e\",\"etag\":5}" "http://127.0.0.1:99999/" "http://user:pw@127.0.0.1:$CP/u" \
      "http://[::1]:$CP/v6" "http://[::1/broken" "http://127.0.0.1:$CP/ok2"; } > fetch_in.txt
set +e
timeout 60 fetch -q --conn-retry 0 fetch_in.txt > fetch.out 2> fetch.err
rc=$?
set -e
echo "fetch: exit $rc"
test $rc = 1
python3 - <<'PY'
import json, sys
out = [json.loads(l) for l in open("fetch.out")]
errors = []
if len(out) != 14: errors.append(f"{len(out)} results for 14 lines")
bad = {o["line"]: o["error"] for o in out if o.get("error_class") == "bad-input"}
want = {2: "bad-json", 3: "url is not a string", 4: "invalid url", 5: "invalid url", 6: "nul-byte", 7: "bad-utf8",
        8: "line-too-long", 9: "etag is not a string"}
for n, text in want.items():
    if text not in bad.get(n, ""): errors.append(f"line {n}: {bad.get(n)}, expected {text}")
net = [o for o in out if o.get("error_class") != "bad-input"]
for o in net:
    if o["error_class"] not in ("connect", "bad-url"): errors.append(f"{o}")
print(f"fetch: {len(out)} results, {len(bad)} bad-input")
if errors: print("\n".join(errors)); sys.exit(1)
PY

# ---------------------------------------------------------------- frontier-config
before=$(frontier-config -f $D)
for kv in "politeness.min-delay 1e400" "lease.ttl -5" "lease.ttl abc" 'scope.include ["("]' "retry.max 99999999999999999999" \
          "nosuch.key 1" 'priority.focus [{"tokens":5}]' "scope.max-depth -7" 'budget.cost-policy {"a":1}'; do
    key=${kv%% *}; value=${kv#* }
    set +e; frontier-config -f $D "$key" "$value" > /dev/null 2> config.err; rc=$?; set -e
    [ $rc = 2 ] || { echo "frontier-config $key $value: exit $rc"; cat config.err; exit 1; }
    grep -q "^frontier-config: " config.err
done
test "$(frontier-config -f $D)" = "$before"
echo "frontier-config: 9 bad values refused (exit 2), settings unchanged"
frontier-report -f $D --check > /dev/null
