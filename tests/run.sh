#!/usr/bin/env bash
# Runs every suite and ends with one line "N passed, N failed".
# Suites: Catch2 unit tests (each test case counts), CLI golden cases,
# end-to-end scripts (tests/e2e/*.sh, the examples among them: test_examples.sh),
# and the CLI cases, a move file -> PostgreSQL -> file and four e2e tests
# again on PostgreSQL (tests/pg/run.sh:
# a private server on 127.0.0.1, one to two minutes; FRONTIER_TEST_PG=0 leaves it out).
set -u
cd "$(dirname "$0")/.."
BIN="${FRONTIER_BIN:-bin}"
export PATH="$PWD/$BIN:$PATH"
passed=0
failed=0

# Unit tests: Catch2's summary line gives the test-case counts.
if [ -x "$BIN/unit-tests" ]; then
    log=$(mktemp)
    "$BIN/unit-tests" >"$log" 2>&1
    rc=$?
    summary=$(grep -E '^(All tests passed|test cases:)' "$log" | tail -1)
    if [[ "$summary" =~ All\ tests\ passed.*\ ([0-9]+)\ test\ case ]]; then
        passed=$((passed + BASH_REMATCH[1]))
    elif [[ "$summary" =~ test\ cases:\ +([0-9]+)\ \|\ +([0-9]+)\ passed\ \|\ +([0-9]+)\ failed ]]; then
        passed=$((passed + BASH_REMATCH[2])); failed=$((failed + BASH_REMATCH[3]))
        cat "$log"
    elif [[ "$summary" =~ test\ cases:\ +([0-9]+)\ \|\ +([0-9]+)\ failed ]]; then
        failed=$((failed + BASH_REMATCH[2]))
        cat "$log"
    else
        echo "unit-tests: no summary (exit $rc)"; tail -20 "$log"; failed=$((failed + 1))
    fi
    echo "unit: $(echo "$summary")"
    rm -f "$log"
fi

# Script suites: each prints "PASS name" / "FAIL name" lines (a failed
# case's log follows its FAIL line; its own "FAIL: why" lines are not counted).
for suite in tests/cli/run.sh tests/e2e/run.sh tests/pg/run.sh; do
    [ -x "$suite" ] || continue
    [ "$suite" = tests/pg/run.sh ] && [ "${FRONTIER_TEST_PG:-1}" = 0 ] && continue
    start=$SECONDS
    res=$("$suite" 2>&1)
    p=$(echo "$res" | grep -c '^PASS '); f=$(echo "$res" | grep -c '^FAIL ')
    [ "$f" -gt 0 ] && echo "$res" | grep -v '^PASS'
    echo "$(basename "$(dirname "$suite")"): $p passed, $f failed ($((SECONDS - start)) s)"
    passed=$((passed + p)); failed=$((failed + f))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
