# frontier-report: every long option in --help is documented in
# man/frontier-report.1, every JSON key has an entry, and the page has the
# house sections and renders without warnings.
set -euo pipefail
man="$ROOT/man/frontier-report.1"
[ -f "$man" ]
missing=0
for opt in $("$ROOT/bin/frontier-report" --help | grep -oE -- '--[a-z0-9][a-z0-9.-]*' | sort -u); do
    if ! grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$man"; then
        echo "not in man/frontier-report.1: $opt"; missing=1
    fi
done
for sec in NAME SYNOPSIS DESCRIPTION OPTIONS INPUT OUTPUT "EXIT STATUS" ENVIRONMENT EXAMPLES "SEE ALSO"; do
    grep -q "^\.SH $sec\$" "$man" || { echo "missing section $sec"; missing=1; }
done
# Every key the tool prints (summary and a queue row) is documented.
export FRONTIER_NOW=1800000000
"$ROOT/bin/frontier-config" -f f.db robots.enabled false
echo http://a.example/ | "$ROOT/bin/frontier-add" -q -f f.db
"$ROOT/bin/frontier-budget" -q -f f.db --retire a.example
keys=$( { "$ROOT/bin/frontier-report" -f f.db --json; "$ROOT/bin/frontier-report" -f f.db --queues --json; } |
        grep -oE '"[a-z][a-z_0-9]*":' | tr -d '":' | sort -u)
for key in $keys; do
    grep -qE "^\.BR? $(printf '%s' "$key" | sed 's/_/\\_/g')( |,|\$)|\\\\fB$key\\\\fR" "$man" ||
        { echo "key not documented: $key"; missing=1; }
done
if command -v groff >/dev/null 2>&1; then
    warn=$(groff -man -Tutf8 -ww "$man" 2>&1 >/dev/null || true)
    [ -z "$warn" ] || { echo "groff: $warn"; missing=1; }
fi
[ "$missing" -eq 0 ]
echo PASS
