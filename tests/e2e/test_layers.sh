# The lib/ layout (README, Layout): every include names its folder, and a
# folder includes only itself and the folders before it in the layer order
# core, json, web, net, policy, report, store, frontier, fetch.
set -u
: "${ROOT:?ROOT must be the repository root}"
python3 "$ROOT/tests/tools/check_layers.py" "$ROOT" || exit 1
# The check itself fails on an upward include.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib/core" "$tmp/lib/store"
printf '#include "store/x.hpp"\n' >"$tmp/lib/core/a.cpp"
printf '#include "core/a.hpp"\n' >"$tmp/lib/store/x.hpp"
if python3 "$ROOT/tests/tools/check_layers.py" "$tmp" >"$tmp/out"; then
    echo "check_layers accepted core -> store"; exit 1
fi
grep -q 'lib/core/ includes lib/store/' "$tmp/out" || { cat "$tmp/out"; exit 1; }
# A store-private header included from a later layer or a tool is refused.
rm -f "$tmp/lib/core/a.cpp"
mkdir -p "$tmp/lib/frontier" "$tmp/tools"
printf '#include "store/statements.hpp"\n' >"$tmp/lib/frontier/b.cpp"
printf '#include "store/url_rows.hpp"\n' >"$tmp/tools/frontier-x.cpp"
if python3 "$ROOT/tests/tools/check_layers.py" "$tmp" >"$tmp/out"; then
    echo "check_layers accepted store-private includes"; exit 1
fi
grep -q 'frontier/b.cpp:1: includes the storage internals "store/statements.hpp"' "$tmp/out" || { cat "$tmp/out"; exit 1; }
grep -q 'frontier-x.cpp:1: includes the storage internals "store/url_rows.hpp"' "$tmp/out" || { cat "$tmp/out"; exit 1; }
