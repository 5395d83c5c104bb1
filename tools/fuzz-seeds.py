#!/usr/bin/env python3
"""Writes the parser fuzzers' seed corpus: real boots' firmware input, and
hand-made edge cases.

    tools/fuzz-seeds.py [--only GLOBS] [--out DIR] [--work DIR]
                        [--handmade-only] [--timeout S]

Real boots: each boot of tests/boots.txt named by --only (a comma-separated
list of globs; default: one of each firmware, loader and machine: BIOS with
QEMU's -kernel, GRUB multiboot2 and multiboot under BIOS and under UEFI
(OVMF), q35, and the NUMA boots) is booted once more, alone, with the
command line "ktest.filter=acpi.dump_fuzz_seeds fuzz_seeds=1" (for an ISO,
in GRUB's config of a private copy of the image, built in --work).  That
case (tests/acpi_test.c) prints as "fuzzseed" lines the bytes the loader
and the firmware handed the kernel: the Multiboot information and what it
points to, the RSDP (or the loader's copy of it) and every table the root
lists.  From each boot's log this writes, under --out (default
tests/fuzz/corpus), named qemu-BOOT:
  multiboot/ or multiboot2/  the information block and its ranges, as the
                             target reads them (tests/fuzz/fuzz_mem.h);
  acpi/                      the tables, found where the kernel found them
                             (the loader's copy, the BIOS area, the map's
                             ACPI ranges), and again through a hint;
  e820/                      the loader's memory map (fuzz_e820's format);
  cmdline/                   the boot's command line from tests/boots.txt.
Hand-made cases (hand-*) are written every time: every parameter in its
forms, tables with every kind of subtable and the limits of each array.

The files are small (the tables QEMU builds are a few KiB); the captured
ones change only when QEMU or OVMF does.  Nothing is written for a boot
whose log has no dump, and that is an error.
"""
from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import machine  # noqa: E402
import runner  # noqa: E402

DEFAULT_BOOTS = "small,iso,iso-mb1,q35,uefi,uefi-mb1,uefi-numa,numa2,numa4"
DUMP_CMDLINE = "ktest.filter=acpi.dump_fuzz_seeds fuzz_seeds=1"

# tests/fuzz/fuzz_mem.h's chunk flags
FIX_TABLE, FIX_RSDP, SET_LENGTH, MMAP_ACPI, MMAP_NVS = 1, 2, 4, 8, 16
# struct acpi_info.rsdp_source
SRC_HINT, SRC_LOADER, SRC_BIOS, SRC_FW = 1, 2, 3, 4
# fuzz_acpi's mode bits
MODE_HINT, MODE_COPY, MODE_MMAP, MODE_FIX_COPY = 1, 2, 4, 8

SEED_RE = re.compile(r"fuzzseed (\S+)(?: (\S+))?(?: (\S+))?\s*$")


# -- the inputs' formats -------------------------------------------------

def chunk(pa: int, data: bytes, flags: int = 0) -> bytes:
    """One chunk of fake physical memory (tests/fuzz/fuzz_mem.h)."""
    out = b""
    for off in range(0, max(len(data), 1), 0xffff):
        part = data[off:off + 0xffff]
        out += struct.pack("<IHB", pa + off, len(part), flags) + part
    return out


def mb_input(info_pa: int, chunks: bytes) -> bytes:
    """fuzz_multiboot / fuzz_multiboot2: the right magic, printed."""
    return bytes([1]) + struct.pack("<I", info_pa) + chunks


def acpi_input(mode: int, hint: int, copy: bytes, chunks: bytes) -> bytes:
    return bytes([mode]) + struct.pack("<IB", hint, len(copy)) + copy + chunks


def e820_input(entries: list[tuple[int, int, int]], cmdline: str = "") -> bytes:
    out = bytes([len(entries)])
    for addr, size, typ in entries:
        out += struct.pack("<QQB", addr, size, typ)
    return out + cmdline.encode()


# -- a boot's dump ---------------------------------------------------------

@dataclasses.dataclass
class Dump:
    protocol: int = 0
    info_pa: int = 0
    mb_mem: dict = dataclasses.field(default_factory=dict)  # pa -> bytes
    rsdp_source: int = 0
    rsdp_pa: int = 0
    copy: bytes = b""
    acpi_mem: dict = dataclasses.field(default_factory=dict)


