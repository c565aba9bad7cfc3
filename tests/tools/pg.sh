#!/usr/bin/env bash
# A private, unprivileged PostgreSQL cluster on 127.0.0.1 for the tests.
#   tests/tools/pg.sh start DIR   initdb in DIR (when empty) and start a server on a free
#                                 port of 127.0.0.1; prints the base URL
#                                 "postgresql://USER@127.0.0.1:PORT" (no database)
#                                 (again on the same port after a stop)
#   tests/tools/pg.sh stop DIR    stop that server (pg_ctl stop -m fast)
#   tests/tools/pg.sh url DIR     the base URL of a running cluster
#   tests/tools/pg.sh hugepages DIR  "on" when the running server's shared
#                                 memory is on huge pages, else "off"
#                                 (frontier(7), POSTGRESQL)
# PG_HUGE_PAGES=on|off|try sets the server's huge_pages (its default: try,
# which takes them when the kernel has them reserved).
# As root the server runs as the unprivileged user `nobody` (PostgreSQL
# refuses root); DIR is handed to that user. Debian packages: postgresql
# (scripts/deps.sh installs it). Only the server started here is stopped.
set -euo pipefail
cmd=${1:?usage: pg.sh start|stop|url|hugepages DIR}
dir=${2:?usage: pg.sh start|stop|url|hugepages DIR}
pgbin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$pgbin/initdb" ] || { echo "pg.sh: no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 1; }
as_user() {
    if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
    else "$@"; fi
}
user=$( [ "$(id -u)" -eq 0 ] && echo nobody || id -un )
case "$cmd" in
start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" -eq 0 ] && chown nobody:nogroup "$dir" && chmod 700 "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_user "$pgbin/initdb" -D "$dir/data" -U "$user" -A trust --no-sync -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    # Started again after a stop: the same port, so clients can reconnect.
    if [ -f "$dir/url" ]; then u=$(cat "$dir/url"); port=${u##*:}
    else port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'); fi
    # Test settings: durability off (fsync, full_page_writes), sockets in DIR only.
    as_user "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
        -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c huge_pages=${PG_HUGE_PAGES:-try}" \
        >/dev/null || { tail -20 "$dir/server.log" >&2; exit 1; }
    echo "postgresql://$user@127.0.0.1:$port" > "$dir/url"
    cat "$dir/url"
    ;;
stop)
    [ -f "$dir/data/postmaster.pid" ] && as_user "$pgbin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    ;;
url)
    cat "$dir/url"
    ;;
hugepages)
    pid=$(head -1 "$dir/data/postmaster.pid")
    if grep -q anon_hugepage "/proc/$pid/maps" 2>/dev/null; then echo on; else echo off; fi
    ;;
*)
    echo "usage: pg.sh start|stop|url|hugepages DIR" >&2; exit 2 ;;
esac
