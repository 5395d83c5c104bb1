#!/usr/bin/env python3
"""Instructions per operation from a callgrind profile of bench-host.

bench-host --callgrind runs each hot path COUNT times inside a function
named cg_*; callgrind, collecting only inside those functions, counts
their inclusive instructions.  This prints instructions per operation:
    python3 tools/callgrind-ops.py callgrind.out COUNT
"""
import re
import subprocess
import sys


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          stdout=subprocess.PIPE, check=True).stdout.decode()
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s.*?(cg_\w+)", line)
        if m:
            rows.append((m.group(2), int(m.group(1).replace(",", ""))))
    print("\ninstructions per alloc+free (callgrind, %d operations each)" % count)
    for name, ir in rows:
        print("  %-28s %8.1f" % (name[3:], ir / count))
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
