#!/usr/bin/env python3
"""The hot/cold claim in simulated cache misses, from cachegrind.

bench-host --cachegrind plays the scenarios of tests/host/bench_host.c's
cachegrind_rounds(), each measured access in a function of its own
(cc_<scenario>_<case>_<what>_<working set>: the working set sized to
fill D1 or LL with one page); valgrind --tool=cachegrind --cache-sim=yes
counts the misses of each function's own accesses.  This sums them per
function, divides by the rounds, and prints the table with the ratio of
the case the article says is better to the other, and the verdict:
    python3 tools/cachegrind-hotcold.py cachegrind.out bench-output.txt
(the second file is the program's stdout: its "cachegrind:" line gives
the rounds and sizes).  Exit status 1 when a figure is missing, or the
simulated LL is not the one the program laid its working set out for;
a goal not met is a figure, printed as such, not a failure.
"""
import collections
import re
import sys

# (label, the better case's function, the other's, the cases, the cache W fills)
ROWS = []
for ws in ("D1", "LL"):
    ROWS += [
        ("(a) write the page handed out", "a_hot_write_" + ws, "a_cold_write_" + ws,
         "hot page (H) / cold page (C)", ws),
        ("(a) then read the working set", "a_hot_ws_" + ws, "a_cold_ws_" + ws,
         "after writing H / after writing C", ws),
        ("(b) CPU's next page written", "b_cold_write_" + ws, "b_hot_write_" + ws,
         "device got C (__GFP_COLD) / device got H", ws),
        ("(b) then read the working set", "b_cold_ws_" + ws, "b_hot_ws_" + ws,
         "device got C / device got H", ws),
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
    ok = True
    print("\nthe article's hot/cold claim in simulated cache misses (cachegrind, "
          "misses per round, %d rounds)" % rounds)
    for d in desc:
        if re.match(r"(I1|D1|LL) cache", d):
            print("  " + re.sub(r"\s+", " ", d))
    print("  working set W %d KiB (D1 rows) or %d KiB (LL rows), 'time passes' sweep %d KiB,"
          " page %d B" % (int(info["ws_D1"]) >> 10, int(info["ws_LL"]) >> 10,
                          int(info["sweep"]) >> 10, int(info["page"])))
    # The LL rows' working set is laid out for one way of the LL the
    # program was built for: say so if cachegrind simulated another.
    for d in desc:
        m = re.match(r"LL cache:\s*(\d+) B, \d+ B, (\d+)-way", d)
        if m and int(m.group(1)) // int(m.group(2)) != int(info["ll_way"]):
            print("  warning: LL way is %d B, the program assumed %s B: the LL rows"
                  " do not fill LL as described" % (int(m.group(1)) // int(m.group(2)),
                                                   info["ll_way"]))
            ok = False
    print("  %-31s | %-2s | %-41s | %-27s | %-27s | %s"
          % ("measure", "ws", "better case / other case", "D1 misses, ratio",
             "LL misses, ratio", "goal: better case fewer"))
    for label, better, other, cases, ws in ROWS:
        if better not in totals or other not in totals:
            print("  %-31s | %-2s | missing from %s" % (label, ws, sys.argv[1]))
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
        print("  %-31s | %-2s | %-41s | %s | %s | %s"
              % (label, ws, cases, cell(*d1), cell(*ll), verdict))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
