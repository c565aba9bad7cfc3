#!/usr/bin/env python3
"""Writes a small deterministic multi-page HTML site for crawl tests.

usage: make-site.py DIR PAGES [--private K] [--base URL...]
Pages /p/<i>.html link to a few other pages (relative and absolute links,
duplicates, a nofollow link, a fragment), /index.html links to the first
pages, /robots.txt disallows /private/ and K private pages are linked from
the index. With --base, absolute links also point at the other bases
(several hosts of one crawl)."""
import os
import random
import sys


def main():
    args = sys.argv[1:]
    out, pages = args[0], int(args[1])
    private = int(args[args.index("--private") + 1]) if "--private" in args else 3
    bases = args[args.index("--base") + 1:] if "--base" in args else []
    rnd = random.Random(7)
    os.makedirs(os.path.join(out, "p"), exist_ok=True)
    os.makedirs(os.path.join(out, "private"), exist_ok=True)
    with open(os.path.join(out, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    links = "".join(f'<a href="p/{i}.html">page {i}</a>\n' for i in range(min(pages, 5)))
    links += "".join(f'<a href="/private/{k}.html">secret {k}</a>\n' for k in range(private))
    links += "".join(f'<a href="{b}/index.html">other host</a>\n' for b in bases)
    with open(os.path.join(out, "index.html"), "w") as f:
        f.write(f"<!DOCTYPE html><html><head><title>index</title></head><body>\n{links}</body></html>\n")
    for k in range(private):
        with open(os.path.join(out, "private", f"{k}.html"), "w") as f:
            f.write("<html><body>private <a href='/p/0.html'>x</a></body></html>\n")
    for i in range(pages):
        targets = [rnd.randrange(pages) for _ in range(4)] + [(i + 1) % pages]
        body = "".join(f'<a href="{t}.html">to {t}</a>\n' for t in targets)
        body += f'<a href="/p/{targets[0]}.html#frag">again</a>\n'
        body += f'<a href="{(i + 2) % pages}.html" rel="nofollow">nofollow</a>\n'
        if bases:
            b = bases[i % len(bases)]
            body += f'<a href="{b}/p/{(i * 7) % pages}.html">elsewhere</a>\n'
        with open(os.path.join(out, "p", f"{i}.html"), "w") as f:
            f.write(f"<!DOCTYPE html><html><head><title>page {i}</title></head><body>\n{body}</body></html>\n")


if __name__ == "__main__":
    main()
