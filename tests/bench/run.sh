#!/usr/bin/env bash
# make bench: the performance suite, side by side with the peers, in one run
# on this machine. Not part of `make check`.
#
#   tests/bench/run.sh                 the table at N=1000000 URLs over H=N/100
#                                      hosts, plus scaling rows at 100k URLs
#   SCALE=full tests/bench/run.sh      also 10M URLs over 100k hosts (long:
#                                      see the README for how long)
#   SCALE=huge tests/bench/run.sh      also 10M, and 100M URLs over 1M hosts
#                                      (hours, and ~30 GB in TMPDIR; see the
#                                      README)
#   SCALE=none                         the table at N only
#   SCALE="20000 50000"                these sizes (URLs; hosts = size/100)
#   N=... H=...                        the size of the table (default 1000000,
#                                      H=N/100); it is always one of the sizes
#   FRONTIER_BIN=bin                   the tools to measure (e.g. bin-bench)
#   BENCH_README=0                     do not write the tables into
#                                      tests/bench/README.md (Latest run);
#                                      only a run of this tree's bin/ writes
#   SKIP_FETCH=1  SKIP_CRAWL=1         leave out B5 / B6
#   SKIP_BROAD=1                       leave out B8
#   BROAD=1                            also B9 (BROAD_SECONDS long)
#   ONLY=b6  ONLY="b5 b8"  ...         only these of B5 / B6 / B8 / B9: no
#                                      frontier sizes (B1-B4, B7); with `make
#                                      bench`, SKIP_PG=1 also leaves out bench-pg
#   FETCH_N=20000                      pages of B5
#   B6_C=8 B6_REPEAT=3                 transfers at once and runs of B6
#   BROAD_H=1000                       hosts of B8 and B9 (127.1.x.y)
#   BROAD_C=                           frontier-crawl -c in B8 and B9 (empty,
#                                      the default: its own, a fetch per
#                                      ready host up to 256)
#   BROAD_SECONDS=600                  length of B9
#   ORDER=host  ORDER=lease            the records sorted by host (lease:
#                                      then by depth) before B1: URL rows
#                                      then lie in queue (lease) order, a
#                                      model of a file clustered so
#   B1_PEER_MAX=10000000               the largest size at which the sqlite3
#                                      import (B1's peer) runs: at 100M it
#                                      alone takes hours
#   B2_MAX=1000000                     URLs leased (B2) and returned (B4) at most
#                                      per size: at 10M, the first 1M
#   B2R_CALLS=100                      batches of B2r (sizes with <= 10k hosts)
#   TMPDIR=...                         where the frontiers go (10M: ~4 GB,
#                                      100M: ~30 GB at the peak)
#   FRONTIER_CACHE_MIB=512             every tool's page cache (frontier(7),
#                                      ENVIRONMENT); peak RSS then passes the
#                                      64 MiB flag by about that much
#
# Cases (tests/bench/README.md), for every size:
#   B1 frontier-add of the generator's records (tests/bench/gen-urls.py SIZE
#      SIZE/100) into a new frontier, vs the sqlite3 CLI importing the same
#      URLs into a table with a unique key and a (queue, state, priority) index
#   B3 frontier-lease -n 100 on the full frontier (median of 5 calls, before B2)
#   B2 frontier-lease of all of it in batches of 1000, politeness off
#   B2r B2's first B2R_CALLS batches on a copy whose queues all rotate
#      (held queues, session budget 1), beside B2's own first batches
#   B4 frontier-done of every result in one process
#   B7 frontier-report summary and --json on the full frontier
# and once:
#   B5 fetch vs curl --parallel (tests/bench/fetch_vs_curl.sh)
#   B6 full crawl lease --follow | fetch --links | done vs wget2 --recursive
#      (tests/bench/crawl_vs_wget2.sh): python3-doc with both crawlers writing
#      to memory (/dev/shm; row b6) and to disk (DISK=1; row b6d), the
#      libstdc++-12-doc API docs (b6l), libglib2.0-doc's link-heavy pages
#      (b6g) and a synthetic site (b6s); wall ratio,
#      CPU per page ours/wget2 and lease capacity / crawl rate for each; then
#      frontier-crawl as a user runs it (CRAWLER=frontier-crawl: set-up and
#      reports included, politeness.max-in-flight = -c, checked in nginx's
#      log) on python3-doc as one host (b6c), libstdc++ (b6cl), gtk-doc (b6cg)
#   B8 broad crawl of BROAD_H hosts x 20 pages, politeness.min-delay 1, by
#      frontier-crawl vs Scrapy (tests/bench/broad_crawl.sh): fraction of the
#      ideal (BROAD_H pages/s), ratio to Scrapy, politeness from nginx's log
# and with BROAD=1 (or ONLY=b9):
#   B9 sustained broad crawl: BROAD_H endless hosts for BROAD_SECONDS, pages/s
#      of every 30 s window, frontier size, peak RSS and CPU of each tool (the
#      table by window in the run's output, its fractions in the README's row)
# Peak RSS of every tool is taken with /usr/bin/time and flagged at >= 64 MiB
# (on a frontier of N URLs, plus 2 bytes a URL: the filter of new URLs).
# At the end: the table of cases against their targets (markdown, for the
# README), the scaling table with the cost per URL (wall, CPU beside) and,
# with 1M and a larger size, the larger sizes' cost per URL over 1M's.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${FRONTIER_BIN:-bin}"
case $bin in /*) ;; *) bin="$root/$bin" ;; esac
for t in frontier-add frontier-config frontier-lease frontier-done frontier-report fetch; do
    [ -x "$bin/$t" ] || { echo "bench: $bin/$t missing (make all, or set FRONTIER_BIN)" >&2; exit 1; }
done
export FRONTIER_BIN="$bin"
source "$root/tests/tools/throughput.bash"
export PATH="$bin:$PATH"
unset FRONTIER_NOW FRONTIER
N="${N:-1000000}"
H="${H:-$(( N / 100 ))}"
SCALE="${SCALE:-default}"
case $SCALE in
    default) sizes="100000 $N" ;;
    full) sizes="100000 1000000 10000000 $N" ;;
    huge) sizes="100000 1000000 10000000 100000000 $N" ;;
    none) sizes="$N" ;;
    *) sizes="$SCALE $N" ;;
esac
sizes=$(printf '%s\n' $sizes | sort -n -u | tr '\n' ' ')
ONLY="${ONLY:-}"
only() { [ -z "$ONLY" ] || [[ " $ONLY " == *" $1 "* ]]; }
for o in $ONLY; do
    case $o in b5|b6|b8|b9) ;; *) echo "bench: ONLY is a list of b5, b6, b8, b9" >&2; exit 2 ;; esac
done
[ -z "$ONLY" ] || sizes=""
LIMIT_MIB=64
B2_MAX="${B2_MAX:-1000000}"
B1_PEER_MAX="${B1_PEER_MAX:-10000000}"
ORDER="${ORDER:-}"
case $ORDER in ""|host|lease) ;; *) echo "bench: ORDER is empty, host or lease" >&2; exit 2 ;; esac
B2R_CALLS="${B2R_CALLS:-100}"

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
R="$dir/results.tsv"
: > "$R"
put() { printf '%s\t%s\n' "$1" "$2" >> "$R"; }
get() { awk -F'\t' -v k="$1" '$1 == k {v = $2} END {print v}' "$R"; }
now() { date +%s.%N; }
calc() { awk "BEGIN {print $*}"; }
rss() { echo $(( $(sed -n 's/.*maxrss=\([0-9]*\).*/\1/p' "$1" | sort -n | tail -1) / 1024 )); }
# CPU seconds (user + sys) of every call a /usr/bin/time file ($tfmt) holds.
tfmt="maxrss=%M cpu=%U %S"
cpu() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^cpu=/) { c += substr($i, 5) + $(i + 1) } } END { printf "%.3f", c }' "$1"; }
# A figure that a size may lack (B1's peer above B1_PEER_MAX): "-".
opt() { if [ -n "$2" ]; then printf "$1" "$2"; else echo "-"; fi; }
line() { printf '%-62s %14s %14s %9s %10s\n' "$@"; }
hum() {   # 100000 -> 100k, 1000000 -> 1M
    awk -v n="$1" 'BEGIN {
        if (n >= 1e6 && n % 1e6 == 0) printf "%dM", n / 1e6
        else if (n >= 1e3 && n % 1e3 == 0) printf "%dk", n / 1e3
        else printf "%d", n }'
}
bench_start=$(now)
machine="$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME" | sed 's/ GNU\/Linux//'), $(uname -r); SQLite $(sqlite3 --version | cut -d' ' -f1), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "machine: $machine"
if [ -n "$sizes" ]; then
    echo "tools: $bin; sizes: $sizes(URLs; hosts = URLs/100, H=$H at N=$N)${ORDER:+; records sorted by $ORDER}"
