#!/usr/bin/env python3
"""A hostile HTTP server for tests (127.0.0.1 only): raw sockets, so it can
send what a well-behaved server never would.

Usage: hostile.py PORTFILE [ROBOTS] -- binds 127.0.0.1 on a port the OS picks, writes
the port to PORTFILE and serves until killed. hostile.py --make-sitemap-bomb FILE
writes the gzip sitemap bomb to FILE and exits. A stop time is built in
(10 minutes), so a forgotten server never lingers. /robots.txt is served as
/robots-ROBOTS.txt (huge, binary or redirect) when ROBOTS is given.

Paths (any host, any query):
  /robots-huge.txt      10 MB robots.txt: "Disallow: /private" first, then 10 MB of rules
  /robots-binary.txt    10 MB of random bytes as text/plain
  /robots-redirect.txt  302 to ftp://127.0.0.1:1/robots.txt (another scheme)
  /broken-length        Content-Length: abc
  /two-lengths          two different Content-Length headers
  /no-status            "garbage" instead of a status line
  /status-999           HTTP/1.1 999 Weird
  /header-flood         20,000 header lines
  /long-header          one 2 MB header line
  /nul-header           a header with a NUL byte and invalid UTF-8 in Content-Type
  /endless              an endless chunked body
  /endless-length       Content-Length 10 GB, then endless data
  /trickle              one byte every 0.5 s, for ever
  /bad-chunks           a chunked body with an invalid chunk size
  /gzip-bomb            Content-Encoding: gzip, 64 MB of zeros compressed
  /lying-gzip           Content-Encoding: gzip, not gzip at all
  /redirect-ftp, /redirect-file, /redirect-js, /redirect-data, /redirect-huge,
  /redirect-crlf        redirects to other schemes, a 100 KB Location, CR LF tricks
  /hostile.html         hostile HTML (deep nesting, attribute floods, huge and
                        odd hrefs, NULs, broken entities) with known good links
  /many-links.html      40,000 distinct links (3 MB of them)
  /huge-links.html      33 MB of HTML holding 2,360,000 distinct links, made while
                        it is sent (Content-Length: huge_links_size())
  /sitemap-bomb.xml.gz  application/x-gzip: ~7.5 MB of gzip that inflates to a
                        ~180 MB sitemap (2,900,000 entries, then blanks); read
                        from ./sitemap-bomb.xml.gz, made there on first use
  /html-binary          text/html of random bytes
  anything else         a small page with one link
"""
import functools
import gzip
import itertools
import os
import random
import socket
import socketserver
import sys
import threading
import time

@functools.lru_cache(None)
def binary():
    return random.Random(1).randbytes(1 << 20) * 10  # 10 MB


@functools.lru_cache(None)
def gzip_bomb():
    return gzip.compress(b"\0" * (64 << 20), 6)


def hostile_html():
    """Good links (/good/N.html) between hostile constructs; a flood of
    distinct attribute names at the end (past 20,000 names the extractor
    stops by design, keeping the links found so far)."""
    parts = [b"<!DOCTYPE html><html><head><title>x</title></head><body>"]
    parts.append(b'<a href="/good/1.html">good 1</a>')
    parts.append(b"<div>" * 50000 + b"deep" + b"</div>" * 50000)
    parts.append(b'<a href="/good/2.html">good 2</a>')
    parts.append(b"<a " + b' a="x"' * 100000 + b' href="/lost.html">same attribute 100,000 times</a>')
    parts.append(b'<a href="/good/3.html">good 3</a>')
    parts.append(b'<a href="/' + b"h" * 200000 + b'">huge href</a>')
    parts.append(b'<a href="javascript:alert(1)">js</a><a href="mailto:a@b">m</a>'
                 b'<a href="data:text/html,x">d</a><a href="ftp://127.0.0.1:1/x">ftp</a>')
    parts.append(b'<a href="http://[::1]:99999/x">bad port</a><a href="http://a b/">space</a>'
                 b'<a href="http://' + b"x" * 10000 + b'.example/">long host</a>')
    parts.append(b'<a href="/nul\0byte.html">nul</a><a href="/\xff\xfe.html">bytes</a>')
    parts.append(b"&#99999999999; &#x110000; &bogus; &amp" * 1000)
    parts.append(b"<a href='/good/4.html'>good 4</a>")
    parts.append(b"<script>" + b"</scr" * 10000 + b"<a href='/in-script.html'></script>")
    parts.append(b"<a href='/good/5.html'>good 5</a>")
    parts.append(b"<a " + b" ".join(b'a%d="x"' % i for i in range(60000)) + b' href="/flood.html">f</a>')
    parts.append(b"<!-- unterminated comment " + b"<a href='/in-comment.html'>" * 100)
    return b"".join(parts)


