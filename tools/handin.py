#!/usr/bin/env python3
"""make handin: packs a student tree's committed work and its grade.

Run in a student tree (make lab wrote .mm86-lab and tagged the hand-out
lab-base).  It refuses a tree with uncommitted or untracked changes (what
is handed in is exactly a commit), grades that commit (tools/grade.py,
same seeds and timeouts as make grade), and writes one file,
build/handin-LAB-COMMIT.tar.gz, holding:

    handin/source.tar     git archive of HEAD
    handin/changes.diff   git diff lab-base HEAD: the student's work
    handin/grade.txt      the grader's lines and "Score: N/M"
    handin/grade.json     the same, for a teacher's scripts
    handin/INFO           lab, commit, author, date, score
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import grade  # noqa: E402
import labtree  # noqa: E402


class HandinError(Exception):
    pass


def git(root: str, *args: str, binary: bool = False):
    res = subprocess.run(["git", "-C", root, *args], capture_output=True,
                         text=not binary)
    if res.returncode:
        err = res.stderr if not binary else res.stderr.decode()
        raise HandinError(f"git {' '.join(args)}: {err.strip()}")
    return res.stdout


def check_tree(root: str) -> tuple[str, str]:
    """(lab, commit) of a clean student tree; raises HandinError."""
    try:
        with open(os.path.join(root, labtree.LAB_FILE),
                  encoding="utf-8") as f:
            lab = f.read().strip()
    except OSError:
        raise HandinError(f"this is not a student tree (no "
                          f"{labtree.LAB_FILE}): make lab LAB=NAME DEST=DIR "
                          f"writes one") from None
    dirty = git(root, "status", "--porcelain", "--untracked-files=all")
    if dirty.strip():
        lines = dirty.rstrip("\n").splitlines()
        shown = "\n".join("    " + ln for ln in lines[:20])
        more = f"\n    ... {len(lines) - 20} more" if len(lines) > 20 else ""
        raise HandinError(
            f"the tree has uncommitted or untracked changes; commit them "
            f"(git add -A && git commit) or remove them, then make handin "
            f"again:\n{shown}{more}")
    try:
        git(root, "rev-parse", "--verify", "-q", f"{labtree.BASE_TAG}^{{}}")
    except HandinError:
        raise HandinError(f"no tag {labtree.BASE_TAG}: the hand-out commit "
                          f"that make lab tagged is missing") from None
    return lab, git(root, "rev-parse", "--short", "HEAD").strip()


def add(tar: tarfile.TarFile, name: str, data: bytes, mtime: float) -> None:
    info = tarfile.TarInfo("handin/" + name)
    info.size = len(data)
    info.mtime = int(mtime)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".")
    ap.add_argument("--build", default="build")
    ap.add_argument("--grade-args", default="",
                    help="more arguments for tools/grade.py")
    args = ap.parse_args(argv)
    root = args.root
    try:
        lab, commit = check_tree(root)
    except HandinError as e:
        print(f"handin: refused: {e}", file=sys.stderr)
        return 1
    text = os.path.join(args.build, "grade.txt")
    js = os.path.join(args.build, "grade.json")
    rc = grade.main(["--root", root, "--lab", lab,
                     "--kernel", os.path.join(args.build, "mm86.elf"),
                     "--logs", os.path.join(args.build, "grade"),
                     "--text", text, "--json", js]
                    + shlex.split(args.grade_args))
    if rc == 2:
        print("handin: the grader could not run; nothing packed",
              file=sys.stderr)
        return 1
    try:
        if git(root, "status", "--porcelain", "--untracked-files=all"):
            raise HandinError("the tree changed while it was graded")
        source = git(root, "archive", "--format=tar", "HEAD", binary=True)
        diff = git(root, "diff", "--binary", labtree.BASE_TAG, "HEAD",
                   binary=True)
        author = git(root, "log", "-1", "--format=%an <%ae>").strip()
        changed = git(root, "diff", "--name-only", labtree.BASE_TAG,
                      "HEAD").split()
    except HandinError as e:
        print(f"handin: refused: {e}", file=sys.stderr)
        return 1
    with open(text, "rb") as f:
        grade_txt = f.read()
    with open(js, "rb") as f:
        grade_json = f.read()
    score = next((ln for ln in grade_txt.decode().splitlines()
                  if ln.startswith("Score:")), "Score: ?")
    now = time.time()
    info = (f"lab: {lab}\ncommit: {commit}\nauthor: {author}\n"
            f"date: {time.strftime('%Y-%m-%d %H:%M:%S %z')}\n{score}\n"
            f"changed files: {' '.join(changed) or 'none'}\n")
    out = os.path.join(args.build, f"handin-{lab}-{commit}.tar.gz")
    os.makedirs(args.build, exist_ok=True)
    with tarfile.open(out, "w:gz") as tar:
        add(tar, "source.tar", source, now)
        add(tar, "changes.diff", diff, now)
        add(tar, "grade.txt", grade_txt, now)
        add(tar, "grade.json", grade_json, now)
        add(tar, "INFO", info.encode(), now)
    print(f"handin: {out} ({os.path.getsize(out)} bytes): lab {lab}, "
          f"commit {commit}, {score}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
