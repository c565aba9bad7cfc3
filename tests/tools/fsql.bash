# fsql SQL: runs SQL on the frontier $F, a SQLite file (sqlite3) or a
# postgresql:// database (psql), printing rows as `sqlite3` does (| between
# columns). For the e2e tests that inspect the frontier's tables.
fsql() {
    case "$F" in
        postgres://*|postgresql://*) psql -qXAt -F '|' -v ON_ERROR_STOP=1 "$F" -c "$1" ;;
        *) sqlite3 "$F" "$1" ;;
    esac
}
