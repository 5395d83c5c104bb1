#!/usr/bin/env python3
"""make grade: boots a lab's graded tests and scores them.

    tools/grade.py [--lab NAME|all] [--seeds 1,2,3] [--kernel ELF]
                   [--extra DIR] [--json FILE] [--text FILE]

Each graded test is a ktest case named in labs/NAME/lab.conf with its
points.  The grader boots the kernel under QEMU (TCG) with
ktest.filter=<the graded cases> and a fixed ktest.seed, reads the KTAP
report from the serial log, and prints one line per test with its points,
then "Score: N/M".  A case scores its points when it reports ok, and 0
when it fails, is skipped, or never reports.  When the kernel stops in a
case (a panic, a BUG, its time limit: ktest prints "ktest: the kernel
stopped in case S.C") or the boot outlives its time limit, that case and
every graded case after it score 0, and the line says which case was
running.

A teacher's hidden tests (--extra DIR, make grade GRADE_EXTRA=DIR) are
ktest suites in DIR/*.c, built into the kernel by make, and DIR/grade.conf
with the same directives as a lab.conf (title and test lines at least);
they are graded after the lab's own and marked "hidden".

With several seeds (--seeds 1,2,3), every seed is booted and the scores
must agree; a test whose result depends on the seed is named.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import asdict, dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ktap  # noqa: E402
import labtree  # noqa: E402
import machine  # noqa: E402
import runner  # noqa: E402

FILTER_LIMIT = 1000  # characters of the command line's filters per boot
PARAM_LIMIT = 250  # characters of "ktest.filter=..." (a parameter: 255)
STOPPED_RES = [
    re.compile(r"ktest: the kernel stopped in case (\w+\.\w+)"),
    re.compile(r"ktest: case (\w+\.\w+) exceeded its time limit"),
]
DEATH_RE = re.compile(r"(Kernel panic - .*|BUG: .*|general protection.*|"
                      r"ktest: case \S+ exceeded .*)")
DEFAULT_SEED = 1


@dataclass
class Result:
    name: str
    points: int
    max: int
    status: str  # ok, failed, skipped, stopped, not run
    message: str = ""
    hidden: bool = False


@dataclass
class Boot:
    """One graded boot: tests of one or more labs with the same machine."""

    labs: list[str]
    tests: list[labtree.Test]
    qemu: list[str]
    append: str
    timeout: float
    seed: int

    @property
    def cmdline(self) -> str:
        """ktest.filter= parameters (their globs add up), the seed."""
        parts, cur = [], ""
        for t in self.tests:
            if cur and len("ktest.filter=") + len(cur) + 1 + len(t.name) \
                    > PARAM_LIMIT:
                parts.append(f"ktest.filter={cur}")
                cur = ""
            cur = f"{cur},{t.name}" if cur else t.name
        parts += [f"ktest.filter={cur}", f"ktest.seed={self.seed}"]
        if self.append:
            parts.append(self.append)
        return " ".join(parts)


@dataclass
class LabGrade:
    lab: str
    title: str
    seed: int
    results: list[Result] = field(default_factory=list)
    boot: list[str] = field(default_factory=list)  # how each boot ended

    @property
    def score(self) -> int:
        return sum(r.points for r in self.results)

    @property
    def max(self) -> int:
        return sum(r.max for r in self.results)


def fits(boot: Boot, lab: labtree.Lab, test: labtree.Test) -> bool:
    """Whether test of lab can join boot."""
    if boot.qemu != lab.qemu or boot.append != lab.append:
        return False
    trial = dataclasses.replace(boot, tests=boot.tests + [test])
    return len(trial.cmdline) <= FILTER_LIMIT


def plan(labs: list[labtree.Lab], seed: int) -> list[Boot]:
    """The boots that run labs' tests, in the manifests' order: labs with
    the same QEMU options and command line share a boot while the filter
    fits."""
    boots: list[Boot] = []
    for lab in labs:
        for t in lab.tests:
            if not boots or not fits(boots[-1], lab, t):
                boots.append(Boot([], [], list(lab.qemu), lab.append, 0.0,
                                  seed))
            boot = boots[-1]
            if lab.name not in boot.labs:
                boot.labs.append(lab.name)
                boot.timeout += lab.timeout
            boot.tests.append(t)
    return boots


def first_message(case: ktap.Case) -> str:
    """The first failure a case printed, on one line: the header, then
    what it says up to the next failure (at most three lines)."""
    lines = [d.lstrip("#").strip() for d in case.diagnostics]
    lines = [re.sub(r"^\w+: ", "", d, count=1) for d in lines if d]
    for i, d in enumerate(lines):
        if "EXPECTATION FAILED" in d or "ASSERTION FAILED" in d:
            more = []
            for m in lines[i + 1:i + 4]:
                if "FAILED" in m or m.startswith("...") or "held back" in m:
                    break
                more.append(m)
            return f"{d}: {'; '.join(more)}" if more else d
    return " ".join(lines[:2]) if lines else "not ok"


def stopped_case(log: str) -> str | None:
    found = None
    for line in runner.log_lines(log):
        for r in STOPPED_RES:
            m = r.search(line)
            if m:
                found = found or m.group(1)
    return found


def death_line(log: str) -> str:
    for line in runner.log_lines(log):
        m = DEATH_RE.search(runner.strip_timestamp(line))
        if m:
            return m.group(1).strip()
    return ""


def score_boot(boot: Boot, outcome: runner.Outcome,
               hidden: set[str]) -> tuple[list[Result], str]:
    """Each test's result, and how the boot ended."""
    report = ktap.parse(outcome.log)
    cases = {}
    for suite in report.suites:
        for case in suite.cases:
            cases[f"{suite.name}.{case.name}"] = case
    stopped = stopped_case(outcome.log)
    timed_out = outcome.timed_out_after is not None
    if outcome.start_error:
        ended = f"QEMU did not start: {outcome.start_error}"
    elif timed_out:
        ended = f"no verdict within {outcome.timed_out_after:.0f} s"
    elif stopped:
        ended = f"the kernel stopped in {stopped}"
    else:
        ended = runner.describe_exit(outcome.returncode)
    # A report without its totals line ended early: the first graded case
    # that never reported was running (the manifest lists the cases in the
    # order they run, which make test-labs checks).
    running = stopped
    if running is None and (report.totals is None or timed_out):
        running = next((t.name for t in boot.tests if t.name not in cases),
                       None)
    if running and not timed_out and not outcome.start_error:
        ended = f"the kernel stopped in {running}"
    results = []
    for t in boot.tests:
        r = Result(t.name, 0, t.points, "not run", hidden=t.name in hidden)
        case = cases.get(t.name)
        if case is not None:
            if case.status == ktap.OK:
                r.points, r.status = t.points, "ok"
            elif case.status == ktap.SKIP:
                r.status, r.message = "skipped", case.directive or "skipped"
            else:
                r.status, r.message = "failed", first_message(case)
        elif t.name == running:
            r.status = "stopped"
            if timed_out:
                r.message = f"running when the boot timed out ({ended})"
            else:
                r.message = ("the kernel stopped in this case: "
                             + (death_line(outcome.log) or ended))
        elif running:
            r.message = f"not run: {ended}" if timed_out else \
                f"not run: the kernel stopped in {running}"
        else:
            r.message = f"not run: the boot never reported it ({ended})"
        results.append(r)
    return results, ended


