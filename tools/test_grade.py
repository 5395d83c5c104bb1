#!/usr/bin/env python3
"""Unit tests of the grader's verdicts (tools/grade.py) on synthetic serial
logs: what stopped the kernel, quoted in Linux's words; a kernel that
stops during boot; corruption that voids a lab; the log named on each
line; and the Gradescope results.json, checked by validate_results(),
written from Gradescope's documented format (tools/test_gradescope.py
uses it too)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import grade  # noqa: E402
import labtree  # noqa: E402
import runner  # noqa: E402
from test_labs import ktap_log  # noqa: E402

ROOT = os.path.dirname(HERE)
VISIBILITY = ("hidden", "after_due_date", "after_published", "visible")


def validate_results(data) -> list[str]:
    """What is wrong with a results.json for Gradescope's autograder
    harness (its documented format; [] when nothing): an object whose
    score is a number equal to the sum of its tests' scores, whose output
    is text, whose visibility settings are one of the four values, and
    whose tests each have a name, a numeric score no higher than its
    max_score, text output, status passed or failed and a visibility."""
    errs = []
    if not isinstance(data, dict):
        return ["not a JSON object"]
    for key, kind in (("score", (int, float)), ("output", str),
                      ("tests", list)):
        if not isinstance(data.get(key), kind) or isinstance(
                data.get(key), bool):
            errs.append(f"{key}: missing or not {kind}")
    for key in ("visibility", "stdout_visibility"):
        if key in data and data[key] not in VISIBILITY:
            errs.append(f"{key}: {data[key]!r} is not one of {VISIBILITY}")
    tests = data.get("tests") if isinstance(data.get("tests"), list) else []
    for i, t in enumerate(tests):
        where = f"tests[{i}]"
        if not isinstance(t, dict):
            errs.append(f"{where}: not an object")
            continue
        if not isinstance(t.get("name"), str) or not t["name"]:
            errs.append(f"{where}: no name")
        for key in ("score", "max_score"):
            if not isinstance(t.get(key), (int, float)) or isinstance(
                    t.get(key), bool) or t[key] < 0:
                errs.append(f"{where}: {key} missing or not a number >= 0")
        if not isinstance(t.get("output"), str):
            errs.append(f"{where}: output missing or not text")
        if t.get("status") not in ("passed", "failed"):
            errs.append(f"{where}: status {t.get('status')!r}")
        if t.get("visibility") not in VISIBILITY:
            errs.append(f"{where}: visibility {t.get('visibility')!r}")
        if not errs and t["score"] > t["max_score"]:
            errs.append(f"{where}: score above max_score")
    if not errs and data["score"] != sum(t["score"] for t in tests):
        errs.append(f"score {data['score']} is not the sum of the tests' "
                    f"{sum(t['score'] for t in tests)}")
    return errs


BOOT_LINES = """\
[    0.000000] Linux version 2.6.11-mm86
[    0.009979] Memory: 62392K/65020K available
"""

# An oops as mm86 prints it (a trap line, the registers, a call trace
# whose first entry is EIP) and as 2.6 did (BUG line, IP, Oops line).
DIVIDE_OOPS = """\
[    0.065884] divide error: 0000 [#1] SMP
[    0.065922] EIP: 0008:c013b533 EFLAGS: 00000246
[    0.066205] Call Trace:
[    0.066348]  [<c013b533>] kmalloc_class+0x23/0x30
[    0.066438]  [<c015a66e>] run_suite+0x6e/0xf0
[    0.066645] Kernel panic - not syncing: Fatal exception
"""
PAGING_OOPS_26 = """\
[    0.5] BUG: unable to handle kernel paging request at c0000000
[    0.5] IP: [<c0123456>] ksize+0x16/0x40
[    0.5] *pde = 00000000
[    0.5] Oops: 0002 [#1] SMP
[    0.5] EIP: 0060:[<c0123456>] EFLAGS: 00010246 CPU: 0
[    0.5] EIP is at ksize+0x16/0x40
[    0.5] Kernel panic - not syncing: Fatal exception
"""
GPF_OOPS = """\
[    0.5] general protection fault: 0000 [#1] SMP
[    0.5] Call Trace:
[    0.5]  [<c0100000>] ? print_context+0x1/0x2
[    0.5]  [<c0123456>] krealloc+0x16/0x40
[    0.5] Kernel panic - not syncing: Fatal exception
"""

# One line of each of the kernel's reports of corrupted memory, with the
# words of the file that prints it: the table must know each.
CORRUPTION_SAMPLES = [
    ("mm/page_check.c", "Bad page state in process",
     "BUG: Bad page state in process swapper  pfn:03f35"),
    ("mm/page_check.c", "page poison overwritten",
     "BUG: page poison overwritten: pfn:03f35 offset 0x7b holds 0x5a, "
     "expected 0xaa (written after it was freed)"),
    ("mm/slab_debug.c", "poison overwritten in free object",
     "BUG: size-64: poison overwritten in free object 0xc3f36d98 at offset "
     "5: 0x42 instead of 0x6b (write after free)"),
    ("mm/slab_debug.c", "red zone of free object",
     "BUG: size-64: red zone of free object 0xc3f36d98 corrupted: "
     "09f911029d74e35b 09f911029d74e35a"),
    ("mm/slab_debug.c", "red zone after object",
     "BUG: size-64: red zone after object 0xc3f36d98 overwritten: "
     "d84156c563568842 (write past the end)"),
    ("mm/slab_debug.c", "red zone before object",
     "BUG: size-64: red zone before object 0xc3f36d98 overwritten: "
     "424156c5635688c0 (write before the start)"),
    ("mm/slab_debug.c", "double free of object",
     "BUG: size-64: double free of object 0xc3f36d98"),
    ("mm/mempool.c", "was written while in the reserve",
     "BUG: mempool: element 0xc3f36d98 of pool 0xc3f00000 (kmalloc 64) "
     "was written while in the reserve: byte 3 is 0x00, not 0x6b"),
    ("mm/slab.c", "is not a slab object",
     "BUG: kmem_cache_free: 0xcfd81000 is not a slab object"),
    ("mm/slab.c", "but not the start of an object",
     "BUG: kmem_cache_free: 0xc3f36d9a is inside a slab of size-64 but not "
     "the start of an object"),
    ("mm/kmalloc.c", "is not a live kmalloc object",
     "BUG: kfree: 0xc3f36d9a is not a live kmalloc object (inside size-64, "
     "not an object's start)"),
]


def stopped_in(suite, done, running, tail):
    """A log whose kernel stopped in case running of suite, after the
    cases done reported ok; tail is what it printed then."""
    log = ktap_log([(suite, c, "ok") for c in done], totals=False)
    log = "\n".join(ln for ln in log.splitlines()
                    if not ln.startswith("ok ")) + "\n"
    if not done:
        log += f"    KTAP version 1\n    # Subtest: {suite}\n    1..3\n"
    return BOOT_LINES + log + tail + \
        f"[    0.6] ktest: the kernel stopped in case {suite}.{running}\n"


def lab(name, *cases, points=2):
    return labtree.Lab(name, f"the {name} lab", qemu=["-m", "64M"],
                       timeout=10, tests=[labtree.Test(c, points)
                                          for c in cases])


class Verdicts(unittest.TestCase):
    def score(self, log, *names, code=35, timeout=None):
        boot = grade.Boot(["demo"], [labtree.Test(n, 2) for n in names],
                          [], "", 60.0, 1)
        out = runner.Outcome(code, log, timed_out_after=timeout)
        return grade.score_boot(boot, out, set())

    def test_a_cpu_exception_is_quoted_with_its_function(self):
        for oops, want in (
                (DIVIDE_OOPS, "divide error: 0000 [#1] SMP "
                              "(EIP is at kmalloc_class+0x23/0x30)"),
                (PAGING_OOPS_26, "BUG: unable to handle kernel paging "
                                 "request at c0000000 (EIP is at "
                                 "ksize+0x16/0x40)"),
                (GPF_OOPS, "general protection fault: 0000 [#1] SMP "
                           "(EIP is at krealloc+0x16/0x40)")):
            res, ended = self.score(stopped_in("s", ["a"], "b", oops),
                                    "s.a", "s.b", "s.c")
            self.assertEqual([r.status for r in res],
                             ["ok", "stopped", "not run"])
            self.assertEqual(res[1].message,
                             f"the kernel stopped in this case: {want}")
            self.assertNotIn("Fatal exception", res[1].message)
            self.assertEqual(ended, "the kernel stopped in s.b")

    def test_an_oops_without_a_trace_is_quoted_alone(self):
        tail = "[    0.5] BUG: unable to handle kernel NULL pointer " \
               "dereference at 00000000\n[    0.5] Kernel panic - not " \
               "syncing: Fatal exception\n"
        res, _ = self.score(stopped_in("s", [], "a", tail), "s.a")
        self.assertEqual(res[0].message, "the kernel stopped in this case: "
                         "BUG: unable to handle kernel NULL pointer "
                         "dereference at 00000000")

    def test_only_the_running_case_s_words_are_quoted(self):
        # A BUG line an earlier case printed (and survived) is not the cause.
        log = stopped_in("s", ["a"], "b", DIVIDE_OOPS).replace(
            "    ok 1 a", "[    0.4] BUG: scheduling while atomic: t/1/0x1\n"
            "    ok 1 a")
        res, _ = self.score(log, "s.a", "s.b")
        self.assertIn("divide error: 0000 [#1]", res[1].message)

    def test_a_panic_during_boot_blames_no_case(self):
        for ktap in ("", "KTAP version 1\n1..2\n"):
            log = BOOT_LINES + ktap + DIVIDE_OOPS.replace(
                "kmalloc_class", "start_kernel")
            res, ended = self.score(log, "s.a", "s.b")
            want = ("the kernel stopped during boot, before any graded "
                    "case: divide error: 0000 [#1] SMP (EIP is at "
                    "start_kernel+0x23/0x30)")
            self.assertEqual(ended, want)
            self.assertEqual([(r.status, r.points) for r in res],
                             [("not run", 0)] * 2)
            self.assertEqual({r.message for r in res}, {f"not run: {want}"})

    def test_a_hang_during_boot_blames_no_case(self):
        res, ended = self.score(BOOT_LINES, "s.a", code=None, timeout=60.0)
        self.assertEqual(ended, "the kernel hung during boot, before any "
                         "graded case: no verdict within 60 s (its last "
                         "line: Memory: 62392K/65020K available)")
        self.assertEqual(res[0].status, "not run")
        self.assertEqual(res[0].message, f"not run: {ended}")

    def test_an_exit_before_any_case_is_a_boot_stop(self):
        res, ended = self.score(BOOT_LINES, "s.a", code=0)
        self.assertIn("stopped during boot, before any graded case: "
                      "triple fault", ended)


class Corruption(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.saved = grade.run_boot

    def tearDown(self):
        grade.run_boot = self.saved
        self.tmp.cleanup()

    def grade(self, labs, *logs, hidden=()):
        """grade.grade() with each boot's serial log given, in order."""
        queue = list(logs)
        grade.run_boot = lambda *a: runner.Outcome(35, queue.pop(0))
        return grade.grade(labs, "mm86.elf", 1, self.tmp.name, jobs=1,
                           hidden=set(hidden))

    def test_the_table_knows_every_report_the_kernel_prints(self):
        covered = set()
        for path, words, sample in CORRUPTION_SAMPLES:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                self.assertIn(words, f.read(), f"{path} no longer says it")
            hits = [i for i, (where, r) in enumerate(grade.CORRUPTION_REPORTS)
                    if r.match(sample)]
            self.assertEqual(len(hits), 1, sample)
            self.assertEqual(grade.CORRUPTION_REPORTS[hits[0]][0], path)
            covered |= set(hits)
        self.assertEqual(covered, set(range(len(grade.CORRUPTION_REPORTS))))

    def test_each_report_in_a_case_voids_the_lab(self):
        for path, _, sample in CORRUPTION_SAMPLES:
            log = stopped_in("s", ["a"], "b", f"[    0.5] {sample}\n"
                             "[    0.5] Kernel panic - not syncing: x\n")
            g, = self.grade([lab("demo", "s.a", "s.b", "s.c")], log)
            self.assertEqual(g.score, 0, path)
            self.assertEqual([r.status for r in g.results],
                             ["ok", "stopped", "not run"])
            self.assertEqual(g.corrupted,
                             f"s.b corrupted the kernel: {sample}")
            self.assertIn(f"stopped in this case: {sample}",
                          g.results[1].message)
            self.assertIn("passed, but the kernel was corrupted",
                          g.results[0].message)
            text = grade.format_grade(g)
            self.assertIn(f"CORRUPTED: s.b corrupted the kernel: {sample}",
                          text)
            self.assertTrue(text.endswith("(the .cmd beside each is its "
                                          "QEMU command)"))

    def test_ktest_s_check_after_a_case_fails_it_and_voids_the_lab(self):
        check = "    # b: CORRUPTION of zone Normal's free lists: order 3 " \
                "block at pfn 1000 is not aligned"
        for before in (True, False):
            log = ktap_log([("s", "a", "ok"), ("s", "b", "ok"),
                            ("s", "c", "ok")])
            at = "    ok 2 b" if before else "    ok 3 c"
            log = log.replace(at, check + "\n" + at)
            g, = self.grade([lab("demo", "s.a", "s.b", "s.c")], log)
            self.assertEqual([(r.status, r.points) for r in g.results],
                             [("ok", 0), ("failed", 0), ("ok", 0)])
            self.assertEqual(g.results[1].message,
                             f"the kernel is corrupted: {check.strip()}")
            self.assertEqual(g.corrupted,
                             f"s.b corrupted the kernel: {check.strip()}")
            self.assertEqual(g.score, 0)

    def test_only_the_corrupting_case_s_lab_is_voided(self):
        check = "    # b: CORRUPTION of slab lists: size-64 holds 3 free"
        log = ktap_log([("s", "a", "ok"), ("s", "b", "ok"), ("t", "c", "ok"),
                        ("t", "d", "ok")])
        log = log.replace("    ok 2 b", check + "\n    ok 2 b")
        first, second, third = self.grade(
            [lab("first", "s.a"), lab("second", "s.b", "t.d"),
             lab("third", "t.c")], log)
        self.assertEqual((first.score, first.corrupted), (2, ""))
        self.assertEqual((third.score, third.corrupted), (2, ""))
        self.assertEqual(second.score, 0)  # t.d passed after s.b too
        self.assertIn("s.b corrupted the kernel", second.corrupted)

    def test_a_corrupting_hidden_case_voids_its_lab_and_is_not_named(self):
        check = "    # h: CORRUPTION of zone Normal's counters: off by 1"
        mine = ktap_log([("s", "a", "ok")])
        theirs = ktap_log([("x", "h", "ok")]).replace("    ok 1 h",
                                                      check + "\n    ok 1 h")
        hidden = lab("demo-hidden", "x.h")
        hidden.qemu = ["-m", "1G"]  # a boot of its own
        g, = grade.merge_hidden(self.grade(
            [lab("demo", "s.a"), hidden], mine, theirs, hidden={"x.h"}))
        self.assertEqual(g.score, 0)
        self.assertEqual(g.results[0].points, 0)
        shown = grade.format_grade(g, hidden=False)
        self.assertNotIn("x.h", shown)
        self.assertIn("a hidden test's case corrupted the kernel", shown)

    def test_corruption_during_boot_voids_the_lab(self):
        sample = CORRUPTION_SAMPLES[0][2]
        log = BOOT_LINES + f"[    0.1] {sample}\n[    0.1] Kernel panic - " \
            "not syncing: Bad page state\n"
        g, = self.grade([lab("demo", "s.a", "s.b")], log)
        self.assertEqual(g.corrupted, "the kernel reported corrupted memory "
                         f"during boot: {sample}")
        self.assertEqual(g.results[0].message, "not run: the kernel stopped "
                         f"during boot, before any graded case: {sample}")


class Output(unittest.TestCase):
    def setUp(self):
        self.saved = grade.run_boot
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        grade.run_boot = self.saved
        self.tmp.cleanup()

    def graded(self):
        log = stopped_in("s", ["a"], "b", DIVIDE_OOPS)
        grade.run_boot = lambda *a: runner.Outcome(35, log)
        labs = [lab("demo", "s.a", "s.b", "s.c"),
                lab("demo-hidden", "s.h", points=5)]
        gs = grade.merge_hidden(grade.grade(
            labs, "mm86.elf", 1, os.path.join(self.tmp.name, "build/grade"),
            jobs=1, hidden={"s.h"}))
        for r in gs[0].results:
            r.log = grade.tree_path(r.log, self.tmp.name)
        return gs

    def test_each_losing_line_ends_with_its_log(self):
        g, = self.graded()
        log = "build/grade/grade-demo+demo-hidden-seed1-0.log"
        lines = grade.format_grade(g).splitlines()
        self.assertTrue(lines[1].startswith("  ok     2/2"))
        self.assertFalse(lines[1].endswith(".log"))
        for line in lines[2:5]:
            self.assertTrue(line.endswith("  " + log), line)
        self.assertTrue(lines[2].startswith("  STOP"))
        self.assertTrue(lines[3].startswith("  ----"))

    def test_results_json_is_gradescope_s_format(self):
        g, = self.graded()
        data = json.loads(json.dumps(grade.gradescope_results([g], [])))
        self.assertEqual(validate_results(data), [])
        self.assertEqual(data["score"], 2)
        self.assertEqual([(t["name"], t["score"], t["max_score"],
                           t["status"], t["visibility"])
                          for t in data["tests"]],
                         [("s.a", 2, 2, "passed", "visible"),
                          ("s.b", 0, 2, "failed", "visible"),
                          ("s.c", 0, 2, "failed", "visible"),
                          ("s.h (hidden)", 0, 5, "failed", "after_due_date")])
        self.assertIn("divide error: 0000 [#1] SMP",
                      data["tests"][1]["output"])
        self.assertIn("boot log: build/grade/", data["tests"][1]["output"])
        self.assertNotIn("s.h", data["output"])
        self.assertIn("1 hidden test (5 points) is shown after the due "
                      "date", data["output"])

    def test_the_validator_catches_each_fault(self):
        g, = self.graded()
        good = grade.gradescope_results([g], [])
        for change, words in (
                (lambda d: d.update(score=d["score"] + 1), "not the sum"),
                (lambda d: d.pop("tests"), "tests"),
                (lambda d: d.update(visibility="later"), "visibility"),
                (lambda d: d["tests"][0].update(status="ok"), "status"),
                (lambda d: d["tests"][0].update(score="2"), "score"),
                (lambda d: d["tests"][0].update(score=3), "above max_score"),
                (lambda d: d["tests"][1].pop("name"), "no name"),
                (lambda d: d["tests"][3].update(visibility=None),
                 "visibility")):
            bad = json.loads(json.dumps(good))
            change(bad)
            self.assertTrue(any(words in e for e in validate_results(bad)),
                            words)


if __name__ == "__main__":
    unittest.main()
