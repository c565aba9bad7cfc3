#!/usr/bin/env python3
"""A TCP proxy that adds a fixed delay to every byte, each way.

    latency_proxy.py [--listen ADDR] TARGET_PORT RTT_MS [PORTFILE]

Listens on a free port of ADDR (default 127.0.0.1; written to PORTFILE,
else printed), forwards each connection to 127.0.0.1:TARGET_PORT, and
hands every chunk read on one side to the other RTT_MS/2 milliseconds
later, in order: a round trip costs RTT_MS more, as to a server on
another machine, while throughput is not limited (chunks in flight
overlap). RTT_MS 0 forwards at once (it still counts). Used by
tests/pg/bench.sh (PG_RTT_MS) where `tc netem` on loopback would delay
every test's traffic, and by its scaling rows, where it runs in the
server's network namespace (tests/tools/netns.bash) and listens on
0.0.0.0 there: the machines' connections arrive over veth pairs. That
namespace has no route out; without --listen nothing leaves 127.0.0.1.

Each direction of a connection is a thread that reads a chunk, sleeps
until it is due (clock_nanosleep: microseconds) and sends it on; what
arrived meanwhile came with it and follows at once. An asyncio loop
cannot do this: its epoll timeout is rounded up to whole milliseconds,
so an asyncio proxy adds several times the delay it is asked for. Both
sockets have TCP_NODELAY (no Nagle delay on the small messages of libpq).

LATENCY_PROXY_LOG=FILE appends a line per connection when it closes:
"turns T c2s C s2c S" (T: round trips the client waited for: client sends
that followed the server's ReadyForQuery, the end of its answer to a
Sync or a query; C, S: chunks each way). Counting every client send that
followed any server send counted races too: under load a pipeline's
bytes may reach the proxy in two reads with results of its first
commands between them, though the client waited for nothing.
"""
import os
import socket
import sys
import threading
import time


class Conn:
    def __init__(self):
        self.lock = threading.Lock()
        self.answered = False  # the server's last answer ended; the client has not sent since
        self.turns = 0
        self.chunks = {"c": 0, "s": 0}
        self.open_dirs = 2

    def note(self, side, data):
        with self.lock:
            if side == "c" and self.answered:
                self.turns += 1
                self.answered = False
            elif side == "s" and ready_for_query(data):
                self.answered = True
            self.chunks[side] += 1


def ready_for_query(data):
    """True when a server chunk ends with ReadyForQuery: 'Z', length 5, a status byte."""
    return len(data) >= 6 and data[-6:-1] == b"Z\x00\x00\x00\x05" and data[-1:] in (b"I", b"T", b"E")


def pipe(src, dst, delay, conn, side, done):
    """Forwards src to dst, each chunk `delay` seconds after it was read."""
    due = time.monotonic() + delay
    try:
        while True:
            try:
                # Already waiting: it came during the last wait, with the
                # previous chunk (a burst); it goes on at once.
                data = src.recv(65536, socket.MSG_DONTWAIT)
            except BlockingIOError:
                data = src.recv(65536)
                due = time.monotonic() + delay
            if not data:
                break
            conn.note(side, data)
            if delay:
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            dst.sendall(data)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
    done()


def handle(client, target, delay, log):
    try:
        server = socket.create_connection(("127.0.0.1", target))
    except OSError:
        client.close()
        return
    for s in (client, server):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn = Conn()

    def done():
        with conn.lock:
            conn.open_dirs -= 1
            last = conn.open_dirs == 0
        if last:
            client.close()
            server.close()
            if log:
                with open(log, "a") as f:
                    f.write(f"turns {conn.turns} c2s {conn.chunks['c']} s2c {conn.chunks['s']}\n")

    threading.Thread(target=pipe, args=(server, client, delay, conn, "s", done), daemon=True).start()
    pipe(client, server, delay, conn, "c", done)


def main():
    args = sys.argv[1:]
    listen = "127.0.0.1"
    if args[:1] == ["--listen"]:
        listen, args = args[1], args[2:]
    target = int(args[0])
    delay = float(args[1]) / 2000.0  # one way, seconds
    log = os.environ.get("LATENCY_PROXY_LOG")
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((listen, 0))
    listener.listen(256)
    port = listener.getsockname()[1]
    if len(args) > 2:
        with open(args[2], "w") as f:
            f.write(f"{port}\n")
    else:
        print(port, flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=handle, args=(client, target, delay, log), daemon=True).start()


if __name__ == "__main__":
    main()
