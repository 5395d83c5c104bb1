#!/usr/bin/env python3
"""Unit tests of tools/mmsnap.py on hand-written snapshot logs."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmsnap  # noqa: E402

# A boot of 16 MiB (4096 pages) with two snapshots: SEQ 0 with the map,
# SEQ 1 refers to it.  The pages map: 0-158 R, 159-255 x, 256-271 K,
# 272-279 M, 280-281 T, then free and allocated pages.
FIRST = """\
[    0.000000] mm86 boot
[    0.100000] mmsnap: begin 0 boot v=1 jiffies=12 hz=100 max_pfn=4096 cpus=2
[    0.100000] mmsnap: e820 0x0 0x9fc00 usable
[    0.100000] mmsnap: e820 0x9fc00 0xa0000 reserved
[    0.100000] mmsnap: e820 0x100000 0xfe0000 usable
[    0.100000] mmsnap: e820 0xfffc0000 0x100000000 reserved
[    0.100000] mmsnap: memblock memory 0x0 0x9f000 0
[    0.100000] mmsnap: memblock memory 0x100000 0xfe0000 0
[    0.100000] mmsnap: memblock reserved 0x0 0x1000
[    0.100000] mmsnap: memblock reserved 0x100000 0x118000
[    0.100000] mmsnap: node 0 0 4064 present=3967
[    0.100000] mmsnap: zone 0 DMA 0 4064 present=3967 managed=3800
[    0.100000] mmsnap: kernel 0x100000 0x110000
[    0.100000] mmsnap: mem_map 0x110000 0x118000
[    0.100000] mmsnap: free 0 DMA 1 0 1 0 0 0 0 0 0 0 1
[    0.100000] mmsnap: watermarks 0 DMA free=1029 min=16 low=20 high=24
[    0.100000] mmsnap: pcp 0 DMA 0 hot=2 cold=1 high=6 batch=1
[    0.100000] mmsnap: pcp 0 DMA 1 hot=0 cold=0 high=6 batch=1
[    0.100000] mmsnap: slab kmalloc-32 32 100 128 1 1
[    0.100000] mmsnap: slab kmalloc-4096 4096 3 4 4 1
[    0.100000] mmsnap: pages 0 R159x97K16M8T2
[    0.100000] mmsnap: pages 282 aPc4S2P2U2748k1024
[    0.100000] mmsnap: pages 4064 x32
[    0.100000] mmsnap: end 0 runs=13 pages=4096
"""
SECOND = """\
[    1.000000] mmsnap: begin 1 suite:buddy v=1 jiffies=100 hz=100 max_pfn=4096 cpus=2
[    1.000000] mmsnap: free 0 DMA 0 0 0 0 0 0 0 0 0 0 1
[    1.000000] mmsnap: watermarks 0 DMA free=1024 min=16 low=20 high=24
[    1.000000] mmsnap: slab kmalloc-32 32 10 128 1 1
[    1.000000] mmsnap: pages 0 R159x97K16M8T2U2758k1024x32
[    1.000000] mmsnap: end 1 runs=8 pages=4096
"""


class ParseTest(unittest.TestCase):
    def test_good_log(self):
        r = mmsnap.parse(FIRST + "noise\n" + SECOND)
        self.assertEqual(r.errors, [])
        a, b = r.snapshots
        self.assertEqual((a.seq, a.label, a.jiffies, a.hz, a.max_pfn, a.cpus),
                         (0, "boot", 12, 100, 4096, 2))
        self.assertEqual((b.seq, b.label, b.jiffies), (1, "suite:buddy", 100))
        self.assertTrue(a.complete and b.complete and a.map_ok and b.map_ok)
        pm = a.physmap
        self.assertIs(b.physmap, pm)  # carried from the first snapshot
        self.assertTrue(a.own_physmap)
        self.assertFalse(b.own_physmap)
        self.assertEqual(pm.e820, [(0, 0x9fc00, "usable"),
                                   (0x9fc00, 0xa0000, "reserved"),
                                   (0x100000, 0xfe0000, "usable"),
                                   (0xfffc0000, 1 << 32, "reserved")])
        self.assertEqual(pm.memory, [(0, 0x9f000, 0), (0x100000, 0xfe0000, 0)])
        self.assertEqual(pm.reserved, [(0, 0x1000), (0x100000, 0x118000)])
        self.assertEqual(pm.nodes, [mmsnap.Node(0, 0, 4064, 3967)])
        self.assertEqual(pm.zones, [mmsnap.Zone(0, "DMA", 0, 4064, 3967, 3800)])
        self.assertEqual(pm.kernel, (0x100000, 0x110000))
        self.assertEqual(pm.mem_map, [(0x110000, 0x118000)])
        self.assertEqual(a.free, {(0, "DMA"): [1, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                                1]})
        self.assertEqual(a.watermarks[(0, "DMA")],
                         mmsnap.Watermarks(1029, 16, 20, 24))
        self.assertEqual(a.pcp[(0, "DMA")], [mmsnap.Pcp(0, 2, 1, 6, 1),
                                             mmsnap.Pcp(1, 0, 0, 6, 1)])
        self.assertEqual(a.slabs[1], mmsnap.Slab("kmalloc-4096", 4096, 3, 4,
                                                 4, 1))
        self.assertEqual(len(a.runs), 13)
        self.assertEqual(a.runs[:5], [mmsnap.Run("R", 0, 159),
                                      mmsnap.Run("x", 159, 97),
                                      mmsnap.Run("K", 256, 16),
                                      mmsnap.Run("M", 272, 8),
                                      mmsnap.Run("T", 280, 2)])
        self.assertEqual(a.runs[5], mmsnap.Run("a", 282, 1))
        self.assertEqual(a.runs[6:9], [mmsnap.Run("P", 283, 1),
                                       mmsnap.Run("c", 284, 4),
                                       mmsnap.Run("S", 288, 2)])
        self.assertEqual(a.runs[-2], mmsnap.Run("k", 3040, 1024))
        self.assertEqual(a.zones(), [(0, "DMA")])
        self.assertEqual(b.seconds_since(a), 0.88)
        wrapped = mmsnap.Snapshot(seq=2, label="end", line=0,
                                  jiffies=50, hz=100)
        before = mmsnap.Snapshot(seq=0, label="boot", line=0,
                                 jiffies=(1 << 32) - 50, hz=100)
        self.assertEqual(wrapped.seconds_since(before), 1.0)

    def test_free_from_map_matches_free_line(self):
        a = mmsnap.parse(FIRST).snapshots[0]
        z = a.physmap.zones[0]
        by_map = mmsnap.free_pages_by_order(a.runs, z.start_pfn, z.end_pfn)
        by_line = [n << k for k, n in enumerate(a.free[(0, "DMA")])]
        self.assertEqual(by_map, by_line)
        self.assertEqual(mmsnap.free_pages(a.free[(0, "DMA")]), 1029)
        self.assertEqual(mmsnap.state_counts(a.runs, 0, 300),
                         {"R": 159, "x": 97, "K": 16, "M": 8, "T": 2, "a": 1,
                          "P": 3, "c": 4, "S": 2, "U": 8})

    def test_expand(self):
        a = mmsnap.parse(FIRST).snapshots[0]
        m = mmsnap.expand(a.runs, a.max_pfn)
        self.assertEqual(len(m), 4096)
        self.assertEqual(m[155:160], b"RRRRx")
        self.assertEqual(m[280:292], b"TTaPccccSSPP")
        self.assertEqual(m[-33:], b"k" + b"x" * 32)

    def test_truncated_snapshot(self):
        cut = FIRST.replace("[    0.100000] mmsnap: end 0 runs=13 pages=4096\n",
                            "")
        r = mmsnap.parse(cut + SECOND)
        self.assertEqual([str(e) for e in r.errors],
                         ["line 24: snapshot 0 (boot, begun at line 2) is "
                          "truncated: no end line"])
        a, b = r.snapshots
        self.assertFalse(a.complete)
        self.assertTrue(b.complete and b.map_ok)
        self.assertEqual(a.physmap.zones[0].name, "DMA")
        self.assertIs(b.physmap, a.physmap)  # still carried
        # at the end of the log
        r = mmsnap.parse(FIRST + SECOND.rsplit("[", 1)[0])
        self.assertEqual([str(e) for e in r.errors],
                         ["end of log: snapshot 1 (suite:buddy, begun at line "
                          "25) is truncated: no end line"])
        self.assertTrue(r.snapshots[0].complete)

    def test_runs_do_not_add_up(self):
        r = mmsnap.parse(SECOND.replace("x32", "x31"))
        self.assertEqual([str(e) for e in r.errors],
                         ["line 6: snapshot 1: the runs cover 4095 pages, "
                          "max_pfn is 4096",
                          "line 6: snapshot 1: end line says runs=8 "
                          "pages=4096, the pages lines held runs=8 "
                          "pages=4095"])
        self.assertFalse(r.snapshots[0].map_ok)
        self.assertTrue(r.snapshots[0].complete)

    def test_pages_line_does_not_continue(self):
        text = FIRST.replace("pages 282 aPc4", "pages 283 aPc4")
        r = mmsnap.parse(text + SECOND)
        msgs = [str(e) for e in r.errors]
        self.assertEqual(msgs[0], "line 22: pages line starts at PFN 283, but "
                                  "the previous line stopped at PFN 282")
        self.assertEqual(msgs[1], "line 23: pages line starts at PFN 4064, but "
                                  "the previous line stopped at PFN 4065")
        self.assertFalse(r.snapshots[0].map_ok)
        self.assertTrue(r.snapshots[1].map_ok)  # the rest is kept
        first = FIRST.replace("pages 0 R159", "pages 1 R159")
        self.assertEqual(str(mmsnap.parse(first).errors[0]),
                         "line 21: pages line starts at PFN 1, but the map "
                         "starts at PFN 0")

    def test_malformed_lines(self):
        bad = {
            "mmsnap: free 0 DMA 1 2 3": "line 2: free: expected 'free NID "
                                        "ZONE N0 .. N10', got 5 fields",
            "mmsnap: free 0 Movable 1 0 0 0 0 0 0 0 0 0 0":
                "line 2: free: unknown zone 'Movable' (DMA, Normal, HighMem)",
            "mmsnap: pcp 0 DMA 0 hot=2 cold=x high=6 batch=1":
                "line 2: pcp: cold must be a decimal number, got 'x'",
            "mmsnap: pages 0 R4000Z96":
                "line 2: pages: unknown state code 'Z'",
            "mmsnap: kernel 100000 0x200000":
                "line 2: kernel: start must be a hex address 0x..., got "
                "'100000'",
            "mmsnap: frobnicate 1": "line 2: frobnicate: unknown line kind",
            "mmsnap: e820 0x0 0x1000 weird":
                "line 2: e820: unknown e820 type 'weird'",
        }
        begin = ("mmsnap: begin 0 boot v=1 jiffies=0 hz=100 max_pfn=4096 "
                 "cpus=1\nmmsnap: e820 0x0 0x1000000 usable\n")
        for line, msg in bad.items():
            with self.subTest(line=line):
                text = begin.replace("mmsnap: e820", line + "\nmmsnap: e820") \
                    + "mmsnap: pages 0 R4096\nmmsnap: end 0 runs=1 pages=4096\n"
                r = mmsnap.parse(text)
                self.assertEqual([str(e) for e in r.errors], [msg])

    def test_outside_and_version(self):
        r = mmsnap.parse("mmsnap: end 0 runs=1 pages=1\n"
                         "mmsnap: begin 0 boot v=2 jiffies=0 hz=100 "
                         "max_pfn=1 cpus=1\n")
        self.assertEqual([str(e) for e in r.errors],
                         ["line 1: end: outside a snapshot (no begin line "
                          "before it)",
                          "line 2: begin: snapshot format v=2, this parser "
                          "reads v=1"])
        self.assertEqual(r.snapshots, [])

    def test_physmap_only_in_first(self):
        text = SECOND.replace("mmsnap: free", "mmsnap: kernel 0x0 0x1000\n"
                              "[    1.000000] mmsnap: free")
        r = mmsnap.parse(FIRST + text)
        self.assertEqual([str(e) for e in r.errors],
                         ["line 26: kernel: the physical map belongs in the "
                          "first snapshot (SEQ 0), not in snapshot 1"])

    def test_no_timestamps_and_crlf(self):
        plain = "\r\n".join(line.split("] ", 1)[1]
                            for line in FIRST.splitlines())
        r = mmsnap.parse(plain)
        self.assertEqual(r.errors, [])
        self.assertEqual(len(r.snapshots[0].runs), 13)

    def test_decode_runs(self):
        self.assertEqual(mmsnap.decode_runs("a3bK", 10),
                         [mmsnap.Run("a", 10, 3), mmsnap.Run("b", 13, 1),
                          mmsnap.Run("K", 14, 1)])
        for bad in ("", "3a", "a0", "a03", "a-1"):
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    mmsnap.decode_runs(bad, 0)


class IndexTest(unittest.TestCase):
    def test_unusable_index(self):
        # free: 1 order-0, 1 order-2, 1 order-10 = 1 + 4 + 1024 = 1029 pages
        counts = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]
        idx = mmsnap.unusable_index(counts)
        self.assertEqual(idx[0], 0.0)
        self.assertEqual(idx[1], 1 / 1029)
        self.assertEqual(idx[2], 1 / 1029)
        self.assertEqual(idx[3], 5 / 1029)
        self.assertEqual(idx[10], 5 / 1029)
        milli = mmsnap.unusable_index_milli(counts)
        self.assertEqual(milli, [0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4])
        self.assertEqual(mmsnap.format_index(milli[3]), "0.004")

    def test_all_small(self):
        counts = [8, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # 16 pages
        self.assertEqual(mmsnap.unusable_index_milli(counts),
                         [0, 500] + [1000] * 9)
        self.assertEqual(mmsnap.format_index(1000), "1.000")
        self.assertEqual(mmsnap.unusable_index(counts)[1], 0.5)

    def test_rounds_down(self):
        counts = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # 3 pages
        self.assertEqual(mmsnap.unusable_index_milli(counts)[1], 333)
        self.assertEqual(mmsnap.unusable_index_milli(counts)[2], 1000)
        self.assertEqual(mmsnap.unusable_index(counts)[1], 1 / 3)

    def test_nothing_free(self):
        self.assertEqual(mmsnap.unusable_index([0] * 11), [0.0] * 11)
        self.assertEqual(mmsnap.unusable_index_milli([0] * 11), [0] * 11)


if __name__ == "__main__":
    unittest.main()
