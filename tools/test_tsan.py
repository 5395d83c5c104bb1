#!/usr/bin/env python3
"""Unit tests of tools/tsan.py (ThreadSanitizer's reports) and of
tools/host-tests.py's judging of the race scenarios on them."""

import importlib.util
import os
import stat
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tsan  # noqa: E402

# A report as make host-tsan's program prints it, amid the kernel's lines.
REPORT = """\
[    0.032078] ktest: misuse race_percpu_irq: percpu_hits_task() ...
==================
WARNING: ThreadSanitizer: data race (pid=27990)
  Read of size 8 at 0x7fd147000028 by thread T4:
    #0 percpu_hits_tick tests/host/race_test.c:134 (mm86-host+0x51cfc)
    #1 run_timers kernel/timer.c:258 (mm86-host+0x1ad12)
    #2 timer_interrupt kernel/timer.c:278 (mm86-host+0x1ad12)

  Previous write of size 8 at 0x7fd147000028 by thread T5:
    #0 percpu_hits_task tests/host/race_test.c:149 (mm86-host+0x52376)
    #1 bump_against_the_tick tests/host/race_test.c:171 (mm86-host+0x527bf)

  Location is global '<null>' at 0x000000000000 (memfd:mm86-ram+0x28)

  Thread T4 'CPU 0 irq' (tid=0, running) created by main thread at:
    #0 irq_fiber_init arch/host/tsan.c:106 (mm86-host+0x4aa29)

SUMMARY: ThreadSanitizer: data race tests/host/race_test.c:134 in percpu_hits_tick
==================
WARNING: ThreadSanitizer: data race (pid=27990)
  Atomic write of size 4 at 0x1 by thread T6:
    #0 other_function kernel/other.c:1 (mm86-host+0x1)
"""


class FirstReportTest(unittest.TestCase):
    def test_reads_the_first_report(self):
        r = tsan.first_report(REPORT)
        self.assertEqual(r.kind, "data race")
        self.assertEqual(r.functions(), ["percpu_hits_tick",
                                         "percpu_hits_task"])
        self.assertEqual(r.accesses[1].frames[1],
                         ("bump_against_the_tick",
                          "tests/host/race_test.c:171"))
        self.assertTrue(r.summary.endswith("in percpu_hits_tick"))

    def test_thread_and_location_frames_are_no_access(self):
        r = tsan.first_report(REPORT)
        self.assertEqual(len(r.accesses), 2)
        self.assertEqual(len(r.accesses[0].frames), 3)

    def test_atomic_accesses_are_accesses(self):
        r = tsan.first_report(REPORT[REPORT.index("==================\nWARN",
                                                  100):])
        self.assertEqual(r.functions(), ["other_function"])

    def test_no_report(self):
        self.assertIsNone(tsan.first_report("[    0.1] all passed\n"))

    def test_quote_names_both_accesses(self):
        lines = tsan.first_report(REPORT).quote(frames=1)
        self.assertEqual(lines[0], "WARNING: ThreadSanitizer: data race")
        self.assertIn("    percpu_hits_task tests/host/race_test.c:149",
                      lines)
        self.assertNotIn("    bump_against_the_tick "
                         "tests/host/race_test.c:171", lines)
        self.assertTrue(lines[-1].startswith("SUMMARY:"))


def host_tests():
    spec = importlib.util.spec_from_file_location(
        "host_tests", os.path.join(HERE, "host-tests.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RaceJudgeTest(unittest.TestCase):
    """run_one_race() on a stand-in program that prints and exits."""

    def judge(self, output, status):
        work = tempfile.mkdtemp(prefix="mm86-tsan-")
        out = os.path.join(work, "out.txt")
        with open(out, "w") as f:
            f.write(output)
        binary = os.path.join(work, "mm86-host")
        with open(binary, "w") as f:
            f.write(f"#!/bin/sh\ncat {out}\nexit {status}\n")
        os.chmod(binary, stat.S_IRWXU)
        passed, failed, _, lines = host_tests().run_one_race(
            binary, work, "race", "race_percpu_irq",
            {"percpu_hits_task", "percpu_hits_tick"})
        return passed == 1 and failed == 0, lines

    def test_the_report_naming_both_functions_passes(self):
        ok, lines = self.judge(REPORT, 66)
        self.assertTrue(ok, lines)
        self.assertIn("percpu_hits_tick / percpu_hits_task", lines[0])

    def test_a_race_elsewhere_fails(self):
        other = REPORT.replace("percpu_hits_task", "somewhere_else")
        ok, lines = self.judge(other, 66)
        self.assertFalse(ok)
        self.assertIn("      WARNING: ThreadSanitizer: data race", lines)

    def test_no_report_fails_with_the_last_lines(self):
        ok, lines = self.judge("ktest: misuse scenario race_percpu_irq "
                               "returned: the misuse was not caught\n", 1)
        self.assertFalse(ok)
        self.assertIn("no report", lines[0])
        self.assertTrue(lines[-1].endswith("the misuse was not caught"))


if __name__ == "__main__":
    unittest.main()
