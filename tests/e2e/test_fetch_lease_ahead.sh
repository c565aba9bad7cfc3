# fetch's hold of lease-ahead records (fetch(1), "delay"; frontier(7),
# POLITENESS): with --per-host 1, records of one host carrying "delay":0.4
# start no sooner than 0.4 s after the host's previous request ended, those
# without one at once; --per-host keeps the requests under way on a host at
# its value; a 429 with Retry-After: 1 holds the host's "delay" records 1 s.
# Start and end of each request from nginx's access log (start = $msec -
# $request_time).
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
source "$ROOT/tests/tools/nginx.sh"
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p site ng
echo ok > site/index.html
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
{ nginx_conf_head "$PWD/ng" echo
  cat <<CONF
    log_format t '\$msec \$request_time \$uri \$status';
    access_log $PWD/ng/access.log t;
    server {
        listen 127.0.0.1:$PORT; root $PWD/site;
        location /p/ { default_type text/html; echo_sleep 0.2; echo "<html>\$uri</html>"; }
        location /busy { add_header Retry-After 1 always; return 429; }
    }
}
CONF
} > ng/nginx.conf
nginx_launch "$PWD/ng" "http://127.0.0.1:$PORT/index.html"
trap 'kill "$(cat ng/nginx.pid)" 2>/dev/null || true' EXIT
base="http://127.0.0.1:$PORT"

# span LOG PREFIX: for the requests whose path starts with PREFIX, in start
# order, the most under way at once and the shortest gap from one's end to
# the next one's start (nginx logs to the millisecond: 5 ms of slack).
span() {
    python3 - "$1" "$2" <<'PY'
import sys
reqs = []
for line in open(sys.argv[1]):
    msec, took, uri, status = line.split()
    if uri.startswith(sys.argv[2]):
        reqs.append((float(msec) - float(took), float(msec) - 0.005))
reqs.sort()
ev = sorted([(s, 1) for s, e in reqs] + [(e, -1) for s, e in reqs])
cur = most = 0
for _, d in ev:
    cur += d
    most = max(most, cur)
gap = min((reqs[i + 1][0] - reqs[i][1] for i in range(len(reqs) - 1)), default=0)
print(most, "%.3f" % gap, len(reqs))
PY
}

: > ng/access.log
for i in 1 2 3 4; do echo "{\"url\":\"$base/p/d$i\",\"delay\":0.4}"; done | fetch -q -c 8 --per-host 1 > d.jsonl
sleep 0.2  # nginx writes its access log after the response
read -r most gap n < <(span ng/access.log /p/d)
[ "$n" = 4 ] || fail "delay: $n requests"
python3 -c "import sys; sys.exit(0 if $gap >= 0.39 else 1)" || fail "delay 0.4: a gap of $gap s between requests"
echo "ok: \"delay\":0.4 spaces a host's requests (shortest gap $gap s)"

: > ng/access.log
for i in 1 2 3 4 5 6 7 8; do echo "{\"url\":\"$base/p/c$i\",\"delay\":0}"; done | fetch -q -c 8 --per-host 2 > c.jsonl
sleep 0.2
read -r most gap n < <(span ng/access.log /p/c)
[ "$n" = 8 ] || fail "cap: $n requests"
[ "$most" -le 2 ] || fail "--per-host 2: $most requests at once"
echo "ok: --per-host 2 holds \"delay\":0 records to $most at once"

: > ng/access.log
{ echo "{\"url\":\"$base/busy\",\"delay\":0}"; echo "{\"url\":\"$base/p/after\",\"delay\":0}"; } |
    fetch -q -c 8 --per-host 1 > r.jsonl
sleep 0.2
read -r most gap n < <(span ng/access.log /)
python3 -c "import sys; sys.exit(0 if $gap >= 0.99 else 1)" || fail "Retry-After 1: the next request $gap s later"
echo "ok: a 429's Retry-After holds the host's \"delay\" records ($gap s)"

: > ng/access.log
for i in 1 2 3; do echo "$base/p/n$i"; done | fetch -q -c 8 --per-host 1 > n.jsonl
sleep 0.2
read -r most gap n < <(span ng/access.log /p/n)
python3 -c "import sys; sys.exit(0 if $gap < 0.2 else 1)" || fail "no delay: a gap of $gap s"
echo "ok: records without \"delay\" are not held ($gap s)"
