#!/usr/bin/env python3
"""Checks that read the boot matrix's logs: make test runs them after the
boots (tools/runner.py --post-check), and their counts join its total.

Golden checks of the snapshot parser (tools/mmsnap.py) on the fixed
configurations mem16 (-m 16M), memmap (memmap=64M$256M memmap=1M$16M) and
numafake2 (numa=fake=2), for each of them that this run booted:
  - the physical map the parser reads (e820 ranges, memblock memory,
    nodes, zones less their managed counts) equals the golden one in
    tests/mmsnap-golden.txt;
  - relations for what changes with every build: the kernel image lies in
    usable RAM, mem_map inside the memblock reservations, the page-state
    map's K and M pages inside them; each snapshot parses without error,
    its runs add up to max_pfn, and per zone the free pages of each order
    in the map equal the free line's block count times 2^order (in a
    test's own snapshot, case:..., at least that many: a test may run a
    private zone over pages it holds, whose free pages the map shows but
    no free line counts); the zones
    lie in their nodes and add up to them; numafake2 has two nodes that
    split RAM between them.

The browser test: tools/report.py renders a page from those logs (and one
boot's that stops on purpose, without snapshots), headless Chromium
(Debian's chromium) loads it, its screenshot must not be blank (more than
one colour), and its DOM must hold every suite of the logs' KTAP reports
and an <img> for each picture, each of which must exist as a PNG file.
A missing chromium fails the test, naming the package.

    postboot_checks.py --logs build/logs [--only GLOB] [--work DIR]

The last line printed is "N passed, N failed".  Checks of boots that the
run did not select (--only) are left out.  When they all passed before on
the same logs, with the same tree, toolchain and browser, the recorded
verdict is printed and counted instead, with a line "reused N"
(tools/verdicts.py); --force runs them.
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import ktap  # noqa: E402
import mmsnap  # noqa: E402
import verdicts  # noqa: E402

GOLDEN_BOOTS = ("mem16", "memmap", "numafake2")
MUST_FAIL_SAMPLE = "panic"  # a boot that stops on purpose, no snapshots
BROWSER = "chromium"
PAGE = 4096


class Checks:
    def __init__(self) -> None:
        self.passed = self.failed = 0
        self.lines: list[str] = []

    def check(self, name: str, problems: list[str]) -> bool:
        if problems:
            self.failed += 1
            print(f"FAIL {name}")
            for p in problems[:12]:
                for line in str(p).splitlines():
                    print(f"    {line}")
            if len(problems) > 12:
                print(f"    ... and {len(problems) - 12} more")
        else:
            self.passed += 1
            self.lines.append(f"PASS {name}")
            print(f"PASS {name}")
        return not problems


# -- golden checks ---------------------------------------------------------


def canonical_map(pm: mmsnap.PhysMap) -> list[str]:
    """The build-independent part of a physical map, as text lines."""
    out = [f"e820 {s:#x} {e:#x} {t}" for s, e, t in pm.e820]
    out += [f"memblock memory {s:#x} {e:#x} {nid}" for s, e, nid in pm.memory]
    out += [f"node {n.nid} {n.start_pfn} {n.end_pfn} present={n.present}"
            for n in pm.nodes]
    out += [f"zone {z.nid} {z.name} {z.start_pfn} {z.end_pfn} "
            f"present={z.present}" for z in pm.zones]
    return out


def read_golden(path: str) -> dict[str, list[str]]:
    """[NAME] sections of expected lines; '#' starts a comment line."""
    out: dict[str, list[str]] = {}
    cur = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.fullmatch(r"\[(\S+)\]", line)
            if m:
                cur = out.setdefault(m.group(1), [])
            elif cur is not None:
                cur.append(" ".join(line.split()))
    return out


def covered(ranges: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether the union of ranges covers [start, end)."""
    pos = start
    for s, e in sorted(ranges):
        if s <= pos < e:
            pos = e
        if pos >= end:
            return True
    return pos >= end