def parse_dump(log: str) -> Dump | None:
    d, section = Dump(), None
    for line in log.splitlines():
        m = SEED_RE.search(line)
        if not m:
            continue
        what, a, b = m.groups()
        if what == "boot":
            d.protocol, d.info_pa, section = int(a), int(b, 16), d.mb_mem
        elif what == "rsdp":
            d.rsdp_source, d.rsdp_pa = int(a), int(b, 16)
            section = d.acpi_mem
        elif what == "copy":
            d.copy = bytes.fromhex(a)
        elif what == "mem" and section is not None:
            section[int(a, 16)] = bytes.fromhex(b)
    return d if d.protocol else None


def runs(mem: dict) -> list[tuple[int, bytes]]:
    """The dumped lines merged into contiguous runs, in address order."""
    out: list[tuple[int, bytes]] = []
    for pa in sorted(mem):
        if out and out[-1][0] + len(out[-1][1]) == pa:
            out[-1] = (out[-1][0], out[-1][1] + mem[pa])
        elif out and out[-1][0] + len(out[-1][1]) > pa:
            start, data = out[-1]
            merged = bytearray(data)
            end = pa + len(mem[pa]) - start
            merged.extend(b"\0" * max(0, end - len(merged)))
            merged[pa - start:end] = mem[pa]
            out[-1] = (start, bytes(merged))
        else:
            out.append((pa, mem[pa]))
    return out


def read(mem_runs, pa: int, n: int) -> bytes | None:
    for start, data in mem_runs:
        if start <= pa and pa + n <= start + len(data):
            return data[pa - start:pa - start + n]
    return None


def mb_map(d: Dump) -> list[tuple[int, int, int]]:
    """The loader's memory map, read from the dumped information."""
    r = runs(d.mb_mem)
    out = []
    if d.protocol == 1:
        info = read(r, d.info_pa, 52)
        if not info or not struct.unpack_from("<I", info)[0] & 0x40:
            return out
        length, addr = struct.unpack_from("<II", info, 44)
        mmap = read(r, addr, length) or b""
        off = 0
        while off + 24 <= len(mmap):
            size, base, size_b, typ = struct.unpack_from("<IQQI", mmap, off)
            out.append((base, size_b, typ))
            off += size + 4
        return out
    total = read(r, d.info_pa, 8)
    blk = read(r, d.info_pa, struct.unpack_from("<I", total)[0]) if total else None
    off = 8
    while blk and off + 8 <= len(blk):
        typ, size = struct.unpack_from("<II", blk, off)
        if typ == 0 or size < 8:
            break
        if typ == 6:
            esize = struct.unpack_from("<I", blk, off + 8)[0]
            e = off + 16
            while esize >= 24 and e + 24 <= off + size:
                out.append(struct.unpack_from("<QQI", blk, e))
                e += esize
        off += (size + 7) & ~7
    return out


def seeds_of_dump(name: str, d: Dump, cmdline: str) -> dict[str, bytes]:
    """target/file -> bytes for one boot."""
    out = {}
    mb = b"".join(chunk(pa, data) for pa, data in runs(d.mb_mem))
    target = "multiboot" if d.protocol == 1 else "multiboot2"
    out[f"{target}/qemu-{name}"] = mb_input(d.info_pa, mb)
    entries = mb_map(d)
    if entries:
        out[f"e820/qemu-{name}"] = e820_input(entries[:199])
    if cmdline:
        out[f"cmdline/qemu-{name}"] = cmdline.encode()
    if not d.rsdp_source:
        return out
    tables = runs(d.acpi_mem)
    plain = b"".join(chunk(pa, data) for pa, data in tables)
    if d.rsdp_source == SRC_LOADER:
        out[f"acpi/qemu-{name}"] = acpi_input(MODE_COPY, 0, d.copy, plain)
        # The same tables with the copy's RSDP put in the BIOS area.
        out[f"acpi/qemu-{name}-bios"] = acpi_input(
            0, 0, b"", plain + chunk(0xE0000, d.copy))
        return out
    mode = MODE_MMAP if d.rsdp_source == SRC_FW else 0
    flagged = b"".join(
        chunk(pa, data, MMAP_ACPI if pa == d.rsdp_pa else 0)
        for pa, data in tables)
    out[f"acpi/qemu-{name}"] = acpi_input(mode, 0, b"", flagged)
    out[f"acpi/qemu-{name}-hint"] = acpi_input(MODE_HINT, d.rsdp_pa, b"", plain)
    return out


