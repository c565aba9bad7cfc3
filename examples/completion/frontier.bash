# bash completion for the crawl-frontier toolkit: frontier-add, frontier-lease,
# frontier-done, frontier-config, frontier-budget, frontier-report, frontier-export,
# frontier-import, fetch and frontier-crawl.
#
#   source examples/completion/frontier.bash        # this shell
#   make install                                     # installs it for bash-completion
#
# Nothing here lists options by hand: each tool's own `--help` (CLI11's option
# list) is read once per shell and tool binary, so the completion follows the
# tools. Option values complete from the help text too: `a|b|c` choices,
# comma-separated lists, FILE/PREFIX arguments as file names, queue KEY
# arguments from `frontier-report --queues --json` of the frontier in use.
# frontier-config completes setting keys (and the words a choice or boolean
# takes) from `frontier-config --keys`, which needs no frontier file.
# Works with or without the bash-completion package.

declare -gA _frontier_help_cache=()
declare -gA _frontier_keys_cache=()
_frontier_opts="" _frontier_keys_json="" _frontier_found=""

# _frontier_path TOOL: sets _frontier_found to TOOL's path on PATH (through
# bash's command hash: no subshell), or fails.
_frontier_path() {
    _frontier_found=""
    hash -- "$1" 2>/dev/null && _frontier_found=${BASH_CMDS[$1]:-}
    [[ -n $_frontier_found ]] || _frontier_found=$(type -P -- "$1")  # hashing off (set +h)
    [[ -n $_frontier_found ]]
}

# _frontier_options TOOL: sets _frontier_opts to one line per option of
# TOOL's --help, "NAMES<US>ARG<US>DESCRIPTION" (US = \x1f, which read never
# merges as it does tabs; NAMES like "-f,--frontier"; ARG empty for flags),
# plus "@positional<US>ARG<US>DESCRIPTION" for positional arguments. Runs in
# the completing shell (not in $(...)), so the cache lasts.
_frontier_options() {
    local tool=$1 path
    _frontier_opts=""
    _frontier_path "$tool" || return 1
    path=$_frontier_found
    if [[ -z ${_frontier_help_cache[$path]+set} ]]; then
        local line section="" re='^  (-[^ ]+|[a-z][a-z0-9_-]*)( ([A-Z][A-Z:_]*)( \.\.\.)?)?( +(.*))?$' parsed=""
        while IFS= read -r line; do
            case $line in
                Positionals:*) section=pos; continue ;;
                Options:*) section=opt; continue ;;
                "") [[ -n $section ]] && section=end; continue ;;
            esac
            [[ $section == pos || $section == opt ]] || continue
            [[ $line =~ $re ]] || continue
            local names=${BASH_REMATCH[1]} arg=${BASH_REMATCH[3]} desc=${BASH_REMATCH[6]}
            [[ $section == pos ]] && names="@positional"
            parsed+="$names"$'\x1f'"$arg"$'\x1f'"$desc"$'\n'
        done < <(LC_ALL=C "$path" --help 2>/dev/null)
        _frontier_help_cache[$path]=$parsed
    fi
    _frontier_opts=${_frontier_help_cache[$path]}
}

# _frontier_load_keys: sets _frontier_keys_json to `frontier-config --keys`
# (cached like the options).
_frontier_load_keys() {
    local path
    _frontier_keys_json=""
    _frontier_path frontier-config || return 1
    path=$_frontier_found
    if [[ -z ${_frontier_keys_cache[$path]+set} ]]; then
        _frontier_keys_cache[$path]=$("$path" --keys 2>/dev/null)
    fi
    _frontier_keys_json=${_frontier_keys_cache[$path]}
}

