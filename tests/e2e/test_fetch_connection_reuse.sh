# fetch keeps an idle connection per recently fetched host (fetch(1),
# DESCRIPTION): a broad crawl that comes back to each of many hosts reuses
# that host's connection. 150 hosts (127.2.0.1 .. 127.2.0.150, one nginx
# port) with two pages each, the second of every host asked only after
# every host's first (--concurrency 4, --per-host 1): each host's two
# requests share one connection ($connection in nginx's log), more hosts
# than the 64 idle connections that 2 x --concurrency or 64 would keep.
# Then the same under a soft limit of 256 open files, which fetch raises
# to the hard limit.
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
source "$ROOT/tests/tools/nginx.sh"
fail() { echo "FAIL: $*"; exit 1; }
H=150

mkdir -p site ng
echo a > site/a.txt
echo b > site/b.txt
PORT=$(nginx_free_port)
listens=""
for i in $(seq "$H"); do listens="$listens listen 127.2.0.$i:$PORT;"; done
{ nginx_conf_head "$PWD/ng"
  cat <<CONF
    log_format c '\$server_addr \$uri \$status \$connection';
    access_log $PWD/ng/access.log c;
    keepalive_requests 100000;
    server { $listens root $PWD/site; }
}
CONF
} > ng/nginx.conf
nginx_launch "$PWD/ng" "http://127.2.0.1:$PORT/a.txt"
trap 'kill "$(cat ng/nginx.pid)" 2>/dev/null || true' EXIT
log=ng/access.log

check() {  # what: every host's two requests on one connection
    python3 - "$log" "$H" "$1" <<'PY'
import collections, sys
log, hosts, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
conns = collections.defaultdict(set)
n = 0
for line in open(log):
    port, uri, status, conn = line.split()
    if uri not in ("/a.txt", "/b.txt"):
        continue
    assert status == "200", line
    conns[port].add(conn)
    n += 1
assert n == 2 * hosts, "%s: %d requests, want %d" % (what, n, 2 * hosts)
new = sum(len(c) - 1 for c in conns.values())
if new:
    sys.exit("FAIL: %s: %d of %d hosts' second request opened a new connection" % (what, new, hosts))
print("ok: %s: %d hosts, each host's two requests on one connection" % (what, hosts))
PY
}

for i in $(seq "$H"); do echo "http://127.2.0.$i:$PORT/a.txt"; done > in.txt
for i in $(seq "$H"); do echo "http://127.2.0.$i:$PORT/b.txt"; done >> in.txt
: > "$log"
fetch -q -c 4 --per-host 1 < in.txt > out.jsonl
[ "$(grep -c '"status":200' out.jsonl)" = $((2 * H)) ] || fail "not every page fetched: $(head -3 out.jsonl)"
sleep 0.2  # nginx logs a request after its answer
check "default limits"

: > "$log"
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 1024 ]; then
    (ulimit -Sn 256 && fetch -q -c 4 --per-host 1 < in.txt > out.jsonl)
    [ "$(grep -c '"status":200' out.jsonl)" = $((2 * H)) ] || fail "under ulimit -n 256: $(head -3 out.jsonl)"
    sleep 0.2
    check "soft limit 256"
fi
