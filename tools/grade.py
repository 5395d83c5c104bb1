#!/usr/bin/env python3
"""make grade: boots a lab's graded tests and scores them.

    tools/grade.py [--lab NAME|all] [--seeds 1,2,3] [--kernel ELF]
                   [--extra DIR] [--json FILE] [--text FILE]
                   [--results FILE]

Each graded test is a ktest case named in labs/NAME/lab.conf with its
points.  The grader boots the kernel under QEMU (TCG) with
ktest.filter=<the graded cases> and a fixed ktest.seed, reads the KTAP
report from the serial log, and prints one line per test with its points,
then "Score: N/M".  A case scores its points when it reports ok, and 0
when it fails, is skipped, or never reports.  Each line that loses points
ends with the boot's log (build/grade/grade-LAB-seedN-K.log).

Why a case lost its points is quoted from the log in Linux's words:
  - when the kernel stops in a case (a panic, a BUG, an oops, its time
    limit: ktest prints "ktest: the kernel stopped in case S.C") or the
    boot outlives its time limit, that case and every graded case after it
    score 0; the case's line quotes the first line of what stopped it
    (for a CPU exception, "divide error: 0000 [#1] SMP" and the like, with
    the function that faulted), never the panic's "Fatal exception";
  - a kernel that stops or hangs before the first graded case reports
    (during boot) blames no case: every case is "not run" and the line
    says the kernel stopped during boot, quoting why.

Corruption cannot score.  A case after which the kernel finds its own
memory corrupted (ktest's check after each case: "# CASE: CORRUPTION of
..."), or during which it reports corrupted memory (CORRUPTION_REPORTS:
a bad page, overwritten poison or red zones, a double free), fails; and
since a corrupted kernel's other verdicts cannot be trusted, its whole
lab scores 0 (its hidden tests too), with a line quoting the report.  A
report printed outside any case voids every lab of that boot.

A teacher's hidden tests (--extra DIR, make grade GRADE_EXTRA=DIR) are
ktest suites in DIR/*.c, built into the kernel by make, and DIR/grade.conf
with the same directives as a lab.conf (title and test lines at least);
they are graded after the lab's own and marked "hidden".

With several seeds (--seeds 1,2,3), every seed is booted and the scores
must agree; a test whose result depends on the seed is named.

Besides the text (--text) and the whole grade (--json), --results FILE
(default: results.json beside --json) is the grade in the format of
Gradescope's autograders (labs/gradescope/README.md): one test per graded
case with its points, message and log; hidden tests are shown to students
after the due date.
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
# What stops the kernel, in Linux's words: the first of these lines
# printed after the last case that reported is quoted as the cause.
CAUSE_RES = [re.compile(p) for p in (
    r"BUG: .*",  # BUG: unable to handle ..., BUG: Bad page state ...
    r"kernel BUG at .*",
    r"(?:Oops|[a-z][a-z0-9 ()]*): [0-9a-f]{4} \[#\d+\].*",  # a CPU exception
    r"oops while reporting an oops.*",
    r"Kernel panic - not syncing: .*",
)]
# The causes that are CPU exceptions, whose faulting function is named.
OOPS_RES = [re.compile(p) for p in (
    r"BUG: unable to handle ",
    r"BUG: kernel NULL pointer dereference",
    r"(?:Oops|[a-z][a-z0-9 ()]*): [0-9a-f]{4} \[#\d+\]",
)]
# Where an oops says the CPU was, best first: 2.6's "EIP is at" line, its
# "IP: [<addr>] sym", else the call trace's first entry (the EIP's).
EIP_RES = [re.compile(p) for p in (
    r"EIP is at (\S+)",
    r"E?IP: \[<[0-9a-f]+>\] ([^?\s]\S*)",
    r"\s*\[<[0-9a-f]+>\] ([^?\s]\S*)",
)]
# The kernel's reports of corrupted memory (each stops the kernel): a case
# that prints one, or runs while one is printed, cannot score.  ktest's
# own check after each case is CORRUPTION_CHECK_RE, which names the case.
CORRUPTION_REPORTS = [(where, re.compile(p)) for where, p in (
    ("mm/page_check.c", r"BUG: Bad page state in process .*"),
    ("mm/page_check.c", r"BUG: page poison overwritten: .*"),
    ("mm/slab_debug.c", r"BUG: .+: poison overwritten in free object .*"),
    ("mm/slab_debug.c", r"BUG: .+: red zone of free object .* corrupted: .*"),
    ("mm/slab_debug.c",
     r"BUG: .+: red zone (?:before|after) object .* overwritten: .*"),
    ("mm/slab_debug.c", r"BUG: .+: double free of object .*"),
    ("mm/mempool.c",
     r"BUG: mempool: element .* was written while in the reserve: .*"),
    # The graded cases free only what the allocator gave them: a free the
    # slab layer rejects as none of its objects means it handed out memory
    # it does not own (a slab laid past its pages, say).
    ("mm/slab.c", r"BUG: \w+: \S+ is not a slab object"),
    ("mm/slab.c", r"BUG: \w+: \S+ is inside a slab of .* but not the "
                  r"start of an object"),
    ("mm/kmalloc.c", r"BUG: \w+: \S+ is not a live kmalloc object.*"),
)]
CORRUPTION_CHECK_RE = re.compile(r"\s+# (\w+): CORRUPTION of .*")
SUBTEST_RE = re.compile(r"\s+# Subtest: (\w+)")
CASE_RESULT_RE = re.compile(r"\s+(?:not ok|ok) \d+ (\w+)")
ANY_RESULT_RE = re.compile(r"\s*(?:not ok|ok) \d+\b")
DEFAULT_SEED = 1
MESSAGE_MAX = 220  # characters of a test's message on its line
VOIDED = "the kernel was corrupted"


@dataclass
class Result:
    name: str
    points: int
    max: int
    status: str  # ok, failed, skipped, stopped, not run
    message: str = ""
    hidden: bool = False
    log: str = ""  # the boot's serial log
    corrupted: str = ""  # that this case corrupted the kernel: the note
    # that voids its lab


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
    logs: list[str] = field(default_factory=list)  # each boot's log
    corrupted: str = ""  # why the lab scores 0: which case corrupted what

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


def log_text(log: str) -> list[str]:
    """The log's lines, timestamps and trailing blanks stripped."""
    return [runner.strip_timestamp(line).rstrip()
            for line in runner.log_lines(log)]


