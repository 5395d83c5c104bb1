#!/usr/bin/env python3
"""Unit tests of the parts of tools/report.py and tools/postboot_checks.py
that need neither matplotlib nor a browser: the page, the choice of logs
and snapshots, the golden file and the relations the golden checks test,
and runner.py's --post-check."""

import html.parser
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ktap  # noqa: E402
import mmsnap  # noqa: E402
import postboot_checks  # noqa: E402
import report  # noqa: E402
import runner  # noqa: E402
from test_mmsnap import FIRST, SECOND  # noqa: E402

KTAP = """KTAP version 1
1..2
    KTAP version 1
    # Subtest: buddy
    1..1
    ok 1 merge
ok 1 buddy
    KTAP version 1
    # Subtest: slab
    1..1
    # grow: EXPECTATION FAILED at tests/slab_test.c:10
    not ok 1 grow
not ok 2 slab
# totals: pass:1 fail:1 skip:0 total:2
"""

VOID = {"meta", "img", "br", "hr", "link", "input"}


class TagChecker(html.parser.HTMLParser):
    """Every element closed in order; the images' sources."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.images = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"unbalanced </{tag}>")


def info(name, log, pictures=(), snapshots=0):
    report_ = ktap.parse(log)
    return {"name": name, "log": f"build/logs/{name}.log", "ktap": report_,
            "summary": ["qemu-run: summary <of> it"], "errors": [],
            "failures": [("slab", "grow", "tests/slab_test.c:10: a < b")]
            if report_.failures() else [],
            "pictures": [(p, f"{name}/{p}.png", f"the {p}") for p in pictures],
            "snapshots": snapshots, "snap_labels": ["boot"] * snapshots}


class PageTest(unittest.TestCase):
    def test_page(self):
        infos = [info("mem16", KTAP, report.PICTURES, 2),
                 info("panic", "Kernel panic\n")]
        fields = {"mem16": {"expect": "pass", "spec": "elf | -m 16M"},
                  "panic": {"expect": "fail", "spec": "elf | x<y"}}
        page = report.page(infos, fields, 1.5)
        checker = TagChecker()
        checker.feed(page)
        self.assertEqual(checker.errors, [])
        self.assertEqual(checker.stack, [])
        self.assertEqual([i["src"] for i in checker.images],
                         [f"mem16/{p}.png" for p in report.PICTURES])
        self.assertTrue(all(i.get("alt") for i in checker.images))
        self.assertIn('<a href="#boot-mem16">mem16</a>', page)
        self.assertIn('<section id="boot-panic">', page)
        self.assertIn("No snapshots in this log.", page)
        self.assertIn("No KTAP results in this log.", page)
        self.assertIn('<td class="fail">slab</td>', page)
        self.assertIn("<td>buddy</td>", page)
        self.assertIn("x&lt;y", page)  # escaped
        self.assertIn("summary &lt;of&gt; it", page)
        self.assertIn("must fail (stops on purpose)", page)
        self.assertIn("slab.grow</span>: tests/slab_test.c:10: a &lt; b",
                      page)
        self.assertNotIn("<script", page)

    def test_boot_variables(self):
        boots = runner.parse_matrix(
            "a | elf | -m 16M -smp 2 | | pass\n"
            "b | uefi | -m 2G | | pass\n"
            "c | elf | -machine q35 | | pass\n")
        self.assertEqual([report.boot_variables(b) for b in boots],
                         [["MEM=16M", "CPUS=2"],
                          ["MEM=2G", "FIRMWARE=uefi", "BOOT=iso"],
                          ["MACHINE=q35"]])

    def test_find_logs_in_matrix_order(self):
        with tempfile.TemporaryDirectory() as d:
            for n in ("zz", "b", "a", "host-1cpu"):
                open(os.path.join(d, n + ".log"), "w").close()
            matrix = os.path.join(d, "m.txt")
            with open(matrix, "w") as f:
                f.write("b | elf | | | pass\nq | elf | | | pass\n"
                        "a | elf | | | pass\n")
            self.assertEqual([n for n, _ in report.find_logs(d, matrix)],
                             ["b", "a", "host-1cpu", "zz"])

    def test_choose_snapshots(self):
        cut = SECOND.replace("[    1.000000] mmsnap: end 1 runs=8 pages=4096",
                             "")
        snaps = mmsnap.parse(FIRST + cut).snapshots
        phys, pages, timeline, slab = report.choose_snapshots(snaps)
        self.assertIs(phys, snaps[0])
        self.assertIs(pages, snaps[0])  # the truncated one is left out
        self.assertEqual(timeline, [snaps[0]])
        self.assertIs(slab, snaps[0])

    def test_page_map_is_the_most_fragmented(self):
        snaps = mmsnap.parse(FIRST + SECOND).snapshots
        self.assertGreater(snaps[0].n_runs, snaps[1].n_runs)
        self.assertIs(report.choose_snapshots(snaps)[1], snaps[0])

    def test_page_map_geometry(self):
        self.assertEqual(report.page_map_geometry(4064), (128, 32, 4))
        self.assertEqual(report.page_map_geometry(131040), (512, 256, 1))
        self.assertEqual(report.page_map_geometry(524288), (1024, 512, 1))


class GoldenTest(unittest.TestCase):
    def test_relations_hold(self):
        r = mmsnap.parse(FIRST + SECOND)
        self.assertEqual(postboot_checks.relation_problems("mem16", r), [])

    def test_relations_catch(self):
        bad = FIRST.replace("kernel 0x100000 0x110000",
                            "kernel 0x9f000 0x110000")
        r = mmsnap.parse(bad + SECOND)
        problems = postboot_checks.relation_problems("mem16", r)
        self.assertIn("kernel (651264, 1114112) not inside usable RAM (e820 "
                      "usable and memblock memory)", problems)
        bad = FIRST.replace("free 0 DMA 1 0 1", "free 0 DMA 1 1 0")
        r = mmsnap.parse(bad)
        self.assertEqual(postboot_checks.relation_problems("mem16", r),
                         ["snapshot 0 (boot): node 0 DMA: free pages by "
                          "order in the map [1, 0, 4, 0, 0, 0, 0, 0, 0, 0, "
                          "1024], the free line says [1, 2, 0, 0, 0, 0, 0, "
                          "0, 0, 0, 1024]"])
        r = mmsnap.parse(FIRST)
        self.assertEqual(postboot_checks.relation_problems("numafake2", r),
                         ["numa=fake=2: nodes [0], expected 0 and 1"])

    def test_private_zone_in_a_case_snapshot(self):
        # a test's private zone: 4 pages of U shown free in an order-2
        # block that no free line counts
        case = SECOND.replace("suite:buddy", "case:buddy.x:held").replace(
            "T2U2758", "T2c4U2754").replace("runs=8", "runs=9")
        r = mmsnap.parse(FIRST + case)
        self.assertEqual(postboot_checks.relation_problems("mem16", r), [])
        r = mmsnap.parse(FIRST + case.replace("case:buddy.x:held", "end"))
        self.assertEqual(postboot_checks.relation_problems("mem16", r),
                         ["snapshot 1 (end): node 0 DMA: free pages by order "
                          "in the map [0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1024], "
                          "the free line says [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "
                          "1024]"])

    def test_canonical_map(self):
        pm = mmsnap.parse(FIRST).snapshots[0].physmap
        self.assertEqual(postboot_checks.canonical_map(pm)[-3:],
                         ["memblock memory 0x100000 0xfe0000 0",
                          "node 0 0 4064 present=3967",
                          "zone 0 DMA 0 4064 present=3967"])

    def test_golden_file_is_consistent(self):
        """Each golden map adds up: zones to nodes, nodes to memblock
        memory's whole pages; usable e820 holds memblock memory."""
        golden = postboot_checks.read_golden(
            os.path.join(HERE, "..", "tests", "mmsnap-golden.txt"))
        self.assertEqual(sorted(golden), sorted(postboot_checks.GOLDEN_BOOTS))
        for name, lines in golden.items():
            with self.subTest(name=name):
                text = "mmsnap: begin 0 boot v=1 jiffies=0 hz=100 " \
                    "max_pfn=1 cpus=1\n" + "".join(
                        f"mmsnap: {line}"
                        + (" managed=0" if line.startswith("zone") else "")
                        + "\n" for line in lines)
                r = mmsnap.parse(text)
                pm = r.snapshots[0].physmap
                self.assertEqual(postboot_checks.canonical_map(pm), lines)
                for n in pm.nodes:
                    self.assertEqual(sum(z.present for z in pm.zones
                                         if z.nid == n.nid), n.present)
                pages = sum((e >> 12) - (-(-s // 4096)) for s, e, _ in
                            pm.memory)
                self.assertEqual(sum(n.present for n in pm.nodes), pages)
                usable = [(s, e) for s, e, t in pm.e820 if t == "usable"]
                for s, e, _ in pm.memory:
                    self.assertTrue(postboot_checks.covered(usable, s, e))

    def test_covered(self):
        rs = [(0, 10), (10, 20), (30, 40)]
        self.assertTrue(postboot_checks.covered(rs, 5, 20))
        self.assertFalse(postboot_checks.covered(rs, 5, 21))
        self.assertTrue(postboot_checks.covered(rs, 30, 40))
        self.assertFalse(postboot_checks.covered(rs, 25, 35))

    def test_png_size(self):
        with tempfile.NamedTemporaryFile(suffix=".png") as f:
            f.write(b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\1\0\0\0\0\x20")
            f.flush()
            self.assertEqual(postboot_checks.png_size(f.name), (256, 32))
            f.seek(0)
            f.write(b"GIF89a")
            f.flush()
            self.assertIsNone(postboot_checks.png_size(f.name))


class PostCheckTest(unittest.TestCase):
    def run_check(self, script):
        with tempfile.NamedTemporaryFile("w", suffix=".py",
                                         delete=False) as f:
            f.write(script)
        try:
            import contextlib
            import io
            with contextlib.redirect_stdout(io.StringIO()):
                return runner.run_post_check(f"{sys.executable} {f.name}")
        finally:
            os.unlink(f.name)

    def test_counts_join(self):
        _, counts, note = self.run_check(
            "print('PASS a')\nprint('3 passed, 1 failed')\n"
            "raise SystemExit(1)\n")
        self.assertEqual((counts.passed, counts.failed, note), (3, 1, ""))

    def test_no_counts_or_bad_exit(self):
        _, counts, note = self.run_check("print('nothing')\n")
        self.assertEqual((counts.passed, counts.failed), (0, 1))
        self.assertEqual(note, "no counts line")
        _, counts, note = self.run_check(
            "print('2 passed, 0 failed')\nraise SystemExit(3)\n")
        self.assertEqual((counts.passed, counts.failed), (2, 1))
        self.assertEqual(note, "exit status 3")


if __name__ == "__main__":
    unittest.main()
