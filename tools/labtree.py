#!/usr/bin/env python3
"""Course labs: the reference tree's solution regions, the lab manifests,
and the student trees cut from them.

A lab's solution lives in the reference sources between two markers, and
nothing else of the lab rides in the kernel's files:

        /* LAB buddy: BEGIN merge the freed block with its free buddies */
        ... the reference solution ...
        /* LAB buddy: END */

The stub that a student tree gets in the solution's place is kept with
the lab, in labs/NAME/stubs.c (never compiled), one entry per region,
keyed by the file and the BEGIN line's description:

        /* STUB mm/page_alloc.c: merge the freed block with its free buddies */
        ... the stub, verbatim ...
        /* END STUB */

A region without an entry leaves nothing but its TODO line.  The student
tree gets, in the region's place, one line "/* LAB buddy: TODO <what the
BEGIN line says> */" at the BEGIN line's indentation, then the stub.
Regions of the other labs keep their solution and lose their markers.
Regions do not nest, and a description names one region of its file.

Each lab has a directory labs/NAME/ with a hand-out README.md and a
lab.conf, one directive per line ("#" starts a comment line):

    title    what the lab is about, in one line
    files    PATH...        the files that hold the lab's regions (each must
                            hold at least one, and no other file may)
    hidden   IDENT...       identifiers that must not survive in a student
                            tree, beyond those found automatically
    qemu     OPTION...      QEMU options of the graded boot
                            (default: -m 256M -smp 2)
    append   TEXT           more kernel command line for the graded boot
    timeout  SECONDS        the graded boot's time limit (default: 120)
    breaks   SUITE.CASE...  other labs' graded cases that cannot pass while
                            this lab's code is a stub; make test-labs
                            requires exactly these to fail in this lab's
                            student tree, and every other case of the
                            other labs to pass.  "breaks *": none of them
                            can (the buddy allocator, which every case
                            stands on and the kernel checks after each);
                            they must still run to their verdicts
    test     SUITE.CASE POINTS
                            a graded case and its points, in the order the
                            cases run (suites in link order, cases in their
                            suite's order; make test-labs checks it), so
                            that after a panic the grader knows which
                            cases never ran

The module is used by tools/lab.py (make lab, make test-labs), by
tools/grade.py and by tools/exercises.py; it never runs anything but git.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field

LABS_DIR = "labs"
LAB_FILE = ".mm86-lab"  # in a student tree: the name of its lab
BASE_TAG = "lab-base"  # in a student tree: the commit handed out
MARKED_EXT = (".c", ".h", ".S")
DEFAULT_QEMU = "-m 256M -smp 2"
DEFAULT_TIMEOUT = 120.0

NAME = r"[a-z][a-z0-9_-]*"
BEGIN_RE = re.compile(r"^(\s*)/\* LAB (" + NAME + r"): BEGIN(?: (.*?))? \*/\s*$")
STUB_RE = re.compile(r"^\s*/\* LAB (" + NAME + r"): STUB\b")
STUB_ENTRY_RE = re.compile(r"^/\* STUB (\S+): (.*?) \*/\s*$")
STUB_ENTRY_END_RE = re.compile(r"^/\* END STUB \*/\s*$")
END_RE = re.compile(r"^\s*/\* LAB (" + NAME + r"): END \*/\s*$")
ANY_MARK_RE = re.compile(r"LAB " + NAME + r": (BEGIN|STUB|END|TODO)")
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
C_WORDS = set("""
auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof
static struct switch typedef union unsigned void volatile while bool true
false NULL
""".split())


class LabError(Exception):
    """A malformed region, manifest or tree; the message says where."""


@dataclass
class Region:
    lab: str
    path: str
    begin: int  # line numbers, 1-based, of the markers
    end: int
    what: str  # the BEGIN line's description
    indent: str
    solution: list[str]  # lines, with their newlines
    stub: list[str]


@dataclass
class Test:
    name: str  # suite.case
    points: int

    @property
    def suite(self) -> str:
        return self.name.split(".", 1)[0]


@dataclass
class Lab:
    name: str
    title: str = ""
    files: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    qemu: list[str] = field(default_factory=lambda: shlex.split(DEFAULT_QEMU))
    append: str = ""
    timeout: float = DEFAULT_TIMEOUT
    tests: list[Test] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)

    @property
    def points(self) -> int:
        return sum(t.points for t in self.tests)


# -- regions ---------------------------------------------------------------


def split_regions(text: str, path: str) -> list[str | Region]:
    """The file as a list of plain lines and Regions (their stubs still
    empty: attach_stubs() fills them); raises LabError."""
    out: list[str | Region] = []
    region: Region | None = None
    whats: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        where = f"{path}:{n}"
        m = BEGIN_RE.match(line)
        if m:
            if region:
                raise LabError(f"{where}: LAB {m.group(2)}: BEGIN inside "
                               f"lab {region.lab}'s region (line "
                               f"{region.begin}): regions do not nest")
            region = Region(m.group(2), path, n, 0, m.group(3) or "",
                            m.group(1), [], [])
            key = f"{region.lab}: {region.what}"
            if key in whats:
                raise LabError(f"{where}: a second region of lab "
                               f"{region.lab} described \"{region.what}\" "
                               f"(the first: line {whats[key]}): the "
                               f"description names its stub")
            whats[key] = n
            continue
        if region is None:
            if ANY_MARK_RE.search(line):
                raise LabError(f"{where}: a LAB marker outside any region "
                               f"(or a malformed BEGIN): {line.strip()}")
            out.append(line)
            continue
        m = END_RE.match(line)
        if m:
            if m.group(1) != region.lab:
                raise LabError(f"{where}: END of lab {m.group(1)} closes lab "
                               f"{region.lab}'s region (line {region.begin})")
            region.end = n
            out.append(region)
            region = None
            continue
        if STUB_RE.match(line):
            raise LabError(f"{where}: a STUB inside lab {region.lab}'s "
                           f"region: stubs live in {stubs_path(region.lab)}")
        if ANY_MARK_RE.search(line):
            raise LabError(f"{where}: a malformed LAB marker: {line.strip()}")
        region.solution.append(line)
    if region:
        raise LabError(f"{path}:{region.begin}: lab {region.lab}'s region "
                       f"has no END")
    return out


# -- stubs -----------------------------------------------------------------


def stubs_path(lab: str) -> str:
    return f"{LABS_DIR}/{lab}/stubs.c"


def load_stubs(root: str, lab: str) -> dict[tuple[str, str], list[str]]:
    """labs/LAB/stubs.c as {(path, description): lines}; an absent file
    is no stubs.  Raises LabError."""
    path = stubs_path(lab)
    try:
        text = read(root, path)
    except FileNotFoundError:
        return {}
    stubs: dict[tuple[str, str], list[str]] = {}
    key: tuple[str, str] | None = None
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        m = STUB_ENTRY_RE.match(line)
        if m:
            if key:
                raise LabError(f"{path}:{n}: a STUB inside the entry of "
                               f"{key[0]}: {key[1]} (no END STUB)")
            key = (m.group(1), m.group(2))
            if key in stubs:
                raise LabError(f"{path}:{n}: a second stub for {key[0]}: "
                               f"{key[1]}")
            stubs[key] = []
        elif STUB_ENTRY_END_RE.match(line):
            if not key:
                raise LabError(f"{path}:{n}: END STUB outside an entry")
            key = None
        elif key:
            stubs[key].append(line)
    if key:
        raise LabError(f"{path}: the entry of {key[0]}: {key[1]} has no "
                       f"END STUB")
    return stubs


def attach_stubs(root: str, regions: dict[str, list[Region]]) -> None:
    """Fills each region's stub from its lab's stubs.c; an entry that
    names no region is an error (a renamed region would lose its stub)."""
    labs = {r.lab for rs in regions.values() for r in rs}
    errors = []
    for lab in sorted(labs):
        stubs = load_stubs(root, lab)
        for path, rs in regions.items():
            for r in rs:
                if r.lab == lab:
                    r.stub = stubs.pop((path, r.what), [])
        errors += [f"{stubs_path(lab)}: the stub for {p}: \"{w}\" names no "
                   f"region of lab {lab} in {p}" for p, w in stubs]
    if errors:
        raise LabError("\n".join(errors))


def cut_text(pieces: list[str | Region], lab: str) -> str:
    """The student's text: lab's regions become TODO + stub."""
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
        elif piece.lab == lab:
            what = f" {piece.what}" if piece.what else ""
            out.append(f"{piece.indent}/* LAB {lab}: TODO{what} */\n")
            out.extend(piece.stub)
        else:
            out.extend(piece.solution)
    return "".join(out)


# -- trees -----------------------------------------------------------------


def tree_files(root: str) -> list[str]:
    """The tree's files as git sees them: tracked and untracked, not
    ignored, and present (a deleted tracked file is left out)."""
    try:
        res = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise LabError(f"{root}: not a git tree ({e})") from None
    names = sorted(set(res.stdout.decode().split("\0")) - {""})
    return [n for n in names if os.path.isfile(os.path.join(root, n))]


def read(root: str, path: str) -> str:
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def tree_pieces(root: str, files: list[str]) -> dict[str, list[str | Region]]:
    """Every marked file that holds a region, as split_regions() pieces
    with the stubs attached; raises LabError listing every fault."""
    errors, pieces = [], {}
    for path in files:
        if not path.endswith(MARKED_EXT) or path.startswith(LABS_DIR + "/"):
            continue
        try:
            split = split_regions(read(root, path), path)
        except LabError as e:
            errors.append(str(e))
            continue
        if any(isinstance(p, Region) for p in split):
            pieces[path] = split
    if not errors:
        try:
            attach_stubs(root, {path: [p for p in split
                                       if isinstance(p, Region)]
                                for path, split in pieces.items()})
        except LabError as e:
            errors.append(str(e))
    if errors:
        raise LabError("\n".join(errors))
    return pieces


def all_regions(root: str, files: list[str]) -> dict[str, list[Region]]:
    """Every marked file's regions, checked; raises LabError listing all."""
    return {path: [p for p in split if isinstance(p, Region)]
            for path, split in tree_pieces(root, files).items()}


