#!/usr/bin/env python3
"""Unit tests for tools/ktap.py and for the pure parts of tools/runner.py.

Run from the repository root with either of
    python3 -m unittest tools/test_ktap.py
    python3 tools/test_ktap.py
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import threading
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ktap  # noqa: E402
import machine  # noqa: E402
import runner  # noqa: E402

# The example report of the contract (one failure, one skip).
EXAMPLE = """\
KTAP version 1
# ktest: seed 1234567 (replay with ktest.seed=1234567)
1..2
    KTAP version 1
    # Subtest: lib
    1..3
    ok 1 vsnprintf_integers
    # string_ops: EXPECTATION FAILED at tests/lib_test.c:42
    # Expected strlen(s) == 5, but
    #     strlen(s) == 4 (0x4)
    #     5 == 5 (0x5)
    not ok 2 string_ops
    ok 3 sort_random # SKIP needs -smp 2
# lib: pass:1 fail:1 skip:1 total:3
not ok 1 lib
    KTAP version 1
    # Subtest: cmdline
    1..1
    ok 1 quoted_value
# cmdline: pass:1 fail:0 skip:0 total:1
ok 2 cmdline
# totals: pass:2 fail:1 skip:1 total:4
"""

# A complete passing report.
PASSING = """\
KTAP version 1
# ktest: seed 99 (replay with ktest.seed=99)
1..2
    KTAP version 1
    # Subtest: buddy
    1..2
    ok 1 alloc_free
    ok 2 split_merge
# buddy: pass:2 fail:0 skip:0 total:2
ok 1 buddy
    KTAP version 1
    # Subtest: slab
    1..1
    ok 1 cache_create
# slab: pass:1 fail:0 skip:0 total:1
ok 2 slab
# totals: pass:3 fail:0 skip:0 total:3
"""


def edit(text: str, old: str, new: str, count: int = 1) -> str:
    """Replaces old by new in text, insisting that old is there."""
    assert old in text, old
    return text.replace(old, new, count)


class KtapTestCase(unittest.TestCase):
    def assertError(self, report: ktap.Report, fragment: str,
                    line: int | None | str = "any") -> ktap.KtapError:
        """Asserts an error containing fragment (at line, if given)."""
        for error in report.errors:
            if fragment in error.message and (line == "any"
                                              or error.line == line):
                return error
        self.fail(f"no error with {fragment!r} at line {line}; errors: "
                  + "; ".join(map(str, report.errors)))

    def assertWellFormed(self, report: ktap.Report) -> None:
        self.assertEqual([], [str(e) for e in report.errors])


class TestPassingReports(KtapTestCase):
    def test_passing_report(self):
        report = ktap.parse(PASSING)
        self.assertWellFormed(report)
        self.assertTrue(report.passed)
        self.assertEqual("passed", report.verdict)
        self.assertEqual(2, report.plan)
        self.assertEqual(99, report.seed)
        self.assertEqual(["buddy", "slab"], [s.name for s in report.suites])
        buddy = report.suites[0]
        self.assertEqual(2, buddy.plan)
        self.assertEqual(ktap.OK, buddy.status)
        self.assertEqual([(1, "alloc_free", ktap.OK), (2, "split_merge",
                                                       ktap.OK)],
                         [(c.number, c.name, c.status) for c in buddy.cases])
        self.assertEqual(ktap.Counts(3, 0, 0), report.counts())
        self.assertEqual(ktap.Counts(3, 0, 0), report.totals)

    def test_example_with_failure_and_skip(self):
        report = ktap.parse(EXAMPLE)
        self.assertWellFormed(report)
        self.assertFalse(report.passed)
        self.assertEqual("failed", report.verdict)
        lib = report.suites[0]
        self.assertEqual(ktap.NOT_OK, lib.status)
        statuses = [c.status for c in lib.cases]
        self.assertEqual([ktap.OK, ktap.NOT_OK, ktap.SKIP], statuses)
        failed = lib.cases[1]
        self.assertEqual("string_ops", failed.name)
        self.assertEqual(4, len(failed.diagnostics))
        self.assertEqual("# string_ops: EXPECTATION FAILED at "
                         "tests/lib_test.c:42", failed.diagnostics[0])
        self.assertEqual("#     strlen(s) == 4 (0x4)", failed.diagnostics[2])
        self.assertEqual([], lib.cases[0].diagnostics)
        self.assertEqual("SKIP needs -smp 2", lib.cases[2].directive)
        self.assertEqual(ktap.Counts(2, 1, 1), report.counts())
        self.assertEqual([(lib, failed)], report.failures())

    def test_interleaved_kernel_messages(self):
        lines = PASSING.splitlines()
        mixed = ["[    0.000000] mm86 version 0.1 booting",
                 "[12345.678901] a wide timestamp"]
        for i, line in enumerate(lines):
            mixed.append(line)
            mixed.append(f"[    0.{i:06d}] buddy: kernel message {i}")
        # Timestamped lines are never KTAP, even when they look like it.
        mixed.insert(5, "[    0.100000]     not ok 7 looks_like_ktap")
        mixed.insert(9, "[    0.200000] KTAP version 1")
        mixed.append("[    1.000000] ktest: exiting through isa-debug-exit")
        report = ktap.parse("\n".join(mixed) + "\n")
        self.assertWellFormed(report)
        self.assertTrue(report.passed)
        self.assertEqual(ktap.Counts(3, 0, 0), report.counts())

    def test_other_text_is_ignored(self):
        log = ("SeaBIOS (version 1.16)\nBooting from ROM..\n" + PASSING
               + "random junk\n  indented junk\n")
        report = ktap.parse(log)
        self.assertWellFormed(report)
        self.assertTrue(report.passed)

    def test_crlf_line_endings(self):
        report = ktap.parse(PASSING.replace("\n", "\r\n"))
        self.assertWellFormed(report)
        self.assertTrue(report.passed)
        self.assertEqual("alloc_free", report.suites[0].cases[0].name)

    def test_line_numbers_count_every_log_line(self):
        log = "[    0.0] boot\n" + edit(PASSING, "ok 2 split_merge",
                                        "ok 3 split_merge")
        report = ktap.parse(log)
        self.assertError(report, "gap", line=9)


class TestSkips(KtapTestCase):
    def test_skipped_case(self):
        log = edit(PASSING, "ok 2 split_merge",
                   "ok 2 split_merge # SKIP needs -smp 2")
        log = edit(log, "# buddy: pass:2 fail:0 skip:0 total:2",
                   "# buddy: pass:1 fail:0 skip:1 total:2")
        log = edit(log, "pass:3 fail:0 skip:0 total:3",
                   "pass:2 fail:0 skip:1 total:3")
        report = ktap.parse(log)
        self.assertWellFormed(report)
        self.assertTrue(report.passed)
        case = report.suites[0].cases[1]
        self.assertEqual(ktap.SKIP, case.status)
        self.assertEqual("SKIP needs -smp 2", case.directive)
        self.assertEqual(ktap.Counts(2, 0, 1), report.counts())

    def test_skip_without_reason(self):
        log = edit(EXAMPLE, "# SKIP needs -smp 2", "# SKIP")
        report = ktap.parse(log)
        self.assertWellFormed(report)
        self.assertEqual(ktap.SKIP, report.suites[0].cases[2].status)

    def test_skipped_suite_with_empty_plan(self):
        log = edit(PASSING, """\
    KTAP version 1
    # Subtest: slab
    1..1
    ok 1 cache_create
