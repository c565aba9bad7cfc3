# Differential test of the HTML tokenizer (lib/web/html/tokenizer.cpp) against
# html5lib (python3-html5lib), by tests/tools/html_diff.py through
# bin/html-scan:
#   tokens: every start tag (all attributes) and end tag of the hand-written
#           edge cases, every prefix of tests/fixtures/html/prefixes-*.html,
#           300 seeded random documents and 40 files of each corpus
#           (python3-doc, libstdc++-12-doc), against html5lib's tokenizer
#           driven by the C++ code's tree-construction approximation;
#   links:  the raw hrefs/srcs of a, area, link, frame, iframe, the first
#           base href and meta robots nofollow, against html5lib's full
#           tree, on the tree-construction cases, the fixtures and the same
#           corpus sample.
# Differences other than the reviewed ones listed in html_diff.py fail.
# `html_diff.py tokens --all` / `links --all` run every corpus file (minutes).
set -u
: "${ROOT:?ROOT must be the repository root}"
py=${HTML_DIFF_PYTHON:-/usr/bin/python3}  # Debian's python3, which has python3-html5lib
diff_py="$ROOT/tests/tools/html_diff.py"

if ! [ -x "$py" ] || ! "$py" -c 'import html5lib' 2>/dev/null; then
    echo "FAIL: $py cannot import html5lib: python3-html5lib is missing (apt-get install python3-html5lib)"
    exit 1
fi
scan=$(command -v html-scan || true)
[ -n "$scan" ] || scan="$ROOT/${FRONTIER_BIN:-bin}/html-scan"
if ! [ -x "$scan" ]; then
    echo "FAIL: html-scan not found on PATH nor at $scan (make bin/html-scan)"
    exit 1
fi

fail=0
start=$SECONDS
run() {
    local out rc
    out=$("$py" "$diff_py" "$@" --html-scan "$scan" --require-corpora 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -E '^(tokens|links|note|ERROR)'
    if [ $rc -ne 0 ]; then
        # Everything but the reviewed differences (html_diff.py prints those
        # in full with their reasons).
        echo "FAIL: html_diff.py $1 exited $rc:"
        printf '%s\n' "$out" | awk '/^[^ ]/ { show = ($1 != "REVIEWED" && $1 != "tokens:" && $1 != "links:") } show' |
            head -80
        fail=1
    fi
}
run tokens --random 300 --seed 1 --sample 40
run links --sample 40
echo "html differential: $((SECONDS - start)) s"
[ $fail -eq 0 ] && echo "OK: html-scan agrees with html5lib (but for the reviewed differences)"
exit $fail
