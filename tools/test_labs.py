#!/usr/bin/env python3
"""Unit tests of the lab tools: regions and the cutter (labtree.py), the
grader's plan and scoring (grade.py), and handin's refusals (handin.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grade  # noqa: E402
import handin  # noqa: E402
import labtree  # noqa: E402
import runner  # noqa: E402

SOURCE = """\
int keep(int x)
{
\t/* LAB demo: BEGIN double it */
\tint twice = x * 2;
\treturn twice;
\t/* LAB demo: END */
}

int other(int y)
{
\t/* LAB else: BEGIN */
\treturn y + 1;
\t/* LAB else: END */
}
"""
STUBS = """\
/* labs/demo/stubs.c */

/* STUB mm/a.c: double it */
\treturn 0;
/* END STUB */
"""


class Regions(unittest.TestCase):
    def pieces(self, text):
        pieces = labtree.split_regions(text, "f.c")
        for p in pieces:
            if isinstance(p, labtree.Region) and p.lab == "demo":
                p.stub = ["\treturn 0;\n"]
        return pieces

    def test_cut_own_and_other(self):
        out = labtree.cut_text(self.pieces(SOURCE), "demo")
        self.assertIn("\t/* LAB demo: TODO double it */\n\treturn 0;\n", out)
        self.assertNotIn("twice", out)
        self.assertIn("\treturn y + 1;\n", out)
        self.assertNotIn("LAB else", out)
        out = labtree.cut_text(self.pieces(SOURCE), "else")
        self.assertIn("int twice", out)
        self.assertIn("\t/* LAB else: TODO */\n}", out)

    def test_region_fields(self):
        regions = [p for p in self.pieces(SOURCE)
                   if isinstance(p, labtree.Region)]
        self.assertEqual([(r.lab, r.begin, r.end) for r in regions],
                         [("demo", 3, 6), ("else", 11, 13)])
        self.assertEqual(regions[0].stub, ["\treturn 0;\n"])
        self.assertEqual(regions[1].stub, [])

    def assertBad(self, text, words):
        with self.assertRaises(labtree.LabError) as cm:
            self.pieces(text)
        self.assertIn(words, str(cm.exception))

    def test_malformed(self):
        b, e = "/* LAB a: BEGIN */\n", "/* LAB a: END */\n"
        self.assertBad(b + b + e + e, "do not nest")
        self.assertBad(e, "outside any region")
        self.assertBad(b + "x;\n", "has no END")
        self.assertBad(b + "/* LAB b: END */\n", "END of lab b closes")
        self.assertBad(b + "/* LAB a: STUB\ny;\n*/\n" + e,
                       "stubs live in labs/a/stubs.c")
        self.assertBad(b + "/* LAB a: END */\n/* LAB a: BEGIN */\n" + e,
                       "a second region of lab a")
        self.assertBad("/* LAB a: BEGIN*/\n", "outside any region")


class Trees(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.root = os.path.join(self.tmp, "ref")
        os.makedirs(os.path.join(self.root, "labs", "demo"))
        os.makedirs(os.path.join(self.root, "mm"))
        self.write("mm/a.c", SOURCE)
        self.write("mm/b.c", "int keep(int x);\n")
        self.write("labs/demo/README.md", "hand-out\n")
        self.write("labs/demo/stubs.c", STUBS)
        self.write(".gitignore", "/build/\n")
        self.write("labs/else/README.md", "hand-out\n")
        self.conf("demo", "files mm/a.c")
        self.conf("else", "files mm/a.c")
        subprocess.run(["git", "init", "-q", self.root], check=True)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)

    def conf(self, lab, *lines):
        self.write(f"labs/{lab}/lab.conf",
                   "\n".join(["title a demo", *lines,
                              "test demo.one 3", "test demo.two 2"]) + "\n")

    def test_cut_tree_is_a_git_repo_with_its_base(self):
        dest = os.path.join(self.tmp, "student")
        changed = labtree.cut_tree(self.root, "demo", dest)
        self.assertEqual(changed, ["mm/a.c"])
        with open(os.path.join(dest, labtree.LAB_FILE)) as f:
            self.assertEqual(f.read(), "demo\n")
        tag = subprocess.run(["git", "-C", dest, "rev-parse",
                              labtree.BASE_TAG], capture_output=True)
        self.assertEqual(tag.returncode, 0)
        self.assertEqual(handin.check_tree(dest)[0], "demo")
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(self.root, "demo", dest)
        self.assertIn("not empty", str(cm.exception))

    def test_refuses_a_dest_inside_the_tree_and_a_student_root(self):
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(self.root, "demo",
                             os.path.join(self.root, "mine"))
        self.assertIn("inside the reference tree", str(cm.exception))
        labtree.cut_tree(self.root, "demo",
                         os.path.join(self.root, "build", "labs", "demo"),
                         init_git=False)
        dest = os.path.join(self.tmp, "student")
        labtree.cut_tree(self.root, "demo", dest)
        self.assertEqual(labtree.student_lab(dest), "demo")
        self.assertIsNone(labtree.student_lab(self.root))
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(dest, "demo", os.path.join(self.tmp, "again"))
        self.assertIn("is itself the student tree of lab demo",
                      str(cm.exception))

    def test_stubs_come_from_the_lab(self):
        dest = os.path.join(self.tmp, "student")
        labtree.cut_tree(self.root, "demo", dest)
        with open(os.path.join(dest, "mm/a.c")) as f:
            self.assertIn("\t/* LAB demo: TODO double it */\n\treturn 0;\n}",
                          f.read())
        self.write("labs/demo/stubs.c", STUBS.replace("double it", "triple"))
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(self.root, "demo", os.path.join(self.tmp, "s"))
        self.assertIn('the stub for mm/a.c: "triple" names no region',
                      str(cm.exception))

    def test_teacher_files_stay_behind(self):
        self.write("tests/exercises/01-x.patch",
                   "+++ b/mm/b.c\n+\tint secret_answer_line = 42;\n")
        self.write("tests/exercises.txt", "exercise 01-x\n")
        self.write("labs/demo/mistakes/01-y.patch", "+ wrong\n")
        self.write("labs/demo/mistakes.txt", "mistake 01-y\n")
        self.write("labs/demo/teacher.md", "answers\n")
        self.write("labs/gradescope/setup.sh", "true\n")
        dest = os.path.join(self.tmp, "student")
        labtree.cut_tree(self.root, "demo", dest)
        got = set(labtree.tree_files(dest))
        for path in ("tests/exercises/01-x.patch", "tests/exercises.txt",
                     "labs/demo/mistakes/01-y.patch", "labs/demo/stubs.c",
                     "labs/demo/mistakes.txt", "labs/demo/teacher.md",
                     "labs/gradescope/setup.sh"):
            self.assertNotIn(path, got)
        self.assertIn("labs/demo/README.md", got)

    def test_a_solution_or_answer_line_anywhere_is_caught(self):
        self.write("mm/a.c", SOURCE.replace("x * 2", "x * 2 + 0 * 1234567"))
        self.write("docs/guide.md", "the answer:\n    int twice = x * 2 + 0 * "
                   "1234567;\n")
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(self.root, "demo", os.path.join(self.tmp, "s"))
        self.assertIn("docs/guide.md:2: a line of mm/a.c:3 (lab demo's "
                      "solution) survived", str(cm.exception))
        self.write("docs/guide.md", "\tint secret_answer_line = 42;\n")
        self.write("tests/exercises/01-x.patch",
                   "+++ b/mm/b.c\n+\tint secret_answer_line = 42;\n")
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(self.root, "demo", os.path.join(self.tmp, "t"))
        self.assertIn("docs/guide.md:1: a line of tests/exercises/01-x.patch "
                      "(an answer) survived", str(cm.exception))

    def test_solution_only_identifiers(self):
        files = labtree.tree_files(self.root)
        self.assertEqual(labtree.solution_only(self.root, files, "demo"),
                         {"twice"})

    def test_leaked_identifier_is_caught(self):
        self.conf("demo", "files mm/a.c", "hidden keep")
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(self.root, "demo", os.path.join(self.tmp, "s"))
        self.assertIn("mm/b.c:1: solution-only identifier keep survived",
                      str(cm.exception))

    def test_files_must_match_the_regions(self):
        self.conf("demo", "files mm/b.c")
        with self.assertRaises(labtree.LabError) as cm:
            labtree.cut_tree(self.root, "demo", os.path.join(self.tmp, "s"))
        msg = str(cm.exception)
        self.assertIn("mm/b.c holds no region of lab demo", msg)
        self.assertIn("mm/a.c: holds a region of lab demo", msg)

    def test_manifest_errors(self):
        self.write("labs/demo/lab.conf", "files mm/a.c\ntest demo.one 0\n"
                   "test nodot 2\nfrobnicate\ntimeout -1\n")
        with self.assertRaises(labtree.LabError) as cm:
            labtree.load_lab(self.root, "demo")
        msg = str(cm.exception)
        for words in ("POINTS > 0", "'nodot 2'", "unknown directive",
                      "timeout '-1'", "no title", "no graded test"):
            self.assertIn(words, msg)

    def test_handin_refuses_a_dirty_tree(self):
        dest = os.path.join(self.tmp, "student")
        labtree.cut_tree(self.root, "demo", dest)
        with open(os.path.join(dest, "new.c"), "w") as f:
            f.write("x\n")
        with self.assertRaises(handin.HandinError) as cm:
            handin.check_tree(dest)
        self.assertIn("?? new.c", str(cm.exception))
        os.remove(os.path.join(dest, "new.c"))
        with open(os.path.join(dest, "mm/b.c"), "a") as f:
            f.write("\n")
        with self.assertRaises(handin.HandinError) as cm:
            handin.check_tree(dest)
        self.assertIn(" M mm/b.c", str(cm.exception))

    def test_handin_refuses_a_reference_tree(self):
        with self.assertRaises(handin.HandinError) as cm:
            handin.check_tree(self.root)
        self.assertIn("not a student tree", str(cm.exception))


def ktap_log(cases, totals=True, tail=""):
    """A serial log: cases is [(suite, case, "ok"|"not ok"|"skip")]."""
    out = ["KTAP version 1", "1..%d" % len({s for s, _, _ in cases})]
    suites = []
    for s, c, st in cases:
        if s not in suites:
            suites.append(s)
    done = 0
    for i, s in enumerate(suites, 1):
        mine = [(c, st) for ss, c, st in cases if ss == s]
        out += ["    KTAP version 1", f"    # Subtest: {s}",
                f"    1..{len(mine)}"]
        for j, (c, st) in enumerate(mine, 1):
            if st == "not ok":
                out.append(f"    # {c}: EXPECTATION FAILED at t.c:{j}")
                out.append(f"    # {c}: the free list is wrong")
            if st == "skip":
                out.append(f"    ok {j} {c} # SKIP needs -smp 2")
            else:
                out.append(f"    {st} {j} {c}")
        done += 1
        out.append(f"ok {i} {s}")
    if totals:
        out.append("# totals: pass:0 fail:0 skip:0 total:0")
    return "\n".join(out) + "\n" + tail


class Grading(unittest.TestCase):
    def boot(self, *names):
        return grade.Boot(["demo"], [labtree.Test(n, 2) for n in names],
                          [], "", 60.0, 1)

    def score(self, boot, log, code=35, timeout=None):
        out = runner.Outcome(code, log, timed_out_after=timeout)
        return grade.score_boot(boot, out, set())

    def test_ok_fail_skip(self):
        b = self.boot("s.a", "s.b", "s.c")
        res, _ = self.score(b, ktap_log([("s", "a", "ok"),
                                         ("s", "b", "not ok"),
                                         ("s", "c", "skip")]))
        self.assertEqual([(r.points, r.status) for r in res],
                         [(2, "ok"), (0, "failed"), (0, "skipped")])
        self.assertEqual(res[1].message, "EXPECTATION FAILED at t.c:2: "
                                         "the free list is wrong")

    def test_a_panic_scores_the_rest_zero_and_names_the_case(self):
        b = self.boot("s.a", "s.b", "s.c")
        log = ktap_log([("s", "a", "ok")], totals=False,
                       tail="BUG: unable to handle page fault at 0x0\n")
        log = log.replace("ok 1 s\n", "")
        res, ended = self.score(b, log)
        self.assertEqual([r.status for r in res], ["ok", "stopped",
                                                   "not run"])
        self.assertIn("BUG: unable to handle page fault", res[1].message)
        self.assertEqual(res[2].message,
                         "not run: the kernel stopped in s.b")
        self.assertEqual(ended, "the kernel stopped in s.b")

    def test_the_stopped_line_names_the_case(self):
        b = self.boot("s.a", "s.b", "s.c")
        log = ktap_log([], totals=False,
                       tail="ktest: the kernel stopped in case s.b\n")
        res, _ = self.score(b, log)
        self.assertEqual([r.status for r in res],
                         ["not run", "stopped", "not run"])

    def test_a_timeout(self):
        b = self.boot("s.a", "s.b")
        res, ended = self.score(b, ktap_log([("s", "a", "ok")],
                                            totals=False), None, 60.0)
        self.assertEqual(ended, "no verdict within 60 s")
        self.assertEqual(res[1].status, "stopped")
        self.assertIn("timed out", res[1].message)

    def test_plan_shares_boots_and_splits_long_filters(self):
        def lab(name, n, qemu=("-m", "256M")):
            return labtree.Lab(name, "t", qemu=list(qemu), timeout=10,
                               tests=[labtree.Test(f"{name}.case_{i:03}", 1)
                                      for i in range(n)])
        boots = grade.plan([lab("a", 3), lab("b", 3)], 7)
        self.assertEqual(len(boots), 1)
        self.assertEqual(boots[0].timeout, 20)
        self.assertIn("ktest.seed=7", boots[0].cmdline)
        boots = grade.plan([lab("a", 3), lab("b", 3, ("-m", "1G"))], 7)
        self.assertEqual([b.labs for b in boots], [["a"], ["b"]])
        boots = grade.plan([lab("a", 200)], 1)
        self.assertGreater(len(boots), 1)
        self.assertTrue(all(len(b.cmdline) <= grade.FILTER_LIMIT
                            for b in boots))
        for b in boots:
            params = [p for p in b.cmdline.split()
                      if p.startswith("ktest.filter=")]
            self.assertGreater(len(params), 1)
            self.assertTrue(all(len(p) <= 250 for p in params))
            self.assertEqual(",".join(p.split("=", 1)[1] for p in params),
                             ",".join(t.name for t in b.tests))
        self.assertEqual(sum(len(b.tests) for b in boots), 200)


if __name__ == "__main__":
    unittest.main()
