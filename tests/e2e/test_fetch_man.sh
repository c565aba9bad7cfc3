# fetch: every long option in --help is documented in man/fetch.1, and the
# page has the house sections.
set -euo pipefail
man="$ROOT/man/fetch.1"
[ -f "$man" ]
missing=0
for opt in $("$ROOT/bin/fetch" --help | grep -oE -- '--[a-z0-9][a-z0-9.-]*' | sort -u); do
    if ! grep -qF -- "$(printf '%s' "$opt" | sed 's/-/\\-/g')" "$man"; then
        echo "not in man/fetch.1: $opt"; missing=1
    fi
done
for sec in NAME SYNOPSIS DESCRIPTION OPTIONS INPUT OUTPUT "EXIT STATUS" ENVIRONMENT EXAMPLES "SEE ALSO"; do
    grep -q "^\.SH $sec\$" "$man" || { echo "missing section $sec"; missing=1; }
done
for key in status error_class error fetched_at duration_ms ttfb_ms bytes content_type content_hash etag \
           http_last_modified location retry_after links body warc; do
    grep -q "^\.B $key\$" "$man" || { echo "OUTPUT key not documented: $key"; missing=1; }
done
man -l "$man" >/dev/null 2>&1 || true
[ "$missing" -eq 0 ]
echo PASS
