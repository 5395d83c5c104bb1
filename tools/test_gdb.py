"""The gdb commands of tools/gdb/mm86.py against the kernel's own dumps.

One boot of build/mm86.elf under QEMU, halted by gdb (batch mode) at
show_buddyinfo() and then at show_slabinfo() near the end of the run
(init_thread, after the tests).  At the first stop mm-buddyinfo,
mm-zoneinfo, mm-pcp, mm-physmap and mm-page run, at the second
mm-slabinfo and mm-gfp; the boot then goes on and the kernel prints
/proc/buddyinfo, /proc/zoneinfo and /proc/slabinfo for the same state.
Each dump command's lines must equal the dump's lines (the printk
timestamps stripped); mm-pcp must agree with zoneinfo's pagesets,
mm-physmap's e820 lines with the boot log's, mm-page with what is known of
three pages (pfn 0 reserved, a kmem_cache's page a slab of the cache of
caches, the head and a tail of a free block of the highest order), and
mm-gfp with the words tests/gfp_test.c knows.

Skips, saying why, without gdb, QEMU or a built kernel (make test builds
it first).  QEMU runs one CPU and only one tiny suite, so the boot is
short and the machine quiet at the stops; gdb and QEMU are killed when
they are still running after 60 s.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import machine  # noqa: E402

KERNEL = os.path.join(ROOT, "build", "mm86.elf")
SCRIPT = os.path.join(HERE, "gdb", "mm86.py")
QEMU = os.environ.get("QEMU", "qemu-system-i386")
GDB = os.environ.get("GDB", "gdb")
TIMEOUT = 50  # gdb's run; QEMU then has 10 s to exit: 60 s in all
FILTER = "gfp.gfp_describe_names_linux_style"

# (mask, words) from tests/gfp_test.c's gfp_describe_names_linux_style.
GFP_CASES = [
    (0x250, "GFP_NOFS|__GFP_NOWARN"),
    (0xd0, "GFP_KERNEL"),
    (0x20, "GFP_ATOMIC"),
    (0x0, "GFP_NOWAIT"),
    (0x1220, "GFP_ATOMIC|__GFP_NOWARN|__GFP_NORETRY"),
    (0x400050, "GFP_NOFS|0x400000"),
    (0x80000228, "GFP_ATOMIC|__GFP_NOWARN|0x80000008"),
]

# The first free block of ZONE_NORMAL's highest order (an expression for
# gdb: a list_head inside the head page's struct page), and its PFN.
AREA = "node_data[0]->node_zones[ZONE_NORMAL].free_area"
TOP_FREE = (f"{AREA}[sizeof({AREA}) / sizeof({AREA}[0]) - 1]"
            f".free_list.next")
TOP_FREE_PFN = (f"((unsigned long){TOP_FREE} - (unsigned long)mem_map)"
                f" / sizeof(struct page)")

STAMP = re.compile(r"^\[\s*\d+\.\d+\] ")
MARK = "@@mm86-test "


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dump(log_lines: list[str], title: str) -> list[str]:
    """The lines after "TITLE:" up to the next "/proc/" title or the end
    of the block; timestamps stripped."""
    out, inside = [], False
    for line in log_lines:
        m = STAMP.match(line)
        body = line[m.end():] if m else None
        if body is None:
            if inside:
                break
            continue
        if body == title + ":":
            inside, out = True, []
            continue
        if inside:
            if body.startswith("/proc/") or body.endswith(":") and \
                    not body.startswith(" "):
                break
            out.append(body)
    return out


def run(name: str, command: str) -> list[str]:
    """gdb commands: COMMAND between a MARK line naming it and an end one."""
    return [f"echo {MARK}{name}\\n", command, f"echo {MARK}\\n"]


def sections(gdb_out: str) -> dict[str, list[str]]:
    """What each command printed, between the MARK lines around it."""
    result: dict[str, list[str]] = {}
    current = None
    for line in gdb_out.splitlines():
        if line.startswith(MARK):
            current = line[len(MARK):].strip() or None
            if current:
                result[current] = []
        elif current is not None:
            result[current].append(line)
    return result


@unittest.skipUnless(shutil.which(GDB), f"{GDB} is not installed")
@unittest.skipUnless(shutil.which(QEMU), f"{QEMU} is not installed")
@unittest.skipUnless(os.path.exists(KERNEL),
                     f"{KERNEL} is not built (make builds it)")
class GdbHelpersTest(unittest.TestCase):
    out: dict[str, list[str]]
    log: list[str]

    @classmethod
    def setUpClass(cls) -> None:
        work = tempfile.mkdtemp(prefix="mm86-gdb-")
        log = os.path.join(work, "serial.log")
        port = free_port()
        qemu = [QEMU, "-display", "none", "-serial", f"file:{log}",
                "-monitor", "none", "-no-reboot", "-S",
                "-gdb", f"tcp:127.0.0.1:{port}", "-m", "512M", "-smp", "1",
                *machine.DEBUG_EXIT, "-kernel", KERNEL,
                "-append", f"ktest.filter={FILTER}"]
        cmds = ["set pagination off", "set confirm off",
                f"file {KERNEL}", f"source {SCRIPT}",
                f"target remote 127.0.0.1:{port}",
                "break show_buddyinfo", "break show_slabinfo",
                "continue"]
        cmds += run("buddyinfo", "mm-buddyinfo")
        cmds += run("zoneinfo", "mm-zoneinfo")
        cmds += run("pcp", "mm-pcp")
        cmds += run("physmap", "mm-physmap")
        cmds += run("page 0", "mm-page 0")
        cmds += run("page cache", "mm-page cache_chain.next.next")
        cmds += run("page free", f"mm-page {TOP_FREE}")
        cmds += run("page tail", f"mm-page {TOP_FREE_PFN} + 3")
        cmds += ["continue"]
        cmds += run("slabinfo", "mm-slabinfo")
        for mask, _ in GFP_CASES:
            cmds += run(f"gfp {mask:#x}", f"mm-gfp {mask:#x}")
        cmds += ["delete", "continue"]
        gdb = [GDB, "-q", "-nx", "-batch"]
        for c in cmds:
            gdb += ["-ex", c]
        qproc = subprocess.Popen(qemu, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        try:
            try:
                res = subprocess.run(gdb, capture_output=True, text=True,
                                     timeout=TIMEOUT, cwd=work,
                                     stdin=subprocess.DEVNULL)
                qproc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                raise AssertionError("gdb or QEMU still running after "
                                     f"{TIMEOUT + 10} s; killed") from None
            with open(log, encoding="utf-8", errors="replace") as f:
                cls.log = f.read().splitlines()
        finally:
            if qproc.poll() is None:
                qproc.kill()
                qproc.wait()
            shutil.rmtree(work, ignore_errors=True)
        cls.gdb_text = res.stdout + res.stderr
        cls.out = sections(res.stdout)

    def helper(self, name: str) -> list[str]:
        self.assertIn(name, self.out,
                      f"gdb never ran {name}:\n{self.gdb_text[-3000:]}")
        lines = self.out[name]
        self.assertTrue(lines, f"{name} printed nothing:\n"
                        f"{self.gdb_text[-3000:]}")
        return lines

    def test_buddyinfo_equals_the_kernels_dump(self) -> None:
        want = dump(self.log, "/proc/buddyinfo")
        self.assertTrue(want, "no /proc/buddyinfo in the serial log")
        self.assertEqual(self.helper("buddyinfo"), want)

    def test_zoneinfo_equals_the_kernels_dump(self) -> None:
        want = dump(self.log, "/proc/zoneinfo")
        self.assertTrue(want, "no /proc/zoneinfo in the serial log")
        self.assertEqual(self.helper("zoneinfo"), want)

    def test_slabinfo_equals_the_kernels_dump(self) -> None:
        want = dump(self.log, "/proc/slabinfo")
        self.assertTrue(want, "no /proc/slabinfo in the serial log")
        self.assertEqual(self.helper("slabinfo"), want)

    def test_pcp_matches_zoneinfos_pagesets(self) -> None:
        # zoneinfo's pagesets: cpu, list, count, high, batch per zone.
        want, zone = [], None
        for line in dump(self.log, "/proc/zoneinfo"):
            if m := re.match(r"Node (\d+), zone +(\S+)$", line):
                zone = (m[1], m[2])
            elif m := re.match(r" +cpu: (\d+) pcp: (\d)$", line):
                want.append([*zone, m[1], "cold" if m[2] == "1" else "hot"])
            elif m := re.match(r" +(count|high|batch): +(\d+)$", line):
                want[-1].append(m[2])
        got = []
        for line in self.helper("pcp")[1:]:
            nid, zname, cpu, kind, count, _low, high, batch = line.split()
            got.append([nid, zname, cpu, kind, count, high, batch])
        self.assertTrue(want, "no pagesets in /proc/zoneinfo")
        self.assertEqual(got, want)

    def test_physmap_e820_equals_the_boot_log(self) -> None:
        want = [STAMP.sub("", line) for line in self.log
                if STAMP.sub("", line).startswith("BIOS-e820: ")]
        got = self.helper("physmap")
        self.assertTrue(want, "no BIOS-e820 lines in the serial log")
        self.assertEqual([l for l in got if l.startswith("BIOS-e820: ")],
                         want)
        self.assertTrue(any(re.match(r"  zone +Normal +pfn \[", l)
                            for l in got), got)

    def test_page(self) -> None:
        normal = [line.split()[4:] for line in dump(self.log,
                                                    "/proc/buddyinfo")
                  if line.split()[3] == "Normal"]
        self.assertTrue(normal and int(normal[0][-1]) > 0,
                        "no free block of ZONE_NORMAL's highest order")
        top = len(normal[0]) - 1
        self.assertRegex(self.helper("page 0")[1], r"^flags 0x[0-9a-f]+"
                         r"\([^)]*reserved[^)]*\)")
        cache = self.helper("page cache")
        self.assertRegex(cache[1], r"\(slab\)")
        self.assertRegex(cache[-1], r"^slab: cache kmem_cache ")
        free = self.helper("page free")
        self.assertRegex(free[0], r" zone Normal$")
        self.assertEqual(free[-1],
                         f"free: head of a buddy block of order {top}")
        head = free[0].split()[1]
        self.assertEqual(self.helper("page tail")[-1],
                         f"free: in the buddy block of order {top} at "
                         f"pfn {head}")

    def test_gfp_words(self) -> None:
        for mask, words in GFP_CASES:
            with self.subTest(mask=hex(mask)):
                self.assertEqual(self.helper(f"gfp {mask:#x}"),
                                 [f"{mask:#x}({words})"])


if __name__ == "__main__":
    unittest.main()