else
    echo "tools: $bin; only: $ONLY"
fi

# B1-B4, B7 on one frontier of $1 URLs over $2 hosts; results under key prefix s$1_.
frontier_cases() {
    local n=$1 h=$2 k="s$1_" d="$dir/s$1" t0 t1 t2
    mkdir -p "$d"
    local F="$d/bench.db" size_start
    size_start=$(now)
    echo
    echo "== $(hum "$n") URLs over $(hum "$h") hosts: tests/bench/gen-urls.py $n $h"
    python3 "$root/tests/bench/gen-urls.py" "$n" "$h" > "$d/urls.jsonl"
    # ORDER: the records grouped by host (stable: each host's own order
    # kept), and with `lease` by depth within a host, the rank's source, so
    # that ids, and with them the URL rows, follow the queues or the lease
    # order.
    if [ -n "$ORDER" ]; then
        local depth_key=""
        if [ "$ORDER" = lease ]; then depth_key="-k2,2n"; fi
        awk -F'"' '{ split($4, u, "/"); split($7, d, /[:}]/); print u[3] "\t" d[2] "\t" $0 }' "$d/urls.jsonl" |
            sort -t"$(printf '\t')" -k1,1 $depth_key -s -S 25% -T "$d" | cut -f3- > "$d/sorted.jsonl"
        mv "$d/sorted.jsonl" "$d/urls.jsonl"
    fi
    line "case" "ours" "peer" "µs/URL" "peak RSS"

    # B1 peer: sqlite3 importing the same URLs (host = queue), unique key + index.
    if [ "$n" -le "$B1_PEER_MAX" ]; then
    python3 - "$d/urls.jsonl" > "$d/urls.csv" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    u = json.loads(l)["url"]
    print('"%s",%s' % (u, u.split("/")[2]))
PY
    sync
    t0=$(now)
    sqlite3 "$d/peer.db" > /dev/null <<SQL
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
CREATE TABLE urls(url TEXT PRIMARY KEY, queue TEXT, state INTEGER DEFAULT 0, priority REAL DEFAULT 0);
CREATE INDEX urls_q ON urls(queue, state, priority);
CREATE TEMP TABLE raw(url TEXT, queue TEXT);
.mode csv
.import $d/urls.csv raw
INSERT OR IGNORE INTO urls(url, queue) SELECT url, queue FROM raw;
SQL
    t1=$(now)
    rm -f "$d/peer.db"* "$d/urls.csv"
    put "${k}b1_peer" "$(calc "$n / ($t1 - $t0)")"
    fi

    # Politeness off for the throughput cases.
    throughput_config "$F"
    t0=$(now)
    /usr/bin/time -f "$tfmt" -o "$d/t.add" frontier-add -q -f "$F" "$d/urls.jsonl"
    t1=$(now)
    # B2r's frontier (below): the same URLs, every queue held and rotating.
    local RF="$d/rotate.db"
    if [ "$h" -le 10000 ]; then
        throughput_config "$RF"
        frontier-config -f "$RF" budget.hold-queues true
        frontier-config -f "$RF" budget.replenish 1
        frontier-add -q -f "$RF" "$d/urls.jsonl"
    fi
    rm -f "$d/urls.jsonl"
    put "${k}b1" "$(calc "$n / ($t1 - $t0)")"
    put "${k}b1_cpu" "$(calc "$(cpu "$d/t.add") * 1e6 / $n")"
    put "${k}rss_add" "$(rss "$d/t.add")"
    line "B1 add (records/s)" "$(printf '%.0f' "$(get "${k}b1")")" "$(opt '%.0f' "$(get "${k}b1_peer")")" \
        "$(calc "1e6 / $(get "${k}b1")" | xargs printf '%.1f')" "$(get "${k}rss_add") MiB"

    # B3: one lease of 100 on the full frontier (median of 5 consecutive calls,
    # after the freshly written file has reached the disk).
    sync
    : > "$d/leases.jsonl"
    for _ in 1 2 3 4 5; do
        t0=$(now)
        /usr/bin/time -a -f "maxrss=%M" -o "$d/t.b3" frontier-lease -f "$F" -n 100 >> "$d/leases.jsonl"
        t1=$(now)
        calc "($t1 - $t0) * 1000"
    done | sort -g > "$d/b3.ms"
    put "${k}b3" "$(sed -n 3p "$d/b3.ms")"
    put "${k}b3_range" "$(printf '%.0f–%.0f' "$(head -1 "$d/b3.ms")" "$(tail -1 "$d/b3.ms")")"
    put "${k}rss_b3" "$(rss "$d/t.b3")"
    line "B3 lease -n 100 (ms/call, median of 5: $(get "${k}b3_range"))" "$(printf '%.1f' "$(get "${k}b3")")" "-" \
        "$(calc "$(get "${k}b3") * 10" | xargs printf '%.1f')" "$(get "${k}rss_b3") MiB"

    # B2: lease everything in batches of 1000 (at most B2_MAX URLs, so that
    # the 10M size takes minutes, not an hour; B4 then returns those).
    local before leased calls=0 max_calls
    before=$(wc -l < "$d/leases.jsonl")
    max_calls=$(( (B2_MAX + 999) / 1000 ))
    t0=$(now)
    while [ $calls -lt $max_calls ] &&
        /usr/bin/time -a -f "$tfmt" -o "$d/t.lease" frontier-lease -q -f "$F" -n 1000 --per-queue 1000 >> "$d/leases.jsonl"; do
        calls=$((calls + 1))
        [ $calls = "$B2R_CALLS" ] && put "${k}b2_first" "$(calc "($(wc -l < "$d/leases.jsonl") - $before) / ($(now) - $t0)")"
    done
    t1=$(now)
    leased=$(wc -l < "$d/leases.jsonl")
    put "${k}b2_n" "$((leased - before))"
    put "${k}b2" "$(calc "($leased - $before) / ($t1 - $t0)")"
    put "${k}b2_cpu" "$(calc "$(cpu "$d/t.lease") * 1e6 / ($leased - $before)")"
    # B2r's peer: B2's first B2R_CALLS batches, or all of B2 when it made fewer.
    [ -n "$(get "${k}b2_first")" ] || put "${k}b2_first" "$(get "${k}b2")"
    put "${k}rss_lease" "$(rss "$d/t.lease")"
    line "B2 lease $((leased - before)) by 1000 (URLs/s)" "$(printf '%.0f' "$(get "${k}b2")")" "-" \
        "$(calc "1e6 / $(get "${k}b2")" | xargs printf '%.1f')" "$(get "${k}rss_lease") MiB"

    # B2r: B2's first B2R_CALLS batches again, on a
    # frontier whose queues all start held (budget.hold-queues) with a
    # session budget of one URL (budget.replenish 1, unit cost), so every
    # leased URL sends its queue to the back of the inactive FIFO and
    # activates the next: the most budget bookkeeping per lease. Only where
    # there are at most 10k queues.
    if [ -f "$RF" ]; then
        local rcalls=0 rleased
        t0=$(now)
        while [ $rcalls -lt "$B2R_CALLS" ] &&
            /usr/bin/time -a -f "maxrss=%M" -o "$d/t.lease" frontier-lease -q -f "$RF" -n 1000 --per-queue 1000 >> "$d/rotate.jsonl"; do
            rcalls=$((rcalls + 1))
        done
        t1=$(now)
        rleased=$(wc -l < "$d/rotate.jsonl")
        put "${k}b2r_n" "$rleased"
        put "${k}b2r" "$(calc "$rleased / ($t1 - $t0)")"
        put "${k}b2r_inactive" "$(frontier-report -f "$RF" | sed -n 's/.*; \([0-9]*\) inactive;.*/\1/p')"
        put "${k}rss_lease" "$(rss "$d/t.lease")"
        line "B2r lease $rleased by 1000, all queues rotating (URLs/s)" "$(printf '%.0f' "$(get "${k}b2r")")" \
            "$(printf '%.0f' "$(get "${k}b2_first")")" "$(calc "1e6 / $(get "${k}b2r")" | xargs printf '%.1f')" \
            "$(get "${k}rss_lease") MiB"
        echo "(peer: B2's first $rleased URLs in this run; $(get "${k}b2r_inactive") queues inactive after, of $h)"
        rm -f "$RF"* "$d/rotate.jsonl"
    fi

    # B4: all results back through one frontier-done.
    python3 - "$d/leases.jsonl" > "$d/results.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(json.dumps({"url": r["url"], "lease": r["lease"], "status": 200, "duration_ms": 12,
                      "content_hash": "0123456789abcdef"}, separators=(",", ":")))
