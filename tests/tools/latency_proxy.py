#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that adds a fixed delay to every byte, each way.

    latency_proxy.py TARGET_PORT RTT_MS [PORTFILE]

Listens on a free port of 127.0.0.1 (written to PORTFILE, else printed),
forwards each connection to 127.0.0.1:TARGET_PORT, and hands every chunk
read on one side to the other RTT_MS/2 milliseconds later, in order: a
round trip costs RTT_MS more, as to a server on another machine, while
throughput is not limited (chunks in flight overlap). Used by
tests/pg/bench.sh (PG_RTT_MS) where `tc netem` on loopback would delay
every test's traffic. Nothing leaves 127.0.0.1.
"""
import asyncio
import sys
import time


async def pump(reader, writer, delay):
    queue = asyncio.Queue()

    async def send():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        writer.close()

    sender = asyncio.create_task(send())
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            queue.put_nowait((time.monotonic() + delay, data))
    except (ConnectionError, OSError):
        pass
    queue.put_nowait((0, None))
    try:
        await sender
    except (ConnectionError, OSError):
        pass


async def main():
    target = int(sys.argv[1])
    delay = float(sys.argv[2]) / 2000.0  # one way, seconds

    async def handle(client_r, client_w):
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            client_w.close()
            return
        await asyncio.gather(pump(client_r, server_w, delay), pump(server_r, client_w, delay))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as f:
            f.write(f"{port}\n")
    else:
        print(port, flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
