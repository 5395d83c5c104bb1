#!/usr/bin/env python3
"""Unit tests of the summary that ends tools/qemu-run (make run, make debug):
fixed serial logs in, the exact lines out.

    python3 tools/test_qemu_run.py
"""

from __future__ import annotations

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_ktap import load_qemu_run  # noqa: E402

QR = load_qemu_run()

HEAD = """\
[    0.000000] mm86 booting
[    0.000000] Command line: {cmdline}
KTAP version 1
# ktest: seed 42 (replay with ktest.seed=42)
1..2
"""

BUDDY_PASSES = """\
    KTAP version 1
    # Subtest: buddy
    1..2
    ok 1 split
    ok 2 merge
# buddy: pass:2 fail:0 skip:0 total:2
ok 1 buddy
"""

SLAB_PASSES = """\
    KTAP version 1
    # Subtest: slab
    1..2
    ok 1 grow
    ok 2 shrink # SKIP needs -smp 2
# slab: pass:1 fail:0 skip:1 total:2
ok 2 slab
"""

BUDDY_FAILS = """\
    KTAP version 1
    # Subtest: buddy
    1..2
    # split: EXPECTATION FAILED at tests/buddy_test.c:120
    # Expected nr_free == 3, but
    #     nr_free == 2 (0x2)
    #     3 == 3 (0x3)
    # split: EXPECTATION FAILED at tests/buddy_test.c:121
    # Expected order == 1, but
    #     order == 0 (0x0)
    #     1 == 1 (0x1)
    not ok 1 split
    # merge: freed 4 pages
    # merge: LEAK of free pages: 100 before the case, 96 after
    not ok 2 merge
# buddy: pass:0 fail:2 skip:0 total:2
not ok 1 buddy
"""

TAIL = """\
# totals: pass:{p} fail:{f} skip:{s} total:{t}
# ktest: slowest case slab.grow: 12 ms (time limit 30 s)
[    1.000000] /proc/meminfo
"""


def log(body: str, cmdline: str = "", counts=(3, 0, 1), tail=True) -> str:
    text = HEAD.format(cmdline=cmdline) + body
    if tail:
        p, f, s = counts
        text += TAIL.format(p=p, f=f, s=s, t=p + f + s)
    return text


def summary(text: str, **kw) -> list[str]:
    kw.setdefault("width", 80)
    return QR.summary(text, "build/run.log", "", [], **kw)