PY
    rm -f "$d/leases.jsonl"
    t0=$(now)
    /usr/bin/time -f "$tfmt" -o "$d/t.done" frontier-done -q -f "$F" "$d/results.jsonl"
    t1=$(now)
    rm -f "$d/results.jsonl"
    put "${k}b4_n" "$leased"
    put "${k}b4" "$(calc "$leased / ($t1 - $t0)")"
    put "${k}b4_cpu" "$(calc "$(cpu "$d/t.done") * 1e6 / $leased")"
    put "${k}rss_done" "$(rss "$d/t.done")"
    line "B4 done $leased results (results/s)" "$(printf '%.0f' "$(get "${k}b4")")" "-" \
        "$(calc "1e6 / $(get "${k}b4")" | xargs printf '%.1f')" "$(get "${k}rss_done") MiB"

    # B7: the report summary and --json on the full frontier.
    t0=$(now)
    /usr/bin/time -f "maxrss=%M" -o "$d/t.report" frontier-report -f "$F" > /dev/null
    t1=$(now)
    /usr/bin/time -a -f "maxrss=%M" -o "$d/t.report" frontier-report -f "$F" --json > /dev/null
    t2=$(now)
    put "${k}b7" "$(calc "$t1 - $t0")"
    put "${k}b7_json" "$(calc "$t2 - $t1")"
    put "${k}rss_report" "$(rss "$d/t.report")"
    put "${k}db_mib" "$(( $(stat -c %s "$F") / 1048576 ))"
    line "B7 report summary / --json (s)" "$(printf '%.2f / %.2f' "$(get "${k}b7")" "$(get "${k}b7_json")")" "-" "" "$(get "${k}rss_report") MiB"
    put "${k}secs" "$(calc "$(now) - $size_start")"
    echo "(frontier file $(get "${k}db_mib") MiB; $(printf '%.0f' "$(get "${k}secs")") s for this size)"
    rm -rf "$d"
}