def run_boot(boot: Boot, kernel: str, qemu: str, logs: str, name: str,
             registry: runner.ProcessRegistry,
             scale: float) -> runner.Outcome:
    rb = runner.Boot(name, "elf", tuple(boot.qemu), boot.cmdline, "pass",
                     boot.timeout * scale)
    log = os.path.join(logs, name + ".log")
    cmd = runner.build_command(rb, qemu, machine.Images(kernel=kernel),
                               machine.Firmware(), log, None)
    with open(os.path.join(logs, name + ".cmd"), "w", encoding="utf-8") as f:
        f.write(shlex.join(cmd) + "\n")
    out = runner.run_qemu(cmd, log, rb.timeout, registry)
    return out if out is not None else runner.Outcome(
        None, "", start_error="interrupted")


def grade(labs: list[labtree.Lab], kernel: str, seed: int, logs: str, *,
          qemu: str = "qemu-system-i386", jobs: int = 2,
          hidden: set[str] | None = None, tag: str = "grade",
          scale: float = 1.0) -> list[LabGrade]:
    """Boots and scores labs' tests under one seed."""
    os.makedirs(logs, exist_ok=True)
    boots = plan(labs, seed)
    registry = runner.ProcessRegistry()
    names = [f"{tag}-{'+'.join(b.labs)}-seed{seed}-{i}"
             for i, b in enumerate(boots)]
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        outcomes = list(pool.map(
            lambda ib: run_boot(ib[1], kernel, qemu, logs, names[ib[0]],
                                registry, scale), enumerate(boots)))
    grades = {lab.name: LabGrade(lab.name, lab.title, seed) for lab in labs}
    owner = {t.name: lab.name for lab in labs for t in lab.tests}
    for boot, outcome, name in zip(boots, outcomes, names):
        results, ended = score_boot(boot, outcome, hidden or set())
        for r in results:
            grades[owner[r.name]].results.append(r)
        for lab in boot.labs:
            grades[lab].boot.append(f"{name}: {ended} "
                                    f"({outcome.elapsed:.1f} s)")
    return [grades[lab.name] for lab in labs]


def format_grade(g: LabGrade, verbose: bool = True) -> str:
    out = [f"lab {g.lab}: {g.title} (ktest.seed={g.seed})"]
    width = max((len(r.name) for r in g.results), default=10)
    for r in g.results:
        mark = {"ok": "ok", "failed": "FAIL", "skipped": "SKIP",
                "stopped": "STOP", "not run": "----"}[r.status]
        line = f"  {mark:4} {r.points:3}/{r.max:<3} {r.name:{width}}"
        if r.hidden:
            line += " (hidden)"
        if r.message and verbose:
            line += f"  {r.message[:160]}"
        out.append(line.rstrip())
    out.append(f"Score: {g.score}/{g.max}")
    return "\n".join(out)