# slab: pass:1 fail:0 skip:0 total:1
ok 2 slab
# totals: pass:3 fail:0 skip:0 total:3""", """\
    KTAP version 1
    # Subtest: numa
    1..0
ok 2 numa # SKIP needs -numa
# totals: pass:2 fail:0 skip:0 total:2""")
        report = ktap.parse(log)
        self.assertWellFormed(report)
        self.assertTrue(report.passed)
        numa = report.suites[1]
        self.assertEqual((ktap.SKIP, "SKIP needs -numa", 0),
                         (numa.status, numa.directive, numa.plan))

    def test_skipped_suite_with_skipped_cases(self):
        log = edit(PASSING, "    ok 1 cache_create\n# slab: pass:1 fail:0 "
                   "skip:0 total:1\nok 2 slab\n# totals: pass:3 fail:0 "
                   "skip:0 total:3",
                   "    ok 1 cache_create # SKIP no slab\nok 2 slab # SKIP "
                   "no slab\n# totals: pass:2 fail:0 skip:1 total:3")
        report = ktap.parse(log)
        self.assertWellFormed(report)
        self.assertTrue(report.passed)

    def test_skipped_suite_whose_case_ran(self):
        log = edit(PASSING, "ok 2 slab", "ok 2 slab # SKIP needs -numa")
        self.assertError(ktap.parse(log), "reported skipped but case 1")

    def test_not_ok_with_skip(self):
        log = edit(EXAMPLE, "    ok 3 sort_random # SKIP",
                   "    not ok 3 sort_random # SKIP")
        self.assertError(ktap.parse(log), "'not ok' with a SKIP", line=13)

    def test_unknown_directive(self):
        log = edit(EXAMPLE, "# SKIP needs -smp 2", "# TODO later")
        self.assertError(ktap.parse(log), "unsupported directive", line=13)


class TestFailures(KtapTestCase):
    def test_not_ok_case(self):
        log = edit(PASSING, "    ok 2 split_merge",
                   "    # split_merge: ASSERTION FAILED at mm/buddy.c:7\n"
                   "    not ok 2 split_merge")
        log = edit(log, "ok 1 buddy", "not ok 1 buddy")
        log = edit(log, "pass:2 fail:0 skip:0 total:2",
                   "pass:1 fail:1 skip:0 total:2")
        log = edit(log, "pass:3 fail:0 skip:0 total:3",
                   "pass:2 fail:1 skip:0 total:3")
        report = ktap.parse(log)
        self.assertWellFormed(report)
        self.assertFalse(report.passed)
        [(suite, case)] = report.failures()
        self.assertEqual(("buddy", "split_merge"), (suite.name, case.name))
        self.assertEqual(["# split_merge: ASSERTION FAILED at mm/buddy.c:7"],
                         case.diagnostics)

    def test_suite_ok_despite_failed_case(self):
        log = edit(EXAMPLE, "not ok 1 lib", "ok 1 lib")
        report = ktap.parse(log)
        self.assertError(report, "reported ok but case 2 string_ops failed",
                         line=15)
        self.assertFalse(report.passed)

    def test_suite_not_ok_without_failed_case(self):
        log = edit(PASSING, "ok 2 slab", "not ok 2 slab")
        self.assertError(ktap.parse(log), "none of its cases failed",
                         line=16)


