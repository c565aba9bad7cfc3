# man/frontier-budget.1 documents every long option of --help, the house
# sections, every --apply key and output key, and renders without warnings.
man="$ROOT/man/frontier-budget.1"
for opt in $(frontier-budget --help | grep -oE -- '--[a-z0-9][a-z0-9.-]*' | sort -u); do
    grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$man" || echo "option not in the man page: $opt"
done
for sec in NAME SYNOPSIS DESCRIPTION OPTIONS INPUT OUTPUT "EXIT STATUS" ENVIRONMENT EXAMPLES "SEE ALSO"; do
    grep -q "^\.SH $sec\$" "$man" || echo "missing section $sec"
done
for key in queue domain replenish total_budget retire unretire hold_queues cost_policy error_penalty \
           overrides line status unretired reason field; do
    grep -qE "^\.BR? .*\b$key\b" "$man" || echo "key not documented: $key"
done
if command -v groff >/dev/null; then
    groff -man -Tutf8 -ww -z "$man" 2>&1 | head -5
fi
echo checked
