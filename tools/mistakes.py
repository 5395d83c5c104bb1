#!/usr/bin/env python3
"""make test-mistakes: every lab's written mistakes lose points.

    tools/mistakes.py [--lab NAME,...] [--only GLOB] [--jobs N]
                      [--counts FILE] [--work DIR] [--force] [--list]

A grader is a test suite: a wrong solution that scores full marks is a
bug in it.  Each lab keeps, beside its hand-out, the wrong solutions a
student could plausibly write: labs/NAME/mistakes/*.patch, each a change
to the reference solution, and labs/NAME/mistakes.txt, one stanza each:

    mistake ID              NN-name; the patch is labs/NAME/mistakes/ID.patch
      what    TEXT          the mistake, in a student's terms
      rule    TEXT          the hand-out's rule it breaks (its words)
      loses   SUITE.CASE... the graded cases that must lose their points:
                            exactly these, no more and no fewer
      may-lose SUITE.CASE...
                            graded cases that the mistake reaches only
                            when timing lets it (memory running out while
                            threads race): they may lose their points or
                            keep them, and the stanza says why in "what"
      score   N             optional: the score it must get (0 for one
                            that corrupts the kernel's memory)

Each mistake is applied to a copy of the reference (with its objects, so
that make rebuilds only what the patch touches), built, and graded as
make grade would (tools/grade.py, seed 1).  It passes when the grade is
below full marks, the cases that lost points are its "loses" list and
perhaps some of its "may-lose" list, and the score is its "score" when
one is given.  One line per
mistake: "PASS lab/ID (seconds): score, lost CASE (its first message)"
or "FAIL lab/ID: why"; then "N passed, N failed", also written to
--counts.  A passing verdict is recorded and reused while every input is
the same (tools/verdicts.py); --force runs everything.

The files stay with the teacher: a student tree holds no mistakes
(tools/labtree.py's TEACHER_ONLY).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import fnmatch
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grade  # noqa: E402
import labtree  # noqa: E402
import runner  # noqa: E402
import verdicts  # noqa: E402

MANIFEST = "mistakes.txt"
PATCH_DIR = "mistakes"
SEED = 1
ID_RE = re.compile(r"\d\d-[a-z0-9-]+")


class MistakeError(Exception):
    """A malformed mistakes.txt; the message says where."""


@dataclass
class Mistake:
    lab: str
    id: str
    where: str
    what: str = ""
    rule: str = ""
    loses: list[str] = field(default_factory=list)
    may_lose: list[str] = field(default_factory=list)
    score: int | None = None

    @property
    def name(self) -> str:
        return f"{self.lab}/{self.id}"

    def patch(self, root: str) -> str:
        return os.path.join(root, labtree.LABS_DIR, self.lab, PATCH_DIR,
                            self.id + ".patch")


@dataclass
class Result:
    name: str
    passed: bool
    text: str
    seconds: float = 0.0

    def line(self) -> str:
        if self.passed:
            return f"PASS {self.name} ({self.seconds:.1f} s): {self.text}"
        return f"FAIL {self.name}: {self.text}"


def _directive(m: Mistake, key: str, rest: str, where: str) -> None:
    if key == "what":
        m.what = rest
    elif key == "rule":
        m.rule = rest
    elif key in ("loses", "may-lose"):
        bad = [w for w in rest.split() if not re.fullmatch(r"\w+\.\w+", w)]
        if bad or not rest:
            raise MistakeError(f"{where}: {key} wants SUITE.CASE names, "
                               f"got {rest!r}")
        (m.loses if key == "loses" else m.may_lose).extend(rest.split())
    elif key == "score":
        if not rest.isdigit():
            raise MistakeError(f"{where}: score wants a number, got {rest!r}")
        m.score = int(rest)
    else:
        raise MistakeError(f"{where}: unknown directive {key!r}")


def parse(text: str, lab: labtree.Lab, path: str) -> list[Mistake]:
    """The mistakes of one lab's manifest; raises MistakeError."""
    out: list[Mistake] = []
    for where, _, key, rest in labtree.directives(text, path):
        if key == "mistake":
            if not ID_RE.fullmatch(rest):
                raise MistakeError(f"{where}: want 'mistake NN-name', got "
                                   f"{rest!r}")
            if any(m.id == rest for m in out):
                raise MistakeError(f"{where}: mistake {rest} twice")
            out.append(Mistake(lab.name, rest, where))
        elif not out:
            raise MistakeError(f"{where}: {key} before the first mistake")
        else:
            _directive(out[-1], key, rest, where)
    graded = {t.name for t in lab.tests}
    for m in out:
        if not m.what or not m.rule or not m.loses:
            raise MistakeError(f"{m.where}: mistake {m.id} wants what, rule "
                               f"and loses lines")
        foreign = [c for c in m.loses + m.may_lose if c not in graded]
        if foreign:
            raise MistakeError(f"{m.where}: {' '.join(foreign)} is not a "
                               f"graded case of lab {lab.name}")
    return out


def load(root: str, names: list[str]) -> list[Mistake]:
    """Every mistake of the labs named; raises MistakeError (or
    labtree.LabError) for a malformed manifest or a missing patch."""
    out = []
    for name in names:
        lab = labtree.load_lab(root, name)
        path = os.path.join(labtree.LABS_DIR, name, MANIFEST)
        try:
            text = labtree.read(root, path)
        except FileNotFoundError:
            raise MistakeError(f"lab {name} has no {path}") from None
        found = parse(text, lab, path)
        for m in found:
            if not os.path.isfile(m.patch(root)):
                raise MistakeError(f"{m.where}: no "
                                   f"{os.path.relpath(m.patch(root), root)}")
        out += found
    return out


