# Sourced by the PostgreSQL benchmark scripts (tests/pg/bench.sh,
# tests/pg/waits.sh): root (the repository), bin (FRONTIER_BIN, default bin/,
# made absolute) first on PATH, no FRONTIER_NOW/FRONTIER from the caller's
# environment, and work: a fresh directory the server's user can read.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${FRONTIER_BIN:-bin}"
case $bin in /*) ;; *) bin="$root/$bin" ;; esac
export PATH="$bin:$PATH"
unset FRONTIER_NOW FRONTIER
work=$(mktemp -d)
chmod 755 "$work"
