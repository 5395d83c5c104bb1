"""Recorded verdicts of make test's slow checks, reused while nothing they
depend on has changed.

make test-labs (tools/lab.py prove) and make test-exercises
(tools/exercises.py) cut, patch, build and boot trees: minutes of work whose
verdict is a function of their inputs.  When one of them passes, its
verdict (the lines it printed and its counts) is recorded under
build/verdicts/, keyed on a digest of every input that could change it:

  - every file of the tree as git sees it (tracked and untracked, not
    ignored), path and contents: the reference sources of the kernel and
    the host build, labs/, tests/exercises.txt and its patches, the tools
    (this file included), the Makefile and linker.ld;
  - the prebuilt files a check starts from or runs (--built: the reference
    kernel, the host binary), by contents;
  - the toolchain and emulator: for the cross compiler, the host compiler,
    the assembler and linker they run, QEMU and Python, the resolved
    program's contents and its --version; QEMU's firmware files
    (SeaBIOS, the multiboot and linuxboot option ROMs);
  - the environment variables the Makefile reads (each NAME ?= ... and
    CROSS) and the variables given on make's command line (MAKEFLAGS, less
    the job server's), which reach the builds inside the checks;
  - the check itself (a lab list, an exercise ID, a boot's matrix line).

The runner (--reuse) keys each boot on the images it starts (kernel,
ISOs, OVMF) and the same toolchain and tree, and reuses a boot only
while its log is the one the recorded run left; the post-boot checks key
on the logs they read and the browser.

A later run with the same digest prints the recorded lines, marked
"(reused)", and counts them exactly as the run did; a failure is never
recorded, so a failing check runs every time.  FORCE=1 (--force) runs
everything and records afresh; a clean clone has no build/verdicts and
runs everything.  Counts files (and the post-boot checks' output) gain a
line "reused N" that tools/runner.py adds up and reports before its last
line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import labtree  # noqa: E402

VERSION = 1
QEMU_FIRMWARE = ("bios-256k.bin", "bios.bin", "multiboot.bin",
                 "multiboot_dma.bin", "linuxboot.bin", "linuxboot_dma.bin",
                 "kvmvapic.bin")
FIRMWARE_DIRS = ("/usr/share/qemu", "/usr/share/seabios")
REUSED_RE = re.compile(r"reused (\d+)")


def _file_digest(path: str) -> str:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError as e:
        return f"unreadable ({e.strerror})"
    return h.hexdigest()


def _run(cmd: list[str]) -> str:
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (res.stdout + res.stderr).strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"cannot run ({e})"


def program(name: str) -> list[str]:
    """What identifies a program: its resolved path, contents, version."""
    path = shutil.which(name) if os.sep not in name else name
    if not path:
        return [f"{name}: not found"]
    real = os.path.realpath(path)
    version = (_run([real, "--version"]).splitlines() or [""])[0]
    return [f"{name}: {real} {_file_digest(real)} {version}"]


# Make variables that choose what runs or how many at once, never what a
# check's verdict is (a check's own name says which labs or step it is).
NOT_INPUTS = {"FORCE", "JOBS", "EXERCISE_JOBS", "ONLY", "ONLY_EXERCISES",
              "FUZZ_TEST_SECONDS", "GDBPORT", "LOG", "DEPS_FOR"}


def _makefile_variables(root: str) -> list[str]:
    try:
        with open(os.path.join(root, "Makefile"), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return []
    names = set(re.findall(r"^(\w+)\s*\?=", text, re.M)) | {"CROSS"}
    return sorted(names - NOT_INPUTS)


def _makeflags() -> str:
    """The variables given on make's command line, as MAKEFLAGS passes
    them to the builds inside the checks (and -e, which lets the
    environment override the Makefile); the other flags say how make
    runs, not what it builds."""
    words = os.environ.get("MAKEFLAGS", "").split()
    kept = [w for w in words if "=" in w and not w.startswith("-")
            and w.split("=", 1)[0].rstrip(":+?") not in NOT_INPUTS]
    if words and not words[0].startswith("-") and "e" in words[0]:
        kept.insert(0, "-e")
    return " ".join(sorted(kept))


def toolchain(root: str) -> list[str]:
    """The programs and firmware the checks use, identified."""
    env = os.environ
    cross = env.get("CROSS")
    if cross is None:
        cross = ("i686-elf-" if shutil.which("i686-elf-gcc")
                 else "i686-linux-gnu-")
    cc = cross + "gcc"
    out = []
    for prog in (cc, cross + "ld", cross + "as", cross + "nm",
                 env.get("HOSTCC", "gcc"),
                 env.get("QEMU", "qemu-system-i386"), sys.executable, "make",
                 "git"):
        out += program(prog)
    for part in ("cc1", "as", "ld"):
        prog = _run([cc, f"-print-prog-name={part}"])
        if os.sep in prog:
            out += program(prog)
    out.append("libgcc " + _file_digest(
        _run([cc, "-m32", "-print-libgcc-file-name"])))
    for d in FIRMWARE_DIRS:
        for name in QEMU_FIRMWARE:
            path = os.path.join(d, name)
            if os.path.exists(path):
                out.append(f"{path} {_file_digest(os.path.realpath(path))}")
    return out


def inputs_digest(root: str, built: list[str] = (),
                  programs: list[str] = ()) -> str:
    """The digest of everything a check's verdict depends on (but the
    check itself); programs: more programs it runs, identified."""
    root = os.path.abspath(root)
    h = hashlib.sha256(f"mm86 verdicts {VERSION}\n".encode())
    for path in labtree.tree_files(root):
        h.update(f"file {path} {_file_digest(os.path.join(root, path))}\n"
                 .encode())
    for path in built:
        h.update(f"built {path} {_file_digest(os.path.join(root, path))}\n"
                 .encode())
    for line in toolchain(root) + [p for name in programs
                                   for p in program(name)]:
        h.update(f"tool {line}\n".encode())
    for name in _makefile_variables(root):
        if name in os.environ:
            h.update(f"env {name}={os.environ[name]}\n".encode())
    h.update(f"makeflags {_makeflags()}\n".encode())
    return h.hexdigest()


class Store:
    """build/verdicts/: one JSON file per passed check, named by the
    digest of its inputs and its own name."""

    def __init__(self, root: str, build: str, digest: str,
                 force: bool = False) -> None:
        self.dir = os.path.join(os.path.abspath(root), build, "verdicts")
        self.digest = digest
        self.force = force

    def _path(self, item: str) -> str:
        key = hashlib.sha256(f"{self.digest}\n{item}".encode()).hexdigest()
        return os.path.join(self.dir, key + ".json")

    def get(self, item: str) -> dict | None:
        """The record of item under these inputs, or None (also when
        forced)."""
        if self.force:
            return None
        try:
            with open(self._path(item), encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, ValueError):
            return None
        if record.get("item") != item or record.get("digest") != self.digest:
            return None
        return record

    def put(self, item: str, record: dict) -> None:
        os.makedirs(self.dir, exist_ok=True)
        record = dict(record, item=item, digest=self.digest,
                      recorded=time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                             time.gmtime()))
        path = self._path(item)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
        os.replace(tmp, path)


def read_reused(path: str) -> int:
    """The "reused N" lines of a counts file, added up (0 if none)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return sum(int(m.group(1)) for m in
                       (REUSED_RE.fullmatch(line.strip()) for line in f)
                       if m)
    except OSError:
        return 0
