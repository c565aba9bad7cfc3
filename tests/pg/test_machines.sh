#!/usr/bin/env bash
# Many machines, one crawl (frontier(7), POSTGRESQL, "Many machines"): four
# network namespaces as fetch machines, each running the whole pipeline
# (frontier-lease --follow | fetch --links | frontier-done) against one
# PostgreSQL frontier in a fifth namespace, 1 ms away through
# bin/latency-proxy (tests/tools/latency_proxy.cpp), crawling H hosts that one nginx serves
# there, each host an address of its own (10.78.0.K, routed to the server
# over each machine's veth pair). Checks, from nginx's access log and the
# frontier:
#  - every page of every host fetched (but the one whose budget is cut),
#    each once, but those the killed machine had leased (at most twice);
#  - per host, never a request sooner than politeness.min-delay after the
#    one before ended, so never two at once (politeness.max-in-flight 1);
#  - a frontier-budget change mid-crawl (one host's total budget cut to 1)
#    is obeyed by every machine: after it, at most the one request already
#    leased goes to that host;
#  - kill -9 of one machine's pipeline mid-crawl loses nothing: its leases
#    expire (lease.ttl 3 s) and the other machines fetch those URLs;
#  - the other machines' tools exit as documented (frontier-lease 4: the
#    cut host's URLs wait in a retired queue); frontier-report --check is clean.
# Needs root and `ip netns` (tests/tools/netns.bash); prints "skipped" and
# passes without them. Every address lives in the namespaces it makes.
# Run by tests/pg/run.sh (pg:test_machines in partitions, the default, and
# pg-lock:test_machines with FRONTIER_PG_PARTITIONS=0 reaching every tool).
set -euo pipefail
: "${ROOT:?}"
source "$ROOT/tests/tools/netns.bash"
source "$ROOT/tests/tools/nginx.sh"
source "$ROOT/tests/tools/wait_port.bash"
fail() { echo "FAIL: $*"; exit 1; }
M=4 H=12 PAGES=16 KILLED=4 CUT=3 PORT=8080
work=$PWD
chmod 755 "$work"  # the server runs as nobody
cleanup() {
    set +e
    [ -n "${S:-}" ] && ip netns exec "$S" "$ROOT/tests/tools/pg.sh" stop "$work/pgc"
    netns_down  # nginx, the proxy and every pipeline with it
}
trap cleanup EXIT
netns_up "$M" || { echo "ok: skipped: no network namespaces ($netns_why)"; exit 0; }
S=$(netns_server)
in_s() { ip netns exec "$S" "$@"; }
for k in $(seq "$H"); do ip -n "$S" addr add "10.78.0.$k/32" dev lo; done
for i in $(seq "$M"); do ip -n "$(netns_machine "$i")" route add 10.78.0.0/24 via "$(netns_addr "$i")"; done

# The site: an index linking every page, each page linking the next.
mkdir -p site/p ng/tmp
{ echo "<html><body>"; for p in $(seq "$PAGES"); do echo "<a href=\"/p/$p.html\">$p</a>"; done
  echo "</body></html>"; } > site/index.html
for p in $(seq "$PAGES"); do echo "<html><body><a href=\"/p/$((p % PAGES + 1)).html\">next</a></body></html>" \
    > "site/p/$p.html"; done
listens=""
for k in $(seq "$H"); do listens+=" listen 10.78.0.$k:$PORT;"; done
# nginx_launch would probe from here, where 10.78.0.K does not route: started by hand.
{ nginx_conf_head "$work/ng"
  cat <<CONF
    log_format t '\$msec \$request_time \$server_addr \$remote_addr \$uri \$status';
    access_log $work/ng/access.log t;
    types { text/html html; }
    server { $listens root $work/site; }
}
CONF
} > ng/nginx.conf
in_s /usr/sbin/nginx -c "$work/ng/nginx.conf" -p "$work/ng" -e "$work/ng/error.log" || { cat ng/error.log; fail "nginx"; }

