#!/usr/bin/env python3
"""Unit tests of tools/mistakes.py: the manifest's format and the judging
of a mistake's grade (the grading itself is grade.py's, tested in
test_labs.py; make test-mistakes runs the real ones)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grade  # noqa: E402
import labtree  # noqa: E402
import mistakes  # noqa: E402

LAB = labtree.Lab("demo", "a demo", tests=[labtree.Test("demo.one", 60),
                                           labtree.Test("demo.two", 40)])

MANIFEST = """\
# comment
mistake 01-off-by-one
  what    the loop stops one short
  rule    every page is freed
  loses   demo.one

mistake 02-corrupts
  what    writes past the array
  rule    the array has n slots
  loses   demo.one demo.two
  score   0
"""


def lab_grade(*points: int) -> grade.LabGrade:
    g = grade.LabGrade("demo", "a demo", 1)
    for t, p in zip(LAB.tests, points):
        g.results.append(grade.Result(t.name, p, t.points,
                                      "ok" if p == t.points else "failed",
                                      "" if p == t.points else "Expected x"))
    return g


class Manifest(unittest.TestCase):
    def test_parses(self):
        ms = mistakes.parse(MANIFEST, LAB, "m.txt")
        self.assertEqual([m.id for m in ms], ["01-off-by-one", "02-corrupts"])
        self.assertEqual(ms[0].loses, ["demo.one"])
        self.assertIsNone(ms[0].score)
        self.assertEqual(ms[1].score, 0)
        self.assertEqual(ms[1].name, "demo/02-corrupts")

    def assertBad(self, text, words):
        with self.assertRaises(mistakes.MistakeError) as cm:
            mistakes.parse(text, LAB, "m.txt")
        self.assertIn(words, str(cm.exception))

    def test_malformed(self):
        self.assertBad("what x\n", "before the first mistake")
        self.assertBad("mistake 1-x\n", "want 'mistake NN-name'")
        self.assertBad("mistake 01-x\n  what a\n  rule b\n", "wants what, "
                       "rule and loses")
        self.assertBad("mistake 01-x\n  what a\n  rule b\n  loses demo.six\n",
                       "demo.six is not a graded case of lab demo")
        self.assertBad("mistake 01-x\n  loses one\n", "SUITE.CASE")
        self.assertBad("mistake 01-x\n  score none\n", "wants a number")
        self.assertBad("mistake 01-x\n  colour red\n", "unknown directive")
        self.assertBad(MANIFEST + MANIFEST, "twice")


class Judge(unittest.TestCase):
    def setUp(self):
        self.off, self.bad = mistakes.parse(MANIFEST, LAB, "m.txt")

    def test_loses_exactly_its_cases(self):
        ok, text = mistakes.judge(self.off, lab_grade(0, 40))
        self.assertTrue(ok, text)
        self.assertIn("40/100, lost demo.one (demo.one: Expected x)", text)

    def test_full_marks_is_a_hole(self):
        ok, text = mistakes.judge(self.off, lab_grade(60, 40))
        self.assertFalse(ok)
        self.assertIn("scores full marks (100/100): the grader misses it",
                      text)

    def test_other_cases_lost_or_kept(self):
        ok, text = mistakes.judge(self.off, lab_grade(0, 0))
        self.assertFalse(ok)
        self.assertIn("also lost: demo.two", text)
        ok, text = mistakes.judge(self.bad, lab_grade(0, 40))
        self.assertFalse(ok)
        self.assertIn("still scoring: demo.two", text)

    def test_may_lose_is_either_way(self):
        m = mistakes.parse("mistake 03-racy\n  what    a\n  rule    b\n"
                           "  loses   demo.one\n  may-lose demo.two\n",
                           LAB, "m.txt")[0]
        self.assertTrue(mistakes.judge(m, lab_grade(0, 40))[0])
        self.assertTrue(mistakes.judge(m, lab_grade(0, 0))[0])
        ok, text = mistakes.judge(m, lab_grade(60, 0))
        self.assertFalse(ok)
        self.assertIn("still scoring: demo.one", text)

    def test_corruption_must_score_zero(self):
        ok, _ = mistakes.judge(self.bad, lab_grade(0, 0))
        self.assertTrue(ok)
        g = lab_grade(0, 0)
        g.results[1].points = 5  # partial credit left: not a zero
        ok, text = mistakes.judge(self.bad, g)
        self.assertFalse(ok)
        self.assertIn("want score 0", text)


class Selection(unittest.TestCase):
    def test_a_glob_that_selects_nothing_fails(self):
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        counts = os.path.join(tempfile.mkdtemp(), "counts.txt")
        self.assertEqual(mistakes.main(["--root", root, "--lab", "buddy",
                                        "--only", "buddy/99-*", "--counts",
                                        counts]), 2)
        with open(counts) as f:
            self.assertEqual(f.read().strip(), "0 passed, 1 failed")


class Patched(unittest.TestCase):
    """patched_copy: the patch applies in a copy, or says why not."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.root = os.path.join(self.tmp, "ref")
        os.makedirs(self.root)
        with open(os.path.join(self.root, "Makefile"), "w") as f:
            f.write("out:\n\tcat a.c > out\n")
        with open(os.path.join(self.root, "a.c"), "w") as f:
            f.write("one\ntwo\nthree\n")
        subprocess.run(["git", "init", "-q", self.root], check=True)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def patch(self, old, new):
        path = os.path.join(self.tmp, "p.patch")
        with open(path, "w") as f:
            f.write(f"--- a/a.c\n+++ b/a.c\n@@ -1,3 +1,3 @@\n one\n-{old}\n"
                    f"+{new}\n three\n")
        return path

    def test_applies_and_builds(self):
        dest = os.path.join(self.tmp, "copy")
        self.assertIsNone(labtree.patched_copy(
            self.root, dest, self.patch("two", "TWO"), target="out"))
        with open(os.path.join(dest, "out")) as f:
            self.assertEqual(f.read(), "one\nTWO\nthree\n")
        with open(os.path.join(self.root, "a.c")) as f:
            self.assertEqual(f.read(), "one\ntwo\nthree\n")

    def test_does_not_apply(self):
        why = labtree.patched_copy(self.root, os.path.join(self.tmp, "c"),
                                   self.patch("deux", "TWO"), target="out")
        self.assertIn("does not apply", why)


if __name__ == "__main__":
    unittest.main()
