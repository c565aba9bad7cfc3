#!/usr/bin/env python3
"""Simulated changing site for the recrawl simulation (tests/e2e/test_recrawl_sim.sh).

127.0.0.1 only. Time is simulated: the server reads the current time from
NOWFILE on every request, and the test writes the same value there that it
gives the tools as FRONTIER_NOW, so pages change on the simulated clock.

  recrawl_sim.py schedule START DAYS > schedule.json
      The deterministic page set and the change times of every page (a
      Poisson process per page, fixed seed), plus failure windows.
  recrawl_sim.py serve PORTFILE NOWFILE schedule.json LOG
      Serves /p/NAME until killed: "NAME version K" where K is the number of
      changes up to now, ETag "K" (304 on a matching If-None-Match), 404
      inside the page's failure window. Appends one JSON line per request to
      LOG: {"page","t","status","version"}.
  recrawl_sim.py freshness schedule.json LOG FROM TO
      Freshness per group over [FROM, TO] from the versions served (200 and
      304 alike are a visit that brings the crawled copy up to date): the
      fraction of time the crawled copy equals the live page, the mean age
      (time since the live page first differed from the copy, 0 while
      fresh) and the number of visits. One JSON object.
"""
import bisect
import json
import random
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DAY = 86400.0

# (group, pages, mean days between changes; 0 = never, lister = a daily lister gives last_modified)
GROUPS = [
    ("twice-daily", 16, 0.5, False),
    ("daily", 16, 1.0, False),
    ("3-days", 16, 3.0, False),
    ("weekly", 16, 7.0, False),
    ("monthly", 16, 30.0, False),
    ("static", 8, 0.0, False),
    ("weekly-listed", 8, 7.0, True),
]


def make_schedule(start, days, seed=20261115):
    rng = random.Random(seed)
    end = start + days * DAY
    pages = {}
    for group, n, mean, listed in GROUPS:
        for i in range(n):
            name = "%s-%d" % (group, i)
            changes = []
            if mean > 0:
                t = start
                while True:
                    t += rng.expovariate(1.0 / (mean * DAY))
                    if t > end:
                        break
                    changes.append(round(t, 3))
            pages[name] = {"group": group, "mean_days": mean, "listed": listed, "changes": changes, "fail": []}
    # A page changing daily that dies on day 5 (404) and comes back on day
    # 15: it is disabled after recrawl.max-failures failures and revisited
    # only once it is listed again.
    changes = [start + (d + 0.5) * DAY for d in range(int(days))]
    pages["dying-0"] = {"group": "dying", "mean_days": 1, "listed": False, "changes": changes,
                        "fail": [[start + 5 * DAY, start + 15 * DAY]]}
    return {"start": start, "end": end, "pages": pages}


def version(page, t):
    return bisect.bisect_right(page["changes"], t)


def failing(page, t):
    return any(a <= t < b for a, b in page["fail"])


def serve(portfile, nowfile, schedule_file, log_file):
    sched = json.load(open(schedule_file))
    pages = sched["pages"]
    lock = threading.Lock()
    log = open(log_file, "a")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            pass

        def reply(self, code, body=b"", headers=()):
            self.send_response(code)
            if code != 304:
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
            for k, v in headers:
                self.send_header(k, v)
            self.end_headers()
            if code != 304:
                self.wfile.write(body)

        def do_GET(self):
            with open(nowfile) as f:
                now = float(f.read().strip())
            name = self.path[3:] if self.path.startswith("/p/") else None
            page = pages.get(name)
            if page is None:
                return self.reply(404, b"no such page")
            if failing(page, now):
                status, v = 404, None
            else:
                v = version(page, now)
                etag = '"%d"' % v
                status = 304 if self.headers.get("If-None-Match") == etag else 200
            with lock:
                log.write(json.dumps({"page": name, "t": now, "status": status, "version": v}) + "\n")
                log.flush()
            if status == 404:
                return self.reply(404, b"gone")
            if status == 304:
                return self.reply(304, headers=[("ETag", etag)])
            body = b"<!DOCTYPE html><html><body><p>%s version %d</p></body></html>" % (name.encode(), v)
            return self.reply(200, body, headers=[("ETag", etag)])

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = srv.server_address[1]
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % port)
    import os
    os.rename(portfile + ".tmp", portfile)
    srv.serve_forever()


def freshness(schedule_file, log_file, t_from, t_to):
    sched = json.load(open(schedule_file))
    pages = sched["pages"]
    visits = {}
    for line in open(log_file):
        r = json.loads(line)
        if r["status"] in (200, 304):
            visits.setdefault(r["page"], []).append((r["t"], r["version"]))
    groups = {}
    for name, page in pages.items():
        if page["group"] == "dying":
            continue
        vs = sorted(visits.get(name, []))
        changes = page["changes"]
        fresh = age = 0.0
        # Walk [t_from, t_to] in pieces between visits; before the first
        # visit the crawled copy is nothing (stale, aged from t_from).
        times = [t for t, _ in vs if t_from < t < t_to]
        edges = [t_from] + times + [t_to]
        for a, b in zip(edges, edges[1:]):
            copy = None
            for t, v in vs:
                if t <= a:
                    copy = v
                else:
                    break
            if copy is None:
                age += (b - a) * ((b - a) / 2)  # integral of the age, stale since t_from
                continue
            # The live version differs from the copy after the first change past version `copy`.
            if copy >= len(changes):  # no change after the copy: fresh throughout
                fresh += b - a
                continue
            first_change = changes[copy]
            stale_from = max(a, min(b, first_change))
            fresh += stale_from - a
            # age(t) = t - first_change on [stale_from, b]
            age += ((b - first_change) ** 2 - (stale_from - first_change) ** 2) / 2
        n_visits = sum(1 for t, _ in vs if t_from <= t < t_to)
        g = groups.setdefault(page["group"], {"pages": 0, "fresh": 0.0, "age": 0.0, "visits": 0})
        g["pages"] += 1
        g["fresh"] += fresh / (t_to - t_from)
        g["age"] += age / (t_to - t_from)
        g["visits"] += n_visits
    out = {}
    for name, g in groups.items():
        out[name] = {"freshness": round(g["fresh"] / g["pages"], 4),
                     "mean_age_h": round(g["age"] / g["pages"] / 3600, 2),
                     "visits": g["visits"]}
    return out


def main():
    cmd = sys.argv[1]
    if cmd == "schedule":
        json.dump(make_schedule(float(sys.argv[2]), float(sys.argv[3])), sys.stdout)
    elif cmd == "serve":
        serve(*sys.argv[2:6])
    elif cmd == "freshness":
        print(json.dumps(freshness(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])), sort_keys=True))
    else:
        sys.exit("usage: see the docstring")


if __name__ == "__main__":
    main()