# -- booting ---------------------------------------------------------------

def private_isos(work: str, kernel: str) -> machine.Images:
    """ISOs whose GRUB config holds DUMP_CMDLINE."""
    append = os.path.join(work, "append.txt")
    with open(append, "w") as f:
        f.write(DUMP_CMDLINE + "\n")
    paths = {}
    for entry, name in ((0, "mm86.iso"), (1, "mm86-mb1.iso")):
        paths[entry] = os.path.join(work, name)
        subprocess.run([sys.executable, os.path.join(HERE, "mkiso"),
                        paths[entry], kernel, "iso/grub.cfg", append,
                        str(entry)], check=True, stdout=subprocess.DEVNULL)
    return machine.Images(kernel=kernel, iso=paths[0], iso_mb1=paths[1])


def capture(boot: runner.Boot, images: machine.Images, work: str,
            timeout: float, qemu: str) -> str:
    cmdline = DUMP_CMDLINE if machine.takes_cmdline(boot.image) else ""
    b = dataclasses.replace(boot, cmdline=cmdline)
    vars_path = runner.vars_path_for(b, work)
    if vars_path:
        machine.copy_vars(machine.Firmware(), vars_path)
    log = os.path.join(work, boot.name + ".log")
    cmd = runner.build_command(b, qemu, images, machine.Firmware(), log,
                               vars_path)
    outcome = runner.run_qemu(cmd, log, timeout, runner.ProcessRegistry())
    return outcome.log if outcome else ""


# -- hand-made cases ---------------------------------------------------------

def sum_fix(data: bytearray, at: int, length: int | None = None) -> bytearray:
    data[at] = 0
    data[at] = (-sum(data[:length if length is not None else len(data)])) & 0xff
    return data


def table(sig: bytes, body: bytes, revision: int = 1) -> bytes:
    t = bytearray(sig + struct.pack("<IBB6s8sI4sI", 36 + len(body), revision,
                                    0, b"MM86  ", b"FUZZSEED", 1, b"MM86", 1))
    t += body
    return bytes(sum_fix(t, 9))


def rsdp(rsdt: int, xsdt: int = 0, revision: int = 2) -> bytes:
    r = bytearray(b"RSD PTR " + b"\0" + b"MM86  " + bytes([revision])
                  + struct.pack("<I", rsdt))
    sum_fix(r, 8, 20)
    if revision >= 2:
        r += struct.pack("<IQB3s", 36, xsdt, 0, b"\0\0\0")
        sum_fix(r, 32, 36)
    return bytes(r)


def madt(nr_cpus: int) -> bytes:
    body = struct.pack("<II", 0xFEE00000, 1)
    for i in range(nr_cpus):
        body += struct.pack("<BBBBI", 0, 8, i, i, 1 if i % 5 else 0)
    body += struct.pack("<BBBBII", 1, 12, 0, 0, 0xFEC00000, 0)
    body += struct.pack("<BBBBIH", 2, 10, 0, 0, 2, 0)
    body += struct.pack("<BBBBIH", 2, 10, 0, 9, 9, 0xd)
    body += struct.pack("<BBBHB", 4, 6, 0xff, 5, 1)
    body += struct.pack("<BBHQ", 5, 12, 0, 0xFEE00000)
    body += struct.pack("<BBHIII", 9, 16, 0, 7, 1, 7)   # x2APIC: ignored
    body += bytes([0x7f, 2])                             # unknown, minimal
    return table(b"APIC", body, 3)


def srat(revision: int = 3) -> bytes:
    body = struct.pack("<IQ", 1, 0)
    for cpu in range(4):
        body += struct.pack("<BBBBIB3sI", 0, 16, cpu // 2, cpu, 1, 0,
                            b"\0\0\1" if cpu == 3 else b"\0\0\0", 0)
    mems = [(0, 0xA0000, 0, 1), (0x100000, 0x1FF00000, 0, 1),
            (0x20000000, 0x20000000, 1, 1), (0x40000000, 0x10000000, 1, 3),
            (0xFFFFFFFFFFFFF000, 0x2000, 2, 1), (0, 0, 0x1ff, 0)]
    for base, size, pxm, flags in mems:
        body += struct.pack("<BBIHQQIIQ", 1, 40, pxm, 0, base, size, 0,
                            flags, 0)
    body += struct.pack("<BBHIIII", 2, 24, 0, 1, 3, 1, 0)
    return table(b"SRAT", body, revision)


