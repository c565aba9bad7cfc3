# Man pages: for every tool (tools/NAME.cpp) that has man/NAME.1, every long
# option printed by `bin/NAME --help` appears in the page, and the page has
# the house sections; every page renders with `man -l` without warnings (when
# man is installed); the settings table of frontier(7) lists exactly the keys
# and defaults that `frontier-config` prints.
set -u
: "${ROOT:?ROOT must be the repository root}"
fail=0
problem() { echo "$*"; fail=1; }

# A page's text with roff escapes for hyphens, fonts and break points removed,
# so that "\-\-per\-queue" and "\fB\-\-ttl\fR" read as --per-queue and --ttl.
plain() {
    sed -e 's/\\-/-/g' -e 's/\\(hy/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' \
        -e 's/\\%//g' -e 's/\\://g' -e 's/\\&//g' "$1"
}

pages=0
for src in "$ROOT"/tools/*.cpp; do
    name=$(basename "$src" .cpp)
    page="$ROOT/man/$name.1"
    [ -f "$page" ] || continue
    pages=$((pages + 1))
    bin="$ROOT/${FRONTIER_BIN:-bin}/$name"
    if [ ! -x "$bin" ]; then
        problem "$name: man/$name.1 exists but bin/$name is not built"
        continue
    fi
    help=$("$bin" --help 2>&1) || { problem "$name: --help failed"; continue; }
    text=$(plain "$page")
    opts=$(printf '%s\n' "$help" | grep -oE -- '--[A-Za-z0-9][A-Za-z0-9.-]*' | sed 's/[.-]*$//' | sort -u)
    [ -n "$opts" ] || problem "$name: no long options found in --help"
    for opt in $opts; do
        re=$(printf '%s' "$opt" | sed 's/[.]/\\./g')
        printf '%s\n' "$text" | grep -qE -- "${re}([^A-Za-z0-9-]|\$)" ||
            problem "man/$name.1: option $opt (from $name --help) is not documented"
    done
    for sec in NAME SYNOPSIS DESCRIPTION OPTIONS INPUT OUTPUT "EXIT STATUS" ENVIRONMENT EXAMPLES "SEE ALSO"; do
        grep -qE "^\.SH \"?$sec\"?\$" "$page" || problem "man/$name.1: missing section $sec"
    done
done
[ "$pages" -gt 0 ] || problem "no man/NAME.1 page for any tools/NAME.cpp"

# Rendering: no troff or man warnings, at 80 columns, in ASCII and UTF-8.
if command -v man >/dev/null 2>&1; then
    locales=C
    if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locales="C C.UTF-8"; fi
    for page in "$ROOT"/man/*.[1-8]; do
        [ -f "$page" ] || continue
        for loc in $locales; do
            warnings=$(LC_ALL=$loc LANG=$loc MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
            [ -z "$warnings" ] || problem "man/$(basename "$page") ($loc): $warnings"
        done
    done
else
    echo "man is not installed: rendering not checked"
fi

# frontier(7)'s settings table against the settings the tools know.
page7="$ROOT/man/frontier.7"
if [ ! -f "$page7" ]; then
    problem "man/frontier.7 is missing"
elif ! command -v python3 >/dev/null 2>&1; then
    echo "python3 is not installed: settings table not checked"
elif [ ! -x "$ROOT/${FRONTIER_BIN:-bin}/frontier-config" ]; then
    problem "bin/frontier-config is not built"
else
    db=$(mktemp -d)/settings.db
    "$ROOT/${FRONTIER_BIN:-bin}/frontier-config" -f "$db" lease.ttl 600 || problem "frontier-config could not create $db"
    json=$("$ROOT/${FRONTIER_BIN:-bin}/frontier-config" -f "$db")
    plain "$page7" > "$db.txt"
    out=$(python3 - "$db.txt" "$json" <<'EOF'
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read().replace("\\e", "\\")
settings = json.loads(sys.argv[2])
lines = text.split("\n")
try:
    start = next(i for i, l in enumerate(lines) if l.startswith(".SH SETTINGS"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(".SH "))
except StopIteration:
    print("frontier.7: no SETTINGS section"); sys.exit()
table = {}
for i in range(start, end - 1):
    if lines[i] == ".TP" and lines[i + 1].startswith(".B "):
        key = lines[i + 1][3:].strip()
        m = re.match(r"Default (.*?); ", lines[i + 2]) if i + 2 < end else None
        if not m:
            print("frontier.7: setting %s has no 'Default VALUE;' line" % key); continue
        table[key] = m.group(1)
for key, value in settings.items():
    if key == "domains":
        continue
    if key not in table:
        print("frontier.7: setting %s is not in the SETTINGS table" % key); continue
    try:
        documented = json.loads(table[key])
    except ValueError:
        print("frontier.7: default of %s is not JSON: %s" % (key, table[key])); continue
    if documented != value:
        print("frontier.7: default of %s is %s, frontier-config says %s" % (key, table[key], json.dumps(value)))
for key in table:
    if key not in settings:
        print("frontier.7: setting %s is documented but unknown to frontier-config" % key)
if list(table) != [k for k in settings if k != "domains"]:
    print("frontier.7: settings table is not in frontier-config's order")
EOF
)
    [ -z "$out" ] || problem "$out"
    rm -rf "$(dirname "$db")"
fi

[ "$fail" -eq 0 ] && echo "PASS man pages"
exit "$fail"
