# What the tests/pg scripts share (sourced): fail, sql (one query on
# $FRONTIER, its rows unaligned), and configure FRONTIER "KEY VALUE"...
# (a frontier-config per setting).
fail() { echo "FAIL: $*"; exit 1; }
sql() { psql -qXAt "${FRONTIER:?}" -c "$1"; }
configure() {
    local f=$1 kv
    shift
    for kv in "$@"; do
        # shellcheck disable=SC2086
        frontier-config -f "$f" $kv >/dev/null || fail "config $kv"
    done
}