for s in $sizes; do
    if [ "$s" = "$N" ]; then frontier_cases "$s" "$H"; else frontier_cases "$s" "$(( s / 100 > 0 ? s / 100 : 1 ))"; fi
done

if [ -z "${SKIP_FETCH:-}" ] && only b5; then
    echo
    echo "== B5 fetch vs curl --parallel:"
    t0=$(now)
    N="${FETCH_N:-20000}" RESULTS="$R" "$root/tests/bench/fetch_vs_curl.sh"
    put b5_secs "$(calc "$(now) - $t0")"
fi
if [ -z "${SKIP_CRAWL:-}" ] && only b6; then
    t0=$(now)
    b6() {   # PREFIX SITE DISK TITLE [CRAWLER]
        echo
        echo "== B6 full crawl vs wget2 --recursive, $4:"
        C="${B6_C:-8}" REPEAT="${B6_REPEAT:-3}" SITE=$2 DISK=$3 PREFIX=$1 CRAWLER="${5:-pipeline}" RESULTS="$R" \
            "$root/tests/bench/crawl_vs_wget2.sh"
    }
    b6 b6 python-docs 0 "python3-doc, both writing to memory (/dev/shm)"
    b6 b6d python-docs 1 "python3-doc, both writing to disk (DISK=1)"
    b6 b6l libstdcxx 0 "libstdc++-12-doc API docs (many mid-size pages, one host)"
    b6 b6g gtk-docs 0 "libglib2.0-doc (gtk-doc, ~150 links a page)"
    b6 b6s synthetic 0 "synthetic site (small pages: the frontier loop)"
    b6 b6c python-docs 0 "frontier-crawl, python3-doc on one host" frontier-crawl
    b6 b6cl libstdcxx 0 "frontier-crawl, libstdc++-12-doc on one host" frontier-crawl
    b6 b6cg gtk-docs 0 "frontier-crawl, libglib2.0-doc" frontier-crawl
    put b6_secs "$(calc "$(now) - $t0")"
