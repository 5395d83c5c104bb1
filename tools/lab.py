#!/usr/bin/env python3
"""make lab: cuts a course lab's student tree from the reference.

    tools/lab.py list                 the labs, their points and files
    tools/lab.py check                every region and manifest is well formed
    tools/lab.py cut NAME DEST        writes NAME's student tree to DEST
    tools/lab.py prove                make test-labs: every lab cuts, builds,
                                      scores 0 as handed out and full marks
                                      from the reference

The student tree is the reference (every file git knows, as it is now)
with NAME's solution regions replaced by their stubs; it is a new git
repository whose first commit, tagged lab-base, is the hand-out, and
.mm86-lab names its lab, so that make grade and make handin know it.
The format of regions and manifests: tools/labtree.py.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grade  # noqa: E402
import ktap  # noqa: E402
import labtree  # noqa: E402
import verdicts  # noqa: E402

SEEDS = (1, 2, 3)


def cmd_list(root: str) -> int:
    for name in labtree.lab_names(root):
        lab = labtree.load_lab(root, name)
        print(f"{name:10} {lab.points:3} points  {len(lab.tests):2} tests  "
              f"{' '.join(lab.files):36} {lab.title}")
    return 0


def handout_errors(root: str, lab: labtree.Lab) -> list[str]:
    """The hand-out names every graded case with its points, in a table
    row "| case | points |", and the score out of the lab's total."""
    path = os.path.join(labtree.LABS_DIR, lab.name, "README.md")
    try:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return [f"lab {lab.name}: no {path} hand-out"]
    errors = []
    for t in lab.tests:
        rows = re.findall(r"^\|\s*`?" + re.escape(t.name)
                          + r"`?\s*\|\s*(\d+)\s*\|", text, re.M)
        if rows != [str(t.points)]:
            errors.append(f"{path}: want one table row \"| {t.name} | "
                          f"{t.points} |\", found points {rows or 'none'}")
    if f"Score: N/{lab.points}" not in text:
        errors.append(f"{path}: does not say `Score: N/{lab.points}`")
    return errors


def cmd_check(root: str) -> int:
    files = labtree.tree_files(root)
    labs = labtree.lab_names(root)
    regions = labtree.all_regions(root, files)
    known = {r.lab for rs in regions.values() for r in rs}
    errors = [f"{r.path}:{r.begin}: region of lab {r.lab}, which has no "
              f"labs/{r.lab}/lab.conf"
              for rs in regions.values() for r in rs if r.lab not in labs]
    graded: dict[str, str] = {}
    for name in labs:
        try:
            lab = labtree.load_lab(root, name)
            labtree.check_lab(root, lab, files)
        except labtree.LabError as e:
            errors.append(str(e))
            continue
        if name not in known:
            errors.append(f"lab {name}: no region anywhere")
        errors += handout_errors(root, lab)
        for t in lab.tests:
            if t.name in graded:
                errors.append(f"lab {name}: {t.name} is graded by lab "
                              f"{graded[t.name]} too")
            graded[t.name] = name
    for name in labs:
        try:
            lab = labtree.load_lab(root, name)
        except labtree.LabError:
            continue
        for case in lab.breaks:
            if case != "*" and graded.get(case, name) == name:
                errors.append(f"labs/{name}/lab.conf: breaks {case}, which "
                              f"no other lab grades")
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    n = sum(len(rs) for rs in regions.values())
    print(f"lab: {len(labs)} labs, {n} regions in {len(regions)} files: "
          f"well formed")
    return 0


def cmd_cut(root: str, name: str, dest: str) -> int:
    changed = labtree.cut_tree(root, name, dest)
    lab = labtree.load_lab(root, name)
    print(f"lab {name}: the student tree is in {dest}; your code goes in "
          f"{' '.join(lab.files)} (look for /* LAB {name}: TODO */)")
    print(f"  read {os.path.join(dest, labtree.LABS_DIR, name, 'README.md')}"
          f" first; then, in {dest}:")
    print(f"  make grade     boots the graded tests ({lab.points} points)")
    print(f"  make handin    packs your committed work and its grade")
    return 0


class Tally:
    """One line per check, and the counts for the runner."""

    def __init__(self) -> None:
        self.passed = self.failed = 0
        self.lines: list[str] = []

    def check(self, ok: bool, what: str, why: str = "") -> bool:
        self.passed += ok
        self.failed += not ok
        line = (f"  {'PASS' if ok else 'FAIL'}  {what}"
                + (f": {why}" if why and not ok else ""))
        self.lines.append(line)
        print(line, flush=True)
        return ok