def load_labs(root: str, names: list[str],
              extra: str | None) -> tuple[list[labtree.Lab], set[str]]:
    """The labs, and the hidden tests of extra as one more "lab": named
    LAB-hidden when one lab is graded (merge_hidden folds it in)."""
    labs = [labtree.load_lab(root, n) for n in names]
    if not extra:
        return labs, set()
    xl = labtree.load_lab(root, "hidden",
                          conf=os.path.join(extra, "grade.conf"))
    if len(labs) == 1:
        xl.name = labs[0].name + "-hidden"
    return labs + [xl], {t.name for t in xl.tests}


def merge_hidden(grades: list[LabGrade]) -> list[LabGrade]:
    """Folds a lab's hidden tests into its own grade."""
    out: list[LabGrade] = []
    for g in grades:
        base = g.lab[:-len("-hidden")] if g.lab.endswith("-hidden") else None
        target = next((o for o in out if o.lab == base), None)
        if target:
            target.results += g.results
            target.boot += g.boot
        else:
            out.append(g)
    return out


def version(root: str) -> str:
    try:
        return subprocess.run(["git", "-C", root, "describe", "--always",
                               "--dirty"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".")
    ap.add_argument("--lab", help="the lab (default: the student tree's, "
                    "from .mm86-lab); 'all' grades every lab")
    ap.add_argument("--kernel", default="build/mm86.elf")
    ap.add_argument("--seeds", default=str(DEFAULT_SEED),
                    help="comma-separated ktest seeds (default: %(default)s)")
    ap.add_argument("--extra", help="a directory of hidden tests")
    ap.add_argument("--logs", default="build/grade")
    ap.add_argument("--json", default="build/grade.json")
    ap.add_argument("--text", default="build/grade.txt")
    ap.add_argument("--qemu", default="qemu-system-i386")
    ap.add_argument("--jobs", type=int, default=runner.default_jobs())
    ap.add_argument("--timeout-scale", type=float, default=1.0,
                    help="multiply every boot's time limit")
    args = ap.parse_args(argv)
    root = args.root
    try:
        name = args.lab or open(os.path.join(root, labtree.LAB_FILE),
                                encoding="utf-8").read().strip()
    except OSError:
        print("grade: no lab given: make grade LAB=NAME (this is not a "
              f"student tree: it has no {labtree.LAB_FILE}); the labs: "
              f"{' '.join(labtree.lab_names(root))}", file=sys.stderr)
        return 2
    names = labtree.lab_names(root) if name == "all" else [name]
    try:
        seeds = [int(s) for s in args.seeds.replace(" ", ",").split(",")
                 if s]
        if not seeds:
            raise ValueError
    except ValueError:
        print(f"grade: --seeds {args.seeds!r}: want numbers like 1,2,3",
              file=sys.stderr)
        return 2
    try:
        labs, hidden = load_labs(root, names, args.extra)
    except labtree.LabError as e:
        print(f"grade: {e}", file=sys.stderr)
        return 2
    if not os.path.isfile(args.kernel):
        print(f"grade: no kernel {args.kernel}: build it first (make)",
              file=sys.stderr)
        return 2
    scale = args.timeout_scale * max(1.0, min(args.jobs, len(labs))
                                     / runner.default_jobs())
    per_seed = []
    for seed in seeds:
        per_seed.append(merge_hidden(grade(
            labs, args.kernel, seed, args.logs, qemu=args.qemu,
            jobs=args.jobs, hidden=hidden, scale=scale)))
    text = []
    for g in per_seed[0]:
        text.append(format_grade(g))
        if hidden and any(r.hidden for r in g.results):
            text.append(f"  (hidden: {sum(r.hidden for r in g.results)} "
                        f"of these tests are your teacher's)")
    if len(per_seed[0]) > 1:
        total = sum(g.score for g in per_seed[0])
        most = sum(g.max for g in per_seed[0])
        text.append(f"Score: {total}/{most} (all labs)")
    agree = True
    for seed, grades in zip(seeds[1:], per_seed[1:]):
        for g0, g in zip(per_seed[0], grades):
            diff = [r.name for r0, r in zip(g0.results, g.results)
                    if r0.points != r.points]
            if diff:
                agree = False
                text.append(f"seed {seed}: lab {g.lab} scores {g.score}/"
                            f"{g.max}, not {g0.score}: {' '.join(diff)} "
                            f"depend on the seed")
    if len(seeds) > 1 and agree:
        text.append(f"the scores agree on seeds "
                    f"{', '.join(map(str, seeds))}")
    print("\n".join(text))
    for path, data in ((args.text, "\n".join(text) + "\n"),
                       (args.json, json.dumps({
                           "version": version(root),
                           "kernel": args.kernel,
                           "seeds": seeds,
                           "agree": agree,
                           "labs": [[dict(asdict(g), score=g.score,
                                          max=g.max) for g in grades]
                                    for grades in per_seed],
                       }, indent=2) + "\n")):
        if path:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(data)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
