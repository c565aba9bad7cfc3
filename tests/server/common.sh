# Sourced by tests/e2e/test_fetch*.sh: starts tests/server/serve.py on a free
# 127.0.0.1 port (killed on exit) and sets PORT and BASE.
set -euo pipefail
: "${ROOT:?ROOT must point at the repository}"
export PATH="$ROOT/${FRONTIER_BIN:-bin}:$PATH"
start_server() {
    rm -f port.txt
    python3 "$ROOT/tests/server/serve.py" port.txt >/dev/null 2>server.log &
    SERVER_PID=$!
    trap 'kill $SERVER_PID 2>/dev/null || true' EXIT
    for _ in $(seq 100); do
        [ -s port.txt ] && break
        sleep 0.05
    done
    [ -s port.txt ] || { echo "test server did not start"; cat server.log; exit 1; }
    PORT=$(cat port.txt)
    BASE="http://127.0.0.1:$PORT"
}
# A port on 127.0.0.1 with nothing listening (bound, then released).
closed_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