class TestSummary(unittest.TestCase):
    def test_all_passed(self):
        self.assertEqual([
            "qemu-run: summary of build/run.log, seed 42 (suite "
            "passed/failed/skipped):",
            "  buddy 2/0/0    slab  1/0/1",
            "skipped, by reason:",
            "  1 x needs -smp 2: slab.shrink",
            "totals: 2 suites, 3 passed, 0 failed, 1 skipped; slowest "
            "slab.grow 12 ms",
        ], summary(log(BUDDY_PASSES + SLAB_PASSES)))

    def test_table_fits_the_width(self):
        text = log(BUDDY_PASSES + SLAB_PASSES)
        self.assertEqual(["  buddy 2/0/0", "  slab  1/0/1"],
                         summary(text, width=20)[1:3])

    def test_two_failures_with_their_replay_commands(self):
        # The boot's other parameters stay; its filter and seed do not.
        text = log(BUDDY_FAILS + SLAB_PASSES,
                   cmdline="ktest.filter=buddy.*,slab.* loglevel=7",
                   counts=(1, 2, 1))
        out = QR.summary(text, "build/run.log", "ignored", ["MEM=64M"],
                         width=80)
        self.assertEqual([
            "qemu-run: summary of build/run.log, seed 42 (suite "
            "passed/failed/skipped, * failed):",
            "  buddy 0/2/0*   slab  1/0/1",
            "failed (2), each with the command that replays it:",
            "  buddy.split: tests/buddy_test.c:120: Expected nr_free == 3, "
            "but nr_free == 2 (0x2), 3 == 3 (0x3)",
            '    make run MEM=64M APPEND="ktest.seed=42 '
            'ktest.filter=buddy.split loglevel=7"',
            "  buddy.merge: LEAK of free pages: 100 before the case, 96 "
            "after",
            '    make run MEM=64M APPEND="ktest.seed=42 '
            'ktest.filter=buddy.merge loglevel=7"',
            "skipped, by reason:",
            "  1 x needs -smp 2: slab.shrink",
            "totals: 2 suites, 1 passed, 2 failed, 1 skipped",
        ], out)

    def test_stopped_in_a_case(self):
        text = log("""\
    KTAP version 1
    # Subtest: buddy
    1..2
    ok 1 split
[    2.000000] Kernel panic - not syncing: BUG at mm/page_alloc.c:300
[    2.000000] ktest: the kernel stopped in case buddy.merge
""", tail=False)
        self.assertEqual([
            "qemu-run: summary of build/run.log, seed 42 (suite "
            "passed/failed/skipped, ? unfinished):",
            "  buddy 1/0/0?",
            "the kernel stopped in case buddy.merge (its result never "
            "came); replay:",
            '    make run APPEND="ktest.seed=42 ktest.filter=buddy.merge"',
            "totals: 1 suite, 1 passed, 0 failed, 0 skipped (no totals "
            "line: the run did not finish)",
        ], summary(text))

    def test_timeout(self):
        text = log("""\
    KTAP version 1
    # Subtest: buddy
    1..2
    ok 1 split
    # merge: still going
""", tail=False)
        out = summary(text, partial="no verdict in time", timed_out=True)
        self.assertEqual([
            "qemu-run: partial summary (no verdict in time) of "
            "build/run.log, seed 42 (suite passed/failed/skipped, ? "
            "unfinished):",
            "  buddy 1/0/0?",
            "timed out in buddy.merge; replay:",
            '    make run APPEND="ktest.seed=42 ktest.filter=buddy.merge"',
            "totals: 1 suite, 1 passed, 0 failed, 0 skipped (no totals "
            "line: the run did not finish)",
        ], out)
        # Which case is not always known.
        out = summary(log("    KTAP version 1\n    # Subtest: buddy\n"
                          "    1..2\n    ok 1 split\n", tail=False),
                      partial="no verdict in time", timed_out=True)
        self.assertEqual("timed out in case 2 of suite buddy, after "
                         "buddy.split", out[2])
        self.assertTrue(out[3].startswith("totals: "))

    def test_no_ktap(self):
        self.assertEqual([
            "qemu-run: summary: no KTAP report in build/run.log (the kernel "
            "printed no test results)"],
            summary("[    0.000000] mm86 booting\nkernel panic\n"))
        self.assertEqual([
            "qemu-run: partial summary (quit by user): no KTAP report in "
            "the serial log (the kernel printed no test results)"],
            QR.summary("", "the serial log", "", [], "quit by user"))

    def test_replay_command(self):
        self.assertEqual(
            'make run APPEND="ktest.seed=7 ktest.filter=lib.sort"',
            QR.replay_command(7, "lib.sort", "ktest.seed=1 ktest.filter=x",
                              []))
        self.assertEqual(
            "make run CPUS=1 'APPEND=ktest.filter=lib.sort a=\"b c\"'",
            QR.replay_command(None, "lib.sort", 'a="b c"', ["CPUS=1"]))

    def test_make_vars(self):
        args = QR.parse_args([])
        self.assertEqual([], QR.make_vars(args))
        args = QR.parse_args(["-m", "64M", "--smp", "1", "--firmware",
                              "uefi", "--boot", "iso-mb1"])
        self.assertEqual(["MEM=64M", "CPUS=1", "FIRMWARE=uefi",
                          "BOOT=iso-mb1"], QR.make_vars(args))
        args = QR.parse_args(["--firmware", "uefi", "--machine", "q35"])
        self.assertEqual(["FIRMWARE=uefi", "MACHINE=q35"],
                         QR.make_vars(args))


