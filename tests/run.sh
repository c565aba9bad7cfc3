#!/usr/bin/env bash
# Runs every suite and ends with one line "N passed, N failed".
# Suites: Catch2 unit tests (each test case counts), CLI golden cases,
# end-to-end scripts (tests/e2e/*.sh, the examples among them: test_examples.sh),
# and the CLI cases, a move file -> PostgreSQL -> file and e2e tests again on
# PostgreSQL (tests/pg/run.sh: a private server on 127.0.0.1, beside the other
# suites; FRONTIER_TEST_PG=0 leaves it out). Each suite's line gives its seconds.
set -u
cd "$(dirname "$0")/.."
BIN="${FRONTIER_BIN:-bin}"
export PATH="$PWD/$BIN:$PATH"
passed=0
failed=0

# The PostgreSQL suite starts first and runs beside the others: like the
# end-to-end tests, it mostly waits on servers and pipelines, so the two
# together take little longer than either.
pg_out=$(mktemp)
pg_pid=
if [ -x tests/pg/run.sh ] && [ "${FRONTIER_TEST_PG:-1}" != 0 ]; then
    ( start=$SECONDS; tests/pg/run.sh > "$pg_out" 2>&1; echo "$((SECONDS - start))" > "$pg_out.seconds" ) &
    pg_pid=$!
fi
trap 'rm -f "$pg_out" "$pg_out.seconds"' EXIT

# count SUITE RESULT SECONDS: adds a script suite's PASS and FAIL lines to the
# totals, prints the failures (each FAIL line is followed by its case's log;
# a case's own "FAIL: why" lines are not counted) and the suite's line.
count() {
    local p f
    p=$(echo "$2" | grep -c '^PASS '); f=$(echo "$2" | grep -c '^FAIL ')
    [ "$f" -gt 0 ] && echo "$2" | grep -v '^PASS'
    echo "$1: $p passed, $f failed ($3 s)"
    passed=$((passed + p)); failed=$((failed + f))
}

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

for suite in cli e2e; do
    start=$SECONDS
    res=$("tests/$suite/run.sh" 2>&1)
    count "$suite" "$res" $((SECONDS - start))
done
if [ -n "$pg_pid" ]; then
    wait "$pg_pid"
    count pg "$(cat "$pg_out")" "$(cat "$pg_out.seconds" 2>/dev/null || echo '?')"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
