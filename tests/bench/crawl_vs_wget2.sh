#!/usr/bin/env bash
# B6: a full crawl of a local multi-host site,
#   frontier-lease --follow | fetch --links | frontier-done
# beside `wget2 --recursive` with the same number of transfers at once, on the
# same site, in the same run. Not part of `make check`.
#
#   SITE=python-docs (default) Debian's python3-doc HTML (~530 pages, ~67 MB,
#                      ~170 links a page) served on HOSTS ports of 127.0.0.1:
#                      HOSTS hosts, HOSTS queues, HOSTS x 532 pages
#   SITE=libstdcxx     Debian's libstdc++-12-doc API docs (Doxygen: ~3,800
#                      html files, 144 MB with the svg/js/map files) on HOSTS
#                      ports (default HOSTS=1 for this site): from /index.html,
#                      5,209 requests a host (3,743 html, 1,462 svg, 3 css,
#                      1 tag file, 93 broken links answered 404)
#   SITE=gtk-docs      Debian's libglib2.0-doc (gtk-doc: the GLib, GIO and
#                      GObject references, 386 pages, ~150 links a page, most
#                      of them repeats) served from /usr/share/gtk-doc/html on
#                      HOSTS ports (default HOSTS=6 for this site: 2,922
#                      requests), seeded with the three books' index.html:
#                      link-heavy pages, where extracting links is the work
#   SITE=synthetic     tests/tools/make-site.py PAGES pages (default 2000, ~0.5 KB
#                      each, 8 links a page, one to another host) on HOSTS ports
#   DOCS=DIR           the tree served for python-docs (/usr/share/doc/python3/html)
#                      or libstdcxx (/usr/share/doc/gcc-12-base/libstdc++/user)
#                      or gtk-docs (/usr/share/gtk-doc/html)
#   HOSTS=3  C=8       hosts (1 for libstdcxx, 6 for gtk-docs); transfers at
#                      once (fetch -c C --per-host C, wget2 --max-threads=C)
#   INFLIGHT=256       frontier-lease --follow --max-in-flight (and -n,
#                      --per-queue): the depth of the pipe, not transfers
#   REPEAT=3           runs of each, interleaved; the median is reported
#   DISK=1             both crawlers write to disk: the frontier file (crawl.db),
#                      wget2's -P directory and the scratch files go to a temp
#                      dir under TMPDIR (default /var/tmp). By default (DISK=0)
#                      they go to a temp dir in /dev/shm: both write to memory
#   CRAWLER=pipeline   ours as the hand pipeline above; CRAWLER=frontier-crawl:
#                      ours as a user runs it, set-up and reports included:
#                        frontier-crawl -o OUT -c C --depth 100
#                          --set politeness.min-delay=0 --set politeness.delay-factor=0
#                          --set robots.enabled=false --set politeness.max-in-flight=C SEEDS
#                      (default HOSTS=1 for python-docs); the requests under way
#                      at once on each host, from nginx's log, must stay <= C
#   FRONTIER_BIN=bin   the tools to measure
#   RESULTS=FILE       also append "KEY<TAB>VALUE" lines (KEY prefixed PREFIX_,
#                      default b6) for tests/bench/run.sh
# Printed (and in RESULTS): pages/s of each and the wall ratio (_ratio; the
# median seconds in _wall, _wall_wget2); CPU (user+sys, /usr/bin/time) of
# lease + fetch + done per page against wget2's per page, "CPU per page
# ours/wget2" (_cpu_ratio; _cpu_ours, _cpu_wget2: the medians in seconds);
# "lease capacity / crawl rate" (_lease_ratio): URLs
# leased / frontier-lease's own CPU seconds (at least 0.01) against the
# crawl's pages/s, which must stay well above 1 (the lease side never limits
# the crawl). Every ratio is one of medians over the REPEAT runs.
# Politeness off for ours: robots.enabled false, politeness.min-delay 0,
# delay-factor 0, max-in-flight per queue unlimited; wget2 --robots=off.
# Both must fetch the same page set: wget2 --ignore-tags=img,script,gtkdoclink,
# because fetch --links follows a, link, frame, iframe and area only (gtk-doc
# leaves unresolved cross-references as <GTKDOCLINK HREF=...>, which wget2
# would follow to a 404). wget2 also
# fetches the url(...) images of a stylesheet served as text/css (12 png on
# libstdcxx); fetch --links reads no CSS, and tests/tools/nginx.sh serves .css
# as application/octet-stream, which wget2 does not parse either. The pages
# each fetched (port, path, status) are taken from nginx's access log and
# compared.
# Nothing leaves 127.0.0.1.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${FRONTIER_BIN:-bin}"
case $bin in /*) ;; *) bin="$root/$bin" ;; esac
for t in frontier-add frontier-config frontier-lease frontier-done fetch frontier-crawl frontier-report; do
    [ -x "$bin/$t" ] || { echo "crawl_vs_wget2: $bin/$t missing (make all, or set FRONTIER_BIN)" >&2; exit 1; }
done
SITE="${SITE:-python-docs}"
CRAWLER="${CRAWLER:-pipeline}"
case $CRAWLER in pipeline|frontier-crawl) ;; *) echo "crawl_vs_wget2: CRAWLER is pipeline or frontier-crawl" >&2; exit 2 ;; esac
[ "$CRAWLER" = frontier-crawl ] && [ "$SITE" = python-docs ] && HOSTS="${HOSTS:-1}"
case $SITE in
    python-docs) DOCS="${DOCS:-/usr/share/doc/python3/html}" HOSTS="${HOSTS:-3}" ;;
    libstdcxx) DOCS="${DOCS:-/usr/share/doc/gcc-12-base/libstdc++/user}" HOSTS="${HOSTS:-1}" ;;
    gtk-docs) DOCS="${DOCS:-/usr/share/gtk-doc/html}" HOSTS="${HOSTS:-6}" ;;
    synthetic) HOSTS="${HOSTS:-3}" ;;
    *) echo "crawl_vs_wget2: SITE is python-docs, libstdcxx, gtk-docs or synthetic" >&2; exit 2 ;;
esac
C="${C:-8}"
INFLIGHT="${INFLIGHT:-256}"
REPEAT="${REPEAT:-3}"
PAGES="${PAGES:-2000}"
PREFIX="${PREFIX:-b6}"
DISK="${DISK:-0}"

if ! command -v wget2 > /dev/null; then
    echo "crawl_vs_wget2: installing wget2 (the peer)" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q wget2 > /dev/null
fi

# The frontier file, wget2's -P directory and the scratch files: in memory
# (/dev/shm) unless DISK=1.
if [ "$DISK" = 1 ]; then
    dir="$(mktemp -d "${TMPDIR:-/var/tmp}/crawl_vs_wget2.XXXXXX")"
else
    dir="$(mktemp -d /dev/shm/crawl_vs_wget2.XXXXXX)"
fi
chmod 755 "$dir"
store="$(stat -f -c %T "$dir")"
[ "$store" = tmpfs ] && where="memory" || where="disk"
where="$where ($(dirname "$dir"), $store)"
source "$root/tests/tools/nginx.sh"
export NGINX_LOG_TIMES=1
trap 'nginx_stop > /dev/null 2>&1 || true; rm -rf "$dir"' EXIT
case $SITE in
    python-docs)
        [ -f "$DOCS/index.html" ] || { echo "crawl_vs_wget2: $DOCS/index.html missing (apt-get install python3-doc)" >&2; exit 1; }
        nginx_start "$DOCS" "$HOSTS"
        desc="python3-doc HTML on $HOSTS host$([ "$HOSTS" = 1 ] || echo s)" ;;
    libstdcxx)
        [ -f "$DOCS/index.html" ] || { echo "crawl_vs_wget2: $DOCS/index.html missing (apt-get install libstdc++-12-doc)" >&2; exit 1; }
        nginx_start "$DOCS" "$HOSTS"
        desc="libstdc++-12-doc API docs on $HOSTS host$([ "$HOSTS" = 1 ] || echo s)" ;;
    gtk-docs)
        for book in glib gio gobject; do
            [ -f "$DOCS/$book/index.html" ] || { echo "crawl_vs_wget2: $DOCS/$book/index.html missing (apt-get install libglib2.0-doc)" >&2; exit 1; }
        done
        nginx_start "$DOCS" "$HOSTS"
        desc="libglib2.0-doc (gtk-doc) on $HOSTS hosts" ;;
    synthetic)
        mkdir -p "$dir/site"
        nginx_start "$dir/site" "$HOSTS"
        bases=""
        for p in $NGINX_PORTS; do bases="$bases http://127.0.0.1:$p"; done
        # shellcheck disable=SC2086
        python3 "$root/tests/tools/make-site.py" "$dir/site" "$PAGES" --private 0 --base $bases
        desc="make-site.py $PAGES pages on $HOSTS hosts" ;;
esac
desc="$desc, written to $where"
log="$(nginx_log)"
seeds=""
paths="/index.html"
[ "$SITE" = gtk-docs ] && paths="/glib/index.html /gio/index.html /gobject/index.html"
for p in $NGINX_PORTS; do
    for s in $paths; do seeds="$seeds http://127.0.0.1:$p$s"; done
done

now() { date +%s.%N; }
rss_kb() { sed -n 's/.*maxrss=\([0-9]*\).*/\1/p' "$1"; }
cpu_s() { awk '{for (i = 1; i <= NF; i++) if ($i ~ /^(user|sys)=/) { split($i, a, "="); s += a[2] }} END {printf "%.2f", s}' "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
pageset() { awk '{print $1, $2, $3}' "$log" | sort; }
# host_peak: the most connections in use at once on one port of the log, a
# bound on the requests under way at once (nginx answers a static file
# within its millisecond, so $request_time is mostly 0): a connection is in
# use from its first request's start ($msec - $request_time) to its last
# request's end.
host_peak() {
    python3 - "$log" <<'PY'
import collections, sys
span = {}
for line in open(sys.argv[1]):
    port, _, _, msec, took, conn = line.split()
    end = float(msec)
    s, e = span.get(conn, (port, end - float(took), end))[1:]
    span[conn] = (port, min(s, end - float(took)), max(e, end))
per = collections.defaultdict(list)
for port, s, e in span.values():
    per[port] += [(s, 1), (e, -1)]
most = 0
for ev in per.values():
    cur = 0
    for _, d in sorted(ev):  # at the same time, an end before a start
        cur += d
        most = max(most, cur)
print(most)
PY
}
TIMEFMT="maxrss=%M user=%U sys=%S"

run_wget2() {
    rm -rf "$dir/wget2"
    : > "$log"
    local t0 t1 rc=0
    t0=$(now)
    # shellcheck disable=SC2086
    /usr/bin/time -f "$TIMEFMT" -o "$dir/t.wget2" \
        wget2 --no-config -q --recursive --level=inf --robots=off --max-threads="$C" \
        --ignore-tags=img,script,gtkdoclink -P "$dir/wget2" $seeds || rc=$?
    t1=$(now)
    # 8: some page answered 404 (python-docs links to a missing changelog)
    [ $rc = 0 ] || [ $rc = 8 ] || { echo "crawl_vs_wget2: wget2 exited $rc" >&2; exit 1; }
    pageset > "$dir/set.wget2"
    echo "$(awk "BEGIN {print $t1 - $t0}") $(wc -l < "$dir/set.wget2") $(rss_kb "$dir/t.wget2") $(cpu_s "$dir/t.wget2")"
}

run_crawl() {
    local t0 t1 rc=0
    rm -rf "$dir/out"
    : > "$log"
    t0=$(now)
    # shellcheck disable=SC2086
    /usr/bin/time -f "$TIMEFMT" -o "$dir/t.crawl" \
        "$bin/frontier-crawl" -o "$dir/out" -c "$C" --depth 100 --set politeness.min-delay=0 \
        --set politeness.delay-factor=0 --set robots.enabled=false --set politeness.max-in-flight="$C" \
        $seeds 2> "$dir/crawl.err" || rc=$?
    t1=$(now)
    [ $rc = 0 ] || { cat "$dir/crawl.err" >&2; echo "crawl_vs_wget2: frontier-crawl exited $rc" >&2; exit 1; }
    sleep 0.2  # nginx writes its access log after the response
    pageset > "$dir/set.ours"
    local recorded leased
    recorded=$(grep -c '"result":"done"' "$dir/out/results.jsonl" || true)
    leased=$(wc -l < "$dir/out/results.jsonl")
    # the columns of run_ours: frontier-crawl's RSS (its largest process) and
    # CPU (its own and its children's) stand for lease's
    echo "$(awk "BEGIN {print $t1 - $t0}") $(wc -l < "$dir/set.ours") $recorded" \
         "$(rss_kb "$dir/t.crawl") 0 0 $(cpu_s "$dir/t.crawl") 0 0 $leased $(host_peak)"
}

run_ours() {
    local F="$dir/crawl.db" t0 t1
    rm -f "$F" "$F"-*
    for kv in "robots.enabled false" "politeness.min-delay 0" "politeness.delay-factor 0" \
              "politeness.max-in-flight 100000000" "budget.hold-queues false"; do
        # shellcheck disable=SC2086
        "$bin/frontier-config" -f "$F" $kv
    done
    # shellcheck disable=SC2086
    printf '%s\n' $seeds | "$bin/frontier-add" -q -f "$F"
    : > "$log"
    t0=$(now)
    set +e
    /usr/bin/time -f "$TIMEFMT" -o "$dir/t.lease" \
        "$bin/frontier-lease" -q -f "$F" --follow --max-in-flight "$INFLIGHT" -n "$INFLIGHT" --per-queue "$INFLIGHT" |
    /usr/bin/time -f "$TIMEFMT" -o "$dir/t.fetch" "$bin/fetch" -q -c "$C" --per-host "$C" --links |
    /usr/bin/time -f "$TIMEFMT" -o "$dir/t.done" "$bin/frontier-done" -f "$F" > "$dir/done.jsonl"
    local st=("${PIPESTATUS[@]}")
    set -e
    t1=$(now)
    # frontier-lease --follow exits 0 once nothing is queued or leased
    [ "${st[*]}" = "0 0 0" ] || { echo "crawl_vs_wget2: pipeline exit statuses ${st[*]} (lease fetch done)" >&2; exit 1; }
    pageset > "$dir/set.ours"
    # frontier-done prints one line per result, so one per lease
    local recorded leased
    recorded=$(grep -c '"result":"done"' "$dir/done.jsonl" || true)
    leased=$(wc -l < "$dir/done.jsonl")
    echo "$(awk "BEGIN {print $t1 - $t0}") $(wc -l < "$dir/set.ours") $recorded" \
         "$(rss_kb "$dir/t.lease") $(rss_kb "$dir/t.fetch") $(rss_kb "$dir/t.done")" \
         "$(cpu_s "$dir/t.lease") $(cpu_s "$dir/t.fetch") $(cpu_s "$dir/t.done") $leased"
}

: > "$dir/r.wget2"
: > "$dir/r.ours"
for _ in $(seq "$REPEAT"); do
    run_wget2 >> "$dir/r.wget2"
    if [ "$CRAWLER" = frontier-crawl ]; then run_crawl >> "$dir/r.ours"; else run_ours >> "$dir/r.ours"; fi
done

# The same page set (port, path, status) for both, every run.
cmp -s "$dir/set.ours" "$dir/set.wget2" && same=yes || same=no
pages=$(wc -l < "$dir/set.ours")
pages_w=$(wc -l < "$dir/set.wget2")
ok=$(awk '$3 ~ /^2/' "$dir/set.ours" | wc -l)
for f in r.wget2 r.ours; do
    [ "$(awk '{print $2}' "$dir/$f" | sort -u | wc -l)" = 1 ] || same=no
done

secs_w=$(awk '{print $1}' "$dir/r.wget2" | median)
secs_o=$(awk '{print $1}' "$dir/r.ours" | median)
rate_w=$(awk "BEGIN {printf \"%.0f\", $pages_w / $secs_w}")
rate_o=$(awk "BEGIN {printf \"%.0f\", $pages / $secs_o}")
ratio=$(awk "BEGIN {printf \"%.2f\", ($pages / $secs_o) / ($pages_w / $secs_w)}")
maxcol() { awk -v c="$2" '$c > m {m = $c} END {printf "%d", m / 1024}' "$dir/$1"; }
medcol() { awk -v c="$2" '{print $c}' "$dir/$1" | median; }
# CPU (user+sys) per page: ours = lease + fetch + done, medians of the runs.
cpu_o=$(awk '{printf "%.2f\n", $7 + $8 + $9}' "$dir/r.ours" | median)
cpu_w=$(medcol r.wget2 4)
cpu_ratio=$(awk "BEGIN {w = $cpu_w / $pages_w; printf \"%.2f\", (w > 0) ? ($cpu_o / $pages) / w : 0}")
cpu_ms() { awk "BEGIN {printf \"%.3f\", $1 * 1000 / $2}"; }
# Lease capacity: URLs leased per second of frontier-lease's own CPU, against
# the crawl's pages/s.
leased=$(medcol r.ours 10)
cpu_l=$(medcol r.ours 7)
lease_cap=$(awk "BEGIN {c = $cpu_l; if (c < 0.01) c = 0.01; printf \"%.0f\", $leased / c}")
lease_ratio=$(awk "BEGIN {printf \"%.1f\", $lease_cap / ($pages / $secs_o)}")

echo "site: $desc, transfers at once: $C, leases in flight: $INFLIGHT, runs: $REPEAT (median)"
echo "pages fetched (from nginx's log): ours $pages ($ok 2xx, $(awk '{print $3}' "$dir/r.ours" | sort -u | tr '\n' ' ')recorded by frontier-done), wget2 $pages_w; same page set: $same"
if [ "$same" = no ]; then
    echo "  only ours: $(comm -23 "$dir/set.ours" "$dir/set.wget2" | wc -l), only wget2: $(comm -13 "$dir/set.ours" "$dir/set.wget2" | wc -l); e.g.:"
    comm -3 "$dir/set.ours" "$dir/set.wget2" | head -5 | sed 's/^/    /'
fi
echo "wget2 --recursive --max-threads=$C: $rate_w pages/s ($(awk '{printf "%.2f ", $1}' "$dir/r.wget2")s), peak RSS $(maxcol r.wget2 3) MiB, CPU $(medcol r.wget2 4) s"
if [ "$CRAWLER" = frontier-crawl ]; then
    peak=$(awk '$11 > m {m = $11} END {print m + 0}' "$dir/r.ours")
    echo "frontier-crawl -c $C (politeness.max-in-flight $C): $rate_o pages/s ($(awk '{printf "%.2f ", $1}' "$dir/r.ours")s) = ${ratio}x wget2"
    echo "  peak RSS $(maxcol r.ours 4) MiB; CPU s (user+sys, with its tools and reports): $(medcol r.ours 7)"
    echo "  most connections in use at once on one host (nginx's log): $peak (limit $C)"
    [ "$peak" -le "$C" ] || { echo "crawl_vs_wget2: frontier-crawl exceeded politeness.max-in-flight $C" >&2; same=no; }
else
    echo "lease --follow | fetch -c $C --links | done: $rate_o pages/s ($(awk '{printf "%.2f ", $1}' "$dir/r.ours")s) = ${ratio}x wget2"
    echo "  peak RSS lease / fetch / done: $(maxcol r.ours 4) / $(maxcol r.ours 5) / $(maxcol r.ours 6) MiB; CPU s (user+sys): $(medcol r.ours 7) / $(medcol r.ours 8) / $(medcol r.ours 9)"
fi
echo "CPU per page ours/wget2: $cpu_ratio (ours $cpu_o s = $(cpu_ms "$cpu_o" "$pages") ms/page, wget2 $cpu_w s = $(cpu_ms "$cpu_w" "$pages_w") ms/page)"
[ "$CRAWLER" = frontier-crawl ] ||
    echo "lease capacity / crawl rate: ${lease_ratio}x ($leased leased / $cpu_l s of frontier-lease CPU = $lease_cap URLs/s; crawl $rate_o pages/s)"

if [ -n "${RESULTS:-}" ]; then
    {
        printf '%s_desc\t%s\n' "$PREFIX" "$desc"
        printf '%s_pages\t%s\n' "$PREFIX" "$pages"
        printf '%s_pages_wget2\t%s\n' "$PREFIX" "$pages_w"
        printf '%s_same\t%s\n' "$PREFIX" "$same"
        printf '%s_c\t%s\n' "$PREFIX" "$C"
        printf '%s_rate\t%s\n' "$PREFIX" "$rate_o"
        printf '%s_rate_wget2\t%s\n' "$PREFIX" "$rate_w"
        printf '%s_ratio\t%s\n' "$PREFIX" "$ratio"
        printf '%s_wall\t%s\n' "$PREFIX" "$secs_o"
        printf '%s_wall_wget2\t%s\n' "$PREFIX" "$secs_w"
        printf '%s_cpu_ours\t%s\n' "$PREFIX" "$cpu_o"
        printf '%s_cpu_wget2\t%s\n' "$PREFIX" "$cpu_w"
        printf '%s_cpu_ratio\t%s\n' "$PREFIX" "$cpu_ratio"
        printf '%s_lease_ratio\t%s\n' "$PREFIX" "$lease_ratio"
        printf '%s_crawler\t%s\n' "$PREFIX" "$CRAWLER"
        [ "$CRAWLER" = pipeline ] || printf '%s_host_peak\t%s\n' "$PREFIX" "$peak"
        printf '%s_rss_lease\t%s\n' "$PREFIX" "$(maxcol r.ours 4)"
        printf '%s_rss_fetch\t%s\n' "$PREFIX" "$(maxcol r.ours 5)"
        printf '%s_rss_done\t%s\n' "$PREFIX" "$(maxcol r.ours 6)"
        printf '%s_rss_wget2\t%s\n' "$PREFIX" "$(maxcol r.wget2 3)"
    } >> "$RESULTS"
fi
