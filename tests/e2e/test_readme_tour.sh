# The README's five-minute tour is real output: every command in it is run
# and its output compared with the README's text (tests/tools/readme_tour.py).
set -euo pipefail
: "${ROOT:?}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
unset FRONTIER FRONTIER_NOW
python3 "$ROOT/tests/tools/readme_tour.py" "$ROOT/README.md" "$PWD"