def student_lab(root: str) -> str | None:
    """The lab whose student tree root is, or None for the reference."""
    try:
        with open(os.path.join(root, LAB_FILE), encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


def lab_names(root: str) -> list[str]:
    d = os.path.join(root, LABS_DIR)
    if not os.path.isdir(d):
        return []
    return sorted(n for n in os.listdir(d)
                  if os.path.isfile(os.path.join(d, n, "lab.conf")))


def directives(text: str, path: str):
    """The directive lines of a manifest (lab.conf, mistakes.txt,
    tests/exercises.txt): (where, line number, key, rest) for each line
    that is neither blank nor a "#" comment."""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            key, _, rest = line.partition(" ")
            yield f"{path}:{n}", n, key, rest.strip()


def load_lab(root: str, name: str, conf: str | None = None) -> Lab:
    """Parses labs/NAME/lab.conf (or conf); raises LabError."""
    path = conf or os.path.join(root, LABS_DIR, name, "lab.conf")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise LabError(f"no lab {name!r} (cannot read {path}: "
                       f"{e.strerror}); the labs are: "
                       f"{' '.join(lab_names(root)) or 'none'}")
    lab, errors, seen = Lab(name), [], set()
    for where, _, key, rest in directives(text, path):
        if key == "title":
            lab.title = rest
        elif key == "files":
            lab.files += rest.split()
        elif key == "hidden":
            lab.hidden += rest.split()
        elif key == "breaks":
            bad = [w for w in rest.split()
                   if not re.fullmatch(r"\w+\.\w+", w) and w != "*"]
            if bad:
                errors.append(f"{where}: breaks wants SUITE.CASE names "
                              f"or *, got {' '.join(bad)}")
            lab.breaks += rest.split()
        elif key == "qemu":
            lab.qemu = shlex.split(rest)
        elif key == "append":
            lab.append = rest
        elif key == "timeout":
            try:
                lab.timeout = float(rest)
                if not lab.timeout > 0:
                    raise ValueError
            except ValueError:
                errors.append(f"{where}: timeout {rest!r} is not a positive "
                              f"number of seconds")
        elif key == "test":
            parts = rest.split()
            if (len(parts) != 2 or not re.fullmatch(r"\w+\.\w+", parts[0])
                    or not parts[1].isdigit() or int(parts[1]) <= 0):
                errors.append(f"{where}: want 'test SUITE.CASE POINTS' with "
                              f"POINTS > 0, got {rest!r}")
                continue
            if parts[0] in seen:
                errors.append(f"{where}: {parts[0]} is graded twice")
            seen.add(parts[0])
            lab.tests.append(Test(parts[0], int(parts[1])))
        else:
            errors.append(f"{where}: unknown directive {key!r}")
    if not lab.title:
        errors.append(f"{path}: no title")
    if not lab.tests:
        errors.append(f"{path}: no graded test")
    if errors:
        raise LabError("\n".join(errors))
    return lab


def identifiers(text: str) -> set[str]:
    return set(IDENT_RE.findall(text)) - C_WORDS


def solution_only(root: str, files: list[str], lab: str) -> set[str]:
    """Identifiers that appear in lab's solutions and nowhere else in the
    tree (not in its stubs, other code, docs or tests)."""
    inside, outside = set(), set()
    pieces = tree_pieces(root, files)
    for path in files:
        if path in pieces:
            for piece in pieces[path]:
                if isinstance(piece, str):
                    outside |= identifiers(piece)
                elif piece.lab == lab:
                    inside |= identifiers("".join(piece.solution))
                    outside |= identifiers("".join(piece.stub) + piece.what)
                else:
                    outside |= identifiers("".join(piece.solution))
            continue
        if path == stubs_path(lab) or not student_file(path):
            continue
        try:
            outside |= identifiers(read(root, path))
        except (UnicodeDecodeError, OSError):
            continue
    return inside - outside


def check_lab(root: str, lab: Lab, files: list[str] | None = None) -> None:
    """The lab's regions are where its manifest says; raises LabError."""
    files = files if files is not None else tree_files(root)
    regions = all_regions(root, files)
    errors = []
    holding = {p for p, rs in regions.items() if any(r.lab == lab.name
                                                       for r in rs)}
    for path in lab.files:
        if path not in holding:
            errors.append(f"labs/{lab.name}/lab.conf: {path} holds no "
                          f"region of lab {lab.name}")
    for path in sorted(holding - set(lab.files)):
        errors.append(f"{path}: holds a region of lab {lab.name} but "
                      f"labs/{lab.name}/lab.conf does not list it in files")
    if errors:
        raise LabError("\n".join(errors))


def git(cwd: str, *args: str) -> str:
    res = subprocess.run(["git", "-C", cwd, "-c", "user.name=mm86",
                          "-c", "user.email=mm86@localhost",
                          "-c", "commit.gpgsign=false", *args],
                         capture_output=True, text=True)
    if res.returncode:
        raise LabError(f"git {' '.join(args)} in {cwd}: "
                       f"{res.stderr.strip()}")
    return res.stdout


# What stays with the teacher: the answers to the exercises, each lab's
# stubs (already cut in), written mistakes and teacher's notes (answers to
# the written questions), and the course platform's kit.  A student tree
# holds none of these files.
TEACHER_ONLY = (
    re.compile(r"tests/exercises(/|\.txt$)"),
    re.compile(LABS_DIR + r"/[^/]+/(stubs\.c|mistakes(/|\.txt$)|teacher\.md$)"),
    re.compile(LABS_DIR + r"/gradescope/"),
)
# A solution or answer line shorter than this (stripped) is too common to
# be a giveaway ("return 0;", "}").
SECRET_LINE_MIN = 16


def student_file(path: str) -> bool:
    """Does a student tree get this file of the reference?"""
    return not any(r.match(path) for r in TEACHER_ONLY)


def cut_tree(root: str, lab_name: str, dest: str, *,
             prebuilt: str | None = None, init_git: bool = True) -> list[str]:
    """Writes the student tree of lab_name to dest (which must not exist or
    be empty) and returns the files the cut changed.

    Files the cut leaves alone keep their modification time; with
    prebuilt (a build directory of root), the kernel's objects are copied
    too, so that make rebuilds only what the cut changed.
    """
    lab = load_lab(root, lab_name)
    if student_lab(root):
        raise LabError(f"{root} is itself the student tree of lab "
                       f"{student_lab(root)}: cut labs from the reference")
    files = tree_files(root)
    check_lab(root, lab, files)
    inside = os.path.relpath(os.path.abspath(dest), os.path.abspath(root))
    if not inside.startswith("..") and not inside.startswith("build"):
        raise LabError(f"{dest} is inside the reference tree, where git "
                       f"would see the student's files: choose a directory "
                       f"outside it (or under build/)")
    if os.path.exists(dest) and os.listdir(dest):
        raise LabError(f"{dest} exists and is not empty: choose a new "
                       f"directory for the student tree")
    os.makedirs(dest, exist_ok=True)
    pieces = tree_pieces(root, files)
    changed = []
    for path in filter(student_file, files):
        src, dst = os.path.join(root, path), os.path.join(dest, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if path in pieces:
            out = cut_text(pieces[path], lab_name)
            with open(dst, "w", encoding="utf-8") as f:
                f.write(out)
            shutil.copymode(src, dst)
            if out != read(root, path):
                changed.append(path)
            else:
                shutil.copystat(src, dst)
            continue
        shutil.copy2(src, dst, follow_symlinks=False)
    with open(os.path.join(dest, LAB_FILE), "w", encoding="utf-8") as f:
        f.write(lab_name + "\n")
    check_student(root, lab, dest, files)
    if prebuilt:
        copy_objects(prebuilt, os.path.join(dest, "build"))
    if init_git:
        git(dest, "init", "-q")
        git(dest, "add", "-A")
        git(dest, "commit", "-q", "-m",
            f"mm86 lab {lab_name}: the hand-out\n\n{lab.title}\n")
        git(dest, "tag", BASE_TAG)
    return changed


def _secret_lines(root: str, files: list[str], lab: str) -> dict[str, str]:
    """The lines a student of lab must not find, stripped, each with what
    it gives away: the lab's solution lines, and the lines the exercises'
    patches add (their answers), less those that the student tree's code
    holds anyway (the same line in other code, or in a stub).  A document
    that quotes one gives it away: it counts."""
    pieces = tree_pieces(root, files)
    secret: dict[str, str] = {}
    public: set[str] = set()
    for path, split in pieces.items():
        for piece in split:
            if isinstance(piece, str):
                public.add(piece.strip())
            elif piece.lab == lab:
                for line in piece.solution:
                    secret.setdefault(line.strip(), f"{path}:{piece.begin} "
                                      f"(lab {lab}'s solution)")
                public |= {line.strip() for line in piece.stub}
            else:
                public |= {line.strip() for line in piece.solution}
    for path in files:
        if path in pieces:
            continue
        try:
            text = read(root, path)
        except (UnicodeDecodeError, OSError):
            continue
        if student_file(path) and path.endswith(MARKED_EXT):
            public |= {line.strip() for line in text.splitlines()}
        elif path.endswith(".patch"):
            for line in text.splitlines():
                if line.startswith("+") and not line.startswith("+++"):
                    secret.setdefault(line[1:].strip(), f"{path} (an answer)")
    return {line: why for line, why in secret.items()
            if len(line) >= SECRET_LINE_MIN and line not in public}


def check_student(root: str, lab: Lab, dest: str,
                  files: list[str] | None = None) -> None:
    """Nothing of the teacher's reaches the student tree at dest: no
    teacher-only file, no region marker, no solution-only identifier of
    lab, and no line of lab's solution or of an exercise's answer; raises
    LabError naming each."""
    files = files if files is not None else tree_files(root)
    secret = solution_only(root, files, lab.name) | set(lab.hidden)
    lines = _secret_lines(root, files, lab.name)
    errors = []
    for path in sorted(tree_files(dest) if os.path.isdir(
            os.path.join(dest, ".git")) else _walk(dest)):
        if not student_file(path):
            errors.append(f"{path}: a teacher's file reached the student tree")
        try:
            text = read(dest, path)
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if path.endswith(MARKED_EXT) and re.search(
                    r"LAB " + NAME + r": (BEGIN|STUB|END)", line):
                errors.append(f"{path}:{n}: a region marker survived")
            if line.strip() in lines:
                errors.append(f"{path}:{n}: a line of "
                              f"{lines[line.strip()]} survived")
            if not path.startswith(LABS_DIR + "/"):
                for ident in identifiers(line) & secret:
                    errors.append(f"{path}:{n}: solution-only identifier "
                                  f"{ident} survived")
    if errors:
        raise LabError("\n".join(errors))


def _walk(top: str) -> list[str]:
    """Every file under top, relative to it (a tree before git init)."""
    out = []
    for d, dirs, names in os.walk(top):
        dirs[:] = [x for x in dirs if x not in (".git", "build")]
        out += [os.path.relpath(os.path.join(d, n), top) for n in names]
    return out


OBJECT_DIRS = ("arch", "boot", "kernel", "lib", "mm", "tests")


def copy_objects(build: str, dest_build: str) -> None:
    """Copies the kernel's objects and dependency files, times kept."""
    for d in OBJECT_DIRS:
        src = os.path.join(build, d)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest_build, d),
                            dirs_exist_ok=True)


