# Bash completion (examples/completion/frontier.bash): sourced in bash, the
# completion function is called with simulated COMP_WORDS/COMP_CWORD and the
# candidates are compared with what the tools themselves say: every long and
# short option of each tool's --help, the setting keys of frontier-config
# (the keys of the JSON it prints), choice values, files, queue keys.
set -u
: "${ROOT:?}"
source "$ROOT/examples/completion/frontier.bash"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# comp WORD... : calls the completion for the last WORD, in this shell (as
# bash does, so its caches last); GOT = the candidates, one per line, sorted.
comp() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _frontier
    GOT=""
    [ ${#COMPREPLY[@]} -gt 0 ] && GOT=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort -u)
    return 0
}
# expect "WANT (lines)" WORD... : the candidates must be exactly WANT.
expect() {
    local want=$1; shift
    comp "$@"
    local got=$GOT
    [ "$got" = "$(printf '%s' "$want" | LC_ALL=C sort -u)" ] ||
        bad "complete '$*': got [$(echo $got)], want [$(echo $want)]"
}
lines() { printf '%s\n' "$@"; }

TOOLS="frontier-add frontier-lease frontier-done frontier-config frontier-budget frontier-report frontier-export frontier-import fetch frontier-crawl"
for t in $TOOLS; do
    [[ $(complete -p "$t" 2>/dev/null) == *"-F _frontier "* ]] || bad "no completion registered for $t"
    # Every option name of the Options: section, long and short, as --help prints them.
    names=() long=() in_options=0
    while IFS= read -r line; do
        [[ $line == Options:* ]] && { in_options=1; continue; }
        [[ -z $line ]] && in_options=0
        ((in_options)) && [[ $line =~ ^\ \ (-[^ ]*) ]] || continue
        IFS=, read -ra n <<<"${BASH_REMATCH[1]}"
        names+=("${n[@]}")
    done < <("$t" --help)
    for n in "${names[@]}"; do [[ $n == --* ]] && long+=("$n"); done
    [ ${#long[@]} -ge 5 ] || bad "$t: too few long options in --help to compare"
    [[ " ${names[*]} " == *" -h "* ]] || bad "$t: -h not among its short options"
    expect "$(lines "${long[@]}")" "$t" --
    expect "$(lines "${names[@]}")" "$t" -
done
expect "$(lines --follow --forever)" frontier-lease --fo
expect "$(lines --concurrency --connect-timeout --conn-retry --cookie-jar)" fetch --co
expect "$(lines -n)" frontier-lease -n
# Options after other words, and after an option's value.
expect "$(lines --follow --forever)" frontier-lease -f x.db -n 5 --fo

# frontier-config: setting keys, exactly the keys of the settings JSON.
db=$PWD/cfg.db
frontier-config -f "$db" lease.ttl 600
keys=$(frontier-config -f "$db" | python3 -c 'import json,sys; print("\n".join(k for k in json.load(sys.stdin) if k != "domains"))')
[ "$(wc -l <<<"$keys")" -ge 30 ] || bad "frontier-config printed too few settings"
expect "$keys" frontier-config ""
expect "$keys" frontier-config -f "$db" ""
expect "$(grep '^politeness\.' <<<"$keys")" frontier-config politeness.
expect "$(grep -E '^(politeness|robots)\.|^budget\.(replenish|total)$' <<<"$keys")" frontier-config --domain example.org ""
expect "$(lines host domain)" frontier-config queue.key ""
expect "$(lines host domain)" frontier-config -f "$db" queue.key ""
expect "$(lines true false on off)" frontier-config robots.enabled ""
expect "$(lines priority fifo)" frontier-config --domain=x priority.mode ""
expect "" frontier-config politeness.min-delay ""
expect "" frontier-config queue.key domain ""

# Choices and lists from the options' help texts.
expect "$(lines zero unit wag anticalendar rules)" frontier-budget --cost-policy ""
expect "$(lines on off)" frontier-budget --hold-queues o
expect "$(lines acquisition)" frontier-lease --class a
expect "$(lines retired)" frontier-report --queues --state ret
expect "$(lines active,in-process active,inactive)" frontier-report --state active,in
expect "" frontier-lease -n ""
expect "" fetch --timeout ""

# File names: -f, --html, --warc, positional inputs; --opt=value split by bash at '='.
touch crawl.db seeds.txt
expect "crawl.db" frontier-add -f cr
expect "crawl.db" frontier-report --frontier = cr
expect "seeds.txt" frontier-add -q se
expect "seeds.txt" fetch --links se
expect "$(lines crawl.db)" frontier-report --html cra

# Queue keys from the frontier the command line names (or $FRONTIER).
q=$PWD/q.db
printf '%s\n' http://a.example/ http://b.example/ http://127.0.0.1:8080/ | frontier-add -q -f "$q"
frontier-budget -f "$q" --retire b.example
expect "$(lines 127.0.0.1:8080 a.example b.example)" frontier-budget -f "$q" --queue ""
expect "$(lines a.example)" frontier-budget -f "$q" --queue a
expect "$(lines b.example)" frontier-budget -f "$q" --unretire ""
FRONTIER=$q expect "$(lines 127.0.0.1:8080 a.example b.example)" frontier-budget --retire ""
# bash splits 127.0.0.1:80 at ':'; the candidate is the part after the colon.
expect "8080" frontier-budget -f "$q" --queue 127.0.0.1 : 80
expect "$(lines 127.0.0.1:8080)" frontier-budget -f "$q" --queue 127
expect "" frontier-budget -f "$PWD/missing.db" --queue ""

# A tool that is not on PATH: no candidates, no error.
out=$(PATH=/nonexistent; comp frontier-add -- 2>&1; echo "$GOT")
[ -z "$out" ] || bad "completion with the tools missing printed: $out"
# Options are read from --help once per shell and tool.
ntools=$(wc -w <<<"$TOOLS")
[ "${#_frontier_help_cache[@]}" -eq "$ntools" ] || bad "help cache holds ${#_frontier_help_cache[@]} tools, want $ntools"

[ $fails -eq 0 ] && echo "PASS completion"
exit $((fails > 0))
