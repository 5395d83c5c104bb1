#!/usr/bin/env python3
"""Parse the kernel's memory snapshots ("mmsnap: " lines) out of a serial log.

The format is version 1 of what mm/snapshot.c prints (its design comment
is the reference; every line is "mmsnap: ..." after printk's timestamp,
fields separated by single spaces).  In short: a snapshot is a
"begin SEQ LABEL v=1 ..." line, the physical map (first snapshot of a boot
only: e820, memblock, node, zone, kernel, mem_map lines), the state (free,
watermarks, pcp, slab lines), the page-state map as run-length coded
"pages PFN RUNS" lines, and "end SEQ runs=N pages=N".

parse(text) returns a Result: the snapshots in log order, each with the
physical map of the boot's first snapshot carried along, and a list of
errors (Problem: the log line and a message).  A malformed line, a
truncated snapshot (no end line), a pages line that does not continue
where the previous one stopped, or runs that do not add up to max_pfn are
reported, and the rest of the log is still read: a snapshot with errors is
kept, marked by its own .errors (and .complete False when its end line is
missing, .map_ok False when its page-state map cannot be trusted).

unusable_index(free_counts) is Linux's extfrag unusable free space index
(mm/vmstat.c, unusable_free_index, 2.6.35) for every order.

Pure functions; the standard library and ktap.read_log() beside this file.

    python3 tools/mmsnap.py LOG     prints each snapshot's summary and the
                                    errors; exits 1 when there are errors.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from typing import NamedTuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402  (found beside this file)

VERSION = 1
MAX_ORDER = 11  # orders 0..10
ZONE_NAMES = ("DMA", "Normal", "HighMem")
E820_TYPES = ("usable", "reserved", "ACPI", "NVS", "unusable")

# The state codes of the page-state map, with their meaning in words.
FREE_CODES = "abcdefghijk"  # free in a buddy block of order 0..10
STATES = {
    "x": "not RAM (hole)",
    "R": "reserved RAM",
    "K": "kernel image",
    "M": "mem_map (struct page array)",
    "T": "kernel page table",
    **{c: f"free, order-{i} block" for i, c in enumerate(FREE_CODES)},
    "P": "free, on a per-CPU list",
    "S": "slab",
    "U": "allocated (lowmem, other owner)",
    "H": "allocated (highmem)",
}

ALLOWED = frozenset(STATES) | frozenset("0123456789")
PREFIX_RE = re.compile(r"^\[\s*\d+\.\d+\] ")
TAG = "mmsnap: "
RUN_RE = re.compile(r"([A-Za-z])(\d*)")
RUNS_RE = re.compile(r"(?:[A-Za-z]\d*)+")
DIGITS_RE = re.compile(r"\d+")
LEADING_ZERO_RE = re.compile(r"[A-Za-z]0")
HEX_RE = re.compile(r"0x[0-9a-fA-F]+")


Problem = ktap.LogError  # an error in the log: (line, message)


@dataclass(frozen=True)
class Node:
    nid: int
    start_pfn: int
    end_pfn: int
    present: int


@dataclass(frozen=True)
class Zone:
    nid: int
    name: str
    start_pfn: int
    end_pfn: int
    present: int
    managed: int


@dataclass
class PhysMap:
    """The physical map: address ranges are [start, end) in bytes."""

    e820: list[tuple[int, int, str]] = field(default_factory=list)
    memory: list[tuple[int, int, int]] = field(default_factory=list)  # nid
    reserved: list[tuple[int, int]] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    zones: list[Zone] = field(default_factory=list)
    kernel: tuple[int, int] | None = None
    # The struct page array, a range per physically contiguous piece
    # (mem_map is mapped page by page: one piece on most boots).
    mem_map: list[tuple[int, int]] = field(default_factory=list)

    def empty(self) -> bool:
        return not (self.e820 or self.memory or self.reserved or self.nodes
                    or self.zones or self.kernel or self.mem_map)


@dataclass(frozen=True)
class Watermarks:
    free: int
    min: int
    low: int
    high: int


@dataclass(frozen=True)
class Pcp:
    cpu: int
    hot: int
    cold: int
    high: int
    batch: int


@dataclass(frozen=True)
class Slab:
    name: str
    objsize: int
    active: int
    total: int
    slabs: int
    pages_per_slab: int


class Run(NamedTuple):  # a tuple: a map holds hundreds of thousands
    code: str
    start: int  # first pfn
    length: int

    @property
    def end(self) -> int:
        return self.start + self.length


@dataclass
class Snapshot:
    seq: int
    label: str
    line: int  # the begin line
    jiffies: int = 0
    hz: int = 0
    max_pfn: int = 0
    cpus: int = 0
    physmap: PhysMap | None = None  # the boot's (from its first snapshot)
    own_physmap: bool = False  # whether this snapshot printed it
    free: dict[tuple[int, str], list[int]] = field(default_factory=dict)
    watermarks: dict[tuple[int, str], Watermarks] = field(default_factory=dict)
    pcp: dict[tuple[int, str], list[Pcp]] = field(default_factory=dict)
    slabs: list[Slab] = field(default_factory=list)
    # The pages lines as printed, (pfn, RUNS): decoded into .runs when
    # first asked (a map holds up to some hundred thousand runs, and most
    # pictures want one snapshot's).
    pages_lines: list[tuple[int, str]] = field(default_factory=list)
    n_runs: int = 0  # runs in the pages lines
    n_pages: int = 0  # pages they cover
    end_runs: int | None = None  # from the end line
    end_pages: int | None = None
    complete: bool = False  # the end line was seen
    map_ok: bool = True  # the runs tile [0, max_pfn) exactly
    errors: list[Problem] = field(default_factory=list)

    @property
    def runs(self) -> list[Run]:
        """The page-state map as runs, in pfn order (the lines' runs that
        decode; a malformed line's are left out)."""
        cached = self.__dict__.get("_runs")
        if cached is None:
            cached = []
            for pfn, text in self.pages_lines:
                try:
                    cached.extend(decode_runs(text, pfn))
                except ValueError:
                    pass
            self.__dict__["_runs"] = cached
        return cached

    def zones(self) -> list[tuple[int, str]]:
        """The (nid, zone name) keys of the state, in the order printed."""
        return list(self.free)

    def seconds_since(self, first: "Snapshot") -> float:
        """Seconds from first to this snapshot.  The kernel prints the raw
        32-bit jiffies count, which starts 300 s before wrapping (as
        Linux's INITIAL_JIFFIES), so the difference is taken modulo 2^32."""
        if not self.hz:
            return 0.0
        return ((self.jiffies - first.jiffies) % (1 << 32)) / self.hz


@dataclass
class Result:
    snapshots: list[Snapshot]
    errors: list[Problem]  # every error, the snapshots' ones included


class _Bad(Exception):
    """A malformed line; the message says what is wrong."""


def _int(word: str, what: str) -> int:
    if not word.isdigit():
        raise _Bad(f"{what} must be a decimal number, got {word!r}")
    return int(word)


def _addr(word: str, what: str) -> int:
    if not HEX_RE.fullmatch(word):
        raise _Bad(f"{what} must be a hex address 0x..., got {word!r}")
    return int(word, 16)


def _kv(word: str, key: str) -> int:
    k, eq, v = word.partition("=")
    if k != key or not eq:
        raise _Bad(f"expected {key}=N, got {word!r}")
    return _int(v, key)


def _nargs(words: list[str], n: int, form: str) -> None:
    if len(words) != n:
        raise _Bad(f"expected '{form}', got {len(words)} fields")


def _range(words: list[str]) -> tuple[int, int]:
    start, end = _addr(words[0], "start"), _addr(words[1], "end")
    if end < start:
        raise _Bad(f"range ends before it starts: {words[0]} {words[1]}")
    return start, end


def _zone_name(word: str) -> str:
    if word not in ZONE_NAMES:
        raise _Bad(f"unknown zone {word!r} (DMA, Normal, HighMem)")
    return word


def measure_runs(text: str) -> tuple[int, int]:
    """(runs, pages) of a RUNS field, checked as decode_runs() checks it
    but without building the runs; raises ValueError the same way."""
    if not RUNS_RE.fullmatch(text) or LEADING_ZERO_RE.search(text) or \
            not set(text).issubset(ALLOWED):
        decode_runs(text, 0)  # raises, saying what is wrong
        raise ValueError("malformed runs")  # not reached
    numbers = DIGITS_RE.findall(text)
    letters = len(text) - sum(map(len, numbers))
    return letters, sum(map(int, numbers)) + letters - len(numbers)


def decode_runs(text: str, start: int) -> list[Run]:
    """Decodes the RUNS field of a pages line starting at pfn start;
    raises ValueError on a malformed field or an unknown state code."""
    if not RUNS_RE.fullmatch(text):
        pos = 0
        while RUN_RE.match(text, pos) and pos < len(text):
            pos = RUN_RE.match(text, pos).end()
        raise ValueError(f"malformed run at {text[pos:pos + 10]!r}"
                         if text else "no runs")
    runs = []
    pfn = start
    for code, digits in RUN_RE.findall(text):
        if code not in STATES:
            raise ValueError(f"unknown state code {code!r}")
        if digits:
            if digits[0] == "0":
                raise ValueError(f"bad run length {code}{digits}")
            length = int(digits)
        else:
            length = 1
        runs.append(Run(code, pfn, length))
        pfn += length
    return runs


class _Parser:
    def __init__(self) -> None:
        self.snapshots: list[Snapshot] = []
        self.errors: list[Problem] = []
        self.cur: Snapshot | None = None
        self.physmap: PhysMap | None = None  # the boot's
        self.next_pfn: int | None = 0

    def problem(self, line: int | None, message: str,
                snap: Snapshot | None = None) -> None:
        p = Problem(line, message)
        self.errors.append(p)
        if snap is not None:
            snap.errors.append(p)

    def truncate(self, line: int | None) -> None:
        snap = self.cur
        assert snap is not None
        snap.map_ok = False
        self.problem(line, f"snapshot {snap.seq} ({snap.label}, begun at line "
                     f"{snap.line}) is truncated: no end line", snap)
        self.finish_physmap(snap)
        self.cur = None

    def finish_physmap(self, snap: Snapshot) -> None:
        if snap.own_physmap and self.physmap is None:
            self.physmap = snap.physmap

    def feed(self, n: int, raw: str) -> None:
        text = PREFIX_RE.sub("", raw.rstrip("\r\n"), count=1)
        at = text.find(TAG)
        if at < 0:
            return
        if at > 0 and not text[:at].isspace():
            # Another message's text ran into ours (a printk line broken by
            # output from another CPU): ours starts mid-line.
            self.problem(n, f"an mmsnap line does not start its line: "
                         f"{text[:60]!r}", self.cur)
            return
        words = text[at + len(TAG):].split(" ")
        try:
            self.line(n, words)
        except _Bad as e:
            self.problem(n, f"{words[0]}: {e}", self.cur)

    def line(self, n: int, words: list[str]) -> None:
        kind = words[0]
        if kind == "begin":
            if self.cur is not None:
                self.truncate(n)
            self.begin(n, words[1:])
            return
        snap = self.cur
        if snap is None:
            raise _Bad("outside a snapshot (no begin line before it)")
        args = words[1:]
        if kind == "end":
            self.end(n, snap, args)
        elif kind in ("e820", "memblock", "node", "zone", "kernel",
                      "mem_map"):
            self.physmap_line(n, snap, kind, args)
        elif kind == "free":
            if len(args) != 2 + MAX_ORDER:
                raise _Bad(f"expected 'free NID ZONE N0 .. N{MAX_ORDER - 1}',"
                           f" got {len(args)} fields")
            key = (_int(args[0], "NID"), _zone_name(args[1]))
            snap.free[key] = [_int(w, "count") for w in args[2:]]
        elif kind == "watermarks":
            _nargs(args, 6, "watermarks NID ZONE free=N min=N low=N high=N")
            key = (_int(args[0], "NID"), _zone_name(args[1]))
            snap.watermarks[key] = Watermarks(
                *(_kv(w, k) for w, k in zip(args[2:],
                                            ("free", "min", "low", "high"))))
        elif kind == "pcp":
            _nargs(args, 7, "pcp NID ZONE CPU hot=N cold=N high=N batch=N")
            key = (_int(args[0], "NID"), _zone_name(args[1]))
            snap.pcp.setdefault(key, []).append(Pcp(
                _int(args[2], "CPU"),
                *(_kv(w, k) for w, k in zip(args[3:], ("hot", "cold", "high",
                                                       "batch")))))
        elif kind == "slab":
            _nargs(args, 6, "slab NAME OBJSIZE ACTIVE TOTAL SLABS "
                            "PAGES_PER_SLAB")
            snap.slabs.append(Slab(args[0], *(_int(w, k) for w, k in zip(
                args[1:], ("OBJSIZE", "ACTIVE", "TOTAL", "SLABS",
                           "PAGES_PER_SLAB")))))
        elif kind == "pages":
            self.pages(n, snap, args)
        else:
            raise _Bad("unknown line kind")

    def begin(self, n: int, args: list[str]) -> None:
        if len(args) != 7:
            raise _Bad("expected 'begin SEQ LABEL v=1 jiffies=J hz=HZ "
                       f"max_pfn=N cpus=C', got {len(args) + 1} fields")
        version = _kv(args[2], "v")
        if version != VERSION:
            raise _Bad(f"snapshot format v={version}, this parser reads "
                       f"v={VERSION}")
        snap = Snapshot(seq=_int(args[0], "SEQ"), label=args[1], line=n,
                        jiffies=_kv(args[3], "jiffies"),
                        hz=_kv(args[4], "hz"), max_pfn=_kv(args[5], "max_pfn"),
                        cpus=_kv(args[6], "cpus"))
        if snap.seq == 0:
            # A boot's first snapshot prints the map (a second "SEQ 0"
            # in one log starts another boot: a reset, say).
            self.physmap = None
            snap.physmap = PhysMap()
            snap.own_physmap = True
        else:
            snap.physmap = self.physmap  # None when SEQ 0 never came
        self.snapshots.append(snap)
        self.cur = snap
        self.next_pfn = 0

    def physmap_line(self, n: int, snap: Snapshot, kind: str,
                     args: list[str]) -> None:
        if not snap.own_physmap:
            raise _Bad(f"the physical map belongs in the first snapshot "
                       f"(SEQ 0), not in snapshot {snap.seq}")
        pm = snap.physmap
        assert pm is not None
        if kind == "e820":
            _nargs(args, 3, "e820 0xSTART 0xEND TYPE")
            t = args[2]
            if t not in E820_TYPES and not re.fullmatch(r"type-\d+", t):
                raise _Bad(f"unknown e820 type {t!r}")
            pm.e820.append((*_range(args), t))
        elif kind == "memblock":
            if args[:1] == ["memory"]:
                _nargs(args, 4, "memblock memory 0xSTART 0xEND NID")
                pm.memory.append((*_range(args[1:3]), _int(args[3], "NID")))
            elif args[:1] == ["reserved"]:
                _nargs(args, 3, "memblock reserved 0xSTART 0xEND")
                pm.reserved.append(_range(args[1:3]))
            else:
                raise _Bad("expected 'memblock memory' or 'memblock reserved'")
        elif kind == "node":
            _nargs(args, 4, "node NID START_PFN END_PFN present=N")
            pm.nodes.append(Node(_int(args[0], "NID"),
                                 _int(args[1], "START_PFN"),
                                 _int(args[2], "END_PFN"),
                                 _kv(args[3], "present")))
        elif kind == "zone":
            _nargs(args, 6, "zone NID NAME START_PFN END_PFN present=N "
                            "managed=N")
            pm.zones.append(Zone(_int(args[0], "NID"), _zone_name(args[1]),
                                 _int(args[2], "START_PFN"),
                                 _int(args[3], "END_PFN"),
                                 _kv(args[4], "present"),
                                 _kv(args[5], "managed")))
        else:
            _nargs(args, 2, f"{kind} 0xSTART 0xEND")
            if kind == "kernel":
                pm.kernel = _range(args)
            else:
                pm.mem_map.append(_range(args))

    def pages(self, n: int, snap: Snapshot, args: list[str]) -> None:
        _nargs(args, 2, "pages PFN RUNS")
        pfn = _int(args[0], "PFN")
        if self.next_pfn is not None and pfn != self.next_pfn:
            snap.map_ok = False
            what = ("the map starts at PFN 0" if not snap.pages_lines else
                    f"the previous line stopped at PFN {self.next_pfn}")
            self.problem(n, f"pages line starts at PFN {pfn}, but {what}",
                         snap)
        try:
            n_runs, n_pages = measure_runs(args[1])
        except ValueError as e:
            snap.map_ok = False
            self.problem(n, f"pages: {e}", snap)
            # Where this line stopped is unknown: the next line is
            # taken at its word.
            self.next_pfn = None
            return
        snap.pages_lines.append((pfn, args[1]))
        snap.n_runs += n_runs
        snap.n_pages += n_pages
        self.next_pfn = pfn + n_pages

    def end(self, n: int, snap: Snapshot, args: list[str]) -> None:
        _nargs(args, 3, "end SEQ runs=N pages=N")
        seq = _int(args[0], "SEQ")
        snap.end_runs, snap.end_pages = (_kv(args[1], "runs"),
                                         _kv(args[2], "pages"))
        snap.complete = True
        self.cur = None
        self.finish_physmap(snap)
        if seq != snap.seq:
            self.problem(n, f"end {seq} closes snapshot {snap.seq}", snap)
        covered = snap.n_pages
        if covered != snap.max_pfn:
            snap.map_ok = False
            self.problem(n, f"snapshot {snap.seq}: the runs cover {covered} "
                         f"pages, max_pfn is {snap.max_pfn}", snap)
        if snap.end_runs != snap.n_runs or snap.end_pages != covered:
            snap.map_ok = False
            self.problem(n, f"snapshot {snap.seq}: end line says runs="
                         f"{snap.end_runs} pages={snap.end_pages}, the pages "
                         f"lines held runs={snap.n_runs} pages={covered}",
                         snap)
        if snap.own_physmap and snap.physmap is not None and \
                snap.physmap.empty():
            self.problem(n, f"snapshot {snap.seq} is the boot's first but "
                         f"holds no physical map", snap)

    def finish(self) -> Result:
        if self.cur is not None:
            self.truncate(None)
        return Result(self.snapshots, self.errors)


def parse(text: str) -> Result:
    """Every snapshot of one boot's serial log, and the errors found."""
    p = _Parser()
    for n, raw in enumerate(text.split("\n"), start=1):
        p.feed(n, raw)
    return p.finish()


def parse_file(path: str) -> Result:
    """Reads a log file (any bytes, as ktap.read_log) and parses it."""
    return parse(ktap.read_log(path))


# -- what the pictures and checks compute ---------------------------------


def free_pages(counts: list[int]) -> int:
    """Pages on the buddy free lists, from the blocks per order."""
    return sum(n << order for order, n in enumerate(counts))


def unusable_index(counts: list[int]) -> list[float]:
    """The unusable free space index of every order 0..len(counts)-1:
    (free_pages - suitable) / free_pages, where suitable is the pages in
    blocks of that order or more; 0 when nothing is free."""
    total = free_pages(counts)
    out = []
    suitable = total
    for order in range(len(counts)):
        out.append((total - suitable) / total if total else 0.0)
        suitable -= counts[order] << order
    return out


def unusable_index_milli(counts: list[int]) -> list[int]:
    """The index in thousandths, rounded down as Linux computes it
    (div_u64((free_pages - suitable) * 1000, free_pages))."""
    total = free_pages(counts)
    out = []
    suitable = total
    for order in range(len(counts)):
        out.append((total - suitable) * 1000 // total if total else 0)
        suitable -= counts[order] << order
    return out


def format_index(milli: int) -> str:
    """Linux's three-decimal form of an index in thousandths: 0.375."""
    return f"{milli // 1000}.{milli % 1000:03d}"


def state_counts(runs: list[Run], start: int = 0,
                 end: int | None = None) -> dict[str, int]:
    """Pages of each state code within [start, end) of the pfns."""
    out: dict[str, int] = {}
    for r in runs:
        lo, hi = max(r.start, start), r.end if end is None else min(r.end, end)
        if hi > lo:
            out[r.code] = out.get(r.code, 0) + hi - lo
    return out


def free_pages_by_order(runs: list[Run], start: int = 0,
                        end: int | None = None) -> list[int]:
    """Pages marked free in a buddy block of each order, within [start, end)."""
    counts = state_counts(runs, start, end)
    return [counts.get(c, 0) for c in FREE_CODES]


def expand(runs: list[Run], max_pfn: int) -> bytes:
    """The map as one state code byte per pfn ('?' where no run says)."""
    out = bytearray(b"?" * max_pfn)
    for r in runs:
        if r.start < max_pfn:
            hi = min(r.end, max_pfn)
            out[r.start:hi] = r.code.encode() * (hi - r.start)
    return bytes(out)


def short_label(label: str, width: int = 16) -> str:
    """A snapshot's label as an axis tick: suite:buddy -> buddy, a test's
    case:buddy.random_stress:fragmented -> fragmented; at most width
    characters."""
    if label.startswith("suite:"):
        label = label[len("suite:"):]
    elif label.startswith("case:"):
        label = label.rsplit(":", 1)[-1]
    return label if len(label) <= width else label[:width - 1] + "~"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: mmsnap.py LOG", file=sys.stderr)
        return 2
    result = parse_file(argv[0])
    for s in result.snapshots:
        free = {f"{nid}/{z}": free_pages(c) for (nid, z), c in s.free.items()}
        state = "complete" if s.complete else "TRUNCATED"
        print(f"{s.seq:3} {s.label:32} jiffies={s.jiffies} max_pfn="
              f"{s.max_pfn} runs={s.n_runs} slabs={len(s.slabs)} "
              f"free={free} {state}{'' if s.map_ok else ', map not trusted'}")
    for e in result.errors:
        print(f"mmsnap: {e}")
    print(f"{len(result.snapshots)} snapshots, {len(result.errors)} errors")
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