def graded_order(log_dir: str, lab: labtree.Lab, seed: int) -> list[str]:
    """The lab's graded cases in the order its boot reported them."""
    names = []
    for f in sorted(os.listdir(log_dir)):
        if f.endswith(".log") and f"-seed{seed}-" in f:
            with open(os.path.join(log_dir, f), encoding="utf-8",
                      errors="replace") as fh:
                report = ktap.parse(fh.read())
            names += [f"{s.name}.{c.name}" for s in report.suites
                      for c in s.cases]
    wanted = {t.name for t in lab.tests}
    return [n for n in names if n in wanted]


def history_errors(tree: str) -> list[str]:
    """A student tree's git history must be its one hand-out commit, and
    no file of the teacher's may be in it."""
    errors = []
    commits = labtree.git(tree, "rev-list", "--all").split()
    if len(commits) != 1:
        errors.append(f"{len(commits)} commits, not the hand-out alone")
    for path in labtree.git(tree, "ls-tree", "-r", "--name-only",
                            "HEAD").splitlines():
        if not labtree.student_file(path):
            errors.append(f"{path} is committed")
    return errors


def check_all_broken(tally: Tally, lab: labtree.Lab,
                     og: list[grade.LabGrade]) -> None:
    """breaks *: the other labs are not judged in this lab's tree, but its
    stub must keep the kernel running: each of their cases reaches its
    verdict."""
    stopped = [r.name for g in og for r in g.results
               if r.status in ("stopped", "not run")]
    tally.check(not stopped, f"lab {lab.name}: as handed out, every other "
                f"lab's graded case runs to its verdict ({summary(og)}; "
                f"labs/{lab.name}/lab.conf says it breaks them all)",
                " ".join(stopped))


def summary(grades: list[grade.LabGrade]) -> str:
    return ", ".join(f"{g.lab} {g.score}/{g.max}" for g in grades)


def not_full(grades: list[grade.LabGrade], allowed=()) -> str:
    return "; ".join(f"{g.lab}: {r.name}: {r.status} {r.message[:120]}"
                     for g in grades for r in g.results
                     if r.points != r.max and r.name not in allowed)


def cmd_prove(root: str, build: str, jobs: int, counts: str | None,
              only: list[str] | None, force: bool = False) -> int:
    """Each lab's student tree cuts, builds with -Werror, scores 0 on its
    lab under every seed and full marks on every other lab; the reference
    scores full marks on every lab under every seed.

    A passing proof is recorded (tools/verdicts.py) and reused, unless
    force, while every input is the same: the tree's files, the
    reference kernel, the toolchain, QEMU."""
    start = time.monotonic()
    root = os.path.abspath(root)
    if labtree.student_lab(root):
        print(f"lab: skipped: this is the student tree of lab "
              f"{labtree.student_lab(root)}; make test-labs proves the "
              f"reference's labs")
        if counts:
            with open(counts, "w", encoding="utf-8") as f:
                f.write("0 passed, 0 failed, 1 skipped\n")
        return 0
    store = verdicts.Store(root, build, verdicts.inputs_digest(
        root, [os.path.join(build, "mm86.elf")]), force)
    item = "lab prove " + " ".join(sorted(only or ["*"]))
    record = store.get(item)
    if record:
        for line in record["lines"]:
            print(line + "  (reused)")
        n = record["passed"]
        print(f"lab: {n} passed, 0 failed: reused, recorded "
              f"{record['recorded']} in {record['seconds']:.0f} s with the "
              f"same inputs (FORCE=1 runs them)")
        if counts:
            with open(counts, "w", encoding="utf-8") as f:
                f.write(f"reused {n}\n{n} passed, 0 failed\n")
        return 0
    tally = prove(root, build, jobs, only, start)
    if counts:
        with open(counts, "w", encoding="utf-8") as f:
            f.write(f"{tally.passed} passed, {tally.failed} failed\n")
    if tally.failed:
        return 1
    if verdicts.inputs_digest(root, [os.path.join(build, "mm86.elf")]) \
            != store.digest:
        print("lab: not recorded: the inputs changed while it ran")
        return 0
    store.put(item, {"lines": tally.lines, "passed": tally.passed,
                     "seconds": time.monotonic() - start})
    return 0


