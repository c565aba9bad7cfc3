# frontier-crawl (frontier-crawl(1)) over a small flaky web: one nginx on
# nine 127.0.1.x addresses, `map $server_addr` giving each host its
# behaviour: four healthy, two answering 429 (Retry-After: 1) and two 503
# on a quarter of requests, and one address where nothing listens. Six
# pages a host, politeness.min-delay 1, --max-wait 30, the new frontier's
# retry settings. The crawl ends (exit 0, or 3 with only the dead host
# left) well within the bound, no request to a host comes sooner than
# min-delay after the one before (nginx's access log, $msec), every
# healthy page and at least 95% of the flaky hosts' pages are fetched.
# Real time: about half a minute.
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p site/p ng/tmp
links=""
for i in 0 1 2 3 4; do links="$links<a href=\"/p/$i.html\">$i</a>"; echo "<html><body>page $i</body></html>" > site/p/$i.html; done
echo "<html><body>$links</body></html>" > site/index.html
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.1.1",0)); print(s.getsockname()[1])')
healthy="127.0.1.1 127.0.1.2 127.0.1.3 127.0.1.4"
flaky="127.0.1.5 127.0.1.6 127.0.1.7 127.0.1.8"
dead=127.0.1.9
listens=""
for a in $healthy $flaky; do listens="$listens listen $a:$PORT;"; done
user=""
[ "$(id -u)" = 0 ] && user="user root;"
cat > ng/nginx.conf <<CONF
$user
worker_processes 1;
daemon on;
pid $PWD/ng/nginx.pid;
error_log $PWD/ng/error.log;
events { worker_connections 256; }
http {
    log_format t '\$msec \$server_addr \$uri \$status';
    access_log $PWD/ng/access.log t;
    client_body_temp_path $PWD/ng/tmp; proxy_temp_path $PWD/ng/tmp;
    fastcgi_temp_path $PWD/ng/tmp; uwsgi_temp_path $PWD/ng/tmp; scgi_temp_path $PWD/ng/tmp;
    types { text/html html; }
    map \$server_addr \$behaviour { 127.0.1.5 r429; 127.0.1.6 r429; 127.0.1.7 r503; 127.0.1.8 r503; default ok; }
    split_clients "\${request_id}" \$unlucky { 25% 1; * 0; }
    map "\$behaviour:\$unlucky" \$answer { "r429:1" 429; "r503:1" 503; default 0; }
    server {
        $listens root $PWD/site;
        location / {
            if (\$answer = 429) { add_header Retry-After 1 always; return 429; }
            if (\$answer = 503) { return 503; }
        }
    }
}
CONF
/usr/sbin/nginx -c "$PWD/ng/nginx.conf" -p "$PWD/ng" -e "$PWD/ng/error.log" 2>> ng/error.log || { cat ng/error.log; exit 1; }
trap 'kill "$(cat ng/nginx.pid)" 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.1.1:$PORT/index.html" && break; sleep 0.1; done
: > ng/access.log

for a in $healthy $flaky $dead; do echo "http://$a:$PORT/index.html"; done > seeds.txt
start=$(date +%s)
rc=0
timeout 170 frontier-crawl -o out -c 16 -i seeds.txt --set politeness.min-delay=1 --set politeness.delay-factor=0 \
    --max-wait 30 2> out.err || rc=$?
took=$(( $(date +%s) - start ))
[ $rc = 0 ] || [ $rc = 3 ] || { cat out.err; fail "the crawl exited $rc"; }
[ $took -le 120 ] || fail "the crawl took $took s"
grep -q "reports: out/report.txt, out/report.html" out.err || fail "no reports: $(cat out.err)"
echo "ok: the crawl ended (exit $rc) in $took s"

# Politeness: per host, requests at least min-delay apart (a little slack
# for the log's millisecond clock).
close=$(awk '{ if (($2 in last) && $1 - last[$2] < 0.99) print $2, $3, $1 - last[$2]; last[$2] = $1 }' ng/access.log)
[ -z "$close" ] || fail "requests sooner than min-delay after the last one: $close"
echo "ok: no request to a host sooner than min-delay after the one before"

pages() { awk -v a="$1" '$2 == a && $4 == 200 && $3 != "/robots.txt" {print $3}' ng/access.log | sort -u | wc -l; }
for a in $healthy; do
    [ "$(pages "$a")" = 6 ] || fail "healthy host $a: $(pages "$a") of 6 pages"
done
got=0
for a in $flaky; do got=$((got + $(pages "$a"))); done
[ $((got * 100)) -ge $((24 * 95)) ] || fail "flaky hosts: $got of 24 pages fetched"
echo "ok: every healthy page, $got of the 24 flaky hosts' pages fetched"