def copy_tree(root: str, dest: str, prebuilt: str | None = None) -> None:
    """A copy of root's files (times kept) at dest, for a patched build."""
    os.makedirs(dest, exist_ok=True)
    for path in tree_files(root):
        dst = os.path.join(dest, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(root, path), dst, follow_symlinks=False)
    if prebuilt:
        copy_objects(prebuilt, os.path.join(dest, "build"))


def tail(text: str, n: int = 8) -> str:
    """The last n non-blank lines of a build's output, indented."""
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n    ".join(lines[-n:])


def patched_copy(root: str, dest: str, patch: str | None,
                 target: str = "build/mm86.elf",
                 host: bool = False) -> str | None:
    """A copy of root at dest (with root's objects, so that make rebuilds
    only what the patch touches), patch applied, target made; None, or
    what went wrong (the patch does not apply, the build's last lines).
    host: the user-space build's objects are copied too."""
    shutil.rmtree(dest, ignore_errors=True)
    copy_tree(root, dest, prebuilt=os.path.join(root, "build"))
    if host and os.path.isdir(os.path.join(root, "build", "host")):
        shutil.copytree(os.path.join(root, "build", "host"),
                        os.path.join(dest, "build", "host"),
                        dirs_exist_ok=True)
    if patch:
        # The copy is no repository: never let git find one above it (in
        # a repository's subdirectory git apply skips the paths outside).
        env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(
            os.path.abspath(dest)))
        res = subprocess.run(["git", "apply", os.path.abspath(patch)],
                             cwd=dest, env=env, capture_output=True,
                             text=True)
        if res.returncode != 0:
            why = res.stderr.strip().splitlines() or ["git apply failed"]
            return f"{os.path.relpath(patch, root)} does not apply: {why[0]}"
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    res = subprocess.run(["make", "--no-print-directory", "-j1", target],
                         cwd=dest, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        return f"make {target} failed:\n    {tail(res.stdout + res.stderr)}"
    return None
