#!/usr/bin/env python3
"""make lab: cuts a course lab's student tree from the reference.

    tools/lab.py list                 the labs, their points and files
    tools/lab.py check                every region and manifest is well formed
    tools/lab.py cut NAME DEST        writes NAME's student tree to DEST

The student tree is the reference (every file git knows, as it is now)
with NAME's solution regions replaced by their stubs; it is a new git
repository whose first commit, tagged lab-base, is the hand-out, and
.mm86-lab names its lab, so that make grade and make handin know it.
The format of regions and manifests: tools/labtree.py.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import labtree  # noqa: E402


def cmd_list(root: str) -> int:
    for name in labtree.lab_names(root):
        lab = labtree.load_lab(root, name)
        print(f"{name:10} {lab.points:3} points  {len(lab.tests):2} tests  "
              f"{' '.join(lab.files):36} {lab.title}")
    return 0


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
        if not os.path.isfile(os.path.join(root, labtree.LABS_DIR, name,
                                           "README.md")):
            errors.append(f"lab {name}: no labs/{name}/README.md hand-out")
        for t in lab.tests:
            if t.name in graded:
                errors.append(f"lab {name}: {t.name} is graded by lab "
                              f"{graded[t.name]} too")
            graded[t.name] = name
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
    print(f"lab {name}: the student tree is in {dest} ({len(changed)} "
          f"files cut: {' '.join(changed)})")
    print(f"  read {os.path.join(dest, labtree.LABS_DIR, name, 'README.md')}"
          f" first; then, in {dest}:")
    print(f"  make grade     boots the graded tests ({lab.points} points)")
    print(f"  make handin    packs your committed work and its grade")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".", help="the reference tree")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    sub.add_parser("check")
    c = sub.add_parser("cut")
    c.add_argument("lab")
    c.add_argument("dest")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "list":
            return cmd_list(args.root)
        if args.cmd == "check":
            return cmd_check(args.root)
        return cmd_cut(args.root, args.lab, args.dest)
    except labtree.LabError as e:
        print(f"lab: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
