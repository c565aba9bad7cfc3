# Sourced: a private network of "machines" for tests/pg/bench.sh's scaling
# rows, so that a server is a network hop away from its clients.
#   netns_up K     creates a server namespace and K machine namespaces,
#                  machine I joined to the server by its own veth pair on
#                  10.77.I.0/24 (server 10.77.I.1, machine 10.77.I.2);
#                  returns 1 with the reason in $netns_why when it cannot
#                  (not root, no `ip netns`)
#   netns_down     kills what still runs in them and deletes them (again:
#                  nothing); the veth pairs go with their namespaces
#   netns_server, netns_machine I: the names, for `ip netns exec`;
#   netns_addr I:  the server's address as machine I reaches it
# The names carry this shell's pid (fpg<PID>-s, fpg<PID>-m<I>), so runs side
# by side do not meet. Every interface and address lives inside those
# namespaces: none has a route out, and the root namespace's interfaces
# and routes are never touched.
netns_list=()
netns_server() { echo "fpg$$-s"; }
netns_machine() { echo "fpg$$-m$1"; }
netns_addr() { echo "10.77.$1.1"; }
netns_up() {
    local k=$1 i s m
    netns_why=
    if [ "$(id -u)" -ne 0 ]; then netns_why="not root"; return 1; fi
    s=$(netns_server)
    if ! netns_why=$(ip netns add "$s" 2>&1); then netns_why="ip netns add: $netns_why"; return 1; fi
    netns_list+=("$s")
    ip -n "$s" link set lo up || { netns_why="no loopback in a namespace"; return 1; }
    for i in $(seq "$k"); do
        m=$(netns_machine "$i")
        ip netns add "$m" || { netns_why="ip netns add $m failed"; return 1; }
        netns_list+=("$m")
        # Created inside the server's namespace: the names never reach the root's.
        if ! ip -n "$s" link add "m$i" type veth peer name eth0 netns "$m" ||
           ! ip -n "$s" addr add "10.77.$i.1/24" dev "m$i" || ! ip -n "$s" link set "m$i" up ||
           ! ip -n "$m" addr add "10.77.$i.2/24" dev eth0 || ! ip -n "$m" link set eth0 up ||
           ! ip -n "$m" link set lo up; then
            netns_why="veth pair to $m failed"; return 1
        fi
    done
    # A link comes up asynchronously: wait until the last machine's connect
    # to a closed port of the server is refused (it reached the server).
    for _ in $(seq 50); do
        ip netns exec "$(netns_machine "$k")" python3 -c 'import socket, sys
try: socket.create_connection((sys.argv[1], 9), timeout=0.5)
except ConnectionRefusedError: sys.exit(0)
except OSError: sys.exit(1)' "$(netns_addr "$k")" && return 0
        sleep 0.1
    done
    netns_why="machine $k cannot reach the server"
    return 1
}
netns_down() {
    local ns pids sig
    # TERM first; KILL what is left (a tool that lost its server may sit
    # out a reconnect window), and only then the namespace: a process
    # still in it would keep it, and its veth pairs, alive unnamed.
    for sig in TERM KILL; do
        for ns in "${netns_list[@]}"; do
            pids=$(ip netns pids "$ns" 2>/dev/null) || true
            # shellcheck disable=SC2086
            [ -z "$pids" ] || kill -$sig $pids 2>/dev/null || true
        done
        [ $sig = KILL ] || sleep 0.5
    done
    for ns in "${netns_list[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
    netns_list=()
}
