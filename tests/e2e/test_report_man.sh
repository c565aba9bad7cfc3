# frontier-report: every JSON key the tool prints has an entry in
# man/frontier-report.1. (Options, sections and rendering of every page are
# checked by test_manpages.sh.)
set -euo pipefail
man="$ROOT/man/frontier-report.1"
[ -f "$man" ]
missing=0
# Every key the tool prints (summary and a queue row) is documented.
export FRONTIER_NOW=1800000000
"$ROOT/${FRONTIER_BIN:-bin}/frontier-config" -f f.db robots.enabled false
echo http://a.example/ | "$ROOT/${FRONTIER_BIN:-bin}/frontier-add" -q -f f.db
"$ROOT/${FRONTIER_BIN:-bin}/frontier-budget" -q -f f.db --retire a.example
keys=$( { "$ROOT/${FRONTIER_BIN:-bin}/frontier-report" -f f.db --json; "$ROOT/${FRONTIER_BIN:-bin}/frontier-report" -f f.db --queues --json; } |
        grep -oE '"[a-z][a-z_0-9]*":' | tr -d '":' | sort -u)
for key in $keys; do
    grep -qE "^\.BR? $(printf '%s' "$key" | sed 's/_/\\_/g')( |,|\$)|\\\\fB$key\\\\fR" "$man" ||
        { echo "key not documented: $key"; missing=1; }
done
[ "$missing" -eq 0 ]
echo PASS
