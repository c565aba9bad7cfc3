# frontier-crawl (frontier-crawl(1)) over a small flaky web: one nginx on
# 127.0.1.x addresses, `map $server_addr` giving each host its behaviour:
# healthy hosts (robots.txt missing: allow all), one whose robots.txt
# disallows a page, one whose robots.txt answers 500 (unreachable: its
# pages are never fetched), two answering 429 (Retry-After: 1) and two 503
# on a quarter of page requests (robots.txt answers 404: a robots.txt
# refused at every try would give its whole host up, and the 95% below
# is about the pages), one host answering everything after 6 s and
# one answering its pages (not robots.txt nor the index) after 6 s, with
# fetch's --timeout at 4 s (a machine loaded by the suites side by side
# may take over 2 s to answer),
# and one address where nothing listens.
# Six pages a host, politeness.min-delay 1, host-down-delay 5 s, the new
# frontier's retry settings. The crawl finishes (exit 0, nothing left),
# no request to a host comes sooner than min-delay after the one before
# nor sooner than Retry-After after a 429 (nginx's access log), every
# healthy page and at least 95% of the flaky hosts' pages are fetched,
# the slow hosts are given up after two timeouts each (their other URLs
# fail host-down without a request).
# Real time: about 40 s.
#
# FLAKY_FULL=1: the full-size web, run on demand
# (tests/bench/flaky_web.sh): 200 hosts of 10 pages, 10 answering
# 429 (Retry-After: 3), 10 503, 10 after 120 s (5 everything, 5 their
# pages), 10 not listening, 10 with robots.txt 500 and 10 with a rule;
# `frontier-crawl -c 64 --set politeness.min-delay=1` with every other
# setting and option at its default; it must end in less than 3 minutes.
# Prints its figures. Real time: about 5 minutes (it waits for nginx to
# log the 120 s requests).
# e2e: long (tests/e2e/run.sh starts it first)
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
source "$ROOT/tests/tools/nginx.sh"
fail() { echo "FAIL: $*"; exit 1; }

if [ "${FLAKY_FULL:-0}" = 1 ]; then
    PAGES=9 RA=3 SLOW=120 TIMEOUT=30 LIMIT=180
    classes="ok:140 rules:10 r500:10 r429:10 r503:10 slow:5 slowp:5 dead:10"
    crawl=(-c 64 --set politeness.min-delay=1)
else
    PAGES=5 RA=1 SLOW=6 TIMEOUT=4 LIMIT=90
    classes="ok:3 rules:1 r500:1 r429:2 r503:2 slow:1 slowp:1 dead:1"
    crawl=(-c 16 --timeout "$TIMEOUT" --set politeness.min-delay=1 --set politeness.delay-factor=0
           --set politeness.host-down-delay=5 --max-wait 30)
fi

mkdir -p site/p ng
links=""
for i in $(seq 0 $((PAGES - 1))); do
    links="$links<a href=\"/p/$i.html\">$i</a>"
    echo "<html><body>page $i</body></html>" > site/p/$i.html
done
echo "<html><body>$links</body></html>" > site/index.html
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.1.1",0)); print(s.getsockname()[1])')

# hosts.txt: "ADDRESS CLASS" for every host; the maps and listens from it.
n=0
for c in $classes; do
    for _ in $(seq "${c#*:}"); do n=$((n + 1)); echo "127.0.1.$n ${c%:*}"; done
done > hosts.txt
listens=$(awk -v p="$PORT" '$2 != "dead" { printf " listen %s:%s;", $1, p }' hosts.txt)
behaviours=$(awk '$2 != "ok" && $2 != "dead" { printf " %s %s;", $1, $2 }' hosts.txt)
flaky='if ($answer = 429) { add_header Retry-After '$RA' always; return 429; } if ($answer = 503) { return 503; }'
{ nginx_conf_head "$PWD/ng" echo
  cat <<CONF
    log_format t '\$msec \$request_time \$server_addr \$uri \$status';
    access_log $PWD/ng/access.log t;
    types { text/html html; }
    default_type text/html;
    map \$server_addr \$behaviour { $behaviours default ok; }
    split_clients "\${request_id}" \$unlucky { 25% 1; * 0; }
    map "\$behaviour:\$unlucky" \$answer { "r429:1" 429; "r503:1" 503; default 0; }
    server {
        $listens root $PWD/site;
        location = /robots.txt {
            if (\$behaviour = slow) { echo_sleep $SLOW; echo "User-agent: *"; }
            if (\$behaviour = r500) { return 500; }
            if (\$behaviour = rules) { return 200 "User-agent: *\nDisallow: /p/0.html\n"; }
        }
        location / {
            if (\$behaviour = slow) { echo_sleep $SLOW; echo "<html></html>"; }
            $flaky
        }
        location /p/ {
            if (\$behaviour ~ ^slow) { echo_sleep $SLOW; echo "<html></html>"; }
            $flaky
        }
    }
}
CONF
} > ng/nginx.conf
nginx_launch "$PWD/ng" "http://127.0.1.1:$PORT/robots.txt"
trap 'kill "$(cat ng/nginx.pid)" 2>/dev/null || true' EXIT
: > ng/access.log

