# Sourced by tests/e2e/test_fetch*.sh: starts tests/server/serve.py on a free
# 127.0.0.1 port (killed on exit) and sets PORT and BASE.
set -euo pipefail
: "${ROOT:?ROOT must point at the repository}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
source "$ROOT/tests/tools/wait_port.bash"
start_server() {
    rm -f port.txt
    python3 "$ROOT/tests/server/serve.py" port.txt >/dev/null 2>server.log &
    SERVER_PID=$!
    trap 'kill $SERVER_PID 2>/dev/null || true' EXIT
    wait_for_port port.txt "$SERVER_PID" "test server" server.log
    PORT=$(cat port.txt)
    BASE="http://127.0.0.1:$PORT"
}
# A port on 127.0.0.1 with nothing listening (bound, then released).
closed_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# start_site DIR: tests/server/site.py serving DIR/files on 127.0.0.1 (killed
# on exit; requests logged to DIR/requests); sets SITE_PORT.
start_site() {
    mkdir -p "$1/files"
    touch "$1/requests"
    python3 "$ROOT/tests/server/site.py" "$1" > /dev/null 2> "$1/server.log" &
    SITE_PIDS+=($!)
    trap 'kill "${SITE_PIDS[@]}" 2>/dev/null || true' EXIT
    wait_for_port "$1/port" "${SITE_PIDS[-1]}" "site $1" "$1/server.log"
    SITE_PORT=$(cat "$1/port")
}
SITE_PIDS=()
