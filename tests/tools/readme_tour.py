#!/usr/bin/env python3
"""Runs the README's tour and compares each command's output with the text.

Usage: readme_tour.py README.md WORKDIR

The tour is the first ```sh block after "### A five-minute tour": lines
starting with "$ " are commands, the lines after one are its output
(standard output and standard error, in order). The commands run in one
bash, in WORKDIR, with the tools on PATH. Prints each difference; exits 1
when there is any.
"""
import re
import subprocess
import sys

readme, workdir = sys.argv[1], sys.argv[2]
m = re.search(r"### A five-minute tour\n.*?```sh\n(.*?)```", open(readme).read(), re.S)
if not m:
    sys.exit("no tour in " + readme)
steps = []
for line in m.group(1).splitlines():
    if line.startswith("$ "):
        steps.append((line[2:], []))
    elif steps:
        steps[-1][1].append(line)
    else:
        sys.exit("tour text before its first command: " + line)
script = "".join(f"echo '@@step {i}'\n{{ {cmd}\n}} 2>&1\n" for i, (cmd, _) in enumerate(steps))
out = subprocess.run(["bash", "-c", script], cwd=workdir, capture_output=True, text=True).stdout
parts = re.split(r"^@@step \d+\n", out, flags=re.M)[1:]
bad = 0
for (cmd, want), got in zip(steps, parts):
    got = got.rstrip("\n").split("\n") if got.strip() else []
    if got != want:
        bad += 1
        print(f"$ {cmd}\n  README: {want}\n  real:   {got}")
print(f"{len(steps)} commands, {bad} differ")
sys.exit(1 if bad or len(parts) != len(steps) else 0)
