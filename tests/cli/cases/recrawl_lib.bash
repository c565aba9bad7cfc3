# Helpers sourced by the recrawl_*.sh cases (not a case itself: run.sh runs
# *.sh). F is the frontier file (default f.db); T0 the start time; D a day.
# Times are printed in days after T0 with two decimals.
F=${F:-f.db}
T0=1800000000
D=86400

# at DAYS: the epoch time DAYS (a decimal) after T0.
at() { awk -v d="$1" -v t0=$T0 -v day=$D 'BEGIN { printf "%d\n", t0 + d * day }'; }

# setup: no robots.txt, no politeness delay, every URL of a queue can be
# leased in one batch (so the lease order shows the order within a queue).
setup() {
    frontier-config -f "$F" robots.enabled false
    frontier-config -f "$F" budget.hold-queues false
    frontier-config -f "$F" politeness.min-delay 0
    frontier-config -f "$F" politeness.delay-factor 0
    frontier-config -f "$F" politeness.max-in-flight 50
}

# add DAYS RECORD...: frontier-add at that time; prints "path status" per line.
add() {
    local t; t=$(at "$1"); shift
    printf '%s\n' "$@" | FRONTIER_NOW=$t frontier-add -f "$F" 2>/dev/null |
        jq -r '"  add \(.url // "-" | sub("^https?://"; "")) \(.status)\(if .reason then " " + .reason else "" end)"'
}

# lease DAYS [ARGS]: frontier-lease -n 50 --per-queue 50 at that time; prints
# the leased URLs in order and the exit code (and its message when nothing
# was leased); keeps them in leases.jsonl.
lease() {
    local when=$1 t rc; t=$(at "$1"); shift
    FRONTIER_NOW=$t frontier-lease -f "$F" -n 50 --per-queue 50 "$@" >leases.jsonl 2>lease.err
    rc=$?
    echo "lease@$when:$(jq -r '.url | sub("^https?://"; "") | " " + .' leases.jsonl | tr -d '\n') exit=$rc"
    [ $rc -ne 0 ] && sed 's/^/  /' lease.err
    return 0
}

# answer DAYS JQ: answers every lease in leases.jsonl at that time with the
# record the jq program makes from the lease (default: 200, same content);
# prints path, result, next visit (days after T0) and reason.
answer() {
    local t prog='{lease, status: 200, content_hash: "same"}'; t=$(at "$1")
    [ -n "${2:-}" ] && prog=$2
    jq -c "$prog" leases.jsonl |
        FRONTIER_NOW=$t frontier-done -f "$F" |
        jq -r "\"  \(.url | sub(\"^https?://\"; \"\")) \(.result)\(if .next_visit then \" next \" + ((.next_visit - $T0) / $D * 100 | round / 100 | tostring) else \"\" end)\(if .reason then \" (\" + .reason + \")\" else \"\" end)\""
}

# urls [WHERE]: the URL rows (path, state, tier, successes, changes, failures,
# interval in days, last success in days), ordered by id.
urls() {
    sqlite3 -separator ' ' "$F" "SELECT '  ' || replace(replace(url, 'http://', ''), 'https://', ''),
        CASE state WHEN 0 THEN 'queued' WHEN 1 THEN 'leased' WHEN 2 THEN 'done' WHEN 3 THEN 'failed'
                   WHEN 4 THEN 'blocked' ELSE 'disabled' END, 'tier=' || tier, 'ok=' || successes,
        'changes=' || changes, 'fail=' || failures,
        'interval=' || coalesce(round(interval / $D, 2), '-'),
        'last_success=' || coalesce(round((last_success - $T0) / $D, 2), '-')
        FROM urls ${1:-} ORDER BY id"
}