class Notes(unittest.TestCase):
    """The summary repeats what the kernel said that a reader must see."""

    LOG = """\
[    0.000000] Command line: ktest.filtr=x ktest.filter=lib.*,nosuch
[    0.000000] Malformed early option 'loglevel'
[    0.000001] Unknown kernel command line parameters "ktest.filtr", ignored.
KTAP version 1
# ktest: ktest.filter=nosuch selects no case: nothing ran for it
1..1
    KTAP version 1
    # Subtest: lib
    1..3
[    0.1] Malformed early option 'efail'
    ok 1 a
[    0.2] ktest: expected reports begin
[    0.2] WARNING: at mm/memblock.c:525 align
[    0.2] ktest: expected reports end
    ok 2 b # SKIP needs -smp 2
[    0.3] BUG: sleeping function called from invalid context at x.c:1
    ok 3 c # SKIP needs -smp 2
# lib: pass:1 fail:0 skip:2 total:3
ok 1 lib
# totals: pass:1 fail:0 skip:2 total:3
"""

    def test_notes(self):
        self.assertEqual(QR.kernel_notes(self.LOG), [
            "Malformed early option 'loglevel'",
            'Unknown kernel command line parameters "ktest.filtr", ignored.',
            "ktest: ktest.filter=nosuch selects no case: nothing ran for it",
            "WARNING: at mm/memblock.c:525 align (expected: a case provoked "
            "it)",
            "BUG: sleeping function called from invalid context at x.c:1"])

    def test_skips_grouped_by_reason(self):
        out = QR.summary(self.LOG, "run.log", "", [])
        i = out.index("skipped, by reason:")
        self.assertEqual(out[i + 1], "  2 x needs -smp 2: lib.b, lib.c")
        self.assertIn("the kernel said (5):", out)


class Misuse(unittest.TestCase):
    """A misuse demo is judged against its boot of tests/boots.txt."""

    LOG = """\
[    0.1] ktest: misuse scenario kunmap_atomic_twice: it must stop the kernel
[    0.2] BUG: kunmap_atomic: slot KM_USER0 of CPU 0 given back but not held: 0xdfbcd000 (previous user: misuse_kunmap_atomic_twice+0x2a/0x70 in task context with interrupts on)
[    0.3] Kernel panic - not syncing: kunmap_atomic: slot misuse
"""

    def test_found_in_the_matrix(self):
        boot = QR.misuse_boot(self.LOG)
        self.assertIsNotNone(boot)
        self.assertEqual(boot.name, "kunmap_atomic_twice")
        self.assertIsNone(QR.misuse_boot("no scenario here"))

    def test_as_expected_quotes_the_line(self):
        boot = QR.misuse_boot(self.LOG)
        code, lines = QR.judge_misuse(boot, boot.exit_status, self.LOG)
        self.assertEqual(code, 0)
        self.assertIn("stopped the kernel as expected", lines[0])
        self.assertTrue(lines[1].startswith("  BUG: kunmap_atomic: slot "
                                            "KM_USER0 of CPU 0"))

    def test_wrong_exit_or_no_line_fails(self):
        boot = QR.misuse_boot(self.LOG)
        code, lines = QR.judge_misuse(boot, 33, self.LOG)
        self.assertEqual(code, 1)
        self.assertIn("did not stop the kernel as", lines[0])
        code, _ = QR.judge_misuse(boot, boot.exit_status,
                                  self.LOG.split("\n")[0] + "\n")
        self.assertEqual(code, 1)


class QuietTerminal(unittest.TestCase):
    """The terminal gets the console less the machine lines (mmsnap:)."""

    def test_machine_lines_stay_off_the_terminal(self):
        relay = QR.Relay(-1, None)
        out = relay.terminal_part(b"[    0.1] Memory: 1K\n[    0.2] mmsnap: pa")
        self.assertEqual(out, b"[    0.1] Memory: 1K\n")
        out = relay.terminal_part(b"ges 0 R\n[    0.3] ok\n(qemu) ")
        self.assertEqual(out, b"[    0.3] ok\n(qemu) ")
        self.assertEqual(relay.hidden, 1)
        self.assertEqual(relay.pending, b"")

    def test_a_partial_kernel_line_waits_for_its_end(self):
        relay = QR.Relay(-1, None)
        self.assertEqual(relay.terminal_part(b"[    0.1] Kern"), b"")
        self.assertEqual(relay.terminal_part(b"el panic\n"),
                         b"[    0.1] Kernel panic\n")


if __name__ == "__main__":
    unittest.main()
