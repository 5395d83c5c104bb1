#!/usr/bin/env python3
"""Unit tests of tools/exercises.py's parsing and judging, and of
runner.running_case(), which names the case a log stopped in."""

from __future__ import annotations

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exercises  # noqa: E402
import runner  # noqa: E402

HEAD = """\
KTAP version 1
# ktest: seed 1 (replay with ktest.seed=1)
1..1
    KTAP version 1
    # Subtest: buddy
    1..3
"""

FAILING = HEAD + """\
    ok 1 first
    # second: EXPECTATION FAILED at tests/buddy_test.c:10
    # the telling message
    # second: EXPECTATION FAILED at tests/buddy_test.c:11
    # Expected a == b, but
[    0.5] a kernel message in between
    # second: ... 3 more failures not shown
    not ok 2 second
    ok 3 third
# buddy: pass:2 fail:1 skip:0 total:3
not ok 1 buddy
# totals: pass:2 fail:1 skip:0 total:3
"""

STOPPED = HEAD + """\
    ok 1 first
    # second: EXPECTATION FAILED at tests/buddy_test.c:10
    # the telling message
[    0.6] BUG: kernel NULL pointer dereference, address: 00000000
[    0.7] Kernel panic - not syncing: Fatal exception
[    0.7] ktest: the kernel stopped in case buddy.second
[    0.7] ---[ end Kernel panic - not syncing: Fatal exception ]---
"""

ENTRY = """\
# a comment
exercise 01-buddy
  patch   01-buddy.patch
  qemu    -m 256M -smp 2
  append  ktest.filter=buddy.*
  fail    buddy.second telling message
"""


def entry(text: str = ENTRY) -> exercises.Exercise:
    return exercises.parse(text)[0]


class TestParse(unittest.TestCase):
    def test_entry(self):
        ex = entry()
        self.assertEqual("01-buddy", ex.id)
        self.assertEqual(["-m", "256M", "-smp", "2"], ex.qemu)
        self.assertEqual("ktest.filter=buddy.*", ex.append)
        self.assertEqual(["buddy.second"], list(ex.fails))
        self.assertEqual("exact", ex.cases)

    def test_bad_lines_are_named(self):
        for text, says in [
                ("exercise 1-x\n  qemu -m 1G\n", "NN-name"),
                ("qemu -m 1G\n", "before any 'exercise'"),
                ("exercise 01-x\n  frobnicate 1\n", "unknown directive"),
                ("exercise 01-x\n  patch none\n", "needs qemu"),
                ("exercise 01-x\n  qemu -m 1G\n  fail buddy (\n",
                 "fail SUITE.CASE REGEX"),
                ("exercise 01-x\n  qemu -m 1G\n  figure f ~ (\\d+)\n",
                 "figure NAME OP REGEX"),
                ("exercise 01-x\n  qemu -m 1G\n  figure f < \\d+\n",
                 "a group"),
                ("exercise 01-x\n  qemu -m 1G\n  cases any\n"
                 "  fail a.b c\n", "cases exact")]:
            with self.subTest(text=text):
                with self.assertRaises(exercises.ExerciseError) as cm:
                    exercises.parse(text, "x.txt")
                self.assertIn(says, str(cm.exception))

    def test_the_real_file_parses(self):
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with open(os.path.join(root, exercises.EXERCISES)) as f:
            found = exercises.parse(f.read())
        numbers = {ex.id[:2] for ex in found}
        self.assertEqual({f"{n:02d}" for n in range(1, 15)}, numbers)
        for ex in found:
            if ex.patch:
                self.assertTrue(os.path.isfile(os.path.join(
                    root, exercises.PATCH_DIR, ex.patch)), ex.patch)


