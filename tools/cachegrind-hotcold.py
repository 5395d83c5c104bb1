#!/usr/bin/env python3
"""The hot/cold claim in simulated cache misses, from cachegrind.

bench-host --cachegrind plays the scenarios of tests/host/bench_host.c's
cachegrind_rounds(), each measured access in a function of its own
(cc_<scenario>_<case>_<what>); valgrind --tool=cachegrind --cache-sim=yes
counts the misses of each function's own accesses.  This sums them per
function, divides by the rounds, and prints the table with the ratio of
the case the article says is better to the other, and the verdict:
    python3 tools/cachegrind-hotcold.py cachegrind.out bench-output.txt
(the second file is the program's stdout: its "cachegrind:" line gives
the rounds and sizes).  Exit status 1 when a figure is missing.
"""
import collections
import re
import sys

# (label, the better case's function, the other's, what the claim is)
ROWS = [
    ("(a) write the page handed out", "a_hot_write", "a_cold_write",
     "hot page (H) / cold page (C)"),
    ("(a) then read the working set", "a_hot_ws", "a_cold_ws",
     "after writing H / after writing C"),
    ("(b) CPU's next page written", "b_cold_write", "b_hot_write",
     "device got C (__GFP_COLD) / device got H"),
    ("(b) then read the working set", "b_cold_ws", "b_hot_ws",
     "device got C / device got H"),
]


def parse(out):
    """Per cc_* function: {event: total}, and the cache descriptions."""
    events, fn, desc = None, None, []
    totals = collections.defaultdict(collections.Counter)
    with open(out) as f:
        for line in f:
            if line.startswith("desc:"):
                desc.append(line[5:].strip())
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fn="):
                fn = line[3:].strip()
            elif fn and fn.startswith("cc_") and line[:1].isdigit():
                for name, v in zip(events, line.split()[1:]):
                    totals[fn[3:]][name] += int(v)
    return totals, desc


def cell(better, other):
    if better == other:
        return "%6.1f / %6.1f     equal" % (better, other)
    if other == 0:
        return "%6.1f / %6.1f       inf" % (better, other)
    return "%6.1f / %6.1f  %7.2fx" % (better, other, better / other)


def main():
    totals, desc = parse(sys.argv[1])
    info = {}
    with open(sys.argv[2]) as f:
        for line in f:
            if line.startswith("cachegrind:"):
                info = dict(kv.split("=") for kv in line.split()[1:])
    rounds = int(info.get("rounds", 0))
    if not rounds:
        print("cachegrind-hotcold: no 'cachegrind:' line in %s" % sys.argv[2])
        return 1
    print("\nthe article's hot/cold claim in simulated cache misses (cachegrind, "
          "misses per round, %d rounds)" % rounds)
    for d in desc:
        if re.match(r"(I1|D1|LL) cache", d):
            print("  " + re.sub(r"\s+", " ", d))
    print("  working set %d KiB, 'time passes' sweep %d KiB, page %d B"
          % (int(info["ws"]) >> 10, int(info["sweep"]) >> 10, int(info["page"])))
    print("  %-31s | %-41s | %-27s | %-27s | %s"
          % ("measure", "better case / other case", "D1 misses, ratio",
             "LL misses, ratio", "goal: better case fewer"))
    ok = True
    for label, better, other, cases in ROWS:
        if better not in totals or other not in totals:
            print("  %-31s | missing from %s" % (label, sys.argv[1]))
            ok = False
            continue
        b, o = totals[better], totals[other]
        d1 = [(x["D1mr"] + x["D1mw"]) / rounds for x in (b, o)]
        ll = [(x["DLmr"] + x["DLmw"]) / rounds for x in (b, o)]
        if d1[0] < d1[1] and ll[0] <= ll[1]:
            verdict = "met" + (" (LL equal)" if ll[0] == ll[1] else "")
        elif d1[0] <= d1[1] and ll[0] < ll[1]:
            verdict = "met (D1 equal)"
        else:
            verdict = "not met"
        print("  %-31s | %-41s | %s | %s | %s"
              % (label, cases, cell(*d1), cell(*ll), verdict))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
