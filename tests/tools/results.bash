# Sourced by the test runners (tests/cli, tests/e2e and tests/pg run.sh),
# which run their cases in parallel, each writing its result line (and, when
# it failed, its log) to DIR/NAME.
# print_results DIR PREFIX NAME...: prints those files in the order given
# ("FAIL PREFIXNAME (no result)" for a missing one) and sets
# result_failures to the number of cases that did not pass.
print_results() {
    local dir=$1 prefix=$2 name; shift 2
    result_failures=0
    for name in "$@"; do
        if [ -s "$dir/$name" ]; then cat "$dir/$name"; else echo "FAIL $prefix$name (no result)"; fi
        head -1 "$dir/$name" 2>/dev/null | grep -q '^PASS ' || result_failures=$((result_failures + 1))
    done
}
