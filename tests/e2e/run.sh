#!/usr/bin/env bash
# End-to-end tests: each tests/e2e/test_*.sh exits 0 on success. They start
# their own servers on 127.0.0.1 (on free ports) and never touch the
# internet. E2E_JOBS tests run at once (default 2: most of a test's time is
# spent waiting on its servers and pipelines); each prints its PASS or FAIL
# line, in name order, once all ran. Exits 1 when any test failed.
# `tests/e2e/run.sh FILTER` runs the tests whose name contains FILTER.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$root/${FRONTIER_BIN:-bin}:$PATH"
filter="${1:-}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One test: its result line, then (when it failed) its log's tail, in $out/NAME.
run_one() {
    local t=$1 name dir log rc start=$SECONDS
    name=$(basename "$t" .sh)
    dir=$(mktemp -d)
    log=$(cd "$dir" && ROOT="$root" timeout "${E2E_TIMEOUT:-300}" bash "$t" 2>&1)
    rc=$?
    rm -rf "$dir"
    if [ $rc -eq 0 ]; then echo "PASS $name ($((SECONDS - start)) s)"; else echo "FAIL $name (exit $rc, $((SECONDS - start)) s)"; printf '%s\n' "$log" | tail -30; fi \
        > "$out/$name"
}
export -f run_one
export root out

tests=(); names=()
for t in "$here"/test_*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
    tests+=("$t"); names+=("$name")
done
# The longest tests (their headers say "# e2e: long") start first, so that
# the parallel runs end together instead of one waiting on a late long test.
order=()
for t in "${tests[@]}"; do grep -q '^# e2e: long' "$t" && order+=("$t"); done
for t in "${tests[@]}"; do grep -q '^# e2e: long' "$t" || order+=("$t"); done
[ ${#tests[@]} -gt 0 ] && printf '%s\0' "${order[@]}" | xargs -0 -n 1 -P "${E2E_JOBS:-2}" bash -c 'run_one "$0"'
. "$root/tests/tools/results.bash"
print_results "$out" "" "${names[@]}"
[ "$result_failures" -eq 0 ]
