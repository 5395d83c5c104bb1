#!/usr/bin/env python3
"""make fuzz-long: runs each libFuzzer target long, then reports coverage.

    tools/fuzz-long.py --seconds S [--runs N] --corpus DIR --work DIR
                       --cov DIR TARGET...

Each target runs alone (one at a time, under nice -n 19: the machine is
shared) for S seconds, or until N inputs when N > 0, from the seeds in
CORPUS/TARGET and what earlier runs kept in WORK/corpus-TARGET (new inputs
go there, never into the repository).  A crash or a failed check stops the
target; libFuzzer writes the input to WORK/crash-*, and this prints how to
keep it as a regression seed.

Then, for each target, the coverage build (COV/fuzz_TARGET: clang's
-fprofile-instr-generate -fcoverage-mapping) runs every input of both
corpora once; llvm-profdata merges the profile and llvm-cov reports, per
parser file of that target (PARSER_FILES), the lines and branches covered.
The table printed last has, per target, the inputs run, inputs a second,
the verdict and the coverage of each of its files.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

# The files each target is there to exercise (coverage is reported for these).
PARSER_FILES = {
    "e820": ["mm/e820.c", "mm/e820_user.c"],
    "alloc": ["mm/page_alloc.c", "mm/slab.c", "mm/mempool.c"],
    "multiboot": ["kernel/multiboot.c"],
    "multiboot2": ["kernel/multiboot2.c"],
    "acpi": ["arch/x86/acpi.c", "arch/x86/acpi_print.c",
             "arch/x86/acpi_layout.c", "mm/numa.c"],
    "cmdline": ["kernel/cmdline.c", "mm/e820_user.c"],
}
STAT_RE = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)
ARTIFACT_RE = re.compile(r"Test unit written to (\S+)")


def fuzz(binary, target, seconds, runs, corpus, work):
    scratch = os.path.join(work, "corpus-" + target)
    os.makedirs(scratch, exist_ok=True)
    cmd = ["nice", "-n", "19", binary, f"-max_total_time={seconds}",
           "-print_final_stats=1", "-close_fd_mask=1",
           f"-artifact_prefix={work}/", scratch, os.path.join(corpus, target)]
    if runs:
        cmd.insert(4, f"-runs={runs}")
    print(f"fuzz_{target}: {' '.join(cmd[3:])}", flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    out = proc.stdout.decode(errors="replace")
    stats = {k: int(v) for k, v in STAT_RE.findall(out)}
    ok = proc.returncode == 0
    if not ok:
        print("\n".join("    " + line for line in out.splitlines()[-30:]))
        for path in ARTIFACT_RE.findall(out):
            print(f"    keep it: cp {path} {corpus}/{target}/crash-NAME, "
                  f"fix the bug, commit both")
    return ok, stats


def coverage(cov_dir, target, corpus, work):
    binary = os.path.join(cov_dir, "fuzz_" + target)
    files = PARSER_FILES.get(target, [])
    if not os.path.exists(binary) or not files:
        return {}
    raw = os.path.join(cov_dir, target + ".profraw")
    data = os.path.join(cov_dir, target + ".profdata")
    dirs = [d for d in (os.path.join(work, "corpus-" + target),
                        os.path.join(corpus, target)) if os.path.isdir(d)]
    subprocess.run([binary, "-runs=0", "-close_fd_mask=3"] + dirs,
                   env=dict(os.environ, LLVM_PROFILE_FILE=raw),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["llvm-profdata", "merge", "-sparse", "-o", data, raw],
                   check=True)
    out = subprocess.run(["llvm-cov", "report", binary,
                          f"-instr-profile={data}"] + files,
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    return parse_report(out)


def parse_report(out: str) -> dict:
    """file -> (lines %, branches %) from llvm-cov report's table."""
    header = None
    result = {}
    for line in out.splitlines():
        cols = line.split()
        if cols and cols[0] == "Filename":
            header = cols
            continue
        if not header or not cols or line.startswith("-"):
            continue
        pct = [c for c in cols[1:] if c.endswith("%") or c == "-"]
        # Regions, Functions, Lines, Branches: each "Cover" column in order.
        name = os.path.relpath(cols[0]) if cols[0].startswith("/") else cols[0]
        if len(pct) >= 4:
            result[name] = (pct[2], pct[3])
        elif len(pct) == 3:
            result[name] = (pct[2], "-")
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--corpus", default="tests/fuzz/corpus")
    ap.add_argument("--work", default="build/fuzz")
    ap.add_argument("--cov", default="build/fuzz-cov")
    ap.add_argument("targets", nargs="+")
    args = ap.parse_args()

    rows, failed = [], 0
    for t in args.targets:
        ok, stats = fuzz(os.path.join(args.work, "fuzz_" + t), t,
                         args.seconds, args.runs, args.corpus, args.work)
        failed += not ok
        rows.append((t, ok, stats, coverage(args.cov, t, args.corpus,
                                            args.work)))
    print(f"\n{'target':12} {'verdict':8} {'inputs':>12} {'exec/s':>8}  "
          f"{'file':24} {'lines':>7} {'branches':>8}")
    for t, ok, stats, cov in rows:
        first = True
        for f, (lines, branches) in (cov.items() or [("-", ("-", "-"))]):
            lead = (f"{t:12} {'ok' if ok else 'FAILED':8} "
                    f"{stats.get('number_of_executed_units', 0):>12} "
                    f"{stats.get('average_exec_per_sec', 0):>8}") if first \
                else " " * 43
            print(f"{lead}  {f:24} {lines:>7} {branches:>8}")
            first = False
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