# _frontier_keys [--per-domain]: the setting keys (after _frontier_load_keys).
_frontier_keys() {
    local line
    while IFS= read -r line; do
        [[ ${1:-} == --per-domain && $line != *'"per_domain":true'* ]] && continue
        [[ $line =~ ^\{\"key\":\"([^\"]+)\" ]] && printf '%s\n' "${BASH_REMATCH[1]}"
    done <<<"$_frontier_keys_json"
}

# _frontier_key_values KEY: the words a choice or boolean setting takes.
_frontier_key_values() {
    local line
    while IFS= read -r line; do
        [[ $line == "{\"key\":\"$1\","* ]] || continue
        if [[ $line == *'"type":"boolean"'* ]]; then
            printf '%s\n' true false on off
        elif [[ $line =~ \"choices\":\[([^]]*)\] ]]; then
            local c=${BASH_REMATCH[1]//\"/}
            printf '%s\n' ${c//,/ }
        fi
    done <<<"$_frontier_keys_json"
}

# _frontier_queues FILE [STATE]: queue keys of the frontier FILE, if it exists.
_frontier_queues() {
    [[ -f $1 ]] || return 0
    local line state=()
    [[ -n ${2:-} ]] && state=(--state "$2")
    while IFS= read -r line; do
        [[ $line =~ ^\{\"queue\":\"([^\"]+)\" ]] && printf '%s\n' "${BASH_REMATCH[1]}"
    done < <(frontier-report -f "$1" --queues --json "${state[@]}" 2>/dev/null)
}

# Sets COMPREPLY to the lines of $1 that start with $2 (no shell expansion).
_frontier_reply() {
    local line
    COMPREPLY=()
    while IFS= read -r line; do
        [[ -n $line && $line == "$2"* ]] && COMPREPLY+=("$line")
    done <<<"$1"
}

# Sets COMPREPLY to the file names that start with $1.
_frontier_files() {
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -- "$1"))
}

_frontier() {
    local tool=${COMP_WORDS[0]##*/}
    # Rejoin the words bash split at ':' and '=' (queue keys such as
    # 127.0.0.1:8080, --opt=value), so `words` holds what the tool will see.
    local words=() i cword=0 joined=0
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        local w=${COMP_WORDS[i]}
        if ((i > 0)) && { [[ $w == ":" ]] || ((joined)); } && [[ ${#words[@]} -gt 1 ]]; then
            words[${#words[@]} - 1]+=$w
            joined=0
            [[ $w == ":" ]] && joined=1
        else
            words+=("$w")
            joined=0
        fi
        ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
    done
    local cur=${words[cword]} prev=""
    ((cword > 0)) && prev=${words[cword - 1]}
    # --opt=value: complete the value of --opt.
    local eq_prefix=""
    if [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        eq_prefix=${cur%%=*}=
        cur=${cur#*=}
    elif [[ $prev == "=" && $cword -ge 2 ]]; then
        prev=${words[cword - 2]}
    elif [[ $cur == "=" && $prev == --* ]]; then
        cur=""
    fi

    _frontier_options "$tool" || return 0
    local opts=$_frontier_opts

    # The option named $1: sets spec_arg (empty for a flag) and spec_desc.
    local spec_arg="" spec_desc=""
    _frontier_find_option() {
        local n a d
        spec_arg="" spec_desc=""
        while IFS=$'\x1f' read -r n a d; do
            [[ $n == @positional ]] && continue
            [[ ",$n," == *",$1,"* ]] && { spec_arg=$a spec_desc=$d; return 0; }
        done <<<"$opts"
        return 1
    }

    # The frontier file the command line names (for queue keys).
    local frontier=${FRONTIER:-./frontier.db}
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -f | --frontier) frontier=${words[i + 1]} ;;
            --frontier=*) frontier=${words[i]#--frontier=} ;;
        esac
    done
    [[ $frontier == "~/"* ]] && frontier=$HOME/${frontier#"~/"}

    COMPREPLY=()
    if [[ $prev == -* ]] && _frontier_find_option "$prev" && [[ -n $spec_arg ]]; then
        # The value of an option.
        local arg=$spec_arg desc=$spec_desc nl=$'\n'
        local choices_re='(^|[ (])([a-z][a-z-]*(\|[a-z][a-z-]*)+)' list_re='comma-separated: ([^)]*)'
        if [[ $arg != TEXT ]]; then
            :  # a number: nothing to offer
        elif [[ $desc =~ $choices_re ]]; then
            _frontier_reply "${BASH_REMATCH[2]//|/$nl}" "$cur"
        elif [[ $desc =~ $list_re ]]; then
            local list=${BASH_REMATCH[1]//, /$nl} head=""
            [[ $cur == *,* ]] && head=${cur%,*},
            _frontier_reply "$list" "${cur##*,}"
            COMPREPLY=("${COMPREPLY[@]/#/$head}")
            compopt -o nospace 2>/dev/null
        elif [[ $desc == *"retired queue KEY"* ]]; then
            _frontier_reply "$(_frontier_queues "$frontier" retired)" "$cur"
        elif [[ $desc == *"queue KEY"* ]]; then
            _frontier_reply "$(_frontier_queues "$frontier")" "$cur"
        elif [[ $desc == *file* || $desc == *FILE* || $desc == *PREFIX* ]]; then
            _frontier_files "$cur"
        fi
        # Free text: nothing to offer.
    elif [[ $cur == -* ]]; then
        local n a d names=""
        while IFS=$'\x1f' read -r n a d; do
            [[ $n == @positional || -z $n ]] && continue
            names+="${n//,/$'\n'}"$'\n'
        done <<<"$opts"
        _frontier_reply "$names" "$cur"
    else
        # A positional argument: count the ones before it.
        local npos=0
        for ((i = 1; i < cword; i++)); do
            local w=${words[i]}
            if [[ $w == "=" ]]; then
                continue
            elif [[ $w == -?* ]]; then
                [[ $w == *=* ]] && continue
                _frontier_find_option "$w" && [[ -n $spec_arg ]] && ((i++))
            elif [[ ${words[i - 1]} != "=" ]]; then
                ((npos++))
            fi
        done
        if [[ $tool == frontier-config ]]; then
            _frontier_load_keys
            local per_domain=""
            [[ " ${words[*]} " == *" --domain "* || " ${words[*]} " == *" --domain="* ]] && per_domain=--per-domain
            if ((npos == 0)); then
                _frontier_reply "$(_frontier_keys $per_domain)" "$cur"
            elif ((npos == 1)); then
                local key=""
                for ((i = cword - 1; i > 0; i--)); do
                    [[ ${words[i]} != -* && ${words[i - 1]} != -f && ${words[i - 1]} != --frontier &&
                        ${words[i - 1]} != --domain ]] && { key=${words[i]}; break; }
                done
                _frontier_reply "$(_frontier_key_values "$key")" "$cur"
            fi
        elif [[ $opts == *"@positional"* ]]; then
            _frontier_files "$cur"
        fi
    fi
    unset -f _frontier_find_option
    # bash splits words at ':' itself: give back only the part after the last
    # ':' of the current word, as bash-completion's __ltrim_colon_completions does.
    if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
        local colon=${cur%"${cur##*:}"}
        COMPREPLY=("${COMPREPLY[@]#"$colon"}")
    fi
    [[ -n $eq_prefix && ${COMP_WORDS[COMP_CWORD]} == --*=* ]] && COMPREPLY=("${COMPREPLY[@]/#/$eq_prefix}")
    return 0
}

complete -F _frontier frontier-add frontier-lease frontier-done frontier-config frontier-budget frontier-report frontier-export frontier-import fetch frontier-crawl