awk -v p="$PORT" '{ print "http://" $1 ":" p "/index.html" }' hosts.txt > seeds.txt
start=$(date +%s.%N)
rc=0
timeout 600 frontier-crawl -o out -i seeds.txt "${crawl[@]}" 2> out.err || rc=$?
took=$(python3 -c "import time; print(round(time.time() - $start, 1))")
[ $rc = 0 ] || { cat out.err; fail "the crawl exited $rc after $took s"; }
grep -q "finished: nothing is left" out.err || fail "not finished: $(cat out.err)"
grep -q "reports: out/report.txt, out/report.html" out.err || fail "no reports: $(cat out.err)"
python3 -c "import sys; sys.exit(0 if $took < $LIMIT else 1)" || fail "the crawl took $took s (limit $LIMIT s)"
echo "ok: the crawl finished in $took s, nothing left: $(grep '^URLs:' out/report.txt)"

# The slow hosts' last requests are logged when nginx has answered them.
sleep "$SLOW"
python3 - "$TIMEOUT" "$RA" "$PAGES" <<'PY'
import collections, json, sys
timeout, ra, pages = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
kind = dict(l.split() for l in open("hosts.txt"))
reqs = collections.defaultdict(list)  # address -> [(start, end, uri, status)]
for line in open("ng/access.log"):
    msec, took, addr, uri, status = line.split()
    end = float(msec)
    # A slow request is over for the crawler at its timeout, whatever nginx logged.
    reqs[addr].append((end - float(took), min(end, end - float(took) + timeout), uri, int(status)))
bad = []
for addr, rs in reqs.items():
    rs.sort()
    for (s0, e0, u0, st0), (s1, _, u1, _) in zip(rs, rs[1:]):
        if s1 - e0 < 0.99:
            bad.append("%s %s %.3f s after %s" % (addr, u1, s1 - e0, u0))
        if st0 == 429 and s1 - e0 < ra - 0.01:
            bad.append("%s %s %.3f s after a 429 (Retry-After %g)" % (addr, u1, s1 - e0, ra))
if bad:
    sys.exit("FAIL: politeness: " + "; ".join(bad[:10]))
print("ok: no request to a host sooner than min-delay after the one before, nor than Retry-After after a 429")

def fetched(addr):
    return {u for _, _, u, st in reqs[addr] if st == 200 and u != "/robots.txt"}
every = {"/index.html"} | {"/p/%d.html" % i for i in range(pages)}
for addr, k in kind.items():
    want = every - {"/p/0.html"} if k == "rules" else every
    if k in ("ok", "rules") and fetched(addr) != want:
        sys.exit("FAIL: healthy host %s (%s): missing %s" % (addr, k, sorted(want - fetched(addr))))
    if k == "rules" and any(u == "/p/0.html" for _, _, u, _ in reqs[addr]):
        sys.exit("FAIL: %s: a page its robots.txt disallows was fetched" % addr)
    if k == "r500" and any(u != "/robots.txt" for _, _, u, _ in reqs[addr]):
        sys.exit("FAIL: %s: robots.txt 500, yet pages were fetched" % addr)
flaky = [a for a, k in kind.items() if k in ("r429", "r503")]
got = sum(len(fetched(a)) for a in flaky)
share = got / (len(flaky) * len(every))
print("ok: every healthy page; robots.txt rules and 500 obeyed; %d of %d (%.1f%%) of the 429/503 hosts' pages"
      % (got, len(flaky) * len(every), 100 * share))
if share < 0.95:
    sys.exit("FAIL: under 95% of the flaky hosts' pages fetched")

# Slow hosts: two timed-out requests each, then fetch holds the host down.
slow = {a: [r for r in reqs[a] if r[2] != "/robots.txt" and r[2] != "/index.html" or kind[a] == "slow"]
        for a, k in kind.items() if k.startswith("slow")}
most = max(len(rs) for rs in slow.values())
if most > 2:
    sys.exit("FAIL: a slow host got %d slow requests: %s" % (most, slow))
res = [json.loads(l) for l in open("out/results.jsonl")]
slowp = {a for a, k in kind.items() if k == "slowp"}
ends = collections.Counter((r["result"], r.get("reason", r.get("error_class")))
                           for r in res if r["url"].split("/")[2].split(":")[0] in slowp and "/p/" in r["url"])
done = sum(n for (result, _), n in ends.items() if result != "retry")
if done != len(slowp) * pages or ends[("done", None)]:
    sys.exit("FAIL: the slow pages did not all fail: %s" % ends)
print("ok: slow hosts given up after at most %d slow requests each; their pages: %s" % (most, dict(ends)))

# Requests under way at once, over all hosts, of those that took nginx
# more than the log's few milliseconds of slack (the slow ones).
ev = sorted([(s, 1) for rs in reqs.values() for s, e, _, _ in rs if e - 0.005 > s] +
            [(e - 0.005, -1) for rs in reqs.values() for s, e, _, _ in rs if e - 0.005 > s])
cur = peak = 0
for _, d in ev:
    cur += d
    peak = max(peak, cur)
print("figures: %d requests to %d hosts; at most %d slow ones under way at once"
      % (sum(map(len, reqs.values())), len(reqs), peak))
PY