def judge(m: Mistake, g: grade.LabGrade) -> tuple[bool, str]:
    """Did the grade hold what the mistake's stanza says?"""
    lost = [r for r in g.results if r.points < r.max]
    names = [r.name for r in lost]
    first = next((r for r in lost if r.message), None)
    said = f"{g.score}/{g.max}, lost {', '.join(names) or 'nothing'}"
    if first:
        said += f" ({first.name}: {first.message[:140]})"
    if not lost:
        return False, f"scores full marks ({g.score}/{g.max}): the grader " \
                      f"misses it"
    if not set(m.loses) <= set(names) <= set(m.loses) | set(m.may_lose):
        missing = sorted(set(m.loses) - set(names))
        extra = sorted(set(names) - set(m.loses) - set(m.may_lose))
        return False, (f"{said}; " + "; ".join(
            (["still scoring: " + " ".join(missing)] if missing else [])
            + (["also lost: " + " ".join(extra)] if extra else [])))
    if m.score is not None and g.score != m.score:
        return False, f"{said}; want score {m.score}"
    return True, said


def check(m: Mistake, root: str, work: str, lab: labtree.Lab) -> Result:
    start = time.monotonic()
    tree = os.path.join(work, m.lab + "-" + m.id)
    why = labtree.patched_copy(root, tree, m.patch(root))
    if why:
        return Result(m.name, False, why, time.monotonic() - start)
    logs = os.path.join(tree, "build", "grade")
    g = grade.grade([lab], os.path.join(tree, "build", "mm86.elf"), SEED,
                    logs, jobs=1, tag="mistake")[0]
    passed, text = judge(m, g)
    if passed:
        shutil.rmtree(tree, ignore_errors=True)
    else:
        text += f" (the tree and logs: {os.path.relpath(tree, root)})"
    return Result(m.name, passed, text, time.monotonic() - start)


def run(root: str, mistakes: list[Mistake], work: str, jobs: int,
        store: verdicts.Store) -> list[Result]:
    labs = {m.lab: labtree.load_lab(root, m.lab) for m in mistakes}
    results: dict[str, Result] = {}
    todo = []
    for m in mistakes:
        record = store.get("mistake " + m.name)
        if record:
            results[m.name] = Result(m.name, True, record["text"] + " (reused)",
                                     record["seconds"])
            print(results[m.name].line(), flush=True)
        else:
            todo.append(m)
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = {pool.submit(check, m, root, work, labs[m.lab]): m
                   for m in todo}
        for f in concurrent.futures.as_completed(futures):
            r = f.result()
            results[r.name] = r
            print(r.line(), flush=True)
            if r.passed:
                store.put("mistake " + r.name, {"text": r.text,
                                                "seconds": r.seconds})
    return [results[m.name] for m in mistakes]


def write_counts(path: str | None, line: str, reused: int = 0) -> None:
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write((f"reused {reused}\n" if reused else "") + line + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="mistakes.py",
        description="Grade every lab's written mistakes: each must lose "
                    "the points its manifest names.")
    ap.add_argument("--root", default=".")
    ap.add_argument("--lab", default="", help="comma-separated labs "
                    "(default: all)")
    ap.add_argument("--only", default="*", metavar="GLOB",
                    help="the mistakes whose LAB/ID matches GLOB")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work", default=None, metavar="DIR")
    ap.add_argument("--counts", default=None, metavar="FILE")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    if labtree.student_lab(root):
        line = "0 passed, 0 failed, 1 skipped"
        print(f"mistakes: skipped: this is the student tree of lab "
              f"{labtree.student_lab(root)}; the mistakes stay with the "
              f"teacher\n{line}")
        write_counts(args.counts, line)
        return 0
    names = [n for n in args.lab.split(",") if n] or labtree.lab_names(root)
    try:
        mistakes = [m for m in load(root, names)
                    if fnmatch.fnmatch(m.name, args.only)]
    except (MistakeError, labtree.LabError) as e:
        print(f"mistakes: error: {e}", file=sys.stderr)
        write_counts(args.counts, "0 passed, 1 failed")
        return 2
    if not mistakes:
        # A selection that grades nothing must not read as a pass.
        print(f"mistakes: error: no mistake of {', '.join(names)} matches "
              f"{args.only!r}", file=sys.stderr)
        write_counts(args.counts, "0 passed, 1 failed")
        return 2
    if args.list:
        for m in mistakes:
            print(f"{m.name:40} loses {' '.join(m.loses)}\n    {m.what}")
        return 0
    kernel = os.path.join(root, "build", "mm86.elf")
    store = verdicts.Store(root, "build", verdicts.inputs_digest(
        root, [kernel]), args.force)
    start = time.monotonic()
    work = args.work or tempfile.mkdtemp(prefix="mistakes-",
                                         dir=os.path.join(root, "build"))
    os.makedirs(work, exist_ok=True)
    print(f"mistakes: {runner.plural(len(mistakes), 'mistake')} of "
          f"{runner.plural(len(names), 'lab')}, each graded on seed {SEED}",
          flush=True)
    results = run(root, mistakes, work, args.jobs, store)
    passed = sum(r.passed for r in results)
    reused = sum(r.text.endswith("(reused)") for r in results)
    line = f"{passed} passed, {len(results) - passed} failed"
    print(f"mistakes: {line} in {time.monotonic() - start:.0f} s")
    if not args.work and passed == len(results):
        shutil.rmtree(work, ignore_errors=True)
    write_counts(args.counts, line, reused)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
