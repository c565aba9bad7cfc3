#!/usr/bin/env python3
"""Measurements of the broad-crawl rows (tests/bench/broad_crawl.sh).

usage:
  broad_stats.py sample OUT PID...
      Every second until every PID is gone, append to OUT one line per
      process in the trees under the PIDs: "TIME PID COMM TICKS HWM_KB RSS_KB"
      (TICKS: user+system clock ticks, /proc/PID/stat; HWM: VmHWM, the peak
      resident set so far, /proc/PID/status), and one line
      "TIME 0 machine BUSY_TICKS TOTAL_TICKS 0" from /proc/stat.
  broad_stats.py politeness LOG MIN_DELAY [SINCE [UNTIL]]
      From an access log of "MSEC REQUEST_TIME ADDR URI STATUS" lines (nginx's
      $msec is the end of a request; the start is MSEC - REQUEST_TIME), per
      host: the gaps between the starts of consecutive requests. Prints
      "hosts H requests N pages P robots R private X min_gap S median_gap S
      p90_gap S close C": pages are 2xx answers other than /robots.txt,
      private the requests under /private/ (disallowed by robots.txt), close
      the gaps shorter than MIN_DELAY less the log's millisecond resolution
      (5 ms). A gap's excess over MIN_DELAY is time the crawler lost. Then
      "first T last T": the first and last request's start (Unix time).
  broad_stats.py windows LOG SAMPLES T0 SECONDS WINDOW H
      Per window of WINDOW seconds from T0 (the crawl's start) up to SECONDS
      (a markdown table, one column per window): pages/s (2xx answers other
      than /robots.txt, by their start), its fraction of the ideal H pages/s,
      the median and 90th percentile gap between two requests to a host,
      the CPU of each sampled process name (in cores: CPU seconds per
      second), the machine's busy fraction (of all its cores) and each
      name's resident set at the window's end; then each name's peak
      resident set, each tool's CPU per page in the first and last window,
      and the lowest and mean fractions."""
import os
import sys
import time
from collections import defaultdict

TICK = os.sysconf("SC_CLK_TCK")
RESOLUTION = 0.005


def children_map():
    kids = defaultdict(list)
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
        except OSError:
            continue
        ppid = int(s[s.rindex(")") + 2:].split()[1])
        kids[ppid].append(int(d))
    return kids


def proc_line(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            s = f.read()
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
    except OSError:
        return None
    comm = s[s.index("(") + 1:s.rindex(")")].replace(" ", "_")
    fields = s[s.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])
    mem = {}
    for line in status.splitlines():
        k, _, v = line.partition(":")
        if k in ("VmHWM", "VmRSS"):
            mem[k] = int(v.split()[0])
    return f"{pid} {comm} {ticks} {mem.get('VmHWM', 0)} {mem.get('VmRSS', 0)}"


def sample(out, roots):
    with open(out, "a") as f:
        while any(os.path.exists(f"/proc/{p}") for p in roots):
            t = time.time()
            kids = children_map()
            todo, seen = list(roots), set()
            while todo:
                p = todo.pop()
                if p in seen:
                    continue
                seen.add(p)
                todo.extend(kids.get(p, []))
                line = proc_line(p)
                if line:
                    f.write(f"{t:.3f} {line}\n")
            with open("/proc/stat") as s:
                cpu = [int(x) for x in s.readline().split()[1:]]
            idle = cpu[3] + cpu[4]
            f.write(f"{t:.3f} 0 machine {sum(cpu) - idle} {sum(cpu)} 0\n")
            f.flush()
            time.sleep(max(0.0, 1.0 - (time.time() - t)))


def requests(log, since=0.0, until=float("inf")):
    for line in open(log):
        parts = line.split()
        if len(parts) < 5:
            continue
        start = float(parts[0]) - float(parts[1])
        if since <= start < until:
            yield start, parts[2], parts[3], parts[4]


def politeness(log, min_delay, since=0.0, until=float("inf")):
    starts = defaultdict(list)
    pages = robots = private = n = 0
    for start, addr, uri, status in requests(log, since, until):
        n += 1
        starts[addr].append(start)
        if uri == "/robots.txt":
            robots += 1
        elif uri.startswith("/private/"):
            private += 1
        elif status.startswith("2"):
            pages += 1
    gaps = []
    first = min((min(s) for s in starts.values()), default=0.0)
    last = max((max(s) for s in starts.values()), default=0.0)
    for s in starts.values():
        s.sort()
        gaps += [b - a for a, b in zip(s, s[1:])]
    gaps.sort()
    close = sum(1 for g in gaps if g < min_delay - RESOLUTION)

    def q(f):
        return gaps[min(len(gaps) - 1, int(f * len(gaps)))] if gaps else 0.0
    print(f"hosts {len(starts)} requests {n} pages {pages} robots {robots} "
          f"private {private} min_gap {q(0):.3f} median_gap {q(0.5):.3f} "
          f"p90_gap {q(0.9):.3f} close {close} first {first:.3f} last {last:.3f}")


