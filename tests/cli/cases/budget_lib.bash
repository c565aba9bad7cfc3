# Helpers sourced by the budget_*.sh cases (not a case itself: run.sh runs *.sh).
# F is the frontier file (default f.db). Queues never snooze: robots.txt off,
# politeness delays 0, so the lease order shows the budget logic alone.
F=${F:-f.db}

setup() {
    frontier-config -f "$F" robots.enabled false
    frontier-config -f "$F" politeness.min-delay 0
    frontier-config -f "$F" politeness.delay-factor 0
}

# lease [N] [STATUS]: one frontier-lease -n N (default 1); prints the leased
# URLs without "http://" on one line with the exit code, then reports every
# lease back to frontier-done with HTTP STATUS (default 200; "-" keeps the
# leases out). frontier-lease's stderr goes to lease.err.
lease() {
    local out rc
    out=$(frontier-lease -f "$F" -n "${1:-1}" 2>lease.err)
    rc=$?
    printf 'lease:%s exit=%s\n' "$(printf '%s\n' "$out" | sed -n 's|.*"url":"https\{0,1\}://\([^"]*\)".*| \1|p' | tr -d '\n')" "$rc"
    [ "${2:-200}" = "-" ] && return
    printf '%s\n' "$out" | sed -n 's/.*"lease":"\([^"]*\)".*/{"lease":"\1","status":'"${2:-200}"'}/p' |
        frontier-done -q -f "$F"
}

# lease_n COUNT [N]: COUNT lease calls of -n N, URLs reported done with 200.
lease_n() {
    local i
    for i in $(seq "$1"); do lease "${2:-1}"; done
}

# queues: key, state, session balance, total spend, queued URLs per queue.
queues() {
    sqlite3 -separator ' ' "$F" "SELECT key, CASE state WHEN 0 THEN 'active' WHEN 1 THEN 'inactive' \
        WHEN 2 THEN 'retired' ELSE 'retired-by-hand' END, 'balance=' || session_balance, \
        'spend=' || total_spend, 'queued=' || queued FROM queues ORDER BY id"
}

# urls HOST N: http://HOST/1 .. http://HOST/N, one a line.
urls() {
    local i
    for i in $(seq "$2"); do echo "http://$1/$i"; done
}