# The frontier's server, and the proxy the machines reach it through.
sbase=$(in_s "$ROOT/tests/tools/pg.sh" start "$work/pgc")
in_s psql -qX "$sbase/postgres" -c "CREATE DATABASE crawl" >/dev/null
FS="$sbase/crawl"
ip netns exec "$S" "$ROOT/${FRONTIER_BIN:-bin}/latency-proxy" --listen 0.0.0.0 "${sbase##*:}" 1 "$work/proxy.port" &
wait_for_port "$work/proxy.port" $! "the latency proxy" /dev/null
frontier_of() { echo "${sbase%@*}@$(netns_addr "$1"):$(cat "$work/proxy.port")/crawl"; }
for kv in "politeness.min-delay 0.2" "politeness.delay-factor 0" "politeness.max-in-flight 1" "lease.ttl 3"; do
    # shellcheck disable=SC2086
    in_s frontier-config -f "$FS" $kv >/dev/null
done
for k in $(seq "$H"); do echo "http://10.78.0.$k:$PORT/index.html"; done | in_s frontier-add -q -f "$FS"

# At most 3 leases out at once (--max-in-flight counts the whole
# frontier's), so the 12 hosts' first requests (all due at once) spread over
# the machines: with more, one machine that wins the races for a lease can
# fetch everything there is (the hosts' own politeness allows 12 leases at
# most), and no other machine would be tested. The killed machine may die
# holding all 3: the others' followers then lease again once they expire.
start_pipeline() {  # machine number
    local i=$1 m F
    m=$(netns_machine "$i") F=$(frontier_of "$i")
    ( set +e
      ip netns exec "$m" frontier-lease -f "$F" --follow --max-in-flight 3 2> "lease$i.err" | tee "lease$i.out" |
          ip netns exec "$m" fetch --links 2> "fetch$i.err" | ip netns exec "$m" frontier-done -f "$F" > "done$i.out" 2> "done$i.err"
      echo "${PIPESTATUS[*]}" > "rc$i" ) 2>/dev/null &  # not bash's word on the one killed
}
for i in $(seq "$M"); do start_pipeline "$i"; done
pages_of() { awk -v a="10.78.0.$1" '$3 == a && $5 ~ /^\/p\//' ng/access.log 2>/dev/null | wc -l; }

# Mid-crawl: once host CUT has had 4 pages, its total budget goes to 1
# (spent already: the queue retires); then machine KILLED dies with its leases.
for _ in $(seq 300); do [ "$(pages_of "$CUT")" -ge 4 ] && break; sleep 0.05; done
[ "$(pages_of "$CUT")" -ge 4 ] || fail "host $CUT never reached 4 pages: $(tail -3 done1.err lease1.err)"
in_s frontier-budget -f "$FS" --queue "10.78.0.$CUT:$PORT" --total-budget 1 >/dev/null || fail "frontier-budget"
cut_at=$(date +%s.%N)
killed_ns=$(netns_machine "$KILLED")
# shellcheck disable=SC2046
kill -9 $(ip netns pids "$killed_ns") 2>/dev/null || fail "nothing ran on machine $KILLED"
for _ in $(seq 600); do
    alive=0
    for i in $(seq "$M"); do [ "$i" = "$KILLED" ] || [ -e "rc$i" ] || alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
done
if [ $alive != 0 ]; then
    # What the server and each machine were doing (the runner shows a
    # failure's last 30 lines): the leases out, the sessions, the tools.
    in_s psql -qXAt "$FS" -c "SELECT id, url, lease_expires, extract(epoch from now()) FROM urls WHERE state = 1 LIMIT 5"
    in_s psql -qXAt "$FS" -c "SELECT pid, state, wait_event, now() - xact_start, left(query, 60) FROM pg_stat_activity WHERE datname = 'crawl'"
    for i in $(seq "$M"); do echo "machine $i: rc $(cat "rc$i" 2>/dev/null || echo running); $(tail -qn 1 "lease$i.err" "done$i.err" | tr '\n' ' ')"; done
    in_s frontier-report -f "$FS" --json | python3 -c 'import json, sys; print("urls", json.load(sys.stdin)["urls"])'
    fail "the pipelines did not end within 60 s"
