#!/usr/bin/env bash
# fetch vs curl --parallel over the same small local pages, same run.
# Starts nginx on 127.0.0.1 (a free port) in a temp dir, serves N small pages
# (default 20000; N=... to change), and prints pages/s for
#   curl -Z --parallel-max 64 -K urls.cfg
#   fetch -c 64 --per-host 64 < urls.txt        (one host, so --per-host 64)
#   fetch -c 64 --per-host 64 --links --warc DIR/crawl < urls.txt
# Not part of `make check`. Needs nginx (nginx-light) and curl.
#   FRONTIER_BIN=bin   where fetch is (or FETCH=path/to/fetch)
#   RESULTS=FILE       also append "KEY<TAB>VALUE" lines (b5_*) for run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
N="${N:-20000}"
C="${C:-64}"
bin="${FRONTIER_BIN:-bin}"
case $bin in /*) ;; *) bin="$root/$bin" ;; esac
fetch="${FETCH:-$bin/fetch}"
[ -x "$fetch" ] || { echo "$fetch missing (make all, or set FRONTIER_BIN)" >&2; exit 1; }
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$nginx_bin" ] || { echo "nginx not installed (apt-get install -y nginx-light)" >&2; exit 1; }
dir="$(mktemp -d)"
trap '[ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null; rm -rf "$dir"' EXIT
chmod 755 "$dir"
mkdir -p "$dir/www" "$dir/logs"
head -c 2000 /dev/zero | tr '\0' 'a' | sed 's/^/<html><body>/; s/$/<\/body><\/html>/' > "$dir/www/page.html"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat > "$dir/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    keepalive_timeout 60;
    client_body_temp_path $dir/tmp;
    proxy_temp_path $dir/tmp;
    fastcgi_temp_path $dir/tmp;
    uwsgi_temp_path $dir/tmp;
    scgi_temp_path $dir/tmp;
    server {
        listen 127.0.0.1:$port;
        root $dir/www;
        location / { default_type text/html; rewrite ^ /page.html break; }
    }
}
CONF
mkdir -p "$dir/tmp"
"$nginx_bin" -c "$dir/nginx.conf" -p "$dir" &
for _ in $(seq 100); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/p0" && break
    sleep 0.05
done
seq 1 "$N" | sed "s|^|http://127.0.0.1:$port/p|" > "$dir/urls.txt"
sed 's/.*/url = "&"\noutput = "\/dev\/null"/' "$dir/urls.txt" > "$dir/urls.cfg"

rate() { python3 -c "import sys; print('%.0f' % ($N / float(sys.argv[1])))" "$1"; }
now() { date +%s.%N; }

t0=$(now)
curl -s --no-progress-meter -Z --parallel-max "$C" -K "$dir/urls.cfg"
t1=$(now)
curl_secs=$(python3 -c "print($t1 - $t0)")

t0=$(now)
/usr/bin/time -f "maxrss=%M" -o "$dir/t.fetch" "$fetch" -q -c "$C" --per-host "$C" < "$dir/urls.txt" > "$dir/fetch.out"
t1=$(now)
fetch_secs=$(python3 -c "print($t1 - $t0)")
ok=$(grep -c '"status":200' "$dir/fetch.out" || true)

t0=$(now)
/usr/bin/time -f "maxrss=%M" -o "$dir/t.fetch2" "$fetch" -q -c "$C" --per-host "$C" --links --warc "$dir/warc/crawl" < "$dir/urls.txt" > "$dir/fetch2.out"
t1=$(now)
full_secs=$(python3 -c "print($t1 - $t0)")

echo "pages: $N, concurrency: $C"
echo "curl -Z --parallel-max $C: $(rate "$curl_secs") pages/s ($curl_secs s)"
rss() { echo $(( $(sed -n 's/.*maxrss=\([0-9]*\).*/\1/p' "$1") / 1024 )); }
echo "fetch -c $C --per-host $C: $(rate "$fetch_secs") pages/s ($fetch_secs s), $ok results with status 200, peak RSS $(rss "$dir/t.fetch") MiB"
echo "fetch -c $C --per-host $C --links --warc: $(rate "$full_secs") pages/s ($full_secs s), peak RSS $(rss "$dir/t.fetch2") MiB"
if [ -n "${RESULTS:-}" ]; then
    printf 'b5_n\t%s\nb5_c\t%s\nb5_curl\t%s\nb5_fetch\t%s\nb5_ok\t%s\nb5_full\t%s\nb5_rss\t%s\nb5_rss_full\t%s\n' \
        "$N" "$C" "$(rate "$curl_secs")" "$(rate "$fetch_secs")" "$ok" "$(rate "$full_secs")" \
        "$(rss "$dir/t.fetch")" "$(rss "$dir/t.fetch2")" >> "$RESULTS"
fi