def after_last_result(lines: list[str]) -> list[str]:
    """What the kernel printed after the last KTAP result line: the
    running case's (or, before any, the boot's) last words."""
    last = max((i for i, line in enumerate(lines)
                if ANY_RESULT_RE.match(line)), default=-1)
    return lines[last + 1:]


def faulting_function(lines: list[str]) -> str:
    """Where the CPU was, from the lines after an oops's first."""
    end = next((i for i, line in enumerate(lines)
                if line.startswith("Kernel panic")), len(lines))
    for r in EIP_RES:
        for line in lines[:end]:
            m = r.match(line)
            if m:
                return m.group(1)
    return ""


def death_line(log: str) -> str:
    """What stopped the kernel, quoted: the first line in Linux's words
    (CAUSE_RES) after the last case that reported, with the function that
    faulted when it is a CPU exception; "" if the log has none."""
    lines = after_last_result(log_text(log))
    for i, line in enumerate(lines):
        if any(r.match(line) for r in CAUSE_RES):
            fn = ""
            if any(r.match(line) for r in OOPS_RES):
                fn = faulting_function(lines[i + 1:])
            return f"{line.strip()} (EIP is at {fn})" if fn else line.strip()
    return ""


def corruption_reports(log: str) -> tuple[dict[str, str], list[str]]:
    """The log's reports of corrupted memory: {SUITE.CASE: the first one
    it printed or ran under} (ktest's check after the case names it; a
    kernel report belongs to the case whose result follows it), and the
    reports printed after the last result (the running case's, or the
    boot's)."""
    found: dict[str, str] = {}
    pending: list[str] = []
    suite = None
    for line in log_text(log):
        m = SUBTEST_RE.match(line)
        if m:
            suite = m.group(1)
            continue
        m = CORRUPTION_CHECK_RE.match(line)
        if m and suite:
            found.setdefault(f"{suite}.{m.group(1)}", line.strip())
            continue
        if any(r.match(line) for _, r in CORRUPTION_REPORTS):
            pending.append(line.strip())
            continue
        m = CASE_RESULT_RE.match(line)
        if m and suite and pending:
            found.setdefault(f"{suite}.{m.group(1)}", pending[0])
            pending = []
    return found, pending