fi
# frontier-lease exits 4: finished, with the cut host's URLs held in its
# retired queue (pause at finish, frontier-lease(1)).
for i in $(seq "$M"); do
    [ "$i" = "$KILLED" ] && continue
    [ "$(cat "rc$i")" = "4 0 0 0" ] || { cat "lease$i.err" "fetch$i.err" "done$i.err"; fail "machine $i: exit codes $(cat "rc$i")"; }
done
sleep 0.2  # nginx logs a request after its answer

python3 - "$H" "$PAGES" "$CUT" "$cut_at" lease"$KILLED".out done"$KILLED".out <<'PY' || exit 1
import collections, json, sys
hosts, pages, cut, cut_at = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
leased = {json.loads(l)["url"] for l in open(sys.argv[5]) if l.strip()}
answered = {json.loads(l).get("url") for l in open(sys.argv[6]) if l.strip()}
reqs = collections.defaultdict(list)
for line in open("ng/access.log"):
    msec, took, addr, client, uri, status = line.split()
    reqs[addr].append((float(msec) - float(took), float(msec), uri, client))
bad, machines = [], set()
for addr, rs in reqs.items():
    rs.sort()
    machines |= {r[3] for r in rs}
    for (s0, e0, u0, _), (s1, _, u1, _) in zip(rs, rs[1:]):
        if s1 - e0 < 0.19:  # min-delay 0.2, nginx logs to the millisecond
            bad.append("%s %s %.3f s after %s" % (addr, u1, s1 - e0, u0))
if bad:
    sys.exit("FAIL: politeness: " + "; ".join(bad[:10]))
# The killed machine may have lost every race for a lease before it died.
if len(machines) < 3:
    sys.exit("FAIL: requests came from %d machines: %s" % (len(machines), sorted(machines)))
twice = 0
for k in range(1, hosts + 1):
    addr = "10.78.0.%d" % k
    got = collections.Counter(r[2] for r in reqs[addr] if r[2] != "/robots.txt")
    want = {"/index.html"} | {"/p/%d.html" % p for p in range(1, pages + 1)}
    if k == cut:
        after = [r for r in reqs[addr] if r[0] > cut_at]
        if len(after) > 1:
            sys.exit("FAIL: %d requests to the host whose budget was cut after the cut: %s" % (len(after), after))
        if set(got) == want:
            sys.exit("FAIL: the host whose budget was cut was crawled whole")
        continue
    if set(got) != want:
        sys.exit("FAIL: %s: pages missing: %s" % (addr, sorted(want - set(got))))
    for uri, n in got.items():
        url = "http://%s:8080%s" % (addr, uri)
        # Leased by the killed machine and not answered there: fetched again by another.
        limit = 2 if url in leased and url not in answered else 1
        if n > limit:
            sys.exit("FAIL: %s fetched %d times" % (url, n))
        twice += n - 1
print("ok: %d hosts crawled from %d machines, politeness held; %d URLs of the killed machine fetched again" %
      (hosts - 1, len(machines), twice))
PY
in_s frontier-report -f "$FS" --check >/dev/null || fail "frontier-report --check: $(in_s frontier-report -f "$FS" --check 2>&1 | tail -3)"
left=$(in_s frontier-report -f "$FS" --json | python3 -c 'import json, sys; r = json.load(sys.stdin)["urls"]; print(r["leased"])')
[ "$left" = 0 ] || fail "$left URLs still leased"
echo "ok: $M machines, one frontier: every page once, the budget cut and the kill -9 obeyed"
