#!/usr/bin/env python3
"""Test HTTP server for fetch's end-to-end tests (127.0.0.1 only).

Usage: serve.py PORTFILE   -- binds 127.0.0.1 on a port the OS picks, writes
the port to PORTFILE (and stdout) and serves until killed.

Endpoints:
  /status/N                 status N, body "status N"
  /delay/S                  sleeps S seconds, then 200
  /redirect?to=PATH&code=C  redirect (default 301) to PATH
  /chain/N                  N redirects ending at /robots.txt
  /big?size=N               N bytes of 'x' (Content-Length sent)
  /bigchunked?size=N        N bytes, chunked (no Content-Length)
  /slow?chunks=N&delay=S    N chunks, S seconds apart
  /gzip                     gzip-encoded HTML (Content-Encoding: gzip)
  /etag                     ETag "v1" + Last-Modified; 304 on If-None-Match "v1"
                            or If-Modified-Since not older than Last-Modified
  /retry-after?v=V&code=C   status C (default 429) with Retry-After: V
  /retry-after-date?s=S     503 with Retry-After: an HTTP date S seconds ahead
  /ok-then-429/NAME         200 with a page the first time NAME is asked for,
                            then 429 without Retry-After (a revisit rate-limited)
  /close                    promises 1000 bytes, sends 10, closes
  /headers                  the request headers as JSON
  /set-cookie?v=V           Set-Cookie: session=V (Path=/)
  /robots.txt               a small robots.txt
  /page.html                HTML with a, link, area, frame, nofollow and <base>
  /twice.html               links to two URLs both nofollow and followed, in
                            either order
  /sitemap.xml              a sitemap with two <url> entries
  anything else             a small HTML page
"""
import email.utils
import gzip
import json
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ASKED = set()  # paths of /ok-then-429/ asked for already
LAST_MODIFIED = 1700000000  # Tue, 14 Nov 2023 22:13:20 GMT

PAGE = b"""<!DOCTYPE html><html><head><title>t</title>
<base href="/dir/"><link rel="stylesheet" href="style.css"></head><body>
<a href="a.html">A</a> <a href="/abs.html" rel="nofollow">B</a>
<a href="http://other.example/x">C</a> <a href="mailto:x@y">M</a>
<map><area href="area.html"></map><frameset><frame src="frame.html"></frameset>
</body></html>
"""

SITEMAP = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://127.0.0.1/s1.html</loc><lastmod>2024-01-02T00:00:00Z</lastmod></url>
<url><loc>http://127.0.0.1/s2.html</loc></url>
</urlset>
"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send(self, code, body=b"", ctype="text/html", headers=()):
        self.send_response(code)
        if code not in (204, 304):
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if code not in (204, 304) and self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        u = urllib.parse.urlsplit(self.path)
        q = dict(urllib.parse.parse_qsl(u.query))
        p = u.path
        if p.startswith("/ok-then-429/"):
            seen = p in ASKED
            ASKED.add(p)
            if seen:
                return self.send(429, b"too many requests", "text/plain")
            return self.send(200, b"<html><body>first visit of " + p.encode() + b"</body></html>")
        if p.startswith("/status/"):
            code = int(p.split("/")[2])
            return self.send(code, b"status %d" % code, "text/plain")
        if p.startswith("/delay/"):
            time.sleep(float(p.split("/")[2]))
            return self.send(200, b"late")
        if p == "/redirect":
            return self.send(int(q.get("code", 301)), b"moved", headers=[("Location", q.get("to", "/"))])
        if p.startswith("/chain/"):
            n = int(p.split("/")[2])
            to = "/chain/%d" % (n - 1) if n > 1 else "/robots.txt"
            return self.send(302, b"moved", headers=[("Location", to)])
        if p == "/big":
            n = int(q.get("size", 1000))
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(n))
            self.end_headers()
            chunk = b"x" * 65536
            while n > 0:
                k = min(n, len(chunk))
                try:
                    self.wfile.write(chunk[:k])
                except OSError:
                    return
                n -= k
            return
        if p == "/bigchunked":
            n = int(q.get("size", 1000))
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                while n > 0:
                    k = min(n, 65536)
                    self.wfile.write(b"%x\r\n" % k + b"y" * k + b"\r\n")
                    n -= k
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            return
        if p == "/slow":
            chunks, delay = int(q.get("chunks", 5)), float(q.get("delay", 1))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(chunks))
            self.end_headers()
            try:
                for _ in range(chunks):
                    self.wfile.write(b"s")
                    self.wfile.flush()
                    time.sleep(delay)
            except OSError:
                pass
            return
        if p == "/gzip":
            body = gzip.compress(PAGE)
            return self.send(200, body, headers=[("Content-Encoding", "gzip")])
        if p == "/etag":
            lm = email.utils.formatdate(LAST_MODIFIED, usegmt=True)
            hdrs = [("ETag", '"v1"'), ("Last-Modified", lm)]
            inm = self.headers.get("If-None-Match")
            ims = self.headers.get("If-Modified-Since")
            if inm == '"v1"' or (ims and email.utils.parsedate_to_datetime(ims).timestamp() >= LAST_MODIFIED):
                return self.send(304, headers=hdrs)
            return self.send(200, b"etag body", "text/plain", headers=hdrs)
        if p == "/retry-after":
            return self.send(int(q.get("code", 429)), b"slow down", "text/plain",
                             headers=[("Retry-After", q.get("v", "120"))])
        if p == "/retry-after-date":
            when = email.utils.formatdate(time.time() + float(q.get("s", 300)), usegmt=True)
            return self.send(503, b"unavailable", "text/plain", headers=[("Retry-After", when)])
        if p == "/close":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            self.close_connection = True
            return
        if p == "/set-cookie":
            return self.send(200, b"cookie set", "text/plain",
                             headers=[("Set-Cookie", "session=%s; Path=/" % q.get("v", "abc"))])
        if p == "/headers":
            return self.send(200, json.dumps(dict(self.headers.items())).encode(), "application/json")
        if p == "/robots.txt":
            return self.send(200, b"User-agent: *\nDisallow: /private\n", "text/plain")
        if p == "/page.html":
            return self.send(200, PAGE)
        if p == "/twice.html":
            return self.send(200, b'<a href="/t1" rel="nofollow">1</a> <a href="/t1">1</a> '
                             b'<a href="/t2">2</a> <a href="/t2" rel="nofollow">2</a>')
        if p == "/sitemap.xml":
            return self.send(200, SITEMAP, "application/xml")
        return self.send(200, b"<html><body>page %s</body></html>" % p.encode())

    do_HEAD = do_GET


def main():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    port = srv.server_address[1]
    if len(sys.argv) > 1:
        with open(sys.argv[1] + ".tmp", "w") as f:
            f.write("%d\n" % port)
        import os
        os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    print(port, flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
