#!/usr/bin/env python3
"""A small site on 127.0.0.1 that logs every request (tests only).

Usage: site.py DIR

Binds 127.0.0.1 on a port the OS picks and writes it to DIR/port (atomically,
when listening). Serves the files under DIR/files (a request for "/" serves
DIR/files/index.html; a missing file is a 404) as text/html, except
robots.txt (text/plain), and appends "PATH<TAB>USER-AGENT" to DIR/requests
for every request.
"""
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

root = sys.argv[1]


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        with open(os.path.join(root, "requests"), "a") as f:
            f.write(f"{self.path}\t{self.headers.get('User-Agent', '')}\n")
        name = self.path.split("?")[0].lstrip("/") or "index.html"
        path = os.path.join(root, "files", name)
        if ".." in name or not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain" if name == "robots.txt" else "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(root, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(root, "port.tmp"), os.path.join(root, "port"))
server.serve_forever()