def slit(matrix: list[list[int]]) -> bytes:
    n = len(matrix)
    return table(b"SLIT", struct.pack("<Q", n)
                 + bytes(v for row in matrix for v in row))


def handmade() -> dict[str, bytes]:
    out = {}
    base = 0x7FE0000
    # A full graph: RSDP v2 in the BIOS area, XSDT (with a null entry and
    # one above 4 GiB) and RSDT, MADT, SRAT, SLIT and an unknown table.
    tabs = {"madt": (base + 0x1000, madt(4)),
            "srat": (base + 0x2000, srat()),
            "slit": (base + 0x3000, slit([[10, 20, 30], [20, 10, 25],
                                           [30, 25, 10]])),
            "other": (base + 0x3800, table(b"WAET", b"\0\0\0\0"))}
    addrs = [pa for pa, _ in tabs.values()]
    xsdt = table(b"XSDT", struct.pack("<" + "Q" * (len(addrs) + 2),
                                      *addrs, 0, 0x100000000))
    rsdt = table(b"RSDT", struct.pack("<" + "I" * len(addrs), *addrs))
    mem = (chunk(base, xsdt) + chunk(base + 0x800, rsdt)
           + b"".join(chunk(pa, t) for pa, t in tabs.values()))
    r = rsdp(base + 0x800, base)
    out["acpi/hand-full-bios"] = acpi_input(0, 0, b"", chunk(0xE0010, r) + mem)
    out["acpi/hand-full-ebda"] = acpi_input(
        0, 0, b"", chunk(0x40E, b"\xc0\x9f") + chunk(0x9FC00, r) + mem)
    out["acpi/hand-full-copy"] = acpi_input(MODE_COPY, 0, r, mem)
    out["acpi/hand-full-fwrange"] = acpi_input(
        MODE_MMAP, 0, b"", chunk(base - 0x100, r, MMAP_NVS) + mem)
    out["acpi/hand-rsdt-only-v0"] = acpi_input(
        MODE_HINT, 0xF0000, b"", chunk(0xF0000, rsdp(base + 0x800, 0, 0)) + mem)
    # Too many CPUs for the summary, a second MADT, a SLIT that fails.
    many = {"madt": (base + 0x1000, madt(70)),
            "madt2": (base + 0x2000, madt(2)),
            "slit": (base + 0x3000, slit([[10, 10], [20, 10]])),
            "srat": (base + 0x3400, srat(1))}
    addrs = [pa for pa, _ in many.values()]
    rsdt = table(b"RSDT", struct.pack("<" + "I" * len(addrs), *addrs))
    out["acpi/hand-limits"] = acpi_input(
        MODE_HINT, 0xE0000, b"", chunk(0xE0000, rsdp(base, 0, 0))
        + chunk(base, rsdt) + b"".join(chunk(pa, t) for pa, t in many.values()))
    # Tables overlapping, and one whose length runs past memory.
    madt_t = madt(2)
    over = bytearray(table(b"RSDT", struct.pack("<II", base + 0x40, base + 0x3ff0)))
    out["acpi/hand-overlap-past-end"] = acpi_input(
        MODE_HINT, 0xE0000, b"", chunk(0xE0000, rsdp(base, 0, 0))
        + chunk(base, bytes(over)) + chunk(base + 0x40, madt_t)
        + chunk(base + 0x3ff0, table(b"SRAT", bytes(100))[:16], SET_LENGTH))
    # More tables than the summary holds, two SLITs (the second skipped).
    s1, s2 = slit([[10, 20], [20, 10]]), slit([[10]])
    waet = table(b"WAET", b"\0\0\0\0")
    entries = [base + 0x100, base + 0x200] + [base + 0x300] * 38
    rsdt = table(b"RSDT", struct.pack("<" + "I" * len(entries), *entries))
    out["acpi/hand-many-tables"] = acpi_input(
        MODE_HINT, 0xE0000, b"", chunk(0xE0000, rsdp(base, 0, 0))
        + chunk(base, rsdt) + chunk(base + 0x100, s1) + chunk(base + 0x200, s2)
        + chunk(base + 0x300, waet))
    # Checksums left to the fuzzer's flags: a table to fix in place.
    out["acpi/hand-flags"] = acpi_input(
        MODE_HINT | MODE_FIX_COPY, 0xE0000, b"",
        chunk(0xE0000, rsdp(base, 0, 0)[:8] + bytes(12), FIX_RSDP)
        + chunk(base, table(b"RSDT", struct.pack("<I", base + 0x100)),
                FIX_TABLE | SET_LENGTH)
        + chunk(base + 0x100, madt(1), FIX_TABLE | SET_LENGTH))

    # Multiboot 1: every field the parser reads, at scattered addresses.
    info = bytearray(116)
    mmap = b"".join(struct.pack("<IQQI", 20, a, n, t) for a, n, t in
                    [(0, 0x9FC00, 1), (0x9FC00, 0x400, 2), (0xF0000, 0x10000, 2),
                     (0x100000, 0x7EE0000, 1), (0x7FE0000, 0x20000, 3),
                     (0xFFFC0000, 0x40000, 2), (0x100000000, 0x40000000, 1)])
    mmap += struct.pack("<IQQII", 24, 0x80000000, 0x1000, 5, 0)  # bigger entry
    mods = struct.pack("<IIII", 0x400000, 0x401000, 0x9300, 0) + \
        struct.pack("<IIII", 0x402000, 0x401000, 0, 0)         # end < start
    struct.pack_into("<III", info, 0, 0x24F, 639, 130048)
    struct.pack_into("<IIII", info, 16, 0x9200, 2, 0x9100, 0)
    struct.pack_into("<II", info, 44, len(mmap), 0x9000)
    struct.pack_into("<I", info, 64, 0x9280)
    mb1 = (chunk(0x9500, bytes(info)) + chunk(0x9000, mmap) + chunk(0x9100, mods)
           + chunk(0x9200, b"build/mm86.elf mem=64M ktest.filter=buddy.*\0")
           + chunk(0x9280, b"GRUB 2.12\0") + chunk(0x9300, b"initrd.img arg=1\0"))
    out["multiboot/hand-all-fields"] = mb_input(0x9500, mb1)
    # No map: mem_lower/mem_upper only; a command line longer than fits.
    info2 = bytearray(116)
    struct.pack_into("<III", info2, 0, 0x5, 639, 64512)
    struct.pack_into("<I", info2, 16, 0x10000)
    long_line = (" ".join(f"p{i}=v{i}" for i in range(500))).encode() + b"\0"
    out["multiboot/hand-meminfo-long-cmdline"] = mb_input(
        0x9500, chunk(0x9500, bytes(info2)) + chunk(0x10000, long_line))

    # More map entries than fit (BOOT_MMAP_MAX is 256), and a command line
    # longer than COMMAND_LINE_SIZE whose end runs off the end of memory.
    info3 = bytearray(116)
    many = b"".join(struct.pack("<IQQI", 20, i << 20, 1 << 20, 1 + i % 5)
                    for i in range(300))
    struct.pack_into("<I", info3, 0, 0x44)
    struct.pack_into("<I", info3, 16, 0x20000 - 2100)
    struct.pack_into("<II", info3, 44, len(many), 0x10000)
    out["multiboot/hand-too-many-entries-cmdline-off-end"] = mb_input(
        0x9500, chunk(0x9500, bytes(info3)) + chunk(0x10000, many)
        + chunk(0x20000 - 2100, b"x=1 " * 525))

    # Multiboot 2: every tag type the parser knows, and an unknown one.
    def tag(t: int, body: bytes) -> bytes:
        raw = struct.pack("<II", t, 8 + len(body)) + body
        return raw + b"\0" * (-len(raw) % 8)
    entries = b"".join(struct.pack("<QQII", a, n, t, 0) for a, n, t in
                       [(0, 0x9FC00, 1), (0x100000, 0x7EE0000, 1),
                        (0x7FE0000, 0x20000, 3), (0xFFFC0000, 0x40000, 2)])
    efi = b"".join(struct.pack("<IIQQQQQ", t, 0, a, 0, n, 0xF, 0)
                   for t, a, n in [(7, 0, 0xA0), (7, 0x100000, 0x7EE0),
                                   (9, 0x7FE0000, 0x20), (11, 0xFFC00000, 0x400)])
    tags = (tag(1, b"mem=64M ktest.filter=buddy.*\0") + tag(2, b"GRUB 2.12\0")
            + tag(3, struct.pack("<II", 0x400000, 0x401000) + b"mod\0")
            + tag(4, struct.pack("<II", 639, 130048))
            + tag(6, struct.pack("<II", 24, 0) + entries)
            + tag(17, struct.pack("<II", 48, 1) + efi)
            + tag(14, rsdp(0x7FE1000, 0, 0)) + tag(15, rsdp(0x7FE1000, 0x7FE1100))
            + tag(21, struct.pack("<I", 0x100000)) + tag(99, b"????")
            + tag(0, b""))
    blk = struct.pack("<II", 8 + len(tags), 0) + tags
    out["multiboot2/hand-all-tags"] = mb_input(0x10000, chunk(0x10000, blk))

    # The command line: every registered parameter in its forms.
    lines = [
        "mem=64M memmap=exactmap memmap=640K@0 memmap=127M@1M memmap=1M$16M",
        "memmap=64M$256M memmap=1M#0x7fe0000 memmap=4K!0x1000 "
        "memmap=2M%1M-2+3 memmap=16K@0x100000 mem=0x1000000000 mem=nopentium",
        "slab_debug=FZPU,size-64,kmalloc-32 slab_debug slab_debug=- numa=fake=8 "
        "numa=off numa=fake=0 maxcpus=0 maxcpus=0x10 nosmp",
        "loglevel=15 loglevel=16 quiet debug debug_locks=0 debug_locks=1 "
        "page_poison=on page_poison=0 mmsnap=boot,suite,end,case mmsnap=all "
        "mmsnap=off mmsnap=bad",
        "ktest.filter=buddy.*,pcp.hot* ktest.filter=slab.* ktest.seed=0x1234 "
        "ktest.time_limit=86400 ktest.time_limit=86401 ktest.times=1 "
        "ktest.soak=1 ktest.misuse=panic fuzz_seeds=1",
        'build/mm86.elf ktest.filter="a b" "quoted=x y" -- mem=1M',
        "x" * 300 + " mem=64M",
        " ".join(f"unknown{i}=v" for i in range(60)) + " unknown1 unknown-2",
        # Longer than COMMAND_LINE_SIZE: cut at a token end.
        " ".join(f"ktest.filter={'x' * 200}{i}" for i in range(12)),
        "memmap=1G@0 memmap=18446744073709551615$0 mem=18446744073709551616",
        "memmap=exactmap",
    ]
    for i, line in enumerate(lines):
        out[f"cmdline/hand-{i}"] = line.encode()
    return out


