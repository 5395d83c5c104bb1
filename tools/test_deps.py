#!/usr/bin/env python3
"""Unit tests for tools/deps.sh: what it checks, what it prints, what it runs.

Each case runs a copy of deps.sh in a scratch directory with a PATH of
stand-ins only: dpkg-query answers from a fixed set of "installed" packages
and, like apt-get, records each call; sudo is there or not; the real find,
id and sort are linked in.  Nothing is installed and the machine's own apt
is never reached.  The cases for a user run as nobody (setpriv) when the
tests run as root; the cases for root are skipped when they do not.

Run from the repository root with either of
    python3 -m unittest tools/test_deps.py
    python3 tools/test_deps.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DEPS = os.path.join(HERE, "deps.sh")
BASH = shutil.which("bash")
SETPRIV = shutil.which("setpriv")
ROOT = os.geteuid() == 0
NOBODY = 65534

GOAL = "make run"
DEPS_CMD = 'make deps DEPS_FOR="run"'
INSTALL = "apt-get install -y --no-install-recommends"


class Sandbox:
    """A directory with deps.sh, its stand-in tools and a place to build."""

    def __init__(self, installed, sudo=False, apt_status=0):
        self.dir = tempfile.mkdtemp(prefix="mm86-deps-")
        os.chmod(self.dir, 0o777)
        self.bin = os.path.join(self.dir, "bin")
        os.mkdir(self.bin)
        os.chmod(self.bin, 0o755)
        for tool in ("find", "id", "sort"):
            os.symlink(shutil.which(tool), os.path.join(self.bin, tool))
        self.script = os.path.join(self.dir, "deps.sh")
        shutil.copy(DEPS, self.script)
        os.chmod(self.script, 0o755)
        self.dpkg_log = os.path.join(self.dir, "dpkg.log")
        self.apt_log = os.path.join(self.dir, "apt.log")
        names = " ".join(installed)
        # dpkg-query -W -f=FORMAT PACKAGE...: "ii  NAME" for each installed
        self._tool("dpkg-query", f'echo "$*" >> {self.dpkg_log}\n'
                   f'for p in "${{@:3}}"; do\n'
                   f'\tcase " {names} " in *" $p "*) echo "ii  $p" ;; esac\n'
                   f'done\n')
        self._tool("apt-get", f'echo "$*" >> {self.apt_log}\n'
                   f'[ "$1" = update ] || exit {apt_status}\n')
        if sudo:
            self._tool("sudo", "exit 99\n")
        self.build = os.path.join(self.dir, "build")

    def _tool(self, name, body):
        path = os.path.join(self.bin, name)
        with open(path, "w") as f:
            f.write(f"#!{BASH}\n{body}")
        os.chmod(path, 0o755)

    def make_build(self, owner_is_runner=True):
        os.mkdir(self.build)
        if ROOT and owner_is_runner:
            os.chown(self.build, NOBODY, NOBODY)

    def run(self, packages, as_root=False, report=False):
        argv = [BASH, self.script, "--goal", GOAL, "--deps", DEPS_CMD,
                "--build", "build"] + (["--report"] if report else [])
        argv += ["--"] + list(packages)
        if ROOT and not as_root:
            argv = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}",
                    "--clear-groups"] + argv
        env = {"PATH": self.bin, "HOME": self.dir}
        proc = subprocess.run(argv, cwd=self.dir, env=env, timeout=30,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        return proc.returncode, proc.stdout, proc.stderr

    def lines(self, path):
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return f.read().splitlines()

    def close(self):
        shutil.rmtree(self.dir)


def user_name():
    return subprocess.run(["id", "-un"] + ([str(NOBODY)] if ROOT else []),
                          stdout=subprocess.PIPE, text=True).stdout.strip()


@unittest.skipUnless(BASH and (not ROOT or SETPRIV),
                     "needs bash (and setpriv as root)")
class AsUser(unittest.TestCase):
    def sandbox(self, *args, **kwargs):
        box = Sandbox(*args, **kwargs)
        self.addCleanup(box.close)
        return box

    def test_all_installed_is_silent_and_remembered(self):
        box = self.sandbox(["gcc", "python3", "qemu-system-x86"])
        box.make_build()
        self.assertEqual(box.run(["python3", "gcc"]), (0, "", ""))
        self.assertEqual(box.lines(os.path.join(box.build, ".deps-ok")),
                         ["gcc", "python3"])
        # answered from build/.deps-ok: dpkg is not asked again
        self.assertEqual(box.run(["gcc"]), (0, "", ""))
        self.assertEqual(len(box.lines(box.dpkg_log)), 1)
        # a package not in it is asked about, and added
        self.assertEqual(box.run(["qemu-system-x86", "gcc"]), (0, "", ""))
        self.assertEqual(len(box.lines(box.dpkg_log)), 2)
        self.assertEqual(box.lines(os.path.join(box.build, ".deps-ok")),
                         ["gcc", "python3", "qemu-system-x86"])

    def test_missing_without_sudo_prints_su_command(self):
        box = self.sandbox(["python3"])
        status, out, err = box.run(["python3", "gcc", "clang"])
        self.assertEqual(status, 1)
        self.assertEqual(out, "")
        lines = err.splitlines()
        self.assertEqual(lines[:4], [
            f"mm86: `{GOAL}` needs Debian packages that are not installed:",
            "mm86:     gcc clang",
            "mm86: install them with:",
            f"    su -c 'apt-get update && {INSTALL} gcc clang'",
        ])
        self.assertEqual(lines[4],
                         f"mm86: or, in this directory:  su -c '{DEPS_CMD}'")
        self.assertEqual(lines[-1], f"mm86: Then run `{GOAL}` again as "
                         "yourself, not as root.")
        self.assertEqual(box.lines(box.apt_log), [])
        self.assertFalse(os.path.exists(box.build))

    def test_missing_with_sudo_prints_sudo_command(self):
        box = self.sandbox([], sudo=True)
        status, _, err = box.run(["gcc"])
        self.assertEqual(status, 1)
        lines = err.splitlines()
        self.assertEqual(lines[3],
                         f"    sudo apt-get update && sudo {INSTALL} gcc")
        self.assertEqual(lines[4],
                         f"mm86: or, in this directory:  sudo {DEPS_CMD}")

    def test_unwritable_build_names_the_file_and_the_fix(self):
        box = self.sandbox(["gcc"])
        box.make_build()
        obj = os.path.join(box.build, "mm86.elf")
        with open(obj, "w"):
            pass
        os.chmod(obj, 0o444)
        status, out, err = box.run(["gcc"])
        self.assertEqual((status, out), (1, ""))
        lines = err.splitlines()
        self.assertEqual(lines[:3], [
            "mm86: you cannot write build/mm86.elf (a build run as root?).",
            "mm86: remove build/ with:   su -c 'rm -rf build'",
            "mm86: or take it back with:  "
            f"su -c 'chown -R {user_name()}: build'",
        ])
        self.assertEqual(box.lines(box.dpkg_log), [])


@unittest.skipUnless(BASH and ROOT, "needs root")
class AsRoot(unittest.TestCase):
    def sandbox(self, *args, **kwargs):
        box = Sandbox(*args, **kwargs)
        self.addCleanup(box.close)
        return box

    def test_installs_only_the_missing_and_creates_no_build(self):
        box = self.sandbox(["python3"])
        status, out, err = box.run(["python3", "gcc", "clang"], as_root=True)
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(box.lines(box.apt_log),
                         ["update", INSTALL[len("apt-get "):] + " gcc clang"])
        self.assertEqual(out.splitlines(), [
            f"mm86: `{GOAL}` needs: gcc clang",
            f"mm86: apt-get update && {INSTALL} gcc clang",
            "mm86: installed gcc clang",
        ])
        self.assertFalse(os.path.exists(box.build))

    def test_make_deps_leaves_nothing_in_a_users_build(self):
        box = self.sandbox(["gcc"])
        box.make_build()
        self.assertEqual(box.run(["gcc"], as_root=True, report=True),
                         (0, "mm86: installed already: gcc\n", ""))
        self.assertEqual(os.listdir(box.build), [])
        # nor does a build as root in a directory root does not own
        self.assertEqual(box.run(["gcc"], as_root=True), (0, "", ""))
        self.assertEqual(os.listdir(box.build), [])

    def test_failed_install_fails(self):
        box = self.sandbox([], apt_status=100)
        status, _, err = box.run(["gcc"], as_root=True)
        self.assertEqual(status, 1)
        self.assertEqual(err.splitlines()[-1], "mm86: apt-get install failed "
                         f"(above); `{GOAL}` needs: gcc")


if __name__ == "__main__":
    unittest.main()