def ending(boot: Boot, outcome: runner.Outcome, report: ktap.Report,
           cases: dict[str, ktap.Case]) -> tuple[str, str | None]:
    """How the boot ended, and the graded case that was running when it
    stopped: None if none was, "" if it stopped during boot, before the
    KTAP report reached any graded case."""
    timed_out = outcome.timed_out_after is not None
    if outcome.start_error:
        return f"QEMU did not start: {outcome.start_error}", None
    if timed_out:
        ended = f"no verdict within {outcome.timed_out_after:.0f} s"
    else:
        ended = runner.describe_exit(outcome.returncode)
    stopped = stopped_case(outcome.log)
    unfinished = report.totals is None or timed_out
    if stopped is None and unfinished and not report.suites:
        cause = death_line(outcome.log)
        if timed_out:
            last = next((ln for ln in reversed(log_text(outcome.log))
                         if ln.strip()), "")
            return (f"the kernel hung during boot, before any graded case: "
                    f"{cause or ended}"
                    + (f" (its last line: {last.strip()})" if last and
                       not cause else "")), ""
        return (f"the kernel stopped during boot, before any graded case: "
                f"{cause or ended}"), ""
    # A report without its totals line ended early: the first graded case
    # that never reported was running (the manifest lists the cases in the
    # order they run, which make test-labs checks).
    running = stopped
    if running is None and unfinished:
        running = next((t.name for t in boot.tests if t.name not in cases),
                       None)
    if running and not timed_out:
        ended = f"the kernel stopped in {running}"
    return ended, running


def score_case(t: labtree.Test, case: ktap.Case | None, running: str | None,
               ended: str, outcome: runner.Outcome,
               hidden: set[str]) -> Result:
    r = Result(t.name, 0, t.points, "not run", hidden=t.name in hidden)
    timed_out = outcome.timed_out_after is not None
    if case is not None:
        if case.status == ktap.OK:
            r.points, r.status = t.points, "ok"
        elif case.status == ktap.SKIP:
            r.status, r.message = "skipped", case.directive or "skipped"
        else:
            r.status, r.message = "failed", first_message(case)
    elif running == "":
        r.message = f"not run: {ended}"
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
    return r


def mark_corruption(results: list[Result], log: str,
                    running: str | None) -> None:
    """A case that corrupted the kernel fails and carries the note that
    voids its lab; a report outside any case marks every case."""
    found, loose = corruption_reports(log)
    if loose and running:
        found.setdefault(running, loose[0])
    for r in results:
        line = found.get(r.name)
        if line:
            r.corrupted = f"{r.name} corrupted the kernel: {line}"
            r.points = 0
            if r.status != "stopped":
                r.status = "failed"
                r.message = f"the kernel is corrupted: {line}"
    if loose and not running:
        where = "during boot" if running == "" else "after the graded cases"
        for r in results:
            r.corrupted = r.corrupted or (f"the kernel reported corrupted "
                                          f"memory {where}: {loose[0]}")


def score_boot(boot: Boot, outcome: runner.Outcome,
               hidden: set[str]) -> tuple[list[Result], str]:
    """Each test's result, and how the boot ended."""
    report = ktap.parse(outcome.log)
    cases = {}
    for suite in report.suites:
        for case in suite.cases:
            cases[f"{suite.name}.{case.name}"] = case
    ended, running = ending(boot, outcome, report, cases)
    results = [score_case(t, cases.get(t.name), running, ended, outcome,
                          hidden) for t in boot.tests]
    mark_corruption(results, outcome.log, running)
    return results, ended