fi
BROAD_C="${BROAD_C-}"
c_opt() { [ "$1" = default ] || echo " -c $1"; }  # a row's -c as run (none: the default)
broad() {   # PREFIX SITE TITLE [VARIABLES...]
    local p=$1 site=$2 title=$3 t0
    shift 3
    echo
    echo "== $p $title (load $(cut -d' ' -f1-3 /proc/loadavg)):"
    t0=$(now)
    env SITE="$site" H="${BROAD_H:-1000}" C="$BROAD_C" PREFIX="$p" RESULTS="$R" "$@" "$root/tests/bench/broad_crawl.sh"
    put "${p}_secs" "$(calc "$(now) - $t0")"
    put "${p}_load" "$(cut -d' ' -f1-3 /proc/loadavg)"
}
if [ -z "${SKIP_BROAD:-}" ] && only b8; then
    broad b8 fixed "broad crawl vs Scrapy, ${BROAD_H:-1000} hosts x 20 pages, min-delay 1 s"
fi
if { [ "${BROAD:-0}" = 1 ] && [ -z "$ONLY" ]; } || [[ " $ONLY " == *" b9 "* ]]; then
    broad b9 endless "sustained broad crawl, ${BROAD_H:-1000} endless hosts, ${BROAD_SECONDS:-600} s" \
        SECONDS_RUN="${BROAD_SECONDS:-600}" WINDOW=30
fi

