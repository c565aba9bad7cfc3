#!/usr/bin/env bash
# B8 and B9: a polite broad crawl of H hosts, each on its own loopback
# address 127.1.X.Y behind one nginx port (nginx listens on every address),
# by frontier-crawl with politeness.min-delay DELAY and delay-factor 0:
#   frontier-crawl [-c C] --set politeness.min-delay=DELAY --set politeness.delay-factor=0
# The ideal is H pages/s at DELAY 1: one page a second from every host.
# Not part of `make check`.
#
#   SITE=fixed (B8, default)  every host the same 20 pages, each linking to
#                      all 20 and to a page under /private/, which robots.txt
#                      disallows; then Scrapy (tests/bench/scrapy_crawl.py:
#                      DOWNLOAD_DELAY DELAY, one request at a time per host,
#                      robots.txt obeyed) on the same hosts in the same run
#   SITE=endless (B9)  every page of every host links to 20 new child pages
#                      of its own ($uri/a .. $uri/t), to 20 navigation pages
#                      every page shares (/nav0 .. /nav19) and to /private/;
#                      pages made by nginx's echo module (no files, no
#                      upstream); frontier-crawl runs SECONDS_RUN seconds,
#                      then SIGTERM (as ^C: transfers under way finish)
#   H=1000             hosts (127.1.0.1 onwards)
#   C=                 frontier-crawl -c (empty: its own default); Scrapy's
#                      CONCURRENT_REQUESTS is SCRAPY_C (default: C, else 256)
#   DELAY=1            politeness.min-delay and Scrapy's DOWNLOAD_DELAY (s)
#   SECONDS_RUN=600 WINDOW=30   (endless) length of the crawl, rate windows
#   TMPDIR             where the frontier file goes (default /var/tmp: disk)
#   FRONTIER_BIN=bin   the tools to measure
#   KEEP=1             leave the temporary directory (logs, samples, frontier)
#   RESULTS=FILE       also append "KEY<TAB>VALUE" lines (KEY prefixed PREFIX_,
#                      default b8 or b9) for tests/bench/run.sh
# Printed: pages/s of each crawler (2xx answers other than robots.txt, from
# nginx's access log) and its fraction of the ideal; the ratio to Scrapy; the
# politeness check from the log: per host, the gaps between the starts of
# consecutive requests (robots.txt included; start = $msec - $request_time),
# how many are shorter than DELAY less the log's 5 ms resolution, and the
# requests under /private/. Peak RSS (VmHWM) and CPU of frontier-crawl's
# children are sampled every second from /proc (tests/bench/broad_stats.py);
# endless: per WINDOW, pages/s, fraction of the ideal, CPU of each tool and
# nginx, the machine's busy fraction; the frontier's URLs at the end.
# Nothing leaves 127/8.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${FRONTIER_BIN:-bin}"
case $bin in /*) ;; *) bin="$root/$bin" ;; esac
for t in frontier-crawl frontier-add frontier-lease frontier-done fetch frontier-report; do
    [ -x "$bin/$t" ] || { echo "broad_crawl: $bin/$t missing (make all, or set FRONTIER_BIN)" >&2; exit 1; }
done
SITE="${SITE:-fixed}"
case $SITE in fixed|endless) ;; *) echo "broad_crawl: SITE is fixed or endless" >&2; exit 2 ;; esac
H="${H:-1000}"
C="${C:-}"
SCRAPY_C="${SCRAPY_C:-${C:-256}}"
DELAY="${DELAY:-1}"
SECONDS_RUN="${SECONDS_RUN:-600}"
WINDOW="${WINDOW:-30}"
[ "$SITE" = fixed ] && PREFIX="${PREFIX:-b8}" || PREFIX="${PREFIX:-b9}"
stats="$root/tests/bench/broad_stats.py"

if [ "$SITE" = fixed ] && ! /usr/bin/python3 -c 'import scrapy' 2> /dev/null; then
    echo "broad_crawl: installing python3-scrapy (the peer)" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends python3-scrapy > /dev/null
fi

dir="$(mktemp -d "${TMPDIR:-/var/tmp}/broad_crawl.XXXXXX")"
chmod 755 "$dir"
source "$root/tests/tools/nginx.sh"
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2> /dev/null || true; done
    nginx_stop > /dev/null 2>&1 || true
    if [ -n "${KEEP:-}" ]; then echo "broad_crawl: kept $dir" >&2; else rm -rf "$dir"; fi
}
trap cleanup EXIT
now() { date +%s.%N; }
calc() { awk "BEGIN {print $*}"; }

# Host i (0-based) is 127.1.(i / 250).(i % 250 + 1): all of 127/8 is loopback.
port=$(nginx_free_port)
: > "$dir/seeds.txt"
listens=""
for i in $(seq 0 $((H - 1))); do
    a="127.1.$((i / 250)).$((i % 250 + 1))"
    echo "http://$a:$port/" >> "$dir/seeds.txt"
    listens="$listens listen $a:$port;"
done

robots='location = /robots.txt { default_type text/plain; return 200 "User-agent: *\nDisallow: /private/\n"; }'
if [ "$SITE" = fixed ]; then
    mkdir -p "$dir/site/p" "$dir/site/private"
    links='<a href="/">home</a>'
    for i in $(seq 1 19); do links="$links <a href=\"/p/$i.html\">page $i</a>"; done
    links="$links <a href=\"/private/x.html\">private</a>"
    for f in index.html $(seq -f 'p/%g.html' 1 19) private/x.html; do
        printf '<!DOCTYPE html><html><head><title>%s</title></head><body>\n%s\n</body></html>\n' "$f" "$links" > "$dir/site/$f"
    done
    location="root $dir/site;"
else
    # $base: the page's path without a trailing slash, so that / has the
    # children /a .. /t and /a has /a/a .. /a/t.
    children="" nav=""
    for c in a b c d e f g h i j k l m n o p q r s t; do children="$children<a href=\"\$base/$c\">$c</a> "; done
    for i in $(seq 0 19); do nav="$nav<a href=\"/nav$i\">nav $i</a> "; done
    location="location / { default_type text/html;
        echo '<!DOCTYPE html><html><head><title>\$uri</title></head><body>';
        echo '$children';
        echo '$nav<a href=\"/private/\">private</a>';
        echo '</body></html>'; }"
fi

# nginx over every address, one worker (the crawler needs the other core);
# the log has the end of each request and its duration ($msec,
# $request_time), the address and the path.
NGINX_DIR="$dir/nginx"
mkdir -p "$NGINX_DIR/tmp"
log="$NGINX_DIR/access.log"
user=""
[ "$(id -u)" = 0 ] && user="user root;"
cat > "$NGINX_DIR/nginx.conf" <<CONF
$user
$([ "$SITE" = endless ] && echo "load_module /usr/lib/nginx/modules/ngx_http_echo_module.so;")
worker_processes 1;
worker_rlimit_nofile $((4 * H + 4096));
daemon on;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log;
events { worker_connections $((2 * H + 2048)); }
http {
    log_format broad '\$msec \$request_time \$server_addr \$request_uri \$status';
    access_log $log broad;
    client_body_temp_path $NGINX_DIR/tmp; proxy_temp_path $NGINX_DIR/tmp;
    fastcgi_temp_path $NGINX_DIR/tmp; uwsgi_temp_path $NGINX_DIR/tmp; scgi_temp_path $NGINX_DIR/tmp;
    types { text/html html; }
    default_type application/octet-stream;
    keepalive_requests 100000;
    map \$uri \$base { / ""; default \$uri; }
    server { $listens $robots $location }
}
CONF
/usr/sbin/nginx -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" -e "$NGINX_DIR/error.log" 2>> "$NGINX_DIR/error.log" || {
    cat "$NGINX_DIR/error.log" >&2; exit 1; }
for u in "$(head -1 "$dir/seeds.txt")" "$(tail -1 "$dir/seeds.txt")"; do
    for _ in $(seq 50); do curl -s -o /dev/null "$u" && break; sleep 0.1; done
done
nginx_workers() { ps -o pid= --ppid "$(cat "$NGINX_DIR/nginx.pid")" | tr '\n' ' '; }

put() { [ -z "${RESULTS:-}" ] || printf '%s_%s\t%s\n' "$PREFIX" "$1" "$2" >> "$RESULTS"; }
peak() { awk -v n="$2" '$3 == n && $5 > m {m = $5} END {printf "%d", m / 1024}' "$1"; }
cpu_of() { awk -v n="$2" '$3 == n {t[$2] = $4} END {for (p in t) s += t[p]; printf "%.1f", s / 100}' "$1"; }
# politeness LOGCOPY: the check's figures as KEY VALUE pairs (broad_stats.py)
politeness() { python3 "$stats" politeness "$1" "$DELAY"; }
field() { awk -v k="$2" '{for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1)}' <<< "$1"; }

# frontier-crawl in the background, its children sampled each second.
start_ours() {
    local args=(-q -o "$dir/ours" --set "politeness.min-delay=$DELAY" --set politeness.delay-factor=0)
    [ -z "$C" ] || args+=(-c "$C")
    : > "$log"
    t0=$(now)
    "$bin/frontier-crawl" "${args[@]}" -i "$dir/seeds.txt" 2> "$dir/ours.err" &
    crawl=$!
    # shellcheck disable=SC2046
    python3 "$stats" sample "$dir/samples" "$crawl" $(nginx_workers) &
    sampler=$!
    pids="$crawl $sampler"
}
desc_c="frontier-crawl${C:+ -c $C} --set politeness.min-delay=$DELAY --set politeness.delay-factor=0"
ideal=$(calc "$H / $DELAY")

if [ "$SITE" = fixed ]; then
    start_ours
    rc=0; wait "$crawl" || rc=$?
    t1=$(now)
    kill "$sampler" 2> /dev/null || true
    [ $rc = 0 ] || { echo "broad_crawl: frontier-crawl exited $rc" >&2; cat "$dir/ours.err" >&2; exit 1; }
    cp "$log" "$dir/log.ours"
    : > "$log"
    s0=$(now)
    /usr/bin/time -f "maxrss=%M user=%U sys=%S" -o "$dir/t.scrapy" \
        /usr/bin/python3 "$root/tests/bench/scrapy_crawl.py" "$SCRAPY_C" "$DELAY" "$dir/seeds.txt" \
        > "$dir/scrapy.out" 2> "$dir/scrapy.err" || { tail -20 "$dir/scrapy.err" >&2; exit 1; }
    s1=$(now)
    cp "$log" "$dir/log.scrapy"
    po=$(politeness "$dir/log.ours")
    ps=$(politeness "$dir/log.scrapy")
    wall=$(calc "$t1 - $t0")
    swall=$(calc "$s1 - $s0")
    rate=$(calc "$(field "$po" pages) / $wall")
    srate=$(calc "$(field "$ps" pages) / $swall")
    frac=$(printf '%.2f' "$(calc "$rate / $ideal")")
    sfrac=$(printf '%.2f' "$(calc "$srate / $ideal")")
    ratio=$(printf '%.2f' "$(calc "$rate / $srate")")
    srss=$(( $(sed -n 's/.*maxrss=\([0-9]*\).*/\1/p' "$dir/t.scrapy") / 1024 ))
    scpu=$(awk '{for (i = 1; i <= NF; i++) if ($i ~ /^(user|sys)=/) { split($i, a, "="); s += a[2] }} END {printf "%.1f", s}' "$dir/t.scrapy")
    echo "site: $H hosts x 20 pages on 127.1.x.y:$port, robots.txt disallowing /private/; ideal $(printf '%.0f' "$ideal") pages/s"
    echo "$desc_c: $(field "$po" pages) pages in $(printf '%.1f' "$wall") s = $(printf '%.0f' "$rate") pages/s, $frac of the ideal"
    echo "  first request $(printf '%.2f' "$(calc "$(field "$po" first) - $t0")") s after the start, the last $(printf '%.2f' "$(calc "$t1 - $(field "$po" last)")") s before the exit"
    echo "  politeness: $(field "$po" close) gaps < ${DELAY} s (min $(field "$po" min_gap), median $(field "$po" median_gap), 90th percentile $(field "$po" p90_gap) s) over $(field "$po" hosts) hosts; robots.txt $(field "$po" robots), /private/ $(field "$po" private)"
    echo "  peak RSS lease / fetch / done: $(peak "$dir/samples" frontier-lease) / $(peak "$dir/samples" fetch) / $(peak "$dir/samples" frontier-done) MiB; CPU s: $(cpu_of "$dir/samples" frontier-lease) / $(cpu_of "$dir/samples" fetch) / $(cpu_of "$dir/samples" frontier-done)"
    echo "Scrapy $(/usr/bin/python3 -c 'import scrapy; print(scrapy.__version__)') (CONCURRENT_REQUESTS $SCRAPY_C, DOWNLOAD_DELAY $DELAY, 1 per host): $(field "$ps" pages) pages in $(printf '%.1f' "$swall") s = $(printf '%.0f' "$srate") pages/s, $sfrac of the ideal"
    echo "  politeness: $(field "$ps" close) gaps < ${DELAY} s (min $(field "$ps" min_gap), median $(field "$ps" median_gap), 90th percentile $(field "$ps" p90_gap) s) over $(field "$ps" hosts) hosts; robots.txt $(field "$ps" robots), /private/ $(field "$ps" private)"
    echo "  peak RSS $srss MiB, CPU $scpu s"
    echo "ours / Scrapy: ${ratio}x pages/s"
    put desc "$H hosts × 20 pages"
    put h "$H"; put c "${C:-default}"; put scrapy_c "$SCRAPY_C"; put delay "$DELAY"
    put pages "$(field "$po" pages)"; put pages_scrapy "$(field "$ps" pages)"
    put rate "$rate"; put rate_scrapy "$srate"; put frac "$frac"; put frac_scrapy "$sfrac"; put ratio "$ratio"
    put close "$(field "$po" close)"; put close_scrapy "$(field "$ps" close)"
    put private "$(field "$po" private)"; put private_scrapy "$(field "$ps" private)"
    put min_gap "$(field "$po" min_gap)"; put min_gap_scrapy "$(field "$ps" min_gap)"
    put median_gap "$(field "$po" median_gap)"; put median_gap_scrapy "$(field "$ps" median_gap)"
    put rss_lease "$(peak "$dir/samples" frontier-lease)"; put rss_fetch "$(peak "$dir/samples" fetch)"
    put rss_done "$(peak "$dir/samples" frontier-done)"; put rss_scrapy "$srss"
    exit 0