class TestJudge(unittest.TestCase):
    def test_first_failure_is_the_first_block(self):
        self.assertEqual("# second: EXPECTATION FAILED at "
                         "tests/buddy_test.c:10\n# the telling message",
                         exercises.first_failure(FAILING, "buddy.second"))
        self.assertIsNone(exercises.first_failure(FAILING, "buddy.first"))

    def test_expected_failure_passes(self):
        ok, text = exercises.judge(entry(), FAILING, False)
        self.assertTrue(ok, text)
        self.assertEqual("buddy.second failed as expected", text)

    def test_wrong_message_is_quoted(self):
        ex = entry(ENTRY.replace("telling message", "another message"))
        ok, text = exercises.judge(ex, FAILING, False)
        self.assertFalse(ok)
        self.assertIn("buddy.second's first failure does not match "
                      "'another message': # second: EXPECTATION FAILED",
                      text)

    def test_other_failures_and_passes_are_named(self):
        ex = entry(ENTRY.replace("buddy.second", "buddy.third"))
        ok, text = exercises.judge(ex, FAILING, False)
        self.assertFalse(ok)
        self.assertIn("buddy.third did not fail", text)
        self.assertIn("1 other case failed: buddy.second", text)

    def test_a_stop_names_the_case(self):
        ok, text = exercises.judge(entry(), STOPPED, False)
        self.assertFalse(ok)
        self.assertEqual("the kernel stopped in case buddy.second", text)

    def test_an_expected_stop(self):
        ex = entry(ENTRY + "  stops buddy.second\n")
        ok, text = exercises.judge(ex, STOPPED, False)
        self.assertTrue(ok, text)
        ex = entry(ENTRY + "  stops buddy.third\n")
        ok, text = exercises.judge(ex, STOPPED, False)
        self.assertFalse(ok)
        self.assertIn("did not stop in buddy.third (it stopped in "
                      "buddy.second)", text)

    def test_an_expected_panic_outside_the_cases(self):
        log = ("[    0.1] BUG: scheduling while atomic: swapper/0/0/0x2\n"
               "[    0.1] Kernel panic - not syncing: scheduling while "
               "atomic\n")
        ex = entry("exercise 11-x\n  qemu -m 1G\n"
                   "  panic scheduling while atomic\n")
        ok, text = exercises.judge(ex, log, False)
        self.assertTrue(ok, text)
        self.assertEqual("panicked: scheduling while atomic", text)
        ok, text = exercises.judge(ex, "no panic\n", False)
        self.assertFalse(ok)
        self.assertIn("the kernel did not panic", text)
        ok, text = exercises.judge(ex, STOPPED, False)
        self.assertFalse(ok)
        self.assertIn("the panic: Fatal exception", text)

    def test_timeout_names_the_case(self):
        log = FAILING[: FAILING.index("    not ok 2")]
        ok, text = exercises.judge(entry(), log, True)
        self.assertFalse(ok)
        self.assertEqual("no verdict within 60 s (running: buddy.second)",
                         text)

    def test_figures(self):
        ex = entry("exercise 02-x\n  qemu -m 1G\n  cases any\n"
                   "  figure locks x10 acquisitions: (\\d+)\n")
        patched = "    # z: bench: acquisitions: 1000 (batch 1)\n"
        ok, text = exercises.judge(ex, patched, False,
                                   "    # z: acquisitions: 31\n")
        self.assertTrue(ok, text)
        self.assertEqual("locks 1000 (unpatched 31)", text)
        ok, text = exercises.judge(ex, patched, False,
                                   "    # z: acquisitions: 101\n")
        self.assertFalse(ok)
        self.assertIn("figure locks 1000 (unpatched 101) is not x10", text)
        ok, text = exercises.judge(ex, "nothing\n", False, patched)
        self.assertIn("no line of this run matches", text)


class TestRunningCase(unittest.TestCase):
    def test_the_stopped_line_wins(self):
        self.assertEqual("buddy.second", runner.running_case(STOPPED))

    def test_a_diagnostic_names_the_open_case(self):
        log = FAILING[: FAILING.index("    not ok 2")]
        self.assertEqual("buddy.second", runner.running_case(log))

    def test_after_a_result_the_next_case_is_counted(self):
        log = HEAD + "    ok 1 first\n"
        self.assertEqual("case 2 of suite buddy, after buddy.first",
                         runner.running_case(log))
        self.assertEqual("case 1 of suite buddy", runner.running_case(HEAD))

    def test_outside_a_suite_nothing(self):
        self.assertIsNone(runner.running_case(FAILING))
        self.assertIsNone(runner.running_case(""))


if __name__ == "__main__":
    unittest.main()
