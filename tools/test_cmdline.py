#!/usr/bin/env python3
"""The kernel command line reaches the kernel byte for byte: real boots.

make run hands APPEND to the kernel with neither make nor a shell
expanding it (the Makefile's MM86_APPEND, tools/qemu-run --append-env),
and tools/mkiso quotes it for GRUB.  Each case boots the built kernel
(make run, or a GRUB ISO made for the case) with a command line holding
what a shell or make would have eaten - "$", quotes, backticks, ";" -
including the guide's own examples, and compares the kernel's echo
("Command line: ...") with what was asked.  Make is run from an argument
list, never through a shell.  Skipped without QEMU or build/mm86.elf.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KERNEL = os.path.join(ROOT, "build", "mm86.elf")
QUICK = "ktest.filter=lib.*"
ECHO_RE = re.compile(r"^\[[ \d.]+\] Command line: (.*)$", re.M)

# The guide's (docs/guide.md) and README's examples of APPEND with
# characters a shell or make would take, and a hostile one.
EXAMPLES = [
    "memmap=64M$256M",
    'foo="a b"',
    "x=`touch /tmp/mm86-pwned` y=$(id) ; z='q'",
    "memmap=64M\\$256M",
]


def have_qemu() -> bool:
    return shutil.which(os.environ.get("QEMU", "qemu-system-i386")) is not None


def echoed(log_path: str) -> str | None:
    with open(log_path, encoding="utf-8", errors="replace") as f:
        m = ECHO_RE.search(f.read())
    return m.group(1) if m else None


@unittest.skipUnless(have_qemu() and os.path.exists(KERNEL),
                     "needs qemu-system-i386 and build/mm86.elf")
class ByteForByte(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mm86-cmdline-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_make_run_passes_append_as_written(self):
        for i, words in enumerate(EXAMPLES):
            cmdline = f"{words} {QUICK}"
            log = os.path.join(self.tmp, f"run{i}.log")
            env = dict(os.environ)
            env.pop("MAKEFLAGS", None)
            res = subprocess.run(
                ["make", "--no-print-directory", "-C", ROOT, "run",
                 f"APPEND={cmdline}", f"RUN_LOG={log}", "RUN_TIMEOUT=120"],
                capture_output=True, text=True, env=env)
            self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
            self.assertEqual(echoed(log), cmdline)
        self.assertFalse(os.path.exists("/tmp/mm86-pwned"),
                         "a backtick in APPEND ran on the host")

    def test_grub_passes_dollars_and_backticks(self):
        cmdline = f"memmap=64M$256M x=`echo;hi` {QUICK}"
        stamp = os.path.join(self.tmp, "append.txt")
        with open(stamp, "w", encoding="utf-8") as f:
            f.write(cmdline + "\n")
        for entry, boot, opt in (("0", "iso", "--iso"),
                                 ("1", "iso-mb1", "--iso-mb1")):
            iso = os.path.join(self.tmp, f"t{entry}.iso")
            log = os.path.join(self.tmp, f"iso{entry}.log")
            res = subprocess.run([sys.executable, os.path.join(HERE, "mkiso"),
                                  iso, KERNEL, os.path.join(ROOT, "iso",
                                                            "grub.cfg"),
                                  stamp, entry], capture_output=True,
                                 text=True)
            if res.returncode and "not installed" in res.stderr:
                self.skipTest(res.stderr.strip())
            self.assertEqual(res.returncode, 0, res.stderr)
            res = subprocess.run([sys.executable,
                                  os.path.join(HERE, "qemu-run"), "--boot",
                                  boot, opt, iso, "--log", log,
                                  "--timeout", "120"],
                                 capture_output=True, text=True,
                                 stdin=subprocess.DEVNULL)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertEqual(echoed(log), cmdline)

    def test_grub_refuses_what_it_would_requote(self):
        stamp = os.path.join(self.tmp, "append.txt")
        with open(stamp, "w", encoding="utf-8") as f:
            f.write('foo="a b"\n')
        res = subprocess.run([sys.executable, os.path.join(HERE, "mkiso"),
                              os.path.join(self.tmp, "t.iso"), KERNEL,
                              os.path.join(ROOT, "iso", "grub.cfg"), stamp,
                              "0"], capture_output=True, text=True)
        self.assertEqual(res.returncode, 1)
        self.assertIn("holds a quote or a backslash, which GRUB re-quotes",
                      res.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "t.iso")))

    def test_make_keeps_the_iso_command_line_as_written(self):
        build = os.path.join(self.tmp, "build")
        env = dict(os.environ)
        env.pop("MAKEFLAGS", None)
        for var, value in (("APPEND", "a$b x=`c`"), ("ISO_APPEND", "d$e")):
            subprocess.run(["make", "-n", "-C", ROOT, f"BUILD={build}",
                            "BOOT=iso", f"{var}={value}", "iso"],
                           capture_output=True, text=True, env=env)
            with open(os.path.join(build, "iso-append.txt"),
                      encoding="utf-8") as f:
                self.assertEqual(f.read(), value + "\n")


if __name__ == "__main__":
    unittest.main()
