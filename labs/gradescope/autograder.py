#!/usr/bin/env python3
"""A lab's autograder for Gradescope: the zip a teacher uploads, the image's
set-up, and the grading of one submission (labs/gradescope/README.md).

    autograder.py zip --lab NAME [--extra DIR] --out FILE
                          (make autograder, in the reference tree) writes
                          the zip: setup.sh, run_autograder, this file, the
                          lab's hand-out tree (handout/, cut as make lab
                          cuts it) and the teacher's hidden tests (hidden/)
    autograder.py prepare (setup.sh, once, when Gradescope builds the
                          image) installs what make grade needs and builds
                          the hand-out's kernels, so that a submission
                          rebuilds only its own files
    autograder.py run     (run_autograder, for every submission) grades it
                          and writes results.json

What is graded is the hand-out tree with the lab's own files (lab.conf's
"files") taken from the submission and nothing else: a submission that
changes tests/, tools/ or the lab's manifest changes nothing.  The
submission may be the student tree itself, a zip of it, or either inside
one directory.  A kernel that does not build scores 0, with the
compiler's errors in the output.

The paths are Gradescope's, under AUTOGRADER_DIR (default /autograder);
each can be moved by its own variable, so that a test can stand a
temporary directory in for /autograder:
    AUTOGRADER_SOURCE      the zip's contents        (DIR/source)
    AUTOGRADER_SUBMISSION  the student's submission  (DIR/submission)
    AUTOGRADER_RESULTS     what is written           (DIR/results/results.json)
    AUTOGRADER_WORK        a scratch directory       (DIR/work)
GRADE_TIMEOUT_SCALE multiplies each boot's time limit, as in make grade.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = ("setup.sh", "run_autograder", "autograder.py")
HANDOUT = "handout"
HIDDEN = "hidden"
SKIPPED_DIRS = {".git", "build", "__MACOSX"}
ERRORS_MAX = 12000  # characters of compiler output shown to a student


def paths() -> dict[str, str]:
    top = os.environ.get("AUTOGRADER_DIR", "/autograder")
    return {
        "source": os.environ.get("AUTOGRADER_SOURCE",
                                 os.path.join(top, "source")),
        "submission": os.environ.get("AUTOGRADER_SUBMISSION",
                                     os.path.join(top, "submission")),
        "results": os.environ.get("AUTOGRADER_RESULTS", os.path.join(
            top, "results", "results.json")),
        "work": os.environ.get("AUTOGRADER_WORK", os.path.join(top, "work")),
    }


def labtree_of(tree: str):
    """The lab tools of tree (the reference's, or the hand-out's)."""
    sys.path.insert(0, os.path.join(tree, "tools"))
    import labtree
    return labtree


def clean_env() -> dict[str, str]:
    """The environment of the builds: no outer make's job server."""
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    return env


# -- zip: the teacher's side -------------------------------------------------


def add_tree(z: zipfile.ZipFile, top: str, prefix: str) -> int:
    """Adds every file under top as prefix/..., modes kept; the count."""
    n = 0
    for d, dirs, names in os.walk(top):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(d, name)
            z.write(path, os.path.join(prefix, os.path.relpath(path, top)))
            n += 1
    return n


def make_zip(root: str, lab_name: str, extra: str | None, out: str) -> int:
    labtree = labtree_of(root)
    if labtree.student_lab(root):
        print(f"autograder: {root} is a student tree: make autograder runs "
              f"in the reference tree", file=sys.stderr)
        return 2
    try:
        lab = labtree.load_lab(root, lab_name)
        hidden = labtree.load_lab(root, "hidden", conf=os.path.join(
            extra, "grade.conf")) if extra else None
        with tempfile.TemporaryDirectory() as tmp:
            handout = os.path.join(tmp, HANDOUT)
            labtree.cut_tree(root, lab_name, handout, init_git=False)
            os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
            with zipfile.ZipFile(out + ".tmp", "w",
                                 zipfile.ZIP_DEFLATED) as z:
                for name in KIT:
                    z.write(os.path.join(HERE, name), name)
                n = add_tree(z, handout, HANDOUT)
                if extra:
                    for name in sorted(os.listdir(extra)):
                        if name == "grade.conf" or name.endswith((".c",
                                                                  ".h")):
                            z.write(os.path.join(extra, name),
                                    os.path.join(HIDDEN, name))
            os.replace(out + ".tmp", out)
    except labtree.LabError as e:
        print(f"autograder: {e}", file=sys.stderr)
        return 2
    print(f"autograder: {out}: lab {lab_name} ({lab.points} points, the "
          f"hand-out's {n} files"
          + (f", hidden tests: {len(hidden.tests)} worth {hidden.points} "
             f"points" if hidden else "")
          + f"); a student's {' '.join(lab.files)} is graded. Upload it "
          f"as the assignment's autograder: labs/gradescope/README.md")
    return 0