def void(g: LabGrade) -> None:
    """A lab whose kernel was corrupted scores 0: no verdict of a
    corrupted kernel can be trusted."""
    for r in g.results:
        if r.points:
            r.points = 0
            r.message = f"passed, but {VOIDED}: it scores 0"


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
        log = os.path.join(logs, name + ".log")
        for r in results:
            g = grades[owner[r.name]]
            r.log = log
            g.results.append(r)
            g.corrupted = g.corrupted or r.corrupted
        for lab in boot.labs:
            grades[lab].boot.append(f"{name}: {ended} "
                                    f"({outcome.elapsed:.1f} s)")
            grades[lab].logs.append(log)
    for g in grades.values():
        if g.corrupted:
            void(g)
    return [grades[lab.name] for lab in labs]


MARKS = {"ok": "ok", "failed": "FAIL", "skipped": "SKIP", "stopped": "STOP",
         "not run": "----"}


def format_grade(g: LabGrade, verbose: bool = True,
                 hidden: bool = True) -> str:
    """The lab's lines: one per test (a test that lost points ends with
    its boot's log), why a corrupted lab scores 0, the score, the logs.
    Without hidden, the hidden tests and what they say are left out."""
    out = [f"lab {g.lab}: {g.title} (ktest.seed={g.seed})"]
    shown = [r for r in g.results if hidden or not r.hidden]
    width = max((len(r.name) for r in shown), default=10)
    for r in shown:
        line = (f"  {MARKS[r.status]:4} {r.points:3}/{r.max:<3} "
                f"{r.name:{width}}")
        if r.hidden:
            line += " (hidden)"
        if r.message and verbose:
            line += "  " + (r.message if len(r.message) <= MESSAGE_MAX else
                            r.message[:MESSAGE_MAX - 3] + "...")
        if r.points < r.max and r.log:
            line += f"  {r.log}"
        out.append(line.rstrip())
    if g.corrupted:
        why = g.corrupted
        if not hidden and any(r.hidden and r.name in why for r in g.results):
            why = "a hidden test's case corrupted the kernel"
        out.append(f"CORRUPTED: {why}; a corrupted kernel's verdicts cannot "
                   f"be trusted: the lab scores 0")
    if hidden:
        out.append(f"Score: {g.score}/{g.max}")
    else:
        kept = [r for r in g.results if r.hidden]
        out.append(f"Score: {sum(r.points for r in shown)}/"
                   f"{sum(r.max for r in shown)}"
                   + (f" on these tests; "
                      f"{runner.plural(len(kept), 'hidden test')} "
                      f"({sum(r.max for r in kept)} points) "
                      f"{'is' if len(kept) == 1 else 'are'} shown after "
                      f"the due date" if kept else ""))
    if g.logs:
        out.append(f"Boot logs: {' '.join(dict.fromkeys(g.logs))} "
                   f"(the .cmd beside each is its QEMU command)")
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
            target.logs += g.logs
            target.corrupted = target.corrupted or g.corrupted
            if target.corrupted:
                void(target)
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


def tree_path(path: str, root: str) -> str:
    """path relative to the tree when it lies inside it."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return path if rel.startswith("..") else rel


def gradescope_test(r: Result) -> dict:
    output = r.message or ("passed" if r.status == "ok" else r.status)
    if r.log:
        output += f"\nboot log: {r.log}"
    return {"name": r.name + (" (hidden)" if r.hidden else ""),
            "score": r.points, "max_score": r.max,
            "status": "passed" if r.points == r.max else "failed",
            "output": output,
            "visibility": "after_due_date" if r.hidden else "visible"}


def gradescope_results(grades: list[LabGrade], notes: list[str]) -> dict:
    """The grade in Gradescope's results.json format: a test per graded
    case, the score their sum; the text shown to students leaves the
    hidden tests out (they show after the due date); the autograder's
    stdout (the whole grade) stays the instructors'."""
    tests = [gradescope_test(r) for g in grades for r in g.results]
    return {"score": sum(t["score"] for t in tests),
            "output": "\n".join([format_grade(g, hidden=False)
                                 for g in grades] + notes),
            "visibility": "visible",
            "stdout_visibility": "hidden",
            "tests": tests}