# -- main --------------------------------------------------------------------

def write(out_dir: str, seeds: dict[str, bytes]) -> None:
    for rel, data in sorted(seeds.items()):
        path = os.path.join(out_dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        print(f"  {path} ({len(data)} bytes)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=DEFAULT_BOOTS)
    ap.add_argument("--out", default="tests/fuzz/corpus")
    ap.add_argument("--work", default="build/fuzz-seeds")
    ap.add_argument("--matrix", default="tests/boots.txt")
    ap.add_argument("--kernel", default="build/mm86.elf")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--qemu", default=os.environ.get("QEMU",
                                                     "qemu-system-i386"))
    ap.add_argument("--handmade-only", action="store_true")
    args = ap.parse_args()

    write(args.out, handmade())
    if args.handmade_only:
        return 0
    with open(args.matrix) as f:
        boots = runner.parse_matrix(f.read(), args.matrix)
    globs = args.only.split(",")
    chosen = [b for b in boots if any(fnmatch.fnmatch(b.name, g) for g in globs)]
    if not chosen:
        print(f"no boot of {args.matrix} matches {args.only}")
        return 1
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    images = machine.Images(kernel=args.kernel)
    if any(not machine.takes_cmdline(b.image) for b in chosen):
        images = private_isos(args.work, args.kernel)
    failed = 0
    for boot in chosen:
        print(f"{boot.name}: booting")
        dump = parse_dump(capture(boot, images, args.work, args.timeout,
                                  args.qemu))
        if not dump:
            print(f"{boot.name}: no fuzzseed lines in "
                  f"{os.path.join(args.work, boot.name + '.log')}")
            failed += 1
            continue
        write(args.out, seeds_of_dump(boot.name, dump, boot.cmdline))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