# -- prepare: the image, once ------------------------------------------------


def restore_modes(tree: str) -> None:
    """An unzipped script may have lost its mode: every file that starts
    with #! is made executable again."""
    for d, dirs, names in os.walk(tree):
        dirs[:] = [x for x in dirs if x not in SKIPPED_DIRS]
        for name in names:
            path = os.path.join(d, name)
            with open(path, "rb") as f:
                if f.read(2) == b"#!":
                    os.chmod(path, os.stat(path).st_mode | 0o111)


def build(tree: str, hidden: str | None) -> tuple[bool, str]:
    """Builds tree's kernel, and with hidden the grading kernel that holds
    the hidden suites too (make grade's build/grade-extra); (built, what
    make said)."""
    targets = [["build/mm86.elf"]]
    if hidden:
        targets.append(["BUILD=build/grade-extra",
                        f"EXTRA_TESTS={os.path.abspath(hidden)}",
                        "build/grade-extra/mm86.elf"])
    said = ""
    for args in targets:
        res = subprocess.run(["make", "--no-print-directory", "-j2", *args],
                             cwd=tree, env=clean_env(), capture_output=True,
                             text=True)
        said += res.stdout + res.stderr
        if res.returncode:
            return False, said
    return True, said


def prepare(p: dict[str, str]) -> int:
    handout = os.path.join(p["source"], HANDOUT)
    hidden = os.path.join(p["source"], HIDDEN)
    restore_modes(handout)
    res = subprocess.run(["make", "--no-print-directory", "deps",
                          "DEPS_FOR=grade"], cwd=handout, env=clean_env())
    if res.returncode:
        return 1
    ok, said = build(handout, hidden if os.path.isdir(hidden) else None)
    print(said, end="")
    print(f"autograder: the hand-out's kernel "
          f"{'is built' if ok else 'did not build'}")
    return 0 if ok else 1


# -- run: one submission -----------------------------------------------------


def unpack_zips(submission: str, work: str) -> list[str]:
    """The directories to search: the submission, and each zip it holds
    unpacked into work."""
    tops = [submission]
    for d, dirs, names in os.walk(submission):
        dirs[:] = [x for x in dirs if x not in SKIPPED_DIRS]
        for name in sorted(names):
            if name.endswith(".zip"):
                dest = os.path.join(work, "unzipped", str(len(tops)))
                try:
                    with zipfile.ZipFile(os.path.join(d, name)) as z:
                        z.extractall(dest)
                except (zipfile.BadZipFile, OSError):
                    continue
                tops.append(dest)
    return tops


def find_files(tops: list[str], files: list[str]) -> dict[str, str]:
    """{lab file: the submitted regular file} from the directory that
    holds the most of them (the submission's root, or a folder in it)."""
    best: dict[str, str] = {}
    for top in tops:
        for d, dirs, _ in os.walk(top):
            dirs[:] = sorted(x for x in dirs if x not in SKIPPED_DIRS)
            if os.path.relpath(d, top).count(os.sep) >= 3:
                dirs[:] = []
            found = {f: os.path.join(d, f) for f in files
                     if os.path.isfile(os.path.join(d, f))
                     and not os.path.islink(os.path.join(d, f))}
            if len(found) > len(best):
                best = found
    return best


