#!/usr/bin/env bash
# End-to-end tests: each tests/e2e/test_*.sh exits 0 on success. They start
# their own servers on 127.0.0.1 and never touch the internet. Exits 1 when
# any test failed.
set -u
failures=0  # exit 1 when any case failed
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$root/${FRONTIER_BIN:-bin}:$PATH"
filter="${1:-}"
for t in "$here"/test_*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
    dir=$(mktemp -d)
    log=$(cd "$dir" && ROOT="$root" timeout "${E2E_TIMEOUT:-300}" bash "$t" 2>&1)
    rc=$?
    rm -rf "$dir"
    if [ $rc -eq 0 ]; then echo "PASS $name"; else failures=$((failures + 1)); echo "FAIL $name (exit $rc)"; printf '%s\n' "$log" | tail -30; fi
done
[ "$failures" -eq 0 ]
