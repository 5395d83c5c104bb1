#!/usr/bin/env python3
"""Instructions per operation from callgrind profiles of bench-host.

bench-host --callgrind runs each hot path COUNT times inside a function
named cg_*; callgrind, collecting only inside those functions, counts
their inclusive instructions.  This prints instructions per operation,
one column per build, and each goal of issue 17 beside its figure (the
per-CPU lists' goal, a page pair at most half the pair with the lists
bypassed, as a ratio of instructions: the primary figure, as callgrind's
counts do not depend on the machine's load; the page patterns batch and
random are COUNT operations too, 1000 pages at a time):
    python3 tools/callgrind-ops.py COUNT [LABEL=]callgrind.out ...
(a LABEL may hold "=" itself: the file is what follows the last one)
"""
import re
import subprocess
import sys

# Paths whose figure has a goal: (the goal's text, test(figures of a build)).
GOALS = {
    "mm86_page_pair": ("<= 150", lambda f: f["mm86_page_pair"] <= 150),
    "mm86_page_batch": ("<= mimalloc4096",
                        lambda f: f["mm86_page_batch"] <= f["mimalloc4096_batch"]),
    "mm86_page_random": ("<= mimalloc4096",
                         lambda f: f["mm86_page_random"] <= f["mimalloc4096_random"]),
    "mm86_cache64_pair": ("<= mimalloc64",
                          lambda f: f["mm86_cache64_pair"] <= f["mimalloc64_pair"]),
    "mm86_kmalloc64_pair": ("< 185 (the issue's figure)",
                            lambda f: f["mm86_kmalloc64_pair"] < 185),
}

# Goal 1 of issue 17, the slab side: every object pattern of mm86 at or
# below mimalloc's same pattern (bench_host.c's cg_patterns).
for mine, peer in (("mm86_cache64", "mimalloc64"), ("mm86_cache256", "mimalloc256"),
                   ("mm86_kmalloc_mixed", "mimalloc_mixed")):
    for pattern in ("pair", "batch", "random"):
        a, b = "%s_%s" % (mine, pattern), "%s_%s" % (peer, pattern)
        if a not in GOALS:
            GOALS[a] = ("<= " + b, lambda f, a=a, b=b: f[a] <= f[b])


def verdict(test, f):
    """met / not met, or "-" when a figure the goal needs is missing."""
    try:
        return "met" if test(f) else "not met"
    except KeyError:
        return "-"


def figures(out, count):
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          stdout=subprocess.PIPE, check=True).stdout.decode()
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s.*?\bcg_(\w+)", line)
        if m and m.group(2) not in rows:
            rows[m.group(2)] = int(m.group(1).replace(",", "")) / count
    return rows


def main():
    count = int(sys.argv[1])
    builds = [arg.rsplit("=", 1) if "=" in arg else ("instructions", arg)
              for arg in sys.argv[2:]]
    data = [(label, figures(out, count)) for label, out in builds]
    names = sorted({n for _, f in data for n in f}, key=lambda n: (not n.startswith("mm86"), n))
    print("\ninstructions per alloc+free (callgrind, %d operations each)" % count)
    print("  %-26s" % "path" + "".join(" | %14s" % label for label, _ in data) + " | goal")
    ok = True
    for n in names:
        cells = "".join(" | %14.1f" % f[n] if n in f else " | %14s" % "-" for _, f in data)
        goal = ""
        if n in GOALS:
            text, test = GOALS[n]
            verdicts = [verdict(test, f) for _, f in data]
            goal = "%s: %s" % (text, ", ".join(verdicts))
        print("  %-26s%s | %s" % (n, cells, goal))
    for label, f in data:
        if "mm86_page_pair" in f and "mm86_page_bypass_pair" in f:
            r = f["mm86_page_pair"] / f["mm86_page_bypass_pair"]
            print("  per-CPU lists: page pair / page pair, lists bypassed (%s) = %.2fx"
                  " (goal <= 0.5x: %s)" % (label, r, "met" if r <= 0.5 else "not met"))
    for label, f in data:
        if "mm86_mempool64_pair" in f and "mm86_cache64_pair" in f:
            r = f["mm86_mempool64_pair"] / f["mm86_cache64_pair"]
            print("  mempool / kmem_cache-64 (%s) = %.2fx (goal <= 1.2x: %s)"
                  % (label, r, "met" if r <= 1.2 else "not met"))
    return 0 if all(f for _, f in data) else 1


if __name__ == "__main__":
    sys.exit(main())
