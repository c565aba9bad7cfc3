# wait_for_port FILE PID WHAT LOG: until the server PID has written its
# port to FILE. Up to 30 s: on a loaded 2-core machine Python's start alone
# can take seconds; a server that died ends the wait at once. A server that
# did not start ends the test: "WHAT did not start", then LOG.
wait_for_port() {
    for _ in $(seq 600); do
        [ -s "$1" ] && return
        kill -0 "$2" 2>/dev/null || break
        sleep 0.05
    done
    [ -s "$1" ] && return
    echo "$3 did not start"
    cat "$4"
    exit 1
}
