# frontier-crawl's transfers at once (frontier-crawl(1), -c): without -c,
# as many as there are hosts ready, up to 256; with -c N never more than N;
# per host never more than politeness.max-in-flight, also with the
# politeness.lease-ahead a new frontier gets (leases wait in fetch, whose
# --per-host is the smallest max-in-flight where lease-ahead applies). One nginx on 40
# 127.0.2.x addresses, each host an index linking three pages that nginx
# answers after a second; politeness.max-in-flight 2, no delay. Transfers
# at once are counted from nginx's access log (start = $msec -
# $request_time).
# e2e: long (tests/e2e/run.sh starts it first)
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
source "$ROOT/tests/tools/nginx.sh"
fail() { echo "FAIL: $*"; exit 1; }

HOSTS=40
mkdir -p site ng
echo '<html><body><a href="/p/1.html">1</a><a href="/p/2.html">2</a><a href="/p/3.html">3</a></body></html>' \
    > site/index.html
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.2.1",0)); print(s.getsockname()[1])')
listens=""
for i in $(seq $HOSTS); do listens="$listens listen 127.0.2.$i:$PORT;"; done
{ nginx_conf_head "$PWD/ng" echo
  cat <<CONF
    log_format t '\$msec \$request_time \$server_addr \$uri \$status';
    access_log $PWD/ng/access.log t;
    types { text/html html; }
    server {
        $listens root $PWD/site;
        location /p/ { default_type text/html; echo_sleep 1; echo "<html><body>\$uri</body></html>"; }
    }
}
CONF
} > ng/nginx.conf
nginx_launch "$PWD/ng" "http://127.0.2.1:$PORT/index.html"
trap 'kill "$(cat ng/nginx.pid)" 2>/dev/null || true' EXIT
for i in $(seq $HOSTS); do echo "http://127.0.2.$i:$PORT/index.html"; done > seeds.txt
polite=(--set politeness.min-delay=0 --set politeness.delay-factor=0 --set politeness.max-in-flight=2)

# at_once LOG: the most requests under way at once, over all hosts and on
# one host (of those nginx took more than a few milliseconds to answer).
at_once() {
    python3 - "$1" <<'PY'
import collections, sys
ev, per = [], collections.defaultdict(list)
for line in open(sys.argv[1]):
    msec, took, addr, uri, status = line.split()
    end = float(msec)
    start = end - float(took)
    # nginx logs a request a moment after the client has its answer (and
    # may have started the next one), to the millisecond: 5 ms of slack,
    # so only the slow pages count.
    end -= 0.005
    if end <= start:
        continue
    for e in (ev, per[addr]):
        e += [(start, 1), (end, -1)]
def peak(e):
    cur = most = 0
    for _, d in sorted(e):
        cur += d
        most = max(most, cur)
    return most
print(peak(ev), max(peak(e) for e in per.values()))
PY
}

# crawl NAME ARGS...: a crawl of the 40 hosts in NAME; sets all and one.
crawl() {
    local name=$1; shift
    : > ng/access.log
    frontier-crawl -o "$name" -i seeds.txt "${polite[@]}" "$@" 2> "$name.err" ||
        { cat "$name.err"; fail "$name: exit $?"; }
    [ "$(jq -s 'map(select(.result == "done" and (.url | contains("/p/")))) | length' "$name/results.jsonl")" = $((HOSTS * 3)) ] ||
        fail "$name: not every page fetched"
    sleep 0.2  # nginx writes its access log after the response
    read -r all one < <(at_once ng/access.log)
}

crawl adaptive
grep -q "crawling adaptive/crawl.db: a fetch per ready host, up to 256 at once" adaptive.err ||
    fail "the message: $(cat adaptive.err)"
[ "$all" -gt 16 ] || fail "without -c: at most $all transfers at once"
[ "$one" -le 2 ] || fail "without -c: $one transfers at once to one host (max-in-flight 2)"
[ "$(frontier-config -f adaptive/crawl.db politeness.lease-ahead)" = 30 ] || fail "a new frontier's lease-ahead"
echo "ok: without -c, $all transfers at once over $HOSTS hosts, at most $one on a host"

crawl fixed -c 8
[ "$all" -le 8 ] || fail "-c 8: $all transfers at once"
[ "$one" -le 2 ] || fail "-c 8: $one transfers at once to one host (max-in-flight 2)"
echo "ok: -c 8 fixes it: at most $all transfers at once, $one on a host"

# A domain whose max-in-flight is 1 holds fetch to 1 per host (fetch has one
# limit for all hosts); an existing frontier keeps its own lease-ahead.
mkdir override
frontier-config -f override/crawl.db politeness.lease-ahead 10
frontier-config -f override/crawl.db --domain 127.0.2.1 politeness.max-in-flight 1
crawl override -c 16
[ "$one" -le 1 ] || fail "override: $one transfers at once to one host (max-in-flight 1 on one domain)"
[ "$(frontier-config -f override/crawl.db politeness.lease-ahead)" = 10 ] || fail "override: lease-ahead changed"
echo "ok: a domain's max-in-flight 1 holds every host to $one at once"
