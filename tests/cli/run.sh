#!/usr/bin/env bash
# CLI golden tests. A case is tests/cli/cases/NAME.sh, run by bash in a fresh
# temporary directory with the tools on PATH and FRONTIER_NOW set; its stdout
# (scripts print "exit=$?" where exit codes matter) is byte-compared with
# NAME.out. `tests/cli/run.sh --regen` rewrites the .out files for review.
# CLI_JOBS cases run at once (default 2: most of a case is process starts);
# prints "PASS name" / "FAIL name" lines in name order once all ran; exits 1
# when any case failed.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PATH="$root/${FRONTIER_BIN:-bin}:$PATH"
export FRONTIER_NOW=1800000000
export LC_ALL=C
unset COLUMNS  # report tables are fitted to it (frontier-report(1)); goldens have whole lines
regen=0; [ "${1:-}" = "--regen" ] && { regen=1; shift; }
filter="${1:-}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One case: its result line, then (when it failed) the diff, in $out/NAME.
run_case() {
    local case=$1 name dir actual
    name=$(basename "$case" .sh)
    dir=$(mktemp -d)
    actual=$(cd "$dir" && CASES="$here/cases" ROOT="$root" timeout 120 bash "$case" 2>&1)
    rm -rf "$dir"
    if [ "$regen" -eq 1 ]; then
        printf '%s\n' "$actual" > "$here/cases/$name.out"
        echo "PASS $name (regenerated)"
    elif [ -f "$here/cases/$name.out" ] && [ "$actual" == "$(cat "$here/cases/$name.out")" ]; then
        echo "PASS $name"
    else
        echo "FAIL $name"
        diff <(cat "$here/cases/$name.out" 2>/dev/null) <(printf '%s\n' "$actual") | head -40
    fi > "$out/$name"
}
export -f run_case
export here root out regen

cases=(); names=()
for case in "$here"/cases/*.sh; do
    name=$(basename "$case" .sh)
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
    cases+=("$case"); names+=("$name")
done
[ ${#cases[@]} -gt 0 ] && printf '%s\0' "${cases[@]}" | xargs -0 -n 1 -P "${CLI_JOBS:-2}" bash -c 'run_case "$0"'
. "$root/tests/tools/results.bash"
print_results "$out" "" "${names[@]}"
[ "$result_failures" -eq 0 ]