hostile_html = functools.lru_cache(None)(hostile_html)


@functools.lru_cache(None)
def many_links():
    return b"<html><body>" + b"".join(
        b'<a href="/many/%06d/%s.html">l</a>\n' % (i, b"p" * 40) for i in range(40000)) + b"</body></html>"


# /huge-links.html: links <a href=/XXXX> (4 characters of base 62, 14 bytes
# each), sent in blocks of 62 x 62 links, never held whole.
HUGE_LINKS = 2360000
HUGE_HEAD = b"<!DOCTYPE html><html><head><title>huge</title></head><body>\n"
HUGE_TAIL = b"\n</body></html>\n"
B62 = [bytes([c]) for c in b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"]
PAIRS = [a + b for a, b in itertools.product(B62, B62)]


def huge_links_size():
    return len(HUGE_HEAD) + 14 * HUGE_LINKS + len(HUGE_TAIL)


def huge_links_blocks():
    yield HUGE_HEAD
    left = HUGE_LINKS
    for hi in PAIRS:
        n = min(left, len(PAIRS))
        if n == 0:
            break
        sep = b"><a href=/" + hi
        yield b"<a href=/" + hi + sep.join(PAIRS[:n]) + b">"
        left -= n
    yield HUGE_TAIL


SITEMAP_BOMB_ENTRIES = 2900000
SITEMAP_BOMB_SIZE = 180 << 20  # inflated bytes
_bomb_lock = threading.Lock()


def make_sitemap_bomb(path):
    """A gzip sitemap: SITEMAP_BOMB_ENTRIES distinct <url> entries, then
    blanks up to SITEMAP_BOMB_SIZE bytes and the closing tag."""
    with open(path + ".tmp", "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as gz:
        gz.write(b'<?xml version="1.0" encoding="UTF-8"?>\n'
                 b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')
        size = 100
        for start in range(0, SITEMAP_BOMB_ENTRIES, 100000):
            block = b"".join(b"<url><loc>http://127.0.0.1/sm/%07d.html</loc></url>\n" % i
                             for i in range(start, min(start + 100000, SITEMAP_BOMB_ENTRIES)))
            gz.write(block)
            size += len(block)
        blanks = b" " * (1 << 20)
        while size < SITEMAP_BOMB_SIZE:
            gz.write(blanks)
            size += len(blanks)
        gz.write(b"</urlset>\n")
    os.rename(path + ".tmp", path)


def sitemap_bomb():
    with _bomb_lock:
        if not os.path.exists("sitemap-bomb.xml.gz"):
            make_sitemap_bomb("sitemap-bomb.xml.gz")
    with open("sitemap-bomb.xml.gz", "rb") as f:
        return f.read()


class Handler(socketserver.BaseRequestHandler):
    def send(self, data):
        try:
            self.request.sendall(data)
            return True
        except OSError:
            return False

    def reply(self, status, headers, body):
        head = b"HTTP/1.1 " + status + b"\r\n" + b"".join(h + b"\r\n" for h in headers)
        head += b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
        self.send(head + body)

    def handle(self):
        self.request.settimeout(30)
        data = b""
        try:
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = self.request.recv(4096)
                if not chunk:
                    return
                data += chunk
        except OSError:
            return
        try:
            path = data.split(b" ", 2)[1].split(b"?")[0].decode("latin-1")
        except IndexError:
            return
        stop = time.time() + 60
        if path == "/robots.txt" and len(sys.argv) > 2:
            path = "/robots-%s.txt" % sys.argv[2]
        if path == "/robots-huge.txt":
            body = b"User-agent: *\nDisallow: /private\n" + b"Disallow: /x\n" * ((10 << 20) // 13)
            self.reply(b"200 OK", [b"Content-Type: text/plain"], body)
        elif path == "/robots-binary.txt":
            self.reply(b"200 OK", [b"Content-Type: text/plain"], binary())
        elif path == "/robots-redirect.txt":
            self.reply(b"302 Found", [b"Location: ftp://127.0.0.1:1/robots.txt"], b"")
        elif path == "/broken-length":
            self.send(b"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nbody")
        elif path == "/two-lengths":
            self.send(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 9\r\n\r\nbody")
        elif path == "/no-status":
            self.send(b"garbage\r\n\r\n" + b"more garbage" * 1000)
        elif path == "/status-999":
            self.reply(b"999 Weird", [b"Content-Type: text/html"], b"<a href='/s999.html'>x</a>")
        elif path == "/header-flood":
            self.reply(b"200 OK", [b"X-H%d: %s" % (i, b"v" * 50) for i in range(20000)], b"flood")
        elif path == "/long-header":
            self.reply(b"200 OK", [b"X-Long: " + b"v" * (2 << 20)], b"long")
        elif path == "/nul-header":
            self.reply(b"200 OK", [b"Content-Type: text/ht\0ml\xff\xfe", b"ETag: \"a\0b\xff\"",
                                   b"Last-Modified: \xff\xff garbage"], b"nul")
        elif path in ("/endless", "/endless-length"):
            if path == "/endless":
                head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                chunk = b"%x\r\n" % (1 << 20) + (b"<p>endless</p>" * 74899)[:1 << 20] + b"\r\n"
            else:
                head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10000000000\r\n\r\n"
                chunk = b"<p>endless</p>" * 74899
            if not self.send(head):
                return
            while time.time() < stop and self.send(chunk):
                pass
        elif path == "/trickle":
            if not self.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000000\r\n\r\n"):
                return
            while time.time() < stop and self.send(b"x"):
                time.sleep(0.5)
        elif path == "/bad-chunks":
            self.send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nbroken\r\n0\r\n\r\n")
        elif path == "/gzip-bomb":
            self.reply(b"200 OK", [b"Content-Type: text/html", b"Content-Encoding: gzip"], gzip_bomb())
        elif path == "/lying-gzip":
            self.reply(b"200 OK", [b"Content-Type: text/html", b"Content-Encoding: gzip"], b"<html>not gzip</html>")
        elif path.startswith("/redirect-"):
            to = {"ftp": b"ftp://127.0.0.1:1/x", "file": b"file:///etc/passwd", "js": b"javascript:alert(1)",
                  "data": b"data:text/html,<a href=x>", "huge": b"/" + b"r" * 100000,
                  "crlf": b"/ok%0d%0aSet-Cookie:%20x=1"}[path[len("/redirect-"):]]
            self.reply(b"301 Moved", [b"Location: " + to], b"")
        elif path == "/hostile.html":
            self.reply(b"200 OK", [b"Content-Type: text/html"], hostile_html())
        elif path == "/many-links.html":
            self.reply(b"200 OK", [b"Content-Type: text/html"], many_links())
        elif path == "/huge-links.html":
            head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
            if not self.send(head % huge_links_size()):
                return
            for block in huge_links_blocks():
                if not self.send(block):
                    return
        elif path == "/sitemap-bomb.xml.gz":
            self.reply(b"200 OK", [b"Content-Type: application/x-gzip"], sitemap_bomb())
        elif path == "/html-binary":
            self.reply(b"200 OK", [b"Content-Type: text/html"], binary()[:1 << 20])
        else:
            self.reply(b"200 OK", [b"Content-Type: text/html"], b"<html><a href='/next.html'>n</a></html>")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


def main():
    if sys.argv[1] == "--make-sitemap-bomb":
        make_sitemap_bomb(sys.argv[2])
        return
    srv = Server(("127.0.0.1", 0), Handler)
    port = srv.server_address[1]
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    threading.Timer(600, lambda: os._exit(0)).start()
    srv.serve_forever()


if __name__ == "__main__":
    main()
