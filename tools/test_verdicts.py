#!/usr/bin/env python3
"""Unit tests of tools/verdicts.py (recorded verdicts) and of the runner's
scheduling helpers (shared runs, durations)."""

import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runner  # noqa: E402
import verdicts  # noqa: E402


def git_tree(files: dict) -> str:
    root = tempfile.mkdtemp(prefix="mm86-verdicts-")
    subprocess.run(["git", "init", "-q", root], check=True)
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return root


class DigestTest(unittest.TestCase):
    def setUp(self):
        # The toolchain is the machine's: the same in both digests.
        self.tools = mock.patch.object(verdicts, "toolchain",
                                       lambda root: ["cc 1"])
        self.tools.start()
        self.root = git_tree({"mm/a.c": "int a;\n", "Makefile":
                              "NR_CPUS ?= 16\nFORCE ?=\n",
                              "build/mm86.elf": "ELF1"})
        with open(os.path.join(self.root, ".gitignore"), "w") as f:
            f.write("build/\n")

    def tearDown(self):
        self.tools.stop()
        subprocess.run(["rm", "-rf", self.root])

    def digest(self, **env):
        with mock.patch.dict(os.environ, env, clear=False):
            return verdicts.inputs_digest(self.root, ["build/mm86.elf"])

    def test_same_inputs_same_digest(self):
        self.assertEqual(self.digest(), self.digest())

    def test_a_source_change_changes_it(self):
        before = self.digest()
        with open(os.path.join(self.root, "mm/a.c"), "a") as f:
            f.write("int b;\n")
        self.assertNotEqual(before, self.digest())

    def test_an_untracked_new_file_changes_it(self):
        before = self.digest()
        with open(os.path.join(self.root, "mm/new.c"), "w") as f:
            f.write("\n")
        self.assertNotEqual(before, self.digest())

    def test_the_built_kernel_changes_it(self):
        before = self.digest()
        with open(os.path.join(self.root, "build/mm86.elf"), "w") as f:
            f.write("ELF2")
        self.assertNotEqual(before, self.digest())

    def test_the_toolchain_changes_it(self):
        before = self.digest()
        with mock.patch.object(verdicts, "toolchain", lambda r: ["cc 2"]):
            self.assertNotEqual(before, self.digest())

    def test_make_variables_change_it_but_not_force_or_jobs(self):
        base = self.digest(MAKEFLAGS="")
        self.assertNotEqual(base, self.digest(NR_CPUS="4"))
        self.assertNotEqual(base, self.digest(MAKEFLAGS="-- NR_CPUS=4"))
        self.assertEqual(base, self.digest(
            MAKEFLAGS="w -j2 --jobserver-auth=3,4 -- FORCE=1 JOBS=1"))
        self.assertEqual(base, self.digest(FORCE="1"))


class StoreTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="mm86-verdicts-")

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.root])

    def test_round_trip_and_keys(self):
        store = verdicts.Store(self.root, "build", "d1")
        self.assertIsNone(store.get("lab prove *"))
        store.put("lab prove *", {"lines": ["  PASS  x"], "passed": 1,
                                  "seconds": 2.0})
        self.assertEqual(store.get("lab prove *")["lines"], ["  PASS  x"])
        self.assertIsNone(store.get("lab prove buddy"))
        self.assertIsNone(verdicts.Store(self.root, "build", "d2")
                          .get("lab prove *"))
        self.assertIsNone(verdicts.Store(self.root, "build", "d1",
                                         force=True).get("lab prove *"))

    def test_read_reused(self):
        path = os.path.join(self.root, "counts.txt")
        with open(path, "w") as f:
            f.write("reused 7\n9 passed, 0 failed\n")
        self.assertEqual(verdicts.read_reused(path), 7)
        self.assertEqual(runner.read_extra_counts(path).passed, 9)
        self.assertEqual(verdicts.read_reused(path + ".none"), 0)


class SchedulingTest(unittest.TestCase):
    MATRIX = ("a | elf | -m 64M | ktest.misuse=x | fail exit=35 line=A\n"
              "b | elf | -m 64M | ktest.misuse=x | fail exit=35 line=B\n"
              "c | elf | -m 128M | ktest.misuse=x | fail exit=35 line=A\n"
              "d | elf | -m 64M | ktest.misuse=y | fail exit=35 line=A\n")

    def test_same_run_only_when_image_options_and_cmdline_agree(self):
        boots = runner.parse_matrix(self.MATRIX)
        keys = [runner.same_run_key(b) for b in boots]
        self.assertEqual(keys[0], keys[1])
        self.assertEqual(len(set(keys)), 3)

    def test_a_boot_is_reused_only_while_its_log_is_unchanged(self):
        root = tempfile.mkdtemp(prefix="mm86-verdicts-")
        try:
            boot = runner.parse_matrix(self.MATRIX)[0]
            log = os.path.join(root, "a.log")
            with open(log, "w") as f:
                f.write("A\n")
            store = verdicts.Store(root, "", "d1")
            verdict = runner.Verdict(
                passed=True, counts=runner.ktap.Counts(1, 0, 0),
                rows=[runner.Row("(must fail)", runner.ktap.Counts(1, 0, 0),
                                 "failed as expected")],
                summary="failed as expected: exit 35")
            runner.record_boot(store, boot, log, verdict, 0.5)
            record = runner.reusable(store, boot, log)
            self.assertIsNotNone(record)
            again = runner.record_verdict(record)
            self.assertEqual(again.counts, verdict.counts)
            self.assertEqual([(r.suite, r.counts, r.note) for r in again.rows],
                             [(r.suite, r.counts, r.note)
                              for r in verdict.rows])
            other = runner.parse_matrix(self.MATRIX)[1]
            self.assertIsNone(runner.reusable(store, other, log))
            with open(log, "a") as f:
                f.write("edited\n")
            self.assertIsNone(runner.reusable(store, boot, log))
            os.remove(log)
            self.assertIsNone(runner.reusable(store, boot, log))
        finally:
            subprocess.run(["rm", "-rf", root])

    def test_durations_round_trip(self):
        logs = tempfile.mkdtemp(prefix="mm86-verdicts-")
        try:
            self.assertEqual(runner.read_durations(logs), {})
            runner.write_durations(logs, {"a": 1.5, "b": 30.0})
            self.assertEqual(runner.read_durations(logs),
                             {"a": 1.5, "b": 30.0})
        finally:
            subprocess.run(["rm", "-rf", logs])


if __name__ == "__main__":
    unittest.main()
