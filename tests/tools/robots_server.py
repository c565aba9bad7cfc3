#!/usr/bin/env python3
"""robots.txt edge cases over HTTP for tests (127.0.0.1 only).

Usage: robots_server.py DIR -- starts one listener per mode below, each on a
port the OS picks, writes the port of mode M to DIR/port_M and serves until
killed (or for 10 minutes at most, so a forgotten server never lingers).
Every mode answers /robots.txt as described and any other path with a small
HTML page.

Modes (what /robots.txt is):
  huge      60 MB robots.txt with Content-Length (see huge_body below)
  chunked   the same 60 MB, chunked (no Content-Length)
  loop      302 to /robots.txt itself (a redirect loop)
  chain5    5 redirects, alternating between this port and the "final"
            listener (another authority), ending at final's /robots.txt
  chain6    the same with 6 redirects (one more than RFC 9309 asks to follow)
  ftp       301 to ftp://127.0.0.1:1/robots.txt (a scheme fetch cannot follow)
  file      301 to file:///etc/passwd
  final     a small robots.txt: "User-agent: *" / "Disallow: /private"

huge_body: "User-agent: *", "Disallow: /private", then "Disallow: /fNNNNNN"
filler lines up to the 512,000th byte, where a line "Disallow: /p..." is cut
in the middle (a fetch that keeps 512,000 bytes gets "Disallow: /p"), then
"Disallow: /late" and filler up to 60,000,000 bytes. A reader of the first
512,000 bytes that drops the cut line blocks /private and /f000001, allows
/page.html and /late.html.
"""
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CAP = 512000
HUGE = 60_000_000


def huge_head():
    """The first bytes of huge_body up to a little past CAP."""
    out = bytearray(b"User-agent: *\nDisallow: /private\n")
    i = 0
    while True:
        line = b"Disallow: /f%06d\n" % i
        if len(out) + len(line) > CAP - 8:
            break
        out += line
        i += 1
    # A line across the cut: its first 12 bytes ("Disallow: /p") end at CAP.
    out += b" " * (CAP - 12 - len(out))
    out += b"Disallow: /page-cut-here/deeper\nDisallow: /late\n"
    return bytes(out)


HEAD = huge_head()
assert HEAD[CAP - 12:CAP] == b"Disallow: /p", HEAD[CAP - 20:CAP + 4]
FILLER = b"# " + b"x" * 61 + b"\n"  # 64 bytes


def huge_chunks():
    yield HEAD
    left = HUGE - len(HEAD)
    block = FILLER * 4096
    while left > 0:
        part = block[:left]
        yield part
        left -= len(part)


PORTS = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = ""

    def log_message(self, fmt, *args):
        pass

    def send_simple(self, code, body=b"", ctype="text/plain", headers=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def redirect(self, code, location):
        self.send_simple(code, b"moved", headers=[("Location", location)])

    def chain(self, total):
        # /robots.txt -> /r/T/1 on final's port -> /r/T/2 here -> ... -> final's /robots.txt
        # (T = total redirects; the odd steps are served by the other authority).
        parts = self.path.split("?")[0].split("/")
        step = int(parts[3]) if len(parts) == 4 else 0
        if step + 1 >= total:
            return self.redirect(302, f"http://127.0.0.1:{PORTS['final']}/robots.txt")
        home = PORTS["chain%d" % total]
        port = PORTS["final"] if step % 2 == 0 else home
        return self.redirect(302, f"http://127.0.0.1:{port}/r/{total}/{step + 1}")

    def do_GET(self):
        path = self.path.split("?")[0]
        m = self.mode
        if path == "/robots.txt" or path.startswith("/r/"):
            if m in ("huge", "chunked"):
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                if m == "huge":
                    self.send_header("Content-Length", str(HUGE))
                else:
                    self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                try:
                    for part in huge_chunks():
                        if m == "huge":
                            self.wfile.write(part)
                        else:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                    if m == "chunked":
                        self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True
                return
            if m == "loop":
                return self.redirect(302, "/robots.txt")
            if m in ("chain5", "chain6"):
                return self.chain(int(m[-1]))
            if path.startswith("/r/"):
                return self.chain(int(path.split("/")[2]))
            if m == "ftp":
                return self.redirect(301, "ftp://127.0.0.1:1/robots.txt")
            if m == "file":
                return self.redirect(301, "file:///etc/passwd")
            if m == "final":
                return self.send_simple(200, b"User-agent: *\nDisallow: /private\n")
        self.send_simple(200, b"<html><body>page</body></html>", "text/html")

    do_HEAD = do_GET


def main():
    out = sys.argv[1]
    servers = {}
    for mode in ("huge", "chunked", "loop", "chain5", "chain6", "ftp", "file", "final"):
        handler = type(f"Handler_{mode}", (Handler,), {"mode": mode})
        srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        srv.daemon_threads = True
        servers[mode] = srv
        PORTS[mode] = srv.server_address[1]
    for mode, srv in servers.items():
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    for mode, port in PORTS.items():
        tmp = os.path.join(out, f".port_{mode}")
        with open(tmp, "w") as f:
            f.write(str(port))
        os.rename(tmp, os.path.join(out, f"port_{mode}"))
    time.sleep(600)


if __name__ == "__main__":
    main()