def tests_of(labtree, handout: str, lab, hidden: str | None) -> list[dict]:
    """Every graded test at 0 points, for a submission not graded."""
    out = [(t, False) for t in lab.tests]
    if hidden:
        conf = os.path.join(hidden, "grade.conf")
        out += [(t, True) for t in labtree.load_lab(handout, "hidden",
                                                     conf=conf).tests]
    return [{"name": t.name + (" (hidden)" if h else ""), "score": 0,
             "max_score": t.points, "status": "failed",
             "output": "not graded: the kernel did not build",
             "visibility": "after_due_date" if h else "visible"}
            for t, h in out]


def compiler_errors(said: str) -> str:
    """What make said, from the first error on, at most ERRORS_MAX."""
    lines = said.splitlines()
    first = next((i for i, ln in enumerate(lines) if "error" in ln.lower()),
                 max(0, len(lines) - 60))
    text = "\n".join(lines[first:])
    return text[:ERRORS_MAX] + ("\n..." if len(text) > ERRORS_MAX else "")


def write_results(path: str, data: dict) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


def lay_submission(p: dict[str, str], tree: str, files: list[str]) -> str:
    """Copies the submitted lab files over the hand-out's in tree; the
    note that says which were taken."""
    got = find_files(unpack_zips(p["submission"], p["work"]), files)
    for path, src in got.items():
        shutil.copyfile(src, os.path.join(tree, path))
    note = (f"Graded: your {' '.join(sorted(got))} in the hand-out tree "
            f"(nothing else of your submission is used)." if got else
            f"Your submission holds none of {' '.join(files)}: the "
            f"hand-out's code was graded.")
    missing = [f for f in files if f not in got]
    if got and missing:
        note += f" Not in it: {' '.join(missing)} (the hand-out's was used)."
    return note


def run(p: dict[str, str]) -> int:
    handout = os.path.join(p["source"], HANDOUT)
    hidden = os.path.join(p["source"], HIDDEN)
    hidden = hidden if os.path.isdir(hidden) else None
    labtree = labtree_of(handout)
    lab = labtree.load_lab(handout, labtree.student_lab(handout))
    if os.path.exists(p["results"]):
        os.remove(p["results"])
    shutil.rmtree(p["work"], ignore_errors=True)
    tree = os.path.join(p["work"], "tree")
    shutil.copytree(handout, tree, symlinks=True)
    note = lay_submission(p, tree, lab.files)
    print(note, flush=True)
    ok, said = build(tree, hidden)
    if not ok:
        print(said, end="")
        write_results(p["results"], {
            "score": 0, "visibility": "visible", "stdout_visibility": "hidden",
            "output": f"{note}\nThe kernel did not build, so nothing was "
                      f"graded: score 0. What make said:\n\n"
                      f"{compiler_errors(said)}",
            "tests": tests_of(labtree, handout, lab, hidden)})
        return 0
    kernel = "build/grade-extra/mm86.elf" if hidden else "build/mm86.elf"
    res = subprocess.run(
        [sys.executable, "tools/grade.py", "--lab", lab.name,
         "--kernel", kernel, "--logs", "build/grade",
         "--json", "build/grade.json", "--text", "build/grade.txt",
         "--results", os.path.abspath(p["results"])]
        + ["--timeout-scale", os.environ.get("GRADE_TIMEOUT_SCALE", "1")]
        + (["--extra", os.path.abspath(hidden)] if hidden else []),
        cwd=tree, env=clean_env())
    if res.returncode not in (0, 1) or not os.path.exists(p["results"]):
        print(f"autograder: tools/grade.py failed (exit {res.returncode})")
        return 1
    with open(p["results"], encoding="utf-8") as f:
        data = json.load(f)
    data["output"] = f"{note}\n\n{data['output']}"
    write_results(p["results"], data)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    z = sub.add_parser("zip")
    z.add_argument("--root", default=".", help="the reference tree")
    z.add_argument("--lab", required=True)
    z.add_argument("--extra", help="the hidden tests (make grade's "
                   "GRADE_EXTRA): DIR/*.c and DIR/grade.conf")
    z.add_argument("--out", required=True)
    sub.add_parser("prepare")
    sub.add_parser("run")
    args = ap.parse_args(argv)
    if args.cmd == "zip":
        return make_zip(args.root, args.lab, args.extra, args.out)
    if args.cmd == "prepare":
        return prepare(paths())
    return run(paths())


if __name__ == "__main__":
    sys.exit(main())