def windows(log, samples, t0, seconds, window, hosts):
    nwin = max(1, int(seconds // window))
    pages = [0] * nwin
    starts = defaultdict(list)
    for start, addr, uri, status in requests(log, t0, t0 + nwin * window):
        starts[addr].append(start)
        if uri != "/robots.txt" and status.startswith("2"):
            pages[int((start - t0) // window)] += 1
    # Gaps between requests to a host, in the window of the later one.
    gaps = [[] for _ in range(nwin)]
    for s in starts.values():
        s.sort()
        for a, b in zip(s, s[1:]):
            gaps[int((b - t0) // window)].append(b - a)
    for g in gaps:
        g.sort()

    def q(g, f):
        return f"{g[min(len(g) - 1, int(f * len(g)))]:.3f}" if g else "-"
    # CPU in a window: a process's ticks at its last sample before the
    # window's end less those before its start (several processes of one
    # name, such as nginx's workers, add up).
    series = defaultdict(list)   # (pid, name) -> [(time, ticks)]
    machine = []
    hwm = defaultdict(int)
    names = []
    for line in open(samples):
        t, pid, name, ticks, peak, rss = line.split()
        if name == "machine":
            machine.append((float(t), int(ticks), int(peak)))
            continue
        if name not in names:
            names.append(name)
        hwm[name] = max(hwm[name], int(peak))
        series[(pid, name)].append((float(t), int(ticks), int(rss)))

    def at(points, edge, default):
        before = [p for p in points if p[0] <= edge]
        return before[-1] if before else default

    edges = [t0 + i * window for i in range(nwin + 1)]
    cpu = defaultdict(lambda: [0.0] * nwin)
    rss = defaultdict(lambda: [0] * nwin)   # at each window's end
    for (pid, name), points in series.items():
        ticks = [at(points, e, (0, 0, 0))[1] for e in edges]
        for w in range(nwin):
            cpu[name][w] += (ticks[w + 1] - ticks[w]) / TICK / window
            last = at(points, edges[w + 1], None)
            if last and last[0] > edges[w + 1] - 2:   # still running then
                rss[name][w] += last[2]
    busy = [at(machine, e, machine[0] if machine else (0, 0, 0)) for e in edges]
    # One column per window (a 10-minute run fits a README); CPU rows only
    # for the processes that used any, RSS rows for those that ran.
    head = [f"{window:.0f} s window"] + [str(w + 1) for w in range(nwin)]
    rows = [["pages/s"] + [f"{p / window:.0f}" for p in pages],
            ["of the ideal"] + [f"{p / window / hosts:.2f}" for p in pages],
            ["median gap s"] + [q(g, 0.5) for g in gaps],
            ["90th pct gap s"] + [q(g, 0.9) for g in gaps]]
    rows += [[f"{n} CPU"] + [f"{c:.2f}" for c in cpu[n]] for n in names if max(cpu[n]) >= 0.005]
    rows.append(["machine busy"] + [f"{(b[1] - a[1]) / (b[2] - a[2]):.2f}" if b[2] > a[2] else "-"
                                    for a, b in zip(busy, busy[1:])])
    rows += [[f"{n} RSS MiB"] + [f"{r / 1024:.0f}" for r in rss[n]] for n in names if max(rss[n]) > 0]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print("peak RSS: " + ", ".join(f"{n} {hwm[n] / 1024:.0f} MiB" for n in names))
    fr = [p / window / hosts for p in pages]
    # A tool's CPU per page, first window against last: a cost that grows
    # with the frontier.
    per = [f"{n} {cpu[n][0] * 1e3 / max(pages[0] / window, 1):.2f} → "
           f"{cpu[n][-1] * 1e3 / max(pages[-1] / window, 1):.2f}"
           for n in names if max(cpu[n]) >= 0.005 and n != "nginx"]
    print("CPU ms per page, first window → last: " + ", ".join(per))
    print()
    print(f"min_fraction {min(fr):.3f} mean_fraction {sum(fr) / len(fr):.3f}")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "sample":
        sample(args[0], [int(p) for p in args[1:]])
    elif cmd == "politeness":
        politeness(args[0], float(args[1]), *[float(a) for a in args[2:4]])
    elif cmd == "windows":
        windows(args[0], args[1], float(args[2]), float(args[3]), float(args[4]), int(args[5]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
