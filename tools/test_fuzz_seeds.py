#!/usr/bin/env python3
"""Unit tests of tools/fuzz-seeds.py (the dump's parsing and the inputs it
writes) and of tools/fuzz-long.py's reading of llvm-cov's report."""

import importlib.machinery
import importlib.util
import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, os.path.join(HERE, path))
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    loader.exec_module(module)
    return module


seeds = load("fuzz_seeds", "fuzz-seeds.py")
long_run = load("fuzz_long", "fuzz-long.py")

# A Multiboot 1 block at 0x9500 (flags: mmap) whose map at 0x9000 has
# two entries, then a BIOS-area RSDP and one table, as the case prints.
INFO = bytearray(52)
struct.pack_into("<I", INFO, 0, 0x40)
struct.pack_into("<II", INFO, 44, 48, 0x9000)
MMAP = (struct.pack("<IQQI", 20, 0, 0x9fc00, 1)
        + struct.pack("<IQQI", 20, 0x100000, 0x7ee0000, 1))
LOG = "\n".join([
    "    # dump_fuzz_seeds: fuzzseed boot 1 9500",
    f"    # dump_fuzz_seeds: fuzzseed mem 9500 {bytes(INFO[:32]).hex()}",
    f"    # dump_fuzz_seeds: fuzzseed mem 9520 {bytes(INFO[32:]).hex()}",
    f"    # dump_fuzz_seeds: fuzzseed mem 9000 {MMAP[:32].hex()}",
    f"    # dump_fuzz_seeds: fuzzseed mem 9020 {MMAP[32:].hex()}",
    "    # dump_fuzz_seeds: fuzzseed rsdp 3 f59d0",
    "    # dump_fuzz_seeds: fuzzseed mem f59d0 5253442050545220",
    "    # dump_fuzz_seeds: fuzzseed mem 40e c09f",
    "    ok 25 dump_fuzz_seeds",
])


class TestDump(unittest.TestCase):
    def test_parse(self):
        d = seeds.parse_dump(LOG)
        self.assertEqual((d.protocol, d.info_pa), (1, 0x9500))
        self.assertEqual((d.rsdp_source, d.rsdp_pa), (3, 0xf59d0))
        self.assertEqual(sorted(d.mb_mem), [0x9000, 0x9020, 0x9500, 0x9520])
        self.assertEqual(sorted(d.acpi_mem), [0x40e, 0xf59d0])

    def test_no_dump(self):
        self.assertIsNone(seeds.parse_dump("ok 1 acpi\n"))

    def test_runs_merge_contiguous_and_overlapping(self):
        r = seeds.runs({0x10: b"ab", 0x12: b"cd", 0x13: b"XY", 0x40: b"z"})
        self.assertEqual(r, [(0x10, b"abcXY"), (0x40, b"z")])

    def test_mb1_map(self):
        self.assertEqual(seeds.mb_map(seeds.parse_dump(LOG)),
                         [(0, 0x9fc00, 1), (0x100000, 0x7ee0000, 1)])

    def test_inputs(self):
        out = seeds.seeds_of_dump("small", seeds.parse_dump(LOG), "mem=64M")
        self.assertEqual(sorted(out), ["acpi/qemu-small", "acpi/qemu-small-hint",
                                       "cmdline/qemu-small", "e820/qemu-small",
                                       "multiboot/qemu-small"])
        mb = out["multiboot/qemu-small"]
        self.assertEqual(mb[:5], b"\x01" + struct.pack("<I", 0x9500))
        # The map's run first (lower address): pa, length, flags, bytes.
        self.assertEqual(struct.unpack_from("<IHB", mb, 5), (0x9000, 48, 0))
        self.assertEqual(mb[12:60], MMAP)
        self.assertEqual(out["e820/qemu-small"][0], 2)
        hint = out["acpi/qemu-small-hint"]
        self.assertEqual(hint[:6], b"\x01" + struct.pack("<IB", 0xf59d0, 0))

    def test_chunk_splits_at_64k(self):
        c = seeds.chunk(0x1000, bytes(0x10000))
        self.assertEqual(struct.unpack_from("<IHB", c), (0x1000, 0xffff, 0))
        self.assertEqual(struct.unpack_from("<IHB", c, 7 + 0xffff),
                         (0x1000 + 0xffff, 1, 0))

    def test_handmade_checksums(self):
        t = seeds.table(b"APIC", b"\1\2\3")
        self.assertEqual(sum(t) & 0xff, 0)
        self.assertEqual(struct.unpack_from("<I", t, 4)[0], len(t))
        r = seeds.rsdp(0x1000, 0x2000)
        self.assertEqual(sum(r[:20]) & 0xff, 0)
        self.assertEqual(sum(r[:36]) & 0xff, 0)


class TestCoverageReport(unittest.TestCase):
    REPORT = (
        "Filename   Regions    Missed Regions     Cover   Functions  Missed "
        "Functions  Executed       Lines      Missed Lines     Cover    "
        "Branches   Missed Branches     Cover\n"
        "-----\n"
        "/x/arch/x86/acpi.c  403  20  95.04%  19  0  100.00%  490  32  93.47%"
        "  264  26  90.15%\n"
        "-----\n"
        "TOTAL  403  20  95.04%  19  0  100.00%  490  32  93.47%  264  26  "
        "90.15%\n")

    def test_lines_and_branches(self):
        r = long_run.parse_report(self.REPORT)
        self.assertEqual(r[os.path.relpath("/x/arch/x86/acpi.c")],
                         ("93.47%", "90.15%"))
        self.assertEqual(r["TOTAL"], ("93.47%", "90.15%"))


if __name__ == "__main__":
    unittest.main()
