# fetch's options users expect (fetch(1)): --header on every request;
# --cookie-jar read, shared by all transfers and written back; --proxy (a
# small forward proxy on 127.0.0.1 sees the requests; the address guard still
# refuses a literal address the record may not reach, before the proxy sees
# it); --cacert / $SSL_CERT_FILE for a server whose certificate is our own.
set -euo pipefail
: "${ROOT:?}"
source "$ROOT/tests/server/common.sh"
start_server
fail() { echo "FAIL: $*"; exit 1; }
pids=()
trap 'kill $SERVER_PID "${pids[@]}" 2>/dev/null || true' EXIT

# --header
echo "$BASE/headers" | fetch -q --body --header 'X-Crawl: test 1' --header 'Accept-Language: fr' > h.jsonl
jq -r .body h.jsonl | jq -e '."X-Crawl" == "test 1" and ."Accept-Language" == "fr"' > /dev/null ||
    fail "--header not sent: $(cat h.jsonl)"
fetch --header 'no colon' < /dev/null 2> /dev/null && fail "--header 'no colon' accepted"
echo "ok: --header"

# --cookie-jar: set by one response, sent by a later request of the same run,
# written to the jar, sent by the next run.
printf '%s\n' "$BASE/set-cookie?v=abc" "$BASE/headers" | fetch -q -c 1 --body --cookie-jar jar.txt > c.jsonl
jq -r 'select(.url | endswith("/headers")) | .body' c.jsonl | jq -e '.Cookie == "session=abc"' > /dev/null ||
    fail "cookie not sent within the run: $(cat c.jsonl)"
grep -q 'session	abc' jar.txt || fail "jar not written: $(cat jar.txt 2>/dev/null)"
echo "$BASE/headers" | fetch -q --body --cookie-jar jar.txt | jq -r .body | jq -e '.Cookie == "session=abc"' > /dev/null ||
    fail "the jar was not read by the next run"
echo "ok: --cookie-jar"

# --proxy: a forward proxy that logs the absolute URLs it is asked for.
python3 - > /dev/null 2> proxy.log <<'PY' &
import http.server, urllib.request, os
class P(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open("proxied", "a") as f: f.write(self.path + "\n")
        with urllib.request.urlopen(urllib.request.Request(self.path, headers={"X-Via": "proxy"})) as r:
            body = r.read()
            self.send_response(r.status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), P)
open("proxy.port.tmp", "w").write(str(s.server_address[1])); os.rename("proxy.port.tmp", "proxy.port")
s.serve_forever()
PY
pids+=($!)
wait_for_port proxy.port "${pids[-1]}" "the proxy" /dev/null
PP=$(cat proxy.port)
printf '%s\n' "$BASE/headers" "{\"url\":\"$BASE/private-target\",\"addresses\":\"public\"}" |
    fetch -q --body --proxy "http://127.0.0.1:$PP" > p.jsonl
[ "$(jq -r 'select(.url | endswith("/headers")) | .body' p.jsonl | jq -r '."X-Via"')" = proxy ] || fail "not through the proxy: $(cat p.jsonl)"
[ "$(jq -r 'select(.url | endswith("/private-target")) | .error_class' p.jsonl)" = blocked-address ] ||
    fail "the address guard let a literal loopback target through the proxy: $(cat p.jsonl)"
grep -q private-target proxied && fail "the proxy saw the refused request"
echo "ok: --proxy, with the address guard on literal targets"

# --cacert and $SSL_CERT_FILE: an HTTPS server with a certificate of our own.
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 > /dev/null 2>&1 || fail "openssl could not make a certificate"
python3 - > /dev/null 2> tls.log <<'PY' &
import http.server, ssl, os
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain("cert.pem", "key.pem")
s.socket = ctx.wrap_socket(s.socket, server_side=True)
open("tls.port.tmp", "w").write(str(s.server_address[1])); os.rename("tls.port.tmp", "tls.port")
s.serve_forever()
PY
pids+=($!)
wait_for_port tls.port "${pids[-1]}" "the TLS server" /dev/null
TP=$(cat tls.port)
echo "https://127.0.0.1:$TP/" | SSL_CERT_FILE= fetch -q > t0.jsonl
[ "$(jq -r .error_class t0.jsonl)" = tls ] || fail "an unknown certificate was accepted: $(cat t0.jsonl)"
echo "https://127.0.0.1:$TP/" | fetch -q --cacert cert.pem > t1.jsonl
[ "$(jq -r .status t1.jsonl)" = 200 ] || fail "--cacert: $(cat t1.jsonl)"
echo "https://127.0.0.1:$TP/" | SSL_CERT_FILE=$PWD/cert.pem fetch -q > t2.jsonl
[ "$(jq -r .status t2.jsonl)" = 200 ] || fail "SSL_CERT_FILE: $(cat t2.jsonl)"
echo "ok: --cacert, SSL_CERT_FILE"