def relation_problems(name: str, result: mmsnap.Result) -> list[str]:
    snaps = result.snapshots
    first = snaps[0]
    pm = first.physmap
    out = [f"mmsnap: {e}" for e in result.errors]
    if pm is None or not first.own_physmap:
        return out + ["the first snapshot is not SEQ 0 with the map"]
    usable = [(s, e) for s, e, t in pm.e820 if t == "usable"]
    memory = [(s, e) for s, e, _ in pm.memory]
    if pm.kernel is None or not (covered(usable, *pm.kernel)
                                 and covered(memory, *pm.kernel)):
        out.append(f"kernel {pm.kernel} not inside usable RAM (e820 usable "
                   f"and memblock memory)")
    if not pm.mem_map:
        out.append("no mem_map line")
    for piece in pm.mem_map:
        if not covered(pm.reserved, *piece):
            out.append(f"mem_map piece {piece[0]:#x}-{piece[1]:#x} not "
                       f"inside the memblock reservations")
    if pm.kernel and not covered(pm.reserved, *pm.kernel):
        out.append(f"kernel {pm.kernel} not inside the memblock reservations")
    max_pfn = first.max_pfn
    for n in pm.nodes:
        zones = [z for z in pm.zones if z.nid == n.nid]
        if any(z.start_pfn < n.start_pfn or z.end_pfn > n.end_pfn
               for z in zones):
            out.append(f"a zone of node {n.nid} lies outside it")
        if sum(z.present for z in zones) != n.present:
            out.append(f"node {n.nid}: present={n.present}, its zones' "
                       f"present add up to {sum(z.present for z in zones)}")
    ram_pages = sum((e >> 12) - ((s + PAGE - 1) >> 12) for s, e in memory
                    if e >> 12 > (s + PAGE - 1) >> 12 and s >> 12 < max_pfn)
    if sum(n.present for n in pm.nodes) != ram_pages:
        out.append(f"the nodes' present pages add up to "
                   f"{sum(n.present for n in pm.nodes)}, memblock memory "
                   f"below max_pfn holds {ram_pages}")
    for s in snaps:
        where = f"snapshot {s.seq} ({s.label})"
        if not s.complete or not s.map_ok:
            out.append(f"{where}: not whole (see the mmsnap errors)")
            continue
        if s.max_pfn != max_pfn:
            out.append(f"{where}: max_pfn {s.max_pfn}, snapshot 0 said "
                       f"{max_pfn}")
        for code, ranges in (("K", [pm.kernel] if pm.kernel else []),
                             ("M", pm.mem_map)):
            total = mmsnap.state_counts(s.runs).get(code, 0)
            if not ranges or not total:
                out.append(f"{where}: no {code} pages in the page map")
                continue
            inside = sum(mmsnap.state_counts(
                s.runs, lo >> 12, (hi + PAGE - 1) >> 12).get(code, 0)
                for lo, hi in ranges)
            if inside != total:
                out.append(f"{where}: {total - inside} {code} pages outside "
                           + ", ".join(f"{lo:#x}-{hi:#x}"
                                       for lo, hi in ranges))
        for z in pm.zones:
            counts = s.free.get((z.nid, z.name))
            if counts is None:
                out.append(f"{where}: no free line for node {z.nid} {z.name}")
                continue
            by_map = mmsnap.free_pages_by_order(s.runs, z.start_pfn,
                                                z.end_pfn)
            by_line = [c << k for k, c in enumerate(counts)]
            # A test's snapshot may show pages of a private zone of the
            # test's own (buddy.random_stress), free in its buddy lists
            # but not in the zone's: there the map may hold more.
            own = s.label.startswith("case:")
            if by_map != by_line and not (own and all(
                    m >= n for m, n in zip(by_map, by_line))):
                out.append(f"{where}: node {z.nid} {z.name}: free pages by "
                           f"order in the map {by_map}, the free line says "
                           f"{by_line}")
    if name == "numafake2":
        nodes = sorted(pm.nodes, key=lambda n: n.start_pfn)
        if [n.nid for n in nodes] != [0, 1]:
            out.append(f"numa=fake=2: nodes {[n.nid for n in nodes]}, "
                       f"expected 0 and 1")
        elif not (nodes[0].end_pfn == nodes[1].start_pfn
                  and nodes[1].end_pfn == max_pfn
                  and nodes[0].start_pfn == 0
                  and min(n.present for n in nodes) > ram_pages // 4):
            out.append(f"numa=fake=2: the nodes {nodes} do not split RAM "
                       f"(0..{max_pfn}) between them")
        for s, e, nid in pm.memory:
            owner = [n.nid for n in nodes
                     if n.start_pfn <= s >> 12 and (e + PAGE - 1) >> 12
                     <= n.end_pfn]
            if owner != [nid]:
                out.append(f"memblock memory {s:#x}-{e:#x} says node {nid}, "
                           f"the nodes say {owner}")
    return out


def golden_checks(checks: Checks, logs: str, names: list[str],
                  golden: dict[str, list[str]]) -> None:
    for name in names:
        path = os.path.join(logs, name + ".log")
        try:
            result = mmsnap.parse_file(path)
        except OSError as e:
            checks.check(f"golden {name}: read {path}", [e.strerror])
            continue
        if not result.snapshots:
            checks.check(f"golden {name}: snapshots in {path}",
                         ["no snapshot in the log"])
            continue
        pm = result.snapshots[0].physmap
        got = canonical_map(pm) if pm else []
        want = golden.get(name, [])
        diff = list(difflib.unified_diff(want, got, "golden", "log",
                                         lineterm="", n=1))
        checks.check(f"golden {name}: physical map equals "
                     f"tests/mmsnap-golden.txt [{name}]",
                     ["no golden section"] if not want else
                     ["\n".join(diff)] if diff else [])
        checks.check(f"golden {name}: relations ({len(result.snapshots)} "
                     f"snapshots)", relation_problems(name, result))


# -- the browser test ------------------------------------------------------


def png_size(path: str) -> tuple[int, int] | None:
    """(width, height) of a PNG file, None when it is not one."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def colours(path: str) -> int:
    """How many distinct colours a PNG holds (matplotlib reads it)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image
    import numpy as np
    img = matplotlib.image.imread(path)
    flat = (img.reshape(-1, img.shape[-1]) * 255).astype(np.uint8)
    return len(np.unique(flat.view(np.dtype((np.void, flat.shape[1])))))


def browser_test(checks: Checks, logs: list[tuple[str, str]],
                 work: str) -> None:
    name = f"browser: report of {', '.join(n for n, _ in logs)} in chromium"
    browser = shutil.which(BROWSER)
    if browser is None:
        checks.check(name, [f"{BROWSER} not found: install Debian's "
                            f"{BROWSER} (make deps DEPS_FOR=test)"])
        return
    if os.path.isdir(work):
        shutil.rmtree(work)
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "report.py"), "--out", work,
         "--jobs", "2"] + [path for _, path in logs],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    made = time.monotonic() - start
    out = proc.stdout.decode(errors="replace")
    index = os.path.join(work, "index.html")
    if proc.returncode != 0 or not os.path.exists(index):
        checks.check(name, [f"tools/report.py failed (exit "
                            f"{proc.returncode}):", out])
        return
    url = "file://" + os.path.abspath(index)
    shot = os.path.join(work, "screenshot.png")
    problems = []
    with tempfile.TemporaryDirectory(prefix="mm86-chromium-") as profile:
        base = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--hide-scrollbars",
                f"--user-data-dir={profile}", "--window-size=1280,1600"]
        try:
            subprocess.run(base + [f"--screenshot={os.path.abspath(shot)}",
                                   url], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=90)
            dom = subprocess.run(base + ["--dump-dom", url],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, timeout=90)
        except subprocess.TimeoutExpired:
            checks.check(name, ["chromium did not finish within 90 s"])
            return
    html = dom.stdout.decode(errors="replace")
    if png_size(shot) is None:
        problems.append(f"no screenshot PNG at {shot}")
    else:
        n = colours(shot)
        if n < 2:
            problems.append(f"the screenshot {shot} is blank ({n} colour)")
    if "</html>" not in html:
        problems.append("--dump-dom printed no page")
    for boot, path in logs:
        with open(path, "rb") as f:
            text = f.read().decode(errors="replace")
        report = ktap.parse(text)
        for suite in report.suites:
            cell = f"<td>{suite.display_name()}</td>"
            bad = f'<td class="fail">{suite.display_name()}</td>'
            if cell not in html and bad not in html:
                problems.append(f"{boot}: suite {suite.display_name()} not "
                                f"in the DOM")
        if not report.found and "No KTAP results in this log." not in html:
            problems.append(f"{boot}: has no KTAP results, and the page "
                            f"does not say so")
        snapshots = mmsnap.parse(text).snapshots
        wanted = ["physmap", "pages", "frag", "slab"] if snapshots else []
        if not snapshots and "No snapshots in this log." not in html:
            problems.append(f"{boot}: has no snapshots, and the page does "
                            f"not say so")
        for pic in wanted:
            src = f"{boot}/{pic}.png"
            if f'<img src="{src}"' not in html:
                problems.append(f"{boot}: no <img> for {src} in the DOM")
            if png_size(os.path.join(work, src)) is None:
                problems.append(f"{boot}: {src} is missing or not a PNG")
    for src in re.findall(r'<img src="([^"]+)"', html):
        if png_size(os.path.join(work, src)) is None:
            problems.append(f"<img src={src}>: missing or not a PNG")
    took = time.monotonic() - start
    checks.check(f"{name} (report {made:.1f} s, all {took:.1f} s)", problems)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", default="build/logs")
    ap.add_argument("--only", default="*", help="the boots' glob of the run")
    ap.add_argument("--golden", default=os.path.join(ROOT, "tests",
                                                     "mmsnap-golden.txt"))
    ap.add_argument("--work", default="build/report-check")
    ap.add_argument("--force", action="store_true",
                    help="run the checks even when they passed before on "
                         "the same logs and inputs (tools/verdicts.py)")
    args = ap.parse_args(argv)
    from report import reexec_under_debian_python
    reexec_under_debian_python(sys.argv[1:] if argv is None else argv,
                               __file__)
    # The checks passed before on these very logs, with the same tree
    # (parser, report, goldens), toolchain and browser: reuse the verdict
    # (tools/verdicts.py), unless --force.
    read = [os.path.abspath(os.path.join(args.logs, n + ".log"))
            for n in GOLDEN_BOOTS + (MUST_FAIL_SAMPLE,)
            if fnmatch.fnmatchcase(n, args.only)]
    store = verdicts.Store(ROOT, "build", verdicts.inputs_digest(
        ROOT, [p for p in read if os.path.exists(p)], [BROWSER]),
        args.force)
    item = f"postboot {args.only} {args.golden} " + " ".join(
        p for p in read if os.path.exists(p))
    record = store.get(item)
    if record:
        for line in record["lines"]:
            print(f"{line}  (reused)")
        print(f"postboot: reused, recorded {record['recorded']} with the "
              f"same logs and inputs (FORCE=1 runs them)")
        print(f"reused {record['passed']}")
        print(f"{record['passed']} passed, 0 failed")
        return 0
    checks = Checks()
    ran = [n for n in GOLDEN_BOOTS if fnmatch.fnmatchcase(n, args.only)]
    try:
        golden = read_golden(args.golden)
    except OSError as e:
        checks.check(f"read {args.golden}", [e.strerror])
        golden = {}
    start = time.monotonic()
    golden_checks(checks, args.logs, ran, golden)
    if ran:
        print(f"golden checks: {time.monotonic() - start:.1f} s")
    sample = ran + [n for n in (MUST_FAIL_SAMPLE,)
                    if fnmatch.fnmatchcase(n, args.only)]
    logs = [(n, os.path.join(args.logs, n + ".log")) for n in sample
            if os.path.exists(os.path.join(args.logs, n + ".log"))]
    if ran and len(logs) < len(ran):
        checks.check("browser: the golden boots' logs", ["some are missing"])
    elif logs:
        browser_test(checks, logs, args.work)
    line = f"{checks.passed} passed, {checks.failed} failed"
    print(line)
    if checks.failed == 0 and checks.passed:
        store.put(item, {"lines": checks.lines, "passed": checks.passed})
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
