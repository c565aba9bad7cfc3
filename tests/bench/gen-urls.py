#!/usr/bin/env python3
"""Deterministic synthetic crawl input for benchmarks and tests.

usage: gen-urls.py N H [--plain] > file
N URL records over exactly H hosts (h<k%4>.site<k//4>.com: four hosts per
registered domain), host sizes skewed like a real crawl (Zipf, s=1), 30% with a
query string, depth 0-4. JSON-lines by default, bare URLs with --plain.
The same N and H always give the same bytes (the distribution of the
project's reference generator)."""
import itertools
import random
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    n, h = int(args[0]), int(args[1])
    plain = "--plain" in sys.argv
    rnd = random.Random(42)
    cum = list(itertools.accumulate(1.0 / (k + 1) for k in range(h)))
    hosts = rnd.choices(range(h), cum_weights=cum, k=n)
    words = ["news", "article", "blog", "post", "story", "page", "about", "archive", "tag", "category"]
    out = sys.stdout
    for i, k in enumerate(hosts):
        host = f"h{k % 4}.site{k // 4}.com"
        path = "/".join(rnd.choice(words) for _ in range(rnd.randrange(1, 4)))
        q = f"?id={rnd.randrange(10**6)}" if rnd.random() < 0.3 else ""
        url = f"http://{host}/{path}/{i}{q}"
        if plain:
            out.write(url + "\n")
        else:
            out.write('{"url":"%s","depth":%d}\n' % (url, rnd.randrange(5)))


if __name__ == "__main__":
    main()
