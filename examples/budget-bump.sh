#!/usr/bin/env bash
# Mid-crawl budget scripting with jq: every queue that has spent its total
# budget (and so was retired) gets EXTRA more, while the crawl runs.
#
#   examples/budget-bump.sh crawl.db [EXTRA]
#   watch -n 60 examples/budget-bump.sh crawl.db 500      # keep doing it
#
# EXTRA  URLs more per retired queue (default 500)
#
# The edit is the README's pipeline:
#   frontier-report --queues --json --state retired
#     | jq -c '{queue, total_budget: (.total_spend + EXTRA)}'
#     | frontier-budget --apply
# A running `frontier-lease --follow` sees the new budgets at its next
# decision (no restart); a crawl that paused at finish (frontier-lease exit
# 4) continues when it is started again. Queues retired by hand
# (frontier-budget --retire) stay retired. Prints frontier-budget's records
# (one per queue, "status":"applied") on stdout and a summary on stderr.
# DRY_RUN=1 prints the edits instead of applying them. Needs jq.
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,/^set /p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }
command -v frontier-report >/dev/null || PATH="$(cd "$(dirname "$0")/.." && pwd)/bin:$PATH"
command -v jq >/dev/null || { echo "budget-bump: needs jq (apt-get install jq)" >&2; exit 1; }
F=$1 EXTRA=${2:-500}
[[ $EXTRA =~ ^[0-9]+$ ]] || { echo "budget-bump: EXTRA must be a whole number, not '$EXTRA'" >&2; exit 2; }

edits=$(frontier-report -f "$F" --queues --json --state retired |
    jq -c --argjson extra "$EXTRA" '{queue, total_budget: (.total_spend + $extra)}')
n=$(printf '%s' "$edits" | grep -c . || true)
if [ "$n" -eq 0 ]; then
    echo "budget-bump: no retired queue" >&2
    exit 0
fi
if [ -n "${DRY_RUN:-}" ]; then
    printf '%s\n' "$edits"
    echo "budget-bump: would raise $n queue(s) by $EXTRA" >&2
    exit 0
fi
printf '%s\n' "$edits" | frontier-budget -f "$F" --apply
echo "budget-bump: raised the total budget of $n queue(s) to their spend + $EXTRA" >&2