def prove(root: str, build: str, jobs: int, only: list[str] | None,
          start: float) -> Tally:
    """cmd_prove's work: every check run, the tally returned."""
    tally = Tally()
    kernel = os.path.join(root, build, "mm86.elf")
    work = os.path.join(root, build, "labs")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    names = labtree.lab_names(root)
    try:
        rc = cmd_check(root)
    except labtree.LabError as e:
        print(f"lab: error: {e}", file=sys.stderr)
        rc = 1
    tally.check(rc == 0, "regions and manifests are well formed")
    labs = []
    for n in names:
        try:
            labs.append(labtree.load_lab(root, n))
        except labtree.LabError as e:
            tally.check(False, f"lab {n}: manifest", str(e))
    selected = [lab for lab in labs if not only or lab.name in only]
    print(f"lab: the reference, seeds {', '.join(map(str, SEEDS))}",
          flush=True)
    ref_logs = os.path.join(work, "reference")
    per_seed = [grade.grade(labs, kernel, seed, ref_logs, jobs=jobs,
                            tag="reference") for seed in SEEDS]
    for i, lab in enumerate(labs):
        gs = [grades[i] for grades in per_seed]
        tally.check(all(g.score == g.max for g in gs),
                    f"reference: lab {lab.name} scores "
                    f"{'/'.join(str(g.score) for g in gs)} of {gs[0].max}",
                    not_full(gs))
        order = graded_order(ref_logs, lab, SEEDS[0])
        listed = [t.name for t in lab.tests]
        tally.check(order == listed,
                    f"reference: lab {lab.name}'s graded cases run in the "
                    f"order labs/{lab.name}/lab.conf lists them",
                    f"they ran as {' '.join(order)}")
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    for lab in selected:
        tree = os.path.join(work, lab.name)
        print(f"lab {lab.name}: the student tree", flush=True)
        try:
            changed = labtree.cut_tree(root, lab.name, tree,
                                       prebuilt=os.path.join(root, build))
        except labtree.LabError as e:
            tally.check(False, f"lab {lab.name}: cut", str(e))
            continue
        tally.check(not history_errors(tree),
                    f"lab {lab.name}: the student tree's history is the "
                    f"hand-out alone, and holds no teacher's file",
                    "; ".join(history_errors(tree)))
        res = subprocess.run(["make", "--no-print-directory", "-j2",
                              "build/mm86.elf"], cwd=tree, env=env,
                             capture_output=True, text=True)
        if not tally.check(res.returncode == 0,
                           f"lab {lab.name}: cuts ({len(changed)} files "
                           f"differ) and builds with -Werror",
                           (res.stdout + res.stderr)[-2000:]):
            continue
        tkernel = os.path.join(tree, "build", "mm86.elf")
        logs = os.path.join(tree, "build", "grade")
        own = [grade.grade([lab], tkernel, seed, logs, jobs=jobs,
                           tag="own")[0] for seed in SEEDS]
        tally.check(all(g.score == 0 for g in own),
                    f"lab {lab.name}: as handed out scores "
                    f"{'/'.join(str(g.score) for g in own)} of "
                    f"{own[0].max} on seeds "
                    f"{', '.join(map(str, SEEDS))}",
                    "; ".join(f"{r.name} passes with the stub"
                              for g in own for r in g.results if r.points))
        stopped = [r.name for g in own for r in g.results
                   if r.status in ("stopped", "not run")]
        tally.check(not stopped, f"lab {lab.name}: as handed out, every "
                    f"graded case runs to its verdict (no panic, no hang)",
                    " ".join(sorted(set(stopped))))
        others = [o for o in labs if o.name != lab.name]
        og = grade.grade(others, tkernel, SEEDS[0], logs, jobs=jobs,
                         tag="others")
        if "*" in lab.breaks:
            check_all_broken(tally, lab, og)
            continue
        broken = set(lab.breaks)
        tally.check(not not_full(og, broken),
                    f"lab {lab.name}: as handed out, full marks on every "
                    f"other lab ({summary(og)})"
                    + (f", but for the {len(broken)} cases labs/{lab.name}/"
                       f"lab.conf says it breaks" if broken else ""),
                    not_full(og, broken))
        if broken:
            passing = [r.name for g in og for r in g.results
                       if r.name in broken and r.points]
            tally.check(not passing,
                        f"lab {lab.name}: as handed out, each case it says "
                        f"it breaks does fail", " ".join(passing)
                        + " pass: take them off its breaks line")
    print(f"lab: {tally.passed} passed, {tally.failed} failed in "
          f"{time.monotonic() - start:.0f} s")
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", help="the reference tree")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    sub.add_parser("check")
    c = sub.add_parser("cut")
    c.add_argument("lab")
    c.add_argument("dest")
    p = sub.add_parser("prove")
    p.add_argument("--build", default="build")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--counts", help="write 'N passed, N failed' here")
    p.add_argument("--only", action="append",
                   help="prove only this lab's student tree (repeatable)")
    p.add_argument("--force", action="store_true",
                   help="run every check, even when a passing run with the "
                        "same inputs was recorded (tools/verdicts.py)")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "list":
            return cmd_list(args.root)
        if args.cmd == "check":
            return cmd_check(args.root)
        if args.cmd == "prove":
            return cmd_prove(args.root, args.build, args.jobs, args.counts,
                             args.only, args.force)
        return cmd_cut(args.root, args.lab, args.dest)
    except labtree.LabError as e:
        print(f"lab: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
