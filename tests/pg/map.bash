# Sourced by the wrappers of tests/pg/run.sh. pg_map NAME prints the URL of
# this case's database for the frontier path NAME ($PG_BASE/c<case>_<name>),
# creating the database on first use (CREATE DATABASE, or a copy of the
# database of another path with `pg_map NAME SOURCE`); the runner maps the
# URLs in the output back to the names ($PG_CASE_DIR/map).
pg_db() { printf 'c%s_%s' "$PG_CASE" "$(printf '%s' "${1##*/}" | tr -c 'a-zA-Z0-9' '_' | tr 'A-Z' 'a-z')"; }
pg_map() {
    case "$1" in postgres://*|postgresql://*) echo "$1"; return ;; esac
    local db; db=$(pg_db "$1")
    if [ ! -e "$PG_CASE_DIR/$db" ]; then
        local tmpl=""
        [ -n "${2:-}" ] && tmpl=" TEMPLATE $(pg_db "$2")"
        psql -qX "$PG_BASE/postgres" -c "CREATE DATABASE $db$tmpl" >/dev/null 2>&1
        printf '%s\t%s\n' "$PG_BASE/$db" "$1" >> "$PG_CASE_DIR/map"
        : > "$PG_CASE_DIR/$db"
    fi
    echo "$PG_BASE/$db"
}