# ---------------------------------------------------------------- the tables
b6_rows="b6 b6d b6l b6g b6s b6c b6cl b6cg"
fmt() { printf '%.0f' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }   # 57086.3 -> 57,086
us() { if [ -n "$1" ]; then calc "1e6 / $1" | xargs printf '%.1f'; else echo "—"; fi; }
cpu_us() { local v; v=$(get "$1"); if [ -n "$v" ]; then printf '%.1f' "$v"; else echo "—"; fi; }
# The larger frontiers' cost per URL against 1M's in this run, wall (CPU
# beside): a link must cost the same at 1M and 100M. Targets: add at 10M
# within 1.5x of 1M, lease (B2) and done (B4) at 100M within 2x.
against_1m() {
    local base=s1000000_ s k ratio cells ok max checked label larger=""
    for s in $sizes; do [ "$s" -le 1000000 ] || larger=1; done
    [ -n "$(get "${base}b1")" ] && [ -n "$larger" ] || return 0
    echo
    echo "Against 1M (cost per URL at the size over its cost at 1M in this run, wall; CPU in brackets):"
    echo
    echo "| URLs | add | lease | done | target | |"
    echo "|---|---|---|---|---|---|"
    for s in $sizes; do
        [ "$s" -gt 1000000 ] || continue
        # The cases each size is held to (B1 add, B2 lease, B4 done), and the bound.
        case $s in
            10000000) checked="b1" max=1.5 label="add ≤ 1.5×" ;;
            100000000) checked="b2 b4" max=2 label="lease, done ≤ 2×" ;;
            *) checked="" max="" label="—" ;;
        esac
        k="s${s}_" cells="" ok=1
        for c in b1 b2 b4; do
            ratio=$(calc "$(get "${base}$c") / $(get "${k}$c")" | xargs printf '%.2f')
            cells="$cells | ${ratio}× ($(calc "$(get "${k}${c}_cpu") / $(get "${base}${c}_cpu")" | xargs printf '%.2f')×)"
            if [[ " $checked " == *" $c "* ]] && [ "$(ge "$max" "$ratio")" != 1 ]; then ok=0; fi
        done
        echo "| $(hum "$s")$cells | $label | $([ -n "$checked" ] && mark $ok) |"
    done
}
mark() { if [ "$1" = 1 ]; then echo "met${2:+ ($2)}"; else echo "**MISS**${2:+ ($2)}"; fi; }
ge() { awk "BEGIN {print ($1 >= $2) ? 1 : 0}"; }
# The RSS limit of the tools on a frontier of $1 URLs (none: LIMIT_MIB): 64
# MiB plus 2 bytes a URL for the filter that proves new URLs new
# (frontier(7), FILE FORMAT).
rss_limit() { echo $(( LIMIT_MIB + ${1:-0} * 2 / 1048576 )); }
memrow() {   # LABEL NAME MIB NAME MIB ...: one table row, MISS when any is >= the limit (MEM_LIMIT, else LIMIT_MIB)
    local label=$1 out="" ok=1 name v limit=${MEM_LIMIT:-$LIMIT_MIB}
    shift
    while [ $# -gt 0 ]; do
        name=$1 v=$2; shift 2
        [ -z "$v" ] && continue
        if [ "$v" -ge "$limit" ]; then out="$out${out:+, }$name **$v**"; ok=0; else out="$out${out:+, }$name $v"; fi
    done
    local target="< $limit MiB"
    [ "$limit" = $LIMIT_MIB ] || target="< $limit MiB ($LIMIT_MIB + 2 B/URL)"
    echo "| $label | $out MiB | — | $target | $(mark $ok) |"
}
total=$(calc "$(now) - $bench_start")

# The tables go to the output and, unless BENCH_README=0 or ORDER (or FRONTIER_BIN is
# not this tree's bin/: an old build measured for comparison), into the
# "Latest run" section of tests/bench/README.md, between its markers.
tables() {
echo
echo "### Table ($(date -u +%Y-%m-%d), $machine; $(basename "$bin")/; bench took $(printf '%.0f' "$total") s)"
echo
echo "| case | ours | peer in the same run | target | |"
echo "|---|---|---|---|---|"
for s in $sizes; do
    k="s${s}_"
    hs=$(hum "$s")
    if [ "$s" = "$N" ]; then hh=$(hum "$H"); else hh=$(hum $(( s / 100 > 0 ? s / 100 : 1 ))); fi
    b1=$(get "${k}b1"); p1=$(get "${k}b1_peer")
    if [ -n "$p1" ]; then
        r=$(calc "$b1 / $p1" | xargs printf '%.2f')
        ok=$(( $(ge "$b1" 150000) && $(ge "$b1" "$p1 / 2") ))
        echo "| B1 add $hs records over $hh hosts | $(fmt "$b1") records/s ($(us "$b1") µs/URL) | \`sqlite3\` import, unique key + (queue, state, priority) index: $(fmt "$p1")/s | ≥ 150k/s and within 2× of the import | $(mark $ok "${r}× the import") |"
    else
        echo "| B1 add $hs records over $hh hosts | $(fmt "$b1") records/s ($(us "$b1") µs/URL) | not run above B1_PEER_MAX | ≥ 150k/s | $(mark "$(ge "$b1" 150000)") |"
    fi
    b2=$(get "${k}b2")
    n2=$(get "${k}b2_n"); [ "$n2" -ge $(( s * 9 / 10 )) ] && w2="all $hs" || w2="$(hum $(( (n2 + 500) / 1000 * 1000 ))) of $hs"
    echo "| B2 lease $w2 in batches of 1000, politeness off | $(fmt "$b2") URLs/s ($(us "$b2") µs/URL) | — | ≥ 100k/s | $(mark "$(ge "$b2" 100000)") |"
    if [ -n "$(get "${k}b2r")" ]; then
        b2r=$(get "${k}b2r"); b2f=$(get "${k}b2_first")
        r=$(calc "$b2r / $b2f" | xargs printf '%.2f')
        echo "| B2r lease $(hum "$(get "${k}b2r_n")") of $hs by 1000 with all $hh queues rotating (held queues, session budget 1: every lease rotates its queue) | $(fmt "$b2r") URLs/s ($(us "$b2r") µs/URL) | B2's first $(hum "$(get "${k}b2r_n")") in the same run: $(fmt "$b2f") URLs/s | ≥ 100k/s (budgets must not slow leasing below it) | $(mark "$(ge "$b2r" 100000)" "${r}× B2") |"
    fi
    b3=$(get "${k}b3")
    ok=$(awk "BEGIN {print ($b3 < 20) ? 1 : 0}")
    echo "| B3 \`frontier-lease -n 100\` on the $hs-URL, $hh-queue frontier | $(printf '%.1f' "$b3") ms/call (median; $(get "${k}b3_range")) | — | < 20 ms (on 10M) | $(mark "$ok") |"
    b4=$(get "${k}b4")
    [ "$n2" -ge $(( s * 9 / 10 )) ] && w4="$hs" || w4="$(hum $(( (n2 + 500) / 1000 * 1000 ))) of the $hs"
    echo "| B4 done $w4 results | $(fmt "$b4") results/s ($(us "$b4") µs/URL) | — | ≥ 100k/s | $(mark "$(ge "$b4" 100000)") |"
    b7=$(get "${k}b7")
    ok=$(awk "BEGIN {print ($b7 < 1 && $(get "${k}b7_json") < 1) ? 1 : 0}")
    echo "| B7 report summary / \`--json\` on the $hs frontier | $(printf '%.2f s / %.2f s' "$b7" "$(get "${k}b7_json")") | — | < 1 s (on 10M) | $(mark "$ok") |"
    MEM_LIMIT=$(rss_limit "$s") memrow "peak RSS at $hs" add "$(get "${k}rss_add")" "lease -n 100" "$(get "${k}rss_b3")" "lease -n 1000" "$(get "${k}rss_lease")" \
        done "$(get "${k}rss_done")" report "$(get "${k}rss_report")"
done
if [ -n "$(get b8_rate)" ]; then
    ok=$(( $(ge "$(get b8_frac)" 0.95) && $(ge "$(get b8_ratio)" 5) && $(get b8_close) == 0 && $(get b8_private) == 0 ))
    echo "| B8 broad crawl \`frontier-crawl$(c_opt "$(get b8_c)") --set politeness.min-delay=1 --set politeness.delay-factor=0\`, $(fmt "$(get b8_h)") hosts × 20 pages (127.1.x.y, robots.txt), load $(get b8_load) | $(fmt "$(get b8_rate)") pages/s = $(get b8_frac) of the ideal $(fmt "$(get b8_h)")/s; $(get b8_close) gaps < 1 s (min $(get b8_min_gap) s) | Scrapy, \`DOWNLOAD_DELAY 1\`, 1 per host, \`CONCURRENT_REQUESTS $(get b8_scrapy_c)\`: $(fmt "$(get b8_rate_scrapy)") pages/s = $(get b8_frac_scrapy); $(get b8_close_scrapy) gaps < 1 s (min $(get b8_min_gap_scrapy) s) | ≥ 0.95 of the ideal, ≥ 5× Scrapy, no gap < 1 s | $(mark "$ok" "$(get b8_ratio)×") |"
    memrow "peak RSS in B8 (Scrapy: $(get b8_rss_scrapy) MiB)" lease "$(get b8_rss_lease)" fetch "$(get b8_rss_fetch)" "done" "$(get b8_rss_done)"
fi
if [ -n "$(get b9_min_frac)" ]; then
    ok=$(( $(ge "$(get b9_min_frac)" 0.9) && $(ge "$(get b9_urls)" 10000000) && $(get b9_close) == 0 ))
    echo "| B9 sustained broad crawl, $(fmt "$(get b9_h)") endless hosts (20 new links and 20 shared a page), $(get b9_seconds) s, \`frontier-crawl$(c_opt "$(get b9_c)")\`, min-delay 1 s, load $(get b9_load) | 30 s windows, of the ideal: $(get b9_fractions) (min $(get b9_min_frac), mean $(get b9_mean_frac)); frontier $(fmt "$(get b9_urls)") URLs ($(get b9_db_mib) MiB); $(get b9_close) gaps < 1 s (median $(get b9_median_gap) s); CPU ms per page, first window → last: $(get b9_cpu_page) | — | every window ≥ 0.9 of the ideal, ≥ 10M URLs, no gap < 1 s | $(mark "$ok") |"
    memrow "peak RSS in B9" lease "$(get b9_rss_lease)" fetch "$(get b9_rss_fetch)" "done" "$(get b9_rss_done)"
fi
if [ -n "$(get b5_fetch)" ]; then
    r=$(calc "$(get b5_fetch) / $(get b5_curl)" | xargs printf '%.2f')
    ok=$(( $(ge "$(get b5_fetch)" "$(get b5_curl)") && $(ge "$(get b5_fetch)" 5000) ))
    echo "| B5 \`fetch -c $(get b5_c) --per-host $(get b5_c)\` of $(hum "$(get b5_n)") URLs on local nginx | $(fmt "$(get b5_fetch)") pages/s | \`curl --parallel --parallel-max $(get b5_c)\`: $(fmt "$(get b5_curl)") pages/s | ≥ 1.0× curl and ≥ 5k/s | $(mark $ok "${r}×") |"
    echo "| B5 with \`--links --warc\` | $(fmt "$(get b5_full)") pages/s | | | |"
    memrow "peak RSS in B5" fetch "$(get b5_rss)" "fetch --links --warc" "$(get b5_rss_full)"
fi
for p in $b6_rows; do
    [ -n "$(get "${p}_rate")" ] || continue
    same=$(get "${p}_same")
    pg="$(get "${p}_pages") pages"
    [ "$same" = yes ] || pg="ours $(get "${p}_pages") pages, wget2 $(get "${p}_pages_wget2"): NOT the same page set"
    ok=$(ge "$(get "${p}_ratio")" 1)
    [ "$same" = yes ] || ok=0
    if [ "$(get "${p}_crawler")" = frontier-crawl ]; then
        peak=$(get "${p}_host_peak")
        [ "$peak" -le "$(get "${p}_c")" ] || ok=0
        echo "| B6 \`frontier-crawl -c $(get "${p}_c") --set politeness.max-in-flight=$(get "${p}_c")\`, delays and robots.txt off, $(get "${p}_desc") ($pg; at most $peak connections at once on a host) | $(fmt "$(get "${p}_rate")") pages/s | \`wget2 --recursive --max-threads=$(get "${p}_c")\`: $(fmt "$(get "${p}_rate_wget2")") pages/s | ≥ 1.0× wget2, ≤ $(get "${p}_c") at once a host | $(mark "$ok" "$(get "${p}_ratio")×") |"
        continue
    fi
    echo "| B6 full crawl \`frontier-lease --follow \\| fetch -c $(get "${p}_c") --links \\| frontier-done\`, $(get "${p}_desc") ($pg), politeness off | $(fmt "$(get "${p}_rate")") pages/s | \`wget2 --recursive --max-threads=$(get "${p}_c")\`: $(fmt "$(get "${p}_rate_wget2")") pages/s | ≥ 1.0× wget2 | $(mark "$ok" "$(get "${p}_ratio")×") |"
    memrow "peak RSS in B6, $(get "${p}_desc") (wget2: $(get "${p}_rss_wget2") MiB)" \
        "lease --follow" "$(get "${p}_rss_lease")" "fetch --links" "$(get "${p}_rss_fetch")" done "$(get "${p}_rss_done")"
done

if [ -n "$(get b6_rate)$(get b6d_rate)$(get b6l_rate)$(get b6g_rate)$(get b6s_rate)" ]; then
    echo
    echo "B6 side by side (medians of ${B6_REPEAT:-3} runs; CPU = user+sys of lease + fetch + done against wget2's, per page;"
    echo "lease capacity = URLs leased / frontier-lease's CPU s, over the crawl's pages/s: below 1 the lease side would limit the crawl):"
    echo
    echo "| row | site | pages | ours s | wget2 s | wall ratio (pages/s ours/wget2) | CPU per page ours/wget2 | lease capacity / crawl rate | peak RSS lease / fetch / done / wget2 |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for p in $b6_rows; do
        [ -n "$(get "${p}_rate")" ] || continue
        pg=$(get "${p}_pages")
        [ "$(get "${p}_same")" = yes ] || pg="$pg (wget2 $(get "${p}_pages_wget2"): NOT the same set)"
        lr=$(get "${p}_lease_ratio")
        [ "$(ge "$lr" 1)" = 1 ] || lr="**$lr**"
        lr="${lr}×"
        rss="$(get "${p}_rss_lease") / $(get "${p}_rss_fetch") / $(get "${p}_rss_done") / $(get "${p}_rss_wget2")"
        # frontier-crawl rows: CPU and RSS are the whole crawl's (its tools, set-up and reports)
        if [ "$(get "${p}_crawler")" = frontier-crawl ]; then lr="—"; rss="crawl $(get "${p}_rss_lease") / $(get "${p}_rss_wget2")"; fi
        echo "| $p | $(get "${p}_desc") | $pg | $(printf '%.2f' "$(get "${p}_wall")") | $(printf '%.2f' "$(get "${p}_wall_wget2")") | $(get "${p}_ratio")× | $(get "${p}_cpu_ratio")× ($(get "${p}_cpu_ours") s / $(get "${p}_cpu_wget2") s) | $lr | $rss MiB |"
    done
fi

if [ -n "$sizes" ]; then
    echo
    echo "Scaling (hosts = URLs/100; cost per URL should stay flat as the frontier grows):"
    echo
    echo "| URLs / hosts | B1 add µs/URL (CPU) | B1 sqlite3 import µs/URL | B2 lease µs/URL (CPU) | B3 ms/call | B4 done µs/URL (CPU) | B7 summary s | frontier file | peak RSS add / lease / done / report | time |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for s in $sizes; do
        k="s${s}_"
        if [ "$s" = "$N" ]; then hh=$(hum "$H"); else hh=$(hum $(( s / 100 > 0 ? s / 100 : 1 ))); fi
        flag() { if [ "$1" -ge "$(rss_limit "$s")" ]; then echo "**$1**"; else echo "$1"; fi; }
        echo "| $(hum "$s") / $hh | $(us "$(get "${k}b1")") ($(cpu_us "${k}b1_cpu")) | $(us "$(get "${k}b1_peer")") | $(us "$(get "${k}b2")") ($(cpu_us "${k}b2_cpu")) | $(printf '%.1f' "$(get "${k}b3")") | $(us "$(get "${k}b4")") ($(cpu_us "${k}b4_cpu")) | $(printf '%.2f' "$(get "${k}b7")") | $(get "${k}db_mib") MiB | $(flag "$(get "${k}rss_add")") / $(flag "$(get "${k}rss_lease")") / $(flag "$(get "${k}rss_done")") / $(flag "$(get "${k}rss_report")") MiB | $(printf '%.0f' "$(get "${k}secs")") s |"
    done
    echo
    echo "(peak RSS in **bold**: >= $LIMIT_MIB MiB plus 2 bytes a URL of the frontier)"
    against_1m
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench time: $(printf '%.0f' "$total") s in all$( [ -n "$(get b5_secs)" ] && printf '; B5 %.0f s' "$(get b5_secs)")$( [ -n "$(get b6_secs)" ] && printf '; B6 %.0f s' "$(get b6_secs)")$( [ -n "$(get b8_secs)" ] && printf '; B8 %.0f s' "$(get b8_secs)")$( [ -n "$(get b9_secs)" ] && printf '; B9 %.0f s' "$(get b9_secs)")"
}
tables | tee "$dir/tables.md"
if [ "${BENCH_README:-1}" != 0 ] && [ "$bin" = "$root/bin" ] && [ -z "$ORDER" ]; then
    readme="$root/tests/bench/README.md"
    # Everything between the markers is replaced; the rest of the file is kept.
    awk -v f="$dir/tables.md" '
        /^<!-- latest run: begin/ { print; print ""; print "Written by `make bench` (tests/bench/run.sh), replaced at each run; earlier runs are in the git log."; while ((getline l < f) > 0) print l; skip = 1; next }
        /^<!-- latest run: end/ { skip = 0 }
        !skip { print }' "$readme" > "$dir/README.md"
    if grep -q '^<!-- latest run: end' "$dir/README.md"; then
        cat "$dir/README.md" > "$readme"
        echo "(tables written to tests/bench/README.md, section Latest run)"
    else
        echo "bench: tests/bench/README.md has no latest-run markers; not rewritten" >&2
    fi
fi