class TestMalformed(KtapTestCase):
    def test_missing_version(self):
        report = ktap.parse(edit(PASSING, "KTAP version 1\n", ""))
        self.assertFalse(report.passed)
        self.assertError(report, "the first KTAP line must be 'KTAP version "
                                 "1'", line=1)

    def test_wrong_version(self):
        report = ktap.parse(edit(PASSING, "KTAP version 1", "KTAP version 2"))
        self.assertError(report, "unsupported version", line=1)

    def test_missing_nested_version(self):
        log = edit(PASSING, "    KTAP version 1\n    # Subtest: slab",
                   "    # Subtest: slab")
        report = ktap.parse(log)
        self.assertError(report, "missing '    KTAP version 1'", line=11)
        self.assertEqual("slab", report.suites[1].name)

    def test_missing_subtest_line(self):
        log = edit(PASSING, "    # Subtest: slab\n", "")
        self.assertError(ktap.parse(log), "expected '    # Subtest: NAME'",
                         line=12)

    def test_top_plan_after_first_suite(self):
        log = edit(PASSING, "1..2\n", "")
        log = edit(log, "# totals", "1..2\n# totals")
        report = ktap.parse(log)
        self.assertError(report, "before the top-level plan", line=3)
        self.assertError(report, "comes after the first suite")

    def test_missing_top_plan(self):
        report = ktap.parse(edit(PASSING, "1..2\n", ""))
        self.assertError(report, "missing the top-level plan", line=None)

    def test_top_plan_says_more_suites(self):
        report = ktap.parse(edit(PASSING, "1..2", "1..3"))
        self.assertError(report, "after only 2 of 3 planned suites", line=17)

    def test_top_plan_says_fewer_suites(self):
        report = ktap.parse(edit(PASSING, "1..2", "1..1"))
        self.assertError(report, "suite 2 is beyond the top-level plan 1..1",
                         line=11)

    def test_suite_plan_says_more_cases(self):
        log = edit(PASSING, "    1..2", "    1..3")
        report = ktap.parse(log)
        self.assertError(report, "planned 3 cases (1..3) but reported 2: "
                                 "missing case 3", line=10)
        self.assertFalse(report.passed)

    def test_suite_plan_says_fewer_cases(self):
        log = edit(PASSING, "    1..2", "    1..1")
        self.assertError(ktap.parse(log), "reported 2 cases, more than its "
                                          "plan 1..1", line=10)

    def test_number_gap(self):
        log = edit(PASSING, "ok 2 split_merge", "ok 3 split_merge")
        self.assertError(ktap.parse(log), "gap in the case numbers of suite "
                                          "'buddy': got 3, expected 2",
                         line=8)

    def test_repeated_number(self):
        log = edit(PASSING, "ok 2 split_merge", "ok 1 split_merge")
        self.assertError(ktap.parse(log), "case number 1 repeated in suite "
                                          "'buddy' (expected 2)", line=8)

    def test_suite_closed_with_wrong_name(self):
        log = edit(PASSING, "ok 1 buddy", "ok 1 slab")
        self.assertError(ktap.parse(log), "suite 'buddy' is closed with the "
                                          "wrong name", line=10)

    def test_suite_closed_with_wrong_number(self):
        log = edit(PASSING, "ok 2 slab", "ok 3 slab")
        self.assertError(ktap.parse(log), "suite result number 3", line=16)

    def test_result_without_suite(self):
        log = edit(PASSING, "    KTAP version 1\n    # Subtest: slab\n    "
                   "1..1\n    ok 1 cache_create\n# slab: pass:1 fail:0 "
                   "skip:0 total:1\n", "")
        report = ktap.parse(log)
        self.assertError(report, "never opened", line=11)
        self.assertEqual(2, len(report.suites))

    def test_unclosed_suite_before_next(self):
        log = edit(PASSING, "# buddy: pass:2 fail:0 skip:0 total:2\n"
                   "ok 1 buddy\n", "")
        report = ktap.parse(log)
        self.assertError(report, "suite 'buddy' was not closed before the "
                                 "next suite starts", line=9)

    def test_missing_totals(self):
        report = ktap.parse(edit(PASSING, "# totals: pass:3 fail:0 skip:0 "
                                          "total:3\n", ""))
        self.assertError(report, "missing the '# totals:", line=None)
        self.assertFalse(report.passed)

    def test_totals_disagree(self):
        log = edit(PASSING, "pass:3 fail:0 skip:0 total:3",
                   "pass:4 fail:0 skip:0 total:4")
        self.assertError(ktap.parse(log), "totals disagree with the cases",
                         line=17)

    def test_totals_before_last_suite(self):
        log = edit(PASSING, "    KTAP version 1\n    # Subtest: slab",
                   "# totals: pass:2 fail:0 skip:0 total:2\n"
                   "    KTAP version 1\n    # Subtest: slab")
        report = ktap.parse(log)
        self.assertError(report, "after only 1 of 2 planned suites", line=11)
        self.assertError(report, "KTAP line after the '# totals' line",
                         line=12)

    def test_malformed_totals(self):
        log = edit(PASSING, "# totals: pass:3 fail:0 skip:0 total:3",
                   "# totals: pass:3 fail:0")
        self.assertError(ktap.parse(log), "malformed totals line", line=17)

    def test_suite_summary_disagrees(self):
        log = edit(PASSING, "# buddy: pass:2", "# buddy: pass:1")
        self.assertError(ktap.parse(log), "summary of suite 'buddy'", line=9)

    def test_bad_indentation(self):
        log = edit(PASSING, "    ok 1 alloc_free", "  ok 1 alloc_free")
        self.assertError(ktap.parse(log), "bad indentation (2 spaces)",
                         line=7)

    def test_too_deep_indentation(self):
        log = edit(PASSING, "    ok 1 alloc_free", "        ok 1 alloc_free")
        self.assertError(ktap.parse(log), "bad indentation (8 spaces)",
                         line=7)

    def test_invalid_case_name(self):
        log = edit(PASSING, "ok 1 alloc_free", "ok 1 alloc-free")
        self.assertError(ktap.parse(log), "invalid case name 'alloc-free'",
                         line=7)

    def test_result_without_number(self):
        log = edit(PASSING, "ok 1 alloc_free", "ok alloc_free")
        self.assertError(ktap.parse(log), "malformed result line", line=7)

    def test_second_report(self):
        report = ktap.parse(PASSING + PASSING)
        self.assertError(report, "KTAP line after the '# totals' line",
                         line=18)
        self.assertFalse(report.passed)

    def test_empty_log(self):
        report = ktap.parse("[    0.000000] booting\n")
        self.assertError(report, "no KTAP report in the log", line=None)
        self.assertEqual("malformed", report.verdict)


class TestCutLogs(KtapTestCase):
    def cut(self, text: str, marker: str) -> str:
        """text up to and including the line holding marker."""
        index = text.index(marker)
        return text[: text.index("\n", index) + 1]

    def test_cut_in_mid_suite(self):
        report = ktap.parse(self.cut(EXAMPLE, "not ok 2 string_ops"))
        self.assertFalse(report.passed)
        error = self.assertError(report, "log ends inside suite 'lib' after "
                                         "2 case(s)", line=None)
        self.assertIn("case 3 of its plan 1..3", error.message)
        self.assertIn("its result line 'not ok 1 lib'", error.message)
        self.assertError(report, "only 1 of 2 planned suites started: "
                                 "missing suite 2")
        self.assertError(report, "missing the '# totals:")
        lib = report.suites[0]
        self.assertFalse(lib.closed)
        self.assertEqual(1, lib.missing_cases)

    def test_cut_in_suite_header(self):
        report = ktap.parse(self.cut(PASSING, "# Subtest: slab"))
        self.assertError(report, "log ends inside suite 'slab' after 0 "
                                 "case(s): missing its plan '1..N'")

    def test_cut_between_suites(self):
        report = ktap.parse(self.cut(PASSING, "ok 1 buddy"))
        self.assertError(report, "only 1 of 2 planned suites started: "
                                 "missing suite 2", line=None)
        self.assertEqual(1, len(report.suites))

    def test_cut_with_trailing_diagnostics(self):
        log = self.cut(PASSING, "ok 1 alloc_free") + (
            "    # split_merge: about to die\n"
            "[    0.5] BUG: unable to handle page fault\n")
        report = ktap.parse(log)
        self.assertEqual(["# split_merge: about to die"],
                         report.suites[0].diagnostics)