fi

# endless: SECONDS_RUN of crawling, then SIGTERM (a background job of a
# script ignores SIGINT); the frontier's size from the report frontier-crawl
# writes at the end.
start_ours
sleep "$(calc "$t0 + $SECONDS_RUN - $(now)")"
kill -TERM "$crawl" 2> /dev/null || true
t1=$(now)
rc=0; wait "$crawl" || rc=$?
t2=$(now)
sleep 1.2   # the sampler's last round
kill "$sampler" 2> /dev/null || true
[ $rc = 0 ] || { echo "broad_crawl: frontier-crawl exited $rc" >&2; tail -5 "$dir/ours.err" >&2; exit 1; }
cp "$log" "$dir/log.ours"
po=$(python3 "$stats" politeness "$dir/log.ours" "$DELAY" "$t0" "$t1")
python3 "$stats" windows "$dir/log.ours" "$dir/samples" "$t0" "$SECONDS_RUN" "$WINDOW" "$H" > "$dir/windows.md"
urls=$(sed -n 's/^URLs: .*(\([0-9]*\) added.*/\1/p' "$dir/ours/report.txt")
queued=$(sed -n 's/^URLs: \([0-9]*\) queued.*/\1/p' "$dir/ours/report.txt")
db_mib=$(( $(cat "$dir/ours/crawl.db" "$dir/ours/crawl.db-wal" 2> /dev/null | wc -c || true) / 1048576 ))
minf=$(field "$(tail -1 "$dir/windows.md")" min_fraction)
meanf=$(field "$(tail -1 "$dir/windows.md")" mean_fraction)
echo "site: $H endless hosts on 127.1.x.y:$port (20 children + 20 shared navigation pages a page); ideal $(printf '%.0f' "$ideal") pages/s"
echo "$desc_c for $SECONDS_RUN s, then SIGTERM (stopped and reported in $(printf '%.1f' "$(calc "$t2 - $t1")") s):"
echo
head -n -2 "$dir/windows.md"
echo
echo "fraction of the ideal: min $minf, mean $meanf; frontier at the end: ${urls:-?} URLs (${queued:-?} queued), file and WAL $db_mib MiB"
echo "politeness: $(field "$po" close) gaps < ${DELAY} s (min $(field "$po" min_gap), median $(field "$po" median_gap), 90th percentile $(field "$po" p90_gap) s) over $(field "$po" hosts) hosts; robots.txt $(field "$po" robots), /private/ $(field "$po" private)"
put h "$H"; put c "${C:-default}"; put seconds "$SECONDS_RUN"; put window "$WINDOW"
put min_frac "$minf"; put mean_frac "$meanf"; put urls "${urls:-0}"; put queued "${queued:-0}"; put db_mib "$db_mib"
put close "$(field "$po" close)"; put private "$(field "$po" private)"; put min_gap "$(field "$po" min_gap)"
put median_gap "$(field "$po" median_gap)"
put fractions "$(awk -F'|' '/^\| of the ideal/ {for (i = 3; i < NF; i++) printf "%s%s", (i > 3 ? " " : ""), $i}' "$dir/windows.md" | tr -s ' ' | sed 's/^ //; s/ $//')"
put cpu_page "$(sed -n 's/^CPU ms per page, first window → last: //p' "$dir/windows.md")"
put rss_lease "$(peak "$dir/samples" frontier-lease)"; put rss_fetch "$(peak "$dir/samples" fetch)"
put rss_done "$(peak "$dir/samples" frontier-done)"
