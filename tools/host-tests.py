#!/usr/bin/env python3
"""Runs mm86's host-side tests and writes their count for the runner.

Today these are the unit tests of the host tools themselves (the KTAP
parser and the boot runner's judging), found as tools/test_*.py.  The
result is printed and written to --counts FILE as one line
"N passed, N failed", which tools/runner.py adds to the boots' total.
"""
import argparse
import os
import sys
import unittest


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counts", help="write 'N passed, N failed' here")
    args = ap.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py",
                                                top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=1, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors)
    passed = result.testsRun - failed - len(result.skipped)
    line = f"{passed} passed, {failed} failed"
    print(f"host: {line}")
    if args.counts:
        with open(args.counts, "w") as f:
            f.write(line + "\n")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