class TestCommandLine(unittest.TestCase):
    def run_main(self, text: str) -> tuple[int, str]:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "serial.log")
            with open(path, "w") as f:
                f.write(text)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = ktap.main([path])
        return status, out.getvalue()

    def test_passing_log_exits_0(self):
        status, out = self.run_main(PASSING)
        self.assertEqual(0, status)
        self.assertIn("verdict: PASSED", out)

    def test_failing_log_exits_1(self):
        status, out = self.run_main(EXAMPLE)
        self.assertEqual(1, status)
        self.assertIn("verdict: FAILED", out)
        self.assertIn("not ok 2 string_ops", out)

    def test_malformed_log_exits_1(self):
        status, out = self.run_main(PASSING[:200])
        self.assertEqual(1, status)
        self.assertIn("verdict: MALFORMED", out)

    def test_missing_file_exits_2(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = ktap.main([os.path.join(HERE, "no", "such.log")])
        self.assertEqual(2, status)
        self.assertIn("cannot read", err.getvalue())


# -- runner.py -----------------------------------------------------------

MATRIX = textwrap.dedent(r"""
    # a comment, then a blank line

    small | elf | -m 128M -smp 1 |  | pass
    numa  | elf | -m 1G -smp 2 -numa node,mem=512M -numa node,mem=512M | ktest.filter="buddy slab" | pass timeout=150
    iso   | iso | -m 512M | | pass
      # an indented comment
    panic | elf | -m 64M | ktest.misuse=panic | fail exit=35 line=Kernel panic - not syncing: (a|b) #x timeout=5
""")


class TestMatrix(unittest.TestCase):
    def parse_error(self, line: str) -> str:
        with self.assertRaises(runner.MatrixError) as cm:
            runner.parse_matrix("# header\n" + line + "\n", "boots.txt")
        return str(cm.exception)

    def test_parses_fields(self):
        small, numa, iso, panic = runner.parse_matrix(MATRIX, "m")
        self.assertEqual(("small", "elf", ("-m", "128M", "-smp", "1"), "",
                          "pass", runner.DEFAULT_TIMEOUT, 4),
                         (small.name, small.image, small.qemu_args,
                          small.cmdline, small.expect, small.timeout,
                          small.lineno))
        self.assertEqual(["-numa", "node,mem=512M"], list(numa.qemu_args[4:6]))
        self.assertEqual('ktest.filter="buddy slab"', numa.cmdline)
        self.assertEqual(150.0, numa.timeout)
        self.assertEqual("iso", iso.image)
        self.assertEqual(("fail", 35, 5.0), (panic.expect, panic.exit_status,
                                             panic.timeout))
        self.assertEqual("Kernel panic - not syncing: (a|b) #x",
                         panic.line_re.pattern)

    def test_repository_matrix_parses(self):
        path = os.path.join(HERE, os.pardir, "tests", "boots.txt")
        with open(path) as f:
            boots = runner.parse_matrix(f.read(), "tests/boots.txt")
        names = [b.name for b in boots]
        for name in ("small", "smp2", "iso", "panic", "triple-fault"):
            self.assertIn(name, names)

    def test_wrong_field_count(self):
        msg = self.parse_error("small | elf | -m 64M | pass")
        self.assertIn("boots.txt:2: expected 5 fields", msg)

    def test_bad_image(self):
        self.assertIn("boots.txt:2: image must be one of elf, iso, iso-mb1, "
                      "uefi, uefi-mb1, got 'bzImage'",
                      self.parse_error("x | bzImage | | | pass"))
        self.assertIn("got 'UEFI'", self.parse_error("x | UEFI | | | pass"))

    def test_iso_with_command_line(self):
        for kind in ("iso", "iso-mb1", "uefi", "uefi-mb1"):
            with self.subTest(kind=kind):
                msg = self.parse_error(f"x | {kind} | -m 64M | loglevel=7 "
                                       f"| pass")
                self.assertIn(f"boots.txt:2: an {kind} boot takes its "
                              f"kernel command line from GRUB's config: the "
                              f"command line field must be empty, got "
                              f"'loglevel=7'", msg)

    def test_uefi_boot_may_not_name_the_machine(self):
        for option in ("-machine pc", "-M q35", "--machine=q35",
                       "-bios x.fd"):
            with self.subTest(option=option):
                msg = self.parse_error(f"x | uefi | {option} | | pass")
                self.assertIn(f"qemu option {option.split()[0]} is set by "
                              f"the runner for an uefi boot", msg)
        # A BIOS boot may: q35 with -kernel is an elf boot.
        [b] = runner.parse_matrix("q | elf | -machine q35 -m 1G | | pass")
        self.assertEqual(("-machine", "q35", "-m", "1G"), b.qemu_args)

    def test_bad_name(self):
        self.assertIn("bad boot name", self.parse_error("a/b | elf | | | "
                                                        "pass"))

    def test_duplicate_name(self):
        msg = self.parse_error("x | elf | | | pass\nx | elf | | | pass")
        self.assertIn("boots.txt:3: boot name 'x' already used on line 2",
                      msg)

    def test_unbalanced_quote(self):
        self.assertIn("cannot split the qemu options",
                      self.parse_error("x | elf | -m '64M | | pass"))

    def test_reserved_option(self):
        self.assertIn("-serial is set by the runner",
                      self.parse_error("x | elf | -serial stdio | | pass"))

    def test_bad_expectations(self):
        cases = {
            "maybe": "must start with 'pass' or 'fail'",
            "pass exit=35": "unexpected 'exit=35'",
            "pass timeout=0": "must be a positive number",
            "pass timeout=soon": "not a number",
            "fail exit=35": "needs line=REGEX",
            "fail line=panic": "needs exit=N",
            "fail exit=256 line=x": "0..255",
            "fail exit=35 line=(unclosed": "bad regular expression",
            "fail exit=35 exit=0 line=x": "exit= given twice",
        }
        for expectation, fragment in cases.items():
            with self.subTest(expectation=expectation):
                msg = self.parse_error(f"x | elf | | | {expectation}")
                self.assertIn("boots.txt:2:", msg)
                self.assertIn(fragment, msg)

    def test_every_bad_line_is_reported(self):
        msg = self.parse_error("a | elf | | | pass\nb | xx | | | pass\n"
                               "c | elf | | | nope")
        self.assertIn("boots.txt:3:", msg)
        self.assertIn("boots.txt:4:", msg)

    def test_empty_matrix(self):
        with self.assertRaises(runner.MatrixError):
            runner.parse_matrix("# nothing\n\n")

    def test_build_command(self):
        small, _, iso, _ = runner.parse_matrix(MATRIX)
        images = machine.Images("k.elf", "m.iso", "m1.iso")
        fw = machine.Firmware("code.fd", "vars.fd")
        cmd = runner.build_command(small, "qemu-system-i386", images, fw,
                                   "logs/small.log", None)
        self.assertEqual(
            ["qemu-system-i386", "-display", "none", "-no-reboot",
             "-monitor", "none", "-serial", "file:logs/small.log",
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-accel",
             "tcg", "-nic", "none", "-vga", "none", "-kernel", "k.elf",
             "-append", "", "-m", "128M", "-smp", "1"], cmd)
        cmd = runner.build_command(iso, "q", images, fw, "l", None)
        self.assertEqual(["q", "-display", "none", "-no-reboot", "-monitor",
                          "none", "-serial", "file:l", "-device",
                          "isa-debug-exit,iobase=0xf4,iosize=0x04", "-accel",
                          "tcg", "-nic", "none", "-cdrom", "m.iso", "-boot",
                          "d", "-m", "512M"], cmd)

    def test_build_command_per_image_kind(self):
        images = machine.Images("k.elf", "m.iso", "m1.iso")
        fw = machine.Firmware("code.fd", "vars.fd")
        uefi = ["-machine", "q35,smm=on",
                "-global", "driver=cfi.pflash01,property=secure,value=on",
                "-drive", "if=pflash,format=raw,unit=0,readonly=on,"
                          "file=code.fd",
                "-drive", "if=pflash,format=raw,unit=1,file=b.vars.fd",
                "-nic", "none"]
        expected = {
            "elf | -m 1G -machine q35 | loglevel=7":
                ["-nic", "none", "-vga", "none", "-kernel", "k.elf",
                 "-append", "loglevel=7", "-m", "1G", "-machine", "q35"],
            "iso-mb1 | -m 64M |":
                ["-nic", "none", "-cdrom", "m1.iso", "-boot", "d", "-m",
                 "64M"],
            "uefi | -m 2G -smp 2 |":
                uefi + ["-cdrom", "m.iso", "-boot", "d", "-m", "2G",
                        "-smp", "2"],
            "uefi-mb1 | -m 1G |":
                uefi + ["-cdrom", "m1.iso", "-boot", "d", "-m", "1G"],
        }
        base = ["qemu", "-display", "none", "-no-reboot", "-monitor", "none",
                "-serial", "file:b.log", "-device",
                "isa-debug-exit,iobase=0xf4,iosize=0x04", "-accel", "tcg"]
        for line, tail in expected.items():
            with self.subTest(line=line):
                [b] = runner.parse_matrix(f"b | {line} | pass")
                vars_path = ("b.vars.fd"
                             if b.image.startswith("uefi") else None)
                self.assertEqual(base + tail, runner.build_command(
                    b, "qemu", images, fw, "b.log", vars_path))

    def test_vars_path_per_boot(self):
        boots = runner.parse_matrix("a | uefi | | | pass\n"
                                    "b | uefi-mb1 | | | pass\n"
                                    "c | iso | | | pass\n"
                                    "d | elf | | | pass\n")
        paths = [runner.vars_path_for(b, "logs") for b in boots]
        self.assertEqual([os.path.abspath("logs/a.vars.fd"),
                          os.path.abspath("logs/b.vars.fd"), None, None],
                         paths)


class TestMachine(unittest.TestCase):
    def test_kind_for(self):
        self.assertEqual("elf", machine.kind_for("bios", "kernel"))
        self.assertEqual("iso", machine.kind_for("bios", "iso"))
        self.assertEqual("iso-mb1", machine.kind_for("bios", "iso-mb1"))
        self.assertEqual("uefi", machine.kind_for("uefi", "iso"))
        self.assertEqual("uefi-mb1", machine.kind_for("uefi", "iso-mb1"))
        cases = {("uefi", "kernel"): "firmware uefi cannot boot kernel",
                 ("coreboot", "iso"): "firmware must be one of bios, uefi",
                 ("bios", "floppy"): "boot must be one of kernel, iso"}
        for (fw, what), fragment in cases.items():
            with self.subTest(firmware=fw, boot=what):
                with self.assertRaises(ValueError) as cm:
                    machine.kind_for(fw, what)
                self.assertIn(fragment, str(cm.exception))

    def test_machine_option(self):
        fw = machine.Firmware("c", "v")
        self.assertEqual([], machine.firmware_args("elf", fw, None))
        self.assertEqual(["-machine", "q35"],
                         machine.firmware_args("iso", fw, None, "q35"))
        self.assertEqual(["-machine", "q35,smm=on"],
                         machine.firmware_args("uefi", fw, "v1", "q35")[:2])
        with self.assertRaises(ValueError) as cm:
            machine.firmware_args("uefi", fw, "v1", "pc")
        self.assertIn("UEFI boots run on q35", str(cm.exception))
        with self.assertRaises(ValueError):
            machine.firmware_args("uefi-mb1", fw, None)

    def test_copy_vars_is_fresh(self):
        with tempfile.TemporaryDirectory() as tmp:
            template = os.path.join(tmp, "VARS.fd")
            with open(template, "wb") as f:
                f.write(b"\x00template\xff" * 100)
            fw = machine.Firmware("code", template)
            dest = os.path.join(tmp, "boot.vars.fd")
            with open(dest, "wb") as f:
                f.write(b"left over by an earlier boot" * 200)
            machine.copy_vars(fw, dest)
            with open(dest, "rb") as f:
                self.assertEqual(b"\x00template\xff" * 100, f.read())

    def test_missing_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            k = os.path.join(tmp, "k.elf")
            open(k, "w").close()
            images = machine.Images(k, os.path.join(tmp, "m.iso"),
                                    os.path.join(tmp, "m1.iso"))
            fw = machine.Firmware(os.path.join(tmp, "code.fd"), k)
            self.assertIsNone(machine.missing_file(["elf"], images, fw))
            self.assertEqual(f"ISO image {tmp}/m1.iso not found (build it "
                             f"first)", machine.missing_file(
                                 ["elf", "iso-mb1"], images, fw))
            open(images.iso, "w").close()
            self.assertEqual(f"OVMF code (Debian: ovmf-ia32) {tmp}/code.fd "
                             f"not found",
                             machine.missing_file(["uefi"], images, fw))


def load_qemu_run():
    """tools/qemu-run as a module (it has no .py suffix)."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader(
        "qemu_run", os.path.join(HERE, "qemu-run"))
    spec = importlib.util.spec_from_loader("qemu_run", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class TestQemuRun(unittest.TestCase):
    qr = load_qemu_run()

    def test_verdicts(self):
        cases = {
            (33, None): (0, "all tests passed"),
            (35, None): (1, "the kernel reported a failure"),
            (0, "host-qmp-quit"): (130, "quit by user"),
            (0, "host-ui"): (130, "quit by user"),
            (0, "guest-reset"):
                (1, "triple fault or reset (the machine reset itself)"),
            (0, "guest-shutdown"): (1, "the machine powered itself off"),
            (0, None): (1, "QEMU exited 0 without saying why"),
            (1, None): (1, "QEMU failed (exit 1)"),
            (-9, None): (130, "QEMU killed by SIGKILL"),
        }
        for (status, reason), expected in cases.items():
            with self.subTest(status=status, reason=reason):
                self.assertEqual(expected, self.qr.verdict(status, reason))

    def test_commands(self):
        common = ["-display", "none", "-chardev",
                  "stdio,id=con,mux=on,signal=off", "-serial",
                  "chardev:con", "-mon", "chardev=con,mode=readline",
                  "-no-reboot", "-S", "-chardev", "socket,id=qmp,fd=7", "-mon",
                  "chardev=qmp,mode=control", "-device",
                  "isa-debug-exit,iobase=0xf4,iosize=0x04"]
        args = self.qr.parse_args(["-m", "64M", "--smp", "1", "--append",
                                   "loglevel=7", "--qemu", "q", "--gdb",
                                   "--", "-d", "int"])
        self.assertEqual(["q"] + common + [
            "-nic", "none", "-vga", "none",
            "-kernel", "build/mm86.elf", "-append", "loglevel=7", "-m",
            "64M", "-smp", "1", "-gdb", "tcp:localhost:1234", "-d",
            "int"],
            self.qr.build_command(args, "elf", 7))
        args = self.qr.parse_args(["--gdb", "--gdb-port", "10042"])
        cmd = self.qr.build_command(args, "elf", 7)
        self.assertIn(["-gdb", "tcp:localhost:10042"],
                      [cmd[i:i + 2] for i in range(len(cmd) - 1)])
        args = self.qr.parse_args(["--firmware", "uefi", "--qemu", "q",
                                   "--vars", "v.fd", "--ovmf-code", "c.fd",
                                   "--iso-mb1", "m1.iso", "--boot",
                                   "iso-mb1"])
        self.assertEqual(["q"] + common + [
            "-machine", "q35,smm=on", "-global",
            "driver=cfi.pflash01,property=secure,value=on", "-drive",
            "if=pflash,format=raw,unit=0,readonly=on,file=c.fd", "-drive",
            "if=pflash,format=raw,unit=1,file=v.fd", "-nic", "none",
            "-cdrom", "m1.iso", "-boot", "d", "-m", "512M", "-smp", "2"],
            self.qr.build_command(args, "uefi-mb1", 7))
        args = self.qr.parse_args(["--machine", "q35", "--boot", "iso"])
        self.assertEqual(["-machine", "q35", "-nic", "none", "-cdrom",
                          "build/mm86.iso"],
                         self.qr.build_command(args, "iso", 3)[17:23])
        # With a log too, QEMU only writes stdout: Relay writes the log.
        args = self.qr.parse_args(["--log", "run.log", "--timeout", "5"])
        self.assertEqual("stdio,id=con,mux=on,signal=off",
                         self.qr.build_command(args, "elf", 3)[4])
        self.assertEqual(5.0, args.timeout)

    def test_relay_copies_everything_to_both(self):
        data = bytes(range(256)) * 600  # more than a pipe holds at once
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "run.log")
            rfd, wfd = os.pipe()
            out_r, out_w = os.pipe()
            got = bytearray()

            def drain() -> None:  # our "terminal": never blocks the relay
                while more := os.read(out_r, 1 << 20):
                    got.extend(more)

            reader = threading.Thread(target=drain, daemon=True)
            reader.start()
            relay = self.qr.Relay(rfd, log, out_fd=out_w)
            relay.start()
            for i in range(0, len(data), 7000):
                os.write(wfd, data[i:i + 7000])
            os.close(wfd)
            relay.join(timeout=10)
            os.close(out_w)
            reader.join(timeout=10)
            os.close(out_r)
            self.assertFalse(relay.is_alive())
            self.assertFalse(reader.is_alive())
            self.assertEqual(data, bytes(got))
            with open(log, "rb") as f:
                self.assertEqual(data, f.read())

    def test_relay_keeps_logging_when_stdout_goes(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "run.log")
            rfd, wfd = os.pipe()
            out_r, out_w = os.pipe()
            os.close(out_r)  # the reader of our stdout went away
            relay = self.qr.Relay(rfd, log, out_fd=out_w)
            relay.start()
            os.write(wfd, b"one\n")
            os.write(wfd, b"two\n")
            os.close(wfd)
            relay.join(timeout=10)
            os.close(out_w)
            self.assertFalse(relay.stdout_ok)
            with open(log, "rb") as f:
                self.assertEqual(b"one\ntwo\n", f.read())

    def test_timeout_line_names_the_case(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "run.log")
            with open(log, "w") as f:
                f.write("KTAP version 1\n1..1\n    KTAP version 1\n"
                        "    # Subtest: buddy\n    1..2\n    ok 1 a\n"
                        "    # b: still going\n")
            self.assertEqual(
                "qemu-run: no verdict within 5 s; QEMU was stopped; the "
                "case running: buddy.b", self.qr.timeout_line(5, log))
        self.assertEqual(
            "qemu-run: no verdict within 2.5 s; QEMU was stopped; the "
            "output does not say which case was running",
            self.qr.timeout_line(2.5, None))

    def test_bad_combinations(self):
        cases = {
            ("--firmware", "uefi", "--boot", "kernel"):
                "firmware uefi cannot boot kernel",
            ("--firmware", "uefi", "--machine", "pc"):
                "UEFI boots run on q35",
            ("--boot", "iso", "--append", "quiet"):
                "takes its command line from GRUB's config",
        }
        for argv, fragment in cases.items():
            with self.subTest(argv=argv):
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    self.assertEqual(2, self.qr.main(list(argv)))
                self.assertIn(fragment, err.getvalue())


# A stand-in for QEMU: writes a passing report to the serial file and
# records its pflash variables file and what that file held.
FAKE_QEMU = """\
#!/usr/bin/env python3
import sys
args = sys.argv[1:]
log = args[args.index("-serial") + 1][len("file:"):]
record = []
for a in args:
    if a.startswith("if=pflash") and "unit=1" in a:
        path = a.split("file=", 1)[1]
        with open(path, "rb") as f:
            record.append(path + " " + f.read().decode())
        with open(path, "wb") as f:
            f.write(b"written by the firmware")
with open(log + ".vars", "w") as f:
    f.write("\\n".join(record))
with open(log, "w") as f:
    f.write(REPORT)
sys.exit(33)
"""


class TestRunUefi(unittest.TestCase):
    def test_each_uefi_boot_gets_a_fresh_vars_copy(self):
        with tempfile.TemporaryDirectory() as tmp:
            qemu = os.path.join(tmp, "qemu")
            with open(qemu, "w") as f:
                f.write(FAKE_QEMU.replace("REPORT", repr(PASSING)))
            os.chmod(qemu, 0o755)
            for name in ("k.elf", "m.iso", "m1.iso", "code.fd"):
                open(os.path.join(tmp, name), "w").close()
            with open(os.path.join(tmp, "VARS.fd"), "w") as f:
                f.write("template")
            with open(os.path.join(tmp, "boots.txt"), "w") as f:
                f.write("u1 | uefi | | | pass\nu2 | uefi-mb1 | | | pass\n"
                        "b | iso | | | pass\n")
            logs = os.path.join(tmp, "logs")
            argv = ["--matrix", os.path.join(tmp, "boots.txt"), "--qemu",
                    qemu, "--jobs", "3", "--logs", logs]
            for opt, name in (("--kernel", "k.elf"), ("--iso", "m.iso"),
                              ("--iso-mb1", "m1.iso"),
                              ("--ovmf-code", "code.fd"),
                              ("--ovmf-vars", "VARS.fd")):
                argv += [opt, os.path.join(tmp, name)]
            for run in (1, 2):  # the second run must not see the first's
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    status = runner.main(argv)
                self.assertEqual(0, status, out.getvalue())
                for name in ("u1", "u2"):
                    with open(os.path.join(logs, name + ".log.vars")) as f:
                        self.assertEqual(
                            os.path.join(logs, name + ".vars.fd")
                            + " template", f.read())
                with open(os.path.join(logs, "b.log.vars")) as f:
                    self.assertEqual("", f.read())


def boot(expectation: str = "pass", name: str = "b") -> runner.Boot:
    [b] = runner.parse_matrix(f"{name} | elf | -m 64M | | {expectation}")
    return b


PANIC_LOG = (
    "[    0.000000] mm86 booting\r\n"
    "[    0.001234] ktest: misuse panic requested\r\n"
    "[    0.002000] Kernel panic - not syncing: ktest: deliberate panic "
    "(ktest.misuse=panic)\r\n")
PANIC_EXPECT = (r"fail exit=35 line=Kernel panic - not syncing: ktest: "
                r"deliberate panic \(ktest\.misuse=panic\)")


class TestJudgePass(unittest.TestCase):
    def judge(self, status, log, **kw):
        return runner.judge(boot(), runner.Outcome(status, log, **kw))

    def test_passing_boot(self):
        v = self.judge(33, PASSING.replace("\n", "\r\n"))
        self.assertTrue(v.passed, v.reasons)
        self.assertEqual([], v.reasons)
        self.assertEqual(ktap.Counts(3, 0, 0), v.counts)
        self.assertEqual(["buddy", "slab"], [r.suite for r in v.rows])
        self.assertEqual("3 cases", v.summary)

    def test_unexpected_report_fails_a_passing_boot(self):
        for report in ("WARNING: possible circular locking dependency "
                       "detected",
                       "BUG: using smp_processor_id() in preemptible "
                       "[00000000] code: init/1",
                       "init: page allocation failure: order:0, "
                       "mode:0x20(GFP_ATOMIC)"):
            log = "[    0.500000] " + report + "\r\n" + PASSING
            v = self.judge(33, log)
            self.assertFalse(v.passed)
            self.assertIn("1 unexpected report", v.reasons[0])
            self.assertIn(report, v.reasons[0])

    def test_expected_report_keeps_a_boot_passing(self):
        log = ("[    0.4] ktest: expected reports begin\r\n"
               "[    0.5] WARNING: possible recursive locking detected\r\n"
               "[    0.6] ktest: expected reports end\r\n" + PASSING)
        v = self.judge(33, log)
        self.assertTrue(v.passed, v.reasons)
        # After the end, a report counts again.
        v = self.judge(33, log + "[    0.7] BUG: late\r\n")
        self.assertFalse(v.passed)
        # Not at the start of the line (a message quoting one): not a
        # report.
        v = self.judge(33, "[    0.4] saw BUG: x\r\n" + PASSING)
        self.assertTrue(v.passed, v.reasons)
        # Nor a line without printk's timestamp: the firmware's or GRUB's.
        v = self.judge(33, "WARNING: no console will be available to OS"
                           "\r\n" + PASSING)
        self.assertTrue(v.passed, v.reasons)

    def test_pass_with_a_required_line(self):
        [b] = runner.parse_matrix(
            r"u | uefi | | | pass timeout=90 line=ACPI: RSDP \(boot "
            r"loader's copy\) 000024 \(v02 BOCHS \)")
        self.assertEqual(("pass", 90.0), (b.expect, b.timeout))
        good = ("[    0.001580] ACPI: RSDP (boot loader's copy) 000024 "
                "(v02 BOCHS )\r\n" + PASSING)
        v = runner.judge(b, runner.Outcome(33, good))
        self.assertTrue(v.passed, v.reasons)
        # The same report with the RSDP from elsewhere does not pass.
        bad = good.replace("(boot loader's copy)", "0x000000003EE73000")
        v = runner.judge(b, runner.Outcome(33, bad))
        self.assertFalse(v.passed)
        self.assertEqual("expected line not found (a line matching "
                         "\"ACPI: RSDP \\\\(boot loader's copy\\\\) 000024 "
                         "\\\\(v02 BOCHS \\\\)\")", v.reasons[0])
        self.assertEqual(ktap.Counts(3, 1, 0), v.counts)  # the boot's
        # timeout= may also follow the line, as in a 'fail' expectation.
        [b] = runner.parse_matrix("u | elf | | | pass line=a b timeout=5")
        self.assertEqual(("a b", 5.0), (b.line_re.pattern, b.timeout))

    def test_skips_are_counted_apart(self):
        log = edit(EXAMPLE, "ok 2 cmdline", "ok 2 cmdline")
        log = edit(log, "    not ok 2 string_ops", "    ok 2 string_ops")
        log = edit(log, "not ok 1 lib", "ok 1 lib")
        log = edit(log, "pass:1 fail:1 skip:1", "pass:2 fail:0 skip:1")
        log = edit(log, "pass:2 fail:1 skip:1", "pass:3 fail:0 skip:1")
        v = self.judge(33, log)
        self.assertTrue(v.passed, v.reasons)
        self.assertEqual(ktap.Counts(3, 0, 1), v.counts)

    def test_failed_case_with_exit_35(self):
        v = self.judge(35, EXAMPLE)
        self.assertFalse(v.passed)
        text = "\n".join(v.reasons)
        self.assertIn("kernel reported failure or panicked (exit 35)", text)
        self.assertIn("not ok lib.string_ops", text)
        self.assertIn("# string_ops: EXPECTATION FAILED at "
                      "tests/lib_test.c:42", text)
        self.assertIn("ktest.seed=1234567", text)
        self.assertIn("last 15 lines of the log", text)
        self.assertEqual(ktap.Counts(2, 1, 1), v.counts)

    def test_exit_33_with_not_ok_fails(self):
        v = self.judge(33, EXAMPLE)
        self.assertFalse(v.passed)
        self.assertEqual(1, v.counts.failed)

    def test_exit_33_with_malformed_report_fails(self):
        v = self.judge(33, edit(PASSING, "ok 2 split_merge",
                                "ok 3 split_merge"))
        self.assertFalse(v.passed)
        self.assertIn("KTAP report is not well-formed", "\n".join(v.reasons))
        self.assertGreaterEqual(v.counts.failed, 1)

    def test_triple_fault(self):
        v = self.judge(0, PASSING)
        self.assertFalse(v.passed)
        self.assertIn("triple fault, reset or power-off (QEMU exit 0)",
                      v.reasons)
        # A complete all-ok report still counts one failure for the boot.
        self.assertEqual(ktap.Counts(3, 1, 0), v.counts)

    def test_crash_without_report_counts_one_failure(self):
        v = self.judge(35, "[    0.1] BUG: unable to handle page fault\n")
        self.assertFalse(v.passed)
        self.assertEqual(ktap.Counts(0, 1, 0), v.counts)
        self.assertIn("BUG: unable to handle page fault", v.reasons[-1])

    def test_timeout_mid_suite(self):
        cut = EXAMPLE[: EXAMPLE.index("    ok 3 sort_random")]
        v = self.judge(None, cut, timed_out_after=3.0)
        self.assertFalse(v.passed)
        # The message names where the boot was: after case 2 of lib.
        self.assertEqual("timeout after 3s (running: case 3 of suite lib, "
                         "after lib.string_ops)", v.reasons[0])
        # ok 1 passed; not ok 2 and missing case 3 failed; suite 2 unopened.
        self.assertEqual(ktap.Counts(1, 3, 0), v.counts)

    def test_last_15_lines(self):
        log = "".join(f"[    0.{i:06d}] line {i}\r\n" for i in range(40))
        v = self.judge(35, log)
        tail = v.reasons[-1].splitlines()
        self.assertEqual(16, len(tail))
        self.assertEqual("[    0.000025] line 25", tail[1])
        self.assertEqual("[    0.000039] line 39", tail[-1])

    def test_qemu_error_output_is_shown(self):
        v = self.judge(1, "", output="qemu-system-i386: -numa: bad\n")
        self.assertIn("QEMU error (exit 1)", v.reasons)
        self.assertIn("qemu-system-i386: -numa: bad", "\n".join(v.reasons))


class TestJudgeMustFail(unittest.TestCase):
    def judge(self, status, log, expectation=PANIC_EXPECT, **kw):
        return runner.judge(boot(expectation),
                            runner.Outcome(status, log, **kw))

    def test_expected_panic(self):
        v = self.judge(35, PANIC_LOG)
        self.assertTrue(v.passed, v.reasons)
        self.assertEqual(ktap.Counts(1, 0, 0), v.counts)

    def test_expected_triple_fault(self):
        log = ("[    0.01] ktest: misuse triple_fault: loading an empty IDT "
               "and raising #BP\r\n")
        v = self.judge(0, log, "fail exit=0 line=ktest: misuse triple_fault:"
                               " loading an empty IDT and raising #BP")
        self.assertTrue(v.passed, v.reasons)

    def test_wrong_exit_status(self):
        v = self.judge(0, PANIC_LOG)
        self.assertFalse(v.passed)
        self.assertEqual(ktap.Counts(0, 1, 0), v.counts)
        self.assertIn("triple fault, reset or power-off (QEMU exit 0)",
                      v.reasons[0])

    def test_line_not_found(self):
        v = self.judge(35, PANIC_LOG.replace("deliberate", "accidental"))
        self.assertFalse(v.passed)
        self.assertTrue(v.reasons[0].startswith(
            "expected line not found; last lines:"))
        self.assertIn("accidental panic", v.reasons[0])

    def test_line_must_match_whole(self):
        log = PANIC_LOG.replace("(ktest.misuse=panic)",
                                "(ktest.misuse=panic) and more")
        self.assertFalse(self.judge(35, log).passed)

    def test_line_without_timestamp(self):
        log = ("Kernel panic - not syncing: ktest: deliberate panic "
               "(ktest.misuse=panic)\r\n")
        self.assertTrue(self.judge(35, log).passed)

    def test_passing_boot_is_not_an_expected_failure(self):
        v = self.judge(33, PASSING + "Kernel panic\n",
                       "fail exit=33 line=Kernel panic")
        self.assertFalse(v.passed)
        self.assertIn("must fail", "\n".join(v.reasons))

    def test_timeout(self):
        v = self.judge(None, "", timed_out_after=7.5)
        self.assertFalse(v.passed)
        self.assertEqual("timeout after 7.5s", v.reasons[0])
        self.assertEqual(ktap.Counts(0, 1, 0), v.counts)


class TestExtraCounts(unittest.TestCase):
    def read(self, text: str) -> ktap.Counts:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "counts.txt")
            with open(path, "w") as f:
                f.write(text)
            return runner.read_extra_counts(path)

    def test_last_counts_line(self):
        self.assertEqual(ktap.Counts(12, 1, 0),
                         self.read("noise\n3 passed, 0 failed\n"
                                   "12 passed, 1 failed\n"))
        self.assertEqual(ktap.Counts(5, 0, 2),
                         self.read("5 passed, 0 failed, 2 skipped\n"))

    def test_no_counts_line(self):
        with self.assertRaises(ValueError):
            self.read("all good\n")


if __name__ == "__main__":
    unittest.main()