def seed_notes(seeds: list[int], per_seed: list[list[LabGrade]],
               hidden: bool = True) -> tuple[list[str], bool]:
    """Lines naming the tests whose points depend on the seed (without
    hidden, the hidden ones go unnamed), and whether the seeds agree."""
    notes, agree = [], True
    for seed, grades in zip(seeds[1:], per_seed[1:]):
        for g0, g in zip(per_seed[0], grades):
            diff = [r for r0, r in zip(g0.results, g.results)
                    if r0.points != r.points]
            if diff:
                agree = False
                named = [r.name for r in diff if hidden or not r.hidden]
                notes.append(f"seed {seed}: lab {g.lab} scores {g.score}/"
                             f"{g.max}, not {g0.score}: "
                             f"{' '.join(named) or 'hidden tests'} "
                             f"depend on the seed")
    if len(seeds) > 1 and agree:
        notes.append(f"the scores agree on seeds "
                     f"{', '.join(map(str, seeds))}")
    return notes, agree


def grade_text(grades: list[LabGrade], hidden: set[str],
               notes: list[str]) -> list[str]:
    text = []
    for g in grades:
        text.append(format_grade(g))
        if hidden and any(r.hidden for r in g.results):
            text.append(f"  (hidden: {sum(r.hidden for r in g.results)} "
                        f"of these tests are your teacher's)")
    if len(grades) > 1:
        total = sum(g.score for g in grades)
        most = sum(g.max for g in grades)
        text.append(f"Score: {total}/{most} (all labs)")
    return text + notes


def parse_args(argv: list[str] | None) -> argparse.Namespace:
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
    ap.add_argument("--results", help="Gradescope's results.json (default: "
                    "results.json beside --json)")
    ap.add_argument("--qemu", default="qemu-system-i386")
    ap.add_argument("--jobs", type=int, default=runner.default_jobs())
    ap.add_argument("--timeout-scale", type=float, default=1.0,
                    help="multiply every boot's time limit")
    args = ap.parse_args(argv)
    if args.results is None and args.json:
        args.results = os.path.join(os.path.dirname(args.json),
                                    "results.json")
    return args


def setup(args: argparse.Namespace):
    """(labs, hidden test names, seeds), or an error message."""
    root = args.root
    try:
        name = args.lab or open(os.path.join(root, labtree.LAB_FILE),
                                encoding="utf-8").read().strip()
    except OSError:
        return ("no lab given: make grade LAB=NAME (this is not a student "
                f"tree: it has no {labtree.LAB_FILE}); the labs: "
                f"{' '.join(labtree.lab_names(root))}")
    names = labtree.lab_names(root) if name == "all" else [name]
    try:
        seeds = [int(s) for s in args.seeds.replace(" ", ",").split(",")
                 if s]
        if not seeds:
            raise ValueError
    except ValueError:
        return f"--seeds {args.seeds!r}: want numbers like 1,2,3"
    try:
        labs, hidden = load_labs(root, names, args.extra)
    except labtree.LabError as e:
        return str(e)
    if not os.path.isfile(args.kernel):
        return f"no kernel {args.kernel}: build it first (make)"
    return labs, hidden, seeds


def write(path: str | None, data: str) -> None:
    if path:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    got = setup(args)
    if isinstance(got, str):
        print(f"grade: {got}", file=sys.stderr)
        return 2
    labs, hidden, seeds = got
    scale = args.timeout_scale * max(1.0, min(args.jobs, len(labs))
                                     / runner.default_jobs())
    per_seed = []
    for seed in seeds:
        per_seed.append(merge_hidden(grade(
            labs, args.kernel, seed, args.logs, qemu=args.qemu,
            jobs=args.jobs, hidden=hidden, scale=scale)))
    for g in (g for grades in per_seed for g in grades):
        g.logs = [tree_path(p, args.root) for p in g.logs]
        for r in g.results:
            r.log = tree_path(r.log, args.root)
    notes, agree = seed_notes(seeds, per_seed)
    text = grade_text(per_seed[0], hidden, notes)
    print("\n".join(text))
    write(args.text, "\n".join(text) + "\n")
    write(args.json, json.dumps({
        "version": version(args.root),
        "kernel": args.kernel,
        "seeds": seeds,
        "agree": agree,
        "labs": [[dict(asdict(g), score=g.score, max=g.max) for g in grades]
                 for grades in per_seed],
    }, indent=2) + "\n")
    write(args.results, json.dumps(gradescope_results(
        per_seed[0], seed_notes(seeds, per_seed, hidden=False)[0]),
        indent=2) + "\n")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
